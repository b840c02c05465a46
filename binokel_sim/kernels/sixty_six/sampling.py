"""Sixty-six's sampling policy (policy 3, docs/rules.md "Sixty-six", "Sampling policy"): at each
decision the heuristic would make by rule (the exchange, closing, the card led or followed), the
seat deals the cards it has not seen uniformly at random, consistently with what it has seen,
``samples`` times; on each deal it plays every candidate and the rest of the deal with the
heuristic on both seats (:func:`rollout`), and it chooses the candidate with the most game points
over the samples (its own minus its opponent's), the best count difference on a tie, the
heuristic's choice on a tie of both. The announcement and the claim stay the heuristic's (every
marriage led is announced; a claim exactly at 66).

Named bundles (``collections.namedtuple``, typed and cached by numba):

``Finder``, a block's working arrays for the sampling seats and what the table knows:

- ``pool`` uint64 (24,): the cards the deciding seat has not seen, shuffled in place;
- ``totals`` int64 (2, 6): per candidate the game points and the count difference summed;
- ``world``: a ``SixtySixScratch`` (hands, stock, tally) holding one sampled deal;
- ``play``: a ``SixtySixScratch`` a play-out consumes;
- ``shown`` int64 (2,): per seat the cards the table has seen go into its hand (the turned trump
  taken by an exchange or drawn last, the other card of a marriage announced); those played
  since are taken off when read (``gone``);
- ``excluded`` int64 (2,): per seat the cards the table knows it does not hold, from its
  follows in strict play (void in the led suit: none of it, nor of trump if it did not trump;
  a card of the led suit under the lead: none of the suit above the lead). Strict play has no
  draws, so what is excluded stays so.

``Position``, the deal's state at the decision (int64 scalars; ``hands``, ``stock`` and
``tally`` are the deal's arrays, passed beside it):

- ``seat``: the deciding seat; ``trump``: the trump suit;
- ``leader``: the trick's leader; ``led``: the card led (-1 before the lead);
- ``left``: the cards still in the stock (its bottom, ``stock[11]``, is face up: the turned trump,
  or the nine exchanged for it); ``closed``: 1 once it is closed; ``closer`` (-1 none) and
  ``at_close``: the closer and his opponent's tricks when it was closed;
- ``gone``: the cards of the finished tricks.

The phases of a turn (``phase``): ``EXCHANGE``, ``CLOSE``, ``LEAD`` (the leader's, in this
order) and ``FOLLOW``. The random stream: a decision with one candidate reads nothing; with two
or more, each sample is one partial Fisher-Yates (``deal.deal_sum``) of the unseen cards in
ascending order: while the stock is open every position but the last (the other hand is the
first cards, the stock's hidden part the rest, top first), in strict play as many positions as
the other hand has hidden cards (the stock's order no longer matters). When only one deal is
consistent (the stock exhausted, or a closed stock whose hidden cards are all known to lie in it)
one play-out a candidate decides, with no draw.
"""

from collections import namedtuple

import numpy as np

from binokel_sim.kernels.bits import lowest_bit, popcount
from binokel_sim.kernels.deal import deal_sum
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.play import beaters, suit_block
from binokel_sim.kernels.sixty_six.heuristic import (
    heuristic_closes,
    heuristic_follow,
    heuristic_lead,
)
from binokel_sim.kernels.sixty_six.rules import (
    STOCK,
    announces,
    bit,
    claim_outcome,
    count_of,
    legal_follow,
    may_close,
    may_exchange,
    takes,
    unclaimed_outcome,
)

EXCHANGE, CLOSE, LEAD, FOLLOW = range(4)
ALL_CARDS = (1 << 24) - 1
MAX_CANDIDATES = 6

Finder = namedtuple("Finder", ["pool", "totals", "world", "play", "shown", "excluded"])
Position = namedtuple("Position", ["seat", "trump", "leader", "led", "left", "closed", "closer",
                                   "at_close", "gone"])


@njit
def partner(card):
    """The other card of the marriage whose king or queen ``card`` is (Q and K are ranks 2, 3)."""
    return card + 1 if card % 6 == 2 else card - 1


@njit
def excluded_by(follow, led, trump):
    """What a strict-play follow of ``follow`` to ``led`` tells of the follower's hand: the cards
    it cannot hold (``Finder.excluded``)."""
    if follow // 6 != led // 6:
        out = suit_block(led // 6)
        if follow // 6 != trump:
            out |= suit_block(trump)
        return out
    if not takes(follow, led, trump):
        return beaters(led)
    return np.int64(0)


@njit
def rollout(table, pos, world, play, phase, choice):
    """Play the deal of ``world`` (a ``SixtySixScratch``: hands, stock, tally; copied into
    ``play``) on from ``pos`` at ``phase`` with the heuristic on both seats, the decision of
    ``phase`` taken as ``choice`` (1/0 for the exchange and closing, the card for the lead and
    the follow). Returns ``pos.seat``'s game points (minus if the other seat scores) and its
    count less the other's at the end."""
    knobs = table.knobs
    card_points = table.card_points
    hands, stock, tally = play.hands, play.stock, play.tally
    hands[0] = world.hands[0]
    hands[1] = world.hands[1]
    for j in range(STOCK):
        stock[j] = world.stock[j]
    tally[:, :] = world.tally
    won = tally[2]
    trump = pos.trump
    nine = trump * 6 + table.exchange_rank
    left, closed, closer, at_close = pos.left, pos.closed != 0, pos.closer, pos.at_close
    gone, leader, led = pos.gone, pos.leader, pos.led
    step = phase
    forced = choice
    winner = leader
    claimant = -1
    while True:
        me = leader
        other = 1 - me
        if step != FOLLOW:
            hand = hands[me]
            if step == EXCHANGE and may_exchange(hand, nine, won[me], left, closed):
                if forced != 0:
                    hand = (hand & ~bit(nine)) | bit(stock[STOCK - 1])
                    stock[STOCK - 1] = nine
            if step <= CLOSE and may_close(left, closed):
                if step == CLOSE and forced >= 0:
                    yes = forced == 1
                else:
                    yes = heuristic_closes(
                        hand, gone, trump, count_of(tally[0, me], tally[1, me], won[me]),
                        won[me], card_points, table.claim + knobs.close_margin)
                if yes:
                    closed = True
                    closer = me
                    at_close = won[other]
            strict = closed or left == 0
            if step == LEAD and forced >= 0:
                led = forced
            else:
                led = heuristic_lead(hand, gone, trump, strict)
            if announces(hand, led):
                tally[1, me] += table.trump_marriage if led // 6 == trump else table.marriage
                if won[me] > 0 and count_of(tally[0, me], tally[1, me], won[me]) >= table.claim:
                    claimant = me
                    break
            hands[me] = hand & ~bit(led)
        strict = closed or left == 0
        hand = hands[other]
        if step == FOLLOW:
            follow = forced
        else:
            follow = heuristic_follow(table, hand, led, trump, strict, tally[0, other],
                                      tally[1, other])
        hands[other] = hand & ~bit(follow)
        winner = other if takes(follow, led, trump) else me
        gone |= bit(led) | bit(follow)
        tally[0, winner] += card_points[led] + card_points[follow]
        won[winner] += 1
        if not closed and left > 0:
            hands[winner] |= bit(stock[STOCK - left])
            hands[1 - winner] |= bit(stock[STOCK - left + 1])
            left -= 2
        if hands[0] == 0 and hands[1] == 0 and not closed:
            tally[0, winner] += table.last_trick
        if count_of(tally[0, winner], tally[1, winner], won[winner]) >= table.claim:
            claimant = winner
            break
        leader = winner
        step = EXCHANGE
        forced = -1
        if hands[leader] == 0:
            break
    counts = (count_of(tally[0, 0], tally[1, 0], won[0]),
              count_of(tally[0, 1], tally[1, 1], won[1]))
    if claimant >= 0:
        seat, points, _ = claim_outcome(table.claim, claimant, counts, won)
    else:
        seat, points, _ = unclaimed_outcome(closer, at_close, winner)
    me = pos.seat
    return (points if seat == me else -points), counts[me] - counts[1 - me]


@njit
def candidates(table, pos, hands, tally, phase, out):
    """The decision's candidates into ``out``, the heuristic's first (the rest ascending: card
    types, or the other answer); returns how many."""
    seat = pos.seat
    hand = hands[seat]
    trump = pos.trump
    if phase == EXCHANGE:
        out[0] = 1
        out[1] = 0
        return 2
    if phase == CLOSE:
        won = tally[2, seat]
        yes = heuristic_closes(hand, pos.gone, trump,
                               count_of(tally[0, seat], tally[1, seat], won), won,
                               table.card_points, table.claim + table.knobs.close_margin)
        out[0] = 1 if yes else 0
        out[1] = 1 - out[0]
        return 2
    strict = pos.closed != 0 or pos.left == 0
    if phase == LEAD:
        legal = hand
        first = heuristic_lead(hand, pos.gone, trump, strict)
    else:
        legal = legal_follow(hand, pos.led, trump, strict)
        first = heuristic_follow(table, hand, pos.led, trump, strict, tally[0, seat],
                                 tally[1, seat])
    out[0] = first
    n = 1
    for c in range(24):
        if c != first and ((legal >> c) & 1) != 0:
            out[n] = c
            n += 1
    return n


@njit
def choose(table, samples, finder, pos, hands, stock, tally, phase, rng):
    """The sampling seat ``pos.seat``'s choice at ``phase`` of the deal in ``hands``, ``stock``
    and ``tally`` (module docstring), ``samples`` deals a decision; what the table knows is in
    ``finder`` (``shown``, ``excluded``). It reads of the deal only what the seat has seen: its
    hand, the cards played, the stock's face-up bottom and the numbers of cards. ``rng``: the
    random state ``(s0, s1, s2, s3)``. Returns ``(choice, s0, s1, s2, s3)``."""
    s0, s1, s2, s3 = rng
    cands = np.empty(MAX_CANDIDATES, dtype=np.int64)
    n = candidates(table, pos, hands, tally, phase, cands)
    if n == 1:
        return cands[0], s0, s1, s2, s3
    seat = pos.seat
    other = 1 - seat
    hand = hands[seat]
    led = bit(pos.led) if pos.led >= 0 else np.int64(0)
    known = finder.shown[other] & ~pos.gone & ~led
    bottom = bit(stock[STOCK - 1]) if pos.left > 0 else np.int64(0)
    unseen = np.int64(ALL_CARDS) & ~hand & ~pos.gone & ~led & ~known & ~bottom
    strict = pos.closed != 0 or pos.left == 0
    pool_mask = unseen & ~finder.excluded[other] if strict else unseen
    hidden = popcount(hands[other]) - popcount(known)  # the other hand's cards not known
    size = popcount(pool_mask)
    determined = (hidden == size or hidden == 0) if strict else size <= 1
    rounds = 1 if determined else samples
    shuffled = hidden if strict else size - 1
    world = finder.world
    world.tally[:, :] = tally
    world.hands[seat] = hand
    world.stock[STOCK - 1] = stock[STOCK - 1]
    totals = finder.totals
    totals[:, :] = 0
    pool = finder.pool
    for _ in range(rounds):
        m = pool_mask
        j = 0
        while m:
            pool[j] = np.uint64(lowest_bit(m))
            m &= m - 1
            j += 1
        if not determined:
            _, s0, s1, s2, s3 = deal_sum(pool[:size], shuffled, s0, s1, s2, s3)
        theirs = known
        for j in range(hidden):
            theirs |= bit(np.int64(pool[j]))
        world.hands[other] = theirs
        if not strict:
            for j in range(pos.left - 1):
                world.stock[STOCK - pos.left + j] = np.int64(pool[hidden + j])
        for c in range(n):
            points, diff = rollout(table, pos, world, finder.play, phase, cands[c])
            totals[0, c] += points
            totals[1, c] += diff
    best = 0
    for c in range(1, n):
        if totals[0, c] > totals[0, best] or (totals[0, c] == totals[0, best]
                                              and totals[1, c] > totals[1, best]):
            best = c
    return cands[best], s0, s1, s2, s3
