"""Strict tricks (must head) played by the random policy, the talon heuristic or the exact solver
(``heuristic+solver``, two players): phase 2 of the talon games and every trick of the widow
games. Contract: SPEC.md "Must-head obligation" and "Trick winner"; the heuristic's rules are in
:mod:`binokel_sim.kernels.talon_policy`, the solver's card in
:mod:`binokel_sim.kernels.solver_policy`.

:func:`play_strict` is inlined into the talon and widow deal loops (``inline="always"``), with
``smart`` None there when every seat plays at random (numba then prunes every branch that asks
``smart is None``: the all-random loops compile no policy code and keep no knowledge of the cards
played) and ``record`` a constant, so only the drivers that keep records write them.
"""

import numpy as np

from binokel_sim.kernels.deal import add_card
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.policies import (
    POLICY_RANDOM,
    POLICY_SOLVER,
    either,
    kth_bit,
    lowest_bit,
    popcount,
    random_pick,
)
from binokel_sim.kernels.random import below_scalar
from binokel_sim.kernels.solver_policy import solver_card
from binokel_sim.kernels.talon_policy import heuristic_talon_card
from binokel_sim.kernels.tricks import WINS_OVER, remove_card, suit_block

TAKES = WINS_OVER  # the cards that take a trick from a card (tricks.WINS_OVER), by trump


@njit(inline="always")
def takes(trump, c):
    """The cards that would take the trick from ``c`` (:data:`TAKES`)."""
    return TAKES[(trump * 24 + c) & 127]


@njit(inline="always")
def must_head(held, led_block, trump_block, wins):
    """The must-head obligation (:func:`binokel_sim.kernels.tricks.legal_under`) with the trick
    followed as ``wins`` (:func:`takes` of the card holding it): the pool is the led suit, else
    the trumps, else the hand, and of the pool the cards that would take the trick when there
    are any. The pool meets ``wins`` exactly in the cards above the winning card in its suit, or
    in every trump when a trump pool meets an untrumped trick (every trump then takes it), so
    the cards are legal_under's."""
    follow = held & led_block
    trumps = held & trump_block
    pool = either(follow != 0, follow, either(trumps != 0, trumps, held))
    higher = pool & wins
    return either(higher != 0, higher, pool)


@njit(inline="always")
def random_free(legal, s0, s1, s2, s3):
    """:func:`binokel_sim.kernels.policies.random_pick` for a choice that is seldom forced (a
    whole hand in free play): the same card and the same stream, with a branch on the forced
    card (well predicted there) instead of selecting the state."""
    n = popcount(legal)
    if n == 1:
        return lowest_bit(legal), s0, s1, s2, s3
    k, s0, s1, s2, s3 = below_scalar(n, s0, s1, s2, s3)
    return kth_bit(legal, k), s0, s1, s2, s3


@njit(inline="always")
def counter_cards(card_points):
    """The card types worth points (int64 mask): the heuristic's counters."""
    counters = np.int64(0)
    for t in range(24):
        if card_points[t] > 0:
            counters |= np.int64(1) << t
    return counters


@njit(inline="always")
def play_strict(hands, leader, first, n_tricks, trump, policies, smart, copies, pairs,
                card_points, counters, g0, g1, g2, g3, points, column, won, record, d,
                trick_cards, trick_leaders, trick_winners, s0, s1, s2, s3, last_trick, scratch):
    """Play tricks ``first .. n_tricks - 1`` under the must-head obligation, ``leader`` leading
    the first of them. ``hands`` (P, 4) planes are consumed; ``policies`` int64 (P,) the seats'
    policy ids, every seat random when ``smart`` is None (any other value: as ``policies``
    say); ``g0..g3`` the planes of the cards played before (the heuristic's knowledge); the
    random policy reads one bounded draw per card with at least two legal card types. A seat of
    the ``heuristic+solver`` or ``sampling`` policy (two players only) plays the solver's card
    (:mod:`binokel_sim.kernels.solver_policy`, with ``last_trick`` the last trick's bonus and
    ``scratch`` its scratch). Adds each trick's card
    points to ``points[winner, column]`` and one to ``won[winner]``; when ``record``, writes
    ``trick_cards[d, k, i]``, ``trick_leaders[d, k]``, ``trick_winners[d, k]``. Returns
    ``(winner of the last trick, s0..s3)`` (``leader`` when no trick is played)."""
    n_players = hands.shape[0]
    trump_block = suit_block(trump)
    winner = leader
    for k in range(first, n_tricks):
        led = np.int64(-1)
        led_block = np.int64(0)
        wins = np.int64(0)
        win_card = np.int64(-1)
        win_seat = leader
        trick_points = np.int64(0)
        for i in range(n_players):
            seat = leader + i
            if seat >= n_players:
                seat -= n_players
            useat = np.uint64(seat)  # an unsigned index: no negative-index fix-up
            held = np.int64(hands[useat, 0])
            legal = held if i == 0 else must_head(held, led_block, trump_block, wins)
            if smart is None or policies[useat] == POLICY_RANDOM:
                c, s0, s1, s2, s3 = random_pick(legal, s0, s1, s2, s3)
            elif policies[useat] >= POLICY_SOLVER:  # the solver, or sampling: exact here
                c = solver_card(np.int64(hands[0, 0]), np.int64(hands[0, 1]),
                                np.int64(hands[0, 2]), np.int64(hands[0, 3]),
                                np.int64(hands[1, 0]), np.int64(hands[1, 1]),
                                np.int64(hands[1, 2]), np.int64(hands[1, 3]), np.int64(seat),
                                legal, np.int64(win_card), np.int64(trump), card_points,
                                np.int64(last_trick), scratch)
            else:
                c = heuristic_talon_card(legal, hands[useat, 0], hands[useat, 1], hands[useat, 2],
                                         hands[useat, 3], g0, g1, g2, g3, copies, False, i, led,
                                         win_card, pairs and i > 0 and win_seat == (seat ^ 2),
                                         i == n_players - 1, trick_points, 0, trump, counters)
            remove_card(hands, useat, c)
            if smart is not None:
                g0, g1, g2, g3 = add_card(g0, g1, g2, g3, c)
            if record:
                trick_cards[d, k, i] = c
            trick_points += card_points[c]
            if i == 0:
                led = c // 6
                led_block = suit_block(led)
                wins = takes(trump, c)
                win_card = c
            else:
                take = ((wins >> c) & 1) != 0
                wins = either(take, takes(trump, c), wins)
                win_seat = either(take, seat, win_seat)
                win_card = either(take, c, win_card)
        winner = win_seat
        if record:
            trick_leaders[d, k] = leader
            trick_winners[d, k] = winner
        points[np.uint64(winner), column] += trick_points
        won[np.uint64(winner)] += 1
        leader = winner
    return winner, s0, s1, s2, s3
