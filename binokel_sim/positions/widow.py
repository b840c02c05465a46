"""Positions of the widow family (the Swabian games, the widow games): the soloist's hand is
his dealt hand with the Dabb, the card he demanded and gave back (four-hand-widow-48), less what
he buried; a Durch or a Bettel is played without trump; the sides are the rules' partnerships,
else the soloist against the others."""

from __future__ import annotations

from typing import TYPE_CHECKING

from binokel_sim.constants import NO_TRUMP
from binokel_sim.errors import SimulationError
from binokel_sim.positions import (
    Position,
    cards_of,
    dealt_hands,
    field,
    first_leader,
    play_tricks,
    sides_of,
    take,
    trump_of,
)

if TYPE_CHECKING:
    from binokel_sim.variants import Rules


def position(rules: Rules, record: dict) -> Position:
    """The :class:`~binokel_sim.positions.Position` of a widow-family record cut at a card."""
    hands = dealt_hands(rules, record)
    soloist = field(record, "soloist")
    if not isinstance(soloist, int) or not 0 <= soloist < rules.players:
        raise SimulationError("the record names no soloist (nobody bid: no play)")
    if record.get("conceded"):
        raise SimulationError("the soloist conceded (Abgehen): the deal has no card play")
    own = hands[soloist]
    for card in cards_of(field(record, "widow"), "the Dabb"):
        own[card] += 1
    demand = record.get("demand")
    if demand:
        giver = field(demand, "from")
        if not isinstance(giver, int) or not 0 <= giver < rules.players or giver == soloist:
            raise SimulationError(f"the demand names seat {giver!r}")
        (card,) = cards_of([field(demand, "card")], "the card demanded")
        (given,) = cards_of([field(demand, "given")], "the card given back")
        take(hands[giver], card, f"the demand, seat {giver}")
        own[card] += 1
        take(own, given, "the card given back")
        hands[giver][given] += 1
    for card in cards_of(field(record, "buried"), "the cards buried"):
        take(own, card, "the cards buried")
    contract = "durch" if record.get("durch") else "bettel" if record.get("bettel") else "points"
    trump = NO_TRUMP if contract != "points" else trump_of(record)
    leader, table, won = play_tricks(hands, field(record, "tricks"), trump,
                                      first_leader(rules, record, "soloist"))
    return Position(rules.name, tuple(hands), leader, table, trump, sides_of(rules, soloist),
                    contract, soloist, won)
