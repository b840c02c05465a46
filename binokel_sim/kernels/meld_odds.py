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

The contract is three named bundles (issue 51: ``collections.namedtuple``s, which numba types
by their fields and caches), each field documented here once:

``MeldOddsTable`` (:func:`meld_odds_table`: what a variant's compiled tables give the kernel for
one trump):

- ``table``: int64 (n_melds, N_COLS), the meld table (``Tables.meld_table``);
- ``rows``: int64 (patterns * width,), ``pattern_rows`` flat, a suit pattern's row at
  ``pattern * width`` (:mod:`binokel_sim.kernels.melds`, ``ROW_*``);
- ``width``: uint64, the columns of a row (``ROW_SUIT + 4`` per fixed state);
- ``held``: uint8 (patterns,), ``pattern_held``: the ranks a suit pattern holds;
- ``trump_need``: int64, the rank bits a suit must hold to be named trump (0: any suit);
- ``guard``: int64, the top bit of every fixed meld's count field (:func:`sets_min`);
- ``columns``: four uint64, suit ``s``'s count column with the table's trump, from a fixed
  state's first (2 as non-trump, 3 as trump);
- ``fixed_inside``: int64 (k, 1 + MAX_PARENTS), the fixed melds inside earlier fixed melds, then
  those parents (-1 = none);
- ``fixed_parents``, ``fixed_radix``: int64 (k,), the fixed melds a suit meld sits inside and
  their place values in the fixed state;
- ``window_points``: int64 (windows, 2**WINDOW_BITS), the fixed melds' points of a window's
  count fields;
- ``card_value``: uint64 (24,), what a card adds to a hand's four packed suit patterns;
- ``general``: bool, the variant has fixed melds inside fixed melds or more than one fixed state
  (the kernel then runs :func:`general_block`, else :func:`plain_block`).

``MeldHists`` (the run's output, one slot per block ``b``): ``count_hist`` int64 (n_blocks,
n_melds, 17), hands by each meld's count; ``total_hist`` int64 (n_blocks, max_total + 1), hands by
best meld total.

``HandHists`` (one block's histograms, made by the kernel): ``window_hist`` int64 (windows,
2**WINDOW_BITS), hands by a window's count fields; ``total_hist`` int64 (max_total + 1,), the
block's row of ``MeldHists.total_hist``.

The run (seed, streams, deals) is the shared :class:`~binokel_sim.kernels.runs.Run`.
"""

from collections import namedtuple

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

MeldOddsTable = namedtuple("MeldOddsTable", [
    "table", "rows", "width", "held", "trump_need", "guard", "columns", "fixed_inside",
    "fixed_parents", "fixed_radix", "window_points", "card_value", "general"])
MeldHists = namedtuple("MeldHists", ["count_hist", "total_hist"])
HandHists = namedtuple("HandHists", ["window_hist", "total_hist"])


def meld_odds_table(kt: tuple, trump_need: int, trump: int) -> MeldOddsTable:
    """The :data:`MeldOddsTable` of a variant's kernel tables ``kt`` (``Tables.kt``, the tuple
    :mod:`binokel_sim.kernels.melds` documents) and ``trump_need`` (``Tables.trump_need``), with
    ``trump`` (0..3) as trump for the count histograms. Plain Python: the kernel takes the
    bundle, one compiled type for every variant."""
    table, fixed_parents, fixed_radix = kt[0], kt[2], kt[3]
    card_value, pattern_rows, held, fixed_inside, window_points = kt[7], kt[8], kt[9], kt[10], kt[11]
    guard = 0
    for p in range(table.shape[0]):
        if table[p, COL_SCOPE] == SCOPE_FIXED:
            guard |= 1 << (COUNT_BITS * p + COUNT_BITS - 1)
    columns = tuple(np.uint64(2 + (1 if trump == s else 0)) for s in range(4))
    return MeldOddsTable(
        table=table, rows=np.ascontiguousarray(pattern_rows).reshape(-1),
        width=np.uint64(pattern_rows.shape[1]), held=held, trump_need=np.int64(trump_need),
        guard=np.int64(guard), columns=columns, fixed_inside=fixed_inside,
        fixed_parents=fixed_parents, fixed_radix=fixed_radix, window_points=window_points,
        card_value=card_value,
        general=bool(fixed_inside.shape[0] > 0 or fixed_parents.shape[0] > 0))


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
def score_into(hand, mt, width, out, general):
    """Score one hand (its packed suit patterns ``hand``) and histogram it into ``out``
    (:data:`HandHists`): the hand's window keys into ``out.window_hist``, its best total into
    ``out.total_hist``. ``mt`` is the :data:`MeldOddsTable`; ``width`` its rows' columns
    (``mt.width``, or a constant). ``general``: the variant has fixed melds inside fixed melds or
    suit tables per fixed state (three-hand-auction-48, four-hand-widow-48); the callers pass a
    constant, so the plain case compiles without that code and with ``width`` a constant."""
    rows, held, trump_need, guard = mt.rows, mt.held, mt.trump_need, mt.guard
    c0, c1, c2, c3 = mt.columns
    window_points, window_hist, th = mt.window_points, out.window_hist, out.total_hist
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
        counts = absorb(counts, mt.table, mt.fixed_inside)
        col += np.uint64(4 * fixed_state(counts, mt.table, mt.fixed_parents, mt.fixed_radix))
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
def deal_and_score(work, hand_size, n_hands, state, mt, width, out, general):
    """Deal and score ``n_hands`` hands of ``hand_size`` cards of a block's ``work`` deck
    (``state`` read and written back) into ``out`` (:func:`score_into`). Each hand is scored
    after the next one is dealt: the scoring's table lookups then overlap the next deal's draws
    (measured some 5% faster than dealing and scoring in turn)."""
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    if n_hands > 0:
        hand, s0, s1, s2, s3 = deal_sum(work, hand_size, s0, s1, s2, s3)
        for _ in range(n_hands - 1):
            following, s0, s1, s2, s3 = deal_sum(work, hand_size, s0, s1, s2, s3)
            score_into(hand, mt, width, out, general)
            hand = following
        score_into(hand, mt, width, out, general)
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3


@njit
def plain_block(work, hand_size, n_hands, state, mt, out):
    """:func:`deal_and_score` for a variant without melds inside fixed melds: one fixed state,
    rows of a constant ``ROW_SUIT + 4`` columns."""
    deal_and_score(work, hand_size, n_hands, state, mt, np.uint64(ROW_SUIT + 4), out, False)


@njit
def general_block(work, hand_size, n_hands, state, mt, out):
    """:func:`deal_and_score` for the variants with melds inside fixed melds."""
    deal_and_score(work, hand_size, n_hands, state, mt, mt.width, out, True)


@njit
def meld_odds_blocks(deck, hand_size, mt, run, out, share):
    """Deal ``run.n_items`` hands of ``hand_size`` from ``deck`` (int64 card types) and histogram
    their melds with the table ``mt`` (:data:`MeldOddsTable`, its trump ``mt.columns``'s).

    Block ``b`` (deals ``b * run.block_size`` on) reads stream ``(run.seed, run.first_block +
    b)`` (``run`` a :class:`~binokel_sim.kernels.runs.Run`; its ``first_deal`` is not read) and
    writes only its own slots of ``out`` (:data:`MeldHists`): ``out.count_hist[b, m, c]`` counts
    hands holding meld ``m`` exactly ``c`` times with the table's trump; ``out.total_hist[b, v]``
    counts hands whose best meld total is ``v``, best over the suits the hand may name (over all
    four suits when it may name none). Every hand is scored for all four trumps. ``share``: this
    call's blocks, ``share[0] <= b < share[1]`` (one thread's share,
    ``binokel_sim.simulate.spread_blocks``).
    """
    card_value, window_points = mt.card_value, mt.window_points
    block_size, n_deals = run.block_size, run.n_items
    for b in range(share[0], share[1]):
        state, types = block_start(deck, run.seed, run.first_block + b)
        work = np.empty(types.shape[0], dtype=np.uint64)
        for k in range(types.shape[0]):
            work[k] = card_value[types[k]]
        hists = HandHists(np.zeros((window_points.shape[0], 1 << WINDOW_BITS), dtype=np.int64),
                          out.total_hist[b])
        n_hands = min(n_deals, (b + 1) * block_size) - b * block_size
        if mt.general:
            general_block(work, hand_size, n_hands, state, mt, hists)
        else:
            plain_block(work, hand_size, n_hands, state, mt, hists)
        spread_windows(hists.window_hist, out.count_hist[b])
