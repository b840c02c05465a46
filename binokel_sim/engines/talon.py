"""Public drivers of the talon games (two-hand-48, three-hand-72, four-hand-72): simulated deals
as arrays, duels of play policies, the samples behind ``deal-odds`` and whole games.

The names of :data:`binokel_sim.engines.FAMILY_API`. Like every family's, these validate,
allocate and run their kernel over the chunks of whole blocks of the one run preamble,
:func:`binokel_sim.game_blocks.plan_run` (its ``Plan.steps`` calls ``progress(done, total)``
between chunks); block ``i`` always reads stream ``(seed, i)``, so results do not depend on the
thread count. Each checks the run's size and seed first, before the policies (``plan_run``,
which needs the policies to cut the blocks, checks them again). The rules are SPEC.md's talon variants; the
decisions beyond it are in docs/rules.md, "Talon games".
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from binokel_sim import expert_play
from binokel_sim.cards import N_PLANES, N_RANKS, N_SUITS, N_TYPES, counts_to_planes
from binokel_sim.constants import EXACT_TRICKS, SAMPLES_PER_MOVE
from binokel_sim.engines.policies import (
    check_samples_per_move,
    exact_tricks_of,
    inference_id,
    policy_id,
    policy_kinds,
    sampled,
    solver_plays,
)
from binokel_sim.game_blocks import GAME_BLOCK, MATCH_BLOCK, MAX_GAME_DEALS, plan_run, run_outputs
from binokel_sim.kernels.knowledge import INFER_FULL
from binokel_sim.kernels.modes import (
    MODE_DUEL,
    MODE_MATCH,
    MODE_PLAY,
    MODE_PLAYOUT,
    MODE_SAMPLE,
)
from binokel_sim.kernels.policies import N_TUNE
from binokel_sim.kernels.runs import Run, placeholders
from binokel_sim.kernels.talon.deals import (
    TalonGame,
    TalonOuts,
    TalonSample,
    TalonTable,
    talon_blocks,
)
from binokel_sim.simulate import (
    Progress,
    SimulationError,
    check_run,
    refuse_options,
    require_options,
    spread_blocks,
    unseen_deck,
)
from binokel_sim.tables import compile_tables, declaration_rows, tune_rows
from binokel_sim.variants import Rules

# the specialisations its drivers compile beyond the heuristic's, each on first use, as
# (command, policy) for ``binokel-sim warm-up``: one item loop serves every command
# (:func:`binokel_sim.engines.policies.policy_kinds`)
WARM_UP = (("play", "random"), ("duel", "sampling"))


def sampling_plays(rules: Rules) -> bool:
    """Whether the ``sampling`` policy plays the talon game ``rules``: with free play in phase 1
    (``kernels/talon/sampling.py``) and a phase 2 it can play: with two players the exact
    solver's (:func:`binokel_sim.engines.policies.solver_plays`), with more by sampling
    (``kernels/strict/sampling.py``)."""
    return rules.strict != "always" and (rules.players > 2 or solver_plays(rules))


def exact_playouts(rules: Rules) -> bool:
    """The sampling policy's phase-2 play-outs of three or four players can solve their last
    tricks exactly (``duel --exact-tricks``; ``kernels/strict/tricks.py`` strict_rollout); with
    two players phase 2 is the solver's already."""
    return rules.players > 2


def expert_plays(rules: Rules) -> bool:
    """The ``expert`` policy plays a talon game whose knobs are fitted
    (``binokel_sim/expert_play.json``): the heuristic's rules, its phase-1 scorer with them."""
    return expert_play.fitted(rules.name)


def check(rules: Rules) -> None:
    """The talon engine plays rules with a talon and a turned trump: every player draws one card
    after each phase-1 trick, so the talon must be a whole number of rounds."""
    problems = []
    if rules.talon == 0 or rules.widow:
        problems.append("a talon and no widow")
    elif rules.talon % rules.players:
        problems.append(f"a talon that is a whole number of rounds of draws ({rules.talon} "
                        f"cards for {rules.players} players)")
    if rules.trump_chosen_by != "turned_card":
        problems.append("trump chosen by the turned card")
    if rules.partnerships and sorted(map(sorted, rules.partnerships)) != [[0, 2], [1, 3]]:
        problems.append("no partnerships, or partnerships 0+2 and 1+3")
    if rules.claim:  # sixty-six's keys (closing and the exchange come only with a claim)
        problems.append("no claim ([game] claim: a sixty-six game)")
    if problems:
        raise SimulationError(f"variant {rules.name}: the talon engine needs "
                              f"{'; '.join(problems)}")


@functools.lru_cache(maxsize=32)
def family_tables(rules: Rules) -> TalonTable:
    """The :class:`~binokel_sim.kernels.talon.deals.TalonTable` the talon kernels take: ``cfg``,
    the declaration rows int64 (4, rows, N_DECL) (:func:`~binokel_sim.tables.declaration_rows`
    and the record bits of the melds each sits inside), the rows per trump int64 (4,), card
    points int64 (24,) and the number of melds."""
    from binokel_sim.kernels.talon import declare as k

    cfg = np.zeros(k.N_CFG, dtype=np.int64)
    cfg[k.CFG_PLAYERS] = rules.players
    cfg[k.CFG_HAND] = rules.hand_size
    cfg[k.CFG_TALON] = rules.talon
    cfg[k.CFG_LAST_TRICK] = rules.last_trick
    cfg[k.CFG_STRICT1] = int(rules.strict == "always")
    cfg[k.CFG_BONUS_RANK] = rules.turned_bonus_rank
    cfg[k.CFG_BONUS] = rules.turned_bonus
    swap = [m for m in rules.melds if m.name == rules.swap_meld]
    cfg[k.CFG_SWAP_RANK] = swap[0].ranks[0] if swap else -1
    cfg[k.CFG_PAIRS] = int(bool(rules.partnerships))
    cfg[k.CFG_COPIES] = rules.copies
    cfg[k.CFG_TUNE:k.CFG_TUNE + 2 * N_TUNE] = tune_rows(rules)
    by_trump = [declaration_rows(rules, trump) for trump in range(N_SUITS)]
    width = max(len(rows) for rows in by_trump)
    decl = np.zeros((N_SUITS, width, k.N_DECL), dtype=np.int64)
    # a row's meld sits inside its parents: their served-record bits, 3 << 2p each (a copy that
    # served one may not serve the row; SPEC "Variant two-hand-48", docs/rules.md "Declarations")
    names = [meld.name for meld in rules.melds]
    inside = [sum(3 << (2 * names.index(p)) for p in meld.inside) for meld in rules.melds]
    for trump, rows in enumerate(by_trump):
        decl[trump, :len(rows), :k.D_INSIDE] = rows
        decl[trump, :len(rows), k.D_INSIDE] = [inside[row[0]] for row in rows]
    n_decl = np.array([len(rows) for rows in by_trump], dtype=np.int64)
    card_points = np.array([rules.rank_points[t % N_RANKS] for t in range(N_TYPES)],
                           dtype=np.int64)
    return TalonTable(cfg, decl, n_decl, card_points, len(rules.melds))


def n_tricks(rules: Rules) -> int:
    return rules.talon // rules.players + rules.hand_size


def sides_of(rules: Rules) -> np.ndarray:
    """Each seat's side: its partnership (0 for seats 0+2, 1 for 1+3), or the seat itself."""
    if rules.partnerships:
        return np.array([seat % 2 for seat in range(rules.players)], dtype=np.int64)
    return np.arange(rules.players, dtype=np.int64)


# --- whole deals as arrays ----------------------------------------------------------------------

@dataclass(frozen=True)
class TalonDeals:
    """Arrays of simulated talon deals (:func:`run_play`; the fields of
    :class:`~binokel_sim.kernels.talon.deals.TalonOuts` that a recorded deal writes, its
    ``decl`` as ``declarations``).

    Deal ``d`` (number ``first_deal + d``, dealer ``(first_deal + d) % P``) reads the stream of
    its block (the shuffle, then the random policy's draws,
    ``kernels.talon.deals.talon_blocks``). The deck is read off in order: seat ``s`` takes
    positions ``s*H .. s*H+H-1``, the talon (int64 (T,)) positions ``P*H .. N-1`` in draw order,
    its last card the turned card. ``hands`` uint32 (n, P, 4) as dealt, ``talon`` int64 (n, T)
    as dealt, ``points`` int64 (n, P, 2): card points (the last trick included) and meld points
    (the declarations, the turned bonus for the dealer) per seat; per trick ``k``:
    ``trick_cards[d, k, i]`` the card played ``i``-th (by seat ``(leader + i) % P``),
    ``trick_leaders[d, k]``, ``trick_winners[d, k]``, and ``declarations[d, k]`` = (declaration
    row or -1, swap 0/1). The draws after phase-1 trick ``k`` are ``talon[k*P:(k+1)*P]`` with,
    after a recorded swap, the talon's last card replaced by the nine, so they are not written.
    """

    rules: Rules
    hands: np.ndarray
    talon: np.ndarray
    points: np.ndarray
    trick_cards: np.ndarray
    trick_leaders: np.ndarray
    trick_winners: np.ndarray
    declarations: np.ndarray


# --- the runs: one output helper, one block driver (kernels.talon.deals.talon_blocks) -------------

def outputs(**arrays) -> TalonOuts:
    """The :class:`~binokel_sim.kernels.talon.deals.TalonOuts` of a run: ``arrays`` by field
    name, every other field a placeholder of the one type the kernel is compiled for, so every
    run shares one compiled driver."""
    return run_outputs(TalonOuts, "talon", {"hands": "hands", "points": "tricks",
                                            "trick_cards": "tricks", "decl": "tricks",
                                            "diff": "diff"}, arrays)


def game_bundle(samples_per_move: int, *, infer: int = INFER_FULL, n_sides: int = 0,
                policy_a: int = 0, policy_b: int = 0, target: int = 0,
                max_deals: int = 0, exact: tuple[int, int] = (EXACT_TRICKS, EXACT_TRICKS)
                ) -> TalonGame:
    """The run's :class:`~binokel_sim.kernels.talon.deals.TalonGame` (ints; 0 where the run has
    no contest; ``exact``: A's and B's tricks left solved exactly in phase 2's play-outs)."""
    return TalonGame(int(n_sides), int(policy_a), int(policy_b), int(target), int(max_deals),
                     int(infer), int(samples_per_move), int(exact[0]), int(exact[1]))


def run_blocks(mode: int, deck: np.ndarray, table: TalonTable, seats: np.ndarray, run: Run,
               game: TalonGame, outs: TalonOuts, sample: TalonSample | None = None) -> None:
    """Run ``run``'s items of ``mode`` on the block driver over the threads: ``seats`` the seats'
    policy ids (in duels and games each seat's side, :func:`sides_of`: A's and B's policies,
    ``game.policy_a`` / ``policy_b``, play), a sample's
    :class:`~binokel_sim.kernels.talon.deals.TalonSample` (placeholders when None)."""
    if mode in (MODE_DUEL, MODE_MATCH):
        kinds = policy_kinds(game.policy_a, game.policy_b)
    else:
        kinds = policy_kinds(seats)
    if sample is None:
        sample = TalonSample(placeholders()[0], 0, 0)
    spread_blocks(talon_blocks, -(-run.n_items // run.block_size), *kinds, mode, deck, table,
                  seats, run, sample, game, outs)


def talon_playout_blocks(deck, table, seat_policies, n_samples, seed, first_block, block_size,
                         first_deal, points_out) -> None:
    """Deal and play ``points_out.shape[0]`` deals without recording them (the benchmark of
    whole deals, ``bench.talon.playout_rate``): the same streams and the same deals as
    :func:`run_play`'s with the same blocks, but only ``points_out`` int64 (n, P, 2) is
    written."""
    run_blocks(MODE_PLAYOUT, deck, table, seat_policies,
               Run(seed, first_block, block_size, first_deal, points_out.shape[0]),
               game_bundle(n_samples), outputs(points=points_out))


def run_play(rules: Rules, deals: int, seed: int, policy: str, threads: int | None = None,
                   progress: Progress | None = None, first_deal: int = 0,
                   samples_per_move: int = SAMPLES_PER_MOVE) -> TalonDeals:
    """Simulate ``deals`` whole deals with ``policy`` on every seat; the dealer of deal ``d`` is
    ``d % players``. ``first_deal`` (a multiple of the run's block: ``GAME_BLOCK``, or
    ``SAMPLED_BLOCK`` with the sampling policy, :func:`~binokel_sim.game_blocks.stream_blocks`)
    runs the deals ``first_deal ..`` of a longer run: the same deals as that run's.
    ``samples_per_move``: the sampling policy's deals per card decision."""
    check(rules)
    check_run(deals, seed)
    check_samples_per_move(samples_per_move)
    seats = np.full(rules.players, policy_id(policy, rules), dtype=np.int64)
    players, nt = rules.players, n_tricks(rules)
    plan = plan_run(deals, seed, first=first_deal, block=GAME_BLOCK, slow=sampled(seats[0]),
                    threads=threads, row_bytes=16 * players + 8 * rules.talon + 16 * players
                    + 8 * nt * (players + 4))
    table = family_tables(rules)
    deck = compile_tables(rules).deck
    out = TalonDeals(
        rules=rules,
        hands=np.empty((deals, players, N_PLANES), dtype=np.uint32),
        talon=np.empty((deals, rules.talon), dtype=np.int64),
        points=np.empty((deals, players, 2), dtype=np.int64),
        trick_cards=np.empty((deals, nt, players), dtype=np.int64),
        trick_leaders=np.empty((deals, nt), dtype=np.int64),
        trick_winners=np.empty((deals, nt), dtype=np.int64),
        declarations=np.empty((deals, nt, 2), dtype=np.int64),
    )
    game = game_bundle(samples_per_move)
    for run, s in plan.steps(progress):
        run_blocks(MODE_PLAY, deck, table, seats, run, game,
                   outputs(hands=out.hands[s], talon=out.talon[s], points=out.points[s],
                           trick_cards=out.trick_cards[s], trick_leaders=out.trick_leaders[s],
                           trick_winners=out.trick_winners[s], decl=out.declarations[s]))
    return out


# --- duels and matches --------------------------------------------------------------------------

def run_duel(rules: Rules, policy_a: str, policy_b: str, deals: int, seed: int,
                   threads: int | None = None, progress: Progress | None = None,
                   first_deal: int = 0, samples_per_move: int = SAMPLES_PER_MOVE,
                   inference: str = "full",
             exact_tricks: tuple[int, int] | None = None) -> np.ndarray:
    """Per deal, A's side score minus the B sides' mean, averaged over the seatings (A on each
    side in turn: every seat for three players, each partnership for four-hand-72), float64
    (deals,). ``first_deal`` (a multiple of ``GAME_BLOCK``) gives the deals ``first_deal ..``
    of a longer run; ``samples_per_move``: the sampling policy's deals per card decision;
    ``inference``: what its phase-2 deals respect (``engines.policies.inference_id``: no
    declarer here); ``exact_tricks``: A's and B's tricks left that their phase-2 play-outs
    solve exactly (``engines.policies.exact_tricks_of``; three and four players: with two,
    phase 2 is the solver's)."""
    check(rules)
    if not exact_playouts(rules):
        refuse_options(rules, "duel", exact_tricks=exact_tricks)
    check_run(deals, seed)
    check_samples_per_move(samples_per_move)
    a, b = policy_id(policy_a, rules), policy_id(policy_b, rules)
    infer = inference_id(inference, rules, a, b)
    exact = exact_tricks_of(exact_tricks, a, b)
    plan = plan_run(deals, seed, first=first_deal, block=GAME_BLOCK, slow=sampled(a, b),
                    threads=threads, row_bytes=8)
    table = family_tables(rules)
    deck = compile_tables(rules).deck
    sides = sides_of(rules)
    game = game_bundle(samples_per_move, infer=infer, n_sides=int(sides.max()) + 1,
                       policy_a=a, policy_b=b, exact=(int(exact[0]), int(exact[1])))
    diff = np.empty(deals, dtype=np.float64)
    for run, s in plan.steps(progress):
        run_blocks(MODE_DUEL, deck, table, sides, run, game, outputs(diff=diff[s]))
    return diff


def run_match(rules: Rules, policy_a: str, policy_b: str, games: int, seed: int,
                    threads: int | None = None, progress: Progress | None = None,
                    first_game: int = 0, samples_per_move: int = SAMPLES_PER_MOVE) -> np.ndarray:
    """Whole games to ``rules.game_target``; int64 (games, 4): A won (1/0, -1 unfinished), deals,
    A's final total, the B sides' summed final totals (A on side ``(number // P) % n_sides``,
    its first dealer ``number % P``, the deal rotating clockwise). ``first_game`` (a multiple
    of ``MATCH_BLOCK``) gives the games ``first_game ..`` of a longer run; ``samples_per_move``:
    the sampling policy's deals per card decision."""
    check(rules)
    check_run(games, seed, "--games")
    check_samples_per_move(samples_per_move)
    a, b = policy_id(policy_a, rules), policy_id(policy_b, rules)
    plan = plan_run(games, seed, first=first_game, block=MATCH_BLOCK, slow=sampled(a, b),
                    threads=threads, row_bytes=32, what="games", option="--games")
    table = family_tables(rules)
    deck = compile_tables(rules).deck
    sides = sides_of(rules)
    game = game_bundle(samples_per_move, n_sides=int(sides.max()) + 1, policy_a=a, policy_b=b,
                       target=rules.game_target, max_deals=MAX_GAME_DEALS)
    out = np.empty((games, 4), dtype=np.int64)
    for run, s in plan.steps(progress):
        run_blocks(MODE_MATCH, deck, table, sides, run, game, outputs(games=out[s]))
    return out


# --- samples of one hand (deal-odds) ------------------------------------------------------------

def sampler_inputs(rules: Rules, counts: np.ndarray, knowledge, *, turned: int | None = None):
    """The constrained sampler's inputs for ``knowledge`` over the cards neither in the hand
    ``counts`` nor the ``turned`` card (the other seats' hands and the hidden talon), checked (an
    impossible combination is a :class:`CardError`); placeholders (``groups`` 0: the plain
    shuffle) when nothing is known. ``turned`` is needed."""
    from binokel_sim.constraints import inputs_for

    require_options(rules, "sampler_inputs", turned=turned)
    seen = np.asarray(counts, dtype=np.int64).copy()
    seen[turned] += 1
    return inputs_for(rules, seen, knowledge, hidden=rules.talon - 1)


def run_samples(rules: Rules, counts: np.ndarray, samples: int, seed: int, policy: str, *,
                threads: int | None = None, progress: Progress | None = None,
                first_sample: int = 0, knowledge=None,
                samples_per_move: int = SAMPLES_PER_MOVE, trumps: list[int] | None = None,
                turned: int | None = None, dealer: int | None = None,
                auction: tuple | None = None, max_draws: int | None = None) -> np.ndarray:
    """Deal the unseen cards around ``counts`` (seat 0's hand) and the ``turned`` card (a card
    type) ``samples`` times and play each deal with ``policy`` on every seat, ``dealer`` dealing
    (both needed). Returns int64 (samples, players, 2): card and meld points per seat.
    ``first_sample`` (a multiple of ``GAME_BLOCK``) gives the samples ``first_sample ..`` of a
    longer run. ``knowledge`` (:class:`~binokel_sim.constraints.Knowledge`, from ``--known`` and
    ``--void``): the other seats and the talon are dealt consistently with it by the unbiased
    constrained sampler (an impossible combination is a :class:`CardError`).
    ``samples_per_move``: the sampling policy's deals per card decision. ``trumps``,
    ``auction`` and ``max_draws`` are the partnership game's and refused here (the turned card
    is trump)."""
    check(rules)
    require_options(rules, "run_samples", turned=turned, dealer=dealer)
    refuse_options(rules, "run_samples", trumps=trumps, auction=auction, max_draws=max_draws)
    check_run(samples, seed)
    check_samples_per_move(samples_per_move)
    known = counts.copy()
    known[turned] += 1
    unseen = unseen_deck(rules, known)
    if (known > rules.deck_counts()).any():
        raise SimulationError("the turned card is a copy the deck does not have beside the hand")
    seats = np.full(rules.players, policy_id(policy, rules), dtype=np.int64)
    plan = plan_run(samples, seed, first=first_sample, block=GAME_BLOCK,
                    slow=sampled(seats[0]), threads=threads, row_bytes=16 * rules.players,
                    what="samples")
    table = family_tables(rules)
    out = np.empty((samples, rules.players, 2), dtype=np.int64)
    planes = counts_to_planes(counts)
    cons = sampler_inputs(rules, counts, knowledge, turned=turned)
    known_arg = (planes, int(cons.groups > 0), cons.pool, cons.known, cons.allowed,
                 cons.capacity, cons.ways)
    sample = TalonSample(known_arg, int(turned), int(dealer))
    game = game_bundle(samples_per_move)
    for run, s in plan.steps(progress):
        # the unseen cards are shuffled over positions 0..n-2, seats 1..P-1 take consecutive
        # hands of them and the talon the rest, then the turned card; with what the user knows
        # (known_arg[1] set) the constrained sampler deals them instead
        # (kernels.sampler.constrained_deal)
        run_blocks(MODE_SAMPLE, unseen, table, seats, run, game,
                   outputs(points=out[s]), sample)
    return out
