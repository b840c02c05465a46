"""Trick play on bit planes: legal cards, trick winner, a full play-out, deal scoring, and the
parallel play-out driver. Contract: SPEC.md "Common to all variants" (must-head obligation,
trick winner) and "Variant four-hand-80" (play, scoring).

Masks are int64 holding a 24-bit set of card types (bit ``suit * 6 + rank``, ranks in trick
order), so "a higher card of suit s" is "a higher bit inside s's six-bit block". Hands are bit
planes (uint32[4], thermometer code, see :mod:`binokel_sim.cards`); cards are removed in place.
"""

import numpy as np
from numba import prange

from binokel_sim.kernels.deal import block_start, deal_seats
from binokel_sim.kernels.melds import may_name, score_hand
from binokel_sim.kernels.options import njit, njit_parallel
from binokel_sim.kernels.policies import (
    POLICY_RANDOM,
    SUIT_MASK,
    above,
    heuristic_card,
    popcount,
    random_card,
)

N_SEATS = 4


@njit(inline="always")
def suit_block(suit):
    """The six card types of ``suit`` (int64 mask)."""
    return np.int64(SUIT_MASK) << (6 * suit)


@njit(inline="always")
def card_key(card, led_block, trump_block):
    """Trick strength of ``card`` given the led suit's and the trump suit's blocks: the card type
    plus 32 if it is of the led suit plus 64 if it is a trump. Within a suit the type order is
    the rank order, so a later card takes the trick exactly when its key is strictly greater
    (SPEC.md "Trick winner", line 37; identical cards: the first played wins, line 20)."""
    return (card + (((led_block >> card) & 1) << 5) + (((trump_block >> card) & 1) << 6))


@njit(inline="always")
def beaters(win_card):
    """The card types of ``win_card``'s suit that are strictly higher: the cards the must-head
    obligation may demand while ``win_card`` holds the trick."""
    return above(win_card) & suit_block(win_card // 6)


@njit(inline="always")
def legal_under(p0, led_block, trump_block, beat):
    """The must-head obligation (SPEC.md "Must-head obligation", lines 25-35) for a hand whose
    presence plane is ``p0``, following to a trick whose winning card so far has the higher
    cards ``beat`` in its suit (:func:`beaters`). Returns an int64 mask.

    Rules 1-3 choose the pool (the led cards, else the trumps, else the whole hand); the pool
    must beat the winning card if it can exactly when it lies in that card's suit: led trump
    (rule 1a: the winner is the highest trump), untrumped trick (1b: the highest led card),
    trumped trick after a void (2: the highest trump). A trumped side-suit trick (1c) and rule 3
    give pools outside that suit, so ``pool & beat`` is empty there and the whole pool stands.
    Branch-free: random play-outs would otherwise pay for mispredicted branches.
    """
    hand = np.int64(p0)
    follow = hand & led_block
    trumps = hand & trump_block
    pool = follow if follow else (trumps if trumps else hand)
    higher = pool & beat
    return higher if higher else pool


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


@njit(inline="always")
def remove_card(hands, seat, t):
    """Take one copy of card type ``t`` out of ``hands[seat]``. In a thermometer code the new
    plane k is the old plane k+1 on bit t (count - 1 >= k + 1), so no branch is needed."""
    bit = np.int64(1) << t
    keep = ~bit
    q0 = np.int64(hands[seat, 0])
    q1 = np.int64(hands[seat, 1])
    q2 = np.int64(hands[seat, 2])
    q3 = np.int64(hands[seat, 3])
    hands[seat, 0] = np.uint32((q0 & keep) | (q1 & bit))
    hands[seat, 1] = np.uint32((q1 & keep) | (q2 & bit))
    hands[seat, 2] = np.uint32((q2 & keep) | (q3 & bit))
    hands[seat, 3] = np.uint32(q3 & keep)


@njit(inline="always")
def hand_size(hands, seat):
    """Cards in ``hands[seat]``: the sum of the planes' set bits."""
    return (popcount(np.int64(hands[seat, 0])) + popcount(np.int64(hands[seat, 1]))
            + popcount(np.int64(hands[seat, 2])) + popcount(np.int64(hands[seat, 3])))


@njit(inline="always")
def choose_card(seat_policies, legal, hands, seat, position, s0, s1, s2, s3, voids, led, win_card,
                win_seat, trick_index, n_tricks, trump, bidder, counters):
    """The card ``hands[seat]``'s policy plays out of ``legal``, and the random state (four
    scalars, advanced only by the random policy). The heuristic is shown only what its seat may
    know: its own planes and the other hands' union (see
    :func:`binokel_sim.kernels.policies.heuristic_card`)."""
    if seat_policies[seat] == POLICY_RANDOM:
        return random_card(legal, s0, s1, s2, s3)
    unseen = (np.int64(hands[(seat + 1) & 3, 0]) | np.int64(hands[(seat + 2) & 3, 0])
              | np.int64(hands[(seat + 3) & 3, 0]))
    card = heuristic_card(legal, hands[seat], unseen, voids, seat, position, led, win_card,
                          win_seat, trick_index, n_tricks, trump, bidder, counters)
    return card, s0, s1, s2, s3


@njit
def playout(hands, leader, trump, seat_policies, state, card_points, last_trick,
            trick_cards, trick_leaders, trick_winners):
    """Play every trick of one deal and return the play points ``(pair 0+2, pair 1+3)``.

    ``hands`` uint32 (4, 4): the bit planes of seats 0..3, all of equal size (20 cards in
    four-hand-80); consumed in place (all zero afterwards). ``leader``: the bid winner, who leads
    the first trick (SPEC.md line 49); his partnership is the bidding side the heuristic knows.
    ``trump``: suit 0..3. ``seat_policies`` int64 (4,): policy id of each seat
    (:mod:`binokel_sim.kernels.policies`). ``state`` uint64[4]: the random stream; only the
    random policy reads it, one bounded draw (``below_scalar``) per card when ``n >= 2`` distinct card
    types are legal. ``card_points`` int64 (24,) and ``last_trick`` from the variant's tables.

    Writes, for trick ``k``: ``trick_cards[k, i]`` (int64 (n_tricks, 4)) the card type played
    ``i``-th (by seat ``(trick_leaders[k] + i) % 4``), ``trick_leaders[k]`` and
    ``trick_winners[k]`` (int64 (n_tricks,)) the seats leading and winning it. The last trick's
    winner's pair gets ``last_trick`` on top of its counters (SPEC.md line 81).
    """
    counters = np.int64(0)
    for t in range(24):
        if card_points[t] > 0:
            counters |= np.int64(1) << t
    track_voids = False  # only the heuristic reads the voids
    for seat in range(N_SEATS):
        track_voids |= seat_policies[seat] != POLICY_RANDOM
    n_tricks = hand_size(hands, leader)
    bidder = leader
    voids = np.int64(0)  # bit 4*seat + suit: the seat has shown out of the suit
    play0 = 0
    play1 = 0
    winner = leader
    trump_block = suit_block(trump)
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]  # in registers during the play
    for k in range(n_tricks):
        c, s0, s1, s2, s3 = choose_card(seat_policies, np.int64(hands[leader, 0]), hands, leader,
                                        0, s0, s1, s2, s3, voids, -1, -1, -1, k, n_tricks, trump,
                                        bidder, counters)
        remove_card(hands, leader, c)
        trick_cards[k, 0] = c
        points = card_points[c]
        led = c // 6
        led_block = suit_block(led)
        win_card = c
        win_seat = leader
        win_key = card_key(c, led_block, trump_block)
        beat = beaters(c)
        for i in range(1, N_SEATS):
            seat = (leader + i) & 3
            legal = legal_under(hands[seat, 0], led_block, trump_block, beat)
            c, s0, s1, s2, s3 = choose_card(seat_policies, legal, hands, seat, i, s0, s1, s2, s3,
                                            voids, led, win_card, win_seat, k, n_tricks, trump,
                                            bidder, counters)
            remove_card(hands, seat, c)
            trick_cards[k, i] = c
            points += card_points[c]
            if track_voids:
                # showed out of the led suit; neither following nor trumping: out of trump too
                follows = (led_block >> c) & 1
                trumps = (trump_block >> c) & 1
                voids |= (1 - follows) << (4 * seat + led)
                voids |= ((1 - follows) & (1 - trumps)) << (4 * seat + trump)
            key = card_key(c, led_block, trump_block)
            take = key > win_key
            win_key = key if take else win_key
            win_card = c if take else win_card
            win_seat = seat if take else win_seat
            beat = beaters(c) if take else beat
        winner = win_seat
        trick_leaders[k] = leader
        trick_winners[k] = winner
        play1 += points * (winner & 1)
        play0 += points * (1 - (winner & 1))
        leader = winner
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    if winner & 1:
        play1 += last_trick
    else:
        play0 += last_trick
    return play0, play1


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


@njit_parallel
def playout_blocks(deck, card_points, last_trick, kt, trump_need, seat_policies, seed,
                   first_block, block_size, play_out, trump_out):
    """Deal and play out ``play_out.shape[0]`` deals of four-hand-80.

    ``deck`` int64 (80,): card types (``Tables.deck``); ``card_points``, ``kt`` (the meld
    kernels' tuple) and ``trump_need`` from :func:`binokel_sim.tables.compile_tables`;
    ``last_trick`` from the rules; ``seat_policies`` int64 (4,): policy id per seat.

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
    """
    n_deals = play_out.shape[0]
    n_blocks = (n_deals + block_size - 1) // block_size
    hand = deck.shape[0] // N_SEATS
    for b in prange(n_blocks):
        state, work = block_start(deck, seed, first_block + b)
        hands = np.empty((N_SEATS, 4), dtype=np.uint32)
        n_tricks = hand
        trick_cards = np.empty((n_tricks, N_SEATS), dtype=np.int64)
        trick_leaders = np.empty(n_tricks, dtype=np.int64)
        trick_winners = np.empty(n_tricks, dtype=np.int64)
        totals = np.empty(4, dtype=np.int64)
        stop = min(n_deals, (b + 1) * block_size)
        for d in range(b * block_size, stop):
            deal_seats(work, 0, hand, state, hands)
            trump = benchmark_trump(hands[0, 0], hands[0, 1], hands[0, 2], hands[0, 3],
                                    kt, trump_need, totals)
            a, c = playout(hands, 0, trump, seat_policies, state, card_points, last_trick,
                           trick_cards, trick_leaders, trick_winners)
            play_out[d, 0] = a
            play_out[d, 1] = c
            trump_out[d] = trump
