"""Trick play of the partnership family on bit planes: legal cards, trick winner, a full
play-out, deal scoring, and the play-out block driver (the helpers every family shares are in
:mod:`binokel_sim.kernels.play`). Contract: SPEC.md "Common to all variants" (must-head obligation,
trick winner) and "Variant four-hand-80" (play, scoring).

Masks are int64 holding a 24-bit set of card types (bit ``suit * 6 + rank``, ranks in trick
order), so "a higher card of suit s" is "a higher bit inside s's six-bit block". Hands are bit
planes (uint32[4], thermometer code, see :mod:`binokel_sim.cards`); cards are removed in place.
"""

from collections import namedtuple

import numpy as np

from binokel_sim.kernels.bits import either, popcount
from binokel_sim.kernels.deal import block_start, deal_seats
from binokel_sim.kernels.melds import may_name, score_hand
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.partnership.heuristic import (
    HEURISTIC_PTUNE,
    N_PTUNE,
    heuristic_follow,
    heuristic_lead,
    note_follow,
)
from binokel_sim.kernels.play import (
    WINS_OVER,
    beaters,
    card_key,
    legal_under,
    suit_block,
)
from binokel_sim.kernels.policies import POLICY_EXPERT, POLICY_RANDOM, random_pick

N_SEATS = 4


@njit
def trick_winner(trick_cards, n, trump):
    """Index in play order (0..n-1) of the card winning ``trick_cards[:n]`` (int64 card types)."""
    led_block = suit_block(trick_cards[0] // 6)
    trump_block = suit_block(trump)
    win = 0
    best = card_key(trick_cards[0], led_block, trump_block)
    for i in range(1, n):
        key = card_key(trick_cards[i], led_block, trump_block)
        if key > best:
            best = key
            win = i
    return win


@njit
def legal_mask(p0, led_suit, trump, trick_cards, n_played):
    """Legal card types (int64 24-bit mask) for a hand whose presence plane is ``p0`` under the
    must-head obligation. ``trick_cards`` (int64, at least ``n_played`` entries) holds the card
    types already in the trick in play order; ``led_suit`` is their first card's suit (ignored
    when ``n_played == 0``: the leader may play any card)."""
    if n_played == 0:
        return np.int64(p0)
    win_card = trick_cards[trick_winner(trick_cards, n_played, trump)]
    return legal_under(p0, suit_block(led_suit), suit_block(trump), beaters(win_card))


@njit
def playout(hands, leader, trump, seat_policies, knobs, state, card_points, last_trick,
            trick_cards, trick_leaders, trick_winners):
    """Play every trick of one deal and return the play points ``(pair 0+2, pair 1+3)``.

    ``hands`` uint32 (4, 4): the bit planes of seats 0..3, all of equal size (20 cards in
    four-hand-80); consumed in place (all zero afterwards). ``leader``: the bid winner, who leads
    the first trick (SPEC.md line 49); his partnership is the bidding side the heuristic knows.
    ``trump``: suit 0..3. ``seat_policies`` int64 (4,): policy id of each seat
    (:mod:`binokel_sim.kernels.policies`); ``knobs`` int64 (4, N_PTUNE): each seat's knob row
    (:func:`seat_knobs`: the heuristic's or the expert's). ``state`` uint64[4]: the random
    stream; only the random policy reads it, one bounded draw (``below_scalar``) per card when
    ``n >= 2`` distinct card types are legal. ``card_points`` int64 (24,) and ``last_trick``
    from the variant's tables.

    Writes, for trick ``k``: ``trick_cards[k, i]`` (int64 (n_tricks, 4)) the card type played
    ``i``-th (by seat ``(trick_leaders[k] + i) % 4``), ``trick_leaders[k]`` and
    ``trick_winners[k]`` (int64 (n_tricks,)) the seats leading and winning it. The last trick's
    winner's pair gets ``last_trick`` on top of its counters (SPEC.md line 81).
    """
    _, heuristic_seats = play_mode(seat_policies)
    play0, play1, stream = playout_recorded(
        hands.reshape(hands.size), leader, trump, heuristic_seats,
        (state[0], state[1], state[2], state[3]),
        PlayTable(card_points, last_trick, counter_mask(card_points), knobs),
        Tricks(trick_cards, trick_leaders, trick_winners))
    state[0], state[1], state[2], state[3] = stream
    return play0, play1


# --- the fast play-outs ---------------------------------------------------------------------
#
# One loop body (play_tricks) compiled into a few specialised functions: ``mode`` and ``record``
# are constants of each one, so the compiler drops what that function never needs (a random-only
# play-out has no policy test, no void tracking and no unseen cards; without records, no trick
# is written). They play the same cards from the same stream as :func:`playout`. The four hands
# travel as one flat uint32 array of 16 planes (seat s: ``flat[4s .. 4s+3]``): an index is then
# a shift, not a multiplication by the array's row stride.
#
# The bundles they pass (issue 51: named fields, not positions):
# - ``PlayTable``: what a play-out reads and never changes: ``card_points`` int64 (24,),
#   ``last_trick`` (the last trick's bonus), ``counters`` (:func:`counter_mask`) and ``knobs``
#   int64 (4, N_PTUNE), each seat's knob row (:func:`seat_knobs`).
# - ``Tricks``: the records a play-out writes, ``cards`` int64 (n_tricks, 4) in play order,
#   ``leaders`` and ``winners`` int64 (n_tricks,) (:func:`playout`).
# - ``Trick``: the trick in play, as :func:`follow_card` moves it on: ``leader``, ``trump``,
#   ``trump_block`` (trump's 6-bit block), ``wins_row`` (trump's row of :data:`WINS_OVER`),
#   ``led`` (the led suit) and ``led_block``, ``wins`` (the cards that would take the trick),
#   ``win_card`` and ``win_seat`` (holding it), ``points`` (its card points so far).
# - the random stream: a tuple ``(s0, s1, s2, s3)`` of uint64, in and out (only the random
#   policy reads it).

PlayTable = namedtuple("PlayTable", ["card_points", "last_trick", "counters", "knobs"])
Tricks = namedtuple("Tricks", ["cards", "leaders", "winners"])
Trick = namedtuple("Trick", ["leader", "trump", "trump_block", "wins_row", "led", "led_block",
                             "wins", "win_card", "win_seat", "points"])

PLAY_RANDOM = 0  # every seat plays the random policy
PLAY_HEURISTIC = 1  # every seat plays the heuristic
PLAY_MIXED = 2  # each seat its own policy (``heuristic_seats``: bit s set for a heuristic seat)
PLAY_EXPERT = 3  # no random seat, an expert among them: every seat reads its knob row


@njit
def counter_mask(card_points):
    """The card types worth points (int64 mask): the heuristic's ``counters``."""
    counters = np.int64(0)
    for t in range(card_points.shape[0]):
        if card_points[t] > 0:
            counters |= np.int64(1) << t
    return counters


@njit
def seat_knobs(seat_policies, tune):
    """Each seat's knob row (int64 (4, N_PTUNE)) for the heuristic card player: ``tune`` int64
    (2, N_PTUNE) holds the heuristic's row and the expert's
    (``PartnershipTable.tune``); an expert seat gets the expert's, every other seat
    the heuristic's (read only by the heuristic and the expert)."""
    knobs = np.empty((N_SEATS, tune.shape[1]), dtype=np.int64)
    for seat in range(N_SEATS):
        row = 1 if seat_policies[seat] == POLICY_EXPERT else 0
        for i in range(tune.shape[1]):  # a loop: a row copy compiles numba's broadcasting (3 s)
            knobs[seat, i] = tune[row, i]
    return knobs


@njit
def heuristic_knobs():
    """:data:`~binokel_sim.kernels.partnership.heuristic.HEURISTIC_PTUNE` on every seat: the
    knobs of the sampling policy's play-outs, which play the heuristic."""
    knobs = np.empty((N_SEATS, N_PTUNE), dtype=np.int64)
    for seat in range(N_SEATS):
        for i in range(N_PTUNE):
            knobs[seat, i] = HEURISTIC_PTUNE[i]
    return knobs


@njit
def play_mode(seat_policies):
    """``(mode, heuristic_seats)`` of a policy per seat: PLAY_RANDOM, PLAY_HEURISTIC or
    PLAY_MIXED, and the heuristic seats as bits (the expert is the heuristic with its own knobs:
    :func:`seat_knobs`)."""
    heuristic_seats = 0
    expert = False
    for seat in range(N_SEATS):
        if seat_policies[seat] != POLICY_RANDOM:
            heuristic_seats |= 1 << seat
        expert |= seat_policies[seat] == POLICY_EXPERT
    if heuristic_seats == 0:
        return PLAY_RANDOM, heuristic_seats
    if heuristic_seats == (1 << N_SEATS) - 1:
        return (PLAY_EXPERT if expert else PLAY_HEURISTIC), heuristic_seats
    return PLAY_MIXED, heuristic_seats


@njit(inline="always")
def take_card(flat, row, t):
    """:func:`~binokel_sim.kernels.play.remove_card` on flat planes: one copy of ``t`` out of
    ``flat[row .. row + 3]``."""
    bit = np.int64(1) << t
    keep = ~bit
    q0 = np.int64(flat[row])
    q1 = np.int64(flat[row + 1])
    q2 = np.int64(flat[row + 2])
    q3 = np.int64(flat[row + 3])
    flat[row] = np.uint32((q0 & keep) | (q1 & bit))
    flat[row + 1] = np.uint32((q1 & keep) | (q2 & bit))
    flat[row + 2] = np.uint32((q2 & keep) | (q3 & bit))
    flat[row + 3] = np.uint32(q3 & keep)


@njit(inline="always")
def others(flat, seat):
    """The card types held by the three seats other than ``seat`` (their union): what that seat
    has not seen (the heuristic's ``unseen``)."""
    return (np.int64(flat[4 * ((seat + 1) & 3)]) | np.int64(flat[4 * ((seat + 2) & 3)])
            | np.int64(flat[4 * ((seat + 3) & 3)]))


@njit(inline="always")
def lead_step(flat, seat, k, n_tricks, trump, bidder, voids, heuristic_seats, play, stream,
              mode):
    """The lead of trick ``k`` by ``seat``: its policy's card, taken out of its hand. Returns
    ``(card, stream)``."""
    row = 4 * seat
    h0 = np.int64(flat[row])
    if mode == PLAY_RANDOM or (mode == PLAY_MIXED and ((heuristic_seats >> seat) & 1) == 0):
        c, s0, s1, s2, s3 = random_pick(h0, stream[0], stream[1], stream[2], stream[3])
        stream = (s0, s1, s2, s3)
    else:
        c = heuristic_lead(h0, h0, flat[row + 1], flat[row + 2], flat[row + 3],
                           others(flat, seat), voids, seat, k, n_tricks, trump, bidder,
                           play.counters, play.knobs, mode == PLAY_HEURISTIC)
    take_card(flat, row, c)
    return c, stream


@njit(inline="always")
def follow_step(flat, seat, i, trick, voids, heuristic_seats, play, stream, mode):
    """The ``i``-th card of ``trick`` (``seat`` follows): the legal cards under the must-head
    obligation (the pool's cards in ``trick.wins`` if any, see :func:`play_tricks`), its
    policy's choice, taken out of its hand; the voids it shows (kept only when some seat plays
    the heuristic). Returns ``(card, voids, stream)``."""
    row = 4 * seat
    h0 = np.int64(flat[row])
    led = trick.led
    trump = trick.trump
    wins = trick.wins
    follow = h0 & trick.led_block
    trumps = h0 & trick.trump_block
    pool = either(follow != 0, follow, either(trumps != 0, trumps, h0))
    higher = pool & wins
    legal = either(higher != 0, higher, pool)
    if mode == PLAY_RANDOM or (mode == PLAY_MIXED and ((heuristic_seats >> seat) & 1) == 0):
        c, s0, s1, s2, s3 = random_pick(legal, stream[0], stream[1], stream[2], stream[3])
        stream = (s0, s1, s2, s3)
    else:
        c = heuristic_follow(legal, others(flat, seat), voids, seat, i, led, trick.win_card,
                             trick.win_seat, wins, trump, play.counters, play.knobs,
                             mode == PLAY_HEURISTIC)
    take_card(flat, row, c)
    if mode != PLAY_RANDOM:
        # shown out of the led suit; neither following nor trumping: out of trump too (the
        # obligation makes a seat follow, else trump, whenever it can)
        shown = np.int64(follow == 0)
        voids |= shown << (4 * seat + led)
        voids |= (shown & np.int64(trumps == 0)) << (4 * seat + trump)
    if mode != PLAY_RANDOM and mode != PLAY_HEURISTIC:
        voids = note_follow(voids, seat, c, follow != 0, led, trump, wins)  # for P_INFER
    return c, voids, stream


@njit(inline="always")
def after_card(c, seat, wins_row, wins, win_card, win_seat, mode):
    """The trick after a following card ``c`` by ``seat``: ``(wins, win_card, win_seat)``; the
    winning card only when some seat plays the heuristic."""
    take = ((wins >> c) & 1) != 0
    new_wins = either(take, WINS_OVER[(wins_row + c) & 127], wins)
    win_seat = either(take, seat, win_seat)
    if mode != PLAY_RANDOM:
        win_card = either(take, c, win_card)
    return new_wins, win_card, win_seat


@njit(inline="always")
def lead_trick(leader, trump, trump_block, wins_row, c, card_points):
    """The :data:`Trick` that ``leader``'s card ``c`` opens."""
    led = c // 6
    return Trick(leader, trump, trump_block, wins_row, led, suit_block(led),
                 WINS_OVER[(wins_row + c) & 127], c, leader, card_points[c])


@njit(inline="always")
def follow_card(flat, i, trick, voids, heuristic_seats, play, stream, mode):
    """The ``i``-th card of ``trick``: :func:`follow_step` then :func:`after_card`, the card's
    points added to the trick's. Returns ``(card, trick, voids, stream)``. Called with ``i`` a
    constant (1, 2, 3) so that the heuristic's "plays last" is known when the code is
    generated."""
    seat = (trick.leader + i) & 3
    c, voids, stream = follow_step(flat, seat, i, trick, voids, heuristic_seats, play, stream,
                                   mode)
    wins, win_card, win_seat = after_card(c, seat, trick.wins_row, trick.wins, trick.win_card,
                                          trick.win_seat, mode)
    trick = Trick(trick.leader, trick.trump, trick.trump_block, trick.wins_row, trick.led,
                  trick.led_block, wins, win_card, win_seat,
                  trick.points + play.card_points[c])
    return c, trick, voids, stream


@njit(inline="always")
def hand_cards(flat, seat):
    """Cards in seat ``seat``'s hand (flat planes)."""
    row = 4 * (seat & 3)
    return (popcount(np.int64(flat[row])) + popcount(np.int64(flat[row + 1]))
            + popcount(np.int64(flat[row + 2])) + popcount(np.int64(flat[row + 3])))


@njit(inline="always")
def play_tricks(flat, leader, trump, heuristic_seats, stream, play, tricks, mode, record):
    """The loop of :func:`playout` on flat planes (consumed) for policy ``mode`` (a constant:
    PLAY_RANDOM, PLAY_HEURISTIC, PLAY_MIXED with ``heuristic_seats``) and ``record`` (a
    constant: write the tricks, :data:`Tricks`, or not), the random state as a tuple of four
    scalars. Returns ``(play of 0+2, play of 1+3, stream)``.

    The trick is followed as ``wins``, the cards that would take it from the card holding it
    (:data:`WINS_OVER`): a later card takes the trick exactly when it is in ``wins``, and the
    must-head obligation keeps the pool's cards in ``wins`` when there are any (the pool is the
    led suit, the trumps or the hand, as in :func:`~binokel_sim.kernels.play.legal_under`, which
    keeps those above the
    winning card in its suit: the same cards, because a pool of trumps under an untrumped trick
    keeps every trump either way, and every other pool meets ``wins`` only in the winning
    card's suit). The heuristic seats see the other hands' union and the shown voids, kept only
    when some seat plays the heuristic; the random policy picks with :func:`random_pick` (one
    bounded draw per card when at least two types are legal, as :func:`random_card`)."""
    leader &= 3
    n_tricks = hand_cards(flat, leader)
    # voids: bit 4*seat + suit, the seat has shown out of the suit
    play0, play1, _, stream = play_from(flat, leader, 0, n_tricks, n_tricks, leader,
                                        np.int64(0), trump, heuristic_seats, stream, play,
                                        tricks, mode, record)
    return play0, play1, stream


@njit(inline="always")
def play_from(flat, leader, k0, stop, n_tricks, bidder, voids, trump, heuristic_seats, stream,
              play, tricks, mode, record):
    """:func:`play_tricks` from trick ``k0`` of ``n_tricks`` on, up to trick ``stop``
    (excluded), ``leader`` to lead it, the bid won by ``bidder`` and the voids ``voids`` shown
    so far (the sampling policy's play-outs start mid-deal, and with exact endgames stop
    ``stop``'s tricks before the end). Returns the play points of the tricks ``k0 .. stop - 1``,
    the last trick's bonus included when ``stop`` is ``n_tricks`` (its winner is ``leader``
    when no trick is left), and the winner of the last trick played (``leader`` when none
    is): ``(0+2, 1+3, winner, stream)``."""
    play0 = 0
    play1 = 0
    winner = leader
    trump_block = suit_block(trump)
    wins_row = (trump & 3) * 24
    for k in range(k0, stop):
        c, stream = lead_step(flat, leader, k, n_tricks, trump, bidder, voids, heuristic_seats,
                              play, stream, mode)
        if record:
            tricks.cards[k, 0] = c
            tricks.leaders[k] = leader
        trick = lead_trick(leader, trump, trump_block, wins_row, c, play.card_points)
        c, trick, voids, stream = follow_card(flat, 1, trick, voids, heuristic_seats, play,
                                              stream, mode)
        if record:
            tricks.cards[k, 1] = c
        c, trick, voids, stream = follow_card(flat, 2, trick, voids, heuristic_seats, play,
                                              stream, mode)
        if record:
            tricks.cards[k, 2] = c
        c, trick, voids, stream = follow_card(flat, 3, trick, voids, heuristic_seats, play,
                                              stream, mode)
        if record:
            tricks.cards[k, 3] = c
        winner = trick.win_seat
        if record:
            tricks.winners[k] = winner
        side = winner & 1
        play1 += trick.points * side
        play0 += trick.points * (1 - side)
        leader = winner
    if stop == n_tricks:
        side = winner & 1
        play1 += play.last_trick * side
        play0 += play.last_trick * (1 - side)
    return play0, play1, winner, stream


@njit(inline="always")
def lead_pair(fa, trick_a, voids_a, sa, fb, trick_b, voids_b, sb, k, n_tricks, bidders,
              heuristic_seats, play, mode):
    """The leads of trick ``k`` in both deals of :func:`play_tricks_pair` (``trick_a`` and
    ``trick_b``: the tricks before, of which the leader, trump and trump rows are read; the
    bid winners ``bidders``): returns the two opened tricks and streams."""
    ca, sa = lead_step(fa, trick_a.leader, k, n_tricks, trick_a.trump, bidders[0], voids_a,
                       heuristic_seats, play, sa, mode)
    cb, sb = lead_step(fb, trick_b.leader, k, n_tricks, trick_b.trump, bidders[1], voids_b,
                       heuristic_seats, play, sb, mode)
    return (lead_trick(trick_a.leader, trick_a.trump, trick_a.trump_block, trick_a.wins_row, ca,
                       play.card_points), sa,
            lead_trick(trick_b.leader, trick_b.trump, trick_b.trump_block, trick_b.wins_row, cb,
                       play.card_points), sb)


@njit(inline="always")
def next_leader(trick, play0, play1):
    """The pair's play after ``trick`` (its points to the winner's pair) and the trick that
    the winner leads next (its leader, trump and trump rows; the rest is the lead's)."""
    side = trick.win_seat & 1
    return (play0 + trick.points * (1 - side), play1 + trick.points * side,
            Trick(trick.win_seat, trick.trump, trick.trump_block, trick.wins_row, trick.led,
                  trick.led_block, trick.wins, trick.win_card, trick.win_seat, trick.points))


@njit(inline="always")
def first_trick(leader, trump):
    """The trick state before the first lead: ``leader`` to lead, ``trump``'s block and row."""
    zero = np.int64(0)
    return Trick(leader & 3, trump, suit_block(trump), (trump & 3) * 24, zero, zero, zero, zero,
                 leader & 3, zero)


@njit(inline="always")
def pair_last_trick(trick_a, trick_b, a0, a1, b0, b1, last_trick):
    """The last trick's bonus to the pair of each deal's last winner: ``(a0, b0, a1, b1)``."""
    la = trick_a.leader
    lb = trick_b.leader
    return (a0 + last_trick * (1 - (la & 1)), b0 + last_trick * (1 - (lb & 1)),
            a1 + last_trick * (la & 1), b1 + last_trick * (lb & 1))


@njit
def play_tricks_pair(fa, la, ta, sa, fb, lb, tb, sb, n_tricks, heuristic_seats, play, mode):
    """Two independent play-outs of :func:`play_tricks` (no records) in one loop, card by card
    in turn: deal A (flat planes ``fa``, leader ``la``, trump ``ta``, stream ``sa``) and
    deal B (``fb``, ``lb``, ``tb``, ``sb``), both of ``n_tricks`` tricks. Each follows its
    own data and stream exactly as alone, so the results are those of two calls; interleaved,
    the processor overlaps the two chains of dependent steps (one card's choice needs the
    previous card), which one play-out alone leaves mostly waiting. Returns ``(play of 0+2 in
    A, in B, play of 1+3 in A, in B, sa, sb)``.

    Each follower's place is a constant here (three copies of :func:`follow_card`), which the
    heuristic proper's code (its knobs constants) folds: twice as fast as a loop over them.
    The knob rows' pair (:func:`play_tricks_pair_rows`) loops instead."""
    trick_a = first_trick(la, ta)
    trick_b = first_trick(lb, tb)
    bidders = (trick_a.leader, trick_b.leader)
    voids_a = np.int64(0)
    voids_b = np.int64(0)
    a0 = 0
    a1 = 0
    b0 = 0
    b1 = 0
    for k in range(n_tricks):
        trick_a, sa, trick_b, sb = lead_pair(fa, trick_a, voids_a, sa, fb, trick_b, voids_b, sb,
                                             k, n_tricks, bidders, heuristic_seats, play, mode)
        _, trick_a, voids_a, sa = follow_card(fa, 1, trick_a, voids_a, heuristic_seats, play, sa,
                                              mode)
        _, trick_b, voids_b, sb = follow_card(fb, 1, trick_b, voids_b, heuristic_seats, play, sb,
                                              mode)
        _, trick_a, voids_a, sa = follow_card(fa, 2, trick_a, voids_a, heuristic_seats, play, sa,
                                              mode)
        _, trick_b, voids_b, sb = follow_card(fb, 2, trick_b, voids_b, heuristic_seats, play, sb,
                                              mode)
        _, trick_a, voids_a, sa = follow_card(fa, 3, trick_a, voids_a, heuristic_seats, play, sa,
                                              mode)
        _, trick_b, voids_b, sb = follow_card(fb, 3, trick_b, voids_b, heuristic_seats, play, sb,
                                              mode)
        a0, a1, trick_a = next_leader(trick_a, a0, a1)
        b0, b1, trick_b = next_leader(trick_b, b0, b1)
    a0, b0, a1, b1 = pair_last_trick(trick_a, trick_b, a0, a1, b0, b1, play.last_trick)
    return a0, b0, a1, b1, sa, sb


@njit(_nrt=False)
def play_tricks_pair_rows(fa, la, ta, fb, lb, tb, n_tricks, play):
    """:func:`play_tricks_pair` with every seat playing the heuristic's rules by its knob row
    (``PLAY_EXPERT``: no random seat, none draws), the followers in a loop: a third of the code
    to compile and as fast as three copies (the rows are read, not folded, either way).
    Returns ``(play of 0+2 in A, in B, play of 1+3 in A, in B)``."""
    zero = np.uint64(0)
    sa = (zero, zero, zero, zero)
    sb = sa
    all_seats = (1 << N_SEATS) - 1
    trick_a = first_trick(la, ta)
    trick_b = first_trick(lb, tb)
    bidders = (trick_a.leader, trick_b.leader)
    voids_a = np.int64(0)
    voids_b = np.int64(0)
    a0 = 0
    a1 = 0
    b0 = 0
    b1 = 0
    for k in range(n_tricks):
        trick_a, sa, trick_b, sb = lead_pair(fa, trick_a, voids_a, sa, fb, trick_b, voids_b, sb,
                                             k, n_tricks, bidders, all_seats, play, PLAY_EXPERT)
        for i in range(1, N_SEATS):
            _, trick_a, voids_a, sa = follow_card(fa, i, trick_a, voids_a, all_seats, play, sa,
                                                  PLAY_EXPERT)
            _, trick_b, voids_b, sb = follow_card(fb, i, trick_b, voids_b, all_seats, play, sb,
                                                  PLAY_EXPERT)
        a0, a1, trick_a = next_leader(trick_a, a0, a1)
        b0, b1, trick_b = next_leader(trick_b, b0, b1)
    a0, b0, a1, b1 = pair_last_trick(trick_a, trick_b, a0, a1, b0, b1, play.last_trick)
    return a0, b0, a1, b1


@njit
def playout_random(flat, leader, trump, stream, play):
    """:func:`playout` on flat planes (``flat`` uint32 (16,), consumed) with the random policy on
    every seat and no trick records, the random state in and out as a tuple of four scalars:
    ``(play of 0+2, play of 1+3, stream)``."""
    return play_tricks(flat, leader, trump, 0, stream, play, Tricks(flat, flat, flat),
                       PLAY_RANDOM, False)


@njit
def playout_heuristic(flat, leader, trump, stream, play):
    """:func:`playout_random` with the heuristic on every seat (it reads no random numbers: the
    state passes through unchanged)."""
    return play_tricks(flat, leader, trump, 0, stream, play, Tricks(flat, flat, flat),
                       PLAY_HEURISTIC, False)


@njit
def playout_mixed(flat, leader, trump, heuristic_seats, stream, play):
    """:func:`playout_random` with the heuristic on the seats of ``heuristic_seats`` (bits) and
    the random policy on the others."""
    return play_tricks(flat, leader, trump, heuristic_seats, stream, play,
                       Tricks(flat, flat, flat), PLAY_MIXED, False)


@njit
def playout_fast(mode, flat, leader, trump, heuristic_seats, stream, play):
    """The play-out specialised for ``mode`` (:func:`play_mode`), without records."""
    if mode == PLAY_RANDOM:
        return playout_random(flat, leader, trump, stream, play)
    if mode == PLAY_HEURISTIC:
        return playout_heuristic(flat, leader, trump, stream, play)
    # PLAY_EXPERT: the mixed play-out, every seat's bit set, reads each seat's knob row and
    # draws nothing (no third single play-out to compile)
    return playout_mixed(flat, leader, trump, heuristic_seats, stream, play)


@njit
def playout_recorded(flat, leader, trump, heuristic_seats, stream, play, tricks):
    """:func:`playout_mixed` writing the tricks (:data:`Tricks`, as :func:`playout`): any mix of
    policies, the heuristic on the seats of ``heuristic_seats`` (one compiled function for the
    records, which are not a hot path)."""
    return play_tricks(flat, leader, trump, heuristic_seats, stream, play, tricks, PLAY_MIXED,
                       True)


@njit
def playout_pair_random(fa, la, ta, sa, fb, lb, tb, sb, n_tricks, play):
    """:func:`play_tricks_pair` with the random policy on every seat of both deals."""
    return play_tricks_pair(fa, la, ta, sa, fb, lb, tb, sb, n_tricks, 0, play, PLAY_RANDOM)


@njit
def playout_pair_heuristic(fa, la, ta, fb, lb, tb, n_tricks, play):
    """:func:`play_tricks_pair` with the heuristic on every seat of both deals (no random
    numbers): ``(play of 0+2 in A, in B, play of 1+3 in A, in B)``."""
    zero = np.uint64(0)
    z = (zero, zero, zero, zero)
    a0, b0, a1, b1, _, _ = play_tricks_pair(fa, la, ta, z, fb, lb, tb, z, n_tricks, 0, play,
                                            PLAY_HEURISTIC)
    return a0, b0, a1, b1


@njit
def playout_pair_expert(fa, la, ta, fb, lb, tb, n_tricks, play):
    """:func:`playout_pair_heuristic` with an expert on some seat: each seat plays the
    heuristic's rules by its knob row (``play.knobs``), none draws a random number
    (:func:`play_tricks_pair_rows`)."""
    return play_tricks_pair_rows(fa, la, ta, fb, lb, tb, n_tricks, play)


@njit
def score_deal(bidder_pair_meld, opp_meld, bidder_has_marriage_in_trump, bid, play_bidder,
               play_opp, min_meld=20, min_play=20):
    """Score one played deal per SPEC.md "Scoring a played deal" and "Automatic loss".

    Returns ``(score of the bidding pair, score of the opponents)``. Automatic loss before play
    (no marriage in trump, or the pair's meld under ``min_meld``): ``(-bid, 0)``. Otherwise the
    bidding pair's meld counts when its play reaches ``min_play``; it scores ``play + meld`` when
    that reaches ``bid``, else ``-bid``. The opponents score ``play + meld`` (meld only when at
    least ``min_meld``) when their play reaches ``min_play``, else 0.
    """
    if not bidder_has_marriage_in_trump or bidder_pair_meld < min_meld:
        return -bid, 0
    total = play_bidder + (bidder_pair_meld if play_bidder >= min_play else 0)
    made = play_bidder >= min_play and total >= bid  # SPEC: made needs play >= 20 as well
    bidder_score = total if made else -bid
    opp_score = 0
    if play_opp >= min_play:
        opp_score = play_opp + (opp_meld if opp_meld >= min_meld else 0)
    return bidder_score, opp_score


@njit
def benchmark_trump(p0, p1, p2, p3, kt, trump_need, totals):
    """The trump used by :func:`playout_blocks`: the suit with the best meld total for the hand
    (``p0..p3``) among suits it may name (holds ``trump_need``, K+Q in four-hand-80), the lowest
    such suit on a tie; suit 0 when it may name none. ``kt`` is ``Tables.kt``; ``totals``
    (int64 (4,)) is scratch for :func:`binokel_sim.kernels.melds.score_hand`."""
    score_hand(p0, p1, p2, p3, kt, totals)
    best = 0
    best_total = -1
    for s in range(4):
        if may_name(p0, s, trump_need) and totals[s] > best_total:
            best = s
            best_total = totals[s]
    return best


@njit
def benchmark_one(work, state, flat, hands, km, trump_need, totals, play, mode, heuristic_seats,
                  out, d):
    """Deal ``d`` of :func:`playout_blocks` alone (``hands``: ``flat`` as (4, 4)); ``out`` is
    ``(play_out, trump_out)``."""
    deal_seats(work, 0, work.shape[0] // N_SEATS, state, hands)
    trump = benchmark_trump(flat[0], flat[1], flat[2], flat[3], km, trump_need, totals)
    a, c, stream = playout_fast(mode, flat, np.int64(0), trump, heuristic_seats,
                                (state[0], state[1], state[2], state[3]), play)
    state[0], state[1], state[2], state[3] = stream
    play_out, trump_out = out
    play_out[d, 0] = a
    play_out[d, 1] = c
    trump_out[d] = trump


@njit
def benchmark_deals(deck, seed, block_a, start_a, stop_a, block_b, start_b, stop_b, kt,
                    trump_need, play, mode, heuristic_seats, out):
    """Deals ``start_a .. stop_a - 1`` of :func:`playout_blocks` (block ``block_a``'s stream and
    deck copy) and, when ``block_b >= 0``, deals ``start_b .. stop_b - 1`` (block ``block_b``),
    into ``out`` (``(play_out, trump_out)``). With one policy on every seat the two blocks'
    deals go in pairs (:func:`play_tricks_pair`): the same results as one block after the
    other."""
    hand = deck.shape[0] // N_SEATS
    km = (kt[0], kt[1], kt[2], kt[3], kt[4])  # what score_hand reads: a shorter tuple to pass
    totals = np.empty(4, dtype=np.int64)
    play_out, trump_out = out
    state_a, work_a = block_start(deck, seed, block_a)
    flat_a = np.empty(N_SEATS * 4, dtype=np.uint32)
    hands_a = flat_a.reshape((N_SEATS, 4))
    lead = np.int64(0)  # seat 0 leads (not the literal 0: see deals.bid_block)
    d_a = start_a
    if block_b >= 0:
        state_b, work_b = block_start(deck, seed, block_b)
        flat_b = np.empty(N_SEATS * 4, dtype=np.uint32)
        hands_b = flat_b.reshape((N_SEATS, 4))
        d_b = start_b
        while (mode == PLAY_RANDOM or mode == PLAY_HEURISTIC) and d_a < stop_a and d_b < stop_b:
            deal_seats(work_a, 0, hand, state_a, hands_a)
            trump_a = benchmark_trump(flat_a[0], flat_a[1], flat_a[2], flat_a[3], km, trump_need,
                                      totals)
            deal_seats(work_b, 0, hand, state_b, hands_b)
            trump_b = benchmark_trump(flat_b[0], flat_b[1], flat_b[2], flat_b[3], km, trump_need,
                                      totals)
            if mode == PLAY_RANDOM:
                a0, b0, a1, b1, sa, sb = playout_pair_random(
                    flat_a, lead, trump_a, (state_a[0], state_a[1], state_a[2], state_a[3]),
                    flat_b, lead, trump_b, (state_b[0], state_b[1], state_b[2], state_b[3]),
                    hand, play)
                state_a[0], state_a[1], state_a[2], state_a[3] = sa
                state_b[0], state_b[1], state_b[2], state_b[3] = sb
            else:
                a0, b0, a1, b1 = playout_pair_heuristic(flat_a, lead, trump_a, flat_b, lead,
                                                        trump_b, hand, play)
            play_out[d_a, 0] = a0
            play_out[d_a, 1] = a1
            trump_out[d_a] = trump_a
            play_out[d_b, 0] = b0
            play_out[d_b, 1] = b1
            trump_out[d_b] = trump_b
            d_a += 1
            d_b += 1
        while d_b < stop_b:
            benchmark_one(work_b, state_b, flat_b, hands_b, km, trump_need, totals, play, mode,
                          heuristic_seats, out, d_b)
            d_b += 1
    while d_a < stop_a:
        benchmark_one(work_a, state_a, flat_a, hands_a, km, trump_need, totals, play, mode,
                      heuristic_seats, out, d_a)
        d_a += 1


@njit
def playout_blocks(deck, card_points, last_trick, kt, trump_need, seat_policies, tune, seed,
                   first_block, block_size, play_out, trump_out, share):
    """Deal and play out ``play_out.shape[0]`` deals of four-hand-80.

    ``deck`` int64 (80,): card types (``Tables.deck``); ``card_points``, ``kt`` (the meld
    kernels' tuple) and ``trump_need`` from :func:`binokel_sim.tables.compile_tables`;
    ``last_trick`` from the rules; ``seat_policies`` int64 (4,): policy id per seat; ``tune``
    int64 (2, N_PTUNE): the heuristic's and the expert's knobs (:func:`seat_knobs`).

    Deal ``d`` reads the stream ``seed_stream(seed, first_block + d // block_size)``: each block
    owns its stream and its copy of the deck (the permutation carries over between its deals),
    so the results do not depend on the thread count. Per deal the stream is read by
    ``deal_planes`` for seats 0, 1, 2 (20 cards each), then by the random policy during the play
    (see :func:`playout`). Seat 3 takes the 20 cards left without a draw: the next deal's partial
    shuffle draws from all 80 positions, so every deal is uniform whatever order they are in.

    Benchmark convention (no bidding): seat 0 is the bid winner and leads the first trick; trump
    is :func:`benchmark_trump` of seat 0's hand.

    Writes ``play_out`` int64 (n_deals, 2): play points of pairs 0+2 and 1+3 (sum: 50), and
    ``trump_out`` int64 (n_deals,): the trump suit.
    ``share``: this call's block pairs, ``share[0] <= q < share[1]`` (one thread's share,
    ``binokel_sim.simulate.spread_blocks``).
    """
    n_deals = play_out.shape[0]
    n_blocks = (n_deals + block_size - 1) // block_size
    mode, heuristic_seats = play_mode(seat_policies)
    play = PlayTable(card_points, last_trick, counter_mask(card_points),
                     seat_knobs(seat_policies, tune))
    out = (play_out, trump_out)
    for q in range(share[0], share[1]):  # blocks 2q and 2q + 1, played in pairs
        b = 2 * q
        start_a = b * block_size
        stop_a = min(n_deals, start_a + block_size)
        other = first_block + b + 1 if b + 1 < n_blocks else -1
        start_b = stop_a
        stop_b = min(n_deals, start_b + block_size)
        benchmark_deals(deck, seed, first_block + b, start_a, stop_a, other, start_b, stop_b, kt,
                        trump_need, play, mode, heuristic_seats, out)
