"""The talon games (two-hand-48, three-hand-72, four-hand-72): deal, phase-1 free play with a
declaration after each won trick and the draws, phase-2 strict play, and the deal's score.
Contract: SPEC.md "Variant two-hand-48" and "Variants three-hand-72 and four-hand-72"; the
decisions the contract leaves open are in docs/rules.md, "Talon games".

The variant arrives as one :class:`TalonTable` (:func:`binokel_sim.engines.talon.family_tables`):

- ``cfg`` int64 (N_CFG,): the ``CFG_*`` numbers of :mod:`binokel_sim.kernels.talon.declare`;
- ``decl`` int64 (4, rows, N_DECL): per trump suit, every declaration a player might make (meld,
  level, the card types of one set, points, counted per copy, the swap meld, the served-record
  bits of the melds it sits inside), in the order the random policy counts them (docs/rules.md,
  "Policies");
- ``n_decl`` int64 (4,): the rows in use per trump;
- ``card_points`` int64 (24,): trick points of every card type;
- ``n_melds`` (int): the variant's melds (the records' ``served_any`` columns).

A run's other bundles: :class:`~binokel_sim.kernels.runs.Run` (which items of which streams),
:class:`TalonGame` (the contest and the sampling policy's numbers), :class:`TalonSample` (a
sample's known hand, turned card and dealer) and :class:`TalonOuts` (the drivers' output arrays;
``binokel_sim.engines.talon.outputs`` fills those a run does not write).

A seat's hand is bit planes; what its card copies have served is kept beside it, and the numbers,
the rows and the declarations themselves are in :mod:`binokel_sim.kernels.talon.declare`, their
table lookups in :mod:`binokel_sim.kernels.talon.lookup`.
"""

from collections import namedtuple

import numpy as np

from binokel_sim.kernels.bits import MAX_COPIES, either, lowest_bit, popcount
from binokel_sim.kernels.deal import add_card, block_start, deal_sum
from binokel_sim.kernels.modes import MODE_DUEL, MODE_MATCH, MODE_PLAY, MODE_PLAYOUT, MODE_SAMPLE
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.play import copies_of, game_over, give_card, remove_card, suit_block
from binokel_sim.kernels.policies import (
    POLICY_RANDOM,
    POLICY_SAMPLING,
    random_pick,
    searches,
    tune_row,
)
from binokel_sim.kernels.random import below_scalar
from binokel_sim.kernels.sampler import constrained_deal
from binokel_sim.kernels.strict.family import NoPart
from binokel_sim.kernels.strict.heuristic import (
    T_SCORE,
    T_WIN_POINTS,
    WIN_FOR_MELD,
    Meld,
    Place,
    beats,
    heuristic_talon_card,
)
from binokel_sim.kernels.strict.sampling import strict_knowledge
from binokel_sim.kernels.strict.solver_policy import solver_scratch
from binokel_sim.kernels.strict.tricks import (
    StrictTable,
    Trick,
    TrickRecord,
    counter_cards,
    must_head,
    play_strict,
    random_free,
    takes,
)
from binokel_sim.kernels.talon.declare import (
    CFG_BONUS,
    CFG_BONUS_RANK,
    CFG_COPIES,
    CFG_HAND,
    CFG_LAST_TRICK,
    CFG_PAIRS,
    CFG_PLAYERS,
    CFG_STRICT1,
    CFG_SWAP_RANK,
    CFG_TALON,
    CFG_TUNE,
    D_INSIDE,
    D_LEVEL,
    D_MASK,
    D_MELD,
    D_PER_COPY,
    D_POINTS,
    LEVEL_BITS,
    forget_copy,
    heuristic_declaration,
    mark_copies,
    random_declaration,
    served_copies,
)
from binokel_sim.kernels.talon.lookup import (
    S_BIG,
    S_SWAP,
    S_WIDE,
    choice_row,
    declaration_tables,
    held_rows,
    held_rows_high,
    key_mask,
    key_points,
    legal_rows,
)
from binokel_sim.kernels.talon.sampling import (
    DealState,
    knowledge_start,
    talon_sampling_card,
    talon_sampling_scratch,
)

TalonTable = namedtuple("TalonTable", ["cfg", "decl", "n_decl", "card_points", "n_melds"])
"""The variant's tables (the module docstring lists the fields)."""

TalonGame = namedtuple("TalonGame", ["n_sides", "policy_a", "policy_b", "target", "max_deals",
                                     "infer", "n_samples", "exact_a", "exact_b"])
"""A run's contest and the sampling policy's numbers, int64 each: the ``n_sides`` sides, A's and
B's policies ``policy_a`` / ``policy_b``, a game's ``target`` and most deals ``max_deals`` (the
first five for duels and games, 0 elsewhere); ``infer`` what the sampling policy's phase-2 deals
respect (:data:`~binokel_sim.kernels.knowledge.INFERENCE`), ``n_samples`` its deals per card
decision, ``exact_a`` / ``exact_b`` the tricks left that A's and B's phase-2 play-outs solve
exactly (every seat's ``exact_a`` outside duels and games; 0: the heuristic to the end)."""

TalonSample = namedtuple("TalonSample", ["known", "turned", "dealer"])
"""A sample's deal (``deal-odds``; placeholders in the other runs): ``known`` seat 0's hand and
what the user knows (the tuple :func:`~binokel_sim.kernels.sampler.constrained_deal` reads;
:func:`~binokel_sim.kernels.sampler.unconstrained` for nothing known), ``turned`` (int64) the
turned card's type, the talon's last card, and ``dealer`` (int64) the dealer's seat."""

TalonOuts = namedtuple("TalonOuts", [
    "hands", "talon", "points", "trick_cards", "trick_leaders", "trick_winners", "decl", "diff",
    "games"])
"""The drivers' output arrays, item-major (n items; P seats, T talon cards, H tricks): a
recorded deal's ``hands`` uint32 (n, P, 4) and ``talon`` int64 (n, T) as dealt, the tricks
``trick_cards`` int64 (n, H, P), ``trick_leaders`` and ``trick_winners`` (n, H) and ``decl``
(n, H, 2) (declaration row or -1, swap 0/1); ``points`` int64 (n, P, 2) card and meld points per
seat (deals, play-outs and samples); a duel's ``diff`` float64 (n,); a game's ``games`` int64
(n, 4). A run writes its mode's; the others are placeholders
(``binokel_sim.engines.talon.outputs``)."""

# --- the block driver ----------------------------------------------------------------------------
#
# One block driver runs the blocks of every talon run (play, play-out, samples, duel, match:
# the mode is an argument), with placeholder arrays for the outputs a run does not write, all of
# one type per field (kernels.runs.placeholders, binokel_sim.engines.talon.outputs). numba links
# a callee's code into every caller and optimises the whole again, so five block drivers would
# cost five compiles of the item loop (some 30 s each); one driver costs one per kind of seats
# (docs/performance.md, "Compile cost"). The deal is written out in the driver itself: a driver
# calling a per-block kernel built the loop's machine code twice per kind of seats.



@njit
def talon_blocks(smart, search, mode, deck, table, seat_policies, run, sample, game, outs, share):
    """The items of blocks ``share[0] <= b < share[1]`` (one thread's share,
    ``binokel_sim.simulate.spread_blocks``) of the :class:`~binokel_sim.kernels.runs.Run` ``run``
    (block ``b``: items ``b * run.block_size ..`` up to ``run.n_items``, reading stream
    ``run.first_block + b``; item ``d`` is number ``run.first_deal + d``), writing only their
    slots of ``outs``: what each driver does per item (``mode``: a recorded deal, an unrecorded
    deal, a sample around a known hand, a deal played once per seating, a whole game), with the
    deal's play written out here once. ``smart`` and ``search``
    (``engines.policies.policy_kinds``) are None or int64 and choose the compiled
    specialisation, each compiled on its first use: ``smart`` None when every seat plays at
    random (no policy code), ``search`` None when no seat plays the solver or the sampling
    policy (neither compiled); numba prunes every branch that asks ``smart is None`` or
    ``search is None``. ``deck`` the deck dealt (a sample's unseen cards), ``table`` the
    :class:`TalonTable` (its :class:`~binokel_sim.kernels.talon.lookup.DeclarationTables` built
    here once), ``seat_policies`` the seats'
    policies (in duels and games each seat's side instead: ``game.policy_a`` and ``policy_b``
    play), ``sample`` the :class:`TalonSample` of a sample, ``game`` the :class:`TalonGame`,
    ``outs`` the :class:`TalonOuts`.

    The random stream of a deal: the shuffle (one partial Fisher-Yates of the block's deck over
    positions 0..N-2, :func:`binokel_sim.kernels.deal.deal_sum`), then the random policy's
    draws: one bounded draw per card when at least two card types are legal, and after each
    phase-1 trick it wins, one for its declaration when it has at least two choices. Play:
    docs/rules.md "Talon games"; the outputs as :class:`TalonOuts` describes them.

    Written for speed (numba): the deal loop binds no array (an array bound inside a loop with
    branches costs reference counting on every pass), hands are int64 planes in a small array,
    the declarations are table lookups (:func:`held_rows`), and the calls made with arrays
    (:func:`legal_rows`, :func:`mark_copies`, :func:`forget_copy`) are on rarer paths.
    """
    dt = declaration_tables(table.decl, table.n_decl, table.n_melds)
    for b in range(share[0], share[1]):
        cfg, decl, n_decl, card_points = table.cfg, table.decl, table.n_decl, table.card_points
        fits, sets, keys, reach = dt.fits, dt.sets, dt.keys, dt.reach
        n_sides, policy_a, policy_b, target, max_deals = (
            game.n_sides, game.policy_a, game.policy_b, game.target, game.max_deals)
        infer, n_samples = game.infer, game.n_samples
        seed, block, first_deal = run.seed, run.first_block + b, run.first_deal
        start = b * run.block_size
        stop = min(run.n_items, start + run.block_size)
        known, turned, fixed_dealer = sample.known, sample.turned, sample.dealer
        sides = seat_policies  # duels and games: each seat's side
        hands_out, talon_out, points_out = outs.hands, outs.talon, outs.points
        trick_cards, trick_leaders, trick_winners = (outs.trick_cards, outs.trick_leaders,
                                                     outs.trick_winners)
        decl_out, diff_out, games_out = outs.decl, outs.diff, outs.games
        n_players = cfg[CFG_PLAYERS]
        hand = cfg[CFG_HAND]
        n_talon = cfg[CFG_TALON]
        phase1 = n_talon // n_players
        n_tricks = phase1 + hand
        strict = cfg[CFG_STRICT1] != 0
        pairs = cfg[CFG_PAIRS] != 0
        copies = cfg[CFG_COPIES]
        wide = sets[0, S_WIDE] != 0
        record = mode == MODE_PLAY
        counters = counter_cards(card_points)
        state, cards = block_start(deck, seed, block)
        work = cards.astype(np.uint64)  # deal_sum's deck: the state stays in registers all along
        n_work = work.shape[0]
        s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
        hands = np.zeros((n_players, 4), dtype=np.int64)
        talon = np.empty(n_talon, dtype=np.int64)
        dealt = np.zeros((n_players, 4), dtype=np.int64)
        dealt_talon = np.empty(n_talon, dtype=np.int64)
        served = np.zeros((n_players, 24, MAX_COPIES), dtype=np.int64)
        served_any = np.zeros((n_players, table.n_melds), dtype=np.int64)
        dirty = np.zeros(n_players, dtype=np.int64)  # the types some copy of which has served
        suspect = np.zeros(n_players, dtype=np.int64)  # the rows a served copy may forbid
        points = np.zeros((n_players, 2), dtype=np.int64)
        won = np.zeros(n_players, dtype=np.int64)
        policies = np.empty(n_players, dtype=np.int64)
        scores = np.zeros(max(n_sides, 1), dtype=np.int64)
        totals = np.zeros(max(n_sides, 1), dtype=np.int64)
        scan = np.empty(decl.shape[1], dtype=np.int64)  # legal_declarations' scratch (wide tables)
        sampled = np.empty(max(n_talon - 1, 1), dtype=np.uint64)  # the constrained deal's talon
        st = np.empty(4, dtype=np.uint64)  # and its random state, as the sampler reads it
        split = np.empty((4, 24), dtype=np.int64)
        if mode == MODE_DUEL or mode == MODE_MATCH:  # seat_policies holds the seats' sides there
            solver_seats = searches(policy_a) or searches(policy_b)
            sampling_seats = policy_a == POLICY_SAMPLING or policy_b == POLICY_SAMPLING
        else:
            solver_seats = False
            sampling_seats = False
            for seat in range(seat_policies.shape[0]):
                solver_seats |= searches(seat_policies[seat])
                sampling_seats |= seat_policies[seat] == POLICY_SAMPLING
        # sampling: the solver in phase 2
        scratch = solver_scratch(solver_seats and smart is not None)
        sample_scratch = talon_sampling_scratch(n_players, n_talon, table.n_melds,
                                                sampling_seats and smart is not None)
        knows = strict_knowledge(n_players, hand, n_samples, infer,  # the race on: as phase 1's
                                 sampling_seats and smart is not None, True, NoPart(),
                                 max(game.exact_a, game.exact_b) > 0)
        if knows.exact.shape[0] == n_players:  # sampling seats: their exact play-outs
            knows.exact[:] = game.exact_a
        if mode != MODE_DUEL and mode != MODE_MATCH:
            for seat in range(n_players):
                policies[seat] = seat_policies[seat]
        for d in range(start, stop):
            number = first_deal + d
            deals = 0
            side_a = 0
            if mode == MODE_MATCH:
                side_a = (number // n_players) % n_sides
                for seat in range(n_players):
                    policies[seat] = policy_a if sides[seat] == side_a else policy_b
                    if knows.exact.shape[0] == n_players:
                        knows.exact[seat] = game.exact_a if sides[seat] == side_a else \
                            game.exact_b
                totals[:] = 0
            play = 0
            total = 0.0
            while True:
                # --- the deal --------------------------------------------------------------------
                if mode != MODE_DUEL or play == 0:
                    # the shuffle, then the deck read off in order (docs/rules.md "The deal"): the
                    # seats' hands, then the talon (a sample: seat 0 holds the known hand, the
                    # others and the talon come from the unseen cards, the turned card last)
                    first_seat = 1 if mode == MODE_SAMPLE else 0
                    if mode == MODE_SAMPLE:
                        for q in range(4):
                            hands[0, q] = known[0][q]
                        talon[n_talon - 1] = turned
                    if mode == MODE_SAMPLE and known[1]:
                        # what the user knows (--known, --void): the constrained sampler deals the
                        # other seats and the hidden talon, whose order is then shuffled
                        s0, s1, s2, s3 = constrained_deal(known, n_players, s0, s1, s2, s3,
                                                          sampled, st, split, hands, talon)
                    else:
                        _, s0, s1, s2, s3 = deal_sum(work, n_work - 1, s0, s1, s2, s3)
                        pos = 0
                        for seat in range(first_seat, n_players):
                            q0 = q1 = q2 = q3 = np.int64(0)
                            for j in range(pos, pos + hand):
                                q0, q1, q2, q3 = add_card(q0, q1, q2, q3, np.int64(work[j]))
                            hands[seat, 0] = q0
                            hands[seat, 1] = q1
                            hands[seat, 2] = q2
                            hands[seat, 3] = q3
                            pos += hand
                        for j in range(n_talon - first_seat):
                            talon[j] = np.int64(work[pos + j])
                    if record:
                        for seat in range(n_players):
                            for q in range(4):
                                hands_out[d, seat, q] = hands[seat, q]
                        for j in range(n_talon):
                            talon_out[d, j] = talon[j]
                    if mode == MODE_DUEL:
                        for seat in range(n_players):
                            for q in range(4):
                                dealt[seat, q] = hands[seat, q]
                        for j in range(n_talon):
                            dealt_talon[j] = talon[j]
                if mode == MODE_DUEL:
                    if play > 0:
                        for seat in range(n_players):
                            for q in range(4):
                                hands[seat, q] = dealt[seat, q]
                        for j in range(n_talon):
                            talon[j] = dealt_talon[j]
                    for seat in range(n_players):
                        policies[seat] = policy_a if sides[seat] == play else policy_b
                        if knows.exact.shape[0] == n_players:
                            knows.exact[seat] = game.exact_a if sides[seat] == play else \
                                game.exact_b
                if mode == MODE_SAMPLE:
                    dealer = fixed_dealer
                elif mode == MODE_MATCH:
                    dealer = (number + deals) % n_players
                else:
                    dealer = number % n_players
                # --- fresh records ----------------------------------------------------------------
                for seat in range(n_players):
                    todo = dirty[seat]
                    while todo:
                        t = lowest_bit(todo)
                        todo &= todo - 1
                        for i in range(MAX_COPIES):
                            served[seat, t, i] = 0
                    if dirty[seat]:
                        for m in range(served_any.shape[1]):
                            served_any[seat, m] = 0
                    dirty[seat] = 0
                    suspect[seat] = 0
                    points[seat, 0] = 0
                    points[seat, 1] = 0
                    won[seat] = 0
                # --- phase 1 ----------------------------------------------------------------------
                last = talon[n_talon - 1]
                trump = last // 6
                trump_block = suit_block(trump)
                swap_nine = trump * 6 + cfg[CFG_SWAP_RANK] if cfg[CFG_SWAP_RANK] >= 0 else -1
                if last % 6 == cfg[CFG_BONUS_RANK]:
                    points[dealer, 1] += cfg[CFG_BONUS]
                g0 = g1 = g2 = g3 = np.int64(0)  # the cards played so far (the heuristic's)
                # np.int64(-1), not -1: a literal's type would compile the callees once more for it
                # (docs/performance.md, "Compile cost")
                # the seat known to hold the turned card it took with the swap
                took_seat = np.int64(-1)
                took_card = np.int64(-1)
                leader = dealer + 1 if dealer + 1 < n_players else 0
                drawn = np.int64(0)
                for k in range(phase1):
                    led = np.int64(-1)
                    led_block = np.int64(0)
                    wins = np.int64(0)  # the cards that would take the trick (strict/tricks.takes)
                    win_card = np.int64(-1)
                    win_seat = leader
                    trick_points = np.int64(0)
                    for i in range(n_players):
                        seat = leader + i
                        if seat >= n_players:
                            seat -= n_players
                        useat = np.uint64(seat)  # an unsigned index: no negative-index fix-up
                        held = hands[useat, 0]
                        legal = held if i == 0 or not strict else must_head(held, led_block,
                                                                             trump_block, wins)
                        if smart is None or policies[useat] == POLICY_RANDOM:
                            if strict and i > 0:
                                c, s0, s1, s2, s3 = random_pick(legal, s0, s1, s2, s3)
                            else:
                                c, s0, s1, s2, s3 = random_free(legal, s0, s1, s2, s3)
                        elif search is not None and policies[useat] == POLICY_SAMPLING and \
                                legal & (legal - 1):
                            c, s0, s1, s2, s3 = talon_sampling_card(
                                DealState(hands, talon, drawn, served, served_any, points,
                                          (g0, g1, g2, g3), trump, took_seat, took_card),
                                seat, legal,
                                Trick(leader, i, led, wins, win_card, win_seat, trick_points, k),
                                table, dt, counters, n_samples, sample_scratch, (s0, s1, s2, s3))
                        else:
                            # T_WIN_MELD: a declaration of that much waits for a win
                            ready = np.int64(0)
                            pending = np.int64(0)  # the expert's: the cards of what it may declare
                            at = tune_row(policies[useat], CFG_TUNE)
                            if (i == 0 and cfg[at + T_SCORE] != 0) or (
                                    i > 0 and trick_points < cfg[at + T_WIN_POINTS]
                                    and beats(legal, win_card, led, trump_block)):
                                q0, q1, q2, q3 = (hands[useat, 0], hands[useat, 1], hands[useat, 2],
                                                  hands[useat, 3])
                                if wide:
                                    r, _ = heuristic_declaration(hands, served, served_any, seat,
                                                                 decl[trump], n_decl[trump], trump,
                                                                 talon, cfg)
                                    ready = decl[trump, r, D_POINTS] if r >= 0 else 0
                                    pending = decl[trump, r, D_MASK] if r >= 0 else 0
                                else:
                                    big = held_rows(fits, sets, trump, q0, q1)
                                    if copies > 2:
                                        big |= held_rows_high(fits, sets, trump, q2, q3)
                                    if at == CFG_TUNE:
                                        big &= sets[trump, S_BIG]
                                    if big & suspect[useat]:
                                        big = legal_rows(keys, decl, served, served_any, seat,
                                                         trump, big, big & suspect[useat], q0,
                                                         q1, q2, q3)
                                    ready = WIN_FOR_MELD if big and at == CFG_TUNE else 0
                                    # the expert: the best one's worth
                                    while big and at != CFG_TUNE:
                                        row = lowest_bit(big)
                                        big &= big - 1
                                        ready = max(ready, key_points(keys[trump, row]))
                                        pending |= key_mask(keys[trump, row])
                            c = heuristic_talon_card(
                                legal, (hands[useat, 0], hands[useat, 1], hands[useat, 2],
                                        hands[useat, 3]), (g0, g1, g2, g3), copies, np.bool_(True),
                                Place(i, led, win_card, pairs and i > 0 and win_seat == (seat ^ 2),
                                      i == n_players - 1, trick_points),
                                Meld(ready, pending, dirty[useat]), trump, counters, cfg, at)
                        if smart is not None and c == took_card and seat == took_seat and \
                                served[useat, c, 0] == 0:
                            took_seat = np.int64(-1)  # a fresh copy of it played: no longer known
                        remove_card(hands, useat, c)
                        if (dirty[useat] >> c) & 1 and served[useat, c, 0] != 0:
                            if forget_copy(hands, served, served_any, seat, c) == 0:
                                dirty[useat] &= ~(np.int64(1) << c)
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
                    uwinner = np.uint64(winner)
                    if record:
                        trick_leaders[d, k] = leader
                        trick_winners[d, k] = winner
                    points[uwinner, 0] += trick_points
                    # --- the winner's declaration ---------------------------------------------
                    swap_ok = swap_nine >= 0 and last != swap_nine
                    random_seat = policies[uwinner] == POLICY_RANDOM
                    if wide:
                        if smart is None or random_seat:
                            r, swap, s0, s1, s2, s3 = random_declaration(
                                hands, served, served_any, winner, decl[trump], n_decl[trump],
                                trump, talon, cfg, scan, s0, s1, s2, s3)
                        else:
                            r, swap = heuristic_declaration(hands, served, served_any, winner,
                                                            decl[trump], n_decl[trump], trump,
                                                            talon, cfg)
                    else:
                        q0, q1, q2, q3 = (hands[uwinner, 0], hands[uwinner, 1], hands[uwinner, 2],
                                          hands[uwinner, 3])
                        ok = held_rows(fits, sets, trump, q0, q1)
                        if copies > 2:
                            ok |= held_rows_high(fits, sets, trump, q2, q3)
                        if ok & suspect[uwinner]:
                            ok = legal_rows(keys, decl, served, served_any, winner, trump, ok,
                                            ok & suspect[uwinner], q0, q1, q2, q3)
                        r = -1
                        swap = False
                        if smart is None or random_seat:  # the draw as random_pick makes it
                            swaps = ok & sets[trump, S_SWAP] if swap_ok else np.int64(0)
                            n_choices = 1 + popcount(ok) + popcount(swaps)
                            pick, t0, t1, t2, t3 = below_scalar(n_choices, s0, s1, s2, s3)
                            draw = n_choices > 1  # else pick == 0 and the stream is not read
                            s0 = either(draw, t0, s0)
                            s1 = either(draw, t1, s1)
                            s2 = either(draw, t2, s2)
                            s3 = either(draw, t3, s3)
                            row, twice = choice_row(ok, swaps, either(pick > 0, pick - 1, 0))
                            r = either(pick > 0, row, -1)  # 0: no declaration
                            swap = twice and pick > 0
                        else:  # the heuristic: the legal row worth most, the first on a tie
                            best_points = 0
                            while ok:
                                row = lowest_bit(ok)
                                ok &= ok - 1
                                if key_points(keys[trump, row]) > best_points:
                                    r = row
                                    best_points = key_points(keys[trump, row])
                            swap = r >= 0 and ((sets[trump, S_SWAP] >> r) & 1) != 0 and swap_ok
                    if record:
                        decl_out[d, k, 0] = r
                        decl_out[d, k, 1] = 1 if swap else 0
                    if r >= 0:
                        m = decl[trump, r, D_MELD]
                        level = decl[trump, r, D_LEVEL]
                        per_copy = decl[trump, r, D_PER_COPY] != 0
                        mask = decl[trump, r, D_MASK]
                        mark = np.int64(1 if per_copy else level) << (LEVEL_BITS * m)
                        if not wide:
                            suspect[uwinner] |= reach[trump, r]
                        # the swap's taker declares the taken card's type
                        took_served = np.int64(-1)
                        if smart is not None and winner == took_seat and (mask >> took_card) & 1:
                            took_served = served_copies(served, winner, took_card)
                        todo = mask
                        while todo:
                            t = lowest_bit(todo)
                            todo &= todo - 1
                            if (dirty[uwinner] >> t) & 1:
                                mark_copies(served, winner, t, copies_of(hands, winner, t), m,
                                            level, per_copy, decl[trump, r, D_INSIDE])
                            else:  # fresh copies (records all 0): the first `level` serve,
                                # already in order; no loop exit to miss
                                for i in range(MAX_COPIES):
                                    served[winner, t, i] = either(i < level, mark, 0)
                        served_any[winner, m] |= mask
                        dirty[uwinner] |= mask
                        if (took_served >= 0
                                and served_copies(served, winner, took_card) > took_served):
                            # a fresh copy of it now serves: maybe the taken one, so the served
                            # copies are all that is known (no fewer than before)
                            took_seat = np.int64(-1)
                        points[uwinner, 1] += decl[trump, r, D_POINTS]
                        if swap:
                            remove_card(hands, winner, swap_nine)
                            if forget_copy(hands, served, served_any, winner, swap_nine) == 0:
                                dirty[uwinner] &= ~(np.int64(1) << swap_nine)
                            give_card(hands, winner, last)
                            if smart is not None:
                                took_seat = winner
                                took_card = last
                            talon[n_talon - 1] = swap_nine
                            last = swap_nine
                    for j in range(n_players):
                        seat = winner + j
                        if seat >= n_players:
                            seat -= n_players
                        give_card(hands, np.uint64(seat), talon[drawn])
                        drawn += 1
                    leader = winner
                if record:
                    for k in range(phase1, n_tricks):
                        decl_out[d, k, 0] = -1
                        decl_out[d, k, 1] = 0
                # --- phase 2 ----------------------------------------------------------------------
                if search is not None and sampling_seats:  # what the table knows as phase 2 starts
                    knowledge_start(knows, served, took_seat, took_card,
                                    leader - 1 if leader > 0 else n_players - 1, last)
                winner, s0, s1, s2, s3 = play_strict(
                    hands, leader, phase1, n_tricks, trump, policies, smart, search,
                    StrictTable(copies, pairs, card_points, counters, cfg[CFG_LAST_TRICK], cfg,
                                CFG_TUNE, NoPart()),
                    (g0, g1, g2, g3), (points, won),
                    TrickRecord(record, d, trick_cards, trick_leaders, trick_winners),
                    (s0, s1, s2, s3), scratch, knows)
                points[winner, 0] += cfg[CFG_LAST_TRICK]
                # --- what the item keeps ----------------------------------------------------------
                if mode == MODE_PLAY or mode == MODE_PLAYOUT or mode == MODE_SAMPLE:
                    for seat in range(n_players):
                        points_out[d, seat, 0] = points[seat, 0]
                        points_out[d, seat, 1] = points[seat, 1]
                    break
                scores[:] = 0
                for seat in range(n_players):
                    scores[sides[seat]] += points[seat, 0] + points[seat, 1]
                if mode == MODE_DUEL:
                    others = 0
                    for q in range(n_sides):
                        others += scores[q] if q != play else 0
                    total += scores[play] - others / (n_sides - 1)
                    play += 1
                    if play == n_sides:
                        diff_out[d] = total / n_sides
                        break
                else:  # MODE_MATCH
                    for q in range(n_sides):
                        totals[q] += scores[q]
                    deals += 1
                    over = game_over(totals, target)
                    if over >= 0 or deals >= max_deals:
                        games_out[d, 0] = -1 if over < 0 else (1 if over == side_a else 0)
                        games_out[d, 1] = deals
                        games_out[d, 2] = totals[side_a]
                        games_out[d, 3] = totals.sum() - totals[side_a]
                        break




