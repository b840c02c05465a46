"""Positions of the partnership family (four-hand-80): the dealt hands less the tricks so far;
the bidder leads the first trick (docs/rules.md); partners are the rules' partnerships."""

from __future__ import annotations

from typing import TYPE_CHECKING

from binokel_sim.positions import Position, dealt_hands, field, first_leader, play_tricks, \
    sides_of, trump_of

if TYPE_CHECKING:
    from binokel_sim.variants import Rules


def position(rules: Rules, record: dict) -> Position:
    """The :class:`~binokel_sim.positions.Position` of a four-hand-80 record cut at a card."""
    hands = dealt_hands(rules, record)
    trump = trump_of(record)
    leader, table, won = play_tricks(hands, field(record, "tricks"), trump,
                                      first_leader(rules, record, "bidder"))
    return Position(rules.name, tuple(hands), leader, table, trump, sides_of(rules, None),
                    "points", None, won)
