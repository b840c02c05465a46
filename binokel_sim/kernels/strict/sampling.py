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
seat infers.
"""

import numpy as np

from binokel_sim.constants import RACE_DELTA, RACE_EVERY, RACE_Z2
from binokel_sim.kernels.bits import ALL_TYPES, N_TYPES, lowest_bit, popcount
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.play import copies_of
from binokel_sim.kernels.policies import POLICY_HEURISTIC
from binokel_sim.kernels.strict.solver_policy import solver_scratch
from binokel_sim.kernels.strict.widow_knowledge import widow_learn, widow_part


@njit
def strict_knowledge(n_players, hand, n_samples, infer, active, widow, race):
    """The strict tricks' knowledge and the decision's working arrays (small stubs unless
    ``active``): per seat the excluded card types and the known copies per type; the samples per
    decision; the sampler's ``ways`` (float64 (50, h + 1, h + 1, h + 1) for hands of ``h``
    cards: two layers, :func:`~binokel_sim.kernels.sampler.count_bounded`) and split; the pool,
    allowed masks and capacities; a sample's hands and a play-out's; the totals per card type;
    the stream as the sampler reads it; a play-out's points, tricks won and policies (the
    heuristic's); the placeholders :func:`play_strict` is given; last, ``widow``: the widow
    games' knowledge (:func:`~binokel_sim.kernels.strict.widow_knowledge.widow_part`, a stub in the
    talon games); ``infer``, what the deals respect
    (:data:`~binokel_sim.kernels.knowledge.INFERENCE`); whether the decision races its types
    (``race``, :func:`race_drop`: the talon games) and the race's values per type and sums of
    products (:func:`race_note`)."""
    p = n_players if active else 1
    size = hand + 1 if active else 1
    return (np.zeros(p, dtype=np.int64), np.zeros((p, N_TYPES), dtype=np.int64),
            np.int64(n_samples), np.empty((2 * (N_TYPES + 1), size, size, size)),
            np.zeros((4, N_TYPES), dtype=np.int64), np.zeros(N_TYPES, dtype=np.int64),
            np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64),
            np.zeros((p, 4), dtype=np.int64), np.zeros((p, 4), dtype=np.int64),
            np.zeros(N_TYPES, dtype=np.int64), np.zeros(4, dtype=np.uint64),
            np.zeros((p, 2), dtype=np.int64), np.zeros(p, dtype=np.int64),
            np.full(p, POLICY_HEURISTIC, dtype=np.int64), np.empty((0, 1, 1), dtype=np.int64),
            np.empty((0, 1), dtype=np.int64), solver_scratch(False), widow, np.int64(infer),
            np.int64(race), np.zeros(N_TYPES, dtype=np.int64),
            np.zeros((N_TYPES, N_TYPES), dtype=np.int64))


@njit
def strict_knowledge_without_widow(n_players, hand, n_samples, infer, active):
    """:func:`strict_knowledge` for a game without a widow (the talon games): the widow part is
    :func:`~binokel_sim.kernels.strict.widow_knowledge.widow_part`'s stub, built here so that no
    family but the widow's knows the widow's knowledge. The talon games' decisions race their
    types (:func:`race_drop`), as phase 1's do."""
    return strict_knowledge(n_players, hand, n_samples, infer, active,
                            widow_part(1, False, np.zeros((1, 1), dtype=np.int64),
                                       np.zeros(1, dtype=np.int64)), True)


@njit(inline="always")
def learn(knows, seat, c, excluded):
    """``seat`` played ``c``, which told the table ``excluded`` (:func:`excluded_by`; 0 for a
    lead): those types are out, and one known copy of ``c`` is gone (at least 0); in a widow
    game also what :func:`~binokel_sim.kernels.strict.widow_knowledge.widow_learn` keeps."""
    knows[0][seat] |= excluded
    if knows[1][seat, c] > 0:
        knows[1][seat, c] -= 1
    widow_learn(knows[18], seat, c)


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
def side_value(points, seat, pairs):
    """What a sampling seat maximises: its side's points (card and meld, ``points`` (P, 2)) less
    the mean of the other sides', times the number of other sides (an integer). The sides are
    the seats, or with ``pairs`` the partnerships (seat parity); with two sides, own less
    other's."""
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


@njit(inline="always")
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


@njit(inline="always")
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


@njit(inline="always")
def race_zone(pairs):
    """The race's indifference zone (:func:`race_drop`'s ``zone``, in :func:`side_value`'s units):
    :data:`~binokel_sim.constants.RACE_DELTA` for a seat playing for itself, half of it for a
    partnership's seat (``pairs``), whose side makes twice the decisions a deal."""
    return RACE_DELTA // 2 if pairs else RACE_DELTA


@njit(inline="always")
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


@njit(inline="always")
def race_step(alive, value, totals, cross, n, n_samples, zone):
    """The race after sample ``n`` of ``n_samples`` (``value`` its values, ``totals`` the sums so
    far): notes the sample (:func:`race_note`) and, at a look (``n`` a multiple of
    :data:`~binokel_sim.constants.RACE_EVERY` below ``n_samples``), returns the types still in
    it (:func:`race_drop` with ``zone``); otherwise ``alive``."""
    race_note(alive, value, cross)
    if n % RACE_EVERY == 0 and n < n_samples:
        return race_drop(alive, totals, cross, n, zone)
    return alive

