"""A strict-trick family's own part of the strict tricks, reached by its type (issue 51: strict/
imports no family).

The strict trick loop (:func:`~binokel_sim.kernels.strict.tricks.play_strict`) and the sampling
policy's card (:func:`~binokel_sim.kernels.strict.tricks.strict_sampling_card`) are shared by every
family whose tricks are strict (the talon games' phase 2, every widow trick). What differs by
family is asked through the stubs below, whose implementations numba chooses by the type of the
``part`` argument (``numba.extending.overload``): a family gives its part as a named tuple type
of its own and registers an overload of each stub for that type in its own kernel package
(the widow games: :mod:`binokel_sim.kernels.widow.knowledge`). A family without a part (the
talon games) passes :class:`NoPart`, whose overloads here are trivial, so numba compiles no other
family's code into its kernels. A new strict-trick family adds its own part and overloads and
touches no other family's files.

Two parts travel: the **side** part in the trick loop's table
(:class:`~binokel_sim.kernels.strict.tricks.StrictTable` ``side``: who plays with whom beyond
fixed partnerships, :func:`part_partner`), and the **knowledge** part in the sampling policy's
knowledge (:class:`~binokel_sim.kernels.strict.sampling.StrictKnowledge` ``family``: what the
table knows beyond the cards played, and what a play-out is worth).

The stubs, each with its :class:`NoPart` behaviour:

- :func:`part_partner` ``(side, tune, at, seat, win_seat)``: whether ``seat`` treats ``win_seat``
  as its partner (knobs ``tune`` from ``at`` on; None: the heuristic proper). No part: never.
- :func:`part_learn` ``(part, seat, c)``: ``seat`` played ``c``. No part: nothing.
- :func:`part_view` ``(part, known, seat)``: ``seat``'s view of the known copies (P, 24). No
  part: ``known``.
- :func:`part_declarer` ``(part)``: the seat the inference ablation treats as the declarer
  (:func:`~binokel_sim.kernels.knowledge.infers`). No part: -1.
- :func:`part_groups` ``(part, seat, view, pool, allowed, capacity, bound, n_groups)``: the
  family's additions to the sampler's groups after
  :func:`~binokel_sim.kernels.strict.sampling.strict_view` wrote ``n_groups`` of them (the
  sampler's ``bound`` set where the family has one); returns the number of groups. No part:
  ``n_groups``.
- :func:`part_sample` ``(part, seat, split, n_groups, card_points)``: what the family keeps of
  one sample (an int64 handed to :func:`part_value`). No part: 0.
- :func:`part_value` ``(part, points, won, seat, kept, pairs)``: what a sampling seat maximises
  after a play-out (``points`` (P, k) column 0 and beyond, ``won`` (P,) from the trick on).
  No part: :func:`side_value`.
"""

from collections import namedtuple

import numpy as np
from numba import types
from numba.extending import overload

from binokel_sim.kernels.options import njit

NoPart = namedtuple("NoPart", [])
"""The part of a family that has none (the talon games): every stub is trivial for it."""


def is_part(part, cls) -> bool:
    """Whether the numba type ``part`` is the named tuple class ``cls`` (an overload's test)."""
    return isinstance(part, types.BaseNamedTuple) and part.instance_class is cls


def part_partner(side, tune, at, seat, win_seat):
    """Whether ``seat`` treats ``win_seat`` as its partner (see the module docstring)."""
    raise NotImplementedError("a kernel stub: called from compiled code only")


def part_learn(part, seat, c):
    """``seat`` played ``c`` (see the module docstring)."""
    raise NotImplementedError("a kernel stub: called from compiled code only")


def part_view(part, known, seat):
    """``seat``'s view of the known copies (see the module docstring)."""
    raise NotImplementedError("a kernel stub: called from compiled code only")


def part_declarer(part):
    """The declarer the inference ablation names (see the module docstring)."""
    raise NotImplementedError("a kernel stub: called from compiled code only")


def part_groups(part, seat, view, pool, allowed, capacity, bound, n_groups):
    """The family's sampler groups (see the module docstring)."""
    raise NotImplementedError("a kernel stub: called from compiled code only")


def part_sample(part, seat, split, n_groups, card_points):
    """What the family keeps of a sample (see the module docstring)."""
    raise NotImplementedError("a kernel stub: called from compiled code only")


def part_value(part, points, won, seat, kept, pairs):
    """A play-out's value to the sampling seat (see the module docstring)."""
    raise NotImplementedError("a kernel stub: called from compiled code only")


@njit
def side_value(points, seat, pairs):
    """What a sampling seat maximises without a family part (the talon games): its side's points
    (card and meld, ``points`` (P, 2)) less the mean of the other sides', times the number of
    other sides (an integer). The sides are the seats, or with ``pairs`` the partnerships (seat
    parity); with two sides, own less other's."""
    n_players = points.shape[0]
    n_sides = 2 if pairs else n_players
    own = np.int64(0)
    rest = np.int64(0)
    for s in range(n_players):
        mine = ((s ^ seat) & 1) == 0 if pairs else s == seat
        if mine:
            own += points[s, 0] + points[s, 1]
        else:
            rest += points[s, 0] + points[s, 1]
    return (n_sides - 1) * own - rest


# --- no part: the trivial overloads ---------------------------------------------------------------
#
# Overloads here and in the families are compiled as functions of their own (LLVM inlines the
# small ones), never with ``inline="always"``: numba's inlining of an overload after typing
# dropped a later branch of the trick loop (its trick records went unwritten).

@overload(part_partner)
def _partner_none(side, tune, at, seat, win_seat):
    if is_part(side, NoPart):
        return lambda side, tune, at, seat, win_seat: False


@overload(part_learn)
def _learn_none(part, seat, c):
    if is_part(part, NoPart):
        return lambda part, seat, c: None


@overload(part_view)
def _view_none(part, known, seat):
    if is_part(part, NoPart):
        return lambda part, known, seat: known


@overload(part_declarer)
def _declarer_none(part):
    if is_part(part, NoPart):
        return lambda part: np.int64(-1)


@overload(part_groups)
def _groups_none(part, seat, view, pool, allowed, capacity, bound, n_groups):
    if is_part(part, NoPart):
        return lambda part, seat, view, pool, allowed, capacity, bound, n_groups: n_groups


@overload(part_sample)
def _sample_none(part, seat, split, n_groups, card_points):
    if is_part(part, NoPart):
        return lambda part, seat, split, n_groups, card_points: np.int64(0)


@overload(part_value)
def _value_none(part, points, won, seat, kept, pairs):
    if is_part(part, NoPart):
        return lambda part, points, won, seat, kept, pairs: side_value(points, seat, pairs)
