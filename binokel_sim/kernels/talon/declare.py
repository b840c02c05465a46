"""The talon games' declarations (SPEC.md "Variant two-hand-48", docs/rules.md "Declarations"):
the variant's numbers, what a hand may declare, what its copies have served, and the two
policies' declarations. :mod:`binokel_sim.kernels.talon.deals` plays the deals with them (its hot
loop
inlines table lookups instead of the row scans here, see there); the ``sampling`` policy's
play-outs (:mod:`binokel_sim.kernels.talon.sampling`) use them as they are.

A seat's hand is bit planes (int64 (4,) in the kernels' hand arrays, :mod:`binokel_sim.cards`).
What its card copies have served is kept beside it: ``served[seat, t, i]`` (int64) the served
record of the ``i``-th copy of type ``t`` (the level served per meld, two bits a meld), copies in
descending order of record, unused slots 0; ``served_any[seat, m]`` the card types with a copy
that has served meld ``m``. A copy played or swapped away is the first in that order; a drawn card
is a fresh copy (record 0).

A meld inside others (its ``inside`` list, SPEC "Variant two-hand-48": a marriage inside a quint)
may not take a copy that has served one of them: a declaration row carries, in ``D_INSIDE``, the
bits of its meld's parents in a served record (``3 << 2p`` for each parent ``p``), and a copy
whose record meets them may not serve the row (docs/rules.md "Declarations", decision 17).
"""

import numpy as np

from binokel_sim.kernels.bits import MAX_COPIES, lowest_bit
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.play import copies_of, give_card, remove_card
from binokel_sim.kernels.policies import N_TUNE
from binokel_sim.kernels.random import below_scalar

# cfg (engines.talon.family_tables writes the same positions)
CFG_PLAYERS, CFG_HAND, CFG_TALON, CFG_LAST_TRICK, CFG_STRICT1, CFG_BONUS_RANK, CFG_BONUS = range(7)
CFG_SWAP_RANK, CFG_PAIRS, CFG_COPIES = 7, 8, 9
CFG_TUNE = 10  # the heuristic's knobs, then the expert's (kernels.policies.tune_row)
N_CFG = CFG_TUNE + 2 * N_TUNE
# columns of a declaration row (D_INSIDE: the served-record bits of the meld's parents)
D_MELD, D_LEVEL, D_MASK, D_POINTS, D_PER_COPY, D_SWAP, D_INSIDE = range(7)
N_DECL = 7
LEVEL_BITS = 2  # a copy's served record: the level served for meld m at bits 2m, 2m+1
PAIR_LOW = 0x5555555555555555  # bit 2m of every meld's two bits in a served record


@njit
def served_melds(record):
    """The melds a served record has served, as bits: bit ``2m`` for meld ``m``."""
    return (record | (record >> 1)) & PAIR_LOW


@njit
def forget_copy(hands, served, served_any, seat, t):
    """After a copy of ``t`` left ``hands[seat]``: drop the first (highest) served record of
    ``t``, and clear ``t`` from ``served_any`` for the melds no copy left has served. Called only
    when some copy of ``t`` has served a meld (records are sorted, so the first is non-zero).

    Returns the OR of the records left (0: no copy of ``t`` has served any meld, so ``t`` leaves
    the seat's served types). Only the melds the dropped copy served can be cleared, so the
    other melds are not visited."""
    n = copies_of(hands, seat, t)  # copies left
    gone = served_melds(served[seat, t, 0])
    rest = np.int64(0)
    for i in range(n):
        x = served[seat, t, i + 1]
        served[seat, t, i] = x
        rest |= x
    served[seat, t, n] = 0
    gone &= ~served_melds(rest)
    keep = ~(np.int64(1) << t)
    todo = gone
    while todo:
        served_any[seat, lowest_bit(todo) >> 1] &= keep
        todo &= todo - 1
    return rest


@njit
def may_serve(record, m, level, per_copy, inside):
    """Whether a copy with this served record may serve meld ``m`` at ``level``: a meld counted
    per copy only if it never served ``m``; a table meld if it served ``m`` below ``level``; and
    either only if it never served a meld ``m`` sits inside (``inside``: their record bits)."""
    served = (record >> (LEVEL_BITS * m)) & 3
    return (record & inside) == 0 and (served == 0 if per_copy else served < level)


@njit
def copies_serve(served, seat, doubtful, m, level, per_copy, inside, q0, q1, q2, q3):
    """Whether every card type in ``doubtful`` still has ``level`` copies in the hand with planes
    ``q0..q3`` that may serve meld ``m`` (:func:`may_serve`; ``served`` the records, ``inside``
    the record bits of ``m``'s parents). The copies are counted without a loop (at most four)."""
    shift = LEVEL_BITS * m
    below = 1 if per_copy else level  # may serve: the level served for m is below this
    while doubtful:
        t = lowest_bit(doubtful)
        doubtful &= doubtful - 1
        x0 = served[seat, t, 0]
        x1 = served[seat, t, 1]
        x2 = served[seat, t, 2]
        x3 = served[seat, t, 3]
        usable = ((((x0 >> shift) & 3) < below) & ((x0 & inside) == 0) & (((q0 >> t) & 1) != 0))
        usable += ((((x1 >> shift) & 3) < below) & ((x1 & inside) == 0) & (((q1 >> t) & 1) != 0))
        usable += ((((x2 >> shift) & 3) < below) & ((x2 & inside) == 0) & (((q2 >> t) & 1) != 0))
        usable += ((((x3 >> shift) & 3) < below) & ((x3 & inside) == 0) & (((q3 >> t) & 1) != 0))
        if usable < level:
            return False
    return True


@njit
def doubtful_types(served_any, seat, m, inside, mask):
    """The card types of ``mask`` of which some copy has served meld ``m`` or one of the melds
    ``m`` sits inside (``inside``: their record bits, ``3 << 2p`` each): the types whose copies a
    declaration of ``m`` must check."""
    out = served_any[seat, m]
    todo = inside & PAIR_LOW
    while todo:
        out |= served_any[seat, lowest_bit(todo) >> 1]
        todo &= todo - 1
    return out & mask


@njit
def copies_may_serve(hands, served, seat, rows, r, doubtful):
    """Whether every card type in ``doubtful`` (types of the set ``rows[r]`` of which some copy
    has served its meld or a meld it sits inside) still has ``level`` copies that may serve it."""
    return copies_serve(served, seat, doubtful, rows[r, D_MELD], rows[r, D_LEVEL],
                        rows[r, D_PER_COPY] != 0, rows[r, D_INSIDE], np.int64(hands[seat, 0]),
                        np.int64(hands[seat, 1]), np.int64(hands[seat, 2]),
                        np.int64(hands[seat, 3]))


@njit
def declaration_legal(hands, served, served_any, seat, rows, r):
    """Whether ``hands[seat]`` may declare ``rows[r]`` (int64 (rows, N_DECL)): ``level`` copies of
    every card type of the set that may still serve the meld (docs/rules.md, "Declarations":
    not served it, and not served a meld it sits inside). The hot loops inline the first two
    tests (:func:`random_declaration`)."""
    level = rows[r, D_LEVEL]
    mask = rows[r, D_MASK]
    if (np.int64(hands[seat, level - 1]) & mask) != mask:
        return False  # fewer than `level` copies of some card of the set
    doubtful = doubtful_types(served_any, seat, rows[r, D_MELD], rows[r, D_INSIDE], mask)
    return doubtful == 0 or copies_may_serve(hands, served, seat, rows, r, doubtful)


@njit
def mark_copies(served, seat, t, n, m, level, per_copy, inside):
    """Mark ``level`` of the ``n`` copies of ``t`` held by ``seat`` as serving meld ``m`` (the
    first that may serve, in the records' order; ``inside`` the record bits of ``m``'s parents),
    then restore the descending order."""
    mark = np.int64(1 if per_copy else level) << (LEVEL_BITS * m)
    clear = ~(np.int64(3) << (LEVEL_BITS * m))
    left = level
    for i in range(n):
        if left > 0 and may_serve(served[seat, t, i], m, level, per_copy, inside):
            served[seat, t, i] = (served[seat, t, i] & clear) | mark
            left -= 1
    for i in range(1, n):  # insertion sort, descending (at most four copies)
        x = served[seat, t, i]
        j = i - 1
        while j >= 0 and served[seat, t, j] < x:
            served[seat, t, j + 1] = served[seat, t, j]
            j -= 1
        served[seat, t, j + 1] = x


@njit
def declare(hands, served, served_any, seat, rows, r):
    """Mark the copies the legal declaration ``rows[r]`` uses: per card type of the set, the
    first ``level`` copies that may serve, then restore the descending order of the records."""
    m = rows[r, D_MELD]
    todo = rows[r, D_MASK]
    while todo:
        t = lowest_bit(todo)
        todo &= todo - 1
        mark_copies(served, seat, t, copies_of(hands, seat, t), m, rows[r, D_LEVEL],
                    rows[r, D_PER_COPY] != 0, rows[r, D_INSIDE])
    served_any[seat, m] |= rows[r, D_MASK]


@njit
def swap_card(rows, r, trump, cfg):
    """The card type a declaration of ``rows[r]`` may exchange for the turned card (-1: none)."""
    return trump * 6 + cfg[CFG_SWAP_RANK] if rows[r, D_SWAP] else -1


@njit
def legal_declarations(hands, served, served_any, seat, rows, n_rows, trump, talon, cfg, out):
    """The legal declarations of ``hands[seat]`` in row order: writes their rows to ``out``
    (int64 (rows,)), a row whose swap is possible as ``-(row + 1)``; returns how many. The
    legality test of :func:`declaration_legal`, inlined: this is the hot loop of a deal."""
    last = talon[talon.shape[0] - 1]
    n = 0
    for r in range(n_rows):
        level = rows[r, D_LEVEL]
        mask = rows[r, D_MASK]
        if (np.int64(hands[seat, level - 1]) & mask) != mask:
            continue
        doubtful = doubtful_types(served_any, seat, rows[r, D_MELD], rows[r, D_INSIDE], mask)
        if doubtful and not copies_may_serve(hands, served, seat, rows, r, doubtful):
            continue
        swap = swap_card(rows, r, trump, cfg)
        out[n] = -(r + 1) if swap >= 0 and last != swap else r
        n += 1
    return n


@njit
def random_declaration(hands, served, served_any, seat, rows, n_rows, trump, talon, cfg, legal,
                       s0, s1, s2, s3):
    """The random policy's declaration: uniform over "none" and every legal declaration, a
    swap-meld declaration counted twice while the swap is possible (without, then with the swap).
    One bounded draw when there are at least two choices. ``legal`` is scratch. Returns
    ``(row or -1, swap, s0..s3)``."""
    n = legal_declarations(hands, served, served_any, seat, rows, n_rows, trump, talon, cfg, legal)
    n_choices = 1
    for i in range(n):
        n_choices += 2 if legal[i] < 0 else 1
    if n_choices == 1:
        return -1, False, s0, s1, s2, s3
    k, s0, s1, s2, s3 = below_scalar(n_choices, s0, s1, s2, s3)
    k -= 1  # -1: no declaration
    for i in range(n):
        r = legal[i] if legal[i] >= 0 else -legal[i] - 1
        if k == 0:
            return r, False, s0, s1, s2, s3
        if legal[i] < 0 and k == 1:
            return r, True, s0, s1, s2, s3
        k -= 2 if legal[i] < 0 else 1
    return -1, False, s0, s1, s2, s3


@njit
def heuristic_declaration(hands, served, served_any, seat, rows, n_rows, trump, talon, cfg):
    """The heuristic's declaration: the legal one worth most (the first row on a tie), with the
    swap whenever it is possible (the turned card is a better trump than the nine). Returns
    ``(row or -1, swap)``."""
    best = -1
    best_points = 0
    for r in range(n_rows):
        points = rows[r, D_POINTS]
        level = rows[r, D_LEVEL]
        mask = rows[r, D_MASK]
        if points <= best_points or (np.int64(hands[seat, level - 1]) & mask) != mask:
            continue
        doubtful = doubtful_types(served_any, seat, rows[r, D_MELD], rows[r, D_INSIDE], mask)
        if doubtful == 0 or copies_may_serve(hands, served, seat, rows, r, doubtful):
            best = r
            best_points = points
    if best < 0:
        return -1, False
    swap = swap_card(rows, best, trump, cfg)
    return best, swap >= 0 and talon[talon.shape[0] - 1] != swap


@njit
def served_copies(served, seat, t):
    """The copies of ``t`` held by ``seat`` that have served a declaration (public: every
    declaration is shown, and a copy played is its type's most-served one)."""
    n = 0
    for i in range(MAX_COPIES):
        n += served[seat, t, i] != 0
    return n


@njit
def take_copy(hands, served, served_any, seat, t):
    """One copy of ``t`` leaves ``hands[seat]`` (played or swapped away): the most-served copy,
    whose record goes with it."""
    remove_card(hands, seat, t)
    if served[seat, t, 0] != 0:
        forget_copy(hands, served, served_any, seat, t)


@njit
def apply_declaration(hands, served, served_any, talon, seat, rows, r, swap, swap_nine):
    """``hands[seat]`` declares the legal ``rows[r]`` (its copies marked, :func:`declare`), and
    with ``swap`` exchanges the swap card ``swap_nine`` for the talon's face-up last card, which
    joins the hand as a fresh copy (docs/rules.md "The dix and the swap")."""
    declare(hands, served, served_any, seat, rows, r)
    if swap:
        take_copy(hands, served, served_any, seat, swap_nine)
        give_card(hands, seat, talon[talon.shape[0] - 1])
        talon[talon.shape[0] - 1] = swap_nine
