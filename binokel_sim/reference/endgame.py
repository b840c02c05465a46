"""Slow, obvious twin of the endgame search (:mod:`binokel_sim.kernels.strict.endgame`): plain
minimax over every legal card of every seat, no pruning, no table, no bit tricks.

A hand is a list of 24 counts (copies held of each card type). Legality and the trick winner are
:func:`binokel_sim.reference.play.legal_cards` and :func:`~binokel_sim.reference.play.trick_winner`,
written the way SPEC.md states "Must-head obligation" and "Trick winner"; copies of a card type
are one move (``legal_cards`` lists each type once). The seats of ``ours`` maximise what the
seats ``scored`` take from here (the cards on the table included; ``ours`` itself but for a
Bettel), the others minimise it.
"""

from __future__ import annotations

from binokel_sim.reference.play import legal_cards, trick_winner


def value(hands: list[list[int]], leader: int, table: list[int], trump: int,
          card_points: list[int], last_trick: int, ours: set[int], tricks: bool = False,
          scored: set[int] | None = None) -> int:
    """What the seats ``scored`` (default ``ours``) take from here, the seats ``ours``
    maximising it and the others minimising it: the card points (with the last trick's bonus
    ``last_trick``), or with ``tricks`` the tricks. ``table`` the cards already played to the
    trick led by ``leader``."""
    return max_min(hands, leader, table, trump, card_points, last_trick, ours, tricks,
                   ours if scored is None else scored)[0]


def move_values(hands: list[list[int]], leader: int, table: list[int], trump: int,
                card_points: list[int], last_trick: int, ours: set[int],
                tricks: bool = False, scored: set[int] | None = None) -> dict[int, int]:
    """For every card type the seat to play may play: :func:`value` after it."""
    return max_min(hands, leader, table, trump, card_points, last_trick, ours, tricks,
                   ours if scored is None else scored)[1]


def max_min(hands, leader, table, trump, card_points, last_trick, ours, tricks, scored):
    """``(value, {card: value after it})`` for the seat to play."""
    n_seats = len(hands)
    seat = (leader + len(table)) % n_seats
    values = {}
    for card in legal_cards(hands[seat], table, trump):
        after = [list(h) for h in hands]
        after[seat][card] -= 1
        trick = table + [card]
        if len(trick) < n_seats:
            values[card] = max_min(after, leader, trick, trump, card_points, last_trick, ours,
                                   tricks, scored)[0]
            continue
        winner = (leader + trick_winner(trick, trump)) % n_seats
        worth = 1 if tricks else sum(card_points[t] for t in trick)
        gain = worth if winner in scored else 0
        if sum(after[winner]) == 0:  # the last trick
            values[card] = gain + (last_trick if winner in scored and not tricks else 0)
        else:
            values[card] = gain + max_min(after, winner, [], trump, card_points, last_trick,
                                          ours, tricks, scored)[0]
    best = max(values.values()) if seat in ours else min(values.values())
    return best, values
