"""Strict tricks (must head) played by the random policy, the talon heuristic or the exact solver
(``heuristic+solver``, two players): phase 2 of the talon games and every trick of the widow
games. Contract: SPEC.md "Must-head obligation" and "Trick winner"; the heuristic's rules are in
:mod:`binokel_sim.kernels.strict.heuristic`, the solver's card in
:mod:`binokel_sim.kernels.strict.solver_policy`.

:func:`play_strict` is inlined into the talon and widow deal loops (``inline="always"``), with
``smart`` None there when every seat plays at random (numba then prunes every branch that asks
``smart is None``: the all-random loops compile no policy code and keep no knowledge of the cards
played) and ``record`` a :class:`TrickRecord`, so only the drivers that keep records write them.
A family's part of strict play (who plays with whom, what the table knows, a play-out's value)
is reached through :mod:`binokel_sim.kernels.strict.family`, by its type: this package imports
no family.
"""

from collections import namedtuple

import numpy as np

from binokel_sim.kernels.bits import either, kth_bit, lowest_bit, popcount
from binokel_sim.kernels.deal import add_card
from binokel_sim.kernels.knowledge import excluded_by, infers
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.play import must_head, remove_card, suit_block, takes
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
from binokel_sim.kernels.strict.family import (
    NoPart,
    part_declarer,
    part_groups,
    part_partner,
    part_sample,
    part_value,
    part_view,
)
from binokel_sim.kernels.strict.heuristic import (
    Meld,
    Place,
    heuristic_talon_card,
)
from binokel_sim.kernels.strict.sampling import (
    best_type,
    learn,
    race_step,
    race_zone,
    strict_view,
)
from binokel_sim.kernels.strict.endgame import EndgameTable, endgame_moves, endgame_value
from binokel_sim.kernels.strict.solver_policy import solver_card

StrictTable = namedtuple("StrictTable", ["copies", "pairs", "card_points", "counters",
                                         "last_trick", "tune", "at", "side"])
"""The strict tricks' table: ``copies`` (int64) copies of a card in the deck; ``pairs`` (bool)
fixed partnerships (seat parity); ``card_points`` int64 (24,); ``counters`` (int64 mask) the card
types worth points (:func:`counter_cards`); ``last_trick`` (int64) the last trick's bonus;
``tune`` the knobs, the heuristic's from ``at`` on and the expert's after them
(:func:`~binokel_sim.kernels.policies.tune_row`; None where every seat plays the heuristic
proper, the sampling policy's play-outs: its knobs are then constants); ``side`` the family's
side part (:func:`~binokel_sim.kernels.strict.family.part_partner`: who treats whom as partner
beyond fixed partnerships; :class:`~binokel_sim.kernels.strict.family.NoPart` for none)."""

Trick = namedtuple("Trick", ["leader", "position", "led", "wins", "win_card", "win_seat",
                             "points", "k"])
"""A trick in play, int64 each: led by ``leader``, ``position`` cards on the table, ``led`` the
led suit, ``wins`` the cards that would take it (:func:`takes` of ``win_card``, the card holding
it, played by ``win_seat``), ``points`` its card points so far, ``k`` its number in the deal."""

TrickRecord = namedtuple("TrickRecord", ["on", "d", "cards", "leaders", "winners"])
"""Where the trick loop writes its tricks when ``on`` (bool): deal ``d``'s row of ``cards``
int64 (n, H, P) (``cards[d, k, i]``), ``leaders`` and ``winners`` int64 (n, H); placeholders
when not ``on``."""


@njit
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


@njit
def random_free(legal, s0, s1, s2, s3):
    """:func:`binokel_sim.kernels.policies.random_pick` for a choice that is seldom forced (a
    whole hand in free play): the same card and the same stream, with a branch on the forced
    card (well predicted there) instead of selecting the state."""
    n = popcount(legal)
    if n == 1:
        return lowest_bit(legal), s0, s1, s2, s3
    k, s0, s1, s2, s3 = below_scalar(n, s0, s1, s2, s3)
    return kth_bit(legal, k), s0, s1, s2, s3


@njit
def counter_cards(card_points):
    """The card types worth points (int64 mask): the heuristic's counters."""
    counters = np.int64(0)
    for t in range(24):
        if card_points[t] > 0:
            counters |= np.int64(1) << t
    return counters


@njit(inline="always")
def play_strict(hands, leader, first, n_tricks, trump, policies, smart, search, table, played,
                score, record, stream, scratch, knows):
    """Play tricks ``first .. n_tricks - 1`` under the must-head obligation, ``leader`` leading
    the first of them. ``hands`` (P, 4) planes are consumed; ``policies`` int64 (P,) the seats'
    policy ids, every seat random when ``smart`` is None (any other value: as ``policies``
    say; ``search`` None compiles neither the solver nor the sampling card: no seat plays
    them); ``table`` the :class:`StrictTable`; ``played`` ``(g0, g1, g2, g3)`` the planes of the
    cards played before (the heuristic's knowledge); the random policy reads one bounded draw
    per card with at least two legal card types from ``stream`` ``(s0, s1, s2, s3)``. A seat of
    the ``heuristic+solver`` policy (two players only) plays the solver's card
    (:mod:`binokel_sim.kernels.strict.solver_policy`, with ``scratch`` its scratch; None where no
    seat can play it: not compiled), and so does a ``sampling`` seat of two players; of more
    players it plays :func:`strict_sampling_card`, with ``knows`` the table's knowledge
    (:class:`~binokel_sim.kernels.strict.sampling.StrictKnowledge`), which every card played
    then updates. A heuristic seat treats as partner whom fixed partnerships or the table's side
    part say (:func:`~binokel_sim.kernels.strict.family.part_partner`). ``score`` is
    ``(points, won)``: adds each trick's card points to ``points[winner, 0]`` and one to
    ``won[winner]``; when ``record.on``, writes the :class:`TrickRecord`. Returns ``(winner of the
    last trick, s0..s3)`` (``leader`` when no trick is played)."""
    n_players = hands.shape[0]
    trump_block = suit_block(trump)
    g0, g1, g2, g3 = played
    s0, s1, s2, s3 = stream
    points, won = score
    pairs, card_points, tune, tune_at = table.pairs, table.card_points, table.tune, table.at
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
                    hands, seat, legal,
                    Trick(leader, i, led, wins, win_card, win_seat, trick_points, k), n_tricks,
                    trump, table, (g0, g1, g2, g3), knows, (s0, s1, s2, s3))
            elif search is not None and scratch is not None and searches(policies[useat]):
                # the solver, or sampling: exact here
                c = solver_card(np.int64(hands[0, 0]), np.int64(hands[0, 1]),
                                np.int64(hands[0, 2]), np.int64(hands[0, 3]),
                                np.int64(hands[1, 0]), np.int64(hands[1, 1]),
                                np.int64(hands[1, 2]), np.int64(hands[1, 3]), np.int64(seat),
                                legal, np.int64(win_card), np.int64(trump), card_points,
                                np.int64(table.last_trick), scratch)
            else:
                at = tune_row(policies[useat], tune_at)
                team = part_partner(table.side, tune, at, seat, win_seat)
                c = heuristic_talon_card(
                    legal, (hands[useat, 0], hands[useat, 1], hands[useat, 2], hands[useat, 3]),
                    (g0, g1, g2, g3), table.copies, np.bool_(False),
                    Place(i, led, win_card,
                          i > 0 and ((pairs and win_seat == (seat ^ 2)) or team),
                          i == n_players - 1, trick_points),
                    Meld(np.int64(0), np.int64(0), np.int64(0)), trump, table.counters, tune, at)
            remove_card(hands, useat, c)
            if smart is not None:
                g0, g1, g2, g3 = add_card(g0, g1, g2, g3, c)
            if search is not None and knows is not None and learning:
                learn(knows, useat, c, excluded_by(c, led_block, trump_block, wins) if i > 0
                      else np.int64(0))
            if record.on:
                record.cards[record.d, k, i] = c
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
        if record.on:
            record.leaders[record.d, k] = leader
            record.winners[record.d, k] = winner
        points[np.uint64(winner), 0] += trick_points
        won[np.uint64(winner)] += 1
        leader = winner
    return winner, s0, s1, s2, s3


@njit(_nrt=False)
def strict_rollout(work, seat, card, trick, n_tricks, trump, table, played, playout, exact):
    """The points and tricks from trick ``trick.k`` on (``playout.points`` column 0 and
    ``playout.won``, the last trick's bonus included) when ``seat`` plays ``card`` as the
    ``trick.position``-th card of the :class:`Trick` (``played`` the planes of the cards played
    before it) and every seat then plays the heuristic to the end of the deal, or with
    ``exact`` above 0 until ``exact`` tricks are left, which are solved exactly for ``seat``'s
    side (:func:`exact_points`; the tricks of those are not counted). ``work`` (P, 4)
    holds every hand as it is before ``card`` and is consumed. ``playout`` is the
    :class:`~binokel_sim.kernels.strict.sampling.Playout`, not the whole knowledge: a call
    counts a reference to every array it is given, on entry and on exit, and this one runs
    for every legal card of every sample (docs/performance.md, "Sampling speed")."""
    points, won = playout.points, playout.won
    leader, position, led, wins, win_card, win_seat, trick_points, k = trick
    g0, g1, g2, g3 = played
    pairs, last_trick = table.pairs, table.last_trick
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
            c = heuristic_talon_card(
                legal, (work[us, 0], work[us, 1], work[us, 2], work[us, 3]),
                (g0, g1, g2, g3), table.copies, np.bool_(False),
                Place(i, led, win_card, pairs and win_seat == (s ^ 2), i == n_players - 1,
                      trick_points),
                Meld(np.int64(0), np.int64(0), np.int64(0)), trump, table.counters, None,
                np.int64(0))
        remove_card(work, us, c)
        g0, g1, g2, g3 = add_card(g0, g1, g2, g3, c)
        trick_points += table.card_points[c]
        led, led_block, wins, win_card, win_seat = trick_step(i, c, s, trump, led, led_block,
                                                              wins, win_card, win_seat)
    points[:, :] = 0
    won[:] = 0
    points[win_seat, 0] += trick_points
    won[win_seat] += 1
    heuristic = StrictTable(table.copies, pairs, table.card_points, table.counters, last_trick,
                            None, np.int64(0), NoPart())
    stop = max(k + 1, n_tricks - exact) if exact > 0 else n_tricks
    winner, _, _, _, _ = play_strict(
        work, win_seat, k + 1, stop, trump, playout.heuristic, np.int64(1), None, heuristic,
        (g0, g1, g2, g3), (points, won),
        TrickRecord(False, 0, playout.stub3, playout.stub2, playout.stub2),
        (np.uint64(0), np.uint64(0), np.uint64(0), np.uint64(0)), None, None)
    if stop == n_tricks:
        points[winner, 0] += last_trick
        return
    ours = endgame_value(work, Trick(winner, np.int64(0), np.int64(-1), np.int64(0),
                                     np.int64(-1), winner, np.int64(0), np.int64(stop)),
                         n_tricks - stop, exact_table(table, trump, playout), playout.endgame)
    exact_points(points, seat, ours, held_points(work, table.card_points) + last_trick)


@njit
def exact_table(table, trump, playout):
    """The endgame search's :class:`~binokel_sim.kernels.strict.endgame.EndgameTable` for the
    side ``playout.ours`` holds: card points, the last trick's bonus."""
    return EndgameTable(table.card_points, np.int64(table.last_trick), playout.ours,
                        playout.ours, False, np.int64(trump))


@njit
def side_of(ours, seat, pairs):
    """Writes into ``ours`` 1 for the seats of ``seat``'s side (its partnership with ``pairs``,
    else itself), 0 for the others."""
    for s in range(ours.shape[0]):
        ours[s] = 1 if s == seat or (pairs and ((s ^ seat) & 1) == 0) else 0


@njit
def held_points(hands, card_points):
    """The card points of every card still held (``hands`` (P, 4) planes)."""
    total = np.int64(0)
    for s in range(hands.shape[0]):
        for q in range(4):
            m = np.int64(hands[s, q])
            while m:
                total += card_points[lowest_bit(m)]
                m &= m - 1
    return total


@njit
def exact_points(points, seat, ours, rest):
    """Adds a solved ending to the play-out's ``points`` (column 0): ``ours`` of the ``rest``
    still to win to ``seat`` (for its side), the others to the seat after it (on the other
    side: partnerships alternate), which is all a side's value reads."""
    n_players = points.shape[0]
    points[seat, 0] += ours
    other = seat + 1
    if other >= n_players:
        other -= n_players
    points[other, 0] += rest - ours


@njit
def strict_sampling_card(hands, seat, legal, trick, n_tricks, trump, table, played, knows,
                         stream):
    """The ``sampling`` seat's card out of ``legal`` in a strict trick of three or four players
    with hidden hands (phase 2 of three- and four-hand-72, every trick of the widow games), the
    :class:`Trick` in play, ``played`` the planes of the cards played before it:
    ``knows.n_samples`` times, the cards it cannot see are dealt to the other seats (and to the
    groups the family's part adds: in a widow game the buried cards, unless it is the soloist)
    by the exact constrained sampler
    (:func:`~binokel_sim.kernels.strict.sampling.strict_view`,
    :func:`~binokel_sim.kernels.strict.family.part_groups` and the sampler's bound;
    reading ``stream``: one 53-bit uniform per type with copies to place; the other seats'
    excluded types respected as ``knows.infer`` says,
    :data:`~binokel_sim.kernels.knowledge.INFERENCE`, the family part's declarer the
    declarer), and every legal type is played out on the sample (:func:`strict_rollout`) and
    valued by the family's part (:func:`~binokel_sim.kernels.strict.family.part_value`: without
    one, :func:`~binokel_sim.kernels.strict.family.side_value` of the points from this trick on;
    the widow games' score of the deal); with the seat's ``knows.exact`` above 0 (the talon
    games' ``duel --exact-tricks``) the play-outs' last tricks are solved
    (:func:`strict_rollout`), and within them each card's value on the sample is the search's
    (:func:`~binokel_sim.kernels.strict.endgame.endgame_moves`, :func:`exact_points`). With the
    race on (``knows.race``: the talon games) every
    :data:`~binokel_sim.constants.RACE_EVERY` samples the types far behind the leader, or at best
    a little better, leave (:func:`~binokel_sim.kernels.strict.sampling.race_step`; one left
    ends the decision). It
    plays the type with the highest total among those left, the lowest on a tie (a single legal
    type is played without sampling). Reads of ``hands`` its own row and the other rows' sizes.
    Returns ``(card, s0..s3)``."""
    s0, s1, s2, s3 = stream
    if popcount(legal) == 1:
        return lowest_bit(legal), s0, s1, s2, s3
    g0, g1, g2, g3 = played
    pool, allowed, capacity, bound = knows.pool, knows.allowed, knows.capacity, knows.bound
    ways, split, base, work = knows.ways, knows.split, knows.base, knows.work
    totals, state, playout = knows.totals, knows.state, knows.playout
    points, won = playout.points, playout.won
    part = knows.family
    pairs = table.pairs
    n_samples = knows.n_samples
    n_players = hands.shape[0]
    view = part_view(part, knows.known, seat)
    inferring = infers(knows.infer, seat, part_declarer(part))
    n_groups = strict_view(hands, seat, view, knows.excluded, inferring, table.copies, g0, g1,
                           g2, g3, pool, allowed, capacity)
    n_groups = part_groups(part, seat, view, pool, allowed, capacity, bound, n_groups)
    if count_bounded(pool, allowed, capacity, n_groups, ways, bound) <= 0.0:
        raise ValueError("sampling policy: no deal fits what the table knows")
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    for q in range(4):
        base[seat, q] = hands[seat, q]
    totals[:] = 0
    race, value, cross = knows.race != 0, knows.value, knows.cross
    cross[:, :] = 0
    alive = legal
    zone = race_zone(pairs)
    exact = knows.exact[seat]
    solved = exact > 0 and n_tricks - trick.k <= exact  # every card valued by the search
    rest = np.int64(0)
    if exact > 0:
        side_of(playout.ours, seat, pairs)
    for sample in range(n_samples):
        sample_bounded(pool, allowed, capacity, n_groups, ways, state, split, bound)
        for g in range(n_players - 1):
            s = seat + 1 + g
            if s >= n_players:
                s -= n_players
            q0, q1, q2, q3 = group_planes(view, split, s, g)
            base[s, 0] = q0
            base[s, 1] = q1
            base[s, 2] = q2
            base[s, 3] = q3
        kept = part_sample(part, seat, split, n_groups, table.card_points)
        if solved:
            endgame_moves(base, trick, n_tricks - trick.k, exact_table(table, trump, playout),
                          playout.endgame, playout.values)
            rest = trick.points + held_points(base, table.card_points) + table.last_trick
        todo = alive
        while todo:
            c = lowest_bit(todo)
            todo &= todo - 1
            if solved:
                points[:, :] = 0
                won[:] = 0
                exact_points(points, seat, playout.values[c], rest)
            else:
                work[:, :] = base
                strict_rollout(work, seat, c, trick, n_tricks, trump, table, played, playout,
                               exact)
            v = part_value(part, points, won, seat, kept, pairs)
            totals[c] += v
            value[c] = v
        if race:
            alive = race_step(alive, value, totals, cross, sample + 1, n_samples, zone)
            if alive & (alive - 1) == 0:
                break
    return best_type(alive, totals), state[0], state[1], state[2], state[3]
