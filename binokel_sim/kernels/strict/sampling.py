"""What the table knows in the strict phase 2 of the three- and four-player talon games, and the
sampling seat's view of it (issue 11). The decision itself
(:func:`~binokel_sim.kernels.strict.tricks.strict_sampling_card`) lives beside the strict trick
loop it plays out with.

Phase 1 of those games is free play (:mod:`binokel_sim.kernels.talon.sampling`), so when the
talon is gone the table knows of each seat only its public cards (the copies that served a
declaration, the turned card taken with the swap) and, for the seat that drew the talon's face-up
last card, that card (the talon family's
:func:`~binokel_sim.kernels.talon.sampling.knowledge_start` writes them). From then on every card
played is run through :func:`~binokel_sim.kernels.knowledge.excluded_by` (voids, no trump, the
must-head inference) and takes one known copy of its type off the seat's known cards. A decision
deals the cards the seat cannot see to the other seats by the exact constrained sampler
(:mod:`binokel_sim.kernels.sampler`): known cards placed, the rest uniform over the deals that
respect every seat's excluded types (docs/rules.md, "Sampling policy and inference"); with the
ablation's ``infer`` (:data:`~binokel_sim.kernels.knowledge.INFERENCE`) only where the deciding
seat infers. A family that knows more (the widow games: the shown widow, the demand, the buried
cards) keeps it in its part of the knowledge (``StrictKnowledge.family``), which only the stubs
of :mod:`binokel_sim.kernels.strict.family` read.
"""

from collections import namedtuple

import numpy as np

from binokel_sim.constants import RACE_DELTA, RACE_EVERY, RACE_Z2
from binokel_sim.kernels.bits import ALL_TYPES, N_TYPES, lowest_bit, popcount
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.play import copies_of
from binokel_sim.kernels.policies import POLICY_HEURISTIC
from binokel_sim.kernels.sampler import (
    BOUND_BURIED,
    BOUND_DEMAND,
    BOUND_HOLDER,
    BOUND_SOLOIST,
    N_BOUND,
)
from binokel_sim.kernels.strict.endgame import LEAF_TT_BITS, endgame_scratch
from binokel_sim.kernels.strict.family import part_learn, side_value

__all__ = [
    "Playout",
    "StrictKnowledge",
    "best_type",
    "learn",
    "race_drop",
    "race_note",
    "race_step",
    "race_zone",
    "side_value",
    "strict_knowledge",
    "strict_view",
]

Playout = namedtuple("Playout", ["points", "won", "heuristic", "stub3", "stub2", "endgame",
                                 "ours", "values"])
"""A sampling decision's play-out arrays (:func:`~binokel_sim.kernels.strict.tricks.strict_rollout`,
P seats): its ``points`` (P, 2) and tricks ``won`` (P,), the seats' policies ``heuristic`` (P,)
(the heuristic's), and ``stub3``, ``stub2`` the placeholders of the trick records
:func:`~binokel_sim.kernels.strict.tricks.play_strict` is given in a play-out; for exact
play-outs (``StrictKnowledge.exact``) the search's ``endgame`` scratch
(:class:`~binokel_sim.kernels.strict.endgame.EndgameScratch`, a stub when no seat solves),
``ours`` (P,) 1 for the deciding seat's side, and ``values`` (24,) a sample's exact value per
card type. int64 throughout."""

StrictKnowledge = namedtuple("StrictKnowledge", [
    "excluded", "known", "n_samples", "ways", "split", "pool", "allowed", "capacity", "bound",
    "base", "work", "totals", "state", "playout", "infer", "race", "value", "cross", "family",
    "exact"])
"""What the table knows in strict tricks, and the sampling decision's working arrays (small
stubs unless the sampling policy plays, :func:`strict_knowledge`). Per seat (P seats):

- ``excluded`` int64 (P,): the card types the seat can no longer hold;
- ``known`` int64 (P, 24): the copies per type everybody knows it holds;
- ``n_samples`` int64: the samples per decision;
- ``ways`` float64 (50, h + 1, h + 1, h + 1) for hands of ``h`` cards: the sampler's table
  (two layers, :func:`~binokel_sim.kernels.sampler.count_bounded`); ``split`` int64 (4, 24) a
  sample's split; ``pool`` (24,), ``allowed`` and ``capacity`` (4,): the sampler's groups
  (:func:`strict_view`); ``bound``: the sampler's bound, ``(lower int64 (24,), par int64
  (N_BOUND,))``, none until a family's part sets one;
- ``base`` and ``work`` int64 (P, 4): a sample's hands and a play-out's; ``totals`` int64 (24,)
  the totals per card type; ``state`` uint64 (4,) the stream as the sampler reads it;
- ``playout``: a play-out's arrays (:class:`Playout`);
- ``infer`` int64: what the deals respect (:data:`~binokel_sim.kernels.knowledge.INFERENCE`);
  ``race`` int64: 1 when the decision races its types (:func:`race_drop`: the talon games), with
  ``value`` (24,) one sample's values per type and ``cross`` (24, 24) the sums of products
  (:func:`race_note`);
- ``family``: the family's part (:mod:`binokel_sim.kernels.strict.family`; the widow games'
  knowledge, :class:`~binokel_sim.kernels.strict.family.NoPart` in the talon games), reached
  only through the family stubs;
- ``exact`` int64 (P,): per seat the tricks left that its play-outs solve exactly (0: the
  heuristic to the end; the driver sets it beside each seat's policy).
"""


@njit
def strict_knowledge(n_players, hand, n_samples, infer, active, race, family, exact):
    """The strict tricks' :class:`StrictKnowledge` (small stubs unless ``active``), with the
    family's part ``family``, ``infer`` what the deals respect, ``race`` whether the decision
    races its types and ``exact`` whether some seat's play-outs may solve their last tricks
    (the search's table is a stub otherwise; every seat's ``exact`` starts at 0)."""
    p = n_players if active else 1
    size = hand + 1 if active else 1
    par = np.zeros(N_BOUND, dtype=np.int64)  # no bound until a family's part sets one (the
    par[BOUND_SOLOIST] = -1                  # talon games: never): no groups, no slack, no
    par[BOUND_BURIED] = -1                   # demanded type
    par[BOUND_HOLDER] = -1
    par[BOUND_DEMAND] = -1
    return StrictKnowledge(
        np.zeros(p, dtype=np.int64), np.zeros((p, N_TYPES), dtype=np.int64), np.int64(n_samples),
        np.empty((2 * (N_TYPES + 1), size, size, size)), np.zeros((4, N_TYPES), dtype=np.int64),
        np.zeros(N_TYPES, dtype=np.int64), np.zeros(4, dtype=np.int64),
        np.zeros(4, dtype=np.int64), (np.zeros(N_TYPES, dtype=np.int64), par),
        np.zeros((p, 4), dtype=np.int64), np.zeros((p, 4), dtype=np.int64),
        np.zeros(N_TYPES, dtype=np.int64), np.zeros(4, dtype=np.uint64),
        Playout(np.zeros((p, 2), dtype=np.int64), np.zeros(p, dtype=np.int64),
                np.full(p, POLICY_HEURISTIC, dtype=np.int64), np.empty((0, 1, 1), dtype=np.int64),
                np.empty((0, 1), dtype=np.int64),
                endgame_scratch(LEAF_TT_BITS if active and exact else 0),
                np.zeros(p, dtype=np.int64), np.zeros(N_TYPES, dtype=np.int64)),
        np.int64(infer), np.int64(race), np.zeros(N_TYPES, dtype=np.int64),
        np.zeros((N_TYPES, N_TYPES), dtype=np.int64), family, np.zeros(p, dtype=np.int64))


@njit
def learn(knows, seat, c, excluded):
    """``seat`` played ``c``, which told the table ``excluded`` (:func:`excluded_by`; 0 for a
    lead): those types are out, and one known copy of ``c`` is gone (at least 0); and what the
    family's part keeps (:func:`~binokel_sim.kernels.strict.family.part_learn`)."""
    knows.excluded[seat] |= excluded
    if knows.known[seat, c] > 0:
        knows.known[seat, c] -= 1
    part_learn(knows.family, seat, c)


@njit
def strict_view(hands, seat, known, excluded, inferring, copies, g0, g1, g2, g3, pool, allowed,
                capacity):
    """What ``seat`` cannot see, for the sampler: ``pool[t]`` the copies of ``t`` neither in its
    hand, nor played (``g0..g3``), nor known to be in another seat's; per other seat (groups in
    seat order from the seat's left) the types it may hold (every type not ``excluded``, or
    every type when not ``inferring``: the ablation) and the cards of its hand not known.
    Returns the number of groups. Reads of the other hands only their sizes."""
    n_players = hands.shape[0]
    for t in range(N_TYPES):
        played = (((g0 >> t) & 1) + ((g1 >> t) & 1) + ((g2 >> t) & 1) + ((g3 >> t) & 1))
        pool[t] = copies - copies_of(hands, seat, t) - played
    for g in range(n_players - 1):
        s = seat + 1 + g
        if s >= n_players:
            s -= n_players
        allowed[g] = ALL_TYPES & ~excluded[s] if inferring else ALL_TYPES
        capacity[g] = (popcount(hands[s, 0]) + popcount(hands[s, 1]) + popcount(hands[s, 2])
                       + popcount(hands[s, 3]))
        for t in range(N_TYPES):
            pool[t] -= known[s, t]
            capacity[g] -= known[s, t]
    for t in range(N_TYPES):
        if pool[t] < 0:
            raise ValueError("sampling policy: the known cards do not add up")
    return n_players - 1


@njit
def best_type(legal, totals):
    """The card type of ``legal`` (mask, not empty) with the highest ``totals`` entry, the lowest
    type on a tie: the sampling decision, phase 1 and phase 2 alike."""
    best = np.int64(-1)
    todo = legal
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if best < 0 or totals[c] > totals[best]:
            best = c
    return best


@njit
def race_note(alive, value, cross):
    """Adds one sample's values (``value[t]`` for the types of ``alive``) to ``cross``, the sums of
    products per pair of types (``cross[a, b]``, ``a <= b``) that :func:`race_drop` reads."""
    todo = alive
    while todo:
        a = lowest_bit(todo)
        todo &= todo - 1
        va = value[a]
        cross[a, a] += va * va
        rest = todo
        while rest:
            b = lowest_bit(rest)
            rest &= rest - 1
            cross[a, b] += va * value[b]


@njit
def race_zone(pairs):
    """The race's indifference zone (:func:`race_drop`'s ``zone``, in :func:`side_value`'s units):
    :data:`~binokel_sim.constants.RACE_DELTA` for a seat playing for itself, half of it for a
    partnership's seat (``pairs``), whose side makes twice the decisions a deal."""
    return RACE_DELTA // 2 if pairs else RACE_DELTA


@njit
def race_drop(alive, totals, cross, n, zone):
    """The types of ``alive`` still in the race after ``n`` samples (``totals`` their sums,
    ``cross`` :func:`race_note`'s): the leader (:func:`best_type`) and every type whose mean
    difference to it, per sample on the same samples, is not ``z`` standard errors below
    ``zone`` (``z**2`` is :data:`~binokel_sim.constants.RACE_Z2`, ``zone`` :func:`race_zone`'s):
    a type far behind goes, and so does one that is at best a little better. In integers: with
    ``S`` and ``Q`` the sum and the sum of squares of the differences and ``M = zone * n - S``,
    a type is dropped when ``M > 0`` and
    ``z**2 * (n * Q - S**2) < (n - 1) * M**2`` (docs/rules.md, talon games, "Policies": the
    race)."""
    lead = best_type(alive, totals)
    keep = alive
    todo = alive
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if c == lead:
            continue
        s = totals[c] - totals[lead]
        q = cross[c, c] + cross[lead, lead] - 2 * (cross[c, lead] if c < lead else cross[lead, c])
        m = zone * n - s
        if m > 0 and RACE_Z2 * (n * q - s * s) < (n - 1) * m * m:
            keep &= ~(np.int64(1) << c)
    return keep


@njit
def race_step(alive, value, totals, cross, n, n_samples, zone):
    """The race after sample ``n`` of ``n_samples`` (``value`` its values, ``totals`` the sums so
    far): notes the sample (:func:`race_note`) and, at a look (``n`` a multiple of
    :data:`~binokel_sim.constants.RACE_EVERY` below ``n_samples``), returns the types still in
    it (:func:`race_drop` with ``zone``); otherwise ``alive``."""
    race_note(alive, value, cross)
    if n % RACE_EVERY == 0 and n < n_samples:
        return race_drop(alive, totals, cross, n, zone)
    return alive

