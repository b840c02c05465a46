"""The engine families' drivers, one module per family with the same names, and the registry that
picks a variant's (docs/architecture.md, "Engine families").

Each family module (:mod:`.partnership`, :mod:`.talon`, :mod:`.widow`) defines :data:`FAMILY_API`:

- ``check(rules)``: refuse (one line) rules the family's engine does not play;
- ``family_tables(rules)``: the family kernels' own tables (the talon games' ``TalonTable``,
  the widow games' ``WidowTable``, the partnership game's ``PartnershipTable``), beside
  :func:`binokel_sim.tables.compile_tables`;
- ``run_play``, ``run_duel``, ``run_match``: simulated deals as arrays, duels of two policies,
  whole games; ``run_samples``: the samples of one hand behind its odds;
- ``sampler_inputs``: the constrained sampler's inputs for what is known of the other hands;
- ``sampling_plays(rules)``: whether the ``sampling`` policy plays the variant;
- ``exact_playouts(rules)``: whether the sampling policy's play-outs can solve the last tricks
  exactly (``duel --exact-tricks``);
- ``expert_plays(rules)``: whether the ``expert`` policy plays it (its kernels take the
  expert's knobs, and knobs are fitted for the variant: :mod:`binokel_sim.expert_play`).

Each function has one signature in every family (tests/test_layers.py compares them): an option
only some families read (``run_samples``' ``trumps``, ``turned``, ``dealer``, ``auction``,
``max_draws``; ``sampler_inputs``' ``turned``) is keyword-only, and a family that has no use for
one refuses it (:func:`binokel_sim.simulate.refuse_options`) rather than ignore it.

The registry is the family's name (:func:`binokel_sim.families.engine_family`): family ``f``'s
module is ``binokel_sim.engines.f``. Adding a family means one module here (and one per layer
above: ``records/``, ``odds/``, ``report/``) and one line in :mod:`binokel_sim.families`.
Shared by every family: :mod:`.policies` (which policy plays what).
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING

from binokel_sim.families import family_module

if TYPE_CHECKING:
    from binokel_sim.variants import Rules

FAMILY_API = ("check", "family_tables", "run_play", "run_duel", "run_match", "run_samples",
              "sampler_inputs", "sampling_plays", "exact_playouts", "expert_plays")


def engine(rules: Rules) -> ModuleType:
    """The driver module of the engine family that plays ``rules``."""
    return family_module(__name__, rules)
