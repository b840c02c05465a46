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
from numba.core import types
from numba.extending import intrinsic

from binokel_sim.kernels.options import njit
from binokel_sim.kernels.random import below_scalar

POLICY_RANDOM = 0
POLICY_HEURISTIC = 1
POLICY_NAMES = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC}

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
    trump_block = np.int64(SUIT_MASK) << (6 * trump)
    partner = seat ^ 2
    opp_a = (seat + 1) & 3
    opp_b = (seat + 3) & 3
    trumps_unseen = (unseen & trump_block) != 0
    opp_trump_void = (((voids >> (4 * opp_a + trump)) & 1) != 0
                      and ((voids >> (4 * opp_b + trump)) & 1) != 0)
    # suits where some opponent has shown out (a side card led there may be trumped)
    opp_voids = ((voids >> (4 * opp_a)) | (voids >> (4 * opp_b))) & 0xF

    if position == 0:
        own_trumps = (popcount(np.int64(hand[0]) & trump_block)
                      + popcount(np.int64(hand[1]) & trump_block)
                      + popcount(np.int64(hand[2]) & trump_block)
                      + popcount(np.int64(hand[3]) & trump_block))
        my_trumps = legal & trump_block
        # L1
        if ((seat & 1) == (bidder & 1) and 2 * trick_index < n_tricks and own_trumps >= 2
                and trumps_unseen and not opp_trump_void):
            top = masters(my_trumps, unseen)
            if top:
                return highest_rank(top)
            return cheapest(my_trumps, trump_block, counters)
        # L2
        side = legal & ~trump_block
        cash = masters(side, unseen)
        if cash and trumps_unseen:
            for s in range(4):
                if (opp_voids >> s) & 1:
                    cash &= ~(np.int64(SUIT_MASK) << (6 * s))
        if cash:
            return highest_rank(cash)
        # L3
        if side:
            partner_trumps = ((voids >> (4 * partner + trump)) & 1) == 0
            if partner_trumps:
                ruff = np.int64(0)
                for s in range(4):
                    if s != trump and (voids >> (4 * partner + s)) & 1:
                        ruff |= side & (np.int64(SUIT_MASK) << (6 * s))
                if ruff:
                    return cheapest(ruff, trump_block, counters)
            return cheapest(side, trump_block, counters)
        return cheapest(legal, trump_block, counters)

    last = position == 3
    led_block = np.int64(SUIT_MASK) << (6 * led)
    win_is_trump = win_card // 6 == trump
    # legal cards that would take the lead from win_card
    if win_is_trump:
        beat = legal & trump_block & above(win_card)
    else:
        beat = legal & (trump_block | (led_block & above(win_card)))
    # The only opponent still to play is the next seat (at position 1 the partner plays last).
    # May he trump a side-suit card? Shown out of the led suit, not shown out of trump.
    next_seat = (seat + 1) & 3
    next_may_ruff = (trumps_unseen and ((voids >> (4 * next_seat + led)) & 1) != 0
                     and ((voids >> (4 * next_seat + trump)) & 1) == 0)
    if win_seat == partner:
        safe = last
        if not safe:
            w = np.int64(1) << win_card
            safe = (masters(w, unseen) != 0) and (win_is_trump or not next_may_ruff)
        if safe:  # F1
            smear = legal & counters & ~trump_block
            if smear:
                return lowest_rank(smear)
            return cheapest(legal, trump_block, counters)
    # F2
    if beat:
        if last:
            return cheapest(beat, trump_block, counters)
        safe_beat = masters(beat, unseen)
        if next_may_ruff:
            safe_beat &= trump_block  # a side-suit master would be trumped
        if safe_beat:
            return cheapest(safe_beat, trump_block, counters)
    # F3
    return cheapest(legal, trump_block, counters)
