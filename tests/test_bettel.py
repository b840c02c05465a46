"""Bettel (SPEC "House variants of today's Binokel"; docs/rules.md decision 40): after the Dabb
the soloist may play to take no trick, without trump and with no meld counting, at a bid of at
most 300 (a Bettel is worth 300 in the auction): the bid if he takes none, minus twice the bid
if he takes one, 0 for the others. Optional and off in every built-in game (``[widow]
bettel``). A heuristic or sampling soloist declares a sure Bettel when his estimate of counting
falls short of the bid; in a Bettel he plays his lowest card.

Played here in a house Kreuzbinokel with the ladder from 300, where the dealer, forced to play,
sometimes holds a sure Bettel: the sure-Bettel rule's kernel against its twin and known
answers, the score, Bettel deals by the kernel and the twin alike, their independent replay and
its refusals, the decision's worth, and the bid odds' figure.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
from test_abgehen import house
from test_durch import (
    counts,
    one_deal,
    played_blocks_of_one,
    random_positions,
    sure_both,
)
from widow_replay import replay_widow

from binokel_sim.cards import N_TYPES
from binokel_sim.engines import widow as widow_games
from binokel_sim.kernels.widow.deals import (
    I_BETTEL,
    I_CONCEDED,
    I_DURCH,
    I_MADE,
    sure_bettel,
)
from binokel_sim.reference import widow as widow_twin
from binokel_sim.reference import widow_policy
from binokel_sim.reference.widow_score import Trick, score_bettel
from binokel_sim.variants import RulesError, find_variant

BUILT_IN = ["three-hand-auction-48", "four-hand-widow-48", "swabian-3-40", "kreuz-4-40"]


def test_bettel_is_off_in_every_built_in_game():
    assert not any(find_variant(name).widow_bettel for name in BUILT_IN)
    assert house("swabian-3-40", bettel=True).widow_bettel
    with pytest.raises(RulesError, match="expected true/false"):
        house("swabian-3-40", bettel="yes")


# (soloist's cards, the others' cards, leads the first trick, sure?)
SURE = [
    # the lowest cards of two suits; the others hold higher ones of both
    ("JS JS QH", "KS AS KH TH", False, True),
    ("JS JS QH", "KS AS KH TH", True, True),
    # a card level with their lowest: never above theirs, so he never heads; but he may not
    # lead it (nobody could head it)
    ("QS", "QS KS", False, True),
    ("QS", "QS KS", True, False),
    # a card above one of theirs: a low lead of theirs makes him head it
    ("KS", "QS AS", False, False),
    # a suit they do not hold: harmless while he follows, fatal if he leads it
    ("AC JS", "QS KS", False, True),
    ("AC JS", "QS KS", True, False),
]


@pytest.mark.parametrize("mine, theirs, leads, sure", SURE)
def test_sure_bettel_known_answers(mine, theirs, leads, sure):
    hands = [counts(mine), counts(theirs), [0] * N_TYPES]
    assert sure_both(sure_bettel, widow_policy.sure_bettel, hands, 0, leads) is sure


def test_the_sure_bettel_kernel_equals_its_twin_on_random_hands():
    """Three and four hands of 1 to 5 cards."""
    found = sum(sure_both(sure_bettel, widow_policy.sure_bettel, *position)
                for position in random_positions(4, (1, 6)))
    assert found >= 20


@pytest.mark.parametrize("name, soloist, bid, winners, scores", [
    ("swabian-3-40", 1, 300, [0] * 6 + [2] * 6, [0, 300, 0]),
    ("swabian-3-40", 1, 250, [0] * 11 + [1], [0, -500, 0]),
    ("kreuz-4-40", 2, 300, [0] * 9, [300, 0, 300, 0]),  # his partner's tricks do not count
    ("kreuz-4-40", 2, 300, [1] * 8 + [2], [-600, 0, -600, 0]),
])
def test_bettel_scores(name, soloist, bid, winners, scores):
    from binokel_sim.kernels.widow.score import score_bettel as kernel_score

    rules = find_variant(name)
    twin = score_bettel(rules, soloist, bid, [Trick(0, [], w) for w in winners])
    assert twin.scores == scores and twin.bonus == 0 and twin.made is (scores[soloist] > 0)
    won = np.bincount(winners, minlength=rules.players).astype(np.int64)
    got = np.zeros(rules.players, dtype=np.int64)
    out = kernel_score(won, soloist, rules.players, bid, bool(rules.partnerships), got)
    assert got.tolist() == scores and out == (0, scores[soloist] > 0, scores[soloist])


@pytest.fixture(scope="module")
def bettel_deals():
    """A house Kreuzbinokel with Bettel and the ladder from 300, heuristic on every seat,
    200,000 deals of one block each: the records of the deals with a Bettel."""
    rules = house("kreuz-4-40", 300, bettel=True)
    played = played_blocks_of_one(rules, ["heuristic"] * 4, 200_000, 5)
    found = np.flatnonzero(played.info[:, I_BETTEL] != 0)
    return rules, played, [one_deal(played, int(d)) for d in found]


def test_bettel_deals_equal_the_twin(bettel_deals):
    rules, played, records = bettel_deals
    assert len(records) >= 10
    for record in records:
        d = record["deal"]
        assert [record] == widow_twin.play_deals(rules, 1, 5, 1, first_block=d, first_deal=d,
                                                 policies=["heuristic"] * 4)
        assert record["trump"] is None and record["melds"] == [0] * 4 and record["bid"] <= 300
        assert record["made"] and record["scores"][record["soloist"]] == record["bid"]
        assert all(t["winner"] != record["soloist"] for t in record["tricks"])
    info = played.info
    assert not (info[:, I_BETTEL] & (info[:, I_DURCH] | info[:, I_CONCEDED])).any()


def test_a_sampling_soloist_declares_the_same_bettel(bettel_deals):
    rules, _, records = bettel_deals
    for record in records[:3]:
        d = record["deal"]
        kernel = one_deal(played_blocks_of_one(rules, ["sampling"] * 4, 1, 5, first=d), d,
                          first=d)
        assert kernel == record
        assert [kernel] == widow_twin.play_deals(rules, 1, 5, 1, first_block=d, first_deal=d,
                                                 policies=["sampling"] * 4, n_samples=3)


def test_declaring_bettel_pays(bettel_deals):
    """The same deals without Bettel: every other deal is played alike, and where the soloist
    declared Bettel, counting (or giving up) would have scored less than the bid."""
    rules, played, _ = bettel_deals
    without = played_blocks_of_one(house("kreuz-4-40", 300), ["heuristic"] * 4, 200_000, 5)
    bettel = played.info[:, I_BETTEL] != 0
    assert (played.scores[~bettel] == without.scores[~bettel]).all()
    rows = np.flatnonzero(bettel)
    soloists = played.info[rows, 0]
    assert without.scores[rows, soloists].mean() < played.scores[rows, soloists].mean()


def test_no_bettel_where_the_rules_have_none_or_the_soloist_is_random():
    played = played_blocks_of_one(house("kreuz-4-40", 300), ["heuristic"] * 4, 50_000, 5)
    assert not played.info[:, I_BETTEL].any()
    random = widow_games.run_play(house("kreuz-4-40", 300, bettel=True), 20_000, 3, "random")
    assert not random.info[:, I_BETTEL].any()


def test_every_bettel_replays_under_the_rules(bettel_deals):
    rules, played, records = bettel_deals
    assert (played.info[played.info[:, I_BETTEL] != 0, I_MADE] != 0).all()
    for record in records:
        replay_widow(rules, record)


def test_broken_bettel_records_are_refused(bettel_deals):
    rules, _, records = bettel_deals
    record = records[0]
    for key, value, needle in [("trump", "S", "no trump"), ("bonus", 1000, "bonus"),
                               ("made", False, "made"), ("durch", True, "Durch and a Bettel")]:
        bad = copy.deepcopy(record)
        bad[key] = value
        with pytest.raises(AssertionError, match=needle):
            replay_widow(rules, bad)
    bad = copy.deepcopy(record)
    bad["scores"] = [2 * s for s in bad["scores"]]
    with pytest.raises(AssertionError, match="scores"):
        replay_widow(rules, bad)
    with pytest.raises(AssertionError, match="has no Bettel"):
        replay_widow(house("kreuz-4-40", 300), record)


def test_bid_odds_show_a_sure_bettel_where_the_rules_have_it():
    from binokel_sim.hands import parse_hand
    from binokel_sim.odds.widow import bid_odds

    off = find_variant("kreuz-4-40")
    on = house("kreuz-4-40", bettel=True)
    junk = parse_hand("JS JS QS JH JH QH JD JD QD", on)  # the lowest cards of three suits
    assert "p_bettel" not in bid_odds(off, junk, 300, 1, "heuristic")
    out = bid_odds(on, junk, 2000, 1, "heuristic")
    assert 0 < out["p_bettel"] <= out["p_bettel_ci"][1] <= 1


# --- the expert's Bettel by play-outs ---------------------------------------------------------------

def steps_both(hands: list[list[int]], soloist: int, leads: bool) -> int:
    """:func:`bettel_steps` by the kernel and by its twin, which must agree."""
    from binokel_sim.cards import counts_to_planes
    from binokel_sim.kernels.widow.declare import bettel_steps

    planes = np.array([counts_to_planes(np.array(h)) for h in hands], dtype=np.uint32)
    got = int(bettel_steps(planes, soloist, len(hands), leads))
    others = [sum(h[t] for s, h in enumerate(hands) if s != soloist) for t in range(N_TYPES)]
    assert got == widow_policy.bettel_steps(hands[soloist], others, leads)
    return got


@pytest.mark.parametrize("mine, theirs, leads, steps", [
    ("JS JS QH", "KS AS KH TH", True, 0),  # sure
    ("QS", "QS KS", True, 1),  # level with their lowest: his lead of it wins
    ("KS", "QS AS", False, 1),  # above their queen
    ("AC JS", "QS KS", True, 1),  # a suit they do not hold, fatal only when he leads
    ("AC JS", "QS KS", False, 0),
    ("AS TS JH", "KS QS QH", False, 2),
])
def test_bettel_steps_known_answers(mine, theirs, leads, steps):
    assert steps_both([counts(mine), counts(theirs), [0] * N_TYPES], 0, leads) == steps


def test_the_bettel_steps_kernel_equals_its_twin_and_zero_is_sure():
    near = 0
    for hands, soloist, leads in random_positions(6, (1, 6)):
        steps = steps_both(hands, soloist, leads)
        assert (steps == 0) == sure_both(sure_bettel, widow_policy.sure_bettel, hands, soloist,
                                         leads)
        near += 1 <= steps <= 3
    assert near >= 500


@pytest.fixture(scope="module")
def expert_bettel():
    """The house Kreuzbinokel with Bettel from 300, the expert on every seat (knob
    ``durch_worlds`` 32), 100,000 deals of one block each, and the same deals with the knob at
    0 (a sure Bettel only)."""
    from binokel_sim import expert_play

    rules = house("kreuz-4-40", 300, bettel=True)
    played = played_blocks_of_one(rules, ["expert"] * 4, 100_000, 5)
    knobs = {**widow_policy.expert_knobs(find_variant("kreuz-4-40")), "durch_worlds": 0}
    expert_play.override(rules.name, knobs)
    widow_games.family_tables.cache_clear()
    try:
        sure_only = played_blocks_of_one(rules, ["expert"] * 4, 100_000, 5)
    finally:
        expert_play.override(rules.name, None)
        widow_games.family_tables.cache_clear()
    return rules, played, sure_only


def test_the_expert_declares_a_bettel_that_pays_as_its_twin(expert_bettel):
    """Where counting falls short of a bid of at most 300, a hand one to three steps from a
    sure Bettel is played out in 32 sampled worlds and declared when the Bettel beats giving
    up: deal for deal the twin's; more Bettel than the sure ones alone, most of them made;
    every deal with the same declarations played alike; and the soloists gain on the deals
    that changed."""
    rules, played, sure_only = expert_bettel
    bettel = played.info[:, I_BETTEL] != 0
    sure = sure_only.info[:, I_BETTEL] != 0
    assert (bettel[sure]).all() and bettel.sum() >= sure.sum() + 10
    added = np.flatnonzero(bettel & ~sure)
    assert (played.info[added, I_MADE] != 0).mean() > 0.5
    for d in added[:5]:
        record = one_deal(played, int(d))
        assert [record] == widow_twin.play_deals(rules, 1, 5, 1, first_block=int(d),
                                                 first_deal=int(d), policies=["expert"] * 4)
        replay_widow(rules, record)
    # (the knob plays the Durch out too: a deal is the same where both declared the same)
    same = ((played.info[:, I_BETTEL] == sure_only.info[:, I_BETTEL])
            & (played.info[:, I_DURCH] == sure_only.info[:, I_DURCH]))
    assert (played.scores[same] == sure_only.scores[same]).all()
    soloists = played.info[added, 0]
    assert (played.scores[added, soloists].mean() > sure_only.scores[added, soloists].mean())
