"""Meld counting on bit planes, driven by a variant's compiled tables (:mod:`binokel_sim.tables`).

A suit meld's count in suit ``s`` depends only on the counts of the six ranks in ``s``, on whether
``s`` is trump, and on the sets counted by the fixed melds it may sit inside (the loader checks
this). So :func:`build_suit_tables` evaluates every suit meld once for every possible suit
*pattern* (the six rank counts) when the tables are compiled, and a hand is scored by looking up
its four suit patterns: the pattern index of a suit is the sum of four 64-entry lookups, one per
bit plane. Fixed melds (around, cards) are counted directly on the planes, in table order: an
around meld inside earlier around melds counts 0 when its multiplicity is at most the largest
number of sets a parent counts (kings around inside a roundhouse), else its multiplicity. A suit
meld inside others loses, in each suit, the largest number of sets one of them counts (a K+Q
inside both a quint and a roundhouse is absorbed once). Contract: SPEC.md, meld tables and
"Counting"; docs/rules.md, "Melds inside melds".

The tables travel as one tuple ``kt = (meld_table, pattern_value, fixed_parents, fixed_radix,
suit_points, suit_counts, suit_meld_points, card_value, pattern_rows, pattern_held, fixed_inside,
window_points)``; see :class:`binokel_sim.tables.Tables`. ``suit_counts`` packs the count of every
meld into one int64, ``COUNT_BITS`` bits a meld: the counts of the four suits then add up field by
field in one addition (a field never exceeds 16).

The last five serve the meld-odds kernel (:mod:`binokel_sim.kernels.meld_odds`), which never
builds bit planes: a hand there is the sum of its cards' ``card_value``, which holds the four suit
patterns as 16-bit fields (a suit's pattern index counted over the ranks the deck has, so the
80-card deck without nines has 5**5 patterns, not 5**6), and a pattern's ``pattern_rows`` row holds
all a suit adds: per suit position the sets every fixed meld finds inside that suit, in the meld's
count field (the fixed melds' multiplicities are then a field-wise minimum over the four suits,
:func:`sets_min`), and per fixed state the suit melds' points as non-trump suit, their gain as
trump suit and their packed counts as non-trump and as trump suit. ``pattern_held`` has a
pattern's ranks (for the trump condition), ``fixed_inside`` the fixed melds inside earlier fixed
melds, and ``window_points`` the fixed melds' points read off the packed counts two melds (one
histogram window) at a time.
"""

import numpy as np

from binokel_sim.kernels.bits import MAX_COPIES, N_RANKS
from binokel_sim.kernels.options import njit

# Mirrors binokel_sim.tables (numba reads module constants as compile-time constants).
SCOPE_FIXED, SCOPE_TRUMP, SCOPE_NON_TRUMP, SCOPE_PER_SUIT = 0, 1, 2, 3
COL_SCOPE, COL_MASK, COL_COUNTED, COL_POINTS = 0, 1, 2, 3
COL_PARENTS = COL_POINTS + MAX_COPIES + 1
MAX_PARENTS = 4
COUNT_BITS = 5
COUNT_FIELD = (1 << COUNT_BITS) - 1
# pattern_rows (the meld-odds kernel): columns of a row
ROW_FIXED = 0  # 4 columns: the fixed melds' sets inside suit s (the pattern sitting in s = 0..3)
ROW_SUIT = 4  # per fixed state f, 4 columns from ROW_SUIT + 4 f: the suit melds' points as
#              non-trump suit, what they gain as trump suit, their counts packed as non-trump and
#              as trump
WINDOW_MELDS = 2  # the meld-odds histogram counts the count fields of two melds at a time
WINDOW_BITS = WINDOW_MELDS * COUNT_BITS


@njit(inline="always")
def multiplicity(p0, p1, p2, p3, mask):
    """Complete sets of the card types in ``mask``. Planes are nested, so this is the number of
    planes holding the whole mask; four compares, no branches."""
    return (np.int64((np.int64(p0) & mask) == mask) + np.int64((np.int64(p1) & mask) == mask)
            + np.int64((np.int64(p2) & mask) == mask) + np.int64((np.int64(p3) & mask) == mask))


@njit
def build_suit_tables(table, base, fixed_parents, fixed_radix, suit_points, suit_counts,
                      suit_meld_points):
    """Score the suit melds of every suit pattern, as trump and as non-trump suit.

    Pattern ``i`` holds ``(i // base**r) % base`` copies of rank ``r``; fixed state ``f`` gives
    each fixed parent ``fixed_parents[j]`` the counted sets ``(f // fixed_radix[j]) % (counted + 1)``
    (its reported count capped at ``counted``). A suit meld loses the largest of its parents'
    counted sets, never going below 0.
    Writes ``suit_points[i, case, f]`` (int64): the suit melds' points in that suit (case 1 =
    trump), ``suit_counts[i, case, f]`` (int64): every meld's count packed ``COUNT_BITS`` bits a
    meld (meld ``m`` at bit ``COUNT_BITS * m``), and ``suit_meld_points[i, case, f, m]`` (int64):
    points per meld (zero for fixed melds).
    """
    n_melds = table.shape[0]
    n_patterns, _, n_states = suit_points.shape
    rank_count = np.empty(N_RANKS, dtype=np.int64)
    kept = np.zeros(n_melds, dtype=np.int64)
    for i in range(n_patterns):
        for r in range(N_RANKS):
            rank_count[r] = (i // base ** r) % base
        for f in range(n_states):
            for j in range(fixed_parents.shape[0]):
                p = fixed_parents[j]
                kept[p] = (f // fixed_radix[j]) % (table[p, COL_COUNTED] + 1)
            for case in range(2):
                total = 0
                packed = 0
                for m in range(n_melds):
                    scope = table[m, COL_SCOPE]
                    suit_meld_points[i, case, f, m] = 0
                    if scope == SCOPE_FIXED:
                        continue
                    if scope == SCOPE_TRUMP and case == 0 or scope == SCOPE_NON_TRUMP and case == 1:
                        kept[m] = 0
                        continue
                    c = MAX_COPIES
                    for r in range(N_RANKS):
                        if table[m, COL_MASK] >> r & 1:
                            c = min(c, rank_count[r])
                    absorbed = 0  # the largest number of sets a parent counts
                    for j in range(MAX_PARENTS):
                        p = table[m, COL_PARENTS + j]
                        if p < 0:
                            break
                        absorbed = max(absorbed, kept[p])
                    c = max(c - absorbed, 0)
                    # the count reported: the sets that score, at most the sets the table counts
                    # (two quints of one suit are one quint: docs/rules.md, "Meld scopes")
                    packed += min(c, table[m, COL_COUNTED]) << (COUNT_BITS * m)
                    suit_meld_points[i, case, f, m] = table[m, COL_POINTS + c]
                    total += table[m, COL_POINTS + c]
                    kept[m] = min(c, table[m, COL_COUNTED])
                suit_points[i, case, f] = total
                suit_counts[i, case, f] = packed


@njit
def build_pattern_rows(table, base, ranks, suit_points, suit_counts, rows, held, card_value):
    """The meld-odds kernel's tables from the suit tables (:func:`build_suit_tables`).

    ``ranks``: the deck's ranks (int64, ascending); a suit's dense pattern ``d`` holds
    ``(d // base**i) % base`` copies of rank ``ranks[i]``. Writes ``rows`` (int64 (n_dense,
    ROW_SUIT + 4 * states)): for suit position ``s``, column ``ROW_FIXED + s`` holds each fixed
    meld's sets inside that suit in the meld's count field (``MAX_COPIES`` when the meld has no
    card there: no limit on the minimum over suits); from ``ROW_SUIT`` the suit columns (module
    docstring). Writes ``held`` (uint8 (n_dense,)): the ranks present (the suit's block of plane
    0), and ``card_value`` (uint64 (24,)): a card of rank ``ranks[i]`` in suit ``s`` adds
    ``base**i`` to the 16-bit field ``s``; 0 for ranks the deck lacks.
    """
    n_states = suit_points.shape[2]
    count = np.zeros(N_RANKS, dtype=np.int64)
    for d in range(rows.shape[0]):
        old = 0
        ranks_held = 0
        x = d
        for i in range(ranks.shape[0]):
            c = x % base
            x //= base
            count[ranks[i]] = c
            old += c * base ** ranks[i]
            if c > 0:
                ranks_held |= 1 << ranks[i]
        held[d] = ranks_held
        for s in range(4):
            f = 0
            for m in range(table.shape[0]):
                if table[m, COL_SCOPE] != SCOPE_FIXED:
                    continue
                block = (table[m, COL_MASK] >> (N_RANKS * s)) & 63
                sets = MAX_COPIES
                for r in range(N_RANKS):
                    if block >> r & 1:
                        sets = min(sets, count[r])
                f |= sets << (COUNT_BITS * m)
            rows[d, ROW_FIXED + s] = f
        for state in range(n_states):
            col = ROW_SUIT + 4 * state
            rows[d, col] = suit_points[old, 0, state]
            rows[d, col + 1] = suit_points[old, 1, state] - suit_points[old, 0, state]
            rows[d, col + 2] = suit_counts[old, 0, state]
            rows[d, col + 3] = suit_counts[old, 1, state]
    card_value[:] = 0
    for s in range(4):
        for i in range(ranks.shape[0]):
            card_value[N_RANKS * s + ranks[i]] = np.uint64(base ** i) << np.uint64(16 * s)


@njit(inline="always")
def sets_min(a, b, guard):
    """Field-wise minimum of two words of COUNT_BITS-bit fields holding 0..4 (``guard``: the top
    bit of every field in use; other fields must be 0 in both). ``(a | guard) - b`` keeps a
    field's guard bit exactly when ``a >= b`` (a field becomes 16 + a - b, 12..20: no borrow
    leaves it), and the guard bits minus their shifted copies mask the fields where ``b`` is the
    smaller. Three of these give the minimum over four suits with no branch and no loop."""
    ge = ((a | guard) - b) & guard
    take_b = ge - (ge >> (COUNT_BITS - 1))
    return (b & take_b) | (a & ~take_b)


@njit(inline="always")
def suit_pattern(p0, p1, p2, p3, suit, pattern_value):
    """Pattern index of one suit: the sum over planes of the value of that suit's 6-bit block."""
    shift = np.uint32(6 * suit)
    return (pattern_value[(p0 >> shift) & 63] + pattern_value[(p1 >> shift) & 63]
            + pattern_value[(p2 >> shift) & 63] + pattern_value[(p3 >> shift) & 63])


@njit(inline="always")
def score_hand(p0, p1, p2, p3, kt, totals):
    """Score one hand for every trump.

    Writes ``totals`` (int64 (4,)): the meld total with each suit as trump. Returns the key
    ``(fixed_state, pattern of S, H, D, C, fixed melds' counts packed)`` for
    :func:`packed_counts` and :func:`meld_points`.
    """
    table, pattern_value, fixed_parents, fixed_radix, suit_points = kt[0], kt[1], kt[2], kt[3], kt[4]
    fixed_total = 0
    fixed_packed = 0
    for m in range(table.shape[0]):
        if table[m, COL_SCOPE] == SCOPE_FIXED:
            c = multiplicity(p0, p1, p2, p3, table[m, COL_MASK])
            # an around meld inside earlier around melds: 0 when a parent counts as many sets
            absorbed = 0
            for j in range(MAX_PARENTS):
                p = table[m, COL_PARENTS + j]
                if p < 0:
                    break
                absorbed = max(absorbed, min((fixed_packed >> (COUNT_BITS * p)) & COUNT_FIELD,
                                             table[p, COL_COUNTED]))
            if c <= absorbed:
                c = 0
            fixed_total += table[m, COL_POINTS + c]
            fixed_packed += c << (COUNT_BITS * m)
    state = 0
    for j in range(fixed_parents.shape[0]):
        p = fixed_parents[j]
        sets = (fixed_packed >> (COUNT_BITS * p)) & COUNT_FIELD  # the count p reports
        state += min(sets, table[p, COL_COUNTED]) * fixed_radix[j]
    i0 = suit_pattern(p0, p1, p2, p3, 0, pattern_value)
    i1 = suit_pattern(p0, p1, p2, p3, 1, pattern_value)
    i2 = suit_pattern(p0, p1, p2, p3, 2, pattern_value)
    i3 = suit_pattern(p0, p1, p2, p3, 3, pattern_value)
    plain = (suit_points[i0, 0, state] + suit_points[i1, 0, state] + suit_points[i2, 0, state]
             + suit_points[i3, 0, state])
    totals[0] = fixed_total + plain - suit_points[i0, 0, state] + suit_points[i0, 1, state]
    totals[1] = fixed_total + plain - suit_points[i1, 0, state] + suit_points[i1, 1, state]
    totals[2] = fixed_total + plain - suit_points[i2, 0, state] + suit_points[i2, 1, state]
    totals[3] = fixed_total + plain - suit_points[i3, 0, state] + suit_points[i3, 1, state]
    return state, i0, i1, i2, i3, fixed_packed


@njit(inline="always")
def _per_suit(values, trump, key):
    """Sum over the four suits of ``values[pattern, case, state, ...]``, case 1 for the trump."""
    state, i0, i1, i2, i3, _ = key
    return (values[i0, 1 if trump == 0 else 0, state] + values[i1, 1 if trump == 1 else 0, state]
            + values[i2, 1 if trump == 2 else 0, state] + values[i3, 1 if trump == 3 else 0, state])


@njit(inline="always")
def packed_counts(kt, key, trump):
    """Every meld's count with ``trump`` as trump, packed (read with :func:`meld_count`): the
    suit melds' fields from the four suit patterns, the fixed melds' from the key."""
    return _per_suit(kt[5], trump, key) + key[5]


@njit(inline="always")
def meld_count(packed, m):
    """Count of meld ``m`` from :func:`packed_counts`."""
    return (packed >> (COUNT_BITS * m)) & COUNT_FIELD


@njit(inline="always")
def meld_points(kt, key, m, trump):
    """Points of meld ``m`` with ``trump`` as trump; ``key`` is what :func:`score_hand` returned."""
    table = kt[0]
    if table[m, COL_SCOPE] == SCOPE_FIXED:
        return table[m, COL_POINTS + meld_count(key[5], m)]
    state, i0, i1, i2, i3, _ = key
    points = kt[6]
    return (points[i0, 1 if trump == 0 else 0, state, m] + points[i1, 1 if trump == 1 else 0, state, m]
            + points[i2, 1 if trump == 2 else 0, state, m]
            + points[i3, 1 if trump == 3 else 0, state, m])


@njit
def may_name(p0, suit, trump_need):
    """Whether the hand holds every rank of ``trump_need`` (bits in suit 0) in ``suit``."""
    need = trump_need << (6 * suit)
    return (np.int64(p0) & need) == need


@njit
def meld_hand(planes, trump, kt, counts_out, points_out):
    """Counts and points of every meld (int64 (n_melds,) each) of one hand (uint32[4] planes)
    with ``trump`` as trump; returns the total. Allocates: not for hot loops."""
    p0, p1, p2, p3 = planes[0], planes[1], planes[2], planes[3]
    totals = np.empty(4, dtype=np.int64)
    key = score_hand(p0, p1, p2, p3, kt, totals)
    packed = packed_counts(kt, key, trump)
    for m in range(kt[0].shape[0]):
        counts_out[m] = meld_count(packed, m)
        points_out[m] = meld_points(kt, key, m, trump)
    return totals[trump]
