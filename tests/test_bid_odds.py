"""Bid odds of one hand: the scoring of a simulated deal (SPEC.md, four-hand-80 "Scoring a played
deal"), the bid table built from the samples, and the samples themselves (the random policy
against the pure-Python twin in :mod:`binokel_sim.reference.play`)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from conftest import counts
from hypothesis import given
from hypothesis import strategies as st

from binokel_sim import bidding
from binokel_sim.engines import partnership as games
from binokel_sim.bidding import ladder
from binokel_sim.cards import SUITS
from binokel_sim.constants import NO_BID
from binokel_sim.engines.partnership import BidSamples
from binokel_sim.engines.partnership import run_samples as run_bid_samples
from binokel_sim.hands import parse_hand
from binokel_sim.kernels.partnership.tricks import score_deal
from binokel_sim.odds.partnership import bid_odds, bid_rows, bid_tally, deal_scores
from binokel_sim.odds.summary import P_MAKE_FLOOR
from binokel_sim.reference import play as ref
from binokel_sim.reference import sampling as sampling_twin
from binokel_sim.reference.core import Stream
from binokel_sim.reference.sampler import sample_counts
from binokel_sim.simulate import SimulationError
from binokel_sim.stats import Hist
from binokel_sim.variants import find_variant

RULES = find_variant("four-hand-80")
TOTAL = RULES.total_card_points
EXAMPLE = counts(RULES, RULES.example_hand)  # marriages in S, H, D; no QC
# 20 cards, 16 kings (kings around x4 = 160 meld) but no queen: no marriage anywhere
NO_MARRIAGE = counts(RULES, "KS KS KS KS KH KH KH KH KD KD KD KD KC KC KC KC AS AH AD AC")
S, H, D, C = range(4)


# --- deal_scores: SPEC cases written out ---------------------------------------------------------

@pytest.mark.parametrize("bid, pair_meld, pair_play, opp_meld, opp_play, marriage, expected", [
    # made: 25 play + 30 meld = 55 >= 50; the opponents' meld 10 < 20 does not count
    (50, 30, 25, 10, 25, True, (True, 55, 25)),
    # set: 55 < 60 -> -60; the opponents' meld 24 counts
    (60, 30, 25, 24, 25, True, (False, -60, 49)),
    # exactly the bid with play exactly 20: made
    (50, 30, 20, 0, 30, True, (True, 50, 30)),
    # automatic loss: pair meld 19 < 20, whatever the play; the opponents score 0
    (50, 19, 40, 40, 10, True, (False, -50, 0)),
    # automatic loss: no marriage in trump, even with a huge meld
    (70, 100, 40, 40, 10, False, (False, -70, 0)),
    # the bidding pair's play 19 < 20: its meld does not count, 19 < 50
    (50, 40, 19, 20, 31, True, (False, -50, 51)),
    # opponents under 20 in play score nothing, meld or not
    (65, 60, 32, 50, 18, True, (True, 92, 0)),
    # opponents' meld 19 < 20 is not counted, their play is
    (50, 40, 25, 19, 25, True, (True, 65, 25)),
    # opponents exactly at 20 play and 20 meld
    (60, 40, 30, 20, 20, True, (True, 70, 40)),
])
def test_deal_scores_spec_cases(bid, pair_meld, pair_play, opp_meld, opp_play, marriage,
                                expected):
    made, pair_score, opp_score = deal_scores(RULES, bid, pair_meld, pair_play, opp_meld,
                                              opp_play, marriage)
    assert (bool(made), int(pair_score), int(opp_score)) == expected
    want = ref.score_deal(pair_meld, opp_meld, marriage, bid, pair_play, opp_play)
    assert (int(pair_score), int(opp_score)) == want


@given(st.lists(st.tuples(st.integers(0, 300), st.integers(0, TOTAL), st.integers(0, 300),
                          st.integers(0, TOTAL), st.booleans()), min_size=1, max_size=20),
       st.sampled_from([50, 51, 59, 60, 65, 100, 150]))
def test_deal_scores_vectorised_equals_reference(rows, bid):
    pm, pp, om, op, mar = (np.array(col) for col in zip(*rows))
    made, pair_score, opp_score = deal_scores(RULES, bid, pm, pp, om, op, mar)
    for i, (a, b, c, d, m) in enumerate(rows):
        want = ref.score_deal(a, c, m, bid, b, d)
        assert (int(pair_score[i]), int(opp_score[i])) == want
        assert bool(made[i]) == (want[0] > 0)


# --- bid_rows on synthetic samples ---------------------------------------------------------------

@st.composite
def samples(draw):
    n = draw(st.integers(1, 40))
    trumps = draw(st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True))
    shape = (n, len(trumps))
    meld = st.one_of(st.integers(0, 40), st.integers(0, 260))

    def array(values):
        return np.array(draw(st.lists(values, min_size=n * len(trumps),
                                      max_size=n * len(trumps))), dtype=np.int64).reshape(shape)

    pair_meld, opp_meld = array(meld), array(meld)
    pair_play = array(st.integers(0, TOTAL))
    married = draw(st.lists(st.sampled_from(trumps), unique=True))
    return BidSamples(tuple(trumps), pair_meld, pair_play, opp_meld, TOTAL - pair_play), married


@given(samples())
def test_bid_rows_equal_deal_scores(sample):
    smp, married = sample
    rows = bid_rows(RULES, smp, married)
    n = smp.pair_meld.shape[0]
    assert rows["trump"].unique(maintain_order=True).to_list() == [SUITS[t] for t in smp.trumps]
    for j, trump in enumerate(smp.trumps):
        mine = rows.filter(pl.col("trump") == SUITS[trump])
        args = (smp.pair_meld[:, j], smp.pair_play[:, j], smp.opp_meld[:, j], smp.opp_play[:, j],
                trump in married)
        # the listed bids: the ladder from the minimum to the highest bid made more often than
        # P_MAKE_FLOOR (the minimum always)
        p = {b: float(deal_scores(RULES, b, *args)[0].mean()) for b in ladder(RULES, 400)}
        want_bids = [50] + [b for b in ladder(RULES, 400) if b > 50 and p[b] > P_MAKE_FLOOR]
        assert mine["bid"].to_list() == want_bids
        for row in mine.iter_rows(named=True):
            made, pair_score, opp_score = deal_scores(RULES, row["bid"], *args)
            assert row["p_make"] == int(made.sum()) / n
            assert row["expected_score"] == pytest.approx(pair_score.mean(), abs=1e-9)
            assert row["expected_opponent_score"] == pytest.approx(opp_score.mean(), abs=1e-9)
            assert 0 <= row["ci_low"] <= row["ci_high"] <= 1
            # the interval holds the estimate; up to rounding here, exactly at p_make 0 and 1 in
            # test_interval_holds_p_make_at_the_ends
            assert row["ci_low"] - 1e-12 <= row["p_make"] <= row["ci_high"] + 1e-12
            if 0 < row["p_make"] < 1:
                assert row["ci_low"] < row["p_make"] < row["ci_high"]


# --- the samples ---------------------------------------------------------------------------------

@pytest.mark.parametrize("trumps", [[S, H, D], [C, S]])
def test_bid_samples_random_equal_reference(trumps, monkeypatch):
    monkeypatch.setattr(games, "GAME_BLOCK", 4)
    got = run_bid_samples(RULES, EXAMPLE, 30, 17, "random", trumps=trumps)
    want = ref.bid_samples(RULES, list(EXAMPLE), 30, 17, trumps, 4)
    assert [[(int(got.pair_meld[d, j]), int(got.pair_play[d, j]), int(got.opp_meld[d, j]))
             for j in range(len(trumps))] for d in range(30)] == want
    assert (got.pair_play + got.opp_play == TOTAL).all()


@pytest.mark.parametrize("trumps", [[S, H, D], [C, S]])
def test_bid_samples_heuristic_equal_reference(trumps, monkeypatch):
    """The heuristic's samples (played two at a time by the kernel) against the twin's, which
    plays each alone with the twin heuristic."""
    monkeypatch.setattr(games, "GAME_BLOCK", 4)
    got = run_bid_samples(RULES, EXAMPLE, 30, 17, "heuristic", trumps=trumps)
    want = sampling_twin.heuristic_bid_samples(RULES, list(EXAMPLE), 30, 17, trumps, 4)
    assert [[(int(got.pair_meld[d, j]), int(got.pair_play[d, j]), int(got.opp_meld[d, j]))
             for j in range(len(trumps))] for d in range(30)] == want


def test_bid_samples_heuristic_trumps_together_equal_alone():
    """The heuristic reads no random numbers, so the bid kernel plays a sample's trumps two at a
    time; each column is what that trump alone gives on the same deals."""
    together = run_bid_samples(RULES, EXAMPLE, 3000, 8, "heuristic", trumps=[S, H, D])
    for j, trump in enumerate([S, H, D]):
        alone = run_bid_samples(RULES, EXAMPLE, 3000, 8, "heuristic", trumps=[trump])
        for name in ("pair_meld", "pair_play", "opp_meld"):
            assert (getattr(together, name)[:, j] == getattr(alone, name)[:, 0]).all()


def tally_by_deal_scores(samples: BidSamples, married: list[int]) -> dict:
    """:func:`bid_tally` written with :func:`deal_scores` on every sample."""
    per = {key: [] for key in ("made", "opponents", "meld", "meld_sq", "play", "play_sq",
                               "meld_ok")}
    for j, trump in enumerate(samples.trumps):
        meld, play = samples.pair_meld[:, j], samples.pair_play[:, j]
        made, _, opp = deal_scores(RULES, 0, meld, play, samples.opp_meld[:, j],
                                   samples.opp_play[:, j], trump in married)
        per["made"].append(Hist.of((play + meld)[made]))
        per["opponents"].append(Hist.of(opp))
        per["meld"].append(int(meld.sum()))
        per["meld_sq"].append(int((meld * meld).sum()))
        per["play"].append(int(play.sum()))
        per["play_sq"].append(int((play * play).sum()))
        per["meld_ok"].append(int((meld >= RULES.min_meld).sum()))
    n = int(samples.pair_meld.shape[0])  # every sample one deal: none is conditioned here
    assert samples.draws is None or (samples.draws == 1).all()
    return {"samples": n, "deals": n, **per}


@given(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 50), st.integers(0, 60)),
                min_size=0, max_size=40),
       st.lists(st.sampled_from([S, H, D, C]), min_size=1, max_size=3, unique=True))
def test_bid_tally_equals_deal_scores(rows, married):
    n = len(rows)
    cols = np.array(rows, dtype=np.int64).reshape(n, 3)
    pm = np.repeat(cols[:, :1], 2, axis=1)
    pp = np.stack([cols[:, 1], TOTAL - cols[:, 1]], axis=1)
    om = np.stack([cols[:, 2], cols[:, 0]], axis=1)
    samples = BidSamples((S, H), pm, pp, om, TOTAL - pp)
    assert bid_tally(RULES, samples, married) == tally_by_deal_scores(samples, married)


def test_bid_tally_of_simulated_samples_equals_deal_scores():
    samples = run_bid_samples(RULES, EXAMPLE, 5000, 3, "random", trumps=[S, H, D, C])
    assert bid_tally(RULES, samples, [S, H, D]) == tally_by_deal_scores(samples, [S, H, D])


def test_bid_samples_reject_bad_arguments():
    with pytest.raises(SimulationError, match="unknown policy"):
        run_bid_samples(RULES, EXAMPLE, 10, 1, "clever", trumps=[S])
    with pytest.raises(SimulationError, match="four-hand-80"):
        two = find_variant("two-hand-48")
        run_bid_samples(two, counts(two, two.example_hand), 10, 1, "random", trumps=[S])


# --- bid_odds on whole hands ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def example_odds():
    return bid_odds(RULES, EXAMPLE, 2000, 5, "heuristic")


def test_bid_odds_same_seed_same_rows(example_odds):
    again = bid_odds(RULES, EXAMPLE, 2000, 5, "heuristic")
    assert again["rows"].equals(example_odds["rows"])
    assert again["by_trump"] == example_odds["by_trump"]
    other = bid_odds(RULES, EXAMPLE, 2000, 6, "heuristic")
    assert not other["rows"].equals(example_odds["rows"])


@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_bid_odds_one_thread_equals_two(policy, two_threads, monkeypatch):
    monkeypatch.setattr(games, "GAME_BLOCK", 64)  # 512 samples a chunk on one thread
    one = bid_odds(RULES, EXAMPLE, 1500, 8, policy, threads=1)
    two = bid_odds(RULES, EXAMPLE, 1500, 8, policy, threads=two_threads)
    assert one["rows"].equals(two["rows"]) and one["by_trump"] == two["by_trump"]


def test_bid_odds_example_hand(example_odds):
    rows = example_odds["rows"]
    assert example_odds["has_marriage"]
    assert rows["trump"].unique(maintain_order=True).to_list() == ["S", "H", "D"]
    assert list(example_odds["by_trump"]) == ["S", "H", "D"]
    for trump in ("S", "H", "D"):
        mine = rows.filter(pl.col("trump") == trump)
        bids = mine["bid"].to_list()
        assert bids == ladder(RULES, bids[-1])  # consecutive rungs from the minimum
        p = mine["p_make"].to_list()
        assert all(a >= b for a, b in zip(p, p[1:])), "p_make never rises with the bid"
        inside = (mine["ci_low"] <= mine["p_make"]) & (mine["p_make"] <= mine["ci_high"])
        assert inside.filter((mine["p_make"] > 0) & (mine["p_make"] < 1)).all()
    assert example_odds["recommended_trump"] in ("S", "H", "D")
    # seat 0 melds 71 with spades: the pair meld is at least that, always over 20
    assert example_odds["by_trump"]["S"]["p_meld_20"] == 1.0
    assert example_odds["by_trump"]["S"]["mean_pair_meld"] >= 71
    assert rows.filter((pl.col("trump") == "S") & (pl.col("bid") == 50))["p_make"][0] > 0.9


def test_bid_odds_one_trump_is_the_same_as_in_auto(example_odds):
    # the heuristic reads no random numbers, so one trump alone plays the same deals
    alone = bid_odds(RULES, EXAMPLE, 2000, 5, "heuristic", trump=H)
    assert alone["rows"].equals(example_odds["rows"].filter(pl.col("trump") == "H"))


def test_bid_odds_trump_without_marriage():
    result = bid_odds(RULES, EXAMPLE, 500, 3, "heuristic", trump=C)
    rows = result["rows"]
    assert rows["trump"].to_list() == ["C"] and rows["bid"].to_list() == [50]
    assert rows["p_make"].to_list() == [0.0]
    assert rows["expected_score"].to_list() == [-50.0]
    assert rows["expected_opponent_score"].to_list() == [0.0]


def test_bid_odds_hand_without_marriage():
    result = bid_odds(RULES, NO_MARRIAGE, 500, 3, "heuristic")
    rows = result["rows"]
    assert result["has_marriage"] is False
    assert result["recommended_trump"] is None and result["max_bid_positive_ev"] is None
    assert set(rows["trump"].to_list()) == set(SUITS)
    assert (rows["p_make"] == 0).all() and (rows["expected_opponent_score"] == 0).all()
    assert (rows["expected_score"] == -rows["bid"]).all()



@pytest.mark.parametrize("samples", [5, 500, 2000])
def test_interval_holds_p_make_at_the_ends(samples):
    """A bid never made (p_make 0) must have ci_low 0 and a bid always made ci_high 1, so that
    ci_low <= p_make <= ci_high on every row. Fails today: the rounding in stats.wilson_interval
    leaves ci_low 2.8e-17 (5 samples) or 4.3e-19 (500) above 0, and ci_high 0.9999999999999998
    (2000 samples) below 1."""
    never = bid_odds(RULES, NO_MARRIAGE, samples, 3, "heuristic")["rows"]
    made = np.full((samples, 1), 30, dtype=np.int64)  # meld 30 + play 30 = 60: 50..60 made
    always = bid_rows(RULES, BidSamples((S,), made, made, made, TOTAL - made), [S])
    assert (always["p_make"] == 1.0).all() and always["bid"].to_list() == ladder(RULES, 60)
    rows = pl.concat([never, always])
    outside = (pl.col("ci_low") > pl.col("p_make")) | (pl.col("ci_high") < pl.col("p_make"))
    bad = rows.filter(outside)
    assert bad.is_empty(), bad.select("trump", "bid", "p_make", "ci_low", "ci_high").to_dicts()[:2]


def test_trump_summary_interval_holds_p_meld_20(example_odds):
    """Same rounding as above in the by_trump summary: seat 0 alone melds 71 with spades, so
    p_meld_20 is 1.0, but over 2000 samples its upper bound comes out 0.9999999999999998."""
    info = example_odds["by_trump"]["S"]
    assert info["p_meld_20"] == 1.0
    low, high = info["p_meld_20_ci"]
    assert low <= info["p_meld_20"] <= high


def test_a_made_bid_needs_min_play_even_under_a_low_ladder():
    # house rules with bids from 10: play 15 (< 20) and meld 30 reach 10 only if meld counted;
    # SPEC: made exactly when play >= 20 and play + meld >= bid, so this bid is lost
    import dataclasses

    rules = dataclasses.replace(find_variant("four-hand-80"), bid_ladder=((10, 1),))
    made, score, _ = deal_scores(rules, 10, np.array([30]), np.array([15]), np.array([0]),
                                 np.array([35]), True)
    assert not made[0] and score[0] == -10
    assert score_deal(30, 0, True, 10, 15, 35) == (-10, 35)


def test_no_recommendation_for_a_suit_the_hand_may_not_name():
    rules = find_variant("four-hand-80")
    hand = parse_hand(rules.example_hand, rules)  # no queen of clubs: no club marriage
    result = bid_odds(rules, hand, 500, 2, "random", trump=3)
    assert result["has_marriage"]
    assert result["recommended_trump"] is None and result["max_bid_positive_ev"] is None
    assert (result["rows"]["p_make"] == 0).all()


# --- what the user knows: --known and --void ------------------------------------------------------

def knowledge_of(known, void):
    from binokel_sim.constraints import parse_knowledge

    return parse_knowledge(RULES, EXAMPLE, known, void)


@pytest.mark.parametrize("known, void", [
    (["partner:AH AH", "3:KD"], ["left:H", "1:C"]),
    ([], ["2:S", "3:D"]),
    (["1:TS TS TS JC"], []),
])
def test_bid_samples_under_constraints_equal_reference(known, void, monkeypatch):
    """The constrained samples are the twin's (its sampler twin on the same stream), deal for
    deal, with the random policy reading the stream after each draw."""
    monkeypatch.setattr(games, "GAME_BLOCK", 4)
    k = knowledge_of(known, void)
    got = run_bid_samples(RULES, EXAMPLE, 24, 5, "random", trumps=[S, H], knowledge=k)
    want = ref.bid_samples(RULES, list(EXAMPLE), 24, 5, [S, H], 4,
                           known=[[int(x) for x in k.known[s]] for s in (1, 2, 3)],
                           allowed=[int(k.allowed[s]) for s in (1, 2, 3)])
    assert [[(int(got.pair_meld[d, j]), int(got.pair_play[d, j]), int(got.opp_meld[d, j]))
             for j in range(2)] for d in range(24)] == want
    assert (got.pair_play + got.opp_play == TOTAL).all()


def test_twin_samples_keep_the_constraints():
    """The twin the kernel is checked against deals the known cards and respects the voids."""
    k = knowledge_of(["partner:AH AH"], ["left:H", "3:S"])
    pool = [int(x) for x in RULES.deck_counts() - EXAMPLE - k.known.sum(axis=0)]
    stream = Stream(3, 0)
    for _ in range(50):
        split = sample_counts(pool, [int(k.allowed[s]) for s in (1, 2, 3)],
                              [20, 18, 20], stream)
        assert [sum(x) for x in split] == [20, 18, 20]
        assert sum(split[0][6:12]) == 0 and sum(split[2][0:6]) == 0  # left no H, right no S


def test_empty_knowledge_is_the_plain_shuffle():
    plain = run_bid_samples(RULES, EXAMPLE, 2000, 4, "heuristic", trumps=[S, H])
    empty = run_bid_samples(RULES, EXAMPLE, 2000, 4, "heuristic", trumps=[S, H],
                            knowledge=knowledge_of([], []))
    assert (plain.pair_play == empty.pair_play).all()
    assert (plain.pair_meld == empty.pair_meld).all()


def test_constrained_heuristic_trumps_together_equal_alone():
    k = knowledge_of(["partner:AS AS"], ["right:H"])
    together = run_bid_samples(RULES, EXAMPLE, 1500, 8, "heuristic", trumps=[S, H, D], knowledge=k)
    for j, trump in enumerate([S, H, D]):
        alone = run_bid_samples(RULES, EXAMPLE, 1500, 8, "heuristic", trumps=[trump], knowledge=k)
        assert (alone.pair_play[:, 0] == together.pair_play[:, j]).all()
        assert (alone.opp_meld[:, 0] == together.opp_meld[:, j]).all()


def test_known_cards_change_the_odds_in_the_right_direction():
    """Known cards move the odds the way a player expects, far outside the intervals: the partner
    holding both remaining spade aces and two tens with both opponents void in spades raises the
    pair's play in spades; the partner void in spades and hearts lowers it."""
    def spades(known, void):
        return bid_odds(RULES, EXAMPLE, 4000, 2, trump=S, knowledge=knowledge_of(known, void)
                        )["by_trump"]["S"]

    plain = spades([], [])
    strong = spades(["partner:AS AS TS TS"], ["left:S", "right:S"])
    weak = spades([], ["partner:S", "partner:H"])
    assert strong["mean_pair_play_ci"][0] > plain["mean_pair_play_ci"][1] + 5
    assert weak["mean_pair_play_ci"][1] < plain["mean_pair_play_ci"][0]
    assert strong["p_make_min_bid"] >= plain["p_make_min_bid"] >= weak["p_make_min_bid"]


def test_impossible_constraints_fail_before_work():
    from binokel_sim.errors import CardError

    with pytest.raises(CardError, match="no deal fits"):
        bid_odds(RULES, EXAMPLE, 1000, 1, knowledge=knowledge_of([], ["left:S", "left:H",
                                                                      "left:D"]))


# --- samples given the auction ------------------------------------------------------------------

def auction_of(limits, dealer):
    """Calls ``(seat, bid)`` of the twin's auction, a pass as NO_BID (the kernel's form)."""
    _, _, calls = ref.auction(limits, dealer, RULES)
    return [(seat, NO_BID if bid is None else bid) for seat, bid in calls]


@given(st.lists(st.integers(-1, 90), min_size=4, max_size=4), st.integers(0, 3),
       st.lists(st.integers(-1, 90), min_size=4, max_size=4))
def test_auction_bounds_are_exactly_the_limits_that_repeat_the_auction(limits, dealer, others):
    """The other seats' limits give the same calls exactly when they lie in the bounds the
    calls show (a seat that never called, the dealer after three passes, is not bounded)."""
    bidder, _, _ = ref.auction(limits, dealer, RULES)
    calls = auction_of(limits, dealer)
    lo, hi = bidding.auction_bounds(RULES, bidder, calls)
    for k in range(4):
        assert lo[k] <= limits[(bidder + k) % 4] <= hi[k]
    trial = list(limits)
    for seat in range(4):
        if seat != bidder:
            trial[seat] = others[seat]
    inside = all(lo[(s - bidder) % 4] <= trial[s] <= hi[(s - bidder) % 4] for s in range(4))
    assert (auction_of(trial, dealer) == calls) == inside


AUCTION = (np.array([NO_BID, 55, NO_BID, NO_BID]), np.array([10**9, 10**9, 49, 62]))


def test_samples_given_the_auction_equal_the_twin(monkeypatch):
    """Given an auction the kernel deals each sample again, from the same stream, until seats
    1..3's heuristic limits fit it: deal for deal the twin's samples (whose limits the twin
    checks), the random policy reading the stream after each accepted deal; some samples took
    more than one deal."""
    monkeypatch.setattr(games, "GAME_BLOCK", 4)
    got = run_bid_samples(RULES, EXAMPLE, 16, 3, "random", trumps=[S, H], auction=AUCTION)
    want = ref.bid_samples(RULES, list(EXAMPLE), 16, 3, [S, H], 4, auction=AUCTION)
    assert [[(int(got.pair_meld[d, j]), int(got.pair_play[d, j]), int(got.opp_meld[d, j]))
             for j in range(2)] for d in range(16)] == want
    assert got.draws.min() >= 1 and got.draws.max() > 1


def test_heuristic_samples_given_the_auction_weaken_a_passing_partner():
    """The partner passed at the first offer (limit below the minimum bid): the pair's meld is
    lower than in plain samples; threads do not change the samples."""
    plain = run_bid_samples(RULES, EXAMPLE, 2000, 3, "heuristic", trumps=[H], threads=1)
    one = run_bid_samples(RULES, EXAMPLE, 2000, 3, "heuristic", trumps=[H], threads=1,
                          auction=AUCTION)
    two = run_bid_samples(RULES, EXAMPLE, 2000, 3, "heuristic", trumps=[H], threads=2,
                          auction=AUCTION)
    assert np.array_equal(one.pair_play, two.pair_play)
    assert np.array_equal(one.draws, two.draws)
    assert one.pair_meld.mean() < plain.pair_meld.mean() - 2
    assert (plain.draws == 1).all() and one.draws.mean() > 1


def test_samples_given_an_impossible_auction_fail_in_one_error():
    lo = np.array([NO_BID, 80, NO_BID, NO_BID])
    hi = np.array([10**9, 70, 10**9, 10**9])  # a limit of at least 80 and at most 70
    with pytest.raises(games.AuctionTooRare, match="fits the auction in 500 tries"):
        run_bid_samples(RULES, EXAMPLE, 64, 1, "heuristic", trumps=[S], auction=(lo, hi),
                        max_draws=500)


def test_parse_auction_reads_calls_from_the_dealers_left():
    calls = bidding.parse_auction(RULES, "50 pass 51 55", 3)  # dealer right: the hand calls first
    assert calls == [(0, 50), (1, NO_BID), (2, 51), (3, 55)]
    # after a pass the seat is skipped: 0 51, 2 52, 3 pass, then seat 0 again
    calls = bidding.parse_auction(RULES, "50 p 51 52 pass 53", 0)
    assert calls == [(1, 50), (2, NO_BID), (3, 51), (0, 52), (1, NO_BID), (3, 53)]
    lo, hi = bidding.auction_bounds(RULES, 0, calls)
    assert list(lo) == [52, 50, NO_BID, 53] and list(hi[1:3]) == [52, 50]


def test_bid_odds_given_the_auction_is_the_library_call():
    """--auction/--dealer: the rows are bid_odds' with the calls' bounds, on any thread count,
    and the provenance names the calls."""
    import json

    from conftest import ok

    args = ["bid-odds", "--deals", "2048", "--auction", "50 pass 51", "--dealer", "right",
            "--format", "json"]
    one = json.loads(ok(*args, "--threads", "1").stdout)
    two = json.loads(ok(*args, "--threads", "2").stdout)
    assert one == two
    assert one["provenance"]["auction"] == "50 pass 51"
    assert one["provenance"]["dealer"] == "right"
    assert one["deals_per_sample"] > 1
    calls = bidding.parse_auction(RULES, "50 pass 51", 3)
    bounds = bidding.auction_bounds(RULES, 0, calls, games.partner_margin(RULES, "expert"))
    want = bid_odds(RULES, EXAMPLE, 2048, 1, "expert", threads=1, auction=calls)  # the default
    assert one["rows"] == want["rows"].to_dicts()
    plain = bid_odds(RULES, EXAMPLE, 2048, 1, "expert", threads=1)
    assert want["rows"].to_dicts() != plain["rows"].to_dicts()
    assert plain["deals_per_sample"] == 1 and "deals_per_sample" not in json.loads(
        ok("bid-odds", "--deals", "2048", "--threads", "1", "--format", "json").stdout)
    draws = run_bid_samples(RULES, EXAMPLE, 2048, 1, "heuristic", trumps=[S], threads=1,
                            auction=bounds).draws
    assert one["deals_per_sample"] == pytest.approx(draws.mean())


@pytest.mark.parametrize("args, needle", [
    (["--auction", "50"], "go together"),
    (["--dealer", "left"], "go together"),
    (["--auction", "x", "--dealer", "left"], "not a bid or 'pass'"),
    (["--auction", "50 49", "--dealer", "left"], "the next legal bid is 51"),
    (["--auction", "50 pass pass pass 60", "--dealer", "left"], "after the auction ended"),
    (["--auction", "50", "--dealer", "nobody"], "--dealer: unknown seat"),
    (["--auction", "pass", "--dealer", "right"], "own seat passed"),
    (["--variant", "three-hand-auction-48", "--auction", "50", "--dealer", "left"],
     "the next legal bid is 200"),
])
def test_bid_odds_auction_errors_in_one_line(args, needle):
    from conftest import assert_one_line_error, invoke

    assert_one_line_error(invoke("bid-odds", "--deals", "1000", *args), needle)


def test_dealer_may_be_the_hands_own_seat():
    """--dealer takes the hand's own seat (me or 0), which --known and --void refuse; the error
    for an unknown dealer lists it."""
    import json

    from conftest import assert_one_line_error, invoke, ok

    args = ["bid-odds", "--deals", "1024", "--threads", "1", "--auction", "50 51",
            "--format", "json"]
    me = json.loads(ok(*args, "--dealer", "me").stdout)
    zero = json.loads(ok(*args, "--dealer", "0").stdout)
    assert me["rows"] == zero["rows"]
    assert_one_line_error(invoke("bid-odds", "--auction", "50", "--dealer", "4"),
                          "0, 1, 2, 3, me, left, partner, right")
    assert_one_line_error(invoke("bid-odds", "--known", "me:AS"), "--known: unknown seat")


def test_auction_bounds_behind_the_partner():
    """The expert's knob ``bid_partner`` m (docs/rules.md, *Expert bidding*): behind the
    partner's bid a pass while an opponent is in bounds the limit below the offer + m; a pass
    once both opponents are out tells nothing; a raise shows a limit at least the offer + m;
    a raise once the opponents are out cannot happen. Seats from the hand: 1 left, 2 partner."""
    from binokel_sim.constants import NO_BID

    # the hand (0) bids 50, left passes, the partner (2) passes behind it, right (3) passes
    calls = [(0, 50), (1, NO_BID), (2, NO_BID), (3, NO_BID)]
    lo, hi = bidding.auction_bounds(RULES, 0, calls, margin=5)
    assert hi[2] == 51 + 5 - 1 and hi[1] == 50 and hi[3] == 50
    lo0, hi0 = bidding.auction_bounds(RULES, 0, calls)  # the plain ladder
    assert hi0[2] == 50
    # right passed first: the partner's pass behind the hand, both opponents out, says nothing
    calls = [(3, NO_BID), (0, 50), (1, NO_BID), (2, NO_BID)]
    lo, hi = bidding.auction_bounds(RULES, 0, calls, margin=5)
    assert hi[2] == bidding.BIG
    # the partner raises the hand's 50 while right is still in: limit at least 51 + 5
    lo, hi = bidding.auction_bounds(RULES, 0, [(0, 50), (1, NO_BID), (2, 51)], margin=5)
    assert lo[2] == 56
    with pytest.raises(SimulationError, match="never does"):
        bidding.auction_bounds(RULES, 0, [(3, NO_BID), (0, 50), (1, NO_BID), (2, 51)],
                               margin=5)
