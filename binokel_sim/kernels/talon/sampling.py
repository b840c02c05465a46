"""The ``sampling`` policy in the talon games, phase 1 (issue 11). Phase 2 of two players is a
game of perfect information, where the policy plays the exact solver's card
(:mod:`binokel_sim.kernels.strict.solver_policy`, as ``heuristic+solver`` does); phase 2 of three
or four
players has hidden hands, where it samples under what the strict tricks reveal
(:mod:`binokel_sim.kernels.strict.sampling`).

What the seat knows at a phase-1 decision (docs/rules.md, "Sampling policy and inference"): its
own hand, every card played, the talon's face-up last card, and the other seats' cards that are
public: the copies that have served a declaration and were not played since (declarations are
shown, and a copy played is its type's most-served copy), and the turned card taken with the swap
until its taker plays that type from no served copy. The other cards, the *pool*, are the other
seats' unknown cards and the talon's hidden cards. Phase 1 is free play, so no card played tells
anything about them: one uniform shuffle of the pool (the first cards to the other seats in seat
order from the seat's left, the rest to the hidden talon in draw order) is a uniform sample of the
deals consistent with what is known. The sampler is exact without conditioning; the variant must
play phase 1 freely (``games.policy_id`` refuses the policy elsewhere).

On each of ``n_samples`` samples every legal card type still in the race is tried (every
:data:`~binokel_sim.constants.RACE_EVERY` samples a type whose mean is far behind the leader's on
the same samples, or at best a little above it, is dropped,
:func:`~binokel_sim.kernels.strict.sampling.race_drop`; a decision ends when one is left): the
card is played, and the deal is played to its end with the heuristic on every seat
(:func:`talon_rest`: the trick, the winner's declaration, the draws, the rest of phase 1, then
phase 2 through
:func:`~binokel_sim.kernels.strict.tricks.play_strict`). The policy plays the card type with the
highest total, among those still in the race, of its side's score less the other sides' mean
(:func:`~binokel_sim.kernels.strict.sampling.side_value`; card points and declarations: the deal's
score), the same samples for every card, the lowest type on a tie. The samples read the block's
stream.

When phase 2 starts, :func:`knowledge_start` writes what the table knows of each seat
(:func:`known_copies`) into the strict tricks' knowledge.

The bundles: :class:`DealState` (where the deal stands), the trick in play as the strict
tricks' :class:`~binokel_sim.kernels.strict.tricks.Trick`, the variant's
:class:`~binokel_sim.kernels.talon.deals.TalonTable` and its
:class:`~binokel_sim.kernels.talon.lookup.DeclarationTables`, and the policy's working arrays
(:class:`SamplingScratch`).
"""

from collections import namedtuple

import numpy as np

from binokel_sim.kernels.bits import N_TYPES, lowest_bit, popcount
from binokel_sim.kernels.deal import add_card
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.play import copies_of, suit_block
from binokel_sim.kernels.policies import POLICY_HEURISTIC
from binokel_sim.kernels.random import below_scalar
from binokel_sim.kernels.strict.family import NoPart
from binokel_sim.kernels.strict.heuristic import (
    WIN_FOR_MELD,
    WIN_FOR_POINTS,
    Meld,
    Place,
    beats,
    heuristic_talon_card,
)
from binokel_sim.kernels.strict.sampling import best_type, race_step, race_zone, side_value
from binokel_sim.kernels.strict.solver_policy import solver_scratch
from binokel_sim.kernels.strict.tricks import (
    StrictTable,
    TrickRecord,
    must_head,
    play_strict,
    trick_step,
)
from binokel_sim.kernels.talon.declare import (
    CFG_COPIES,
    CFG_HAND,
    CFG_LAST_TRICK,
    CFG_PAIRS,
    CFG_STRICT1,
    CFG_SWAP_RANK,
    D_POINTS,
    apply_declaration,
    heuristic_declaration,
    served_copies,
    take_copy,
)
from binokel_sim.kernels.talon.lookup import (
    S_BIG,
    S_SWAP,
    S_WIDE,
    held_rows,
    held_rows_high,
    key_mask,
    key_points,
    legal_rows,
)

DealState = namedtuple("DealState", ["hands", "talon", "drawn", "served", "served_any", "points",
                                     "played", "trump", "took_seat", "took_card"])
"""Where a talon deal stands in phase 1 (P seats): ``hands`` int64 (P, 4) the seats' planes,
``talon`` int64 (T,) the whole talon of which the first ``drawn`` (int64) are drawn, the
records ``served`` int64 (P, 24, MAX_COPIES) and ``served_any`` int64 (P, melds)
(:mod:`~binokel_sim.kernels.talon.declare`), ``points`` int64 (P, 2) card and meld points so
far, ``played`` the planes of the cards played (a tuple of four int64), ``trump`` (int64), and
``took_seat`` / ``took_card`` (int64) the swap's taker and the card he took (-1: none known,
:func:`known_copies`). A play-out (:func:`talon_rest`) updates its arrays in place."""

SamplingScratch = namedtuple("SamplingScratch", [
    "pool", "hands", "talon", "served", "served_any", "points", "won", "policies", "totals",
    "base_hands", "base_talon", "stub3", "stub2", "no_solver", "known", "hidden", "value",
    "cross"])
"""The sampling policy's working arrays (:func:`talon_sampling_scratch`; P seats, or 1 when the
policy does not play): ``pool`` int64 (96,) the unseen cards; a play-out's ``hands`` (P, 4),
``talon`` (T,), records ``served`` (P, 24, 4) and ``served_any`` (P, melds), ``points`` (P, 2)
and tricks ``won`` (P,); ``policies`` (P,) the heuristic's on every seat; ``totals`` (24,) per
card type; a sample's ``base_hands`` (P, 4) and ``base_talon`` (T,); ``stub3``, ``stub2`` and
``no_solver`` the placeholders :func:`play_strict` is given; per seat ``known`` (P, 4) the planes
of its known cards and ``hidden`` (P,) the number of its other cards (:func:`unseen_pool`); the
race's ``value`` (24,) and ``cross`` (24, 24)
(:func:`~binokel_sim.kernels.strict.sampling.race_step`). int64 throughout."""


@njit
def talon_sampling_scratch(n_players, n_talon, n_melds, active):
    """The policy's :class:`SamplingScratch` (small stubs unless ``active``)."""
    p = n_players if active else 1
    return SamplingScratch(
        np.empty(96, dtype=np.int64), np.zeros((p, 4), dtype=np.int64),
        np.zeros(max(n_talon, 1), dtype=np.int64),
        np.zeros((p, N_TYPES, 4), dtype=np.int64), np.zeros((p, max(n_melds, 1)),
                                                           dtype=np.int64),
        np.zeros((p, 2), dtype=np.int64), np.zeros(p, dtype=np.int64),
        np.full(p, POLICY_HEURISTIC, dtype=np.int64), np.zeros(N_TYPES, dtype=np.int64),
        np.zeros((p, 4), dtype=np.int64), np.zeros(max(n_talon, 1), dtype=np.int64),
        np.empty((0, 1, 1), dtype=np.int64), np.empty((0, 1), dtype=np.int64),
        solver_scratch(False), np.zeros((p, 4), dtype=np.int64), np.zeros(p, dtype=np.int64),
        np.zeros(N_TYPES, dtype=np.int64), np.zeros((N_TYPES, N_TYPES), dtype=np.int64))


@njit
def unseen_pool(hands, talon, served, seat, g0, g1, g2, g3, took_seat, took_card, copies, pool,
                known, hidden):
    """What ``seat`` cannot see: writes the pool's card types to ``pool`` (each type ``copies``
    times in the deck, less the seat's, those played (``g0..g3``), the talon's face-up last card
    and the other seats' known copies, :func:`known_copies`), and per other seat the planes of
    its known cards to ``known[s]`` and the number of its other cards to ``hidden[s]`` (the
    seat's own rows 0). Returns the pool's size."""
    n_players = hands.shape[0]
    face_up = talon[talon.shape[0] - 1]
    for s in range(n_players):
        for q in range(4):
            known[s, q] = 0
        hidden[s] = 0 if s == seat else (popcount(hands[s, 0]) + popcount(hands[s, 1])
                                         + popcount(hands[s, 2]) + popcount(hands[s, 3]))
    n_pool = 0
    for t in range(N_TYPES):
        played = (((g0 >> t) & 1) + ((g1 >> t) & 1) + ((g2 >> t) & 1) + ((g3 >> t) & 1))
        left = copies - copies_of(hands, seat, t) - played - (face_up == t)
        for s in range(n_players):
            if s == seat:
                continue
            n = known_copies(served, s, t, took_seat, took_card)
            for _ in range(n):
                k0, k1, k2, k3 = add_card(known[s, 0], known[s, 1], known[s, 2], known[s, 3], t)
                known[s, 0] = k0
                known[s, 1] = k1
                known[s, 2] = k2
                known[s, 3] = k3
            hidden[s] -= n
            left -= n
        for _ in range(left):
            pool[n_pool] = t
            n_pool += 1
    return n_pool


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


@njit(_nrt=False)
def talon_rest(deal, trick, table, dt, counters, scratch, first):
    """Play a talon deal to its end with the heuristic on every seat, from phase-1 trick
    ``trick.k`` with ``trick.position`` cards of it on the table (the
    :class:`~binokel_sim.kernels.strict.tricks.Trick` so far, as
    :func:`~binokel_sim.kernels.talon.deals.talon_blocks` keeps it), the next card ``first``
    (int64, -1: the heuristic's). The :class:`DealState` ``deal``'s hands, talon (its ``drawn``
    cards drawn), records and points are updated in place; ``scratch`` (:class:`SamplingScratch`)
    gives the heuristic's ``policies`` and counts the tricks ``won``. The last trick's bonus is
    added. ``table``: the :class:`~binokel_sim.kernels.talon.deals.TalonTable`; ``counters`` the
    card types worth points (:func:`~binokel_sim.kernels.strict.tricks.counter_cards`). The
    declarations are looked up in ``dt`` (:class:`~binokel_sim.kernels.talon.lookup.
    DeclarationTables`; a wide table scans its rows): the rows the hand holds, a row with a card
    of which some copy has served checked by :func:`~binokel_sim.kernels.talon.lookup.legal_rows`:
    no call in the common case, since a call given arrays costs reference counting
    (docs/performance.md)."""
    cfg, decl, n_decl, card_points = table.cfg, table.decl, table.n_decl, table.card_points
    h, talon, drawn, served, served_any, points = (deal.hands, deal.talon, deal.drawn,
                                                   deal.served, deal.served_any, deal.points)
    g0, g1, g2, g3 = deal.played
    trump = deal.trump
    won, policies = scratch.won, scratch.policies
    leader, position, led, wins, win_card, win_seat, trick_points, k = trick
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
    fits, sets, keys = dt.fits, dt.sets, dt.keys
    wide = sets[0, S_WIDE] != 0
    n_melds = served_any.shape[1]
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
                    if wide:
                        r, _ = heuristic_declaration(h, served, served_any, seat, rows, n_rows,
                                                     trump, talon, cfg)
                        ready = rows[r, D_POINTS] if r >= 0 else 0
                    else:  # rule E2 asks only whether one worth WIN_FOR_MELD waits
                        q0, q1, q2, q3 = h[seat, 0], h[seat, 1], h[seat, 2], h[seat, 3]
                        todo = ((held_rows(fits, sets, trump, q0, q1)
                                 | held_rows_high(fits, sets, trump, q2, q3))
                                & sets[trump, S_BIG])
                        dirty = np.int64(0)
                        for m in range(n_melds):
                            dirty |= served_any[seat, m]
                        ready = np.int64(0)
                        while todo:
                            r = lowest_bit(todo)
                            todo &= todo - 1
                            bit = np.int64(1) << r
                            if key_mask(keys[trump, r]) & dirty and not legal_rows(
                                    keys, decl, served, served_any, seat, trump, bit, bit, q0,
                                    q1, q2, q3):
                                continue
                            ready = WIN_FOR_MELD
                            break
                c = heuristic_talon_card(
                    legal, (h[seat, 0], h[seat, 1], h[seat, 2], h[seat, 3]), (g0, g1, g2, g3),
                    copies, np.bool_(True),
                    Place(i, led, win_card, pairs and i > 0 and win_seat == (seat ^ 2),
                          i == n_players - 1, trick_points),
                    Meld(ready, np.int64(0), np.int64(0)), trump, counters, None, np.int64(0))
            take_copy(h, served, served_any, seat, c)
            g0, g1, g2, g3 = add_card(g0, g1, g2, g3, c)
            trick_points += card_points[c]
            led, led_block, wins, win_card, win_seat = trick_step(i, c, seat, trump, led,
                                                                  led_block, wins, win_card,
                                                                  win_seat)
        winner = win_seat
        points[winner, 0] += trick_points
        if wide:
            r, swap = heuristic_declaration(h, served, served_any, winner, rows, n_rows, trump,
                                            talon, cfg)
        else:
            q0, q1, q2, q3 = h[winner, 0], h[winner, 1], h[winner, 2], h[winner, 3]
            todo = (held_rows(fits, sets, trump, q0, q1)
                    | held_rows_high(fits, sets, trump, q2, q3))
            dirty = np.int64(0)
            for m in range(n_melds):
                dirty |= served_any[winner, m]
            r = -1
            best_points = 0
            while todo:
                row = lowest_bit(todo)
                todo &= todo - 1
                key = keys[trump, row]
                if key_points(key) <= best_points:
                    continue
                bit = np.int64(1) << row
                if key_mask(key) & dirty and not legal_rows(keys, decl, served, served_any, winner,
                                                           trump, bit, bit, q0, q1, q2, q3):
                    continue
                r = row
                best_points = key_points(key)
            swap = (r >= 0 and ((sets[trump, S_SWAP] >> r) & 1) != 0 and swap_nine >= 0
                    and talon[n_talon - 1] != swap_nine)
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
        h, leader, phase1, n_tricks, trump, policies, np.int64(1), np.int64(1),
        StrictTable(copies, pairs, card_points, counters, cfg[CFG_LAST_TRICK], None, np.int64(0),
                    NoPart()),
        (g0, g1, g2, g3), (points, won), TrickRecord(False, 0, scratch.stub3, scratch.stub2,
                                                     scratch.stub2),
        (np.uint64(0), np.uint64(0), np.uint64(0), np.uint64(0)), scratch.no_solver, None)
    points[winner, 0] += cfg[CFG_LAST_TRICK]



@njit
def talon_sampling_card(deal, seat, legal, trick, table, dt, counters, n_samples, scratch,
                        stream):
    """The phase-1 card of the sampling seat ``seat`` out of ``legal`` (int64 mask, two or more
    types): the :class:`DealState` ``deal`` is
    :func:`~binokel_sim.kernels.talon.deals.talon_blocks`' at the
    :class:`~binokel_sim.kernels.strict.tricks.Trick` ``trick`` (phase-1 trick ``trick.k``,
    ``trick.position`` cards on the table); ``table``, ``dt``, ``counters``: as
    :func:`talon_rest` has them; ``n_samples`` the samples; ``scratch`` the
    :class:`SamplingScratch`. Reads the stream ``stream`` ``(s0, s1, s2, s3)``: per sample one
    Fisher-Yates shuffle of the pool (a bounded draw per position but the last), whose first
    cards go to the other seats' unknown cards in seat order from the seat's left, the rest to the
    hidden talon in draw order. Every ``RACE_EVERY`` samples the types far behind the leader, or
    at best a little better, leave the race
    (:func:`~binokel_sim.kernels.strict.sampling.race_step`; one type left ends the decision and
    the stream is read no further). Plays the type with the best total of :func:`side_value`
    among those left. Returns
    ``(card, s0..s3)``. Only what the seat knows is read from the true state (see the module's
    docstring)."""
    cfg = table.cfg
    hands, talon, drawn, served, served_any, points = (deal.hands, deal.talon, deal.drawn,
                                                       deal.served, deal.served_any, deal.points)
    g0, g1, g2, g3 = deal.played
    took_seat, took_card = deal.took_seat, deal.took_card
    s0, s1, s2, s3 = stream
    pool, h, tal, srv, sany, pts = (scratch.pool, scratch.hands, scratch.talon, scratch.served,
                                    scratch.served_any, scratch.points)
    won, totals, base_h, base_talon = (scratch.won, scratch.totals, scratch.base_hands,
                                       scratch.base_talon)
    known, hidden, value, cross = scratch.known, scratch.hidden, scratch.value, scratch.cross
    rest = DealState(h, tal, drawn, srv, sany, pts, deal.played, deal.trump, took_seat,
                     took_card)  # the play-outs' deal: the scratch arrays, reset per card
    n_players = hands.shape[0]
    n_talon = talon.shape[0]
    copies = cfg[CFG_COPIES]
    pairs = cfg[CFG_PAIRS] != 0
    n_pool = unseen_pool(hands, talon, served, seat, g0, g1, g2, g3, took_seat, took_card,
                         copies, pool, known, hidden)
    for q in range(4):
        base_h[seat, q] = hands[seat, q]
    talon_hidden = n_talon - 1 - drawn
    n_hidden = 0
    for s in range(n_players):
        if hidden[s] < 0:
            raise ValueError("talon sampling: the unseen cards do not add up")
        n_hidden += hidden[s]
    if n_hidden + talon_hidden != n_pool:
        raise ValueError("talon sampling: the unseen cards do not add up")
    for j in range(n_talon):  # drawn cards are gone, the hidden ones sampled: only the last read
        base_talon[j] = talon[n_talon - 1] if j == n_talon - 1 else -1
    totals[:] = 0
    cross[:, :] = 0
    alive = legal
    zone = race_zone(pairs)
    for sample in range(n_samples):
        s0, s1, s2, s3 = shuffle_pool(pool, n_pool, s0, s1, s2, s3)
        j = 0
        for g in range(1, n_players):
            s = seat + g
            if s >= n_players:
                s -= n_players
            q0, q1, q2, q3 = known[s, 0], known[s, 1], known[s, 2], known[s, 3]
            for _ in range(hidden[s]):
                q0, q1, q2, q3 = add_card(q0, q1, q2, q3, pool[j])
                j += 1
            base_h[s, 0] = q0
            base_h[s, 1] = q1
            base_h[s, 2] = q2
            base_h[s, 3] = q3
        for i in range(talon_hidden):
            base_talon[drawn + i] = pool[j + i]
        todo = alive
        while todo:
            c = lowest_bit(todo)
            todo &= todo - 1
            h[:, :] = base_h
            tal[:] = base_talon
            srv[:, :, :] = served
            sany[:, :] = served_any
            pts[:, :] = points
            won[:] = 0
            talon_rest(rest, trick, table, dt, counters, scratch, c)
            v = side_value(pts, seat, pairs)
            totals[c] += v
            value[c] = v
        alive = race_step(alive, value, totals, cross, sample + 1, n_samples, zone)
        if alive & (alive - 1) == 0:
            break
    return best_type(alive, totals), s0, s1, s2, s3


@njit
def known_copies(served, seat, t, took_seat, took_card):
    """The copies of ``t`` that everybody knows ``seat`` holds: those that have served a
    declaration (:func:`~binokel_sim.kernels.talon.declare.served_copies`), and the turned card
    taken with the swap while the seat has neither played that type from no served copy nor
    declared a fresh copy of it (either ends what is known of it:
    :func:`~binokel_sim.kernels.talon.deals.talon_blocks` clears
    ``took_seat``). Reads nothing hidden."""
    return served_copies(served, seat, t) + (1 if seat == took_seat and t == took_card else 0)


@njit
def knowledge_start(knows, served, took_seat, took_card, drawer, face_up):
    """The knowledge when phase 2 starts: no type excluded (phase 1 is free play), and per seat
    its :func:`known_copies`, plus the talon's face-up last card for ``drawer``, the seat that
    drew it (phase 2's strict knowledge,
    :func:`~binokel_sim.kernels.strict.sampling.strict_knowledge`)."""
    excluded, known = knows.excluded, knows.known
    for s in range(known.shape[0]):
        excluded[s] = 0
        for t in range(N_TYPES):
            known[s, t] = known_copies(served, s, t, took_seat, took_card)
    known[drawer, face_up] += 1
