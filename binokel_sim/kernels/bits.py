"""Card types as bits: the constants of the 24 card types and the bit helpers every kernel uses
(popcount, lowest/highest set bit, the k-th set bit, rank order, branch-free selects).

All masks are int64 holding a 24-bit set of card types (bit ``suit * 6 + rank``, ranks in trick
order). This module imports no other kernel module but the numba options; the card types'
numbers are :mod:`binokel_sim.cards`' (defined there once).
"""

import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from binokel_sim.cards import MAX_COPIES, N_RANKS, N_TYPES, SUIT_MASK  # noqa: F401 (defined once)
from binokel_sim.kernels.options import njit

ALL_TYPES = (np.int64(1) << N_TYPES) - 1
ACES = 0x820820  # the aces of the four suits (rank 5 in every six-bit block)
TENS = 0x410410  # the tens of the four suits (rank 4)
RANK0 = 0x41041  # the four card types of rank 0 (one bit per suit); shift by rank
# per six-bit block, the positions a right shift by 1, 2, 4 may land on without leaving the block
IN_BLOCK_SHIFT1 = 0x7DF7DF  # 0b011111 in each block
IN_BLOCK_SHIFT2 = 0x3CF3CF  # 0b001111
IN_BLOCK_SHIFT4 = 0x0C30C3  # 0b000011


# --- bit helpers -----------------------------------------------------------------------------

@intrinsic
def popcount(typingctx, src):
    """Set bits of an integer (LLVM ``ctpop``: one instruction on x86-64 with popcnt)."""
    if not isinstance(src, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return src(src), codegen


@intrinsic
def leading_zeros(typingctx, src):
    """Leading zero bits of an integer (LLVM ``ctlz``); undefined for 0, never called with 0."""
    if not isinstance(src, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return src(src), codegen


@intrinsic
def lowest_bit(typingctx, src):
    """Index of the lowest set bit (LLVM ``cttz``); undefined for 0, never called with 0."""
    if not isinstance(src, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return src(src), codegen


@njit(inline="always")
def nth_bit(m, k):
    """Index of the ``k``-th set bit (0-based, ascending) of ``m`` (bits 0..31 only),
    ``k < popcount(m)``. A branch-free binary search: at each step, if the lower half holds at
    most ``k`` set bits, skip it (a loop dropping ``k`` low bits mispredicts its exit instead)."""
    pos = 0
    for width in (16, 8, 4, 2, 1):
        c = popcount(m & ((1 << width) - 1))
        skip = k >= c
        pos += width if skip else 0
        k -= c if skip else 0
        m = (m >> width) if skip else m
    return pos


@njit(inline="always")
def count_in(h0, h1, h2, h3, block):
    """Cards of ``block`` (a mask of card types) in the hand with planes ``h0..h3``: the copies
    held, summed over the four planes."""
    return (popcount(np.int64(h0) & block) + popcount(np.int64(h1) & block)
            + popcount(np.int64(h2) & block) + popcount(np.int64(h3) & block))


@intrinsic
def either(typingctx, cond, a, b):
    """``a if cond else b`` as one LLVM ``select`` marked unpredictable: a conditional move, never
    a branch. (Numba compiles a conditional expression to a branch, which the optimiser keeps when
    several values depend on the condition; a mispredicted branch costs some 15 cycles, and the
    play-out's conditions, e.g. "this card takes the trick", are coin flips.)"""
    scalar = (types.Integer, types.Boolean)
    if not isinstance(a, scalar) or not isinstance(b, scalar):
        return None
    result = typingctx.unify_types(a, b)
    if result is None:
        return None

    def codegen(context, builder, signature, args):
        c = context.cast(builder, args[0], signature.args[0], types.boolean)
        x = context.cast(builder, args[1], signature.args[1], signature.return_type)
        y = context.cast(builder, args[2], signature.args[2], signature.return_type)
        chosen = builder.select(c, x, y)
        chosen.set_metadata("unpredictable", builder.module.add_metadata([]))
        return chosen

    return result(types.boolean, a, b), codegen


def _has_fast_pdep(context):
    """Whether the code numba generates here may use BMI2's ``pdep`` and it is fast: the target
    has the feature (numba's target features, which key its on-disk cache, so a cache built here
    is never reused on a CPU without it) and is not an AMD Zen 1/2, where pdep is microcoded."""
    codegen = context.codegen()
    features = getattr(codegen, "_tm_features", "") or ""
    cpu = codegen._get_host_cpu_name() if hasattr(codegen, "_get_host_cpu_name") else ""
    return "+bmi2" in features.split(",") and cpu not in ("znver1", "znver2")


@intrinsic
def kth_bit(typingctx, m, k):
    """Index of the ``k``-th set bit (0-based, ascending) of ``m``, ``k < popcount(m)``: what
    :func:`nth_bit` returns (int64). With BMI2 one ``pdep`` deposits the bit ``1 << k`` on the
    ``k``-th set bit of ``m`` and ``cttz`` reads its place (a few cycles); without it the
    binary search of :func:`nth_bit`, unrolled (chosen when the machine code is generated)."""
    if not isinstance(m, types.Integer) or not isinstance(k, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        mv = context.cast(builder, args[0], signature.args[0], types.int64)
        kv = context.cast(builder, args[1], signature.args[1], types.int64)
        mv = builder.and_(mv, ir.Constant(i64, 0xFFFFFFFF))
        if _has_fast_pdep(context):
            fnty = ir.FunctionType(i64, [i64, i64])
            pdep = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pdep.64")
            bit = builder.call(pdep, [builder.shl(ir.Constant(i64, 1), kv), mv])
            return builder.cttz(bit, ir.Constant(ir.IntType(1), 0))
        pos = ir.Constant(i64, 0)
        zero = ir.Constant(i64, 0)
        for width in (16, 8, 4, 2, 1):
            w = ir.Constant(i64, width)
            c = builder.ctpop(builder.and_(mv, ir.Constant(i64, (1 << width) - 1)))
            skip = builder.icmp_signed(">=", kv, c)
            pos = builder.add(pos, builder.select(skip, w, zero))
            kv = builder.sub(kv, builder.select(skip, c, zero))
            mv = builder.select(skip, builder.lshr(mv, w), mv)
        return pos

    return types.int64(m, k), codegen


@njit(inline="always")
def above(t):
    """Mask of every card type index strictly above ``t`` (all suits; intersect with a block)."""
    return ~((np.int64(2) << t) - 1)


@njit(inline="always")
def lowest_rank(m):
    """A card of the lowest rank in ``m`` (non-empty); among equal ranks the lowest suit."""
    for r in range(N_RANKS):
        x = m & (RANK0 << r)
        if x:
            return lowest_bit(x)
    return -1


@njit(inline="always")
def highest_rank(m):
    """A card of the highest rank in ``m`` (non-empty); among equal ranks the lowest suit."""
    for r in range(N_RANKS - 1, -1, -1):
        x = m & (RANK0 << r)
        if x:
            return lowest_bit(x)
    return -1


@njit(inline="always")
def cheapest(m, trump_block, counters):
    """The card of ``m`` (non-empty) that costs least to give away: non-trump non-counters first,
    then non-trump counters, trump non-counters, trump counters; the lowest rank within a tier."""
    side = m & ~trump_block
    x = side & ~counters
    if x:
        return lowest_rank(x)
    if side:
        return lowest_rank(side)
    x = m & ~counters
    if x:
        return lowest_rank(x)
    return lowest_rank(m)


@njit(inline="always")
def dominated(unseen):
    """Card types with an unseen card of the same suit strictly above them: smear every unseen
    bit down its own six-bit block (each shift is masked so no bit crosses into the suit below;
    shifts of 1, 1, 2, 4 cover the distances 1..8 >= 5)."""
    d = (unseen >> 1) & IN_BLOCK_SHIFT1
    d |= (d >> 1) & IN_BLOCK_SHIFT1
    d |= (d >> 2) & IN_BLOCK_SHIFT2
    d |= (d >> 4) & IN_BLOCK_SHIFT4
    return d


@njit(inline="always")
def masters(cards, unseen):
    """The cards of ``cards`` that no unseen card can beat within its suit: no card of the same
    suit and strictly higher rank is unseen. An unseen equal copy cannot take the trick from
    ours: it would be played later and ties go to the card played first (SPEC "Trick winner")."""
    return cards & ~dominated(unseen)


@njit(inline="always")
def rank_presence(m):
    """The ranks present in ``m`` (six bits, bit r for rank r in any suit)."""
    return (m | (m >> 6) | (m >> 12) | (m >> 18)) & SUIT_MASK


@njit(inline="always")
def low_rank_card(m):
    """:func:`lowest_rank` without a loop: the lowest rank present, then its lowest suit. Defined
    (a meaningless value) for an empty ``m``, so it may be computed before it is chosen."""
    r = lowest_bit(rank_presence(m)) & 63
    return lowest_bit(m & (np.int64(RANK0) << r))


@njit(inline="always")
def high_rank_card(m):
    """:func:`highest_rank` without a loop: the highest rank present, then its lowest suit.
    Defined (a meaningless value) for an empty ``m``."""
    r = (63 - leading_zeros(rank_presence(m))) & 63
    return lowest_bit(m & (np.int64(RANK0) << r))


@njit(inline="always")
def cheapest_card(m, trump_block, counters):
    """:func:`cheapest` with the tier chosen by selects instead of branches: the first non-empty
    of non-trump non-counters, non-trump cards, non-counters, ``m``; its lowest rank."""
    side = m & ~trump_block
    x = side & ~counters
    pool = either(x != 0, x, side)
    rest = m & ~counters
    pool = either(pool != 0, pool, either(rest != 0, rest, m))
    return low_rank_card(pool)


@intrinsic
def spread_suits(typingctx, suits):
    """Bit ``s`` of ``suits`` (four bits) moved to bit ``6 s``, the lowest card of suit ``s``
    (int64): one ``pdep`` with BMI2, else four masks and shifts."""
    if not isinstance(suits, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        x = context.cast(builder, args[0], signature.args[0], types.int64)
        if _has_fast_pdep(context):
            fnty = ir.FunctionType(i64, [i64, i64])
            pdep = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pdep.64")
            return builder.call(pdep, [x, ir.Constant(i64, RANK0)])
        out = builder.and_(x, ir.Constant(i64, 1))
        for s in range(1, 4):
            bit = builder.and_(x, ir.Constant(i64, 1 << s))
            out = builder.or_(out, builder.shl(bit, ir.Constant(i64, 5 * s)))
        return out

    return types.int64(suits), codegen


@njit(inline="always")
def suit_blocks(suits):
    """The card types of the suits whose bits are set in ``suits`` (four bits, bit s = suit s)."""
    return spread_suits(suits & 0xF) * SUIT_MASK
