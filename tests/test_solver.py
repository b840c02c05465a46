"""The two-hand endgame solver (kernels/strict/solver.py, solver.py, the ``solve`` command) against its
brute-force twin (reference/solver.py: plain minimax, SPEC.md "Must-head obligation" and "Trick
winner"), endings worked by hand, invariants of full 12-trick positions, and the command line."""

from __future__ import annotations

import json
import random
import sys

import numpy as np
import pytest

from binokel_sim.cards import counts_to_planes, format_card, parse_cards, parse_suit
from binokel_sim.errors import CardError, SimulationError
from binokel_sim.reference import solver as solver_twin
from binokel_sim.kernels.strict import solver as kernel
from binokel_sim.solver import card_points_of, solve_endgame
from binokel_sim.variants import builtin_toml, find_variant, rules_from_dict

from conftest import assert_one_line_error, invoke, ok

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

TWO_HAND = find_variant("two-hand-48")


def house_rules():
    """A two-player talon game of three packs where a nine is worth 12 (card points that do not
    rise with the rank): the kernel must take both from the rules."""
    text = (builtin_toml("two-hand-48").replace('name = "two-hand-48"', 'name = "house-72"')
            .replace("copies = 2", "copies = 3").replace("talon = 24 ", "talon = 48 ")
            .replace('"9" = 0', '"9" = 12'))
    return rules_from_dict(tomllib.loads(text), "house-72.toml")


def random_position(rng: random.Random, rules, n: int) -> list[list[int]]:
    """Two hands of ``n`` cards dealt from the variant's deck (counts per card type)."""
    deck = [t for t in range(24) for _ in range(int(rules.deck_counts()[t]))]
    rng.shuffle(deck)
    hands = [[0] * 24, [0] * 24]
    for i, t in enumerate(deck[:2 * n]):
        hands[i // n][t] += 1
    return hands


class Kernel:
    """The kernel with one context and table for many positions (table generations)."""

    def __init__(self, rules):
        self.rules = rules
        self.points = card_points_of(rules)
        self.ctx = np.zeros(kernel.CTX_SIZE, dtype=np.int64)
        self.table = np.zeros((1 << 12, 2), dtype=np.int64)  # small: collisions must be harmless
        self.values = np.empty(24, dtype=np.int64)

    def planes(self, hands):
        return np.stack([counts_to_planes(h) for h in hands]).astype(np.uint32)

    def solve(self, hands, trump, leader):
        return kernel.solve(self.planes(hands), trump, leader, self.points,
                            self.rules.last_trick, self.ctx, self.table)

    def leads(self, hands, trump, leader):
        value, card = kernel.solve_leads(self.planes(hands), trump, leader, self.points,
                                         self.rules.last_trick, self.ctx, self.table,
                                         self.values)
        return int(value), int(card), {t: int(v) for t, v in enumerate(self.values) if v >= 0}


# --- against brute force --------------------------------------------------------------------------

@pytest.mark.parametrize("rules", [TWO_HAND, house_rules()], ids=["two-hand-48", "house-72"])
@pytest.mark.parametrize("tricks,cases", [(1, 6), (2, 10), (3, 10), (4, 8), (5, 5)])
def test_kernel_matches_brute_force(rules, tricks, cases):
    """Every trump and both leaders: the value, every lead's value, the kernel's best card is a
    best card, and :func:`kernel.solve` (no per-lead searches) agrees."""
    rng = random.Random(1000 * tricks + rules.copies)
    k = Kernel(rules)
    for trump in range(4):
        for leader in (0, 1):
            for _ in range(cases):
                hands = random_position(rng, rules, tricks)
                want = solver_twin.solve(hands, leader, trump, rules)
                value, card, leads = k.leads(hands, trump, leader)
                where = (hands, trump, leader)
                assert value == want["points"], where
                assert leads == want["lead_values"], where
                assert card in want["best_cards"], where
                value, card = k.solve(hands, trump, leader)
                assert value == want["points"] and card in want["best_cards"], where


def test_driver_matches_brute_force_with_the_set_of_best_cards():
    rng = random.Random(7)
    for i in range(40):
        hands = random_position(rng, TWO_HAND, 1 + i % 5)
        trump, leader = i % 4, (i // 4) % 2
        want = solver_twin.solve(hands, leader, trump, TWO_HAND)
        got = solve_endgame(TWO_HAND, np.array(hands[0]), np.array(hands[1]), trump, leader)
        assert got["points"] == want["points"]
        assert got["opponent_points"] == want["opponent_points"]
        assert sorted(parse_cards(got["best_cards"])) == want["best_cards"]
        assert {parse_cards([row["card"]])[0]: row["points"] for row in got["leads"]} == \
            want["lead_values"]


# --- worked by hand -------------------------------------------------------------------------------

def solved(hand: str, other: str, trump: str, leader: int = 0, rules=TWO_HAND) -> dict:
    return solve_endgame(rules, hand, other, trump, leader)


def test_one_trick_endings():
    # AS beats TS: 11 + 10 + the last trick's 10
    got = solved("AS", "TS", "H")
    assert (got["points"], got["opponent_points"], got["best_cards"]) == (31, 0, ["AS"])
    # void in spades, seat 1 must trump with its nine: 11 + 0 + 10 to seat 1
    got = solved("AS", "9H", "H")
    assert (got["points"], got["opponent_points"]) == (0, 21)
    # identical cards: the first played wins
    assert solved("AS", "AS", "C")["points"] == 32
    assert solved("AS", "AS", "C", leader=1)["points"] == 0


def test_two_trick_ending_where_the_ace_is_the_wrong_lead():
    # Seat 0: AS 9H, seat 1: TS KH, hearts trump, seat 0 leads.
    # AS first: TS must follow (cannot beat): 21 to seat 0; then 9H is taken by KH: 14 to seat 1.
    # 9H first: KH must beat it (4 to seat 1); seat 1 leads TS, AS must beat it: 21 + 10 to
    # seat 0. So 9H is the only best lead: 31 of the 35 in play.
    got = solved("AS 9H", "TS KH", "H")
    assert (got["points"], got["opponent_points"], got["total_points"]) == (31, 4, 35)
    assert got["best_cards"] == ["9H"]
    assert {row["card"]: row["points"] for row in got["leads"]} == {"AS": 21, "9H": 31}
    # seat 1 to lead: TS is taken by AS (21), then KH beats 9H (14 with the bonus) -> 21 for
    # seat 0; KH first draws 9H (4 to seat 1), then TS to AS (31) -> 31. Seat 1 leads TS.
    got = solved("AS 9H", "TS KH", "H", leader=1)
    assert (got["points"], got["best_cards"]) == (21, ["TS"])


# --- full positions -------------------------------------------------------------------------------

def test_full_positions_are_consistent():
    """12 cards each (too many for brute force): both entry points agree, seats swapped give the
    mirrored answer, the best cards are the leads of the best value, points add up."""
    rng = random.Random(3)
    k = Kernel(TWO_HAND)
    for i in range(6):
        hands = random_position(rng, TWO_HAND, 12)
        trump, leader = i % 4, i % 2
        value, card, leads = k.leads(hands, trump, leader)
        assert k.solve(hands, trump, leader) == (value, card)
        best = max(leads.values()) if leader == 0 else min(leads.values())
        assert value == best and leads[card] == best
        total = int(np.dot(np.add(*hands), card_points_of(TWO_HAND))) + TWO_HAND.last_trick
        swapped, _, _ = k.leads(hands[::-1], trump, 1 - leader)
        assert swapped == total - value


@pytest.mark.parametrize("rules", [TWO_HAND, house_rules()], ids=["two-hand-48", "house-72"])
def test_best_lead_and_solve_beyond_agree_with_every_leads_value(rules):
    """What the policy asks, against what it asked before: ``best_lead`` is the value and the
    lowest card type of the best value among ``solve_leads``' values; ``solve_beyond`` is the
    exact value when it is beyond the bound, else the bound, for bounds on both sides of the
    value and at it. Endings of 2 to 12 tricks, both leaders, a small table."""
    rng = random.Random(17)
    k = Kernel(rules)
    for i in range(60):
        n = 2 + i % 11
        hands = random_position(rng, rules, n)
        trump, leader = rng.randrange(4), i % 2
        value, _, leads = k.leads(hands, trump, leader)
        best = max(leads.values()) if leader == 0 else min(leads.values())
        held = 0
        for t in leads:
            held |= 1 << t
        got = kernel.best_lead(k.planes(hands), trump, leader, k.points, rules.last_trick,
                               k.ctx, k.table, np.int64(held))
        assert (int(got[0]), int(got[1])) == (value, min(t for t, v in leads.items()
                                                         if v == best))
        for bound in (value - 7, value - 1, value, value + 1, value + 7):
            for above in (True, False):
                beyond = value > bound if above else value < bound
                got = kernel.solve_beyond(k.planes(hands), trump, leader, k.points,
                                          rules.last_trick, k.ctx, k.table, np.int64(bound),
                                          above)
                assert int(got) == (value if beyond else bound), (n, bound, above)


def test_class_table_picks_what_the_walk_picks_when_points_rise():
    """Two-hand-48's card points rise with rank: the table of picks (``CLASS_TABLE``) and the
    walk through each suit (the path of points that do not rise) keep the same cards."""
    ctx = np.zeros(kernel.CTX_SIZE, dtype=np.int64)
    ctx[kernel.CTX_POINTS:kernel.CTX_POINTS + 24] = card_points_of(TWO_HAND)
    rng = random.Random(3)
    for _ in range(3000):
        cands, theirs, wins = rng.getrandbits(24), rng.getrandbits(24), rng.random() < 0.5
        ctx[kernel.CTX_RISING] = 1
        table = kernel._classes(cands, theirs, wins, ctx)
        ctx[kernel.CTX_RISING] = 0
        assert table == kernel._classes(cands, theirs, wins, ctx), (cands, theirs, wins)


def test_points_that_do_not_rise_are_walked():
    k = Kernel(house_rules())
    k.solve([[1] + [0] * 23, [0, 1] + [0] * 22], 0, 0)
    assert k.ctx[kernel.CTX_RISING] == 0
    k = Kernel(TWO_HAND)
    k.solve([[1] + [0] * 23, [0, 1] + [0] * 22], 0, 0)
    assert k.ctx[kernel.CTX_RISING] == 1


def test_copies_fall_in_any_order_and_hands_are_left_alone():
    k = Kernel(TWO_HAND)
    hands = [[0] * 24, [0] * 24]
    for t in parse_cards("AS AS TS KH KH 9D"):
        hands[0][t] += 1
    for t in parse_cards("QS JS AH TH 9H 9S"):
        hands[1][t] += 1
    planes = k.planes(hands)
    before = planes.copy()
    kernel.solve(planes, 1, 0, k.points, 10, k.ctx, k.table)
    assert (planes == before).all()
    assert k.ctx[kernel.CTX_NODES] > 0


def test_callable_from_a_numba_kernel():
    """A talon kernel calls :func:`kernel.solve` from numba with its own hands array (here rows
    of a bigger one) and keeps one context and table for many positions."""
    import numba

    @numba.njit
    def many(all_hands, trumps, card_points, ctx, tt, out):
        for i in range(trumps.shape[0]):
            out[i] = kernel.solve(all_hands[2 * i:2 * i + 2], trumps[i], i % 2, card_points, 10,
                                  ctx, tt)[0]

    rng = random.Random(11)
    positions = [random_position(rng, TWO_HAND, 3) for _ in range(12)]
    k = Kernel(TWO_HAND)
    all_hands = np.concatenate([k.planes(h) for h in positions])
    trumps = np.arange(12, dtype=np.int64) % 4
    out = np.empty(12, dtype=np.int64)
    many(all_hands, trumps, k.points, k.ctx, k.table, out)
    want = [solver_twin.solve(h, i % 2, i % 4, TWO_HAND)["points"]
            for i, h in enumerate(positions)]
    assert out.tolist() == want


# --- input checks ---------------------------------------------------------------------------------

@pytest.mark.parametrize("hand,other,trump,leader,error,needle", [
    ("AS TS", "KS", "S", 0, CardError, "2 and 1 cards"),
    ("", "", "S", 0, CardError, "empty"),
    ("AS AS", "AS 9S", "S", 0, CardError, "3 copies of AS in the two hands"),
    ("AS XX", "KS 9S", "S", 0, CardError, "XX"),
    ("AS", "KS", "X", 0, CardError, "'X'"),
    ("AS", "KS", "S", 2, SimulationError, "seat 0 or 1"),
])
def test_bad_positions(hand, other, trump, leader, error, needle):
    with pytest.raises(error, match=needle):
        solve_endgame(TWO_HAND, hand, other, trump, leader)


def test_more_cards_than_a_hand_holds():
    cards = [format_card(t) for t in range(24) for _ in range(2)]
    with pytest.raises(CardError, match="13 cards; after the talon a two-hand-48 hand has at "
                                        "most 12"):
        solve_endgame(TWO_HAND, " ".join(cards[:13]), " ".join(cards[13:26]), "S")


@pytest.mark.parametrize("name,needle", [
    ("three-hand-72", "the two-hand form .* a three-hand-72 position is a play record cut at a "
                      "card: give --position FILE"),
    ("four-hand-80", "the two-hand form .* a four-hand-80 position is a play record cut at a "
                     "card: give --position FILE")])
def test_only_two_player_talon_games_in_the_two_hand_form(name, needle):
    with pytest.raises(SimulationError, match=needle):
        solve_endgame(find_variant(name), "AS", "KS", "S")


# --- the command ----------------------------------------------------------------------------------

EXAMPLE = ["solve", "--hand", "AS TS KH QH JD 9C", "--other", "KS AH TD AD QC JC", "--trump", "H"]


def test_solve_json():
    doc = json.loads(ok(*EXAMPLE, "--format", "json").stdout)
    want = solver_twin.solve(
        [list(np.bincount(parse_cards(h), minlength=24)) for h in (EXAMPLE[2], EXAMPLE[4])],
        0, parse_suit("H"), TWO_HAND)
    assert {"points", "opponent_points", "best_cards", "nodes", "leads", "total_points"} <= \
        set(doc)
    assert (doc["points"], doc["opponent_points"]) == (want["points"], want["opponent_points"])
    assert doc["points"] + doc["opponent_points"] == doc["total_points"] == 81
    assert doc["best_cards"] == ["AS"] and doc["nodes"] > 0
    assert doc["provenance"]["variant"] == "two-hand-48"
    doc = json.loads(ok(*EXAMPLE, "--leader", "1", "-f", "json").stdout)
    assert doc["leader"] == 1 and doc["best_cards"] == ["AH", "AD", "QC"]


def test_solve_table_fits_80_columns():
    result = invoke(*EXAMPLE)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert all(len(line.rstrip()) <= 80 for line in lines), lines
    assert "seat 0 takes 44 card points, seat 1 takes 37" in result.stdout
    assert any(line.split()[:4] == ["AS", "44", "37", "best"] for line in lines if line.strip())


def test_solve_help_has_an_example_and_loads_no_numerical_library():
    from test_hygiene import loaded_after

    result = invoke("solve", "--help")
    assert result.exit_code == 0 and "Example: binokel-sim solve" in result.stdout
    assert loaded_after("solve", "--help") == set()


@pytest.mark.parametrize("args,needles", [
    (["--variant", "nope"], ["nope"]),
    (["--variant", "three-hand-72"], ["three-hand-72", "--position"]),
    (["--variant", "four-hand-80"], ["give --position FILE"]),
    (["--hand", "AS ZZ"], ["ZZ"]),
    (["--hand", "AS TS KH QH JD"], ["5 and 6 cards"]),
    (["--hand", "AS TS KH QH KS KS"], ["3 copies of KS"]),
    (["--trump", "X"], ["'X'"]),
    (["--leader", "2"], ["seat 0 or 1"]),
])
def test_solve_errors(args, needles):
    options = {**dict(zip(EXAMPLE[1::2], EXAMPLE[2::2])), **dict(zip(args[::2], args[1::2]))}
    argv = [x for option in options.items() for x in option]
    assert_one_line_error(invoke("solve", *argv), *needles)


def test_solve_refuses_thirteen_cards():
    cards = [format_card(t) for t in range(24) for _ in range(2)]
    result = invoke("solve", "--hand", " ".join(cards[:13]), "--other", " ".join(cards[13:26]),
                    "--trump", "S")
    assert_one_line_error(result, "at most 12")
