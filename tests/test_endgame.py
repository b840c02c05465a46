"""The exact endgame search of strict tricks for 2, 3 or 4 seats (kernels/strict/endgame.py)
against its unpruned twin (reference/endgame.py: plain minimax, SPEC.md "Must-head obligation"
and "Trick winner") on random positions of every shape (any seat to play, mid-trick, a side of
one, two or three seats, card points or tricks counted), against the two-player solver of
two-hand-48, and endings worked by hand."""

from __future__ import annotations

import random

import numpy as np
import pytest

from binokel_sim.cards import counts_to_planes, parse_cards, parse_suit, type_suit
from binokel_sim.kernels.strict import solver as two_seats
from binokel_sim.kernels.strict.endgame import (
    MAX_CARDS,
    STAT_NODES,
    EndgameTable,
    endgame_best,
    endgame_moves,
    endgame_scratch,
    endgame_value,
)
from binokel_sim.kernels.strict.tricks import Trick, takes
from binokel_sim.reference import endgame as twin
from binokel_sim.reference.play import legal_cards, trick_winner

RISING = [0, 2, 3, 4, 10, 11] * 4  # 9 J Q K T A
HOUSE = [12, 2, 3, 4, 10, 11] * 4  # a nine worth 12: card points that do not rise with rank
SCRATCH = endgame_scratch(12)
POSITIONS = 150


def trick_of(leader: int, table: list[int], trump: int, n_seats: int, points: list[int],
             tricks: bool) -> Trick:
    """The kernel's :class:`Trick` for the cards ``table`` played to a trick led by ``leader``."""
    i64 = np.int64
    if not table:
        return Trick(i64(leader), i64(0), i64(0), i64(0), i64(-1), i64(leader), i64(0), i64(0))
    w = trick_winner(table, trump)
    worth = 0 if tricks else sum(points[c] for c in table)
    return Trick(i64(leader), i64(len(table)), i64(type_suit(table[0])),
                 i64(takes(i64(trump), i64(table[w]))), i64(table[w]), i64((leader + w) % n_seats),
                 i64(worth), i64(0))


def solve(hands, leader, table, trump, points, last, ours, tricks=False, scored=None):
    """The kernel's ``(value, best cards, value after each card)`` of a position."""
    n_seats = len(hands)
    scored = ours if scored is None else scored
    planes = np.array([counts_to_planes(h) for h in hands], np.uint32)
    side = EndgameTable(np.array(points, np.int64), np.int64(last),
                        np.array([1 if s in ours else 0 for s in range(n_seats)], np.int64),
                        np.array([1 if s in scored else 0 for s in range(n_seats)], np.int64),
                        tricks, np.int64(trump))
    trick = trick_of(leader, table, trump, n_seats, points, tricks)
    n_tricks = np.int64(sum(hands[(leader + len(table)) % n_seats]))
    value, best = endgame_best(planes, trick, n_tricks, side, SCRATCH)
    values = np.zeros(24, np.int64)
    again = endgame_moves(planes, trick, n_tricks, side, SCRATCH, values)
    assert again == value == endgame_value(planes, trick, n_tricks, side, SCRATCH)
    return (int(value), {t for t in range(24) if (int(best) >> t) & 1},
            {t: int(values[t]) for t in range(24) if values[t] >= 0})


def random_position(rng: random.Random, n_seats: int, n_tricks: int, copies: int):
    """Hands of ``n_tricks`` cards each from a deck of ``copies`` copies of some card types,
    then up to ``n_seats - 1`` legal cards played to the first trick."""
    types = rng.sample(range(24), rng.randint(6, 24))
    while copies * len(types) < n_seats * n_tricks:
        copies += 1
    deck = [t for t in types for _ in range(copies)]
    rng.shuffle(deck)
    hands = [[0] * 24 for _ in range(n_seats)]
    for i in range(n_seats * n_tricks):
        hands[i // n_tricks][deck[i]] += 1
    leader, trump = rng.randrange(n_seats), rng.randrange(4)
    table: list[int] = []
    for i in range(rng.randrange(n_seats)):
        seat = (leader + i) % n_seats
        card = rng.choice(legal_cards(hands[seat], table, trump))
        hands[seat][card] -= 1
        table.append(card)
    return hands, leader, table, trump


@pytest.mark.parametrize("n_seats,most_tricks", [(2, 5), (3, 3), (4, 3)])
def test_the_search_equals_the_unpruned_twin(n_seats, most_tricks):
    rng = random.Random(n_seats)
    for _ in range(POSITIONS):
        hands, leader, table, trump = random_position(
            rng, n_seats, rng.randint(1, most_tricks), rng.choice([1, 2, 4]))
        seat = (leader + len(table)) % n_seats
        others = set(range(n_seats)) - {seat}
        ours = rng.choice([{seat}, others, {seat, (seat + 2) % n_seats}])
        points = rng.choice([RISING, HOUSE])
        last = rng.choice([0, 10])
        tricks = rng.random() < 0.25
        # a Bettel: one seat's tricks counted, maximised by the others
        scored = {rng.choice(sorted(others))} if tricks and rng.random() < 0.5 else ours
        got, best, values = solve(hands, leader, table, trump, points, last, ours, tricks,
                                  scored)
        want_values = twin.move_values(hands, leader, table, trump, points, last, ours, tricks,
                                       scored)
        want = twin.value(hands, leader, table, trump, points, last, ours, tricks, scored)
        assert (got, values) == (want, want_values), (hands, leader, table, trump, ours)
        assert best == {t for t, v in want_values.items() if v == want}


def test_two_seats_agree_with_the_two_hand_solver():
    """two-hand-48's solver (seat 0's points, either seat leading) is this search for two."""
    rng = random.Random(7)
    ctx = np.zeros(two_seats.CTX_SIZE, np.int64)
    tt = np.zeros((1 << 12, 2), np.int64)
    points = np.array(RISING, np.int64)
    for _ in range(60):
        n = rng.randint(3, 7)
        hands, _, _, trump = random_position(random.Random(rng.random()), 2, n, 2)
        while sum(hands[0]) != n or sum(hands[1]) != n:
            hands, _, _, trump = random_position(random.Random(rng.random()), 2, n, 2)
        leader = rng.randrange(2)
        planes = np.array([counts_to_planes(h) for h in hands], np.uint32)
        want, _ = two_seats.solve(planes, trump, leader, points, 10, ctx, tt)
        got, _, _ = solve(hands, leader, [], trump, RISING, 10, {0})
        assert got == want


def counts(text: str) -> list[int]:
    out = [0] * 24
    for t in parse_cards(text):
        out[t] += 1
    return out


def test_a_last_trick_worked_by_hand():
    """Hearts led to spades trump: seat 3, void in hearts, must trump with his jack and takes
    A + 10 + K + J (11 + 10 + 4 + 2) and the last trick's 10: 37 for his side, 0 for the other."""
    hands = [counts("AH"), counts("TH"), counts("KH"), counts("JS")]
    spades = 0
    assert solve(hands, 0, [], spades, RISING, 10, {1, 3})[0] == 37
    assert solve(hands, 0, [], spades, RISING, 10, {0, 2})[0] == 0


def test_a_durch_worked_by_hand():
    """Counting tricks (a Durch): the soloist leads hearts, and seat 2, void in hearts, must
    trump each of them: the soloist takes no trick, whatever he leads."""
    hands = [counts("AH AH TH"), counts("KH QH JH"), counts("KD QD JD")]
    diamonds = parse_suit("D")  # trump: seat 2 holds only trumps, the others none
    value, best, _ = solve(hands, 0, [], diamonds, RISING, 0, {0}, tricks=True)
    # seat 2 is void in hearts and must trump every heart trick: the soloist takes none
    assert value == 0 and best == {parse_cards("AH")[0], parse_cards("TH")[0]}


def test_node_count_and_the_card_limit():
    hands = [counts("AH KH"), counts("TH QH")]
    planes = np.array([counts_to_planes(h) for h in hands], np.uint32)
    side = EndgameTable(np.array(RISING, np.int64), np.int64(10), np.array([1, 0], np.int64),
                        np.array([1, 0], np.int64), False, np.int64(0))
    trick = trick_of(0, [], 0, 2, RISING, False)
    endgame_value(planes, trick, np.int64(2), side, SCRATCH)
    assert SCRATCH.stats[STAT_NODES] > 0
    big = [counts(" ".join(["AS TS KS QS JS 9S"] * 2 + ["AH TH KH QH JH 9H"] * 2
                           + ["AD TD KD QD JD 9D"] * 2)),
           counts(" ".join(["AC TC KC QC JC 9C"] * 2 + ["AS TS KS QS JS 9S"] * 2
                           + ["AH TH KH QH JH 9H"] * 2))]
    assert sum(map(sum, big)) > MAX_CARDS
    planes = np.array([counts_to_planes(h) for h in big], np.uint32)
    assert endgame_value(planes, trick, np.int64(36), side, SCRATCH) == -1
