"""Bidding kernels: the ladder, the heuristic bid limit and the auction (four-hand-80).

Contract: SPEC.md, four-hand-80 "Bidding". The ladder arrives as an int64 array ``(rungs, 2)`` of
``[from, step]`` (``Tables.ladder``). The bidding heuristic is documented in docs/rules.md
("Bidding heuristic"), its fitted model in :mod:`binokel_sim.pair_value`, and it is mirrored in
:mod:`binokel_sim.reference.play`.
"""

import numpy as np

from binokel_sim.constants import NO_BID
from binokel_sim.kernels.bits import ACES, SUIT_MASK, TENS, count_in
from binokel_sim.kernels.melds import may_name, score_hand
from binokel_sim.kernels.options import njit
from binokel_sim.pair_value import SCALE

__all__ = ["NO_BID", "auction", "behind_partner", "bid_limit", "limit_of", "next_bid"]

@njit
def next_bid(ladder, current):
    """The smallest legal bid above ``current`` (``NO_BID``: the minimum bid)."""
    if current < 0:
        return ladder[0, 0]
    candidate = current + 1
    for i in range(ladder.shape[0] - 1, -1, -1):
        if candidate >= ladder[i, 0]:
            offset = (candidate - ladder[i, 0]) % ladder[i, 1]
            bid = candidate if offset == 0 else candidate + ladder[i, 1] - offset
            # never past the start of the next rung, which is always a legal bid
            return min(bid, ladder[i + 1, 0]) if i + 1 < ladder.shape[0] else bid
    return candidate


@njit
def bid_limit(p0, p1, p2, p3, kt, trump_need, totals, play_w, bid_table):
    """The highest bid the heuristic makes with this hand, and the trump it would name
    (:func:`limit_of`). Uses ``totals`` (int64 (4,)) as scratch and leaves the hand's meld totals
    per trump in it."""
    score_hand(p0, p1, p2, p3, kt, totals)
    return limit_of(p0, p1, p2, p3, totals, trump_need, play_w, bid_table)


@njit
def limit_of(p0, p1, p2, p3, totals, trump_need, play_w, bid_table):
    """The heuristic's bid limit and trump (docs/rules.md, "Bidding heuristic";
    :mod:`binokel_sim.pair_value`) from the hand's meld totals per trump (``totals``, as
    ``score_hand`` leaves them).

    For each suit the hand may name: its play estimate with that trump (the integer weights
    ``play_w`` of ``pair_value.weights`` over the counts of ``pair_value.FEATURES``, in whole
    points, clamped to the table's columns) and its meld with it (clamped to the table's rows)
    look up the limit in ``bid_table`` (``pair_value.limit_table``). The suit with the highest
    limit wins, on a tie the one with more meld + play estimate, then the first. Returns
    ``(limit, trump)``: ``limit`` is ``NO_BID`` when the table says pass, and ``(NO_BID, -1)``
    for a hand that may name no suit."""
    aces = count_in(p0, p1, p2, p3, ACES)
    tens = count_in(p0, p1, p2, p3, TENS)
    lengths = (count_in(p0, p1, p2, p3, SUIT_MASK), count_in(p0, p1, p2, p3, SUIT_MASK << 6),
               count_in(p0, p1, p2, p3, SUIT_MASK << 12),
               count_in(p0, p1, p2, p3, SUIT_MASK << 18))
    empty = (np.int64(lengths[0] == 0) + np.int64(lengths[1] == 0)
             + np.int64(lengths[2] == 0) + np.int64(lengths[3] == 0))  # the void suits
    best = NO_BID
    best_sum = np.int64(-1)
    trump = -1
    for s in range(4):
        if not may_name(p0, s, trump_need):
            continue
        high = np.int64(ACES | TENS) & (np.int64(SUIT_MASK) << (6 * s))
        plain_voids = empty - np.int64(lengths[s] == 0)
        play = (play_w[0] + play_w[1] * lengths[s] + play_w[2] * aces + play_w[3] * tens
                + play_w[4] * count_in(p0, p1, p2, p3, high) + play_w[5] * plain_voids) // SCALE
        play = min(max(play, 0), bid_table.shape[1] - 1)
        meld = min(totals[s], bid_table.shape[0] - 1)
        limit = bid_table[meld, play]
        if trump < 0 or limit > best or (limit == best and meld + play > best_sum):
            best = limit
            best_sum = meld + play
            trump = s
    return best, trump


@njit(inline="always")
def behind_partner(seat, offer, limit, holder, active, margin):
    """Whether a seat of a partnership game (sides: seats of one parity) passes although
    ``offer`` is within its ``limit`` because its partner holds the standing bid
    (docs/rules.md, *Expert bidding*): with ``margin`` > 0, when no opponent is still in
    (``active``), or its limit is less than ``margin`` points above the offer; never with
    ``margin`` 0 (the plain ladder) or when the ``holder`` is no partner."""
    if margin <= 0 or holder < 0 or holder == seat or (holder & 1) != (seat & 1):
        return False
    for other in range(active.shape[0]):
        if (other & 1) != (seat & 1) and active[other]:
            return limit < offer + margin
    return True


@njit
def auction(limits, dealer, ladder, bid_seats, bid_values, margins):
    """Run the auction; returns ``(bidder, bid, n_calls)``.

    Starting left of the dealer, each player still in bids the smallest legal bid above the
    current one if it is within his ``limits[seat]`` (int64 (4,)) and :func:`behind_partner`
    does not hold him back (``margins`` int64 (4,), each seat's ``bid_partner``: 0 for the
    heuristic), else passes for good; the auction ends when one player remains. If the first
    three players pass, the dealer plays at the minimum bid. Writes the calls in order to
    ``bid_seats`` / ``bid_values`` (int64, a pass is ``NO_BID``), stopping at their length.
    """
    active = np.ones(4, dtype=np.bool_)
    n_active = 4
    current = NO_BID
    holder = -1
    seat = (dealer + 1) & 3
    n_calls = 0
    while n_active > 1:
        if active[seat]:
            offer = next_bid(ladder, current)
            call = offer if offer <= limits[seat] else NO_BID
            if call != NO_BID and behind_partner(seat, offer, limits[seat], holder, active,
                                                 margins[seat]):
                call = NO_BID
            if call == NO_BID:
                active[seat] = False
                n_active -= 1
            else:
                current = call
                holder = seat
            if n_calls < bid_seats.shape[0]:
                bid_seats[n_calls] = seat
                bid_values[n_calls] = call
            n_calls += 1
        seat = (seat + 1) & 3
    if holder < 0:  # the first three passed: the dealer plays at the minimum
        return dealer, ladder[0, 0], n_calls
    return holder, current, n_calls
