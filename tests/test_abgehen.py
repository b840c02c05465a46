"""Abgehen (SPEC "House variants of today's Binokel"): after the widow, burying and trump, the
soloist of every widow game may give up before the first lead; his side loses the bid once and
scores no meld, every other side scores its meld plus ``[widow] concede_bonus``. A heuristic or
sampling soloist gives up when his estimate (binokel_sim/widow_value.py) says playing is worth
less than giving up; a random one never does.

The estimate's kernel against its twin and against the fitted model, the engine against its twin
deal for deal where soloists often give up (a house ladder from 300), thousands of records replayed
by the independent checker, the checker's refusals, the decision's worth, and the bid rows.
"""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest
from test_variants import builtin_dict
from test_widow import kernel_records, samples_of, twin_constrained_samples
from test_widow_switches import heuristic_mix
from widow_replay import replay_widow

from binokel_sim.cards import N_TYPES, counts_to_planes
from binokel_sim.engines import widow as widow_games
from binokel_sim.hands import parse_hand
from binokel_sim.kernels.policies import POLICY_NAMES
from binokel_sim.kernels.widow.deals import I_BID, I_CONCEDED, I_DURCH, I_SOLOIST, I_TRUMP
from binokel_sim.odds.widow import bid_rows
from binokel_sim.records.widow import records as widow_records
from binokel_sim.records.widow import soloist_cards
from binokel_sim.reference import widow as widow_twin
from binokel_sim.reference import widow_policy
from binokel_sim.reference.core import meld_total
from binokel_sim.reference.widow_score import score_conceded
from binokel_sim.variants import RulesError, find_variant, rules_from_dict
from binokel_sim.widow_value import (
    NEVER,
    SCALE,
    concede_table,
    denominators,
    features,
    kind,
    load_model,
    play_value,
    weights,
)

WIDOW_GAMES = ["three-hand-auction-48", "four-hand-widow-48", "swabian-3-40", "kreuz-4-40"]


def house(name: str, ladder_from: int | None = None, **widow) -> object:
    """A built-in widow game with the ladder starting at ``ladder_from`` (a dealer forced to
    play there often gives up) and these ``[widow]`` keys."""
    data = builtin_dict(name)
    if ladder_from is not None:
        data["bidding"]["ladder"] = [[ladder_from, 10]]
    data.setdefault("widow", {})
    if widow.get("concede") is False:  # no Abgehen: the built-in bonus would be refused
        data["widow"].pop("concede_bonus", None)
    data["widow"].update(widow)
    return rules_from_dict(data, f"{name} (house)")


@pytest.fixture(params=["swabian-3-40", "kreuz-4-40", "three-hand-auction-48"])
def high(request):
    """A widow game whose bidding starts at 300: soloists give up often."""
    return house(request.param, 300)


# --- the rules ------------------------------------------------------------------------------------

def test_abgehen_is_on_in_every_widow_game_with_a_bonus_of_30():
    for name in WIDOW_GAMES:
        rules = find_variant(name)
        assert rules.widow_concede is True and rules.concede_bonus == 30
    assert find_variant("four-hand-80").widow_concede is False  # no widow, no Abgehen
    assert house("swabian-3-40", concede=False).widow_concede is False
    with pytest.raises(RulesError, match="only a game with Abgehen"):  # a bonus never paid
        house("swabian-3-40", concede=False, concede_bonus=40)


@pytest.mark.parametrize("key, value, needle", [
    ("concede", "yes", "expected true/false"),
    ("concede_bonus", -1, "concede_bonus"),
    ("concede_bonus", 2.5, "concede_bonus"),
    ("ramsch", True, "unknown key 'ramsch'"),
])
def test_a_bad_abgehen_key_is_refused(key, value, needle):
    data = builtin_dict("swabian-3-40")
    data["widow"][key] = value
    with pytest.raises(RulesError, match=needle):
        rules_from_dict(data)


@pytest.mark.parametrize("name, melds, soloist, bid, scores", [
    # three hands, each for himself: minus the bid once; each other seat its meld + 30
    ("swabian-3-40", [40, 100, 20], 0, 200, [-200, 130, 50]),
    ("three-hand-auction-48", [0, 60, 0], 2, 350, [30, 90, -350]),
    # partnerships: the soloist's partner's meld is lost; the other side its two melds + 30 once
    ("kreuz-4-40", [40, 100, 20, 60], 1, 200, [90, -200, 90, -200]),
    ("four-hand-widow-48", [0, 0, 80, 0], 0, 210, [-210, 30, -210, 30]),
])
def test_the_score_of_a_conceded_deal(name, melds, soloist, bid, scores):
    """Known answers, from the twin and from the kernel."""
    from binokel_sim.kernels.widow.score import score_conceded as kernel_score

    rules = find_variant(name)
    assert score_conceded(rules, soloist, bid, melds).scores == scores
    got = np.zeros(rules.players, dtype=np.int64)
    bonus, made, total = kernel_score(np.array(melds, dtype=np.int64), soloist, bid,
                                      rules.players, bool(rules.partnerships),
                                      rules.concede_bonus, got, np.zeros((4, 4), np.int64))
    assert got.tolist() == scores and (bonus, made, total) == (0, False, -bid)


# --- the estimate ---------------------------------------------------------------------------------

def random_hands(rules, n: int, seed: int):
    """``n`` random hands of the deal's size plus the widow, each split into the hand kept and
    the cards buried (counts per card type)."""
    rng = np.random.default_rng(seed)
    deck = [t for t in range(N_TYPES) for _ in range(int(rules.deck_counts()[t]))]
    for _ in range(n):
        cards = rng.permutation(deck)[:rules.hand_size + rules.widow]
        hand, buried = [0] * N_TYPES, [0] * N_TYPES
        for t in cards[:rules.hand_size]:
            hand[int(t)] += 1
        for t in cards[rules.hand_size:]:
            buried[int(t)] += 1
        yield hand, buried


def break_even_bid(estimate: float, sd: float) -> int:
    """The smallest bid ``b >= 1`` at which playing, with the total normal around ``estimate``
    (``sd``), is expected to score less than giving up (``play_value(b) < -b``), found by
    walking up from the estimate: a bid at or below it is made at least half the time, so
    playing it is worth at least ``-b / 2``."""
    b = max(1, math.floor(estimate))
    while play_value(b, estimate, sd) >= -b:
        b += 1
    return b


@pytest.mark.parametrize("name", WIDOW_GAMES)
def test_the_estimate_kernel_equals_its_twin_and_the_fitted_model(name):
    """``concede_from`` of the kernel (planes, integer weights, the threshold table) equals the
    twin's (counts) on random hands and every trump, and both are the first bid at which the
    fitted model (floating point) says playing is worth less than giving up, within the point
    or two that flooring the estimate and the integer weights may move it."""
    from binokel_sim.kernels.widow.deals import concede_from as kernel_concede_from

    rules = find_variant(name)
    model = load_model()["models"][kind(rules)]
    total = rules.total_card_points
    sd = model["sd"] * total
    points = np.array([rules.rank_points[t % 6] for t in range(N_TYPES)], dtype=np.int64)
    value = np.array(weights(rules), dtype=np.int64)
    low, thresholds = concede_table(rules)
    for hand, buried in random_hands(rules, 150, 5):
        p = counts_to_planes(np.array(hand))
        buried_points = int(sum(points[t] * buried[t] for t in range(N_TYPES)))
        for trump in range(4):
            meld = int(meld_total(rules, hand, trump))
            twin = widow_policy.concede_from(rules, hand, trump, meld, buried)
            kernel = kernel_concede_from(p[0], p[1], p[2], p[3], trump, meld, buried_points,
                                         points, value, low, thresholds)
            assert kernel == twin
            counts = features(rules, hand, trump, buried)
            estimate = meld + total * (model["coef"][0] + sum(
                c * f / d for c, f, d in zip(model["coef"][1:], counts, denominators(rules))))
            assert abs(twin - break_even_bid(estimate, sd)) <= 2
            assert twin > estimate  # the margin is added: a bid at the estimate is played


@pytest.mark.parametrize("name", WIDOW_GAMES)
def test_the_concede_table_is_the_break_even_bid(name):
    """Every row of the table is the break-even bid of its estimate: playing is worth less than
    giving up there and not one point below; the thresholds only grow with the estimate, and
    above the estimate by more than the 1/3 bound's 0.43 sd (a made contract scores its whole
    total, not just the bid, so giving up pays later than P(make) = 1/3)."""
    rules = find_variant(name)
    sd = load_model()["models"][kind(rules)]["sd"] * rules.total_card_points
    low, thresholds = concede_table(rules)
    assert thresholds.dtype == np.int64 and (np.diff(thresholds) >= 0).all()
    for i in range(0, thresholds.size, 37):
        e, b = low + i, int(thresholds[i])
        assert play_value(b, e, sd) < -b
        assert b == 1 or play_value(b - 1, e, sd) >= -(b - 1)
        if e >= 100:
            assert b > e + 0.43 * sd


def side_total(played, d: int) -> int:
    """The soloist side's total in played deal ``d`` (docs/rules.md, "Play and scoring"): its
    card points, its meld if it took a trick, the all-tricks bonus if it took every trick."""
    rules = played.rules
    soloist = int(played.info[d, I_SOLOIST])
    side = [soloist, (soloist + 2) % rules.players] if rules.partnerships else [soloist]
    won = sum(int((played.trick_winners[d] == seat).sum()) for seat in side)
    total = sum(int(played.card_points[d, seat]) for seat in side)
    if won:
        total += sum(int(played.melds[d, seat]) for seat in side)
    return total + (rules.all_tricks_bonus if won == rules.hand_size else 0)


@pytest.mark.parametrize("name", WIDOW_GAMES)
def test_at_concede_from_playing_and_giving_up_are_worth_alike(name):
    """The decision is calibrated on the deals it is taken in: 3,000 heuristic deals with Abgehen
    off (every deal is played out; seed 3, not the fit's 7), each soloist's ``concede_from``
    computed from the hand he played. Playing bid ``b`` scores the side's total ``T`` when it
    reaches ``b`` and ``-2b`` when not; giving up scores ``-b``. Over the deals, playing at
    ``concede_from - sd/3`` is worth more than giving up there and playing at
    ``concede_from + sd/3`` worth less, so the break-even lies within a third of the estimate's
    error of the threshold (a margin of the wrong sign put it 0.9 sd away)."""
    rules = find_variant(name)
    sd = load_model()["models"][kind(rules)]["sd"] * rules.total_card_points
    played = widow_games.run_play(house(name, concede=False), 3000, 3, "heuristic")
    totals, thresholds = [], []
    for d in range(3000):
        if played.info[d, I_DURCH]:  # a Durch is not counted: no total to set against the bid
            continue
        hand, buried = soloist_cards(played, d)
        soloist = int(played.info[d, I_SOLOIST])
        thresholds.append(widow_policy.concede_from(rules, hand, int(played.info[d, I_TRUMP]),
                                                    int(played.melds[d, soloist]), buried))
        totals.append(side_total(played, d))
    total, c = np.array(totals), np.array(thresholds)

    def gain(bid):  # playing minus giving up, per deal
        return np.where(total >= bid, total, -2 * bid) + bid

    step = round(sd / 3)
    assert gain(c - step).mean() > 0 > gain(c + step).mean()


def test_the_weights_are_integers_scaled_once():
    rules = find_variant("swabian-3-40")
    w = weights(rules)
    assert len(w) == 8 and all(isinstance(x, int) for x in w)
    model = load_model()["models"]["solo"]
    assert w[0] == round(model["coef"][0] * 250 * SCALE)  # the intercept, in points x SCALE
    assert widow_policy.concede_from(house("swabian-3-40", concede=False), [0] * 24, 0, 0,
                                     [0] * 24) == NEVER


@pytest.mark.parametrize("section, which", [("models", "pairs"), ("bid", "solo")])
def test_a_model_file_of_the_wrong_shape_is_refused(tmp_path, monkeypatch, section, which):
    import json

    import binokel_sim.widow_value as widow_value

    document = json.loads(widow_value.MODEL_FILE.read_text(encoding="utf-8"))
    document[section][which]["coef"].pop()
    broken = tmp_path / "widow_value.json"
    broken.write_text(json.dumps(document), encoding="utf-8")
    monkeypatch.setattr(widow_value, "MODEL_FILE", broken)
    widow_value.load_model.cache_clear()
    try:
        with pytest.raises(ValueError, match=f"{section}.{which} has"):
            widow_value.load_model()
    finally:
        monkeypatch.undo()
        widow_value.load_model.cache_clear()


def test_the_model_ships_with_its_provenance():
    model = load_model()
    assert model["provenance"]["script"] == "scripts/fit_widow_value.py"
    assert set(model["provenance"]["variants"]) == set(WIDOW_GAMES)
    assert model["provenance"]["deals_per_variant"] >= 10_000
    for fit in model["models"].values():
        assert 0 < fit["sd"] < 0.5 and 0 < fit["r2"] < 1 and len(fit["coef"]) == 8


# --- the engine against its twin, where soloists give up ------------------------------------------

@pytest.mark.parametrize("mix", ["all", "some"])
def test_heuristic_deals_equal_the_twin(high, mix):
    names, kernel, twin = heuristic_mix(high, mix, 120)
    assert kernel == twin
    given_up = [r for r in kernel if r["conceded"]]
    assert given_up and len(given_up) < len(kernel)
    assert all(r["tricks"] == [] and not r["made"] for r in given_up)
    # a random soloist never gives up
    assert not any(r["conceded"] for r in kernel if names[r["soloist"]] == "random")


def test_sampling_deals_equal_the_twin(high):
    names = ["sampling"] + ["heuristic"] * (high.players - 1)
    ids = [POLICY_NAMES[n] for n in names]
    kernel = kernel_records(high, ids, 8, 23, 0, 2, 0, n_samples=3)
    assert kernel == widow_twin.play_deals(high, 8, 23, 2, policies=names, n_samples=3)
    assert any(r["conceded"] for r in kernel)


def test_samples_carry_where_the_soloist_gives_up(monkeypatch):
    """bid-odds samples (constrained dealing, heuristic, blocks of 7 samples): the column
    ``concede_from`` equals the twin's, and the sample is played out whatever it says."""
    monkeypatch.setattr(widow_games, "GAME_BLOCK", 7)
    from binokel_sim.constraints import parse_knowledge

    rules = find_variant("swabian-3-40")
    hand = parse_hand(rules.example_hand, rules)
    k = parse_knowledge(rules, hand, ["left:TH"], [])
    out = widow_games.run_samples(rules, hand, 20, 3, "heuristic", knowledge=k)
    twin = twin_constrained_samples(rules, hand, 20, 3, 7, k, ["heuristic"] * rules.players,
                                    dealer=rules.players - 1)
    assert out.tolist() == twin
    column = out[:, widow_games.SAMPLE_FIELDS.index("concede_from")]
    assert (column < NEVER).all() and len(set(column.tolist())) > 1


# --- whole runs replayed --------------------------------------------------------------------------

@pytest.mark.parametrize("policy, deals", [("heuristic", 2000), ("sampling", 200)])
def test_records_replay_under_the_rules(high, policy, deals):
    played = widow_games.run_play(high, deals, 31, policy, samples_per_move=2)
    records = list(widow_records(played))
    for record in records:
        replay_widow(high, record)
    share = sum(r["conceded"] for r in records) / deals
    assert 0.02 < share < 0.9


def test_the_checker_refuses_a_broken_concession():
    rules = house("swabian-3-40", 300)
    played = widow_games.run_play(rules, 300, 3, "heuristic")
    record = next(r for r in widow_records(played) if r["conceded"])
    replay_widow(rules, record)
    bad_scores = copy.deepcopy(record)
    bad_scores["scores"][record["soloist"]] = -2 * record["bid"]
    with pytest.raises(AssertionError, match="gave up"):
        replay_widow(rules, bad_scores)
    bad_points = copy.deepcopy(record)
    bad_points["card_points"][0] = 10
    with pytest.raises(AssertionError, match="card_points"):
        replay_widow(rules, bad_points)
    with pytest.raises(AssertionError, match="no Abgehen"):
        replay_widow(house("swabian-3-40", 300, concede=False), record)
    played_out = next(r for r in widow_records(played) if not r["conceded"])
    claimed = copy.deepcopy(played_out)
    claimed["conceded"] = True
    with pytest.raises(AssertionError, match="tricks were played"):
        replay_widow(rules, claimed)


def test_giving_up_is_worth_it(high):
    """The same deals with Abgehen and without: every deal the soloist keeps is played card for
    card the same, and where he gave up, playing would have cost him more on average than the
    bid he lost (the decision's purpose, SPEC: he gives up when playing is worth less)."""
    without = house(high.name, 300, concede=False)
    a = widow_games.run_play(high, 2000, 11, "heuristic")
    b = widow_games.run_play(without, 2000, 11, "heuristic")
    conceded = a.info[:, I_CONCEDED] != 0
    assert conceded.sum() >= 20 and not b.info[:, I_CONCEDED].any()
    kept = ~conceded
    assert (a.scores[kept] == b.scores[kept]).all()
    assert (a.trick_cards[kept] == b.trick_cards[kept]).all()
    rows = np.flatnonzero(conceded)
    soloists = a.info[rows, I_SOLOIST]
    played = b.scores[rows, soloists]
    assert (a.scores[rows, soloists] == -a.info[rows, I_BID]).all()
    assert played.mean() < -a.info[rows, I_BID].mean()


# --- the bid rows ---------------------------------------------------------------------------------

def test_bid_rows_with_abgehen():
    """Known answers: five samples (x 200) with totals 150, 200, 230, 260, 400; the first gives
    up from 160 on, the third from 210 on. At 200 the first gives up (-200), the others make it;
    at 250 the first and third give up (-250 each), the second is set (-500)."""
    rules = find_variant("three-hand-auction-48")
    totals = np.array([150, 200, 230, 260, 400] * 200)
    concede_from = np.array([160, NEVER, 210, NEVER, NEVER] * 200)
    at = {r["bid"]: r for r in bid_rows(rules, samples_of(totals, concede_from)).to_dicts()}
    assert at[200]["p_make"] == pytest.approx(0.8) and at[200]["p_concede"] == pytest.approx(0.2)
    assert at[200]["expected_score"] == pytest.approx((-200 + 200 + 230 + 260 + 400) / 5)
    assert at[250]["p_make"] == pytest.approx(0.4) and at[250]["p_concede"] == pytest.approx(0.4)
    assert at[250]["expected_score"] == pytest.approx((-250 - 500 - 250 + 260 + 400) / 5)
    assert at[400]["p_make"] == pytest.approx(0.2) and at[400]["p_concede"] == pytest.approx(0.4)


def test_the_text_view_of_a_conceded_deal():
    from binokel_sim.deal_text import deal_text

    rules = house("kreuz-4-40", 300)
    record = next(r for r in widow_records(widow_games.run_play(rules, 300, 3, "heuristic"))
                  if r["conceded"])
    text = deal_text(record, rules)
    assert "gives up before the first lead (Abgehen)" in text
    assert "the other side scores its meld" in text and "tricks (card" not in text


# --- the trump named when giving up (issue 52) ---------------------------------------------------

@pytest.mark.parametrize("name", WIDOW_GAMES)
def test_concede_trump_kernel_equals_twin(name):
    """The trump a soloist who gives up names, from his hand and buried cards alone: kernel and
    twin agree on 300 random hands, and every suit is named sometimes."""
    from binokel_sim.kernels.widow.deals import concede_trump

    rules = find_variant(name)
    mask = sum(1 << t for t in range(N_TYPES) if rules.deck_counts()[t])
    named = set()
    for hand, buried in random_hands(rules, 300, 17):
        planes = np.zeros((rules.players, 4), dtype=np.uint32)
        planes[1] = counts_to_planes(np.array(hand))
        flat = np.array([t for t in range(N_TYPES) for _ in range(buried[t])], dtype=np.int64)
        kernel = int(concede_trump(planes, 1, flat, rules.copies, mask))
        assert kernel == widow_policy.concede_trump(rules, hand, buried)
        named.add(kernel)
    assert named == {0, 1, 2, 3}


def test_concede_trump_blocks_the_marriages():
    """Holding both kings of spades the others can hold no spade marriage: spades is named;
    the buried cards count as seen."""
    rules = find_variant("swabian-3-40")
    hand = parse_hand("KS KS AH TH AD TD AC TC JC JC JD JH", rules)
    assert widow_policy.concede_trump(rules, list(hand), [0] * N_TYPES) == 0
    hand = parse_hand("KH QH AS TS AD TD AC TC JC JC KD QD", rules)
    # hearts and diamonds leave one marriage each; diamonds, whose ace and ten he holds, the
    # fewer Familie cards
    assert widow_policy.concede_trump(rules, list(hand), [0] * N_TYPES) == 2
    buried = [0] * N_TYPES
    buried[2 * 6 + 3] = buried[2 * 6 + 2] = 1  # KD QD buried: no diamond marriage is left
    hand = parse_hand("KH QH AS TS AD TD AC TC JC JC JD JD", rules)
    assert widow_policy.concede_trump(rules, list(hand), buried) == 2


def test_concessions_name_the_trump_that_costs_least():
    """3,000 expert deals of swabian-3-40: of the deals given up, the named trump gives the
    opponents (their hands as dealt; there is no demand) their least meld in at least 90%
    (the rule reads only what the soloist saw; naming the strongest suit did so in 81%)."""
    rules = find_variant("swabian-3-40")
    played = widow_games.run_play(rules, 3000, 1, "expert")
    recs = widow_records(played)
    given_up = best = 0
    for rec in recs:
        if not rec["conceded"]:
            continue
        given_up += 1
        hands = [list(parse_hand(" ".join(h), rules)) for h in rec["hands"]]
        others = [s for s in range(rules.players) if s != rec["soloist"]]
        per = [sum(meld_total(rules, hands[s], t) for s in others) for t in range(4)]
        best += per["SHDC".index(rec["trump"])] == min(per)
    assert given_up > 100
    assert best >= 0.9 * given_up
