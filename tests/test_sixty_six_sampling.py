"""Sixty-six's sampling policy (docs/rules.md "Sixty-six", "Sampling policy"): the kernel against
its twin deal for deal (play, duel, match and deal-odds samples), the decision reading nothing
hidden, the play-out equal to the heuristic's deal, records replaying under the independent
checker, the same bytes on one or two threads, and the commands."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from binokel_sim.cards import parse_card, parse_cards
from binokel_sim.engines import sixty_six as drivers
from binokel_sim.kernels.policies import POLICY_HEURISTIC, POLICY_RANDOM, POLICY_SAMPLING
from binokel_sim.kernels.sixty_six import sampling as k
from binokel_sim.kernels.sixty_six.deals import SixtySixKnobs, new_finder
from binokel_sim.hands import parse_hand
from binokel_sim.records import sixty_six as records66
from binokel_sim.records.stream import play_records
from binokel_sim.reference import sixty_six as twin
from binokel_sim.reference.core import Stream
from binokel_sim.variants import find_variant

from conftest import runner
from sixty_six_replay import check_many, dealer_violations, replay

RULES = find_variant("sixty-six")
KNOBS = SixtySixKnobs()
R, H, S = POLICY_RANDOM, POLICY_HEURISTIC, POLICY_SAMPLING
NAMES = {R: "random", H: "heuristic", S: "sampling"}
BLOCK = 8  # the sampled runs' block (game_blocks.stream_blocks, slow)


def invoke(argv):
    from binokel_sim.cli import app

    return runner.invoke(app, list(argv))


# --- the kernel and its twin ----------------------------------------------------------------------

@pytest.mark.parametrize("seats", [(S, H), (H, S), (S, S), (R, S)],
                         ids=["SH", "HS", "SS", "RS"])
def test_play_equals_the_twin_deal_for_deal(seats):
    """Deals 8 .. 31 of a run (the first block is 1, block boundaries inside), 3 samples."""
    played = drivers.run_seats(RULES, 32, 13, tuple(NAMES[s] for s in seats),
                               samples_per_move=3)
    ours = list(records66.records(played))[8:]
    theirs = twin.play_deals(RULES, KNOBS, list(seats), 24, 13, BLOCK, first_block=1,
                             first_deal=8, samples=3)
    assert len(ours) == len(theirs) == 24
    for a, b in zip(ours, theirs):
        assert a == b, a["deal"]


def test_the_duel_match_and_samples_equal_the_twins():
    assert drivers.run_duel(RULES, "sampling", "heuristic", 12, 4,
                            samples_per_move=2).tolist() == \
        twin.play_duel(RULES, KNOBS, [S, H], 12, 4, BLOCK, samples=2)
    assert drivers.run_match(RULES, "heuristic", "sampling", 3, 5,
                             samples_per_move=2).tolist() == \
        twin.play_match(RULES, KNOBS, H, S, 3, 5, BLOCK, RULES.game_target, 1000, samples=2)
    counts = parse_hand(RULES.example_hand, RULES)
    turned = parse_card(RULES.example_turned)
    played = drivers.run_samples(RULES, counts, 12, 6, "sampling", turned=turned, dealer=1,
                                 samples_per_move=2)
    ours = list(records66.records(played))
    theirs = twin.play_samples(RULES, KNOBS, [S, S], set(parse_cards(RULES.example_hand)),
                               turned, 1, 12, 6, BLOCK, samples=2)
    for a, b in zip(ours, theirs):
        assert a == {**b, "deal": a["deal"]}, a["deal"]


def test_the_compared_deals_reach_every_decision():
    """The comparison means something only if the sampling seats meet each decision: the
    exchange, closing, the lead and the follow in open and strict play, with a closed stock."""
    seen = []
    real = twin.sampling_choice

    def spy(rules, knobs, table, seat, phase, samples, stream):
        seen.append((phase, bool(table["closed"]), bool(table["stock"])))
        return real(rules, knobs, table, seat, phase, samples, stream)

    twin.sampling_choice = spy
    try:
        twin.play_deals(RULES, KNOBS, [S, S], 24, 13, BLOCK, first_block=1, first_deal=8,
                        samples=1)
    finally:
        twin.sampling_choice = real
    kinds = set(seen)
    assert {(k.EXCHANGE, False, True), (k.CLOSE, False, True), (k.LEAD, False, True),
            (k.FOLLOW, False, True), (k.LEAD, False, False), (k.FOLLOW, True, True)} <= kinds


# --- the play-out ---------------------------------------------------------------------------------

def test_a_playout_from_the_deal_start_is_the_heuristics_deal():
    """The rollout from a deal's first turn, every decision the heuristic's, ends as the
    heuristic deal loop's deal: the same scorer and the same count."""
    played = drivers.run_play(RULES, 300, 21, "heuristic")
    finder = new_finder()
    table = drivers.family_tables(RULES)
    for d in range(300):
        dealer = int(played.deals.dealer[d])
        finder.world.hands[:] = played.deals.hands[d]
        finder.world.stock[:] = played.deals.stock[d]
        finder.world.tally[:, :] = 0
        leader = 1 - dealer
        pos = k.Position(leader, int(played.deals.stock[d, -1]) // 6, leader, -1, 12, 0, -1, 0, 0)
        points, diff = k.rollout(table, pos, finder.world, finder.play, k.EXCHANGE, -1)
        seat, game_points, _ = played.deals.result[d]
        assert points == (game_points if seat == leader else -game_points)
        counts = played.deals.points[d]
        assert diff == counts[leader] - counts[1 - leader]


# --- the decision reads nothing hidden --------------------------------------------------------------

def positions(n_deals=40):
    """Every sampling decision of ``n_deals`` twin deals (sampling on both seats, 1 sample): the
    deal as it stood, deep-copied, the seat and the phase."""
    found = []
    real = twin.sampling_choice

    def spy(rules, knobs, table, seat, phase, samples, stream):
        found.append((copy.deepcopy(table), seat, phase))
        return real(rules, knobs, table, seat, phase, samples, stream)

    twin.sampling_choice = spy
    try:
        twin.play_deals(RULES, KNOBS, [S, S], n_deals, 77, BLOCK, samples=1)
    finally:
        twin.sampling_choice = real
    return found


def mask(cards) -> int:
    return sum(1 << c for c in cards)


def kernel_choice(table, seat, phase, samples=3):
    """The kernel's ``choose`` at the twin's position ``table``; returns the choice and the
    random state after."""
    finder = new_finder()
    for s in range(2):
        finder.shown[s] = mask(table["shown"][s])
        finder.excluded[s] = mask(table["excluded"][s])
    hands = np.array([mask(h) for h in table["hands"]], dtype=np.int64)
    stock = np.zeros(12, dtype=np.int64)
    left = len(table["stock"])
    stock[12 - left:] = table["stock"]
    if not left:
        stock[11] = table["trump"] * 6  # read only while the stock holds cards
    seats = table["seats"]
    tally = np.array([[x["card_points"] for x in seats], [x["marriages"] for x in seats],
                      [x["won"] for x in seats]], dtype=np.int64)
    led = table["led"] if table["led"] is not None else -1
    pos = k.Position(seat, table["trump"], table["leader"], led, left, int(table["closed"]),
                     table["closer"], table["at_close"], mask(table["gone"]))
    rng = tuple(np.uint64(x) for x in Stream(5, 3).s)  # the twin's stream (twin_choice)
    choice, *state = k.choose(drivers.family_tables(RULES), np.int64(samples), finder, pos,
                              hands, stock, tally, phase, rng)
    return int(choice), [int(x) for x in state]  # the state: as the twin's Stream.s


def twin_choice(table, seat, phase, samples=3):
    stream = Stream(5, 3)
    choice = twin.sampling_choice(RULES, KNOBS, copy.deepcopy(table), seat, phase, samples,
                                  stream)
    return choice, list(stream.s)


def hidden_moves(table, seat):
    """Deals that differ from ``table`` only where ``seat`` cannot see: one hidden card of the
    other hand swapped with one hidden card of the stock (kept out of the cards the other seat
    is known not to hold), or the stock's hidden cards reordered."""
    other = 1 - seat
    stock = table["stock"]
    known = table["shown"][other] - table["gone"]
    theirs = sorted(table["hands"][other] - known)
    hidden_stock = list(range(len(stock) - 1))  # the bottom card is face up
    for i in hidden_stock:
        for card in theirs:
            if stock[i] in table["excluded"][other]:
                continue
            moved = copy.deepcopy(table)
            moved["hands"][other] = (moved["hands"][other] - {card}) | {stock[i]}
            moved["stock"][i] = card
            yield moved
    if len(hidden_stock) >= 2:
        moved = copy.deepcopy(table)
        moved["stock"][:len(stock) - 1] = stock[:len(stock) - 1][::-1]
        yield moved


def test_the_decision_reads_nothing_hidden():
    """At sampling decisions of twin deals, every exchange of hidden cards the seat's view
    admits gives the kernel's and the twin's same choice and the same stream after; and the
    kernel's choice is the twin's."""
    checked = strict_checked = 0
    for n, (table, seat, phase) in enumerate(positions(30)):
        if n % 3:
            continue  # a third of them: enough, and fast
        want = kernel_choice(table, seat, phase)
        wanted = twin_choice(table, seat, phase)
        assert want[0] == wanted[0]
        moves = list(hidden_moves(table, seat))
        for moved in moves[::max(1, len(moves) // 5)]:  # five or so, spread
            assert kernel_choice(moved, seat, phase) == want
            assert twin_choice(moved, seat, phase) == wanted
            checked += 1
            strict_checked += bool(table["closed"])
    assert checked >= 150 and strict_checked >= 10, (checked, strict_checked)


def test_the_view_moves_with_what_is_seen():
    """The check above can fail: a change the seat can see (its own hand) changes the
    decision somewhere."""
    changed = 0
    for table, seat, phase in positions(10)[:60]:
        if phase not in (k.LEAD, k.FOLLOW) or not table["stock"]:
            continue
        moved = copy.deepcopy(table)
        other = 1 - seat
        theirs = moved["hands"][other] - moved["shown"][other]
        if not theirs:
            continue
        mine, theirs = min(moved["hands"][seat]), max(theirs)
        moved["hands"][seat] = (moved["hands"][seat] - {mine}) | {theirs}
        moved["hands"][other] = (moved["hands"][other] - {theirs}) | {mine}
        if phase == k.FOLLOW and moved["led"] in (mine, theirs):
            continue
        changed += kernel_choice(moved, seat, phase)[0] != kernel_choice(table, seat, phase)[0]
    assert changed > 0


# --- whole runs -------------------------------------------------------------------------------------

def test_sampling_records_replay_under_the_rules():
    """2,000 deals with the sampling policy on both seats (4 samples a decision), each replayed
    by the independent checker (tests/sixty_six_replay.py)."""
    records = list(play_records(RULES, 2000, 51, "sampling", samples_per_move=4))
    assert len(records) == 2000
    counts = check_many(records)
    found = [v for r in records for v in replay(r)] + dealer_violations(records)
    assert counts == {}, (counts, found[:5])
    reasons = {r["result"]["reason"] for r in records}
    assert {"claim", "last_trick"} <= reasons, reasons


def test_same_bytes_on_one_and_two_threads(two_threads):
    runs = []
    counts = parse_hand(RULES.example_hand, RULES)
    for threads in (1, two_threads):
        play = drivers.run_seats(RULES, 120, 8, ("sampling", "heuristic"), threads,
                                 samples_per_move=4)
        duel = drivers.run_duel(RULES, "sampling", "random", 100, 8, threads,
                                samples_per_move=4)
        match = drivers.run_match(RULES, "sampling", "heuristic", 20, 8, threads,
                                  samples_per_move=2)
        samples = drivers.run_samples(RULES, counts, 100, 8, "sampling", threads=threads,
                                      turned=parse_card(RULES.example_turned), dealer=0,
                                      samples_per_move=2)
        runs.append((play.deals, duel, match, samples.deals))
    (p1, d1, m1, s1), (p2, d2, m2, s2) = runs
    assert all(np.array_equal(a, b) for a, b in zip(p1, p2))
    assert np.array_equal(d1, d2) and np.array_equal(m1, m2)
    assert all(np.array_equal(a, b) for a, b in zip(s1, s2))


def test_more_samples_change_the_play():
    few, many = (drivers.run_play(RULES, 64, 3, "sampling", samples_per_move=n)
                 for n in (1, 16))
    assert not np.array_equal(few.deals.cards, many.deals.cards)
    assert not np.array_equal(drivers.run_play(RULES, 64, 3, "heuristic").deals.cards,
                              many.deals.cards)


def test_samples_per_move_without_a_sampling_seat_is_refused():
    from binokel_sim.errors import SimulationError

    with pytest.raises(SimulationError, match="no seat plays it"):
        drivers.run_play(RULES, 8, 1, "heuristic", samples_per_move=4)


# --- the commands -----------------------------------------------------------------------------------

def test_the_commands_play_sampling():
    result = invoke(["play", "--variant", "sixty-six", "--policy", "sampling",
                     "--samples-per-move", "4", "--deals", "3", "--format", "text"])
    assert result.exit_code == 0, result.output
    assert result.stdout.count("game point") == 3
    result = invoke(["duel", "--variant", "sixty-six", "-a", "sampling", "-b", "heuristic",
                     "--samples-per-move", "4", "--deals", "16", "--format", "json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["ci_low"] <= document["mean_diff"] <= document["ci_high"]
    result = invoke(["match", "--variant", "sixty-six", "-a", "sampling", "-b", "heuristic",
                     "--samples-per-move", "2", "--games", "4", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == 4
    result = invoke(["deal-odds", "--variant", "sixty-six", "--policy", "sampling",
                     "--samples-per-move", "2", "--deals", "16", "--format", "json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert 0 <= document["p_win"] <= 1 and document["samples"] == 16
