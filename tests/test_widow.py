"""The widow games (three-hand-auction-48, four-hand-widow-48): the engine against its
pure-Python twin (:mod:`binokel_sim.reference.widow`) deal for deal on the random policy and
the heuristic (:mod:`binokel_sim.reference.widow_policy`), the auction, demand, burying and
scoring on hand-made cases, the exact widow analysis against a brute-force enumeration, every
record of both policies replayed by the independent checker (``tests/widow_replay.py``),
conservation, and the same numbers on 1 or 2 threads.
Contract: SPEC.md "Variant three-hand-auction-48", "four-hand-widow-48"; docs/rules.md
"Widow games".
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from widow_replay import replay_widow

from binokel_sim.cards import counts_of, counts_to_planes, parse_cards
from binokel_sim.constants import NO_BID
from binokel_sim.engines import widow as wg
from binokel_sim.kernels.widow.deals import I_CONCEDED, bid_limit, score_widow, widow_auction
from binokel_sim.odds.widow import bid_rows, widow_section
from binokel_sim.records.widow import records as widow_records
from binokel_sim.reference import core as core_twin
from binokel_sim.reference import widow as widow_twin
from binokel_sim.reference import widow_score
from binokel_sim.reference.core import block_streams, deal_hand
from binokel_sim.reference.play import stream_pick
from binokel_sim.reference.sampler import count_ways, sample_counts
from binokel_sim.tables import compile_tables
from binokel_sim.variants import find_variant, rules_from_dict

WIDOW_VARIANTS = ["three-hand-auction-48", "four-hand-widow-48"]
RANDOM, HEURISTIC = 0, 1


@pytest.fixture(params=WIDOW_VARIANTS)
def widow_rules(request):
    return find_variant(request.param)


@pytest.fixture
def small_blocks(monkeypatch):
    monkeypatch.setattr(wg, "GAME_BLOCK", 7)


def records(rules, n, seed, policy="random", threads=None):
    return list(widow_records(wg.run_play(rules, n, seed, policy, threads)))


# --- the engine against its twin ------------------------------------------------------------------

def test_random_deals_equal_the_twin(widow_rules, small_blocks):
    assert records(widow_rules, 80, 13) == widow_twin.play_deals(widow_rules, 80, 13, 7)


def kernel_records(rules, seat_policies, n, seed, first_block, block_size, first_deal,
                   n_samples=128, infer=0):
    """Records of the block driver run directly (``engines.widow.run_blocks``): any policy per
    seat (kernel ids), any block size and first block (``infer``:
    ``kernels.knowledge.INFERENCE``)."""
    return list(widow_records(kernel_deals(rules, seat_policies, n, seed, first_block,
                                           block_size, first_deal, n_samples, infer),
                              first_deal))


def kernel_deals(rules, seat_policies, n, seed, first_block, block_size, first_deal,
                 n_samples=128, infer=0) -> wg.WidowDeals:
    """The arrays of :func:`kernel_records`."""
    from binokel_sim.kernels.modes import MODE_PLAY
    from binokel_sim.kernels.runs import Run
    from binokel_sim.kernels.widow.deals import N_INFO

    p, h, w = rules.players, rules.hand_size, rules.widow
    calls = wg.most_calls(rules)
    played = wg.WidowDeals(
        rules, np.empty((n, p, 4), np.uint32), np.empty((n, w), np.int64),
        np.empty((n, N_INFO), np.int64), np.empty((n, calls), np.int64),
        np.empty((n, calls), np.int64), np.empty((n, w), np.int64), np.empty((n, p), np.int64),
        np.empty((n, p), np.int64), np.empty((n, p), np.int64), np.empty((n, h, p), np.int64),
        np.empty((n, h), np.int64), np.empty((n, h), np.int64))
    wg.run_blocks(MODE_PLAY, compile_tables(rules).deck, wg.family_tables(rules),
                  np.array(seat_policies, np.int64),
                  Run(seed, first_block, block_size, first_deal, n),
                  wg.game_bundle(n_samples, infer=infer),
                  wg.outputs(**{f: getattr(played, f) for f in wg.DEAL_FIELDS}))
    return played


def test_the_output_helper_fills_only_what_a_run_does_not_write():
    """``engines.widow.outputs``: the arrays given by name, placeholders of one type elsewhere
    (so every run compiles one driver), and a name the kernel has no field for refused."""
    scores = np.zeros((3, 3), np.int64)
    outs = wg.outputs(scores=scores)
    assert outs.scores is scores and outs.games is not scores
    assert outs.hands.dtype == np.uint32 and outs.diff.dtype == np.float64
    assert [a.ndim for a in outs] == [a.ndim for a in wg.outputs(games=scores)]
    with pytest.raises(TypeError, match="no widow output named scorez"):
        wg.outputs(scorez=scores)


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(WIDOW_VARIANTS), st.integers(0, 2**63 - 1), st.integers(0, 300),
       st.integers(1, 5), st.integers(1, 8), st.integers(0, 40))
def test_play_blocks_equal_the_twin_anywhere(name, seed, first_block, block_size, n, first_deal):
    rules = find_variant(name)
    assert kernel_records(rules, [RANDOM] * rules.players, seed=seed, n=n,
                          first_block=first_block, block_size=block_size,
                          first_deal=first_deal) == widow_twin.play_deals(
        rules, n, seed, block_size, first_block, first_deal)


@pytest.mark.parametrize("mix", ["all", "some"])
def test_heuristic_deals_equal_the_twin(widow_rules, mix):
    """The heuristic's auction, demand, card given back, trump, burials and cards, deal for
    deal against its twin (``reference.widow_policy``), on every seat or beside random seats
    (whose draws then interleave with its decisions)."""
    names = ["heuristic"] * widow_rules.players
    if mix == "some":
        names[1] = "random"
        names[-1] = "random"
    ids = [HEURISTIC if name == "heuristic" else RANDOM for name in names]
    kernel = kernel_records(widow_rules, ids, n=120, seed=5, first_block=0, block_size=7,
                            first_deal=0)
    twin = widow_twin.play_deals(widow_rules, 120, 5, 7, policies=names)
    assert kernel == twin
    # the decisions the twin checks were taken: demands, bids above the minimum, every trump
    heuristic_solo = [r for r in twin if names[r["soloist"]] == "heuristic"]
    assert sum(r["demand"] is not None for r in heuristic_solo) > len(heuristic_solo) // 2
    assert any(r["bid"] > widow_rules.bid_ladder[0][0] for r in twin)
    assert {r["trump"] for r in heuristic_solo} == {"S", "H", "D", "C"}


def test_the_fitted_expert_buries_its_aces_last_as_the_twin(widow_rules):
    """The fitted expert (docs/rules.md "Expert policy", "In the widow games") on every seat and
    beside the heuristic and random seats: deal for deal the twin's burials and cards, and its
    burials are not the heuristic's (a soloist who holds a side ace keeps it longer)."""
    from binokel_sim.kernels.policies import POLICY_EXPERT

    for names in (["expert"] * widow_rules.players,
                  (["expert", "heuristic", "random", "heuristic"])[:widow_rules.players]):
        ids = [{"expert": POLICY_EXPERT, "heuristic": HEURISTIC, "random": RANDOM}[n]
               for n in names]
        kernel = kernel_records(widow_rules, ids, n=60, seed=8, first_block=0, block_size=7,
                                first_deal=0)
        assert kernel == widow_twin.play_deals(widow_rules, 60, 8, 7, policies=names)
    plain = kernel_records(widow_rules, [HEURISTIC] * widow_rules.players, n=60, seed=8,
                           first_block=0, block_size=7, first_deal=0)
    expert = kernel_records(widow_rules, [POLICY_EXPERT] * widow_rules.players, n=60, seed=8,
                            first_block=0, block_size=7, first_deal=0)
    assert [r["buried"] for r in plain] != [r["buried"] for r in expert]
    buried_aces = [sum(c.startswith("A") for c in r["buried"]) for r in plain], \
        [sum(c.startswith("A") for c in r["buried"]) for r in expert]
    assert sum(buried_aces[1]) < sum(buried_aces[0])


def test_the_burial_orders_kernel_and_twin():
    """Row 2 of the preferences (the expert's burial) is the twin's ``bury_order`` with
    ``aces_last``: no trump before a trump, a side ace after every other side card, then the
    most card points; row 1 is the heuristic's."""
    from binokel_sim.cards import N_RANKS, RANK_A
    from binokel_sim.reference import widow_policy

    for name in ("swabian-3-40", "four-hand-widow-48"):
        rules = find_variant(name)
        table = wg.preferences(rules)
        for trump in range(4):
            assert list(table[1, trump]) == widow_policy.bury_order(rules, trump)
            order = list(table[2, trump])
            assert order == widow_policy.bury_order(rules, trump, aces_last=True)
            side = [t for t in order if t // N_RANKS != trump]
            aces = [i for i, t in enumerate(side) if t % N_RANKS == RANK_A]
            assert aces == list(range(len(side) - 3, len(side)))  # three side suits
            assert order[len(side):] == [t for t in order if t // N_RANKS == trump]


TRIAL_KNOBS = [  # the strict knobs the expert may carry: the S-rules' and the scorer's
    {"team": 1, "pull_margin": 1, "take_last": 5, "grab": 10},
    {"bury_aces_last": 1, "team": 1},
    {"bury_void": 4},
    {"bid_shift": 30, "bid_open": 130, "bid_partner": 30},  # weg, and holding back behind the
    {"bid_open": 300, "bid_partner": 1},  # partner (docs/rules.md "Widow games", "Policies")
    {"team": 1, "strict_score": 1, "strict_lead_trump": -20, "strict_lead_master": 10,
     "strict_lead_pull": 30, "strict_lead_big": 3, "strict_lead_rank": -1,
     "strict_lead_length": 1, "strict_lead_out": -2, "strict_follow_win": 20,
     "strict_follow_take": 1, "strict_follow_safe": 20, "strict_follow_big_wins": 5,
     "strict_follow_big_loses": -20, "strict_follow_smear": 40, "strict_follow_trump": -10,
     "strict_follow_rank": -1}]


@pytest.mark.parametrize("knobs", TRIAL_KNOBS)
def test_expert_knobs_deals_equal_the_twin(widow_rules, knobs):
    """Beside the fitted knobs (docs/rules.md "Expert policy"), the fitting script may set
    others: with trial knobs (the soloist burying his side aces last, the defenders as partners,
    the S-rules' thresholds, the strict scorer) the expert beside the heuristic and random seats
    buries and plays as the twin, deal for deal, and the knobs change play (the records differ
    from the heuristic's)."""
    from binokel_sim import expert_play
    from binokel_sim.kernels.policies import POLICY_EXPERT

    names = (["expert", "heuristic", "random", "expert"])[:widow_rules.players]
    ids = [{"expert": POLICY_EXPERT, "heuristic": HEURISTIC, "random": RANDOM}[n] for n in names]
    expert_play.override(widow_rules.name, knobs)
    wg.family_tables.cache_clear()
    try:
        kernel = kernel_records(widow_rules, ids, n=80, seed=6, first_block=0, block_size=7,
                                first_deal=0)
        twin = widow_twin.play_deals(widow_rules, 80, 6, 7, policies=names)
    finally:
        expert_play.override(widow_rules.name, None)
        wg.family_tables.cache_clear()
    assert kernel == twin
    plain = kernel_records(widow_rules, [HEURISTIC if n == "expert" else i
                                         for n, i in zip(names, ids)],
                           n=80, seed=6, first_block=0, block_size=7, first_deal=0)
    assert plain != kernel


# --- hand-made cases: auction, scoring ----------------------------------------------------------

def planes_of(texts):
    return np.array([counts_to_planes(counts_of(parse_cards(t))) for t in texts], np.uint32)


def run_auction(rules, texts, dealer, policies):
    hands = planes_of(texts)
    seats = np.full(wg.most_calls(rules), -1, np.int64)  # the kernel writes without a check
    values = np.full(wg.most_calls(rules), NO_BID, np.int64)
    state = np.zeros(4, np.uint64) + np.uint64(12345)
    soloist, bid, n, *_ = widow_auction(hands, dealer, np.array(policies, np.int64),
                                        wg.family_tables(rules), seats, values, tuple(state))
    return soloist, bid, list(zip(seats[:n].tolist(), values[:n].tolist()))


STRONG = "AS AS TS TS KS KS QS QS JS JS 9S AH AD AC JD"
WEAK = "9H 9H JH JH 9D 9D JD 9C 9C JC JC QH TD TC TH"
MID = "AH KH QH TH KD QD KC QC AC TC JS 9S KS AD QS"


def limit_of(rules, text: str, shift: int = 0) -> int:
    """The kernel's bid limit of a hand (:func:`~binokel_sim.kernels.widow.deals.bid_limit`) read
    ``shift`` estimate rows higher (the expert's knob ``bid_shift``), asserted equal to the
    twin's."""
    from binokel_sim.kernels.widow.deals import CFG_TABLE_LOW
    from binokel_sim.reference.widow_policy import bid_limit as twin_bid_limit

    tw = wg.family_tables(rules)
    limit = int(bid_limit(*planes_of([text])[0], tw.kt, np.empty(4, np.int64), tw.card_points,
                          tw.bid_w, tw.cfg[CFG_TABLE_LOW], tw.bid_limits, shift))
    assert limit == twin_bid_limit(rules, [int(c) for c in counts_of(parse_cards(text))], shift)
    return limit


def test_auction_heuristic_bids_up_to_its_limit():
    rules = find_variant("three-hand-auction-48")
    limits = [limit_of(rules, t) for t in (STRONG, MID, WEAK)]
    assert limits[0] > limits[1] > limits[2] >= 200
    soloist, bid, calls = run_auction(rules, [STRONG, MID, WEAK], 2, [HEURISTIC] * 3)
    assert soloist == 0
    # seat 0 leads the calls; seat 2 (weak) passes above its limit; the two others raise by 10
    # until the middle hand's limit is passed
    assert calls[0] == (0, 200) and (2, NO_BID) in calls
    assert limits[1] <= bid <= limits[1] + 10 and bid <= limits[0]
    assert calls[-1][1] == NO_BID and calls[-1][0] == 1


def test_the_experts_bid_shift_raises_its_limit_and_its_calls():
    """``bid_shift``: an expert seat reads its limit that many estimate points higher; a
    heuristic seat is unmoved. With the middle hand's expert shifted far up, it outbids the
    strong hand."""
    from binokel_sim import expert_play
    from binokel_sim.kernels.policies import POLICY_EXPERT

    rules = find_variant("three-hand-auction-48")
    assert limit_of(rules, MID, 60) > limit_of(rules, MID, 0) >= limit_of(rules, MID, -60)
    fitted = expert_play.knobs(rules.name, dict.fromkeys(expert_play.KNOBS, 0))
    try:
        expert_play.override(rules.name, {**fitted, "bid_shift": 400})
        wg.family_tables.cache_clear()
        soloist, bid, _ = run_auction(rules, [STRONG, MID, WEAK], 2,
                                      [HEURISTIC, POLICY_EXPERT, HEURISTIC])
        assert soloist == 1 and bid > limit_of(rules, STRONG)
        soloist, _, _ = run_auction(rules, [STRONG, MID, WEAK], 2, [HEURISTIC] * 3)
        assert soloist == 0
    finally:
        expert_play.override(rules.name, None)
        wg.family_tables.cache_clear()


def test_auction_all_pass_leaves_the_dealer_at_the_minimum_without_a_call():
    from test_variants import builtin_dict

    data = builtin_dict("three-hand-auction-48")
    data["bidding"]["ladder"] = [[600, 10]]  # a house ladder above the weak hand's worth
    rules = rules_from_dict(data)
    assert limit_of(rules, WEAK) < 600
    soloist, bid, calls = run_auction(rules, [WEAK, WEAK, WEAK], 1, [HEURISTIC] * 3)
    assert (soloist, bid) == (1, 600)
    assert calls == [(2, NO_BID), (0, NO_BID)]  # the dealer, left alone, makes no call


def score(rules, melds, card_pts, won, soloist, bid):
    cfg = wg.family_tables(rules).cfg
    scores = np.empty(rules.players, np.int64)
    bonus, made, total = score_widow(np.array(melds), np.array(card_pts), np.array(won),
                                     soloist, bid, cfg, scores)
    return bonus, bool(made), int(total), scores.tolist()


def test_scoring_made_and_set():
    rules = find_variant("three-hand-auction-48")
    # made: the soloist scores all he made; each opponent his meld + card points
    assert score(rules, [150, 60, 40], [120, 80, 50], [8, 4, 3], 0, 250) == \
        (0, True, 270, [270, 140, 90])
    # set: minus twice the bid
    assert score(rules, [100, 60, 40], [90, 100, 60], [6, 5, 4], 0, 250) == \
        (0, False, 190, [-500, 160, 100])


def test_scoring_a_player_without_a_trick_loses_his_meld_and_all_tricks_score_1000():
    rules = find_variant("three-hand-auction-48")
    assert score(rules, [100, 60, 40], [150, 100, 0], [9, 6, 0], 1, 150) == \
        (0, True, 160, [250, 160, 0])
    assert score(rules, [100, 60, 40], [250, 0, 0], [15, 0, 0], 0, 600) == \
        (1000, True, 1350, [1350, 0, 0])


def test_scoring_partnerships_add_up_and_partners_score_alike():
    rules = find_variant("four-hand-widow-48")
    bonus, made, total, scores = score(rules, [100, 20, 60, 0], [100, 60, 40, 50], [5, 3, 2, 1],
                                       2, 300)
    assert (bonus, made, total) == (0, True, 300)  # 100 + 60 meld + 100 + 40 cards
    assert scores == [300, 130, 300, 130]
    # a partnership without a trick loses its meld; the other took all 11: +1000
    bonus, made, total, scores = score(rules, [100, 80, 60, 0], [200, 0, 50, 0], [7, 0, 4, 0],
                                       0, 200)
    assert (bonus, made, total) == (1000, True, 1410) and scores == [1410, 0, 1410, 0]


def test_demand_and_burying_in_records(widow_rules):
    """Records hold demands answered by every kind of holder and burials of the right size."""
    froms = set()
    for record in records(widow_rules, 400, 3, "heuristic") + records(widow_rules, 400, 3):
        assert len(record["buried"]) == widow_rules.widow
        if record["demand"]:
            froms.add((record["demand"]["from"] - record["soloist"]) % widow_rules.players)
            assert record["demand"]["given"] != record["demand"]["card"]
    assert froms == set(range(1, widow_rules.players))  # the partner answers too (four-hand)


# --- whole deals ----------------------------------------------------------------------------------

@pytest.mark.parametrize("policy", ["random", "heuristic", "expert"])
def test_card_points_and_bonus_are_conserved(widow_rules, policy):
    played = wg.run_play(widow_rules, 3000, 2, policy)
    conceded = played.info[:, I_CONCEDED] != 0  # Abgehen: no play, no card points
    assert (played.card_points.sum(axis=1) == np.where(conceded, 0, 250)).all()
    assert set(np.unique(played.info[:, 7]).tolist()) <= {0, 1000}


@pytest.mark.parametrize("policy", ["random", "heuristic", "expert"])
def test_records_replay_under_the_rules(widow_rules, policy):
    for record in records(widow_rules, 1500, 31, policy):
        replay_widow(widow_rules, record)


def test_same_numbers_on_one_and_two_threads(widow_rules, two_threads):
    one = wg.run_play(widow_rules, 3000, 9, "random", threads=1)
    two = wg.run_play(widow_rules, 3000, 9, "random", threads=two_threads)
    for field in ("hands", "widow", "info", "buried", "scores", "trick_cards"):
        assert np.array_equal(getattr(one, field), getattr(two, field))
    assert np.array_equal(wg.run_duel(widow_rules, "heuristic", "random", 2000, 9, 1),
                          wg.run_duel(widow_rules, "heuristic", "random", 2000, 9, 2))
    assert np.array_equal(wg.run_match(widow_rules, "heuristic", "random", 200, 9, 1),
                          wg.run_match(widow_rules, "heuristic", "random", 200, 9, 2))
    hand = counts_of(parse_cards(widow_rules.example_hand))
    assert np.array_equal(wg.run_samples(widow_rules, hand, 3000, 9, "heuristic", threads=1),
                          wg.run_samples(widow_rules, hand, 3000, 9, "heuristic", threads=2))


def test_duel_and_match_heuristic_beats_random(widow_rules):
    diff = wg.run_duel(widow_rules, "heuristic", "random", 3000, 1)
    assert diff.mean() - 4 * diff.std() / np.sqrt(diff.size) > 100
    even = wg.run_duel(widow_rules, "random", "random", 3000, 1)
    assert abs(even.mean()) < 4 * even.std() / np.sqrt(even.size)
    games = wg.run_match(widow_rules, "heuristic", "random", 300, 1)
    assert (games[:, 0] >= 0).all() and (games[:, 0] == 1).mean() > 0.8


# --- the exact widow and the bid rows --------------------------------------------------------------

def test_exact_widow_equals_brute_force_over_physical_cards():
    rules = find_variant("three-hand-auction-48")
    hand = list(counts_of(parse_cards(rules.example_hand)))
    unseen = [t for t in range(24) for _ in range(2 - hand[t])]
    hist: dict[int, int] = {}
    for widow in combinations(range(len(unseen)), 3):
        counts = list(hand)
        for i in widow:
            counts[unseen[i]] += 1
        best = max(core_twin.meld_total(rules, counts, trump) for trump in range(4))
        hist[best] = hist.get(best, 0) + 1
    widows = sum(hist.values())
    section = widow_section(rules, np.array(hand))
    assert section["widows"] == widows == 5456  # C(33, 3)
    assert {d["meld"]: d["probability"] for d in section["distribution"]} == \
        {v: float(Fraction(k, widows)) for v, k in sorted(hist.items())}
    own = max(core_twin.meld_total(rules, hand, trump) for trump in range(4))
    assert section["own_best_meld"] == own
    assert section["p_improves"] == pytest.approx(
        sum(k for v, k in hist.items() if v > own) / widows, abs=1e-12)
    assert section["mean_best_meld"] == pytest.approx(
        sum(v * k for v, k in hist.items()) / widows, abs=1e-12)


def test_exact_widow_of_four_weighs_every_widow():
    rules = find_variant("four-hand-widow-48")
    section = widow_section(rules, counts_of(parse_cards(rules.example_hand)))
    assert section["widows"] == 66045  # C(37, 4)
    assert sum(d["probability"] for d in section["distribution"]) == pytest.approx(1, abs=1e-12)
    assert section["mean_best_meld"] >= section["own_best_meld"]


def samples_of(totals, concede_from=None) -> np.ndarray:
    """Sample rows (``SAMPLE_FIELDS``) with these totals, given up from ``concede_from`` (none
    by default), the other columns zero."""
    from binokel_sim.widow_value import NEVER

    out = np.zeros((len(totals), len(wg.SAMPLE_FIELDS)), dtype=np.int64)
    out[:, wg.SAMPLE_FIELDS.index("total")] = totals
    out[:, wg.SAMPLE_FIELDS.index("concede_from")] = (
        NEVER if concede_from is None else concede_from)
    return out


def test_bid_rows_from_totals():
    rules = find_variant("three-hand-auction-48")
    totals = np.array([150, 200, 230, 260, 400] * 200)
    rows = bid_rows(rules, samples_of(totals)).to_dicts()
    assert [r["bid"] for r in rows] == list(range(200, 410, 10))
    at = {r["bid"]: r for r in rows}
    assert at[200]["p_make"] == pytest.approx(0.8)
    # made: the total; set: minus twice the bid
    assert at[200]["expected_score"] == pytest.approx((200 + 230 + 260 + 400 - 400) / 5)
    assert at[300]["p_make"] == pytest.approx(0.2)
    assert at[300]["expected_score"] == pytest.approx((400 - 4 * 600) / 5)


# --- bid odds under what the user knows (--known, --void) -----------------------------------------

def twin_constrained_samples(rules, counts, n, seed, block_size, knowledge, policies=None,
                             dealer=None):
    """The constrained samples by the twins: the sampler's twin deals the other seats and the
    widow, the widow's order is a partial Fisher-Yates of its cards, then the widow twin plays
    the deal as a sample (seat 0 the soloist, no auction) with the random policy, all on one
    stream. Rows as ``SAMPLE_FIELDS``."""
    players = rules.players
    known = [[int(x) for x in knowledge.known[s]] for s in range(1, players)]
    allowed = [int(knowledge.allowed[s]) for s in range(1, players)] + [(1 << 24) - 1]
    pool = [int(rules.deck_counts()[t]) - int(counts[t]) - sum(k[t] for k in known)
            for t in range(24)]
    capacity = [rules.hand_size - sum(k) for k in known] + [rules.widow]
    out = []
    for d, stream, _ in block_streams([0], n, seed, block_size):
        split = sample_counts(pool, allowed, capacity, stream)
        hands = [[int(c) for c in counts]] + [[k[t] + x[t] for t in range(24)]
                                              for k, x in zip(known, split)]
        widow = [t for t in range(24) for _ in range(split[-1][t])]
        deal_hand(widow, 0, len(widow), stream)
        record = widow_twin.play_deal(rules, hands, split[-1],
                                      d % players if dealer is None else dealer,
                                      stream_pick(stream), sample=True, policies=policies,
                                      stream=stream)
        ours = [s for s in range(players) if widow_score.side_of(rules, s) == 0]
        tricks = sum(1 for t in record["tricks"] if t["winner"] in ours)
        out.append([record["pair_scores"][0] if rules.partnerships else record["scores"][0],
                    "SHDC".index(record["trump"]) if record["trump"] else -1, record["melds"][0],
                    int(tricks == rules.hand_size),
                    sum(record["card_points"][s] for s in ours), record["concede_from"],
                    record["scores"][1], int(record["durch"]), int(record["sure_bettel"]),
                    1])  # draws: one deal a sample without an auction to repeat
    return out


@pytest.mark.parametrize("policy", ["random", "expert"])
@pytest.mark.parametrize("name, known, void", [
    ("three-hand-auction-48", ["left:TH TH KS", "right:TD"], ["1:C"]),
    ("four-hand-widow-48", ["partner:AS", "3:KD QD"], ["left:H", "right:S"]),
])
def test_constrained_samples_equal_the_twin(name, known, void, policy, small_blocks):
    """bid-odds' samples (seat 0 the soloist) against the twins, random on every seat or the
    expert (its burial and its cards)."""
    from binokel_sim.constraints import parse_knowledge

    rules = find_variant(name)
    hand = np.asarray(counts_of(parse_cards(rules.example_hand)))
    k = parse_knowledge(rules, hand, known, void)
    out = wg.run_samples(rules, hand, 20, 3, policy, knowledge=k)
    assert out.tolist() == twin_constrained_samples(
        rules, hand, 20, 3, 7, k, policies=None if policy == "random" else [policy] * rules.players)


def test_nothing_known_is_the_plain_shuffle(widow_rules):
    from binokel_sim.constraints import parse_knowledge

    hand = np.asarray(counts_of(parse_cards(widow_rules.example_hand)))
    plain = wg.run_samples(widow_rules, hand, 2000, 4, "heuristic")
    empty = wg.run_samples(widow_rules, hand, 2000, 4, "heuristic",
                                 knowledge=parse_knowledge(widow_rules, hand, [], []))
    assert np.array_equal(plain, empty)
    assert widow_section(widow_rules, hand, parse_knowledge(widow_rules, hand, [], [])) == \
        widow_section(widow_rules, hand)


def test_exact_widow_under_knowledge_equals_brute_force():
    """Every physical widow of the cards not known to be elsewhere, weighed by the deals of the
    rest to the two other seats that respect the knowledge (the sampler twin's exact count)."""
    from binokel_sim.constraints import parse_knowledge

    rules = find_variant("three-hand-auction-48")
    hand = list(counts_of(parse_cards(rules.example_hand)))
    k = parse_knowledge(rules, np.array(hand), ["left:AH TH KH QH JH 9H", "right:AC"],
                        ["right:D"])
    known = [[int(x) for x in k.known[s]] for s in (1, 2)]
    allowed = [int(k.allowed[s]) for s in (1, 2)]
    rest = [2 - hand[t] - known[0][t] - known[1][t] for t in range(24)]
    capacity = [15 - sum(known[0]), 15 - sum(known[1])]
    cards = [t for t in range(24) for _ in range(rest[t])]
    weight: dict[int, int] = {}
    memo: dict = {}
    widows = 0
    for widow in combinations(range(len(cards)), 3):
        left = list(rest)
        for i in widow:
            left[cards[i]] -= 1
        key = tuple(left)
        if key not in memo:
            memo[key] = count_ways(left, allowed, capacity)
        if memo[key] == 0:
            continue
        widows += 1
        counts = list(hand)
        for i in widow:
            counts[cards[i]] += 1
        best = max(core_twin.meld_total(rules, counts, trump) for trump in range(4))
        weight[best] = weight.get(best, 0) + memo[key]
    total = sum(weight.values())
    section = widow_section(rules, np.array(hand), k)
    assert section["widows"] == widows
    got = {d["meld"]: d["probability"] for d in section["distribution"]}
    assert got.keys() == weight.keys()
    for v, w in weight.items():
        assert got[v] == pytest.approx(w / total, rel=1e-12)
    assert section["mean_best_meld"] == pytest.approx(
        sum(v * w for v, w in weight.items()) / total, rel=1e-12)
    # the cards known to be elsewhere are in no widow: fewer widows than without knowledge
    plain = widow_section(rules, np.array(hand))
    assert section != plain and widows < plain["widows"]


def test_widow_knowledge_errors_before_work():
    from binokel_sim.constraints import parse_knowledge
    from binokel_sim.errors import CardError
    from binokel_sim.odds import bid_odds

    rules = find_variant("three-hand-auction-48")
    hand = np.asarray(counts_of(parse_cards(rules.example_hand)))
    # both other seats void in every suit: the 33 unseen cards all go to a 3-card widow
    k = parse_knowledge(rules, hand, [], ["left:S H D C", "right:S H D C"])
    with pytest.raises(CardError, match="no deal fits"):
        bid_odds(rules, hand, 1000, 1, knowledge=k)
