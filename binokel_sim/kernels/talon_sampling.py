"""The ``sampling`` policy in the two-player talon game (two-hand-48), phase 1 (issue 11). Phase 2
is a game of perfect information, where the policy plays the exact solver's card
(:mod:`binokel_sim.kernels.solver_policy`, as ``heuristic+solver`` does).

What the seat knows at a phase-1 decision (docs/rules.md, "Sampling policy and inference"): its
own hand, every card played, the talon's face-up last card, and the opponent's cards that are
public: the copies that have served a declaration and were not played since (declarations are
shown, and a copy played is its type's most-served copy), and the turned card he took with the
swap until he plays that type from no served copy. The other cards, the *pool*, are the
opponent's other cards and the talon's hidden cards. Phase 1 is free play, so no card played
tells anything about them: one uniform shuffle of the pool (the first cards to the opponent, the
rest to the hidden talon in draw order) is a uniform sample of the deals consistent with what is
known. The sampler is exact without conditioning; the variant must play phase 1 freely
(``games.policy_id`` refuses the policy elsewhere).

On each of ``n_samples`` samples every legal card type is tried: the card is played, and the deal
is played to its end with the heuristic on both seats (:func:`talon_rest`: the trick, the
winner's declaration, the draws, the rest of phase 1, then phase 2 through
:func:`~binokel_sim.kernels.strict_tricks.play_strict`). The policy plays the card type with the
highest total of its score minus the opponent's (card points and declarations: the deal's score
in a two-player game), the same samples for every card, the lowest type on a tie. The samples
read the block's stream.
"""

import numpy as np

from binokel_sim.kernels.deal import add_card
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.policies import POLICY_HEURISTIC, lowest_bit, popcount
from binokel_sim.kernels.random import below_scalar
from binokel_sim.kernels.solver_policy import solver_scratch
from binokel_sim.kernels.strict_tricks import must_head, play_strict, takes
from binokel_sim.kernels.talon_declare import (
    CFG_COPIES,
    CFG_HAND,
    CFG_LAST_TRICK,
    CFG_PAIRS,
    CFG_STRICT1,
    CFG_SWAP_RANK,
    D_POINTS,
    apply_declaration,
    copies_of,
    heuristic_declaration,
    served_copies,
    take_copy,
)
from binokel_sim.kernels.talon_policy import WIN_FOR_POINTS, beats, heuristic_talon_card
from binokel_sim.kernels.tricks import suit_block

N_TYPES = 24


@njit
def talon_sampling_scratch(n_players, n_talon, n_melds, active):
    """The policy's working arrays (small stubs unless ``active``): the pool; a play-out's hands,
    talon, records, points and tricks won; the heuristic's policies; the totals per card type; a
    sample's hands and talon; the placeholders :func:`play_strict` is given."""
    p = n_players if active else 1
    return (np.empty(96, dtype=np.int64), np.zeros((p, 4), dtype=np.int64),
            np.zeros(max(n_talon, 1), dtype=np.int64),
            np.zeros((p, N_TYPES, 4), dtype=np.int64), np.zeros((p, max(n_melds, 1)),
                                                               dtype=np.int64),
            np.zeros((p, 2), dtype=np.int64), np.zeros(p, dtype=np.int64),
            np.full(p, POLICY_HEURISTIC, dtype=np.int64), np.zeros(N_TYPES, dtype=np.int64),
            np.zeros((p, 4), dtype=np.int64), np.zeros(max(n_talon, 1), dtype=np.int64),
            np.empty((0, 1, 1), dtype=np.int64), np.empty((0, 1), dtype=np.int64),
            solver_scratch(False))


@njit
def known_copies(served, seat, t, took_seat, took_card):
    """The copies of ``t`` that everybody knows ``seat`` holds: those that have served a
    declaration (:func:`served_copies`), and the turned card taken with the swap while the seat
    has neither played that type from no served copy nor declared a fresh copy of it (either
    ends what is known of it: :func:`~binokel_sim.kernels.talon.talon_items` clears
    ``took_seat``). Reads nothing hidden."""
    return served_copies(served, seat, t) + (1 if seat == took_seat and t == took_card else 0)


@njit
def unseen_pool(hands, talon, served, seat, g0, g1, g2, g3, took_seat, took_card, copies, pool):
    """What ``seat`` (two players) cannot see: writes the pool's card types to ``pool`` (each
    type ``copies`` times in the deck, less the seat's, those played (``g0..g3``), the talon's
    face-up last card and the opponent's known copies, :func:`known_copies`). Returns
    ``(n_pool, opponent's unknown cards, planes of his known cards)``."""
    other = 1 - seat
    face_up = talon[talon.shape[0] - 1]
    n_pool = 0
    n_known = 0
    k0 = k1 = k2 = k3 = np.int64(0)
    for t in range(N_TYPES):
        played = (((g0 >> t) & 1) + ((g1 >> t) & 1) + ((g2 >> t) & 1) + ((g3 >> t) & 1))
        known = known_copies(served, other, t, took_seat, took_card)
        for _ in range(known):
            k0, k1, k2, k3 = add_card(k0, k1, k2, k3, t)
        n_known += known
        left = copies - copies_of(hands, seat, t) - played - known - (face_up == t)
        for _ in range(left):
            pool[n_pool] = t
            n_pool += 1
    opp_hidden = (popcount(hands[other, 0]) + popcount(hands[other, 1])
                  + popcount(hands[other, 2]) + popcount(hands[other, 3]) - n_known)
    return n_pool, opp_hidden, k0, k1, k2, k3


@njit
def shuffle_pool(pool, n, s0, s1, s2, s3):
    """A uniform shuffle of ``pool[:n]`` in place (Fisher-Yates, a bounded draw per position but
    the last); returns the stream ``s0..s3``."""
    for j in range(n - 1):
        r, s0, s1, s2, s3 = below_scalar(n - j, s0, s1, s2, s3)
        x = pool[j]
        pool[j] = pool[j + r]
        pool[j + r] = x
    return s0, s1, s2, s3


@njit
def talon_rest(h, talon, drawn, served, served_any, points, won, policies, leader, k, position,
               led, wins, win_card, win_seat, trick_points, g0, g1, g2, g3, trump, tt, counters,
               scratch, first):
    """Play a talon deal to its end with the heuristic on every seat, from phase-1 trick ``k``
    with ``position`` cards of it on the table (``led``, ``wins``, ``win_card``, ``win_seat``,
    ``trick_points``: the trick so far, as :func:`talon_items` keeps it), the next card
    ``first`` (-1: the heuristic's). ``h`` int64 (P, 4)
    hands, ``talon`` the whole talon of which ``drawn`` are drawn, ``served`` / ``served_any``
    the records, ``points`` (P, 2) card and meld points so far are all updated in place;
    ``g0..g3`` the cards played. The last trick's bonus is added."""
    cfg, decl, n_decl, card_points = tt[0], tt[1], tt[2], tt[3]
    n_players = h.shape[0]
    n_talon = talon.shape[0]
    phase1 = n_talon // n_players
    n_tricks = phase1 + cfg[CFG_HAND]
    strict = cfg[CFG_STRICT1] != 0
    pairs = cfg[CFG_PAIRS] != 0
    copies = cfg[CFG_COPIES]
    trump_block = suit_block(trump)
    swap_nine = trump * 6 + cfg[CFG_SWAP_RANK] if cfg[CFG_SWAP_RANK] >= 0 else -1
    rows = decl[trump]
    n_rows = n_decl[trump]
    led_block = suit_block(led) if position > 0 else np.int64(0)
    for kk in range(k, phase1):
        for i in range(position if kk == k else 0, n_players):
            seat = leader + i
            if seat >= n_players:
                seat -= n_players
            held = h[seat, 0]
            legal = held if i == 0 or not strict else must_head(held, led_block, trump_block,
                                                                wins)
            c = first
            first = np.int64(-1)
            if c < 0:
                ready = np.int64(0)
                if i > 0 and trick_points < WIN_FOR_POINTS and beats(legal, win_card, led,
                                                                    trump_block):
                    r, _ = heuristic_declaration(h, served, served_any, seat, rows, n_rows,
                                                 trump, talon, cfg)
                    ready = rows[r, D_POINTS] if r >= 0 else 0
                c = heuristic_talon_card(legal, h[seat, 0], h[seat, 1], h[seat, 2], h[seat, 3],
                                         g0, g1, g2, g3, copies, True, i, led, win_card,
                                         pairs and i > 0 and win_seat == (seat ^ 2),
                                         i == n_players - 1, trick_points, ready, trump,
                                         counters)
            take_copy(h, served, served_any, seat, c)
            g0, g1, g2, g3 = add_card(g0, g1, g2, g3, c)
            trick_points += card_points[c]
            if i == 0:
                led = c // 6
                led_block = suit_block(led)
                wins = takes(trump, c)
                win_card = c
                win_seat = seat
            elif (wins >> c) & 1:
                wins = takes(trump, c)
                win_card = c
                win_seat = seat
        winner = win_seat
        points[winner, 0] += trick_points
        r, swap = heuristic_declaration(h, served, served_any, winner, rows, n_rows, trump,
                                        talon, cfg)
        if r >= 0:
            apply_declaration(h, served, served_any, talon, winner, rows, r, swap, swap_nine)
            points[winner, 1] += rows[r, D_POINTS]
        for j in range(n_players):
            seat = winner + j
            if seat >= n_players:
                seat -= n_players
            give = talon[drawn]
            q0, q1, q2, q3 = add_card(h[seat, 0], h[seat, 1], h[seat, 2], h[seat, 3], give)
            h[seat, 0] = q0
            h[seat, 1] = q1
            h[seat, 2] = q2
            h[seat, 3] = q3
            drawn += 1
        leader = winner
        trick_points = np.int64(0)
        led = np.int64(-1)
        led_block = np.int64(0)
        wins = np.int64(0)
        win_card = np.int64(-1)
        win_seat = leader
    winner, _, _, _, _ = play_strict(
        h, leader, phase1, n_tricks, trump, policies, np.int64(1), copies, pairs, card_points,
        counters, g0, g1, g2, g3, points, 0, won, False, 0, scratch[11], scratch[12],
        scratch[12], np.uint64(0), np.uint64(0), np.uint64(0), np.uint64(0),
        cfg[CFG_LAST_TRICK], scratch[13])
    points[winner, 0] += cfg[CFG_LAST_TRICK]



@njit
def talon_sampling_card(hands, talon, drawn, served, served_any, points, seat, legal, leader, k,
                        position, led, wins, win_card, win_seat, trick_points, g0, g1, g2, g3,
                        trump, took_seat, took_card, tt, counters, n_samples, scratch, s0, s1,
                        s2, s3):
    """The phase-1 card of the sampling seat ``seat`` (two players) out of ``legal`` (int64 mask,
    two or more types): the state is :func:`talon_items`' at trick ``k``, ``position`` cards on
    the table, ``drawn`` talon cards drawn, ``took_seat`` / ``took_card`` the swap's taker and
    the card he took (-1: none known). Reads the stream ``s0..s3``: per sample one Fisher-Yates
    shuffle of the pool (a bounded draw per position but the last). Returns ``(card, s0..s3)``.
    Only what the seat knows is read from the true state (see the module's docstring)."""
    cfg = tt[0]
    pool, h, tal, srv, sany, pts, won, policies, totals, base_h, base_talon = scratch[:11]
    n_talon = talon.shape[0]
    copies = cfg[CFG_COPIES]
    other = 1 - seat
    n_pool, opp_hidden, k0, k1, k2, k3 = unseen_pool(hands, talon, served, seat, g0, g1, g2, g3,
                                                     took_seat, took_card, copies, pool)
    for q in range(4):
        base_h[seat, q] = hands[seat, q]
    talon_hidden = n_talon - 1 - drawn
    if opp_hidden + talon_hidden != n_pool or opp_hidden < 0:
        raise ValueError("talon sampling: the unseen cards do not add up")
    for j in range(n_talon):  # drawn cards are gone, the hidden ones sampled: only the last read
        base_talon[j] = talon[n_talon - 1] if j == n_talon - 1 else -1
    totals[:] = 0
    for _ in range(n_samples):
        s0, s1, s2, s3 = shuffle_pool(pool, n_pool, s0, s1, s2, s3)
        q0, q1, q2, q3 = k0, k1, k2, k3
        for j in range(opp_hidden):
            q0, q1, q2, q3 = add_card(q0, q1, q2, q3, pool[j])
        base_h[other, 0] = q0
        base_h[other, 1] = q1
        base_h[other, 2] = q2
        base_h[other, 3] = q3
        for j in range(talon_hidden):
            base_talon[drawn + j] = pool[opp_hidden + j]
        todo = legal
        while todo:
            c = lowest_bit(todo)
            todo &= todo - 1
            h[:, :] = base_h
            tal[:] = base_talon
            srv[:, :, :] = served
            sany[:, :] = served_any
            pts[:, :] = points
            won[:] = 0
            talon_rest(h, tal, drawn, srv, sany, pts, won, policies, leader, k, position, led,
                       wins, win_card, win_seat, trick_points, g0, g1, g2, g3, trump, tt,
                       counters, scratch, c)
            totals[c] += pts[seat, 0] + pts[seat, 1] - pts[other, 0] - pts[other, 1]
    best = -1
    todo = legal
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if best < 0 or totals[c] > totals[best]:
            best = c
    return best, s0, s1, s2, s3
