"""Meld counting on bit planes, driven by a variant's meld table (:mod:`binokel_sim.tables`).

A suit meld's count in suit ``s`` depends only on the cards of ``s``, on the fixed melds and on
whether ``s`` is trump (its parents are fixed melds or melds of the same suit; the loader checks
this). So one pass scores every suit meld twice per suit, as trump (case 1) and as non-trump
(case 0), and the totals for all four trumps follow by addition. Contract: SPEC.md, meld tables
and "Counting".
"""

import numpy as np

from binokel_sim.kernels.options import njit

# Mirrors binokel_sim.tables (numba reads module constants as compile-time constants).
SCOPE_FIXED, SCOPE_TRUMP, SCOPE_NON_TRUMP, SCOPE_PER_SUIT = 0, 1, 2, 3
COL_SCOPE, COL_MASK, COL_COUNTED, COL_POINTS = 0, 1, 2, 3
MAX_COPIES = 4
COL_PARENTS = COL_POINTS + MAX_COPIES + 1
MAX_PARENTS = 4


@njit
def multiplicity(p0, p1, p2, p3, mask):
    """Complete sets of the card types in ``mask``. Planes are nested, so this is the number of
    planes holding the whole mask; four compares, no branches."""
    return (np.int64((np.int64(p0) & mask) == mask) + np.int64((np.int64(p1) & mask) == mask)
            + np.int64((np.int64(p2) & mask) == mask) + np.int64((np.int64(p3) & mask) == mask))


@njit
def meld_scores(p0, p1, p2, p3, table, counts, points, totals):
    """Score one hand (planes ``p0..p3``) against the meld table for every trump.

    Writes ``counts`` and ``points`` (int64 (n_melds, 4, 2)): for a suit meld, ``[m, s, 1]`` is
    its count (points) in suit ``s`` when ``s`` is trump and ``[m, s, 0]`` when it is not; a fixed
    meld writes its count to ``[m, 0, 0]`` and ``[m, 0, 1]``, zeros elsewhere. Writes ``totals``
    (int64 (4,)): the meld total with each suit as trump. Use :func:`count_for_trump` to read one
    meld's count under one trump.
    """
    for t in range(4):
        totals[t] = 0
    for m in range(table.shape[0]):
        scope = table[m, COL_SCOPE]
        mask = table[m, COL_MASK]
        if scope == SCOPE_FIXED:
            c = multiplicity(p0, p1, p2, p3, mask)
            v = table[m, COL_POINTS + c]
            counts[m, :, :] = 0
            points[m, :, :] = 0
            counts[m, 0, 0] = c
            counts[m, 0, 1] = c
            points[m, 0, 0] = v
            points[m, 0, 1] = v
            for t in range(4):
                totals[t] += v
            continue
        for s in range(4):
            raw = multiplicity(p0, p1, p2, p3, mask << (6 * s))
            for case in range(2):
                if scope == SCOPE_TRUMP and case == 0 or scope == SCOPE_NON_TRUMP and case == 1:
                    counts[m, s, case] = 0
                    points[m, s, case] = 0
                    continue
                c = raw
                for j in range(MAX_PARENTS):
                    parent = table[m, COL_PARENTS + j]
                    if parent < 0:
                        break
                    if table[parent, COL_SCOPE] == SCOPE_FIXED:
                        held = counts[parent, 0, 0]
                    else:
                        held = counts[parent, s, case]
                    c -= min(held, table[parent, COL_COUNTED])
                if c < 0:
                    c = 0
                v = table[m, COL_POINTS + c]
                counts[m, s, case] = c
                points[m, s, case] = v
                if case == 1:
                    totals[s] += v
                else:
                    for t in range(4):
                        if t != s:
                            totals[t] += v


@njit
def count_for_trump(values, m, trump):
    """One meld's count (or points) with ``trump`` as trump, from ``meld_scores``' arrays."""
    total = 0
    for s in range(4):
        total += values[m, s, 1 if s == trump else 0]
    return total


@njit
def may_name(p0, suit, trump_need):
    """Whether the hand holds every rank of ``trump_need`` (bits in suit 0) in ``suit``."""
    need = trump_need << (6 * suit)
    return (np.int64(p0) & need) == need


@njit
def meld_hand(planes, trump, table, counts_out, points_out):
    """Counts and points of every meld (int64 (n_melds,) each) of one hand (uint32[4] planes)
    with ``trump`` as trump; returns the total. Allocates: not for hot loops."""
    n = table.shape[0]
    counts = np.empty((n, 4, 2), dtype=np.int64)
    points = np.empty((n, 4, 2), dtype=np.int64)
    totals = np.empty(4, dtype=np.int64)
    meld_scores(planes[0], planes[1], planes[2], planes[3], table, counts, points, totals)
    for m in range(n):
        counts_out[m] = count_for_trump(counts, m, trump)
        points_out[m] = count_for_trump(points, m, trump)
    return totals[trump]
