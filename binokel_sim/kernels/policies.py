"""Card-play policy ids, and policy 0 (random), which every family plays.

A policy picks one card type out of ``legal`` (a 24-bit mask of card types, as
:func:`binokel_sim.kernels.partnership.tricks.legal_mask` returns it). Policy ids:

=====  =============  ==========================================================================
id     name           what it does
=====  =============  ==========================================================================
0      ``random``     uniform over the *distinct* legal card types (two copies of ``AS`` count
                      once); one bounded draw per card when ``n >= 2`` types are
                      legal, no draw when the card is forced
1      ``heuristic``  the family's heuristic (see below); deterministic, reads no random
                      numbers
4      (none)         the widow games' Durch soloist: :func:`ranked_card`, the highest (seated
                      by the engine)
5      (none)         the widow games' Bettel soloist: :func:`ranked_card`, the lowest
=====  =============  ==========================================================================

The bit helpers live in :mod:`binokel_sim.kernels.bits`, the heuristic (policy 1) of the
partnership family in :mod:`binokel_sim.kernels.partnership.heuristic`, the talon and widow
games' heuristic in :mod:`binokel_sim.kernels.strict.heuristic`.
All masks are int64 holding a 24-bit set of card types (bit ``suit * 6 + rank``).
"""

import numpy as np

from binokel_sim.kernels.bits import either, kth_bit, lowest_bit, nth_bit, popcount
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.random import below_scalar

POLICY_RANDOM = 0
POLICY_HEURISTIC = 1
POLICY_SOLVER = 2  # the heuristic, and the exact solver in phase 2 of a two-player talon game
POLICY_SAMPLING = 3  # perfect-information sampling (four-hand-80: kernels/partnership/sampling.py)
POLICY_EXPERT = 6  # the heuristic with its fitted knobs (binokel_sim/expert_play.json)
N_TUNE = 110  # a policy's knobs in a kernel's tune table: the heuristic's row, then the expert's
POLICY_NAMES = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC,
                "heuristic+solver": POLICY_SOLVER, "sampling": POLICY_SAMPLING,
                "expert": POLICY_EXPERT}
# not a player's choice: the widow engine seats them for a soloist who declared Durch / Bettel
POLICY_TOP = 4
POLICY_BOTTOM = 5


@njit
def searches(policy):
    """Whether seats of ``policy`` search (the solver in a two-player phase 2, sampling): the
    policies the drivers compile their search code for."""
    return policy == POLICY_SOLVER or policy == POLICY_SAMPLING


@njit
def tune_row(policy, at):
    """Where ``policy``'s knobs start in a kernel's table (``at``: the heuristic's row, the
    expert's follows it, :data:`N_TUNE` later)."""
    return at + (N_TUNE if policy == POLICY_EXPERT else 0)


@njit  # called, not inlined: one compiled function for every strict kernel
def ranked_card(legal, highest):
    """The highest-ranked legal card type (``highest``: the Durch soloist's card, docs/rules.md
    "Widow games", "Policies") or the lowest-ranked (the Bettel soloist's), of the lowest suit
    on a tie."""
    for i in range(6):
        r = 5 - i if highest else i
        for s in range(4):
            t = s * 6 + r
            if (legal >> t) & 1:
                return np.int64(t)
    return np.int64(-1)


# --- policy 0: random ------------------------------------------------------------------------

@njit
def random_card(legal, s0, s1, s2, s3):
    """Policy 0: a uniform choice among the distinct legal card types, in ascending type order
    the ``k``-th with ``k`` uniform in ``[0, n)``, ``n = popcount(legal)``; the state travels as four
    scalars. A forced card (``n == 1``) reads no random number. Returns ``(card, s0, s1, s2, s3)``."""
    n = popcount(legal)
    if n == 1:
        return lowest_bit(legal), s0, s1, s2, s3
    k, s0, s1, s2, s3 = below_scalar(n, s0, s1, s2, s3)
    return nth_bit(legal, k), s0, s1, s2, s3


@njit
def random_pick(legal, s0, s1, s2, s3):
    """:func:`random_card` without a branch on the forced card: the draw is always computed and
    its state kept only when ``n >= 2`` (a forced card is frequent and unpredictable, a
    mispredicted branch costs more than the draw). The same cards, the same stream."""
    n = popcount(legal)
    k, t0, t1, t2, t3 = below_scalar(n, s0, s1, s2, s3)  # n == 1: k == 0, the lowest bit
    draw = n > 1
    return (kth_bit(legal, k), either(draw, t0, s0), either(draw, t1, s1), either(draw, t2, s2),
            either(draw, t3, s3))


