"""The odds of one hand, one entry per question, for every family that asks it: the CLI, batch,
report, calibrate and the Python API all call these.

- :func:`bid_odds`: the bidding variants (the partnership game, the widow games), by the
  hand's family's ``bid_odds`` (:mod:`binokel_sim.odds.partnership`,
  :mod:`binokel_sim.odds.widow`);
- :func:`deal_odds`: the talon games (:mod:`binokel_sim.odds.talon`).

One module per engine family, with the same names: ``bid_odds`` or ``deal_odds`` (whichever
command :data:`binokel_sim.families.SUPPORTS` gives the family), ``calibration_events`` (the
bidding families) and :data:`FAMILY_API`, what ``batch`` writes for a hand. The registry is the
family's name (:func:`family_odds`); what every family shares is :mod:`.summary`.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING

from binokel_sim.families import check_supports, family_module

if TYPE_CHECKING:
    import numpy as np

    from binokel_sim.simulate import Progress
    from binokel_sim.variants import Rules

# every family module: batch's columns for a hand, its figures, and those of a bad row
FAMILY_API = ("BATCH_COLUMNS", "batch_figures", "batch_error_figures")


def family_odds(rules: Rules) -> ModuleType:
    """The odds module of the engine family that plays ``rules``."""
    return family_module(__name__, rules)


def bid_odds(rules: Rules, counts: np.ndarray, samples: int, seed: int, policy: str = "heuristic",
             trump: int | None = None, threads: int | None = None,
             progress: Progress | None = None, backend=None, knowledge=None,
             auction: tuple | None = None, samples_per_move: int | None = None,
             dealer: int | None = None, bid: int | None = None) -> dict:
    """Bid odds of one hand in any bidding variant: how likely each bid is made and what it is
    worth, from ``samples`` simulated deals at ``seed``. The partnership game's figures per trump
    (:func:`binokel_sim.odds.partnership.bid_odds`: ``trump`` one suit or None for every suit
    with a marriage, ``auction`` the calls so far); the widow games' after the widow, with the
    exact widow section (:func:`binokel_sim.odds.widow.bid_odds`: the soloist names trump after
    the widow, so ``trump`` and ``auction`` are refused there; ``dealer`` the dealer's seat
    where the player left of the dealer leads). ``bid`` (``--bid``): the figures at that bid
    too. Other arguments as both take them. A variant
    without an auction is a :class:`SimulationError`."""
    check_supports(rules, "bid-odds")
    return family_odds(rules).bid_odds(rules, counts, samples, seed, policy, trump=trump,
                                       threads=threads, progress=progress, backend=backend,
                                       knowledge=knowledge, auction=auction,
                                       samples_per_move=samples_per_move,
                                       **({} if dealer is None else {"dealer": dealer}),
                                       **({} if bid is None else {"bid": bid}))


def deal_odds(rules: Rules, counts: np.ndarray, turned: int, seat: str, samples: int, seed: int,
              policy: str = "heuristic", **options) -> dict:
    """What a talon-game hand is worth in one deal (:func:`binokel_sim.odds.talon.deal_odds`,
    which documents the options); a variant without a talon is a :class:`SimulationError`."""
    check_supports(rules, "deal-odds")
    return family_odds(rules).deal_odds(rules, counts, turned, seat, samples, seed, policy,
                                        **options)
