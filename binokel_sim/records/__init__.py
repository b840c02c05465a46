"""Simulated deals as records: one module per engine family with the same names, the shared
polars columns (:mod:`.columns`) and ``play``'s stream of frames and its writers (:mod:`.stream`).

Each family module (:mod:`.partnership`, :mod:`.talon`, :mod:`.widow`) defines
:data:`FAMILY_API`: ``schema(rules)``, the records' columns and types; ``frame(played,
first_deal)``, a chunk of the family's simulated deals (``run_play`` of
:mod:`binokel_sim.engines`) as a polars frame, one row a deal; ``records(played, first_deal)``,
its rows as JSON-ready dicts. Family ``f``'s module is ``binokel_sim.records.f``.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING

from binokel_sim.families import family_module

if TYPE_CHECKING:
    from binokel_sim.variants import Rules

FAMILY_API = ("schema", "frame", "records")


def family_records(rules: Rules) -> ModuleType:
    """The records module of the engine family that plays ``rules``."""
    return family_module(__name__, rules)
