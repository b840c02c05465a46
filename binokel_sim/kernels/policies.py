"""Card-play policies for the play-out kernel (:func:`binokel_sim.kernels.tricks.playout`).

A policy picks one card type out of ``legal`` (a 24-bit mask of card types, as
:func:`binokel_sim.kernels.tricks.legal_mask` returns it). Policy ids:

=====  =============  ==========================================================================
id     name           what it does
=====  =============  ==========================================================================
0      ``random``     uniform over the *distinct* legal card types (two copies of ``AS`` count
                      once); one bounded draw per card when ``n >= 2`` types are
                      legal, no draw when the card is forced
1      ``heuristic``  the rules of :func:`heuristic_card`; deterministic, reads no random numbers
=====  =============  ==========================================================================

The bit helpers at the top (popcount, lowest/highest set bit, rank order) are shared with
:mod:`binokel_sim.kernels.tricks`, which imports this module (never the other way round).
All masks are int64 holding a 24-bit set of card types (bit ``suit * 6 + rank``).
"""

import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from binokel_sim.kernels.options import njit
from binokel_sim.kernels.random import below_scalar

POLICY_RANDOM = 0
POLICY_HEURISTIC = 1
POLICY_SOLVER = 2  # the heuristic, and the exact solver in phase 2 of a two-player talon game
POLICY_SAMPLING = 3  # perfect-information sampling (four-hand-80: kernels/sampling.py)
POLICY_NAMES = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC,
                "heuristic+solver": POLICY_SOLVER, "sampling": POLICY_SAMPLING}

SUIT_MASK = 0b111111  # the six card types of suit 0; shift by 6*suit
RANK0 = 0x41041  # the four card types of rank 0 (one bit per suit); shift by rank
N_RANKS = 6
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


# --- policy 0: random ------------------------------------------------------------------------

@njit(inline="always")
def random_card(legal, s0, s1, s2, s3):
    """Policy 0: a uniform choice among the distinct legal card types, in ascending type order
    the ``k``-th with ``k`` uniform in ``[0, n)``, ``n = popcount(legal)``; the state travels as four
    scalars. A forced card (``n == 1``) reads no random number. Returns ``(card, s0, s1, s2, s3)``."""
    n = popcount(legal)
    if n == 1:
        return lowest_bit(legal), s0, s1, s2, s3
    k, s0, s1, s2, s3 = below_scalar(n, s0, s1, s2, s3)
    return nth_bit(legal, k), s0, s1, s2, s3


@njit(inline="always")
def random_pick(legal, s0, s1, s2, s3):
    """:func:`random_card` without a branch on the forced card: the draw is always computed and
    its state kept only when ``n >= 2`` (a forced card is frequent and unpredictable, a
    mispredicted branch costs more than the draw). The same cards, the same stream."""
    n = popcount(legal)
    k, t0, t1, t2, t3 = below_scalar(n, s0, s1, s2, s3)  # n == 1: k == 0, the lowest bit
    draw = n > 1
    return (kth_bit(legal, k), either(draw, t0, s0), either(draw, t1, s1), either(draw, t2, s2),
            either(draw, t3, s3))


# --- policy 1: heuristic ---------------------------------------------------------------------

@njit
def heuristic_card(legal, hand, unseen, voids, seat, position, led, win_card, win_seat,
                   trick_index, n_tricks, trump, bidder, counters):
    """Policy 1: a deterministic card player that uses only what its seat can know.

    Arguments (int64 unless said): ``legal`` the legal card types; ``hand`` uint32[4] the seat's
    own bit planes; ``unseen`` the card types still held by the other three players taken
    together (= deck minus own hand minus cards played: public knowledge plus own hand, never
    who holds what); ``voids`` bit ``4*seat + suit`` set when that seat has shown out of that
    suit (failed to follow it; a seat that neither followed nor trumped is void in trump too);
    ``seat`` the seat to play and ``position`` its place in the trick (0 = leads); ``led`` the
    led suit (-1 when leading); ``win_card`` / ``win_seat`` the card winning the trick so far and
    its seat (-1 when leading); ``trick_index`` 0..n_tricks-1; ``trump`` the trump suit;
    ``bidder`` the bid winner's seat (his partnership is the bidding side); ``counters`` the
    card types worth points (from the variant's card points).

    Returns the card type to play. Rules, in order:

    Leading
      L1. Pull trumps: a bidding-side leader in the first half of the play who holds at least
          two trumps (so one can be kept for the last trick), while trumps are unseen and not
          both opponents have shown out of trump, leads his highest trump if no unseen trump
          beats it, else his cheapest trump.
      L2. Cash side-suit winners: lead the highest-ranked non-trump master (no unseen card of its
          suit is higher: aces first) in a suit no opponent has shown out of, unless no trump
          is unseen (then any suit is safe).
      L3. Otherwise lead the cheapest non-trump card (a non-counter of the lowest rank),
          preferring a suit the partner has shown out of while he may still trump; lead a trump
          only when nothing else is left (keeps a trump for the last trick).

    Following (the obligation has already narrowed ``legal``)
      F1. Partner winning and the trick is safe (we play last, or partner's card is a master
          and the opponent still to play cannot trump it: he has not shown out of the led suit,
          has shown out of trump, or no trump is unseen): smear the cheapest non-trump counter
          (K before 10 before A); with none, play the cheapest card.
      F2. Opponent winning (or partner's card at risk) and we can beat it: playing last, take
          the trick with the cheapest beating card; otherwise beat only with a card that is
          safe (a master in its suit that the remaining opponent cannot trump), the cheapest
          such. Never throw a high card that cannot hold the trick.
      F3. Otherwise, we cannot (safely) win: play the cheapest legal card (non-counters and
          non-trumps first, the lowest rank).
    """
    return heuristic_pick(legal, hand[0], hand[1], hand[2], hand[3], unseen, voids, seat,
                          position, led, win_card, win_seat, trick_index, n_tricks, trump,
                          bidder, counters)


@njit
def heuristic_pick(legal, h0, h1, h2, h3, unseen, voids, seat, position, led, win_card, win_seat,
                   trick_index, n_tricks, trump, bidder, counters):
    """:func:`heuristic_card` with the hand as its four plane scalars ``h0..h3`` (no array):
    :func:`heuristic_lead` or :func:`heuristic_follow`."""
    if position == 0:
        return heuristic_lead(legal, h0, h1, h2, h3, unseen, voids, seat, trick_index, n_tricks,
                              trump, bidder, counters)
    trump_block = np.int64(SUIT_MASK) << (6 * trump)
    higher = above(win_card)
    # the cards that would take the lead from win_card
    wins = either(win_card // 6 == trump, trump_block & higher,
                  trump_block | ((np.int64(SUIT_MASK) << (6 * led)) & higher))
    return heuristic_follow(legal, unseen, voids, seat, position, led, win_card, win_seat, wins,
                            trump, counters)


@njit(inline="always")
def bit_of(x, i):
    """Bit ``i`` of ``x`` as a bool."""
    return ((x >> i) & 1) != 0


@njit(inline="always")
def heuristic_lead(legal, h0, h1, h2, h3, unseen, voids, seat, trick_index, n_tricks, trump,
                   bidder, counters):
    """Rules L1-L3 of :func:`heuristic_card` (the seat leads; ``legal`` is its hand), without a
    branch: every rule's cards are worked out, and selects pick the rule that applies. L1 and L2
    play the highest rank of a set of masters, everything else the cheapest card of a set."""
    trump_block = np.int64(SUIT_MASK) << (6 * trump)
    partner = seat ^ 2
    opp_a = (seat + 1) & 3
    opp_b = (seat + 3) & 3
    trumps_unseen = (unseen & trump_block) != 0
    opp_trump_void = bit_of(voids, 4 * opp_a + trump) & bit_of(voids, 4 * opp_b + trump)
    # two trumps or more: two trump types, or two copies of one (plane 1; planes are nested)
    two_trumps = (popcount(np.int64(h0) & trump_block) >= 2) | ((np.int64(h1) & trump_block) != 0)
    # L1: the bidding side pulls trumps early with two or more
    pull = (((seat & 1) == (bidder & 1)) & (2 * trick_index < n_tricks) & two_trumps
            & trumps_unseen & (not opp_trump_void))
    my_trumps = legal & trump_block
    top = masters(my_trumps, unseen)
    # L2: side-suit masters, not in a suit an opponent has shown out of while trumps are out
    side = legal & ~trump_block
    shown = ((voids >> (4 * opp_a)) | (voids >> (4 * opp_b))) & 0xF
    cash = masters(side, unseen) & ~either(trumps_unseen, suit_blocks(shown), np.int64(0))
    # L3: the cheapest side card, in a suit the partner has shown out of while he may trump
    partner_suits = (voids >> (4 * partner)) & 0xF & ~(np.int64(1) << trump)
    ruff = either(bit_of(voids, 4 * partner + trump), np.int64(0),
                  side & suit_blocks(partner_suits))
    low = either(ruff != 0, ruff, either(side != 0, side, legal))
    high = either(pull, top, cash)
    use_high = either(pull, top != 0, cash != 0)
    cheap = either(pull, my_trumps, low)
    return either(use_high, high_rank_card(high), cheapest_card(cheap, trump_block, counters))


@njit(inline="always")
def heuristic_follow(legal, unseen, voids, seat, position, led, win_card, win_seat, wins, trump,
                     counters):
    """Rules F1-F3 of :func:`heuristic_card` (``position`` 1..3), without a branch. ``wins``: the
    cards that would take the trick from ``win_card`` (its suit's higher cards, and every trump
    when it is no trump: ``legal & wins`` are the cards that beat it). Each rule plays the
    cheapest card of a set (F1's smear, the cheapest non-trump counter, is that set's cheapest
    card), so selects pick the set and one :func:`cheapest_card` plays."""
    trump_block = np.int64(SUIT_MASK) << (6 * trump)
    trumps_unseen = (unseen & trump_block) != 0
    last = position == 3
    beat = legal & wins
    beaten = dominated(unseen)  # the card types an unseen card of their suit beats
    # The only opponent still to play is the next seat (at position 1 the partner plays last).
    # May he trump a side-suit card? Shown out of the led suit, not shown out of trump.
    next_seat = (seat + 1) & 3
    next_may_ruff = (trumps_unseen & bit_of(voids, 4 * next_seat + led)
                     & (not bit_of(voids, 4 * next_seat + trump)))
    # F1: partner holds the trick safely: smear a side counter, else the cheapest card
    win_is_trump = bit_of(trump_block, win_card)
    safe = last | ((not bit_of(beaten, win_card)) & (win_is_trump | (not next_may_ruff)))
    smear = legal & counters & ~trump_block
    f1 = (win_seat == (seat ^ 2)) & safe
    # F2: beat it, last cheaply, else only with a safe master
    safe_beat = beat & ~beaten & either(next_may_ruff, trump_block, np.int64(-1))
    f2 = either(last, beat, either(safe_beat != 0, safe_beat, legal))
    # F3: the cheapest legal card
    chosen = either(f1, either(smear != 0, smear, legal), either(beat != 0, f2, legal))
    return cheapest_card(chosen, trump_block, counters)
