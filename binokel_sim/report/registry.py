"""The family registry: which module shows each engine family's report.

As in every package that differs by family (docs/architecture.md, "The layers"), family ``f``'s
module is ``binokel_sim.report.f`` (one per name of :data:`binokel_sim.families.FAMILIES`);
every such module defines the names of :data:`VIEW`, and the rest of the report asks it rather
than the family's name. Adding a family: one module defining :data:`VIEW`.
"""

from __future__ import annotations

from types import ModuleType

from binokel_sim.families import FAMILIES, engine_family, family_module
from binokel_sim.variants import Rules

PACKAGE = "binokel_sim.report"

# What a family's module defines (each module lists them as its __all__):
VIEW = (
    "TURNED_CARD",     # bool: the hand plays against a turned card, from a seat (--turned, --seat)
    "MARKS_MELD",      # bool: each hand's best meld is marked on total-meld.png
    "BID_CURVE_TEXT",  # bid-curve.png's line in report.md, with {worth}; None: no bid curve
    "odds",            # (rules, counts, deals, seed, policy, turned, seat, threads, progress):
                       #   the library result the family's command reports
    "bid_curve_data",  # (odds) -> bid-curve.png's data, None without an auction
    "score_data",      # (odds) -> score.png's data
    "describe_score",  # (score data) -> score.png's line in report.md
    "extra_figures",   # (rules, hand, who) -> the family's further figures of a hand
    "summary",         # (odds) -> the hand's result in a line of report.md
    "hands_note",      # (rules) -> a paragraph above the hands in report.md, or None
)


def view_of(family: str) -> ModuleType:
    """The report module of engine family ``family``."""
    if family not in FAMILIES:
        raise ValueError(f"no report for engine family {family!r}")
    return family_module(PACKAGE, family)


def family_view(rules: Rules) -> ModuleType:
    """The report module of the engine family that plays ``rules``."""
    return view_of(engine_family(rules))

