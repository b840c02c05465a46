"""``bid-odds`` for each engine family that bids, with the same names (:data:`FAMILY_API`):
``bid_odds(rules, counts, **options)`` checks the family's own options (``--trump``,
``--auction``, ``--dealer``), runs :func:`binokel_sim.odds.bid_odds` and writes or prints the
result. Family ``f``'s view is ``binokel_sim.cli.bid_odds.f`` (the families
:data:`binokel_sim.families.SUPPORTS` gives ``bid-odds``); the command itself is
:func:`binokel_sim.cli.odds.bid_odds_cmd`.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING

from binokel_sim.families import family_module

if TYPE_CHECKING:
    from binokel_sim.variants import Rules

FAMILY_API = ("bid_odds",)

def family_view(rules: Rules) -> ModuleType:
    """The ``bid-odds`` view of the engine family that plays ``rules``."""
    return family_module(__name__, rules)
