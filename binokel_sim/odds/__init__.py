"""The odds of one hand, one entry per question, for every family that asks it: the CLI, batch,
report, calibrate and the Python API all call these.

- :func:`bid_odds`: the bidding variants (the partnership game, the widow games), by the
  hand's family's ``bid_odds`` (:mod:`binokel_sim.odds.partnership`,
  :mod:`binokel_sim.odds.widow`);
- :func:`deal_odds`: the talon games (:mod:`binokel_sim.odds.talon`).

Each family module has the same function names; :data:`BID_ODDS` is the registry (a family
added is one line here).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from binokel_sim.errors import SimulationError
from binokel_sim.families import PARTNERSHIP, WIDOW, check_supports, engine_family

if TYPE_CHECKING:
    import numpy as np

    from binokel_sim.simulate import Progress
    from binokel_sim.variants import Rules

# engine family -> the module whose ``bid_odds`` answers it
BID_ODDS = {PARTNERSHIP: "binokel_sim.odds.partnership", WIDOW: "binokel_sim.odds.widow"}


def bid_odds(rules: Rules, counts: np.ndarray, samples: int, seed: int, policy: str = "heuristic",
             trump: int | None = None, threads: int | None = None,
             progress: Progress | None = None, backend=None, knowledge=None,
             auction: tuple | None = None, samples_per_move: int | None = None) -> dict:
    """Bid odds of one hand in any bidding variant: how likely each bid is made and what it is
    worth, from ``samples`` simulated deals at ``seed``. The partnership game's figures per trump
    (:func:`binokel_sim.odds.partnership.bid_odds`: ``trump`` one suit or None for every suit
    with a marriage, ``auction`` the calls so far); the widow games' after the widow, with the
    exact widow section (:func:`binokel_sim.odds.widow.bid_odds`: the soloist names trump after
    the widow, so ``trump`` and ``auction`` are refused there). Other arguments as both take
    them. A variant without an auction is a :class:`SimulationError`."""
    check_supports(rules, "bid-odds")
    family = engine_family(rules)
    common = dict(threads=threads, progress=progress, backend=backend, knowledge=knowledge,
                  samples_per_move=samples_per_move)
    if family == WIDOW:
        for name, value in (("trump", trump), ("auction", auction)):
            if value is not None:
                raise SimulationError(f"{name}: in {rules.name} the soloist names trump after "
                                      f"the widow; the widow games' bid odds take no {name}")
    else:
        common.update(trump=trump, auction=auction)
    return import_module(BID_ODDS[family]).bid_odds(rules, counts, samples, seed, policy,
                                                    **common)


def deal_odds(rules: Rules, counts: np.ndarray, turned: int, seat: str, samples: int, seed: int,
              policy: str = "heuristic", **options) -> dict:
    """What a talon-game hand is worth in one deal (:func:`binokel_sim.odds.talon.deal_odds`,
    which documents the options); a variant without a talon is a :class:`SimulationError`."""
    check_supports(rules, "deal-odds")
    from binokel_sim.odds.talon import deal_odds as talon_deal_odds

    return talon_deal_odds(rules, counts, turned, seat, samples, seed, policy, **options)
