"""The ``heuristic+solver`` policy (kernels/strict/solver_policy.py): its phase-2 card against the twin
(reference.solver.policy_card: plain minimax on small endings; on full 12-card positions the
twin's own trick-by-trick choice with the positions after the first trick valued by the kernel
solver, which test_solver.py checks against brute force), the cards it plays in whole deals of
two-hand-48, its duels, and the variants that refuse it."""

from __future__ import annotations

import random

import numpy as np
import pytest
from conftest import assert_one_line_error, invoke
from test_solver import house_rules, random_position

from binokel_sim.cards import counts_to_planes
from binokel_sim.engines import talon as talon_games
from binokel_sim.engines.policies import policy_id
from binokel_sim.errors import SimulationError
from binokel_sim.kernels.policies import POLICY_SOLVER
from binokel_sim.kernels.strict import solver as solver_kernel
from binokel_sim.kernels.strict.solver_policy import solver_card, solver_scratch
from binokel_sim.reference import solver as solver_twin
from binokel_sim.reference.play import legal_cards
from binokel_sim.solver import card_points_of
from binokel_sim.variants import find_variant

TWO_HAND = find_variant("two-hand-48")


class Policy:
    """The kernel's card and the kernel's value of a position, with one scratch for all."""

    def __init__(self, rules):
        self.rules = rules
        self.points = card_points_of(rules)
        self.scratch = solver_scratch(True)
        self.ctx = np.zeros(solver_kernel.CTX_SIZE, dtype=np.int64)
        self.table = np.zeros((1 << 14, 2), dtype=np.int64)

    def card(self, hands, seat, led, trump):
        planes = [[np.int64(q) for q in counts_to_planes(h)] for h in hands]
        legal = 0
        for t in legal_cards(hands[seat], [] if led is None else [led], trump):
            legal |= 1 << t
        return int(solver_card(*planes[0], *planes[1], np.int64(seat), np.int64(legal),
                               np.int64(-1 if led is None else led), np.int64(trump),
                               self.points, np.int64(self.rules.last_trick), self.scratch))

    def value(self, hands, leader, trump, rules):
        planes = np.stack([counts_to_planes(h) for h in hands]).astype(np.uint32)
        points, _ = solver_kernel.solve(planes, trump, leader, self.points, rules.last_trick,
                                        self.ctx, self.table)
        return int(points)


def decisions(rng: random.Random, rules, n: int):
    """A position of ``n`` cards a hand and a decision in it: ``(hands, seat, led, trump)``, the
    leader's card already out of his hand when ``seat`` follows."""
    hands = random_position(rng, rules, n)
    trump = rng.randrange(4)
    leader = rng.randrange(2)
    if rng.random() < 0.5:
        return hands, leader, None, trump
    led = rng.choice(legal_cards(hands[leader], [], trump))
    hands[leader][led] -= 1
    return hands, 1 - leader, led, trump


@pytest.mark.parametrize("rules", [TWO_HAND, house_rules()], ids=["two-hand-48", "house-72"])
def test_card_matches_the_brute_force_twin(rules):
    """Leads and replies in endings of 1 to 4 tricks: the kernel plays the twin's card (the
    lowest card type of the best value, by plain minimax)."""
    rng = random.Random(11)
    policy = Policy(rules)
    for case in range(240):
        hands, seat, led, trump = decisions(rng, rules, 1 + case % 4)
        want = solver_twin.policy_card(hands, seat, led, trump, rules)
        assert policy.card(hands, seat, led, trump) == want, (hands, seat, led, trump)


def test_card_matches_the_twin_on_full_positions():
    """Twelve cards a hand: the same choice as the twin's one-trick expansion with the kernel's
    values after it (ties broken to the lowest card type in both)."""
    rng = random.Random(5)
    policy = Policy(TWO_HAND)
    for _ in range(12):
        hands, seat, led, trump = decisions(rng, TWO_HAND, 12)
        want = solver_twin.policy_card(hands, seat, led, trump, TWO_HAND, policy.value)
        assert policy.card(hands, seat, led, trump) == want


def test_ties_go_to_the_lowest_card_type():
    """Seat 0 leads two aces of hearts and its opponent two nines of diamonds, hearts trump:
    every lead takes both tricks, so the choice is the lowest type, and it is a best card."""
    hands = [[0] * 24, [0] * 24]
    hands[0][11] = 1  # A of hearts (type 6 * 1 + 5)
    hands[0][5] = 1  # A of spades
    hands[1][12] = 2  # two 9 of diamonds
    card = Policy(TWO_HAND).card(hands, 0, None, 1)
    values = solver_twin.lead_values(hands, 0, 1, TWO_HAND)
    assert values[5] == values[11] == max(values.values())
    assert card == 5


def phase2_hands(deals, d, k):
    """Counts per card type each seat holds at trick ``k`` of deal ``d``: the cards it plays from
    there on (every card is played, so that is its hand)."""
    hands = [[0] * 24, [0] * 24]
    for j in range(k, deals.trick_cards.shape[1]):
        leader = int(deals.trick_leaders[d, j])
        for i in range(2):
            hands[(leader + i) % 2][int(deals.trick_cards[d, j, i])] += 1
    return hands


def test_whole_deals_play_the_solver_card_in_phase_2():
    """Records of two-hand-48 with the policy on both seats: every phase-2 card (12 tricks after
    the talon's 12) is the twin's choice in the position it was played from; the records replay
    under the rules in test_talon.py's replay test."""
    policy = Policy(TWO_HAND)
    deals = talon_games.run_play(TWO_HAND, 6, 3, "heuristic+solver", threads=1)
    first = TWO_HAND.talon // 2
    checked = 0
    for d in range(deals.trick_cards.shape[0]):
        trump = int(deals.talon[d, -1]) // 6
        for k in range(first, deals.trick_cards.shape[1]):
            hands = phase2_hands(deals, d, k)
            leader = int(deals.trick_leaders[d, k])
            led = int(deals.trick_cards[d, k, 0])
            assert led == solver_twin.policy_card(hands, leader, None, trump, TWO_HAND,
                                                  policy.value)
            hands[leader][led] -= 1
            reply = int(deals.trick_cards[d, k, 1])
            assert reply == solver_twin.policy_card(hands, 1 - leader, led, trump,
                                                    TWO_HAND, policy.value)
            checked += 2
    assert checked == 6 * 24


def test_the_solver_beats_the_heuristic_and_threads_agree():
    """Seat-swapped duels: the exact phase 2 gains points on the heuristic's (the 95% interval
    above zero by far: about +20 points a deal), the same numbers on one and two threads."""
    one = talon_games.run_duel(TWO_HAND, "heuristic+solver", "heuristic", 300, 7,
                                     threads=1)
    two = talon_games.run_duel(TWO_HAND, "heuristic+solver", "heuristic", 300, 7,
                                     threads=2)
    assert np.array_equal(one, two)
    assert one.mean() - 1.96 * one.std(ddof=1) / np.sqrt(one.size) > 0


def test_phase_1_is_the_heuristic():
    """The policy plays phase 1 and declares as the heuristic does: the same phase-1 tricks and
    declarations as heuristic records of the same seed."""
    solver = talon_games.run_play(TWO_HAND, 20, 8, "heuristic+solver", threads=1)
    plain = talon_games.run_play(TWO_HAND, 20, 8, "heuristic", threads=1)
    first = TWO_HAND.talon // 2
    assert np.array_equal(solver.hands, plain.hands)
    assert np.array_equal(solver.trick_cards[:, :first], plain.trick_cards[:, :first])
    assert np.array_equal(solver.declarations, plain.declarations)
    assert not np.array_equal(solver.trick_cards[:, first:], plain.trick_cards[:, first:])


@pytest.mark.parametrize("name", ["four-hand-80", "three-hand-72", "four-hand-72",
                                  "three-hand-auction-48", "four-hand-widow-48"])
def test_other_variants_refuse_the_policy(name):
    with pytest.raises(SimulationError, match="heuristic\\+solver.*two-player talon"):
        policy_id("heuristic+solver", find_variant(name))
    assert policy_id("heuristic+solver", TWO_HAND) == POLICY_SOLVER


def test_cli_refuses_the_policy_in_one_line():
    result = invoke("duel", "--variant", "three-hand-72", "-a", "heuristic+solver",
                    "--deals", "10")
    assert_one_line_error(result, "two-player talon")
