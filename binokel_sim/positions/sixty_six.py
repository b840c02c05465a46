"""Positions of the sixty-six family: not read yet (`solve --position` reads the records of
four-hand-80, the widow games and the talon games)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from binokel_sim.errors import SimulationError
from binokel_sim.positions import Position

if TYPE_CHECKING:
    from binokel_sim.variants import Rules


def position(rules: Rules, record: dict) -> Position:
    """Refused in one line: this family's records are not read as positions yet."""
    raise SimulationError(f"solve --position does not read {rules.name} records yet (those of "
                          f"four-hand-80, the widow games and the talon games it does)")
