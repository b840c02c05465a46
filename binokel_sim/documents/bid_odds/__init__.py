"""``bid-odds``' document for each engine family that bids, with the same names
(:data:`FAMILY_API`):

- ``own_options(rules)``: which of ``trump``, ``auction`` and ``dealer`` the family reads in
  ``rules`` (the page shows a field for each);
- ``check(rules, counts, *, trump, auction, dealer, bid) -> Checked``: the family's own
  options, checked before any work (an error is one :class:`~binokel_sim.errors.BinokelError`;
  ``bid`` by :func:`check_bid`);
- ``document(rules, counts, checked, *, deals, seed, policy, threads, knowledge,
  samples_per_move, origin, progress, backend) -> (result, document)``.

Family ``f``'s module is ``binokel_sim.documents.bid_odds.f`` (the families
:data:`binokel_sim.families.SUPPORTS` gives ``bid-odds``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any

from binokel_sim.families import family_module

if TYPE_CHECKING:
    from binokel_sim.variants import Rules

FAMILY_API = ("own_options", "check", "document")

@dataclass(frozen=True)
class Checked:
    """A family's options after ``check``: what the odds run takes (``options``), what the
    provenance records of them (``fields``) and warnings for the user (one line each)."""

    options: dict[str, Any] = field(default_factory=dict)
    fields: dict[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()


def knowledge_of(rules: Rules, counts, known: list[str], void: list[str]):
    """``--known`` and ``--void`` for the hand ``counts``
    (:func:`binokel_sim.constraints.parse_knowledge`), checked to leave a possible deal before
    any work."""
    from binokel_sim.constraints import parse_knowledge
    from binokel_sim.engines import engine

    knowledge = parse_knowledge(rules, counts, known, void)
    engine(rules).sampler_inputs(rules, counts, knowledge)  # an impossible constraint: now
    return knowledge


def check_bid(rules: Rules, bid: int | None) -> int | None:
    """``--bid``: a bid of the variant's ladder (:func:`binokel_sim.bidding.next_bid`) from the
    minimum bid up to the most a side can score; None when not asked."""
    from binokel_sim.bidding import ladder, minimum_bid, next_bid
    from binokel_sim.errors import SimulationError
    from binokel_sim.odds.summary import highest_bid

    if bid is None:
        return None
    floor, top = minimum_bid(rules), highest_bid(rules)
    if bid < floor:
        raise SimulationError(f"--bid {bid}: the lowest bid in {rules.name} is {floor}")
    if bid > top:
        raise SimulationError(f"--bid {bid}: no side can score more than {top:,} in "
                              f"{rules.name}")
    if next_bid(rules, bid - 1) != bid:
        raise SimulationError(f"--bid {bid} is not a bid in {rules.name}; the nearest are "
                              f"{ladder(rules, bid)[-1]} and {next_bid(rules, bid)}")
    return bid


def family_view(rules: Rules) -> ModuleType:
    """The ``bid-odds`` document module of the engine family that plays ``rules``."""
    return family_module(__name__, rules)
