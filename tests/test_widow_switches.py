"""The Swabian games (SPEC "House variants of today's Binokel": swabian-3-40, kreuz-4-40) and the
widow engine's switches they turn: ``[widow] demand = false``, ``play.first_leader =
"non_dealer"`` (the player left of the dealer leads the first trick) and a 40-card deck without
nines. The engine against its twin deal for deal (random, heuristic, sampling), thousands of
records of every policy replayed by the independent checker, and the loader's refusals.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
from test_variants import builtin_dict as seed_dict
from test_widow import kernel_records
from widow_replay import replay_widow

from binokel_sim.engines import widow as widow_games
from binokel_sim.hands import parse_hand
from binokel_sim.kernels.policies import POLICY_NAMES
from binokel_sim.kernels.widow.deals import I_CONCEDED
from binokel_sim.records.widow import records as widow_records
from binokel_sim.reference import widow as widow_twin
from binokel_sim.variants import RulesError, find_variant, rules_from_dict

SWABIAN = ["swabian-3-40", "kreuz-4-40"]


@pytest.fixture(params=SWABIAN)
def switched(request):
    return find_variant(request.param)


# --- the loader -----------------------------------------------------------------------------------

def test_the_switches_are_read(switched):
    assert switched.first_leader == "non_dealer" and switched.widow_demand is False
    assert switched.deck_size == 40 and switched.total_card_points == 250
    assert switched.widow == 4 and switched.bid_ladder == ((150, 10),)
    assert switched.game_target == 1000


@pytest.mark.parametrize("hand, trump, total", [
    # trump Familie 150 (its K+Q no marriage), marriages in hearts and clubs 20 each, binokel 40
    ("AS TS KS QS JS JS KH QH AD JD KC QC", "S", 230),
    # with hearts trump: Familie in spades 100, trump marriage 40, marriage 20, binokel 40
    ("AS TS KS QS JS JS KH QH AD JD KC QC", "H", 200),
    # double binokel 300 (no marriage: no king)
    ("QS QS JD JD AH TH AC TC JC JC AD TD", "S", 300),
    # eight aces 1000, four tens nothing
    ("AS AS AH AH AD AD AC AC TS TH TD TC", "S", 1000),
    # eight tens 1000, four aces 100
    ("TS TS TH TH TD TD TC TC AS AH AD AC", "D", 1100),
    # four jacks 40, four aces 100 (seven aces are no eight)
    ("JS JH JD JC AS AS AH AH AD AD AC KC", "C", 140),
    # Kreuzbinokel's nine cards: trump Familie 150, marriage 20, binokel 40
    ("AS TS KS QS JS KH QH AD JD", "S", 210),
    ("AS TS KS QS JS KH QH AD JD", "H", 180),
])
def test_the_swabian_meld_table(hand, trump, total):
    """SPEC "House variants": Familie 100, in trump 150; marriage 20, in trump 40 (not inside
    a declared Familie); binokel 40, double 300; four jacks 40 ... aces 100; eight of a rank
    1000. The analyzer (Python, from the rules) and the meld kernel agree."""
    from binokel_sim.analysis import analyze_hand
    from binokel_sim.cards import SUITS
    from conftest import kernel_melds

    name = "swabian-3-40" if len(hand.split()) == 12 else "kreuz-4-40"
    rules = find_variant(name)
    counts = parse_hand(hand, rules)
    assert analyze_hand(rules, counts)["by_trump"][trump]["total"] == total
    assert kernel_melds(rules, counts, SUITS.index(trump))[1] == total


def test_the_aliases():
    assert find_variant("binokel").name == "swabian-3-40"
    assert find_variant("Kreuzbinokel").name == "kreuz-4-40"
    assert find_variant("binokel-2").name == "two-hand-48"


def test_the_seed_widow_games_keep_the_demand_and_the_soloists_lead():
    for name in ("three-hand-auction-48", "four-hand-widow-48"):
        rules = find_variant(name)
        assert rules.widow_demand is True and rules.first_leader == "bid_winner"


def test_soloist_is_the_widow_games_word_for_the_bid_winner():
    data = seed_dict("three-hand-auction-48")
    data["play"]["first_leader"] = "soloist"
    assert rules_from_dict(data).first_leader == "bid_winner"


@pytest.mark.parametrize("name, section, key, value, needle", [
    ("two-hand-48", "widow", "demand", False, "only a game with a widow"),
    ("four-hand-80", "widow", "demand", True, "only a game with a widow"),
    ("three-hand-auction-48", "widow", "ramsch", True, "unknown key 'ramsch'"),
    ("kreuz-4-40", "widow", "all_tricks_bonus", -1, "all_tricks_bonus"),
    ("swabian-3-40", "widow", "durch", "yes", "expected true/false"),
    ("three-hand-auction-48", "widow", "concede", 1, "expected true/false"),
    ("swabian-3-40", "widow", "concede_bonus", -5, "concede_bonus"),
    ("three-hand-auction-48", "widow", "demand", "no", "expected true/false"),
    ("two-hand-48", "play", "first_leader", "bid_winner", "is not played"),
    ("four-hand-80", "play", "first_leader", "non_dealer", "is not played"),
    ("three-hand-auction-48", "play", "first_leader", "dealer", "first_leader"),
])
def test_a_switch_the_engine_does_not_play_is_refused(name, section, key, value, needle):
    data = seed_dict(name)
    data.setdefault(section, {})[key] = value
    with pytest.raises(RulesError, match=needle):
        rules_from_dict(data)


# --- the engine against its twin ------------------------------------------------------------------

def test_random_deals_equal_the_twin(switched):
    ids = [POLICY_NAMES["random"]] * switched.players
    assert kernel_records(switched, ids, 60, 17, 0, 7, 0) == \
        widow_twin.play_deals(switched, 60, 17, 7)


def heuristic_mix(rules, mix: str, deals: int) -> tuple[list[str], list[dict], list[dict]]:
    """The heuristic on every seat (``mix`` "all") or on all but seat 1 (random): the policies,
    the kernel's records and the twin's (seed 5, blocks of 7)."""
    names = ["heuristic"] * rules.players
    if mix == "some":
        names[1] = "random"
    ids = [POLICY_NAMES[n] for n in names]
    return (names, kernel_records(rules, ids, deals, 5, 0, 7, 0),
            widow_twin.play_deals(rules, deals, 5, 7, policies=names))


@pytest.mark.parametrize("mix", ["all", "some"])
def test_heuristic_deals_equal_the_twin(switched, mix):
    _, kernel, twin = heuristic_mix(switched, mix, 100)
    assert kernel == twin
    # the switches are played: no demand, the first trick led by the player left of the dealer
    assert all(r["demand"] is None for r in twin)
    led = [r for r in twin if r["tricks"]]  # a deal given up (Abgehen) has no tricks
    assert all(r["tricks"][0]["leader"] == (r["dealer"] + 1) % switched.players for r in led)
    assert any(r["tricks"][0]["leader"] != r["soloist"] for r in led)


def test_sampling_deals_equal_the_twin(switched):
    names = ["sampling"] + ["heuristic"] * (switched.players - 1)
    ids = [POLICY_NAMES[n] for n in names]
    kernel = kernel_records(switched, ids, 6, 23, 0, 2, 0, n_samples=3)
    assert kernel == widow_twin.play_deals(switched, 6, 23, 2, policies=names, n_samples=3)


# --- whole runs replayed --------------------------------------------------------------------------

@pytest.mark.parametrize("policy, deals", [("random", 2000), ("heuristic", 2000),
                                           ("expert", 2000), ("sampling", 256)])
def test_records_replay_under_the_rules(switched, policy, deals):
    played = widow_games.run_play(switched, deals, 29, policy, samples_per_move=2)
    records = list(widow_records(played))
    for record in records:
        replay_widow(switched, record)
    conceded = played.info[:, I_CONCEDED] != 0  # Abgehen: no play, no card points
    assert (played.card_points.sum(axis=1)
            == np.where(conceded, 0, switched.total_card_points)).all()
    assert all(r["demand"] is None for r in records)
    assert not any(card.startswith("9") for r in records for t in r["tricks"]
                   for card in t["cards"])


def test_the_checker_refuses_the_soloists_lead_and_a_demand(switched):
    played = widow_games.run_play(switched, 200, 3, "random")
    record = next(r for r in widow_records(played)
                  if r["tricks"] and r["tricks"][0]["leader"] != r["soloist"])
    led = copy.deepcopy(record)
    led["tricks"][0]["leader"] = led["soloist"]
    with pytest.raises(AssertionError, match="left of the dealer"):
        replay_widow(switched, led)
    demanded = copy.deepcopy(record)
    demanded["demand"] = {"card": "AS", "from": 1, "given": "JD"}
    with pytest.raises(AssertionError, match="no demand"):
        replay_widow(switched, demanded)


def test_samples_lead_from_the_given_dealer(switched):
    """bid-odds samples: seat 0 is the soloist; where the player left of the dealer leads, the
    dealer's seat decides who leads, so the samples differ with it (and not in the seed games,
    where the soloist leads)."""
    hand = parse_hand(switched.example_hand, switched)
    runs = {dealer: widow_games.run_samples(switched, hand, 300, 4, "heuristic", dealer=dealer)
            for dealer in (switched.players - 1, 0)}
    assert (runs[switched.players - 1] != runs[0]).any()
    seed_rules = find_variant("three-hand-auction-48")  # the soloist leads: the dealer is moot
    seed_hand = parse_hand(seed_rules.example_hand, seed_rules)
    same = [widow_games.run_samples(seed_rules, seed_hand, 300, 4, "heuristic", dealer=dealer)
            for dealer in (2, 0)]
    assert (same[0] == same[1]).all()
