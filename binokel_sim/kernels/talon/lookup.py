"""The talon games' declarations by table lookups: the rows a hand holds, found without a scan
of the declaration rows (:func:`binokel_sim.kernels.talon.declare.heuristic_declaration` is the
scan; both find the same declarations). The deal loop
(:mod:`binokel_sim.kernels.talon.deals`) keeps per seat the rows a served copy may forbid; the
sampling policy's play-outs (:mod:`binokel_sim.kernels.talon.sampling`) check a held row with
:func:`legal_rows` when one of its cards has a copy that has served any meld.
"""

from collections import namedtuple

import numpy as np

from binokel_sim.kernels.bits import either, kth_bit, lowest_bit, popcount
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.strict.heuristic import WIN_FOR_MELD
from binokel_sim.kernels.talon.declare import (
    D_INSIDE,
    D_LEVEL,
    D_MASK,
    D_MELD,
    D_PER_COPY,
    D_POINTS,
    D_SWAP,
    LEVEL_BITS,
    copies_serve,
    doubtful_types,
)

# The deal loop and the sampling policy's play-outs find the declarations a hand may make
# without scanning the rows: per trump,
# ``fits[trump, s, pattern]`` has bit ``r`` set when the six-bit ``pattern`` of suit ``s``
# holds row ``r``'s cards of that suit, so the rows whose ``level`` copies of every card are held
# are, per level ``L``, the AND over the four suits of the patterns of plane ``L - 1``, masked to
# the rows of level ``L`` (``sets[trump, S_LEVEL + L - 1]``): four lookups a plane. Only rows that
# a served copy makes doubtful are then checked against the records: a seat keeps those rows as
# bits (``suspect``: at least the rows of each meld with a card some copy of which has served
# that meld or a meld it sits inside; a declaration of row ``r`` adds ``reach[trump, r]``, and
# the rows stay until the next deal even after the served copies have left the hand, since the
# check is exact and cheaper than keeping the set tight), and a row is read as one packed key
# (``keys[trump, r]``: its mask, meld, level, counted per copy, points). More than 64 rows for
# a trump (a house-rules table far beyond the built-in ones) set ``S_WIDE`` and use the
# row scans above instead.

S_LEVEL = 0  # sets[trump, S_LEVEL + L - 1]: the rows of level L, as bits
S_SWAP, S_BIG, S_WIDE = 4, 5, 6  # the swap meld's rows; rows worth WIN_FOR_MELD or more; wide
N_SETS = 7
FAST_ROWS = 64
# a row's key: the card types of one set (bits 0-23), meld (24-31), level (32-34), counted per
# copy (35), points (40-62)
K_MELD, K_LEVEL, K_PER_COPY, K_POINTS = 24, 32, 35, 40

DeclarationTables = namedtuple("DeclarationTables", ["fits", "sets", "keys", "reach"])
"""The lookups of the declaration rows, per trump (the comment above; :func:`declaration_tables`
builds them): ``fits`` int64 (4, 4, 64), ``sets`` int64 (4, N_SETS), ``keys`` int64 (4, 64) and
``reach`` int64 (4, 64), the rows a declaration of row ``r`` makes suspect."""


@njit
def declaration_tables(decl, n_decl, n_melds):
    """The :class:`DeclarationTables` of the declaration rows ``decl`` (int64 (4, rows, N_DECL))
    and ``n_decl`` (rows per trump): see the comment above; ``reach[trump, r]`` are the rows a
    declaration of row ``r`` makes suspect: the rows of its meld, and of the melds inside it (a
    marriage inside a quint), sharing a card type with it (one lookup where a declaration is
    made). ``n_melds``: the melds of the variant."""
    fits = np.zeros((4, 4, 64), dtype=np.int64)
    sets = np.zeros((4, N_SETS), dtype=np.int64)
    keys = np.zeros((4, FAST_ROWS), dtype=np.int64)
    touch = np.zeros((4, max(n_melds, 1), 24), dtype=np.int64)  # the rows of meld m with type t
    reach = np.zeros((4, FAST_ROWS), dtype=np.int64)
    wide = False
    for trump in range(4):
        wide |= n_decl[trump] > FAST_ROWS
        for r in range(n_decl[trump]):  # fields too large for a key: the row scans
            wide |= decl[trump, r, D_MELD] > 255 or not 0 <= decl[trump, r, D_POINTS] < 1 << 23
    for trump in range(4):
        if wide:
            sets[trump, S_WIDE] = 1
            continue
        for r in range(n_decl[trump]):
            bit = np.int64(1) << r
            sets[trump, S_LEVEL + decl[trump, r, D_LEVEL] - 1] |= bit
            if decl[trump, r, D_SWAP]:
                sets[trump, S_SWAP] |= bit
            if decl[trump, r, D_POINTS] >= WIN_FOR_MELD:
                sets[trump, S_BIG] |= bit
            for s in range(4):
                part = (decl[trump, r, D_MASK] >> (6 * s)) & 63
                for pattern in range(64):
                    if part & ~pattern == 0:
                        fits[trump, s, pattern] |= bit
            keys[trump, r] = (decl[trump, r, D_MASK] | (decl[trump, r, D_MELD] << K_MELD)
                              | (decl[trump, r, D_LEVEL] << K_LEVEL)
                              | (np.int64(decl[trump, r, D_PER_COPY] != 0) << K_PER_COPY)
                              | (decl[trump, r, D_POINTS] << K_POINTS))
            for t in range(24):
                if (decl[trump, r, D_MASK] >> t) & 1:
                    touch[trump, decl[trump, r, D_MELD], t] |= bit
        for r in range(n_decl[trump]):
            m = decl[trump, r, D_MELD]
            for t in range(24):
                if (decl[trump, r, D_MASK] >> t) & 1:
                    reach[trump, r] |= touch[trump, m, t]
                    for r2 in range(n_decl[trump]):  # rows of a meld inside m with card t
                        if (decl[trump, r2, D_INSIDE] >> (LEVEL_BITS * m)) & 3 and \
                                (decl[trump, r2, D_MASK] >> t) & 1:
                            reach[trump, r] |= np.int64(1) << r2
    return DeclarationTables(fits, sets, keys, reach)


@njit
def key_mask(key):
    return key & 0xFFFFFF


@njit
def key_meld(key):
    return (key >> K_MELD) & 255


@njit
def key_level(key):
    return (key >> K_LEVEL) & 7


@njit
def key_per_copy(key):
    return ((key >> K_PER_COPY) & 1) != 0


@njit
def key_points(key):
    return key >> K_POINTS


@njit
def plane_fits(fits, trump, q):
    """The rows whose cards of every suit are in the plane ``q``."""
    return (fits[trump, 0, q & 63] & fits[trump, 1, (q >> 6) & 63]
            & fits[trump, 2, (q >> 12) & 63] & fits[trump, 3, (q >> 18) & 63])


@njit
def held_rows(fits, sets, trump, q0, q1):
    """The rows (bits) of levels 1 and 2 of which the hand with planes ``q0, q1`` holds ``level``
    copies of every card: the declarations legal unless a served copy is in the way.
    (Branch-free, like every function given arrays here: a branch would make numba count
    references to ``fits`` and ``sets`` on every call.)"""
    return ((sets[trump, S_LEVEL] & plane_fits(fits, trump, q0))
            | (sets[trump, S_LEVEL + 1] & plane_fits(fits, trump, q1)))


@njit
def held_rows_high(fits, sets, trump, q2, q3):
    """:func:`held_rows` for levels 3 and 4 (decks with three or four copies of a card)."""
    return ((sets[trump, S_LEVEL + 2] & plane_fits(fits, trump, q2))
            | (sets[trump, S_LEVEL + 3] & plane_fits(fits, trump, q3)))


@njit(_nrt=False)
def legal_rows(keys, decl, served, served_any, seat, trump, rows, doubtful_rows, q0, q1, q2,
               q3):
    """``rows`` (bits, from :func:`held_rows`) without those of ``doubtful_rows`` (rows with a
    card some copy of which has served the row's meld or a meld it sits inside, whose record
    bits are ``decl[trump, r, D_INSIDE]``) that a served copy forbids."""
    todo = doubtful_rows
    while todo:
        r = lowest_bit(todo)
        todo &= todo - 1
        key = keys[trump, r]
        inside = decl[trump, r, D_INSIDE]
        doubtful = doubtful_types(served_any, seat, key_meld(key), inside, key_mask(key))
        if doubtful and not copies_serve(served, seat, doubtful, key_meld(key), key_level(key),
                                         key_per_copy(key), inside, q0, q1, q2, q3):
            rows &= ~(np.int64(1) << r)
    return rows


@njit
def choice_row(rows, swaps, k):
    """The random policy's ``k``-th declaration (0-based) among the ``rows`` (bits) in row order,
    a row of ``swaps`` (a subset) counted twice, without then with the swap: ``(row, swap)``.
    No walk over the rows (its exit, a random place, would be mispredicted): the swap rows
    before the choice (few, usually none) are skipped by counting, then the row is the
    ``k``-th set bit (:func:`binokel_sim.kernels.bits.kth_bit`), without a branch. When
    ``k`` is past the rows (no row to choose) the row returned is meaningless."""
    extra = 0  # the swap rows' second choices before the choice
    while swaps:
        row = lowest_bit(swaps)
        swaps &= swaps - 1
        at = popcount(rows & ((np.int64(1) << row) - 1)) + extra  # row's choice without swap
        if k <= at:
            break
        if k == at + 1:
            return row, True
        extra += 1
    k -= extra
    low = rows & 0xFFFFFFFF  # kth_bit reads 32 bits; rows 32..63 only in a large house table
    n_low = popcount(low)
    in_low = k < n_low
    high = 32 + kth_bit(rows >> 32, either(in_low, 0, k - n_low))
    return either(in_low, kth_bit(low, k), high), False
