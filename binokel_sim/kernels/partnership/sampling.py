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
heuristic on every seat (:func:`~binokel_sim.kernels.partnership.tricks.play_from`; with exact
play-outs, ``duel --exact-tricks``, only until the last ``Sampler.exact`` tricks, which the shared
endgame search solves). It plays the
card type with
the highest total of its side's card points over the samples (the same samples for every card: the
comparison is paired), the lowest type on a tie. (Playing for the deal's score instead, contract and
thresholds included, measured weaker: docs/rules.md.) The samples are drawn from the block's stream,
so a sampling play-out is as reproducible as any other.

The bundles (issue 51), each field documented once:

- :data:`Sampler` (one block's, ``deals.sampler_of``): ``n_samples`` (deals per decision; 0
  when no seat samples), ``infer`` (:data:`~binokel_sim.kernels.knowledge.INFERENCE`: whether
  the deals respect what the plays excluded), ``exact`` int64 (4,) (per seat the tricks left
  that its play-outs solve exactly, :func:`rollout`; 0: none), ``deck_counts`` int64 (24,) (the
  deck), ``scratch`` (:data:`Scratch`) and ``tricks`` (trick records for the drivers that keep none,
  :data:`~binokel_sim.kernels.partnership.tricks.Tricks`).
- :data:`Scratch` (:func:`sampling_scratch`): the sampler's ``ways`` table, the sample's
  ``split``, its planes ``sample``, a play-out's planes ``work``, the ``totals`` per card
  type, the ``pool``, the ``allowed`` masks, the ``capacity`` and per other seat the shown
  cards it still holds (``held``); the exact endgames' ``endgame`` scratch
  (:class:`~binokel_sim.kernels.strict.endgame.EndgameScratch`), the ``sides`` int64 (2, 4)
  (row ``p``: 1 for the seats of pair ``p``) and the ``values`` int64 (24,) of one sample's
  cards (:func:`exact_values`).
- :data:`Knowledge` (:func:`table_knowledge`, updated in place as the cards are played): per
  seat the types ``excluded`` by its plays int64 (4,); the cards ``played`` int64 (24,); per
  seat the cards it played, ``played_by``, and the meld cards it ``shown`` int64 (4, 24) (a shown
  card not played since is known to be held: ``shown - played_by`` copies, at least 0); the
  trick's ``cards`` int64 (4,) in play order. The voids (the heuristic's, an int64 that changes
  with every card) travel beside it.
- :data:`Spot`: where a decision is taken: ``seat``, the trick's ``leader``, the seat's
  ``position`` in it, trick ``k`` of ``n_tricks``, ``trump``, the ``bidder`` and the
  ``voids`` shown so far.
"""

from collections import namedtuple

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
    PlayTable,
    Trick,
    Tricks,
    after_card,
    follow_card,
    hand_cards,
    heuristic_knobs,
    lead_trick,
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
from binokel_sim.kernels.strict.endgame import (
    LEAF_TT_BITS,
    EndgameTable,
    endgame_moves,
    endgame_scratch,
    endgame_value,
)
from binokel_sim.kernels.strict.tricks import Trick as Position
from binokel_sim.kernels.strict.tricks import takes

ALL_HEURISTIC = (1 << N_SEATS) - 1

Sampler = namedtuple("Sampler", ["n_samples", "infer", "exact", "deck_counts", "scratch",
                                 "tricks"])
Scratch = namedtuple("Scratch", ["ways", "split", "sample", "work", "totals", "pool", "allowed",
                                 "capacity", "held", "endgame", "sides", "values"])
Knowledge = namedtuple("Knowledge", ["excluded", "played", "played_by", "shown", "cards"])
Spot = namedtuple("Spot", ["seat", "leader", "position", "k", "n_tricks", "trump", "bidder",
                           "voids"])


@njit
def sampling_scratch(hand, active, exact):
    """The sampling policy's working arrays (:data:`Scratch`) for hands of ``hand`` cards: the
    sampler's ``ways`` table (float64 (25, h + 1, h + 1, h + 1), some 1.9 MB for 20 cards; a
    stub when not ``active``), the exact endgames' scratch (a stub unless ``active`` and some
    seat's ``exact`` (int64 (4,), tricks) is above 0) and the rest."""
    size = hand + 1 if active else 1
    sides = np.zeros((2, N_SEATS), dtype=np.int64)
    for seat in range(N_SEATS):
        sides[seat & 1, seat] = 1
    return Scratch(np.empty((N_TYPES + 1, size, size, size)),
                   np.empty((4, N_TYPES), dtype=np.int64),
                   np.empty(N_SEATS * 4, dtype=np.uint32), np.empty(N_SEATS * 4, dtype=np.uint32),
                   np.empty(N_TYPES, dtype=np.int64), np.empty(N_TYPES, dtype=np.int64),
                   np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64),
                   np.zeros((3, N_TYPES), dtype=np.int64),
                   endgame_scratch(LEAF_TT_BITS if active and exact.max() > 0 else 0), sides,
                   np.zeros(N_TYPES, dtype=np.int64))


@njit
def exact_table(play, seat, trump, scratch):
    """The exact endgame's :class:`~binokel_sim.kernels.strict.endgame.EndgameTable` for
    ``seat``'s side: its card points, every hand known."""
    side = scratch.sides[seat & 1]
    return EndgameTable(play.card_points, np.int64(play.last_trick), side, side, False,
                        np.int64(trump))


@njit(_nrt=False)
def rollout(work, spot, card, cards, play, exact, scratch):
    """``spot.seat``'s side's play points from trick ``spot.k`` on when it plays ``card`` as the
    ``spot.position``-th card of the trick (led by ``spot.leader``; ``cards[:position]`` are
    already in it) and every seat then plays the heuristic to the end of the deal (``play``:
    the heuristic's :data:`~binokel_sim.kernels.partnership.tricks.PlayTable`), or, with
    ``exact`` above 0, until ``exact`` tricks are left, which are then solved exactly, every
    hand known (:func:`~binokel_sim.kernels.strict.endgame.endgame_value`, ``scratch``'s
    table). ``work`` (flat planes, consumed) holds every hand as it is before ``card``."""
    seat = spot.seat
    leader = spot.leader
    position = spot.position
    trump = spot.trump
    voids = spot.voids
    trump_block = suit_block(trump)
    wins_row = (trump & 3) * 24
    first = card if position == 0 else cards[0]
    trick = lead_trick(leader, trump, trump_block, wins_row, first, play.card_points)
    led = trick.led
    led_block = trick.led_block
    points = trick.points
    win_card = trick.win_card
    win_seat = trick.win_seat
    wins = trick.wins
    for i in range(1, position):
        c = cards[i]
        points += play.card_points[c]
        wins, win_card, win_seat = after_card(c, (leader + i) & 3, wins_row, wins, win_card,
                                              win_seat, PLAY_HEURISTIC)
    if position > 0:
        h0 = np.int64(work[4 * seat])
        shown = np.int64((h0 & led_block) == 0)
        voids |= shown << (4 * seat + led)
        voids |= (shown & np.int64((h0 & trump_block) == 0)) << (4 * seat + trump)
        points += play.card_points[card]
        wins, win_card, win_seat = after_card(card, seat, wins_row, wins, win_card, win_seat,
                                              PLAY_HEURISTIC)
    take_card(work, 4 * seat, card)
    z = np.uint64(0)
    stream = (z, z, z, z)
    trick = Trick(leader, trump, trump_block, wins_row, led, led_block, wins, win_card, win_seat,
                  points)
    for i in range(position + 1, N_SEATS):
        _, trick, voids, _ = follow_card(work, i, trick, voids, ALL_HEURISTIC, play, stream,
                                         PLAY_HEURISTIC)
    side = seat & 1
    own = trick.points if (trick.win_seat & 1) == side else 0
    n_tricks = spot.n_tricks
    stop = max(spot.k + 1, n_tricks - exact) if exact > 0 else n_tricks
    rest0, rest1, winner, _ = play_from(work, trick.win_seat, spot.k + 1, stop, n_tricks,
                                        spot.bidder, voids, trump, ALL_HEURISTIC, stream, play,
                                        Tricks(cards, cards, cards), PLAY_HEURISTIC, False)
    own += rest1 if side else rest0
    if stop < n_tricks:
        own += endgame_value(work.reshape((N_SEATS, 4)),
                             Position(np.int64(winner), np.int64(0), np.int64(-1), np.int64(0),
                                      np.int64(-1), np.int64(winner), np.int64(0),
                                      np.int64(stop)), n_tricks - stop,
                             exact_table(play, seat, trump, scratch), scratch.endgame)
    return own


@njit
def exact_values(sample, spot, legal, cards, play, scratch):
    """Adds to ``scratch.totals`` each legal card type's exact value on ``sample`` (flat planes,
    every hand as it is before ``spot.seat`` plays): the card points ``spot.seat``'s side takes
    from the trick in play on, ``cards[:spot.position]`` on the table, with best play of every
    seat, every hand known (:func:`~binokel_sim.kernels.strict.endgame.endgame_moves`)."""
    trump = spot.trump
    leader = spot.leader
    led = np.int64(-1)
    wins = np.int64(0)
    win_card = np.int64(-1)
    win_seat = leader
    points = np.int64(0)
    for i in range(spot.position):
        c = cards[i]
        points += play.card_points[c]
        if i == 0:
            led = c // 6
        if i == 0 or (wins >> c) & 1:
            wins = takes(trump, c)
            win_card = c
            win_seat = (leader + i) & 3
    values = scratch.values
    endgame_moves(sample.reshape((N_SEATS, 4)),
                  Position(np.int64(leader), np.int64(spot.position), led, wins, win_card,
                           np.int64(win_seat), points, np.int64(spot.k)),
                  spot.n_tricks - spot.k, exact_table(play, spot.seat, trump, scratch),
                  scratch.endgame, values)
    m = legal
    while m != 0:
        c = lowest_bit(m)
        m &= m - 1
        scratch.totals[c] += values[c]


@njit
def sampling_card(flat, spot, legal, knowledge, sampler, state, play):
    """The sampling policy's card at ``spot`` (:data:`Spot`; flat planes ``flat``: the true
    hands, of which it reads only its own and the other seats' sizes) out of ``legal``, from
    what the table knows (:data:`Knowledge`) and the block's :data:`Sampler`: the deals respect
    ``knowledge.excluded`` unless ``sampler.infer`` says the seat does not infer (the
    ablation, ``infers``). ``play`` is the rollouts' table (the heuristic's knobs). ``state``
    (uint64[4]) is read by the sampler only when two or more types are legal."""
    if popcount(legal) == 1:
        return lowest_bit(legal)
    scratch = sampler.scratch
    ways = scratch.ways
    split = scratch.split
    sample = scratch.sample
    work = scratch.work
    totals = scratch.totals
    pool = scratch.pool
    allowed = scratch.allowed
    capacity = scratch.capacity
    held = scratch.held
    deck_counts = sampler.deck_counts
    played = knowledge.played
    seat = spot.seat
    row = 4 * seat
    for t in range(N_TYPES):
        own = ((np.int64(flat[row]) >> t) & 1) + ((np.int64(flat[row + 1]) >> t) & 1) + (
            (np.int64(flat[row + 2]) >> t) & 1) + ((np.int64(flat[row + 3]) >> t) & 1)
        pool[t] = deck_counts[t] - played[t] - own
        totals[t] = 0
    inferring = infers(sampler.infer, seat, spot.bidder)
    for g in range(3):
        s = (seat + 1 + g) & 3
        allowed[g] = ALL_TYPES & ~knowledge.excluded[s] if inferring else ALL_TYPES
        capacity[g] = hand_cards(flat, s)
        for t in range(N_TYPES):
            left = max(knowledge.shown[s, t] - knowledge.played_by[s, t], 0)
            held[g, t] = left
            pool[t] -= left
            capacity[g] -= left
    if count_ways(pool, allowed, capacity, np.int64(3), ways) <= 0.0:
        raise ValueError("sampling policy: no deal fits what the table knows")
    for q in range(4):
        sample[row + q] = flat[row + q]
    # within the last ``exact`` tricks every card is valued exactly on each sample
    exact = sampler.exact[seat]
    solved = exact > 0 and spot.n_tricks - spot.k <= exact
    for _ in range(sampler.n_samples):
        sample_counts(pool, allowed, capacity, np.int64(3), ways, state, split)
        for g in range(3):
            s = (seat + 1 + g) & 3
            q0, q1, q2, q3 = group_planes(held, split, g, g)
            sample[4 * s] = q0
            sample[4 * s + 1] = q1
            sample[4 * s + 2] = q2
            sample[4 * s + 3] = q3
        if solved:
            exact_values(sample, spot, legal, knowledge.cards, play, scratch)
            continue
        m = legal
        while m != 0:
            c = lowest_bit(m)
            m &= m - 1
            for q in range(N_SEATS * 4):
                work[q] = sample[q]
            totals[c] += rollout(work, spot, c, knowledge.cards, play, exact, scratch)
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
    :func:`play_known` keeps it: ``(voids shown, Knowledge)`` (:data:`Knowledge`; the meld cards
    each seat showed are :func:`~binokel_sim.kernels.knowledge.shown_of` of ``show_rows``)."""
    excluded = np.zeros(N_SEATS, dtype=np.int64)
    played = np.zeros(N_TYPES, dtype=np.int64)
    played_by = np.zeros((N_SEATS, N_TYPES), dtype=np.int64)
    shown = np.zeros((N_SEATS, N_TYPES), dtype=np.int64)
    for seat in range(N_SEATS):
        shown_of(flat, seat, show_rows, trump, shown[seat])
    return np.int64(0), Knowledge(excluded, played, played_by, shown,
                                  np.zeros(N_SEATS, dtype=np.int64))


@njit(inline="always")
def note_card(flat, seat, i, c, h0, beat, knowledge, voids, trick):
    """``seat`` plays ``c`` as the ``i``-th card of ``trick``
    (:data:`~binokel_sim.kernels.partnership.tricks.Trick`; ``h0``: its plane 0 before the
    card; ``beat``: the cards that would have headed the trick): the card leaves ``flat`` and
    what the table knows (``knowledge``, updated in place; ``voids``) and the trick move on
    (its ``points`` are the caller's). Returns ``(voids, trick)``."""
    take_card(flat, 4 * seat, c)
    knowledge.played[c] += 1
    knowledge.played_by[seat, c] += 1
    knowledge.cards[i] = c
    if i == 0:
        led = c // 6
        return voids, Trick(trick.leader, trick.trump, trick.trump_block, trick.wins_row, led,
                            suit_block(led), WINS_OVER[(trick.wins_row + c) & 127], c,
                            trick.win_seat, trick.points)
    led = trick.led
    trump = trick.trump
    trump_block = trick.trump_block
    knowledge.excluded[seat] |= excluded_by(c, trick.led_block, trump_block, beat)
    out_of = np.int64((h0 & trick.led_block) == 0)
    voids |= out_of << (4 * seat + led)
    voids |= (out_of & np.int64((h0 & trump_block) == 0)) << (4 * seat + trump)
    voids = note_follow(voids, seat, c, out_of == 0, led, trump, beat)  # for the expert seats
    wins, win_card, win_seat = after_card(c, seat, trick.wins_row, trick.wins, trick.win_card,
                                          trick.win_seat, PLAY_HEURISTIC)
    return voids, Trick(trick.leader, trump, trump_block, trick.wins_row, led, trick.led_block,
                        wins, win_card, win_seat, trick.points)


@njit
def play_known(flat, leader, trump, seat_policies, sampler, state, show_rows, play, tricks):
    """Play every trick of one deal (``flat`` consumed; ``leader`` the bid winner) with each seat
    its own policy (random, heuristic, expert or sampling: ``seat_policies`` int64 (4,); the
    heuristic and expert seats play with their rows of ``play.knobs``), keeping what
    the table knows: the voids shown (the heuristic's), the cards played, the meld cards each
    seat showed (:func:`~binokel_sim.kernels.knowledge.shown_of` of ``show_rows``) and per seat the
    cards it played and the
    card types excluded by its plays (the sampling policy's, :data:`Sampler`, which respects
    them as ``sampler.infer`` says: :data:`~binokel_sim.kernels.knowledge.INFERENCE`). The random
    policy and the sampler read ``state`` in the order the cards are played. Writes the tricks
    (``tricks``) as :func:`~binokel_sim.kernels.partnership.tricks.playout` does; returns
    ``(play of 0+2, play of 1+3)``."""
    leader &= 3
    bidder = leader
    n_tricks = hand_cards(flat, leader)
    trump_block = suit_block(trump)
    wins_row = (trump & 3) * 24
    voids, knowledge = table_knowledge(flat, show_rows, trump)
    points = np.zeros(2, dtype=np.int64)
    # the sampling policy's play-outs play the heuristic
    rollout_play = PlayTable(play.card_points, play.last_trick, play.counters, heuristic_knobs())
    for k in range(n_tricks):
        tricks.leaders[k] = leader
        trick_points = 0
        zero = np.int64(0)
        trick = Trick(leader, trump, trump_block, wins_row, zero, zero, zero, zero, leader, zero)
        for i in range(N_SEATS):
            seat = (leader + i) & 3
            row = 4 * seat
            h0 = np.int64(flat[row])
            beat = beaters(trick.win_card)
            legal = h0 if i == 0 else legal_under(h0, trick.led_block, trump_block, beat)
            policy = seat_policies[seat]
            if policy == POLICY_RANDOM:
                c, s0, s1, s2, s3 = random_pick(legal, state[0], state[1], state[2], state[3])
                state[0], state[1], state[2], state[3] = s0, s1, s2, s3
            elif policy == POLICY_HEURISTIC or policy == POLICY_EXPERT:
                if i == 0:
                    c = heuristic_lead(h0, h0, flat[row + 1], flat[row + 2], flat[row + 3],
                                       others(flat, seat), voids, seat, k, n_tricks, trump,
                                       bidder, play.counters, play.knobs, False)
                else:
                    c = heuristic_follow(legal, others(flat, seat), voids, seat, i, trick.led,
                                         trick.win_card, trick.win_seat, trick.wins, trump,
                                         play.counters, play.knobs, False)
            else:
                c = sampling_card(flat, Spot(seat, leader, i, k, n_tricks, trump, bidder, voids),
                                  legal, knowledge, sampler, state, rollout_play)
            tricks.cards[k, i] = c
            trick_points += play.card_points[c]
            voids, trick = note_card(flat, seat, i, c, h0, beat, knowledge, voids, trick)
        tricks.winners[k] = trick.win_seat
        points[trick.win_seat & 1] += trick_points
        leader = trick.win_seat
    points[leader & 1] += play.last_trick
    return points[0], points[1]
