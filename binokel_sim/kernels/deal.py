"""Dealing kernels: partial Fisher-Yates shuffles straight into bit planes.

Deal ``d`` of a run reads the random stream of block ``d // block_size`` (see
:mod:`binokel_sim.kernels.random`), and a block shuffles its own copy of the deck, carrying the
permutation from one deal to the next (a uniform permutation of any arrangement is uniform).
A hand in flight is four uint32 scalars ``p0..p3`` (the bit planes), kept in registers.

The draws: position ``i`` of a deck of ``n`` cards swaps with ``i + j``, ``j`` uniform in
``[0, n - i)`` from 16 random bits (:func:`~binokel_sim.kernels.random.bounded16`); each 64-bit
output serves four positions, its top 16 bits the first, and a shuffle that stops inside an
output leaves the rest of it unused. Positions and draws are unsigned integers, so indexing the
deck needs no negative-index fix-up. ``reference.deal_hand`` is the pure-Python twin.
"""

import numpy as np

from binokel_sim.kernels.options import njit
from binokel_sim.kernels.random import MASK16, bounded16, seed_stream, xoshiro_step

# uint64 operands keep the draws' arithmetic in uint64 (meld_odds.py uses them too)
U16 = np.uint64(16)
U32 = np.uint64(32)
U48 = np.uint64(48)
ONE = np.uint64(1)
_TWO = np.uint64(2)
_THREE = np.uint64(3)
_FOUR = np.uint64(4)


@njit(inline="always")
def draw_card(work, i, bound, x16, s0, s1, s2, s3):
    """One Fisher-Yates step at position ``i`` (uint64) with ``bound = len(work) - i`` cards
    left: swap ``work[i]`` with a uniform ``work[i + j]`` (``j`` from the 16 bits ``x16``).
    Returns ``(the card now at i, s0, s1, s2, s3)``."""
    j, s0, s1, s2, s3 = bounded16(x16, bound, s0, s1, s2, s3)
    j += i
    card = work[j]
    displaced = work[i]
    work[i] = card
    work[j] = displaced  # both loads first: measured faster than load, store, load, store
    return card, s0, s1, s2, s3


@njit(inline="always")
def add_card(p0, p1, p2, p3, t):
    """Planes with one more copy of card type ``t``. Branch-free: plane k gains the bit exactly
    when plane k-1 already had it (update the top plane first)."""
    bit = np.uint32(1) << np.uint32(t)
    p3 |= p2 & bit
    p2 |= p1 & bit
    p1 |= p0 & bit
    p0 |= bit
    return p0, p1, p2, p3


@njit
def deal_planes(work, start, size, state):
    """Draw ``size`` cards from ``work[start:]`` (shuffled into ``work[start:start+size]``) and
    return their planes ``(p0, p1, p2, p3)``.

    Reads ``state`` (uint64[4], written back at the end): each 64-bit output serves four cards,
    the top 16 bits the first (module docstring).
    """
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    p0 = p1 = p2 = p3 = np.uint32(0)
    n = np.uint64(work.shape[0])
    i = np.uint64(start)
    end = np.uint64(start + size)
    while i + _FOUR <= end:
        r, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
        t, s0, s1, s2, s3 = draw_card(work, i, n - i, r >> U48, s0, s1, s2, s3)
        p0, p1, p2, p3 = add_card(p0, p1, p2, p3, t)
        t, s0, s1, s2, s3 = draw_card(work, i + ONE, n - i - ONE, (r >> U32) & MASK16,
                                      s0, s1, s2, s3)
        p0, p1, p2, p3 = add_card(p0, p1, p2, p3, t)
        t, s0, s1, s2, s3 = draw_card(work, i + _TWO, n - i - _TWO, (r >> U16) & MASK16,
                                      s0, s1, s2, s3)
        p0, p1, p2, p3 = add_card(p0, p1, p2, p3, t)
        t, s0, s1, s2, s3 = draw_card(work, i + _THREE, n - i - _THREE, r & MASK16,
                                      s0, s1, s2, s3)
        p0, p1, p2, p3 = add_card(p0, p1, p2, p3, t)
        i += _FOUR
    if i < end:  # one to three cards from one more output
        r, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
        while i < end:
            t, s0, s1, s2, s3 = draw_card(work, i, n - i, r >> U48, s0, s1, s2, s3)
            p0, p1, p2, p3 = add_card(p0, p1, p2, p3, t)
            r <<= U16
            i += ONE
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    return p0, p1, p2, p3


@njit(inline="always")
def deal_sum(work, size, s0, s1, s2, s3):
    """Draw ``size`` cards from ``work[0:]`` (uint64 card values) exactly as :func:`deal_planes`
    draws them and return the sum of their values: ``(sum, s0, s1, s2, s3)``.

    For a kernel that keeps the state in registers across a whole block and whose deck holds
    what each card adds to the hand (the meld kernel's packed suit pattern indices): one
    addition a card instead of four plane updates."""
    total = np.uint64(0)
    n = np.uint64(work.shape[0])
    end = np.uint64(size)
    i = np.uint64(0)
    while i + _FOUR <= end:
        r, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
        v, s0, s1, s2, s3 = draw_card(work, i, n - i, r >> U48, s0, s1, s2, s3)
        total += v
        v, s0, s1, s2, s3 = draw_card(work, i + ONE, n - i - ONE, (r >> U32) & MASK16,
                                      s0, s1, s2, s3)
        total += v
        v, s0, s1, s2, s3 = draw_card(work, i + _TWO, n - i - _TWO, (r >> U16) & MASK16,
                                      s0, s1, s2, s3)
        total += v
        v, s0, s1, s2, s3 = draw_card(work, i + _THREE, n - i - _THREE, r & MASK16,
                                      s0, s1, s2, s3)
        total += v
        i += _FOUR
    if i < end:
        r, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
        while i < end:
            v, s0, s1, s2, s3 = draw_card(work, i, n - i, r >> U48, s0, s1, s2, s3)
            total += v
            r <<= U16
            i += ONE
    return total, s0, s1, s2, s3


@njit
def deal_seats(work, first_seat, hand, state, hands):
    """Deal ``hand`` cards to each seat from ``first_seat`` to the last out of ``work`` (int64
    card types) into ``hands`` (uint32 (seats, 4)): partial shuffles for all but the last seat,
    which takes the cards left (no draw)."""
    n_seats = hands.shape[0] - first_seat
    for i in range(n_seats - 1):
        p0, p1, p2, p3 = deal_planes(work, i * hand, hand, state)
        hands[first_seat + i, 0] = p0
        hands[first_seat + i, 1] = p1
        hands[first_seat + i, 2] = p2
        hands[first_seat + i, 3] = p3
    q0 = q1 = q2 = q3 = np.uint32(0)
    for j in range((n_seats - 1) * hand, n_seats * hand):
        q0, q1, q2, q3 = add_card(q0, q1, q2, q3, work[j])
    last = hands.shape[0] - 1
    hands[last, 0] = q0
    hands[last, 1] = q1
    hands[last, 2] = q2
    hands[last, 3] = q3


@njit
def block_start(deck, seed, block):
    """What every block of a block driver starts from: its random stream ``(seed, block)``
    (uint64[4]) and its own copy of the deck to shuffle. Blocks never share either, which is what
    makes results independent of the thread count."""
    state = np.empty(4, dtype=np.uint64)
    seed_stream(state, seed, block)
    return state, deck.copy()


@njit
def deal_blocks(deck, hand_sizes, seed, first_block, block_size, out, share):
    """Deal ``out.shape[0]`` deals of ``len(hand_sizes)`` hands from ``deck`` (int64 card types).

    Writes ``out`` (uint32, shape (n_deals, n_hands, 4)): the bit planes of every hand. Deal ``d``
    reads the stream of block ``first_block + d // block_size``.
    ``share``: this call's blocks, ``share[0] <= b < share[1]`` (one thread's share,
    ``binokel_sim.simulate.spread_blocks``).
    """
    n_deals = out.shape[0]
    for b in range(share[0], share[1]):
        state, work = block_start(deck, seed, first_block + b)
        stop = min(n_deals, (b + 1) * block_size)
        for d in range(b * block_size, stop):
            start = 0
            for h in range(hand_sizes.shape[0]):
                p0, p1, p2, p3 = deal_planes(work, start, hand_sizes[h], state)
                out[d, h, 0] = p0
                out[d, h, 1] = p1
                out[d, h, 2] = p2
                out[d, h, 3] = p3
                start += hand_sizes[h]


@njit
def lay_out(work, first_seat, hand, hands, rest):
    """Read a shuffled deck off in order: seats ``first_seat .. P-1`` take consecutive hands of
    ``hand`` cards from ``work[0:]`` into ``hands`` (uint32 (P, 4)), and ``rest`` (int64) the
    cards after them, as many as it holds (a talon or a widow)."""
    pos = 0
    for s in range(first_seat, hands.shape[0]):
        q0 = q1 = q2 = q3 = np.uint32(0)
        for j in range(pos, pos + hand):
            q0, q1, q2, q3 = add_card(q0, q1, q2, q3, work[j])
        hands[s, 0] = q0
        hands[s, 1] = q1
        hands[s, 2] = q2
        hands[s, 3] = q3
        pos += hand
    for j in range(rest.shape[0]):
        rest[j] = work[pos + j]
