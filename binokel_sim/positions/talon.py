"""Positions of the talon family (two-hand-48, three-hand-72, four-hand-72) in phase 2, once the
talon is gone and play is strict: the dealt hands, with each phase-1 trick's draws (the talon's
cards in order, the trick's winner first, then clockwise) and a declared trump nine swapped for
the turned card, less the cards played. A record cut while the talon lasts is refused: phase 1
is free play."""

from __future__ import annotations

from typing import TYPE_CHECKING

from binokel_sim.cards import format_card
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
    trick_winner,
    trump_of,
)

if TYPE_CHECKING:
    from binokel_sim.variants import Rules


def position(rules: Rules, record: dict) -> Position:
    """The :class:`~binokel_sim.positions.Position` of a talon-game record cut in phase 2."""
    hands = dealt_hands(rules, record)
    talon = cards_of(field(record, "talon"), "the talon")
    if len(talon) != rules.talon:
        raise SimulationError(f"the talon has {len(talon)} cards; a {rules.name} talon has "
                              f"{rules.talon}")
    trump = trump_of(record)
    tricks = field(record, "tricks")
    if not isinstance(tricks, list):
        raise SimulationError("the record's tricks are not a list")
    n = rules.players
    phase1 = len(talon) // n
    if len(tricks) < phase1 or (len(tricks) == phase1 and tricks
                                and len(tricks[-1].get("cards", [])) < n):
        raise SimulationError(f"the talon lasts {phase1} tricks and the record has "
                              f"{len(tricks)}: phase 1 is free play, the exact search starts "
                              f"once the talon is gone (cut the record after trick {phase1} "
                              f"or later)")
    leader = first_leader(rules, record, "dealer")
    drawn = 0
    before = [0] * n  # the phase-1 tricks each seat took
    for k, trick in enumerate(tricks[:phase1]):  # free play: each card held, no obligation
        if not isinstance(trick, dict):
            raise SimulationError(f"trick {k + 1} is not an object with leader and cards")
        cards = cards_of(field(trick, "cards"), f"trick {k + 1}")
        if len(cards) != n or trick.get("leader", leader) != leader:
            raise SimulationError(f"trick {k + 1}: {len(cards)} cards led by seat "
                                  f"{trick.get('leader')}; seat {leader} leads {n}")
        winner = trick_winner(cards, leader, trump, n)[1]
        for i, card in enumerate(cards):
            take(hands[(leader + i) % n], card, f"trick {k + 1}, seat {(leader + i) % n}")
        declaration = trick.get("declaration")
        if isinstance(declaration, dict) and declaration.get("swap"):
            nine = cards_of(field(declaration, "cards"), f"trick {k + 1}'s declaration")[0]
            take(hands[winner], nine, f"trick {k + 1}'s swap")
            hands[winner][talon[-1]] += 1
            talon[-1] = nine
        draws = trick.get("draws")
        for i in range(n):
            card = talon[drawn]
            drawn += 1
            if isinstance(draws, list) and len(draws) == n and cards_of(
                    [draws[i]], f"trick {k + 1}'s draws")[0] != card:
                raise SimulationError(f"trick {k + 1}: seat {(winner + i) % n} draws "
                                      f"{draws[i]}, but the talon's next card is "
                                      f"{format_card(card)}")
            hands[(winner + i) % n][card] += 1
        leader = winner
        before[winner] += 1
    leader, table, won = play_tricks(hands, tricks[phase1:], trump, leader, phase1)
    return Position(rules.name, tuple(hands), leader, table, trump, sides_of(rules, None),
                    "points", None, tuple(a + b for a, b in zip(before, won)))

