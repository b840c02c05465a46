"""Whole deals of four-hand-80: deal, auction, trump, meld, play-out and scoring, in three
block-parallel drivers: ``play_blocks`` (full records), ``duel_blocks`` (the same deals played
twice with the partnerships' policies swapped) and ``bid_sample_blocks`` (one known hand, the
other 60 cards at random, every trump candidate on the same samples).

Every driver gives block ``b`` the stream ``seed_stream(seed, first_block + b)`` and its own copy
of the deck, and writes only its own rows, so results never depend on the thread count.
Contract: SPEC.md, four-hand-80 (bidding, trump, automatic loss, scoring).
"""

import numpy as np
from numba import prange

from binokel_sim.kernels.auction import NO_BID, auction, bid_limit
from binokel_sim.kernels.deal import block_start, deal_seats
from binokel_sim.kernels.melds import score_hand
from binokel_sim.kernels.options import njit, njit_parallel
from binokel_sim.kernels.tricks import playout, score_deal

N_SEATS = 4


@njit
def bid_and_name(hands, dealer, kt, trump_need, ladder, melds, limits, trumps, bid_seats,
                 bid_values):
    """The auction and the trump: returns ``(bidder, bid, trump, n_calls)``.

    Writes ``melds`` (int64 (4, 4)): each seat's meld total with each suit as trump, and per seat
    the heuristic's ``limits`` and preferred ``trumps`` (int64 (4,)). The bid winner names his
    preferred suit; one who may name none (the dealer forced to play) names -1.
    """
    for seat in range(N_SEATS):
        limit, trump = bid_limit(hands[seat, 0], hands[seat, 1], hands[seat, 2], hands[seat, 3],
                                 kt, trump_need, melds[seat])
        limits[seat] = limit
        trumps[seat] = trump
    bidder, bid, n_calls = auction(limits, dealer, ladder, bid_seats, bid_values)
    return bidder, bid, trumps[bidder], n_calls


@njit
def play_and_score(hands, bidder, bid, trump, melds, seat_policies, state, card_points, last_trick,
                   min_meld, min_play, trick_cards, trick_leaders, trick_winners):
    """Play the deal (unless it is lost before play) and score it.

    Returns ``(n_tricks, play of 0+2, play of 1+3, score of 0+2, score of 1+3)``. A bid winner
    without a marriage in trump (``trump == -1``) or whose pair melds under ``min_meld`` loses the
    bid at once: no trick is played and the opponents score 0. ``hands`` is consumed.
    """
    pair = bidder & 1
    has_marriage = trump >= 0
    pair_meld = 0
    opp_meld = 0
    if has_marriage:
        pair_meld = melds[bidder, trump] + melds[bidder ^ 2, trump]
        opp_meld = melds[(bidder + 1) & 3, trump] + melds[(bidder + 3) & 3, trump]
    n_tricks = 0
    play = np.zeros(2, dtype=np.int64)
    if has_marriage and pair_meld >= min_meld:
        play[0], play[1] = playout(hands, bidder, trump, seat_policies, state, card_points,
                                   last_trick, trick_cards, trick_leaders, trick_winners)
        n_tricks = trick_cards.shape[0]
    own, other = score_deal(pair_meld, opp_meld, has_marriage, bid, play[pair], play[1 - pair],
                            min_meld, min_play)
    score0 = own if pair == 0 else other
    score1 = other if pair == 0 else own
    return n_tricks, play[0], play[1], score0, score1


@njit
def _scratch(hand):
    """One block's working arrays for whole deals of ``hand`` tricks: hands, melds per trump,
    bid limits, preferred trumps, the calls of an auction and the tricks of a play."""
    return (np.empty((N_SEATS, 4), dtype=np.uint32), np.empty((N_SEATS, 4), dtype=np.int64),
            np.empty(N_SEATS, dtype=np.int64), np.empty(N_SEATS, dtype=np.int64),
            np.empty(64, dtype=np.int64), np.empty(64, dtype=np.int64),
            np.empty((hand, N_SEATS), dtype=np.int64), np.empty(hand, dtype=np.int64),
            np.empty(hand, dtype=np.int64))


@njit_parallel
def play_blocks(deck, kt, trump_need, ladder, card_points, last_trick, min_meld, min_play,
                seat_policies, seed, first_block, block_size, first_deal,
                hands_out, deal_info, melds_out, bid_seats, bid_values, trick_cards,
                trick_leaders, trick_winners):
    """Simulate ``hands_out.shape[0]`` whole deals and record them.

    Deal ``d`` (global number ``first_deal + d``, dealer ``(first_deal + d) % 4``) reads the
    stream of block ``first_block + d // block_size``: the deal (seats 0-2 by partial shuffles,
    seat 3 the rest), then the random policy's draws in the play. Writes per deal: ``hands_out``
    uint32 (n, 4, 4) as dealt; ``deal_info`` int64 (n, 10): dealer, bidder, bid, trump (-1 none),
    number of calls, number of tricks played, play of 0+2, play of 1+3, score of 0+2, score of
    1+3; ``melds_out`` int64 (n, 4, 4) every seat's meld per trump; the calls ``bid_seats``,
    ``bid_values`` int64 (n, max_calls); the tricks ``trick_cards`` int64 (n, 20, 4),
    ``trick_leaders``, ``trick_winners`` int64 (n, 20).
    """
    n_deals = hands_out.shape[0]
    n_blocks = (n_deals + block_size - 1) // block_size
    hand = deck.shape[0] // N_SEATS
    for b in prange(n_blocks):
        state, work = block_start(deck, seed, first_block + b)
        hands = np.empty((N_SEATS, 4), dtype=np.uint32)
        limits = np.empty(N_SEATS, dtype=np.int64)
        trumps = np.empty(N_SEATS, dtype=np.int64)
        for d in range(b * block_size, min(n_deals, (b + 1) * block_size)):
            dealer = (first_deal + d) % N_SEATS
            deal_seats(work, 0, hand, state, hands)
            hands_out[d] = hands
            bid_values[d, :] = NO_BID
            bid_seats[d, :] = -1
            bidder, bid, trump, n_calls = bid_and_name(hands, dealer, kt, trump_need, ladder,
                                                       melds_out[d], limits, trumps, bid_seats[d],
                                                       bid_values[d])
            n_tricks, play0, play1, score0, score1 = play_and_score(
                hands, bidder, bid, trump, melds_out[d], seat_policies, state, card_points,
                last_trick, min_meld, min_play, trick_cards[d], trick_leaders[d],
                trick_winners[d])
            info = deal_info[d]
            info[0] = dealer
            info[1] = bidder
            info[2] = bid
            info[3] = trump
            info[4] = n_calls
            info[5] = n_tricks
            info[6] = play0
            info[7] = play1
            info[8] = score0
            info[9] = score1


@njit_parallel
def duel_blocks(deck, kt, trump_need, ladder, card_points, last_trick, min_meld, min_play,
                policy_a, policy_b, seed, first_block, block_size, first_deal, diff_out):
    """Play every deal twice, A on seats 0+2 and B on 1+3, then swapped, with the same deal,
    auction and trump (the bidding heuristic does not depend on the play policy).

    Writes ``diff_out`` int64 (n,): (A's score - B's score) summed over the two plays, so the
    per-deal difference A minus B is ``diff_out / 2``. Deal ``d`` reads the stream of block
    ``first_block + d // block_size``; its dealer is ``(first_deal + d) % 4``, as in
    :func:`play_blocks`.
    """
    n_deals = diff_out.shape[0]
    n_blocks = (n_deals + block_size - 1) // block_size
    hand = deck.shape[0] // N_SEATS
    a_first = np.array([policy_a, policy_b, policy_a, policy_b], dtype=np.int64)
    b_first = np.array([policy_b, policy_a, policy_b, policy_a], dtype=np.int64)
    for b in prange(n_blocks):
        state, work = block_start(deck, seed, first_block + b)
        (hands, melds, limits, trumps, calls_seats, calls_values, trick_cards, trick_leaders,
         trick_winners) = _scratch(hand)
        copy = np.empty((N_SEATS, 4), dtype=np.uint32)
        for d in range(b * block_size, min(n_deals, (b + 1) * block_size)):
            deal_seats(work, 0, hand, state, hands)
            bidder, bid, trump, _ = bid_and_name(hands, (first_deal + d) % N_SEATS, kt, trump_need,
                                                 ladder, melds, limits, trumps, calls_seats,
                                                 calls_values)
            copy[:, :] = hands
            _, _, _, s0, s1 = play_and_score(copy, bidder, bid, trump, melds, a_first, state,
                                             card_points, last_trick, min_meld, min_play,
                                             trick_cards, trick_leaders, trick_winners)
            copy[:, :] = hands
            _, _, _, t0, t1 = play_and_score(copy, bidder, bid, trump, melds, b_first, state,
                                             card_points, last_trick, min_meld, min_play,
                                             trick_cards, trick_leaders, trick_winners)
            diff_out[d] = (s0 - s1) + (t1 - t0)


@njit_parallel
def bid_sample_blocks(bidder_hand, unseen, kt, trumps, seat_policies, card_points, last_trick,
                      seed, first_block, block_size, pair_meld, pair_play, opp_meld):
    """Samples for the bid odds of one hand, held by seat 0, the bid winner, who leads.

    ``bidder_hand`` uint32 (4,): its planes; ``unseen`` int64 (60,): the other cards, dealt at
    random to seats 1, 2 and 3 in every sample. Each sample is played out once per trump in
    ``trumps`` (int64 (k,)) on the same deal. Writes int64 (n, k): ``pair_meld`` (seats 0+2),
    ``pair_play`` (counters of 0+2, last trick included) and ``opp_meld`` (seats 1+3); the
    opponents' play is ``total card points - pair_play``. Sample ``d`` reads the stream of block
    ``first_block + d // block_size``: the deal, then the random policy's draws, trump by trump.
    """
    n = pair_meld.shape[0]
    n_blocks = (n + block_size - 1) // block_size
    hand = unseen.shape[0] // (N_SEATS - 1)
    for b in prange(n_blocks):
        state, work = block_start(unseen, seed, first_block + b)
        hands = np.empty((N_SEATS, 4), dtype=np.uint32)
        copy = np.empty((N_SEATS, 4), dtype=np.uint32)
        melds = np.empty((N_SEATS, 4), dtype=np.int64)
        trick_cards = np.empty((hand, N_SEATS), dtype=np.int64)
        trick_leaders = np.empty(hand, dtype=np.int64)
        trick_winners = np.empty(hand, dtype=np.int64)
        hands[0, :] = bidder_hand
        for d in range(b * block_size, min(n, (b + 1) * block_size)):
            deal_seats(work, 1, hand, state, hands)
            for seat in range(N_SEATS):
                score_hand(hands[seat, 0], hands[seat, 1], hands[seat, 2], hands[seat, 3], kt,
                           melds[seat])
            for j in range(trumps.shape[0]):
                t = trumps[j]
                copy[:, :] = hands
                play0, _ = playout(copy, 0, t, seat_policies, state, card_points, last_trick,
                                   trick_cards, trick_leaders, trick_winners)
                pair_meld[d, j] = melds[0, t] + melds[2, t]
                opp_meld[d, j] = melds[1, t] + melds[3, t]
                pair_play[d, j] = play0



@njit
def partnership_game_over(totals, bidder, target):
    """SPEC four-hand-80 "game": the first pair at ``target`` or more after a deal wins; both at
    ``target``+ → the bidding pair (``bidder & 1``) wins. -1 while the game goes on."""
    over0 = totals[0] >= target
    over1 = totals[1] >= target
    if over0 and over1:
        return bidder & 1
    if over0:
        return 0
    if over1:
        return 1
    return -1


@njit_parallel
def match_blocks(deck, kt, trump_need, ladder, card_points, last_trick, min_meld, min_play,
                 policy_a, policy_b, target, max_deals, seed, first_block, block_size, first_game,
                 games_out):
    """Whole games of four-hand-80 to ``target``: game ``g`` (number ``first_game + g``) puts A on
    pair ``(number // 4) % 2`` (seats 0+2 or 1+3) and B on the other; its first dealer is seat
    ``number % 4`` and the deal rotates clockwise. Game ``g`` reads the stream of block
    ``first_block + g // block_size``. Writes ``games_out`` int64 (n, 4): A won (1/0; -1 when
    ``max_deals`` deals did not end the game), deals played, A's final total, B's final total."""
    n_games = games_out.shape[0]
    n_blocks = (n_games + block_size - 1) // block_size
    hand = deck.shape[0] // N_SEATS
    for b in prange(n_blocks):
        state, work = block_start(deck, seed, first_block + b)
        (hands, melds, limits, trumps, calls_seats, calls_values, trick_cards, trick_leaders,
         trick_winners) = _scratch(hand)
        seats = np.empty(N_SEATS, dtype=np.int64)
        totals = np.zeros(2, dtype=np.int64)
        for g in range(b * block_size, min(n_games, (b + 1) * block_size)):
            number = first_game + g
            side_a = (number // N_SEATS) % 2
            for seat in range(N_SEATS):
                seats[seat] = policy_a if seat % 2 == side_a else policy_b
            totals[:] = 0
            winner = -1
            deals = 0
            while winner < 0 and deals < max_deals:
                dealer = (number + deals) % N_SEATS
                deal_seats(work, 0, hand, state, hands)
                bidder, bid, trump, _ = bid_and_name(hands, dealer, kt, trump_need, ladder, melds,
                                                     limits, trumps, calls_seats, calls_values)
                _, _, _, score0, score1 = play_and_score(
                    hands, bidder, bid, trump, melds, seats, state, card_points, last_trick,
                    min_meld, min_play, trick_cards, trick_leaders, trick_winners)
                totals[0] += score0
                totals[1] += score1
                deals += 1
                winner = partnership_game_over(totals, bidder, target)
            games_out[g, 0] = -1 if winner < 0 else (1 if winner == side_a else 0)
            games_out[g, 1] = deals
            games_out[g, 2] = totals[side_a]
            games_out[g, 3] = totals[1 - side_a]
