"""Batch driver for meld tables: deal one hand, count every meld, histogram the results.

The hot loop never builds bit planes. A block's deck holds, per card, what the card adds to a
hand's four suit patterns (``card_value``: 16 bits a suit), so dealing a hand is one addition a
card (:func:`~binokel_sim.kernels.deal.deal_sum`, the same draws as ``deal_planes``), and scoring
it reads one ``pattern_rows`` row per suit (:mod:`binokel_sim.kernels.melds`): the fixed melds'
multiplicities are a field-wise minimum of the four rows' per-suit sets (three SWAR steps), every
trump's total is a sum of the rows' suit points, and the suit melds' counts with the fixed trump
are a sum of the rows' packed counts. Every meld's count then sits in one int64, and the hand is
histogrammed two melds at a time (a window of two count fields) into a block-local histogram,
which is spread into the per-meld histograms once at the end of the block; the same windows give
the fixed melds' points. The random stream stays in registers for the whole block, and each hand
is scored after the next one is dealt, so its table lookups overlap the next deal's draws.
"""

import numpy as np

from binokel_sim.kernels.deal import ONE, U16, U32, U48, block_start, deal_sum
from binokel_sim.kernels.melds import (
    COL_COUNTED,
    COL_SCOPE,
    COUNT_BITS,
    COUNT_FIELD,
    MAX_PARENTS,
    ROW_FIXED,
    ROW_SUIT,
    SCOPE_FIXED,
    WINDOW_BITS,
    WINDOW_MELDS,
    sets_min,
)
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.random import MASK16

_WINDOW = np.uint64((1 << WINDOW_BITS) - 1)
_NONE = -(1 << 40)  # below any difference of two suit totals: "this suit may not be named"


@njit(inline="always")
def absorb(counts, table, fixed_inside):
    """Fixed melds inside earlier fixed melds: a meld counts 0 when a parent counts as many sets
    (reported count capped at the sets it counts), in table order (``score_hand``'s rule).
    Returns ``counts`` (packed) with those fields cleared."""
    for k in range(fixed_inside.shape[0]):
        m = fixed_inside[k, 0]
        absorbed = 0
        for j in range(1, MAX_PARENTS + 1):
            p = fixed_inside[k, j]
            if p < 0:
                break
            absorbed = max(absorbed, min((counts >> (COUNT_BITS * p)) & COUNT_FIELD,
                                         table[p, COL_COUNTED]))
        if (counts >> (COUNT_BITS * m)) & COUNT_FIELD <= absorbed:
            counts &= ~(COUNT_FIELD << (COUNT_BITS * m))
    return counts


@njit(inline="always")
def fixed_state(counts, table, fixed_parents, fixed_radix):
    """The suit tables' fixed state (``score_hand``'s): each fixed parent's reported sets,
    capped at the sets it counts, at its place value."""
    state = 0
    for j in range(fixed_parents.shape[0]):
        p = fixed_parents[j]
        sets = min((counts >> (COUNT_BITS * p)) & COUNT_FIELD, table[p, COL_COUNTED])
        state += sets * fixed_radix[j]
    return state


@njit(inline="always")
def spread_windows(window_hist, ch):
    """Add a block's window histogram (hands by the count fields of melds ``WINDOW_MELDS w ..``)
    to its per-meld histogram ``ch`` (n_melds, counts)."""
    n_melds = ch.shape[0]
    for w in range(window_hist.shape[0]):
        for key in range(window_hist.shape[1]):
            n = window_hist[w, key]
            if n == 0:
                continue
            for i in range(WINDOW_MELDS):
                m = WINDOW_MELDS * w + i
                if m < n_melds:
                    ch[m, (key >> (COUNT_BITS * i)) & COUNT_FIELD] += n


@njit(inline="always")
def score_into(hand, rows, width, held, trump_need, guard, c0, c1, c2, c3, window_points,
               window_hist, th, table, fixed_inside, fixed_parents, fixed_radix, general):
    """Score one hand (its packed suit patterns ``hand``) and histogram it: the hand's window
    keys into ``window_hist``, its best total into ``th``. ``rows`` is ``pattern_rows`` flat,
    ``width`` columns a row; ``c0..c3`` are the suits' count columns with the fixed trump.
    ``general``: the variant has fixed melds inside fixed melds or suit tables per fixed state
    (three-hand-auction-48, four-hand-widow-48); the callers pass a constant, so the plain case
    compiles without that code and with ``width`` a constant."""
    i0 = hand & MASK16
    i1 = (hand >> U16) & MASK16
    i2 = (hand >> U32) & MASK16
    i3 = hand >> U48
    r0 = i0 * width
    r1 = i1 * width
    r2 = i2 * width
    r3 = i3 * width
    counts = sets_min(sets_min(rows[r0 + ROW_FIXED], rows[r1 + ROW_FIXED + 1], guard),
                      sets_min(rows[r2 + ROW_FIXED + 2], rows[r3 + ROW_FIXED + 3], guard), guard)
    col = np.uint64(ROW_SUIT)
    if general:
        counts = absorb(counts, table, fixed_inside)
        col += np.uint64(4 * fixed_state(counts, table, fixed_parents, fixed_radix))
    r0 += col
    r1 += col
    r2 += col
    r3 += col
    # every trump's total: all four suits as non-trump, one of them swapped for trump
    n0 = rows[r0]
    n1 = rows[r1]
    n2 = rows[r2]
    n3 = rows[r3]
    d0 = rows[r0 + ONE]
    d1 = rows[r1 + ONE]
    d2 = rows[r2 + ONE]
    d3 = rows[r3 + ONE]
    any_suit = max(max(d0, d1), max(d2, d3))
    named = max(max(d0 if (held[i0] & trump_need) == trump_need else _NONE,
                    d1 if (held[i1] & trump_need) == trump_need else _NONE),
                max(d2 if (held[i2] & trump_need) == trump_need else _NONE,
                    d3 if (held[i3] & trump_need) == trump_need else _NONE))
    best = named if named > _NONE else any_suit
    counts += rows[r0 + c0] + rows[r1 + c1] + rows[r2 + c2] + rows[r3 + c3]
    fixed_points = 0
    key_bits = np.uint64(counts)
    for w in range(window_points.shape[0]):
        key = key_bits & _WINDOW
        fixed_points += window_points[w, key]
        window_hist[w, key] += 1
        key_bits >>= np.uint64(WINDOW_BITS)
    th[np.uint64(fixed_points + n0 + n1 + n2 + n3 + best)] += 1


@njit(inline="always")
def deal_and_score(work, hand_size, n_hands, state, rows, width, held, trump_need, guard, c0, c1,
                   c2, c3, window_points, window_hist, th, table, fixed_inside, fixed_parents,
                   fixed_radix, general):
    """Deal and score ``n_hands`` hands of a block (``state`` read and written back). Each hand
    is scored after the next one is dealt: the scoring's table lookups then overlap the next
    deal's draws (measured some 5% faster than dealing and scoring in turn)."""
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    if n_hands > 0:
        hand, s0, s1, s2, s3 = deal_sum(work, hand_size, s0, s1, s2, s3)
        for _ in range(n_hands - 1):
            following, s0, s1, s2, s3 = deal_sum(work, hand_size, s0, s1, s2, s3)
            score_into(hand, rows, width, held, trump_need, guard, c0, c1, c2, c3,
                       window_points, window_hist, th, table, fixed_inside, fixed_parents,
                       fixed_radix, general)
            hand = following
        score_into(hand, rows, width, held, trump_need, guard, c0, c1, c2, c3, window_points,
                   window_hist, th, table, fixed_inside, fixed_parents, fixed_radix, general)
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3


@njit
def plain_block(work, hand_size, n_hands, state, rows, held, trump_need, guard, c0, c1, c2, c3,
                window_points, window_hist, th, table, fixed_inside, fixed_parents,
                fixed_radix):
    """:func:`deal_and_score` for a variant without melds inside fixed melds: one fixed state,
    rows of a constant ``ROW_SUIT + 4`` columns."""
    deal_and_score(work, hand_size, n_hands, state, rows, np.uint64(ROW_SUIT + 4), held,
                   trump_need, guard, c0, c1, c2, c3, window_points, window_hist, th, table,
                   fixed_inside, fixed_parents, fixed_radix, False)


@njit
def general_block(work, hand_size, n_hands, state, rows, width, held, trump_need, guard, c0, c1,
                  c2, c3, window_points, window_hist, th, table, fixed_inside, fixed_parents,
                  fixed_radix):
    """:func:`deal_and_score` for the variants with melds inside fixed melds."""
    deal_and_score(work, hand_size, n_hands, state, rows, width, held, trump_need, guard, c0, c1,
                   c2, c3, window_points, window_hist, th, table, fixed_inside, fixed_parents,
                   fixed_radix, True)


@njit
def meld_odds_blocks(deck, hand_size, kt, trump_need, fixed_trump, seed, first_block,
                     block_size, n_deals, count_hist, total_hist, share):
    """Deal ``n_deals`` hands of ``hand_size`` from ``deck`` and histogram their melds.

    Block ``b`` (deals ``b*block_size`` on) reads stream ``first_block + b`` and writes only its own
    slots: ``count_hist[b, m, c]`` (int64 (n_blocks, n_melds, 17)) counts hands holding meld ``m``
    exactly ``c`` times with ``fixed_trump`` as trump; ``total_hist[b, v]`` (int64 (n_blocks,
    max_total + 1)) counts hands whose best meld total is ``v``, best over the suits the hand may
    name (over all four suits when it may name none). Every hand is scored for all four trumps.
    ``share``: this call's blocks, ``share[0] <= b < share[1]`` (one thread's share,
    ``binokel_sim.simulate.spread_blocks``).
    """
    table, fixed_parents, fixed_radix = kt[0], kt[2], kt[3]
    card_value, held, fixed_inside, window_points = kt[7], kt[9], kt[10], kt[11]
    rows = kt[8].reshape(-1)
    width = np.uint64(kt[8].shape[1])
    general = fixed_inside.shape[0] > 0 or fixed_parents.shape[0] > 0
    guard = np.int64(0)  # the top bit of every fixed meld's count field (sets_min)
    for p in range(table.shape[0]):
        if table[p, COL_SCOPE] == SCOPE_FIXED:
            guard |= 1 << (COUNT_BITS * p + COUNT_BITS - 1)
    # the count columns of the four suits with fixed_trump as trump, from a state's first
    c0 = np.uint64(2 + (1 if fixed_trump == 0 else 0))
    c1 = np.uint64(2 + (1 if fixed_trump == 1 else 0))
    c2 = np.uint64(2 + (1 if fixed_trump == 2 else 0))
    c3 = np.uint64(2 + (1 if fixed_trump == 3 else 0))
    for b in range(share[0], share[1]):
        state, types = block_start(deck, seed, first_block + b)
        work = np.empty(types.shape[0], dtype=np.uint64)
        for k in range(types.shape[0]):
            work[k] = card_value[types[k]]
        window_hist = np.zeros((window_points.shape[0], 1 << WINDOW_BITS), dtype=np.int64)
        n_hands = min(n_deals, (b + 1) * block_size) - b * block_size
        if general:
            general_block(work, hand_size, n_hands, state, rows, width, held, trump_need, guard,
                          c0, c1, c2, c3, window_points, window_hist, total_hist[b], table,
                          fixed_inside, fixed_parents, fixed_radix)
        else:
            plain_block(work, hand_size, n_hands, state, rows, held, trump_need, guard, c0, c1,
                        c2, c3, window_points, window_hist, total_hist[b], table, fixed_inside,
                        fixed_parents, fixed_radix)
        spread_windows(window_hist, count_hist[b])
