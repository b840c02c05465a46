"""The talon games (two-hand-48, three-hand-72, four-hand-72): deal, phase-1 free play with a
declaration after each won trick and the draws, phase-2 strict play, and the deal's score.
Contract: SPEC.md "Variant two-hand-48" and "Variants three-hand-72 and four-hand-72"; the
decisions the contract leaves open are in docs/rules.md, "Talon games".

The variant arrives as one tuple ``tt`` (:func:`binokel_sim.tables.compile_talon`):

- ``cfg`` int64 (N_CFG,): the ``CFG_*`` numbers below;
- ``decl`` int64 (4, rows, N_DECL): per trump suit, every declaration a player might make (meld,
  level, the card types of one set, points, counted per copy, the swap meld), in the order the
  random policy counts them (docs/rules.md, "Policies");
- ``n_decl`` int64 (4,): the rows in use per trump;
- ``card_points`` int64 (24,): trick points of every card type.

A seat's hand is bit planes (uint32[4], :mod:`binokel_sim.cards`). What its card copies have served
is kept beside it: ``served[seat, t, i]`` (int64) the served record of the ``i``-th copy of type
``t`` (the level served per meld, two bits a meld), copies in descending order of record, unused
slots 0; ``served_any[seat, m]`` the card types with a copy that has served meld ``m``. A copy
played or swapped away is the first in that order; a drawn card is a fresh copy (record 0).
"""

import numpy as np
from numba import prange

from binokel_sim.kernels.deal import add_card, block_start, deal_planes, lay_out
from binokel_sim.kernels.options import njit, njit_parallel
from binokel_sim.kernels.policies import POLICY_RANDOM, lowest_bit, random_card
from binokel_sim.kernels.random import below_scalar
from binokel_sim.kernels.strict_tricks import into_trick, play_strict_tricks
from binokel_sim.kernels.talon_policy import WIN_FOR_POINTS, beats, heuristic_talon_card
from binokel_sim.kernels.tricks import legal_under, remove_card, suit_block

# cfg (tables.compile_talon writes the same positions)
CFG_PLAYERS, CFG_HAND, CFG_TALON, CFG_LAST_TRICK, CFG_STRICT1, CFG_BONUS_RANK, CFG_BONUS = range(7)
CFG_SWAP_RANK, CFG_PAIRS, CFG_COPIES = 7, 8, 9
N_CFG = 10
# columns of a declaration row
D_MELD, D_LEVEL, D_MASK, D_POINTS, D_PER_COPY, D_SWAP = range(6)
N_DECL = 6
MAX_COPIES = 4
LEVEL_BITS = 2  # a copy's served record: the level served for meld m at bits 2m, 2m+1


@njit(inline="always")
def copies_of(hands, seat, t):
    """Copies of card type ``t`` in ``hands[seat]``: the planes holding bit ``t``."""
    return (np.int64((hands[seat, 0] >> t) & 1) + np.int64((hands[seat, 1] >> t) & 1)
            + np.int64((hands[seat, 2] >> t) & 1) + np.int64((hands[seat, 3] >> t) & 1))


@njit(inline="always")
def give_card(hands, seat, t):
    """A fresh copy of ``t`` joins ``hands[seat]``; its record slot is already 0."""
    p0, p1, p2, p3 = add_card(hands[seat, 0], hands[seat, 1], hands[seat, 2], hands[seat, 3], t)
    hands[seat, 0] = p0
    hands[seat, 1] = p1
    hands[seat, 2] = p2
    hands[seat, 3] = p3


@njit
def forget_copy(hands, served, served_any, seat, t):
    """After a copy of ``t`` left ``hands[seat]``: drop the first (highest) served record of
    ``t``, and clear ``t`` from ``served_any`` for the melds no copy left has served. Called only
    when some copy of ``t`` has served a meld (records are sorted, so the first is non-zero)."""
    n = copies_of(hands, seat, t)  # copies left
    for i in range(n):
        served[seat, t, i] = served[seat, t, i + 1]
    served[seat, t, n] = 0
    bit = np.int64(1) << t
    for m in range(served_any.shape[1]):
        if served_any[seat, m] & bit:
            still = False
            for i in range(n):
                still |= ((served[seat, t, i] >> (LEVEL_BITS * m)) & 3) != 0
            if not still:
                served_any[seat, m] &= ~bit


@njit(inline="always")
def may_serve(record, m, level, per_copy):
    """Whether a copy with this served record may serve meld ``m`` at ``level``: a meld counted
    per copy only if it never served ``m``; a table meld if it served ``m`` below ``level``."""
    served = (record >> (LEVEL_BITS * m)) & 3
    return served == 0 if per_copy else served < level


@njit
def copies_may_serve(hands, served, seat, rows, r, doubtful):
    """Whether every card type in ``doubtful`` (types of the set ``rows[r]`` of which some copy
    has served its meld) still has ``level`` copies that may serve it."""
    m = rows[r, D_MELD]
    level = rows[r, D_LEVEL]
    per_copy = rows[r, D_PER_COPY] != 0
    while doubtful:
        t = lowest_bit(doubtful)
        doubtful &= doubtful - 1
        usable = 0
        for i in range(copies_of(hands, seat, t)):
            usable += may_serve(served[seat, t, i], m, level, per_copy)
        if usable < level:
            return False
    return True


@njit
def declaration_legal(hands, served, served_any, seat, rows, r):
    """Whether ``hands[seat]`` may declare ``rows[r]`` (int64 (rows, N_DECL)): ``level`` copies of
    every card type of the set that may still serve the meld (docs/rules.md, "Declarations").
    The hot loops inline the first two tests (:func:`random_declaration`)."""
    level = rows[r, D_LEVEL]
    mask = rows[r, D_MASK]
    if (np.int64(hands[seat, level - 1]) & mask) != mask:
        return False  # fewer than `level` copies of some card of the set
    doubtful = served_any[seat, rows[r, D_MELD]] & mask
    return doubtful == 0 or copies_may_serve(hands, served, seat, rows, r, doubtful)


@njit
def declare(hands, served, served_any, seat, rows, r):
    """Mark the copies the legal declaration ``rows[r]`` uses: per card type of the set, the
    first ``level`` copies that may serve, then restore the descending order of the records."""
    m = rows[r, D_MELD]
    level = rows[r, D_LEVEL]
    per_copy = rows[r, D_PER_COPY] != 0
    mark = np.int64(1 if per_copy else level) << (LEVEL_BITS * m)
    clear = ~(np.int64(3) << (LEVEL_BITS * m))
    todo = rows[r, D_MASK]
    while todo:
        t = lowest_bit(todo)
        todo &= todo - 1
        n = copies_of(hands, seat, t)
        left = level
        for i in range(n):
            if left > 0 and may_serve(served[seat, t, i], m, level, per_copy):
                served[seat, t, i] = (served[seat, t, i] & clear) | mark
                left -= 1
        for i in range(1, n):  # insertion sort, descending (at most four copies)
            x = served[seat, t, i]
            j = i - 1
            while j >= 0 and served[seat, t, j] < x:
                served[seat, t, j + 1] = served[seat, t, j]
                j -= 1
            served[seat, t, j + 1] = x
    served_any[seat, m] |= rows[r, D_MASK]


@njit(inline="always")
def swap_card(rows, r, trump, cfg):
    """The card type a declaration of ``rows[r]`` may exchange for the turned card (-1: none)."""
    return trump * 6 + cfg[CFG_SWAP_RANK] if rows[r, D_SWAP] else -1


@njit
def legal_declarations(hands, served, served_any, seat, rows, n_rows, trump, talon, cfg, out):
    """The legal declarations of ``hands[seat]`` in row order: writes their rows to ``out``
    (int64 (rows,)), a row whose swap is possible as ``-(row + 1)``; returns how many. The
    legality test of :func:`declaration_legal`, inlined: this is the hot loop of a deal."""
    last = talon[talon.shape[0] - 1]
    n = 0
    for r in range(n_rows):
        level = rows[r, D_LEVEL]
        mask = rows[r, D_MASK]
        if (np.int64(hands[seat, level - 1]) & mask) != mask:
            continue
        doubtful = served_any[seat, rows[r, D_MELD]] & mask
        if doubtful and not copies_may_serve(hands, served, seat, rows, r, doubtful):
            continue
        swap = swap_card(rows, r, trump, cfg)
        out[n] = -(r + 1) if swap >= 0 and last != swap else r
        n += 1
    return n


@njit
def random_declaration(hands, served, served_any, seat, rows, n_rows, trump, talon, cfg, legal,
                       s0, s1, s2, s3):
    """The random policy's declaration: uniform over "none" and every legal declaration, a
    swap-meld declaration counted twice while the swap is possible (without, then with the swap).
    One bounded draw when there are at least two choices. ``legal`` is scratch. Returns
    ``(row or -1, swap, s0..s3)``."""
    n = legal_declarations(hands, served, served_any, seat, rows, n_rows, trump, talon, cfg, legal)
    n_choices = 1
    for i in range(n):
        n_choices += 2 if legal[i] < 0 else 1
    if n_choices == 1:
        return -1, False, s0, s1, s2, s3
    k, s0, s1, s2, s3 = below_scalar(n_choices, s0, s1, s2, s3)
    k -= 1  # -1: no declaration
    for i in range(n):
        r = legal[i] if legal[i] >= 0 else -legal[i] - 1
        if k == 0:
            return r, False, s0, s1, s2, s3
        if legal[i] < 0 and k == 1:
            return r, True, s0, s1, s2, s3
        k -= 2 if legal[i] < 0 else 1
    return -1, False, s0, s1, s2, s3


@njit
def heuristic_declaration(hands, served, served_any, seat, rows, n_rows, trump, talon, cfg):
    """The heuristic's declaration: the legal one worth most (the first row on a tie), with the
    swap whenever it is possible (the turned card is a better trump than the nine). Returns
    ``(row or -1, swap)``."""
    best = -1
    best_points = 0
    for r in range(n_rows):
        points = rows[r, D_POINTS]
        level = rows[r, D_LEVEL]
        mask = rows[r, D_MASK]
        if points <= best_points or (np.int64(hands[seat, level - 1]) & mask) != mask:
            continue
        doubtful = served_any[seat, rows[r, D_MELD]] & mask
        if doubtful == 0 or copies_may_serve(hands, served, seat, rows, r, doubtful):
            best = r
            best_points = points
    if best < 0:
        return -1, False
    swap = swap_card(rows, best, trump, cfg)
    return best, swap >= 0 and talon[talon.shape[0] - 1] != swap


@njit
def deal_talon(work, cfg, state, hands, talon):
    """Shuffle ``work`` (int64 card types, the block's carried deck) by one partial Fisher-Yates
    over positions 0..N-2 (reads ``state``), then seat ``s`` takes positions ``s*H..s*H+H-1`` into
    ``hands[s]`` and ``talon`` (int64 (T,)) positions ``P*H..N-1`` in draw order; its last card is
    the turned card."""
    deal_planes(work, 0, work.shape[0] - 1, state)
    lay_out(work, 0, cfg[CFG_HAND], hands, talon)


@njit
def deal_around(work, known, turned, cfg, state, hands, talon):
    """The deal around a known hand: seat 0 holds ``known`` (uint32 (4,) planes) and the turned
    card is ``turned``; ``work`` (the unseen cards) is shuffled over positions 0..n-2, seats
    1..P-1 take consecutive hands from it and the talon the rest, then the turned card."""
    deal_planes(work, 0, work.shape[0] - 1, state)
    hands[0, :] = known
    n_talon = talon.shape[0]
    lay_out(work, 1, cfg[CFG_HAND], hands, talon[:n_talon - 1])
    talon[n_talon - 1] = turned


@njit
def play_talon(hands, talon, dealer, seat_policies, state, tt, scratch, points,
               trick_cards, trick_leaders, trick_winners, decl_out):
    """Play one deal from dealt ``hands`` (uint32 (P, 4), consumed) and ``talon`` (int64 (T,),
    draw order, the turned card last; the swap may change its last card).

    ``seat_policies`` int64 (P,): policy id per seat; ``state`` uint64[4]: the random stream, read
    by the random policy only: one bounded draw per card when at least two card types are legal,
    and after each phase-1 trick it wins, one for its declaration when it has at least two
    choices. ``scratch`` is ``(served, served_any, legal_rows, won)``: int64 (P, 24, 4),
    (P, n_melds), (rows,) and (P,), see :func:`_scratch`. Phase 2 is
    :func:`binokel_sim.kernels.strict_tricks.play_strict_tricks`.

    Writes ``points`` int64 (P, 2): card points (the last trick included) and meld points (the
    declarations, the turned bonus for the dealer) per seat; per trick ``k``:
    ``trick_cards[k, i]`` the card played ``i``-th (by seat ``(leader + i) % P``),
    ``trick_leaders[k]``, ``trick_winners[k]``, and ``decl_out[k]`` = (declaration row or -1,
    swap 0/1). The draws after phase-1 trick ``k`` are ``talon[k*P:(k+1)*P]`` (the last one the
    talon's final last card), so they are not written.
    """
    cfg, rows_all, n_decl, card_points = tt[0], tt[1], tt[2], tt[3]
    served, served_any, legal_rows, won = scratch
    n_players = cfg[CFG_PLAYERS]
    n_talon = talon.shape[0]
    trump = talon[n_talon - 1] // 6
    rows = rows_all[trump]
    n_rows = n_decl[trump]
    trump_block = suit_block(trump)
    phase1 = n_talon // n_players
    n_tricks = phase1 + cfg[CFG_HAND]
    served[:, :, :] = 0
    served_any[:, :] = 0
    points[:, :] = 0
    won[:] = 0
    if talon[n_talon - 1] % 6 == cfg[CFG_BONUS_RANK]:
        points[dealer, 1] += cfg[CFG_BONUS]
    counters = np.int64(0)
    for t in range(24):
        if card_points[t] > 0:
            counters |= np.int64(1) << t
    g0 = g1 = g2 = g3 = np.uint32(0)  # the cards played so far, as planes (public knowledge)
    pairs = cfg[CFG_PAIRS] != 0
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    leader = dealer + 1 if dealer + 1 < n_players else 0
    drawn = 0
    strict = cfg[CFG_STRICT1] != 0
    for k in range(phase1):
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
            legal = held if i == 0 or not strict else legal_under(held, led_block, trump_block,
                                                                   beat)
            if seat_policies[seat] == POLICY_RANDOM:
                c, s0, s1, s2, s3 = random_card(legal, s0, s1, s2, s3)
            else:
                ready = 0
                if i > 0 and trick_points < WIN_FOR_POINTS and \
                        beats(legal, win_card, led, trump_block):
                    r, _ = heuristic_declaration(hands, served, served_any, seat, rows, n_rows,
                                                 trump, talon, cfg)
                    ready = rows[r, D_POINTS] if r >= 0 else 0
                c = heuristic_talon_card(legal, hands[seat, 0], hands[seat, 1], hands[seat, 2],
                                         hands[seat, 3], g0, g1, g2, g3, cfg[CFG_COPIES],
                                         True, i, led, win_card,
                                         pairs and i > 0 and win_seat == (seat ^ 2),
                                         i == n_players - 1, trick_points, ready, trump, counters)
            remove_card(hands, seat, c)
            if served[seat, c, 0] != 0:
                forget_copy(hands, served, served_any, seat, c)
            g0, g1, g2, g3 = add_card(g0, g1, g2, g3, c)
            trick_cards[k, i] = c
            trick_points += card_points[c]
            led, led_block, win_key, win_card, win_seat, beat = into_trick(
                c, i, led, led_block, win_key, win_card, win_seat, beat, seat, trump_block)
        winner = win_seat
        trick_leaders[k] = leader
        trick_winners[k] = winner
        points[winner, 0] += trick_points
        if seat_policies[winner] == POLICY_RANDOM:
            r, swap, s0, s1, s2, s3 = random_declaration(hands, served, served_any, winner,
                                                         rows, n_rows, trump, talon, cfg,
                                                         legal_rows, s0, s1, s2, s3)
        else:
            r, swap = heuristic_declaration(hands, served, served_any, winner, rows, n_rows,
                                            trump, talon, cfg)
        decl_out[k, 0] = r
        decl_out[k, 1] = 0
        if r >= 0:
            declare(hands, served, served_any, winner, rows, r)
            points[winner, 1] += rows[r, D_POINTS]
            if swap:
                nine = swap_card(rows, r, trump, cfg)
                remove_card(hands, winner, nine)
                forget_copy(hands, served, served_any, winner, nine)
                give_card(hands, winner, talon[n_talon - 1])
                talon[n_talon - 1] = nine
                decl_out[k, 1] = 1
        for j in range(n_players):
            seat = winner + j
            if seat >= n_players:
                seat -= n_players
            give_card(hands, seat, talon[drawn])
            drawn += 1
        leader = winner
    for k in range(phase1, n_tricks):
        decl_out[k, 0] = -1
        decl_out[k, 1] = 0
    winner, s0, s1, s2, s3 = play_strict_tricks(
        hands, leader, phase1, n_tricks, trump, seat_policies, cfg[CFG_COPIES], pairs,
        card_points, counters, g0, g1, g2, g3, points[:, 0], won, trick_cards, trick_leaders,
        trick_winners, s0, s1, s2, s3)
    points[winner, 0] += cfg[CFG_LAST_TRICK]
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3


# --- block-parallel drivers ---------------------------------------------------------------------

@njit
def _scratch(tt):
    cfg = tt[0]
    n_players = cfg[CFG_PLAYERS]
    n_tricks = cfg[CFG_TALON] // n_players + cfg[CFG_HAND]
    hands = np.empty((n_players, 4), dtype=np.uint32)
    talon = np.empty(cfg[CFG_TALON], dtype=np.int64)
    scratch = (np.zeros((n_players, 24, MAX_COPIES), dtype=np.int64),
               np.zeros((n_players, tt[4]), dtype=np.int64),
               np.empty(tt[1].shape[1], dtype=np.int64), np.zeros(n_players, dtype=np.int64))
    trick_cards = np.empty((n_tricks, n_players), dtype=np.int64)
    trick_leaders = np.empty(n_tricks, dtype=np.int64)
    trick_winners = np.empty(n_tricks, dtype=np.int64)
    decl_out = np.empty((n_tricks, 2), dtype=np.int64)
    return hands, talon, scratch, trick_cards, trick_leaders, trick_winners, decl_out


@njit_parallel
def talon_play_blocks(deck, tt, seat_policies, seed, first_block, block_size, first_deal,
                      hands_out, talon_out, points_out, trick_cards, trick_leaders,
                      trick_winners, decl_out):
    """Deal and play ``hands_out.shape[0]`` deals and record them.

    Deal ``d`` (number ``first_deal + d``, dealer ``(first_deal + d) % P``) reads the stream of
    block ``first_block + d // block_size`` (:func:`deal_talon`, then the random policy's draws in
    :func:`play_talon`). Writes ``hands_out`` uint32 (n, P, 4) as dealt, ``talon_out`` int64
    (n, T) as dealt, ``points_out`` int64 (n, P, 2) and the tricks as :func:`play_talon` (with a
    leading deal axis). The talon's last card after the play is ``talon_out``'s unless a swap is
    recorded in ``decl_out[..., 1]``.
    """
    n_deals = hands_out.shape[0]
    n_blocks = (n_deals + block_size - 1) // block_size
    cfg = tt[0]
    n_players = cfg[CFG_PLAYERS]
    for b in prange(n_blocks):
        state, work = block_start(deck, seed, first_block + b)
        hands, talon, scratch, _, _, _, _ = _scratch(tt)
        for d in range(b * block_size, min(n_deals, (b + 1) * block_size)):
            deal_talon(work, cfg, state, hands, talon)
            hands_out[d] = hands
            talon_out[d] = talon
            play_talon(hands, talon, (first_deal + d) % n_players, seat_policies, state, tt,
                       scratch, points_out[d], trick_cards[d], trick_leaders[d],
                       trick_winners[d], decl_out[d])


@njit
def side_scores(points, sides, n_sides, out):
    """Scores of the sides (int64 (n_sides,)): the card and meld points of their seats;
    ``sides[seat]`` is the seat's side (its partnership, or the seat itself)."""
    out[:] = 0
    for seat in range(points.shape[0]):
        out[sides[seat]] += points[seat, 0] + points[seat, 1]


@njit
def policies_for(side_a, sides, policy_a, policy_b, out):
    """Seat policies with side ``side_a`` on ``policy_a`` and every other side on ``policy_b``."""
    for seat in range(sides.shape[0]):
        out[seat] = policy_a if sides[seat] == side_a else policy_b


@njit_parallel
def talon_duel_blocks(deck, tt, sides, n_sides, policy_a, policy_b, seed, first_block,
                      block_size, first_deal, diff_out):
    """Every deal played ``n_sides`` times from the same cards, A on side ``r`` in play ``r`` and
    B on the others (``sides`` int64 (P,): each seat's side). Writes ``diff_out`` float64 (n,):
    per deal, A's side score minus the mean score of the B sides, averaged over the plays.
    Deal ``d`` (dealer ``(first_deal + d) % P``) reads the stream of block
    ``first_block + d // block_size``: the deal, then the plays one after another."""
    n_deals = diff_out.shape[0]
    n_blocks = (n_deals + block_size - 1) // block_size
    cfg = tt[0]
    n_players = cfg[CFG_PLAYERS]
    for b in prange(n_blocks):
        state, work = block_start(deck, seed, first_block + b)
        hands, talon, scratch, trick_cards, trick_leaders, trick_winners, decl = _scratch(tt)
        dealt = np.empty_like(hands)
        dealt_talon = np.empty_like(talon)
        points = np.empty((n_players, 2), dtype=np.int64)
        seats = np.empty(n_players, dtype=np.int64)
        scores = np.empty(n_sides, dtype=np.int64)
        for d in range(b * block_size, min(n_deals, (b + 1) * block_size)):
            deal_talon(work, cfg, state, dealt, dealt_talon)
            total = 0.0
            for r in range(n_sides):
                hands[:, :] = dealt
                talon[:] = dealt_talon
                policies_for(r, sides, policy_a, policy_b, seats)
                play_talon(hands, talon, (first_deal + d) % n_players, seats, state, tt, scratch,
                           points, trick_cards, trick_leaders, trick_winners, decl)
                side_scores(points, sides, n_sides, scores)
                others = 0
                for q in range(n_sides):
                    others += scores[q] if q != r else 0
                total += scores[r] - others / (n_sides - 1)
            diff_out[d] = total / n_sides


@njit_parallel
def talon_sample_blocks(unseen, known, turned, dealer, tt, seat_policies, seed, first_block,
                        block_size, points_out):
    """Samples for the value of one hand: seat 0 holds ``known`` (uint32 (4,)), the turned card
    is ``turned`` and ``dealer`` deals; the ``unseen`` cards (int64) are dealt around them
    (:func:`deal_around`) and the deal is played once. Writes ``points_out`` int64 (n, P, 2):
    card and meld points per seat. Sample ``d`` reads the stream of block
    ``first_block + d // block_size``."""
    n = points_out.shape[0]
    n_blocks = (n + block_size - 1) // block_size
    cfg = tt[0]
    for b in prange(n_blocks):
        state, work = block_start(unseen, seed, first_block + b)
        hands, talon, scratch, trick_cards, trick_leaders, trick_winners, decl = _scratch(tt)
        for d in range(b * block_size, min(n, (b + 1) * block_size)):
            deal_around(work, known, turned, cfg, state, hands, talon)
            play_talon(hands, talon, dealer, seat_policies, state, tt, scratch, points_out[d],
                       trick_cards, trick_leaders, trick_winners, decl)


@njit
def game_over(totals, target):
    """The winning side after a deal (SPEC: checked after each deal; several over the target: the
    highest total; a tie at the top: another deal), or -1 while the game goes on."""
    best = -1
    top = np.int64(-(1 << 62))
    tied = False
    for q in range(totals.shape[0]):
        if totals[q] > top:
            top = totals[q]
            best = q
            tied = False
        elif totals[q] == top:
            tied = True
    if top < target or tied:
        return -1
    return best


@njit_parallel
def talon_match_blocks(deck, tt, sides, n_sides, policy_a, policy_b, target, max_deals, seed,
                       first_block, block_size, first_game, games_out):
    """Whole games to ``target``: game ``g`` (number ``first_game + g``) puts A on side
    ``(number // P) % n_sides`` and B on the others; its first dealer is ``number % P`` and the
    deal rotates clockwise. Game ``g`` reads the stream of block ``first_block + g //
    block_size``. Writes ``games_out`` int64 (n, 4): the winning side is A (1/0; -1 when
    ``max_deals`` deals did not end the game), deals played, A's final total, the B sides' summed
    final totals."""
    n_games = games_out.shape[0]
    n_blocks = (n_games + block_size - 1) // block_size
    cfg = tt[0]
    n_players = cfg[CFG_PLAYERS]
    for b in prange(n_blocks):
        state, work = block_start(deck, seed, first_block + b)
        hands, talon, scratch, trick_cards, trick_leaders, trick_winners, decl = _scratch(tt)
        points = np.empty((n_players, 2), dtype=np.int64)
        seats = np.empty(n_players, dtype=np.int64)
        scores = np.empty(n_sides, dtype=np.int64)
        totals = np.empty(n_sides, dtype=np.int64)
        for g in range(b * block_size, min(n_games, (b + 1) * block_size)):
            number = first_game + g
            side_a = (number // n_players) % n_sides
            policies_for(side_a, sides, policy_a, policy_b, seats)
            totals[:] = 0
            winner = -1
            deals = 0
            while winner < 0 and deals < max_deals:
                dealer = (number + deals) % n_players
                deal_talon(work, cfg, state, hands, talon)
                play_talon(hands, talon, dealer, seats, state, tt, scratch, points,
                           trick_cards, trick_leaders, trick_winners, decl)
                side_scores(points, sides, n_sides, scores)
                totals += scores
                deals += 1
                winner = game_over(totals, target)
            games_out[g, 0] = -1 if winner < 0 else (1 if winner == side_a else 0)
            games_out[g, 1] = deals
            games_out[g, 2] = totals[side_a]
            games_out[g, 3] = totals.sum() - totals[side_a]


@njit_parallel
def talon_playout_blocks(deck, tt, seat_policies, seed, first_block, block_size, first_deal,
                         points_out):
    """Deal and play ``points_out.shape[0]`` deals without recording them (the benchmark of
    whole deals): as :func:`talon_play_blocks`, the same streams and the same deals, but only
    ``points_out`` int64 (n, P, 2) is written."""
    n_deals = points_out.shape[0]
    n_blocks = (n_deals + block_size - 1) // block_size
    cfg = tt[0]
    n_players = cfg[CFG_PLAYERS]
    for b in prange(n_blocks):
        state, work = block_start(deck, seed, first_block + b)
        hands, talon, scratch, trick_cards, trick_leaders, trick_winners, decl = _scratch(tt)
        for d in range(b * block_size, min(n_deals, (b + 1) * block_size)):
            deal_talon(work, cfg, state, hands, talon)
            play_talon(hands, talon, (first_deal + d) % n_players, seat_policies, state, tt,
                       scratch, points_out[d], trick_cards, trick_leaders,
                       trick_winners, decl)
