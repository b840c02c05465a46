"""Strict tricks (must head) played by the random policy or the talon heuristic: phase 2 of the
talon games and every trick of the widow games. Contract: SPEC.md "Must-head obligation" and
"Trick winner"; the heuristic's rules are in :mod:`binokel_sim.kernels.talon_policy`.
"""

import numpy as np

from binokel_sim.kernels.deal import add_card
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.policies import POLICY_RANDOM, random_card
from binokel_sim.kernels.talon_policy import heuristic_talon_card
from binokel_sim.kernels.tricks import beaters, card_key, legal_under, remove_card, suit_block


@njit(inline="always")
def into_trick(c, i, led, led_block, win_key, win_card, win_seat, beat, seat, trump_block):
    """The trick after card ``c`` (the ``i``-th, by ``seat``): ``(led, led_block, win_key,
    win_card, win_seat, beat)``; a later card takes the trick only with a strictly greater key
    (the first of identical cards wins)."""
    if i == 0:
        led = c // 6
        led_block = suit_block(led)
    key = card_key(c, led_block, trump_block)
    take = key > win_key
    return (led, led_block, key if take else win_key, c if take else win_card,
            seat if take else win_seat, beaters(c) if take else beat)


@njit
def play_strict_tricks(hands, leader, first, n_tricks, trump, seat_policies, copies, pairs,
                       card_points, counters, g0, g1, g2, g3, card_pts, won, trick_cards,
                       trick_leaders, trick_winners, s0, s1, s2, s3):
    """Play tricks ``first .. n_tricks - 1`` under the must-head obligation, ``leader`` leading
    the first of them. ``hands`` uint32 (P, 4) is consumed; ``g0..g3`` are the planes of the
    cards played before (the heuristic's knowledge); the random policy reads one bounded draw per
    card with at least two legal card types. Adds each trick's card points to
    ``card_pts[winner]`` and one to ``won[winner]`` (int64 (P,)); writes ``trick_cards[k, i]``,
    ``trick_leaders[k]``, ``trick_winners[k]``. Returns ``(winner of the last trick, s0..s3)``
    (``leader`` when no trick is played)."""
    n_players = hands.shape[0]
    trump_block = suit_block(trump)
    winner = leader
    for k in range(first, n_tricks):
        led = -1
        led_block = np.int64(0)
        beat = np.int64(0)
        win_key = np.int64(-1)
        win_card = -1
        win_seat = leader
        trick_points = 0
        for i in range(n_players):
            seat = leader + i
            if seat >= n_players:
                seat -= n_players
            held = np.int64(hands[seat, 0])
            legal = held if i == 0 else legal_under(held, led_block, trump_block, beat)
            if seat_policies[seat] == POLICY_RANDOM:
                c, s0, s1, s2, s3 = random_card(legal, s0, s1, s2, s3)
            else:
                c = heuristic_talon_card(legal, hands[seat, 0], hands[seat, 1], hands[seat, 2],
                                         hands[seat, 3], g0, g1, g2, g3, copies, False, i, led,
                                         win_card, pairs and i > 0 and win_seat == (seat ^ 2),
                                         i == n_players - 1, trick_points, 0, trump, counters)
            remove_card(hands, seat, c)
            g0, g1, g2, g3 = add_card(g0, g1, g2, g3, c)
            trick_cards[k, i] = c
            trick_points += card_points[c]
            led, led_block, win_key, win_card, win_seat, beat = into_trick(
                c, i, led, led_block, win_key, win_card, win_seat, beat, seat, trump_block)
        winner = win_seat
        trick_leaders[k] = leader
        trick_winners[k] = winner
        card_pts[winner] += trick_points
        won[winner] += 1
        leader = winner
    return winner, s0, s1, s2, s3
