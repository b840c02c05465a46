"""Strict tricks (must head) played by the random policy, the talon heuristic or the exact solver
(``heuristic+solver``, two players): phase 2 of the talon games and every trick of the widow
games. Contract: SPEC.md "Must-head obligation" and "Trick winner"; the heuristic's rules are in
:mod:`binokel_sim.kernels.strict.heuristic`, the solver's card in
:mod:`binokel_sim.kernels.strict.solver_policy`.

:func:`play_strict` is inlined into the talon and widow deal loops (``inline="always"``), with
``smart`` None there when every seat plays at random (numba then prunes every branch that asks
``smart is None``: the all-random loops compile no policy code and keep no knowledge of the cards
played) and ``record`` a constant, so only the drivers that keep records write them.
"""

import numpy as np

from binokel_sim.kernels.bits import either, kth_bit, lowest_bit, popcount
from binokel_sim.kernels.deal import add_card
from binokel_sim.kernels.knowledge import excluded_by, infers
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.play import WINS_OVER, remove_card, suit_block
from binokel_sim.kernels.policies import (
    POLICY_BOTTOM,
    POLICY_RANDOM,
    POLICY_SAMPLING,
    POLICY_TOP,
    random_pick,
    ranked_card,
    searches,
    tune_row,
)
from binokel_sim.kernels.random import below_scalar
from binokel_sim.kernels.sampler import count_bounded, group_planes, sample_bounded
from binokel_sim.kernels.strict.heuristic import S_TEAM, heuristic_talon_card
from binokel_sim.kernels.strict.sampling import (
    best_type,
    learn,
    race_step,
    race_zone,
    side_value,
    strict_view,
)
from binokel_sim.kernels.strict.solver_policy import solver_card
from binokel_sim.kernels.strict.widow_knowledge import (
    W_ON,
    W_SOLOIST,
    sample_buried_points,
    view_known,
    widow_groups,
    widow_value,
)

TAKES = WINS_OVER  # the cards that take a trick from a card (tricks.WINS_OVER), by trump


@njit(inline="always")
def takes(trump, c):
    """The cards that would take the trick from ``c`` (:data:`TAKES`)."""
    return TAKES[(trump * 24 + c) & 127]


@njit(inline="always")
def trick_step(i, c, seat, trump, led, led_block, wins, win_card, win_seat):
    """The trick's state after ``seat`` played ``c`` as its ``i``-th card: ``(led, led_block,
    wins, win_card, win_seat)``, the led suit and its block, the cards that would take the trick
    (:func:`takes` of the card holding it), that card and its seat. The play-outs' form, with
    branches (``play_strict`` keeps the same state branch-free)."""
    if i == 0:
        led = c // 6
        return led, suit_block(led), takes(trump, c), c, seat
    if (wins >> c) & 1:
        return led, led_block, takes(trump, c), c, seat
    return led, led_block, wins, win_card, win_seat


@njit(inline="always")
def must_head(held, led_block, trump_block, wins):
    """The must-head obligation (:func:`binokel_sim.kernels.play.legal_under`) with the trick
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


@njit
def teamed(tune, at, soloist, seat, win_seat):
    """Whether ``seat`` counts ``win_seat`` as its partner in a widow game: its knob ``S_TEAM``
    (``tune`` from ``at`` on) is on and both are the soloist's opponents. ``tune`` None (the
    heuristic's knobs, :func:`~binokel_sim.kernels.strict.heuristic.heuristic_talon_card`):
    never."""
    if tune is None:
        return False
    return tune[at + S_TEAM] != 0 and soloist >= 0 and seat != soloist and win_seat != soloist


@njit(inline="always")
def play_strict(hands, leader, first, n_tricks, trump, policies, smart, search, copies, pairs,
                card_points, counters, g0, g1, g2, g3, points, won, record, d,
                trick_cards, trick_leaders, trick_winners, s0, s1, s2, s3, knobs, scratch,
                knows):
    """Play tricks ``first .. n_tricks - 1`` under the must-head obligation, ``leader`` leading
    the first of them. ``hands`` (P, 4) planes are consumed; ``policies`` int64 (P,) the seats'
    policy ids, every seat random when ``smart`` is None (any other value: as ``policies``
    say; ``search`` None compiles neither the solver nor the sampling card: no seat plays
    them); ``g0..g3`` the planes of the cards played before (the heuristic's knowledge); the
    random policy reads one bounded draw per card with at least two legal card types. A seat of
    the ``heuristic+solver`` policy (two players only) plays the solver's card
    (:mod:`binokel_sim.kernels.strict.solver_policy`, with ``last_trick`` the last trick's bonus and
    ``scratch`` its scratch; None where no seat can play it: not compiled), and so does a
    ``sampling`` seat of two players; of more players it
    plays :func:`strict_sampling_card`, with ``knows`` the table's knowledge
    (:func:`~binokel_sim.kernels.strict.sampling.strict_knowledge`), which every card played
    then updates. ``knobs`` is ``(last_trick, tune, at, soloist)``: the last trick's bonus,
    ``tune`` holding the heuristic's knobs from ``at`` on and the expert's after them
    (:func:`~binokel_sim.kernels.policies.tune_row`; None where every seat plays the heuristic
    proper, the sampling policy's play-outs: its knobs are then constants), and the widow
    games' soloist (-1: none),
    whose opponents are partners to a seat whose knob ``S_TEAM`` is on (one argument, not
    four: past 30 arguments Python passes them as ``*args``, which numba does not inline).
    Adds each trick's card points to ``points[winner, 0]`` and one to ``won[winner]``; when ``record``, writes
    ``trick_cards[d, k, i]``, ``trick_leaders[d, k]``, ``trick_winners[d, k]``. Returns
    ``(winner of the last trick, s0..s3)`` (``leader`` when no trick is played)."""
    n_players = hands.shape[0]
    trump_block = suit_block(trump)
    last_trick, tune, tune_at, soloist = knobs
    winner = leader
    # the table's knowledge is kept only where a seat samples with hidden hands; ``knows`` is
    # sized for the seats only then (strict_knowledge)
    learning = False
    if search is not None and knows is not None and smart is not None and n_players > 2:
        for s in range(n_players):
            learning |= policies[s] == POLICY_SAMPLING
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
            elif policies[useat] == POLICY_TOP or policies[useat] == POLICY_BOTTOM:
                c = ranked_card(legal, policies[useat] == POLICY_TOP)  # Durch / Bettel soloist
            elif search is not None and knows is not None and n_players > 2 and \
                    policies[useat] == POLICY_SAMPLING:
                c, s0, s1, s2, s3 = strict_sampling_card(
                    hands, seat, legal, leader, i, led, wins, win_card, win_seat, trick_points,
                    k, n_tricks, trump, copies, pairs, card_points, counters, g0, g1, g2, g3,
                    last_trick, knows, s0, s1, s2, s3)
            elif search is not None and scratch is not None and searches(policies[useat]):
                # the solver, or sampling: exact here
                c = solver_card(np.int64(hands[0, 0]), np.int64(hands[0, 1]),
                                np.int64(hands[0, 2]), np.int64(hands[0, 3]),
                                np.int64(hands[1, 0]), np.int64(hands[1, 1]),
                                np.int64(hands[1, 2]), np.int64(hands[1, 3]), np.int64(seat),
                                legal, np.int64(win_card), np.int64(trump), card_points,
                                np.int64(last_trick), scratch)
            else:
                at = tune_row(policies[useat], tune_at)
                team = teamed(tune, at, soloist, seat, win_seat)
                c = heuristic_talon_card(legal, hands[useat, 0], hands[useat, 1], hands[useat, 2],
                                         hands[useat, 3], g0, g1, g2, g3, copies, np.bool_(False), i,
                                         led, win_card,
                                         i > 0 and ((pairs and win_seat == (seat ^ 2)) or team),
                                         i == n_players - 1, trick_points, np.int64(0), trump,
                                         counters, tune, at, np.int64(0), np.int64(0))
            remove_card(hands, useat, c)
            if smart is not None:
                g0, g1, g2, g3 = add_card(g0, g1, g2, g3, c)
            if search is not None and knows is not None and learning:
                learn(knows, useat, c, excluded_by(c, led_block, trump_block, wins) if i > 0
                      else np.int64(0))
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
        points[np.uint64(winner), 0] += trick_points
        won[np.uint64(winner)] += 1
        leader = winner
    return winner, s0, s1, s2, s3


@njit
def strict_rollout(work, seat, card, leader, position, led, wins, win_card, win_seat,
                   trick_points, k, n_tricks, trump, copies, pairs, card_points, counters, g0, g1,
                   g2, g3, last_trick, knows):
    """The points and tricks from trick ``k`` on (``knows[12]`` column 0 and ``knows[13]``, the
    last trick's bonus included) when ``seat`` plays ``card`` as the ``position``-th card of
    trick ``k`` (led by ``leader``; ``led``, ``wins``, ``win_card``, ``win_seat``,
    ``trick_points`` the trick so far, as :func:`play_strict` keeps it) and every seat then plays
    the heuristic to the end of the deal. ``work`` (P, 4) holds every hand as it is before
    ``card`` and is consumed."""
    points, won, heuristic, stub3, stub2, no_solver = knows[12:18]
    n_players = work.shape[0]
    trump_block = suit_block(trump)
    led_block = suit_block(led) if position > 0 else np.int64(0)
    c = card
    for i in range(position, n_players):
        s = leader + i
        if s >= n_players:
            s -= n_players
        us = np.uint64(s)
        if i > position:  # i > 0: the seats after the sampling seat follow by the heuristic
            legal = must_head(np.int64(work[us, 0]), led_block, trump_block, wins)
            c = heuristic_talon_card(legal, work[us, 0], work[us, 1], work[us, 2], work[us, 3],
                                     g0, g1, g2, g3, copies, np.bool_(False), i, led, win_card,
                                     pairs and win_seat == (s ^ 2), i == n_players - 1,
                                     trick_points, np.int64(0), trump, counters,
                                     None, np.int64(0), np.int64(0), np.int64(0))
        remove_card(work, us, c)
        g0, g1, g2, g3 = add_card(g0, g1, g2, g3, c)
        trick_points += card_points[c]
        led, led_block, wins, win_card, win_seat = trick_step(i, c, s, trump, led, led_block,
                                                              wins, win_card, win_seat)
    points[:, :] = 0
    won[:] = 0
    points[win_seat, 0] += trick_points
    won[win_seat] += 1
    winner, _, _, _, _ = play_strict(
        work, win_seat, k + 1, n_tricks, trump, heuristic, np.int64(1), None, copies, pairs,
        card_points, counters, g0, g1, g2, g3, points, won, False, 0, stub3, stub2, stub2,
        np.uint64(0), np.uint64(0), np.uint64(0), np.uint64(0),
        (last_trick, None, np.int64(0), np.int64(-1)), no_solver, None)
    points[winner, 0] += last_trick


@njit
def strict_sampling_card(hands, seat, legal, leader, position, led, wins, win_card, win_seat,
                         trick_points, k, n_tricks, trump, copies, pairs, card_points, counters,
                         g0, g1, g2, g3, last_trick, knows, s0, s1, s2, s3):
    """The ``sampling`` seat's card out of ``legal`` in a strict trick of three or four players
    with hidden hands (phase 2 of three- and four-hand-72, every trick of the widow games):
    ``knows[2]`` times, the cards it cannot see are dealt to the other seats (and in a widow game
    to the buried cards, unless it is the soloist) by the exact constrained sampler
    (:func:`~binokel_sim.kernels.strict.sampling.strict_view`,
    :func:`~binokel_sim.kernels.strict.widow_knowledge.widow_groups` and the sampler's bound;
    reading
    ``s0..s3``: one 53-bit uniform per type with copies to place; the other seats' excluded
    types respected as ``knows[19]`` says, :data:`~binokel_sim.kernels.knowledge.INFERENCE`,
    the widow games' soloist the declarer), and every legal type is
    played out on the sample (:func:`strict_rollout`) and valued: the talon games'
    :func:`~binokel_sim.kernels.strict.sampling.side_value` of the points from this trick on, the
    widow games' :func:`~binokel_sim.kernels.strict.widow_knowledge.widow_value` of the deal's
    score. With the race on (``knows[20]``: the talon games) every
    :data:`~binokel_sim.constants.RACE_EVERY` samples the types far behind the leader, or at best
    a little better, leave (:func:`~binokel_sim.kernels.strict.sampling.race_step`; one left
    ends the decision). It
    plays the type with the highest total among those left, the lowest on a tie (a single legal
    type is played without sampling). Reads of ``hands`` its own row and the other rows' sizes.
    Returns
    ``(card, s0..s3)``."""
    if popcount(legal) == 1:
        return lowest_bit(legal), s0, s1, s2, s3
    excluded, known, n_samples, ways, split, pool, allowed, capacity = knows[:8]
    base, work, totals, state = knows[8:12]
    points, won = knows[12], knows[13]
    wk = knows[18]
    widow = wk[0][W_ON] != 0
    n_players = hands.shape[0]
    view = view_known(wk, known, seat) if widow else known
    inferring = infers(knows[19], seat, wk[0][W_SOLOIST] if widow else -1)
    n_groups = strict_view(hands, seat, view, excluded, inferring, copies, g0, g1, g2, g3, pool,
                           allowed, capacity)
    if widow:
        n_groups = widow_groups(seat, view, pool, allowed, capacity, wk)
    if count_bounded(pool, allowed, capacity, n_groups, ways, wk[6]) <= 0.0:
        raise ValueError("sampling policy: no deal fits what the table knows")
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    for q in range(4):
        base[seat, q] = hands[seat, q]
    totals[:] = 0
    race, value, cross = knows[20] != 0, knows[21], knows[22]
    cross[:, :] = 0
    alive = legal
    zone = race_zone(pairs)
    for sample in range(n_samples):
        sample_bounded(pool, allowed, capacity, n_groups, ways, state, split, wk[6])
        for g in range(n_players - 1):
            s = seat + 1 + g
            if s >= n_players:
                s -= n_players
            q0, q1, q2, q3 = group_planes(view, split, s, g)
            base[s, 0] = q0
            base[s, 1] = q1
            base[s, 2] = q2
            base[s, 3] = q3
        buried_points = sample_buried_points(wk, seat, split, n_groups, card_points) if widow \
            else np.int64(0)
        todo = alive
        while todo:
            c = lowest_bit(todo)
            todo &= todo - 1
            work[:, :] = base
            strict_rollout(work, seat, c, leader, position, led, wins, win_card, win_seat,
                           trick_points, k, n_tricks, trump, copies, pairs, card_points,
                           counters, g0, g1, g2, g3, last_trick, knows)
            if widow:
                v = widow_value(wk, points, won, seat, buried_points, pairs)
            else:
                v = side_value(points, seat, pairs)
            totals[c] += v
            value[c] = v
        if race:
            alive = race_step(alive, value, totals, cross, sample + 1, n_samples, zone)
            if alive & (alive - 1) == 0:
                break
    return best_type(alive, totals), state[0], state[1], state[2], state[3]
