"""The ``sampling`` policy of four-hand-80 (perfect-information sampling, issue 11), and the play
loop that keeps what the table knows while it plays (SPEC.md "Must-head obligation").

At each card decision with two or more legal card types, the seat deals the cards it cannot see
``n_samples`` times, consistently with what the table knows: the cards played; the meld cards each
seat showed and has not played since, which are placed, not sampled; and per seat the card types it
may still hold (:func:`~binokel_sim.kernels.knowledge.excluded_by`, applied to every card played;
ignored where the ablation's ``infer`` says the deciding seat does not infer), by the exact
constrained sampler (:mod:`binokel_sim.kernels.sampler`, uniform over the deals consistent with
those). Not conditioned on: that a seat holds no meld it did not show
(docs/rules.md, "Sampling policy and inference", says why). On every sample it tries every legal
card type: the card is played, the trick is completed and the deal played to its end with the
heuristic on every seat (:func:`~binokel_sim.kernels.partnership.tricks.play_from`). It plays the
card type with
the highest total of its side's card points over the samples (the same samples for every card: the
comparison is paired), the lowest type on a tie. (Playing for the deal's score instead, contract and
thresholds included, measured weaker: docs/rules.md.) The samples are drawn from the block's stream,
so a sampling play-out is as reproducible as any other.
"""

import numpy as np

from binokel_sim.kernels.bits import ALL_TYPES, N_TYPES, lowest_bit, popcount
from binokel_sim.kernels.knowledge import excluded_by, infers, shown_of
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.partnership.heuristic import (
    heuristic_follow,
    heuristic_lead,
    note_follow,
)
from binokel_sim.kernels.partnership.tricks import (
    N_SEATS,
    PLAY_HEURISTIC,
    after_card,
    follow_card,
    hand_cards,
    heuristic_knobs,
    others,
    play_from,
    take_card,
)
from binokel_sim.kernels.play import WINS_OVER, beaters, legal_under, suit_block
from binokel_sim.kernels.policies import (
    POLICY_EXPERT,
    POLICY_HEURISTIC,
    POLICY_RANDOM,
    POLICY_SAMPLING,
    random_pick,
)
from binokel_sim.kernels.sampler import count_ways, group_planes, sample_counts

ALL_HEURISTIC = (1 << N_SEATS) - 1


@njit
def sampling_scratch(hand, active):
    """The sampling policy's working arrays for hands of ``hand`` cards: the sampler's ``ways``
    table (float64 (25, h + 1, h + 1, h + 1), some 1.9 MB for 20 cards; a stub when not
    ``active``), the sample's split, its planes, a play-out's planes, the totals per card type,
    the pool, the allowed masks, the capacities and per other seat the shown cards it still
    holds."""
    size = hand + 1 if active else 1
    return (np.empty((N_TYPES + 1, size, size, size)), np.empty((4, N_TYPES), dtype=np.int64),
            np.empty(N_SEATS * 4, dtype=np.uint32), np.empty(N_SEATS * 4, dtype=np.uint32),
            np.empty(N_TYPES, dtype=np.int64), np.empty(N_TYPES, dtype=np.int64),
            np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64),
            np.zeros((3, N_TYPES), dtype=np.int64))


@njit
def rollout(work, seat, card, leader, position, cards, k, n_tricks, trump, bidder, voids,
            card_points, last_trick, counters, knobs):
    """``seat``'s side's play points from trick ``k`` on when ``seat`` plays ``card`` as the
    ``position``-th card of trick ``k`` (led by ``leader``; ``cards[:position]`` are already in
    it) and every seat then plays the heuristic to the end of the deal. ``work`` (flat planes,
    consumed) holds every hand as it is before ``card``."""
    trump_block = suit_block(trump)
    wins_row = (trump & 3) * 24
    first = card if position == 0 else cards[0]
    led = first // 6
    led_block = suit_block(led)
    points = card_points[first]
    win_card = first
    win_seat = leader
    wins = WINS_OVER[(wins_row + first) & 127]
    for i in range(1, position):
        c = cards[i]
        points += card_points[c]
        wins, win_card, win_seat = after_card(c, (leader + i) & 3, wins_row, wins, win_card,
                                              win_seat, PLAY_HEURISTIC)
    if position > 0:
        h0 = np.int64(work[4 * seat])
        shown = np.int64((h0 & led_block) == 0)
        voids |= shown << (4 * seat + led)
        voids |= (shown & np.int64((h0 & trump_block) == 0)) << (4 * seat + trump)
        points += card_points[card]
        wins, win_card, win_seat = after_card(card, seat, wins_row, wins, win_card, win_seat,
                                              PLAY_HEURISTIC)
    take_card(work, 4 * seat, card)
    z = np.uint64(0)
    for i in range(position + 1, N_SEATS):
        (_, points, wins, win_card, win_seat, voids, _, _, _, _) = follow_card(
            work, leader, i, led, led_block, trump, trump_block, wins_row, wins, win_card,
            win_seat, voids, points, ALL_HEURISTIC, counters, knobs, card_points, z, z, z, z,
            PLAY_HEURISTIC)
    side = seat & 1
    own = points if (win_seat & 1) == side else 0
    rest0, rest1, _, _, _, _ = play_from(work, win_seat, k + 1, n_tricks, bidder, voids, trump,
                                         ALL_HEURISTIC, z, z, z, z, card_points, last_trick,
                                         counters, knobs, cards, cards, cards, PLAY_HEURISTIC,
                                         False)
    return own + (rest1 if side else rest0)


@njit
def sampling_card(flat, seat, legal, leader, position, cards, k, n_tricks, trump, bidder, voids,
                  excluded, played, shown, played_by, deck_counts, n_samples, infer, state,
                  scratch, card_points, last_trick, counters, knobs):
    """The sampling policy's card for ``seat`` (flat planes ``flat``: the true hands, of which
    it reads only its own and the other seats' sizes) out of ``legal``. ``excluded`` int64 (4,):
    per seat the card types the table knows it does not hold; ``played`` int64 (24,): the cards
    played so far, this trick's included; ``shown`` and ``played_by`` int64 (4, 24): per seat
    the meld cards it showed and the cards it played (a shown card not yet played since is
    known to be held: ``shown - played_by`` copies, at least 0); ``deck_counts`` int64 (24,): the
    deck. ``infer`` (:data:`~binokel_sim.kernels.knowledge.INFERENCE`): whether the deals
    respect ``excluded`` (not when ``infers`` says no: the ablation). ``state`` (uint64[4]) is
    read by the sampler only when two or more types are legal."""
    if popcount(legal) == 1:
        return lowest_bit(legal)
    ways, split, sample, work, totals, pool, allowed, capacity, held = scratch
    row = 4 * seat
    for t in range(N_TYPES):
        own = ((np.int64(flat[row]) >> t) & 1) + ((np.int64(flat[row + 1]) >> t) & 1) + (
            (np.int64(flat[row + 2]) >> t) & 1) + ((np.int64(flat[row + 3]) >> t) & 1)
        pool[t] = deck_counts[t] - played[t] - own
        totals[t] = 0
    inferring = infers(infer, seat, bidder)
    for g in range(3):
        s = (seat + 1 + g) & 3
        allowed[g] = ALL_TYPES & ~excluded[s] if inferring else ALL_TYPES
        capacity[g] = hand_cards(flat, s)
        for t in range(N_TYPES):
            left = max(shown[s, t] - played_by[s, t], 0)
            held[g, t] = left
            pool[t] -= left
            capacity[g] -= left
    if count_ways(pool, allowed, capacity, np.int64(3), ways) <= 0.0:
        raise ValueError("sampling policy: no deal fits what the table knows")
    for q in range(4):
        sample[row + q] = flat[row + q]
    for _ in range(n_samples):
        sample_counts(pool, allowed, capacity, np.int64(3), ways, state, split)
        for g in range(3):
            s = (seat + 1 + g) & 3
            q0, q1, q2, q3 = group_planes(held, split, g, g)
            sample[4 * s] = q0
            sample[4 * s + 1] = q1
            sample[4 * s + 2] = q2
            sample[4 * s + 3] = q3
        m = legal
        while m != 0:
            c = lowest_bit(m)
            m &= m - 1
            for q in range(N_SEATS * 4):
                work[q] = sample[q]
            totals[c] += rollout(work, seat, c, leader, position, cards, k, n_tricks, trump,
                                 bidder, voids, card_points, last_trick, counters, knobs)
    best = -1
    best_total = -1
    m = legal
    while m != 0:
        c = lowest_bit(m)
        m &= m - 1
        if totals[c] > best_total:
            best = c
            best_total = totals[c]
    return best


@njit
def sampling_active(seat_policies):
    """Whether some seat of ``seat_policies`` plays the sampling policy."""
    for seat in range(seat_policies.shape[0]):
        if seat_policies[seat] == POLICY_SAMPLING:
            return True
    return False


@njit(inline="always")
def table_knowledge(flat, show_rows, trump):
    """What the table knows before the first card of a deal (``flat``: every hand), as
    :func:`play_known` keeps it: ``(voids shown, per seat the types excluded by its plays, the
    cards played, per seat the cards it played, per seat the meld cards it showed
    (:func:`~binokel_sim.kernels.knowledge.shown_of` of ``show_rows``), the trick's cards)``."""
    excluded = np.zeros(N_SEATS, dtype=np.int64)
    played = np.zeros(N_TYPES, dtype=np.int64)
    played_by = np.zeros((N_SEATS, N_TYPES), dtype=np.int64)
    shown = np.zeros((N_SEATS, N_TYPES), dtype=np.int64)
    for seat in range(N_SEATS):
        shown_of(flat, seat, show_rows, trump, shown[seat])
    return np.int64(0), excluded, played, played_by, shown, np.zeros(N_SEATS, dtype=np.int64)


@njit(inline="always")
def note_card(flat, seat, i, c, h0, beat, cards, played, played_by, excluded, voids, led,
              led_block, trump, wins_row, wins, win_card, win_seat):
    """``seat`` plays ``c`` as the ``i``-th card of the trick (``h0``: its plane 0 before the
    card; ``beat``: the cards that would have headed the trick): the card leaves ``flat`` and
    what the table knows (:func:`table_knowledge`'s arrays, updated in place; ``voids``) and the
    trick's state move on. Returns ``(led, led_block, voids, wins, win_card, win_seat)``."""
    take_card(flat, 4 * seat, c)
    played[c] += 1
    played_by[seat, c] += 1
    cards[i] = c
    if i == 0:
        led = c // 6
        return led, suit_block(led), voids, WINS_OVER[(wins_row + c) & 127], c, win_seat
    trump_block = suit_block(trump)
    excluded[seat] |= excluded_by(c, led_block, trump_block, beat)
    out_of = np.int64((h0 & led_block) == 0)
    voids |= out_of << (4 * seat + led)
    voids |= (out_of & np.int64((h0 & trump_block) == 0)) << (4 * seat + trump)
    voids = note_follow(voids, seat, c, out_of == 0, led, trump, beat)  # for the expert seats
    wins, win_card, win_seat = after_card(c, seat, wins_row, wins, win_card, win_seat,
                                          PLAY_HEURISTIC)
    return led, led_block, voids, wins, win_card, win_seat


@njit
def play_known(flat, leader, trump, seat_policies, n_samples, infer, state, deck_counts,
               scratch, show_rows, card_points, last_trick, counters, knobs, trick_cards,
               trick_leaders, trick_winners):
    """Play every trick of one deal (``flat`` consumed; ``leader`` the bid winner) with each seat
    its own policy (random, heuristic, expert or sampling: ``seat_policies`` int64 (4,); the
    heuristic and expert seats play with their rows of ``knobs``), keeping what
    the table knows: the voids shown (the heuristic's), the cards played, the meld cards each
    seat showed (:func:`~binokel_sim.kernels.knowledge.shown_of` of ``show_rows``) and per seat the
    cards it played and the
    card types excluded by its plays (the sampling policy's, which respects them as ``infer``
    says: :data:`~binokel_sim.kernels.knowledge.INFERENCE`). The random policy and the sampler
    read ``state`` in the order the cards are played. Writes the tricks as
    :func:`~binokel_sim.kernels.partnership.tricks.playout` does; returns ``(play of 0+2, play of
    1+3)``."""
    leader &= 3
    bidder = leader
    n_tricks = hand_cards(flat, leader)
    trump_block = suit_block(trump)
    wins_row = (trump & 3) * 24
    voids, excluded, played, played_by, shown, cards = table_knowledge(flat, show_rows, trump)
    play = np.zeros(2, dtype=np.int64)
    rollout_knobs = heuristic_knobs()  # the sampling policy's play-outs play the heuristic
    for k in range(n_tricks):
        trick_leaders[k] = leader
        points = 0
        led = 0
        led_block = np.int64(0)
        win_card = 0
        win_seat = leader
        wins = np.int64(0)
        for i in range(N_SEATS):
            seat = (leader + i) & 3
            row = 4 * seat
            h0 = np.int64(flat[row])
            beat = beaters(win_card)
            legal = h0 if i == 0 else legal_under(h0, led_block, trump_block, beat)
            policy = seat_policies[seat]
            if policy == POLICY_RANDOM:
                c, s0, s1, s2, s3 = random_pick(legal, state[0], state[1], state[2], state[3])
                state[0], state[1], state[2], state[3] = s0, s1, s2, s3
            elif policy == POLICY_HEURISTIC or policy == POLICY_EXPERT:
                if i == 0:
                    c = heuristic_lead(h0, h0, flat[row + 1], flat[row + 2], flat[row + 3],
                                       others(flat, seat), voids, seat, k, n_tricks, trump,
                                       bidder, counters, knobs, False)
                else:
                    c = heuristic_follow(legal, others(flat, seat), voids, seat, i, led,
                                         win_card, win_seat, wins, trump, counters, knobs,
                                         False)
            else:
                c = sampling_card(flat, seat, legal, leader, i, cards, k, n_tricks, trump,
                                  bidder, voids, excluded, played, shown, played_by,
                                  deck_counts, n_samples, infer, state, scratch, card_points,
                                  last_trick, counters, rollout_knobs)
            trick_cards[k, i] = c
            points += card_points[c]
            led, led_block, voids, wins, win_card, win_seat = note_card(
                flat, seat, i, c, h0, beat, cards, played, played_by, excluded, voids, led,
                led_block, trump, wins_row, wins, win_card, win_seat)
        trick_winners[k] = win_seat
        play[win_seat & 1] += points
        leader = win_seat
    play[leader & 1] += last_trick
    return play[0], play[1]
