"""Block driver of the partner-meld table (four-hand-80 style games): what the partner
melds, given one's own meld and the length of the trump one names.

Each deal is laid out exactly as the whole-deal kernels lay it out (``deal_seats``: seats 0-2 by
partial shuffles, seat 3 the rest). Seat 0 names a trump: the suit with its highest meld total
among the suits it may name (``trump_need``: a marriage), the first in S H D C order on a tie
(the ``best_trump`` of ``analyze``). Its own meld is its total with that trump, the trump's
length its number of cards in that suit, and its partner (seat 2) melds with the same trump.
A hand that may name no suit names no trump; it is only counted by its own meld (its best total;
in four-hand-80 such a hand holds no trump-dependent meld, so every trump gives the same).
The pure-Python twin is :mod:`binokel_sim.reference.partner`.
"""

import numpy as np

from binokel_sim.kernels.bits import SUIT_MASK, count_in
from binokel_sim.kernels.deal import block_start, deal_seats
from binokel_sim.kernels.melds import may_name, score_hand
from binokel_sim.kernels.options import njit

PARTNER_SEAT = 2  # seat 0's partner (partnerships 0+2 and 1+3)


@njit
def named_trump(p0, trump_need, totals):
    """The suit a hand names: the highest of ``totals`` (its meld with each trump) among the
    suits it may name, the first on a tie; -1 when it may name none."""
    best = -1
    for s in range(4):
        if may_name(p0, s, trump_need) and (best < 0 or totals[s] > totals[best]):
            best = s
    return best


@njit
def meld_class(value, edges):
    """Index of the class ``[edges[i], edges[i+1])`` holding ``value`` (the last class is open)."""
    c = 0
    while c + 1 < edges.shape[0] and value >= edges[c + 1]:
        c += 1
    return c


@njit
def partner_meld_blocks(deck, hand_size, kt, trump_need, own_edges, seed, first_block,
                        block_size, n_deals, hist, no_trump, share):
    """Deal ``n_deals`` deals and histogram seat 0's meld class, trump length and partner meld.

    Block ``b`` (deals ``b*block_size`` on) reads stream ``first_block + b`` and writes only its
    own slots: ``hist[b, c, L, v]`` (int64 (n_blocks, len(own_edges), hand_size + 1,
    max_total + 1)) counts deals where seat 0 names a trump, its meld with it is in class ``c``
    (``own_edges``: ascending lower bounds, the first 0), it holds ``L`` cards of that suit and
    its partner's meld with that trump is ``v``; ``no_trump[b, c]`` (int64 (n_blocks,
    len(own_edges))) counts deals where seat 0 may name no suit, by its own meld class (its best
    total over the four suits; in four-hand-80 the same for every suit).
    ``share``: this call's blocks, ``share[0] <= b < share[1]`` (one thread's share,
    ``binokel_sim.simulate.spread_blocks``).
    """
    n_seats = deck.shape[0] // hand_size
    for b in range(share[0], share[1]):
        state, work = block_start(deck, seed, first_block + b)
        hands = np.empty((n_seats, 4), dtype=np.uint32)
        totals = np.empty(4, dtype=np.int64)
        partner = np.empty(4, dtype=np.int64)
        stop = min(n_deals, (b + 1) * block_size)
        for _ in range(b * block_size, stop):
            deal_seats(work, 0, hand_size, state, hands)
            p0, p1, p2, p3 = hands[0, 0], hands[0, 1], hands[0, 2], hands[0, 3]
            score_hand(p0, p1, p2, p3, kt, totals)
            trump = named_trump(p0, trump_need, totals)
            if trump < 0:
                no_trump[b, meld_class(max(max(totals[0], totals[1]), max(totals[2], totals[3])),
                                       own_edges)] += 1
                continue
            score_hand(hands[PARTNER_SEAT, 0], hands[PARTNER_SEAT, 1], hands[PARTNER_SEAT, 2],
                       hands[PARTNER_SEAT, 3], kt, partner)
            trumps_held = count_in(p0, p1, p2, p3, np.int64(SUIT_MASK) << (6 * trump))
            hist[b, meld_class(totals[trump], own_edges), trumps_held, partner[trump]] += 1
