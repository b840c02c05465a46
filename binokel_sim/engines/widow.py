"""Public drivers of the widow games (three-hand-auction-48, four-hand-widow-48): simulated deals
as arrays, duels of policies, whole games, the samples behind their bid odds and the exact widow
analysis.

The names of :data:`binokel_sim.engines.FAMILY_API`. Like every family's, these validate,
allocate, cut the work into chunks of whole blocks and call ``progress(done, total)`` between
chunks; block ``i`` always reads stream ``(seed, i)``, so results do not depend on the thread
count. The rules are SPEC.md's widow variants; the
decisions beyond it are in docs/rules.md, "Widow games".
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from binokel_sim import expert_play, widow_value
from binokel_sim.bidding import ladder
from binokel_sim.cards import N_PLANES, N_RANKS, N_TYPES, RANK_A, counts_to_planes
from binokel_sim.constants import SAMPLES_PER_MOVE
from binokel_sim.constraints import hand_sampler_inputs
from binokel_sim.engines.policies import (
    check_samples_per_move,
    inference_id,
    policy_id,
    policy_kinds,
    sampled,
    show_rows,
)
from binokel_sim.families import sides as n_sides
from binokel_sim.game_blocks import (
    GAME_BLOCK,
    MATCH_BLOCK,
    MAX_GAME_DEALS,
    chunk_blocks,
    stream_blocks,
)
from binokel_sim.kernels.knowledge import INFER_FULL
from binokel_sim.kernels.modes import (
    MODE_DUEL,
    MODE_MATCH,
    MODE_PLAY,
    MODE_PLAYOUT,
    MODE_SAMPLE,
)
from binokel_sim.kernels.policies import N_TUNE
from binokel_sim.kernels.widow.deals import (
    CFG_PLAYERS,
    N_INFO,
    placeholders,
    widow_blocks,
    widow_exact,
    widow_exact_known,
)
from binokel_sim.simulate import (
    Progress,
    SimulationError,
    check_memory,
    check_run,
    refuse_options,
    set_threads,
    spread_items,
    unseen_deck,
)
from binokel_sim.tables import compile_tables, tune_rows
from binokel_sim.variants import Rules

SAMPLE_FIELDS = ("total", "trump", "meld", "bonus", "card_points", "concede_from",
                 "opponent_score", "durch", "bettel")


# the specialisations its drivers compile beyond the heuristic's, each on first use, as
# (command, policy) for ``binokel-sim warm-up``: one item loop serves every command
# (:func:`binokel_sim.engines.policies.policy_kinds`)
WARM_UP = (("play", "random"), ("duel", "sampling"))


def sampling_plays(rules: Rules) -> bool:
    """The ``sampling`` policy plays every widow game (``kernels/strict/widow_knowledge.py``:
    every trick is strict and played as the 72-card games' phase 2)."""
    return True


def expert_plays(rules: Rules) -> bool:
    """The ``expert`` policy plays a widow game whose knobs are fitted
    (``binokel_sim/expert_play.json``): it bids by the heuristic's table read ``bid_shift``
    points of estimate higher, takes the widow as the heuristic, buries by its knobs
    ``bury_aces_last`` (:func:`preferences`) and ``bury_void``, and plays its cards
    by the heuristic's rules with its knobs."""
    return expert_play.fitted(rules.name)


def check(rules: Rules) -> None:
    """The widow engine plays rules with a widow, an auction and trump named by the soloist."""
    problems = []
    if rules.widow == 0 or rules.talon:
        problems.append("a widow and no talon")
    if not rules.bid_ladder:
        problems.append("a bidding ladder")
    if rules.trump_chosen_by != "bid_winner" or rules.trump_requires:
        problems.append("trump named freely by the soloist")
    if rules.strict != "always":
        problems.append("strict play on every trick")
    if rules.partnerships and sorted(map(sorted, rules.partnerships)) != [[0, 2], [1, 3]]:
        problems.append("no partnerships, or partnerships 0+2 and 1+3")
    if problems:
        raise SimulationError(f"variant {rules.name}: the widow engine needs "
                              f"{'; '.join(problems)}")


def sampler_inputs(rules: Rules, counts: np.ndarray, knowledge, *, turned: int | None = None):
    """The constrained sampler's inputs for ``knowledge`` over the cards the hand ``counts`` does
    not hold (:func:`binokel_sim.constraints.hand_sampler_inputs`); no card is turned here."""
    refuse_options(rules, "sampler_inputs", turned=turned)
    return hand_sampler_inputs(rules, counts, knowledge)


@functools.lru_cache(maxsize=32)
def family_tables(rules: Rules) -> tuple:
    """The tuple ``tw`` the widow kernels take (:mod:`binokel_sim.kernels.widow.deals`): ``(cfg,
    ladder int64 (rungs, 2), card points int64 (24,), completions
    int64 (24, k) (:func:`completions`), preferences int64 (3, 4, 24) (:func:`preferences`), the
    meld sets a player shows (:func:`~binokel_sim.engines.policies.show_rows`: the sampling policy's
    knowledge), the soloist's estimate after the Dabb (:func:`binokel_sim.widow_value.weights`,
    Abgehen), a bidding seat's estimate before it and its bid limits
    (:func:`~binokel_sim.widow_value.bid_weights`, :func:`~binokel_sim.widow_value.bid_table`),
    the soloist's concede thresholds (:func:`~binokel_sim.widow_value.concede_table`))``;
    the meld kernels' ``kt`` goes beside it."""
    from binokel_sim.kernels.widow import deals as k

    tables = compile_tables(rules)
    cfg = np.zeros(k.N_CFG, dtype=np.int64)
    cfg[k.CFG_PLAYERS] = rules.players
    cfg[k.CFG_HAND] = rules.hand_size
    cfg[k.CFG_WIDOW] = rules.widow
    cfg[k.CFG_LAST_TRICK] = rules.last_trick
    cfg[k.CFG_PAIRS] = int(bool(rules.partnerships))
    cfg[k.CFG_COPIES] = rules.copies
    cfg[k.CFG_DECK] = sum(1 << t for t in range(N_TYPES) if tables.deck_counts[t])
    cfg[k.CFG_DEMAND] = int(rules.widow_demand)
    cfg[k.CFG_LEADER] = int(rules.first_leader == "non_dealer")
    cfg[k.CFG_CONCEDE] = int(rules.widow_concede)
    cfg[k.CFG_CONCEDE_BONUS] = rules.concede_bonus
    cfg[k.CFG_DURCH] = int(rules.widow_durch)
    cfg[k.CFG_SWEEP] = rules.all_tricks_bonus
    cfg[k.CFG_BETTEL] = int(rules.widow_bettel)
    cfg[k.CFG_TUNE:k.CFG_TUNE + 2 * N_TUNE] = tune_rows(rules)
    low, limits = widow_value.bid_table(rules)
    concede_low, thresholds = widow_value.concede_table(rules)
    assert low == concede_low  # both tables cover widow_value.estimate_range
    cfg[k.CFG_TABLE_LOW] = low
    return (cfg, tables.ladder, tables.card_points, completions(rules), preferences(rules),
            show_rows(rules), np.array(widow_value.weights(rules), dtype=np.int64),
            np.array(widow_value.bid_weights(rules), dtype=np.int64), limits, thresholds)


def preferences(rules: Rules) -> np.ndarray:
    """The order in which a soloist parts with cards (docs/rules.md, "Policies"), int64
    (3, 4, 24): ``[0, any]`` for the card given back (the fewest card points, then the lowest
    type), ``[1, trump]`` for the heuristic's burying (no trump before a trump, then the most
    card points, then the lowest type), ``[2, trump]`` for burying with the expert's knob
    ``bury_aces_last`` (the same, a side ace after every other side card)."""
    points = [rules.rank_points[t % N_RANKS] for t in range(N_TYPES)]
    out = np.empty((3, 4, N_TYPES), dtype=np.int64)
    for trump in range(4):
        out[0, trump] = sorted(range(N_TYPES), key=lambda t: (points[t], t))
        out[1, trump] = sorted(range(N_TYPES),
                               key=lambda t: (t // N_RANKS == trump, -points[t], t))
        out[2, trump] = sorted(range(N_TYPES),
                               key=lambda t: (t // N_RANKS == trump, t % N_RANKS == RANK_A,
                                              -points[t], t))
    return out

def completions(rules: Rules) -> np.ndarray:
    """For every card type ``t``, the sets of other card types that ``t`` completes into one
    set of a meld worth something at multiplicity 1 (in any suit the meld's scope allows, trump
    or not): int64 (24, k), -1 padded. A card the soloist holds no copy of can raise his meld only
    through such a set, which is how the heuristic's demand skips hopeless cards."""
    sets = [set() for _ in range(N_TYPES)]
    for meld in rules.melds:
        if meld.points[1] <= 0:
            continue
        if meld.scope in ("around", "cards"):
            masks = [meld.type_mask]
        else:
            masks = [meld.type_mask << (N_RANKS * suit) for suit in range(4)]
        for mask in masks:
            for t in range(N_TYPES):
                if mask >> t & 1:
                    sets[t].add(mask & ~(1 << t))
    width = max(len(s) for s in sets)
    out = np.full((N_TYPES, width), -1, dtype=np.int64)
    for t, needs in enumerate(sets):
        out[t, :len(needs)] = sorted(needs)
    return out


def most_calls(rules: Rules) -> int:
    """Room for the calls of one auction: the heuristic raises by one rung at a time up to its
    limit (at most the highest of :func:`binokel_sim.widow_value.bid_table`), and a random seat
    raises with probability 1/2 per call, so longer auctions are out of reach (below 2**-200);
    the drivers check the bound anyway."""
    highest = int(widow_value.bid_table(rules)[1].max())
    return max(len(ladder(rules, highest)), 200) + rules.players + 1


# --- whole deals as arrays ----------------------------------------------------------------------

@dataclass(frozen=True)
class WidowDeals:
    """Arrays of simulated widow deals (see :func:`widow_play_blocks`)."""

    rules: Rules
    hands: np.ndarray
    widow: np.ndarray
    info: np.ndarray
    bid_seats: np.ndarray
    bid_values: np.ndarray
    buried: np.ndarray
    melds: np.ndarray
    card_points: np.ndarray
    scores: np.ndarray
    trick_cards: np.ndarray
    trick_leaders: np.ndarray
    trick_winners: np.ndarray


# --- the runs' entry points into the one block driver (kernels.widow.deals.widow_blocks) -------
# Each fills the arguments its run does not use with placeholders of the one type the kernel is
# compiled for, so every run shares one compiled driver.

# (sides, A's policy, B's policy, target, most deals, what sampling infers) outside duels
_NO_GAME = (0, 0, 0, 0, 0, INFER_FULL)


def _unrecorded(rows_out) -> tuple:
    """The ``outs`` of a run that records nothing but one int64 (n, k) array: placeholders of
    the record types, ``rows_out`` for the scores, the games and the samples."""
    _, hands, rows, tricks, diff = placeholders()
    return (hands, rows, rows, rows, rows, rows, rows, rows, rows_out, tricks, rows, rows, diff,
            rows_out, rows_out)


def widow_play_blocks(deck, tw, kt, seat_policies, n_samples, seed, first_block, block_size,
                      first_deal, hands_out, widow_out, info, bid_seats, bid_values, buried,
                      melds, card_pts, scores, trick_cards, trick_leaders, trick_winners,
                      infer: int = INFER_FULL) -> None:
    """Deal and play ``hands_out.shape[0]`` deals and record them. Deal ``d`` (number
    ``first_deal + d``, dealer ``(first_deal + d) % P``) reads the stream of block
    ``first_block + d // block_size``. Writes per deal: ``hands_out`` uint32 (n, P, 4) and
    ``widow_out`` int64 (n, W) as dealt, ``info`` int64 (n, N_INFO) (soloist, bid, calls,
    trump, demand, from, given, bonus, made, conceded), the calls ``bid_seats`` /
    ``bid_values`` (n, calls; unused slots -1 / ``NO_BID``), ``buried`` (n, W), ``melds``,
    ``card_pts`` and ``scores`` (n, P), and the tricks ``trick_cards`` (n, H, P),
    ``trick_leaders`` and ``trick_winners`` (n, H) (-1 throughout for a deal the soloist gave
    up). ``infer``: what the sampling policy's deals respect (``kernels.knowledge.INFERENCE``)."""
    known, _, rows, _, diff = placeholders()
    outs = (hands_out, widow_out, info, bid_seats, bid_values, buried, melds, card_pts, scores,
            trick_cards, trick_leaders, trick_winners, diff, rows, rows)
    spread_items(widow_blocks, *policy_kinds(seat_policies), mode=MODE_PLAY,
                 n_items=hands_out.shape[0], deck=deck, tw=tw, kt=kt, seat_policies=seat_policies,
                 n_samples=n_samples, seed=seed, first_block=first_block, block_size=block_size,
                 first_deal=first_deal, known=known, game=(0, 0, 0, 0, 0, int(infer)), outs=outs,
                 max_calls=1)


def widow_playout_blocks(deck, tw, kt, seat_policies, n_samples, max_calls, seed, first_block,
                         block_size, first_deal, scores_out) -> None:
    """Deal and play ``scores_out.shape[0]`` deals without recording them (the benchmark of whole
    deals): the same streams and deals as :func:`widow_play_blocks`; writes only ``scores_out``
    int64 (n, P)."""
    spread_items(widow_blocks, *policy_kinds(seat_policies), mode=MODE_PLAYOUT,
                 n_items=scores_out.shape[0], deck=deck, tw=tw, kt=kt, seat_policies=seat_policies,
                 n_samples=n_samples, seed=seed, first_block=first_block, block_size=block_size,
                 first_deal=first_deal, known=placeholders()[0], game=_NO_GAME,
                 outs=_unrecorded(scores_out), max_calls=int(max_calls))


def widow_duel_blocks(deck, tw, kt, n_sides, policy_a, policy_b, n_samples, max_calls, seed,
                      first_block, block_size, first_deal, diff_out,
                      infer: int = INFER_FULL) -> None:
    """Every deal played ``n_sides`` times from the same cards, A's policy on side ``r`` in play
    ``r`` and B's on the others (auction included). Writes ``diff_out`` float64 (n,): A's side
    score minus the mean of the B sides, averaged over the plays. ``infer``: what the sampling
    policy's deals respect (``kernels.knowledge.INFERENCE``)."""
    known, hands, rows, tricks, _ = placeholders()
    seats = np.zeros(int(tw[0][CFG_PLAYERS]), dtype=np.int64)
    outs = (hands, rows, rows, rows, rows, rows, rows, rows, rows, tricks, rows, rows, diff_out,
            rows, rows)
    spread_items(widow_blocks, *policy_kinds(policy_a, policy_b), mode=MODE_DUEL,
                 n_items=diff_out.shape[0], deck=deck, tw=tw, kt=kt, seat_policies=seats,
                 n_samples=n_samples, seed=seed, first_block=first_block, block_size=block_size,
                 first_deal=first_deal, known=known,
                 game=(int(n_sides), int(policy_a), int(policy_b), 0, 0, int(infer)), outs=outs,
                 max_calls=int(max_calls))


def widow_match_blocks(deck, tw, kt, n_sides, policy_a, policy_b, n_samples, max_calls, target,
                       max_deals, seed, first_block, block_size, first_game, games_out) -> None:
    """Whole games to ``target`` as :func:`binokel_sim.engines.talon.talon_match_blocks`: A on
    side ``(number // P) % n_sides``, first dealer ``number % P``; writes ``games_out`` int64
    (n, 4): A won (1/0, -1 unfinished), deals, A's final total, the B sides' summed totals."""
    seats = np.zeros(int(tw[0][CFG_PLAYERS]), dtype=np.int64)
    game = (int(n_sides), int(policy_a), int(policy_b), int(target), int(max_deals), INFER_FULL)
    spread_items(widow_blocks, *policy_kinds(policy_a, policy_b), mode=MODE_MATCH,
                 n_items=games_out.shape[0], deck=deck, tw=tw, kt=kt, seat_policies=seats,
                 n_samples=n_samples, seed=seed, first_block=first_block, block_size=block_size,
                 first_deal=first_game, known=placeholders()[0], game=game,
                 outs=_unrecorded(games_out), max_calls=int(max_calls))


def widow_sample_blocks(unseen, known, tw, kt, seat_policies, n_samples, seed, first_block,
                        block_size, out, dealer) -> None:
    """Samples for the bid odds of one hand: seat 0 is the soloist with ``known[0]`` (uint32
    (4,)) before the widow; the ``unseen`` cards are dealt to seats 1.. and the widow (the others
    take consecutive hands of the shuffled unseen cards, the widow the rest). With ``known[1]``
    set, what the user knows deals the other seats and the widow instead
    (``kernels.sampler.constrained_deal``; ``kernels.sampler.unconstrained`` for nothing known).
    Seat 0 takes the widow, demands (where the rules have the demand), buries and names trump;
    the soloist leads, or the player left of ``dealer`` (the dealer's seat) where the rules say
    so; the deal is played out. Writes ``out`` int64 (n, 9): the soloist side's total (meld if
    it took a trick + card points + bonus; a Durch's +-1000), the trump (-1 in a Durch), the soloist's meld after the widow (0 in a Durch), the bonus (1 if the soloist's
    side took every trick), the side's card points, the smallest bid at which he would give up
    (Abgehen; the sample is played out at every bid), seat 1's score (a defender's), 1 where
    he declared Durch, 1 where he holds a sure Bettel (he could declare it at a bid up to 300;
    the sample is counted). Sample ``d`` reads
    the stream of block ``first_block + d // block_size``: the deal, the widow decisions, the
    play."""
    spread_items(widow_blocks, *policy_kinds(seat_policies), mode=MODE_SAMPLE, n_items=out.shape[0],
                 deck=unseen, tw=tw, kt=kt, seat_policies=seat_policies, n_samples=n_samples,
                 seed=seed, first_block=first_block, block_size=block_size, first_deal=int(dealer),
                 known=known, game=_NO_GAME, outs=_unrecorded(out), max_calls=1)


def run_play(rules: Rules, deals: int, seed: int, policy: str, threads: int | None = None,
                   progress: Progress | None = None, first_deal: int = 0,
                   samples_per_move: int = SAMPLES_PER_MOVE) -> WidowDeals:
    """Simulate ``deals`` whole deals with ``policy`` on every seat; the dealer of deal ``d`` is
    ``d % players``. ``first_deal`` (a multiple of the run's block: ``GAME_BLOCK``, or
    ``SAMPLED_BLOCK`` with the sampling policy, :func:`~binokel_sim.game_blocks.stream_blocks`)
    runs the deals ``first_deal ..`` of a longer run: the same deals as that run's.
    ``samples_per_move``: the sampling policy's deals per card decision."""
    check(rules)
    check_run(deals, seed)
    check_samples_per_move(samples_per_move)
    n_threads = set_threads(threads)
    tw = family_tables(rules)
    tables = compile_tables(rules)
    deck = tables.deck
    seats = np.full(rules.players, policy_id(policy, rules), dtype=np.int64)
    block, offset = stream_blocks(first_deal, sampled(seats[0]), GAME_BLOCK)
    p, h, w, calls = rules.players, rules.hand_size, rules.widow, most_calls(rules)
    check_memory(deals * (16 * p + 16 * w + 8 * N_INFO + 16 * calls + 24 * p + 8 * h * (p + 2)),
                 f"{deals:,} deals")
    out = WidowDeals(
        rules=rules,
        hands=np.empty((deals, p, N_PLANES), dtype=np.uint32),
        widow=np.empty((deals, w), dtype=np.int64),
        info=np.empty((deals, N_INFO), dtype=np.int64),
        bid_seats=np.empty((deals, calls), dtype=np.int64),
        bid_values=np.empty((deals, calls), dtype=np.int64),
        buried=np.empty((deals, w), dtype=np.int64),
        melds=np.empty((deals, p), dtype=np.int64),
        card_points=np.empty((deals, p), dtype=np.int64),
        scores=np.empty((deals, p), dtype=np.int64),
        trick_cards=np.empty((deals, h, p), dtype=np.int64),
        trick_leaders=np.empty((deals, h), dtype=np.int64),
        trick_winners=np.empty((deals, h), dtype=np.int64),
    )
    for first_block, start, n in chunk_blocks(deals, n_threads, block):
        s = slice(start, start + n)
        widow_play_blocks(deck, tw, tables.kt, seats, samples_per_move, seed,
                          offset + first_block, block, first_deal + start, out.hands[s],
                          out.widow[s], out.info[s], out.bid_seats[s],
                          out.bid_values[s], out.buried[s], out.melds[s], out.card_points[s],
                          out.scores[s], out.trick_cards[s], out.trick_leaders[s],
                          out.trick_winners[s])
        if progress is not None:
            progress(start + n, deals)
    return out


# --- duels and matches --------------------------------------------------------------------------

def run_duel(rules: Rules, policy_a: str, policy_b: str, deals: int, seed: int,
                   threads: int | None = None, progress: Progress | None = None,
                   first_deal: int = 0, samples_per_move: int = SAMPLES_PER_MOVE,
                   inference: str = "full") -> np.ndarray:
    """Per deal, A's side score minus the B sides' mean, averaged over the seatings (A on each
    side in turn), float64 (deals,). ``first_deal`` (a multiple of ``GAME_BLOCK``) gives the
    deals ``first_deal ..`` of a longer run; ``samples_per_move``: the sampling policy's deals
    per card decision; ``inference``: what its deals respect (``engines.policies.inference_id``;
    the soloist is the declarer)."""
    check(rules)
    check_run(deals, seed)
    check_samples_per_move(samples_per_move)
    n_threads = set_threads(threads)
    tw = family_tables(rules)
    tables = compile_tables(rules)
    deck = tables.deck
    a, b = policy_id(policy_a, rules), policy_id(policy_b, rules)
    infer = inference_id(inference, rules, a, b)
    block, offset = stream_blocks(first_deal, sampled(a, b), GAME_BLOCK)
    check_memory(8 * deals, f"{deals:,} deals")
    diff = np.empty(deals, dtype=np.float64)
    for first_block, start, n in chunk_blocks(deals, n_threads, block):
        widow_duel_blocks(deck, tw, tables.kt, n_sides(rules), a, b, samples_per_move,
                          most_calls(rules), seed,
                          offset + first_block, block, first_deal + start,
                          diff[start:start + n], infer)
        if progress is not None:
            progress(start + n, deals)
    return diff


def run_match(rules: Rules, policy_a: str, policy_b: str, games: int, seed: int,
                    threads: int | None = None, progress: Progress | None = None,
                    first_game: int = 0, samples_per_move: int = SAMPLES_PER_MOVE) -> np.ndarray:
    """Whole games to ``rules.game_target``; int64 (games, 4): A won (1/0, -1 unfinished), deals,
    A's final total, the B sides' summed final totals. ``first_game`` (a multiple of
    ``MATCH_BLOCK``) gives the games ``first_game ..`` of a longer run; ``samples_per_move``:
    the sampling policy's deals per card decision."""
    check(rules)
    check_run(games, seed, "--games")
    check_samples_per_move(samples_per_move)
    n_threads = set_threads(threads)
    tw = family_tables(rules)
    tables = compile_tables(rules)
    deck = tables.deck
    a, b = policy_id(policy_a, rules), policy_id(policy_b, rules)
    block, offset = stream_blocks(first_game, sampled(a, b), MATCH_BLOCK, "games")
    check_memory(32 * games, f"{games:,} games")
    out = np.empty((games, 4), dtype=np.int64)
    for first_block, start, n in chunk_blocks(games, n_threads, block):
        widow_match_blocks(deck, tw, tables.kt, n_sides(rules), a, b, samples_per_move,
                           most_calls(rules),
                           rules.game_target, MAX_GAME_DEALS, seed, offset + first_block,
                           block, first_game + start, out[start:start + n])
        if progress is not None:
            progress(start + n, games)
    return out


# --- one hand: samples and the exact widow ------------------------------------------------------

def run_samples(rules: Rules, counts: np.ndarray, samples: int, seed: int, policy: str, *,
                threads: int | None = None, progress: Progress | None = None,
                first_sample: int = 0, knowledge=None,
                samples_per_move: int = SAMPLES_PER_MOVE, trumps: list[int] | None = None,
                turned: int | None = None, dealer: int | None = None,
                auction: tuple | None = None, max_draws: int | None = None) -> np.ndarray:
    """Seat 0 holds ``counts`` and is the soloist: the unseen cards are dealt to the other seats
    and the widow ``samples`` times, and each deal is played with ``policy`` on every seat.
    ``dealer``: the dealer's seat, by default the last (seat 0 sits left of the dealer); it
    matters only where the player left of the dealer leads the first trick.
    Returns int64 (samples, 7), columns ``SAMPLE_FIELDS`` (``concede_from``: the smallest bid
    at which the soloist would give up, :data:`binokel_sim.widow_value.NEVER` for one who never
    does, the sample being played out whatever the bid; ``opponent_score``: seat 1's score, a
    defender's). ``first_sample`` (a multiple of
    ``GAME_BLOCK``) gives the samples ``first_sample ..`` of a longer run. ``knowledge``
    (:class:`~binokel_sim.constraints.Knowledge`, from ``--known`` and ``--void``): the other
    seats and the widow are dealt consistently with it by the unbiased constrained sampler (an
    impossible combination is a :class:`CardError`). ``samples_per_move``: the sampling policy's
    deals per card decision. ``trumps``, ``turned``, ``auction`` and ``max_draws`` are the other
    families' and refused here (the soloist names trump after the widow)."""
    check(rules)
    refuse_options(rules, "run_samples", trumps=trumps, turned=turned, auction=auction,
                   max_draws=max_draws)
    check_run(samples, seed)
    check_samples_per_move(samples_per_move)
    n_threads = set_threads(threads)
    tw = family_tables(rules)
    unseen = unseen_deck(rules, counts)
    seats = np.full(rules.players, policy_id(policy, rules), dtype=np.int64)
    block, offset = stream_blocks(first_sample, sampled(seats[0]), GAME_BLOCK, "samples")
    check_memory(8 * len(SAMPLE_FIELDS) * samples, f"{samples:,} samples")
    out = np.empty((samples, len(SAMPLE_FIELDS)), dtype=np.int64)
    cons = sampler_inputs(rules, counts, knowledge)
    known = (counts_to_planes(counts), int(cons.groups > 0), cons.pool, cons.known, cons.allowed,
             cons.capacity, cons.ways)
    for first_block, start, n in chunk_blocks(samples, n_threads, block):
        widow_sample_blocks(unseen, known, tw, compile_tables(rules).kt, seats, samples_per_move,
                            seed, offset + first_block, block, out[start:start + n],
                            rules.players - 1 if dealer is None else dealer)
        if progress is not None:
            progress(start + n, samples)
    return out


def exact_widow(rules: Rules, counts: np.ndarray) -> tuple[int, np.ndarray]:
    """Every possible widow from the cards the hand does not hold, each subset of physical cards
    equally likely: ``(widows, hist)`` with ``hist[v]`` the widows after which the best meld of
    hand + widow (over the four trumps) is ``v``."""
    check(rules)
    tables = compile_tables(rules)
    unseen = unseen_deck(rules, counts)
    hist = np.zeros(tables.max_total + 1, dtype=np.int64)
    p = counts_to_planes(counts)
    n = widow_exact(p0=p[0], p1=p[1], p2=p[2], p3=p[3], unseen=unseen, n_widow=rules.widow,
                    kt=tables.kt, totals=np.empty(4, dtype=np.int64), hist=hist)
    return int(n), hist


def exact_widow_known(rules: Rules, counts: np.ndarray, knowledge) -> tuple[int, np.ndarray]:
    """:func:`exact_widow` under what the user knows (``knowledge``, a
    :class:`~binokel_sim.constraints.Knowledge`): a widow's chance is the share of the consistent
    deals that leave it, so ``(widows, weight)``: the physical widows some consistent deal leaves
    and, per best meld ``v``, ``weight[v]`` (float64) the consistent deals after which hand +
    widow melds ``v`` (``weight.sum()`` is every consistent deal). An impossible combination is a
    :class:`CardError`."""
    check(rules)
    tables = compile_tables(rules)
    cons = sampler_inputs(rules, counts, knowledge)
    # the other seats as count_ways's groups: all but the last in groups 0, 1, the last in group 3
    # (the group that takes the rest), so the table has one dimension fewer
    seats = rules.players - 1
    allowed = np.zeros(4, dtype=np.int64)
    capacity = np.zeros(4, dtype=np.int64)
    for i in range(seats):
        g = 3 if i == seats - 1 else i
        allowed[g] = cons.allowed[i]
        capacity[g] = cons.capacity[i]
    ways = np.zeros((N_TYPES + 1, capacity[0] + 1, capacity[1] + 1, capacity[2] + 1))
    weight = np.zeros(tables.max_total + 1, dtype=np.float64)
    p = counts_to_planes(counts)
    widows = widow_exact_known(p0=p[0], p1=p[1], p2=p[2], p3=p[3], rest=cons.pool,
                               n_widow=rules.widow, allowed=allowed, capacity=capacity,
                               kt=tables.kt, totals=np.empty(4, dtype=np.int64), hist=weight,
                               ways=ways)
    return int(round(widows)), weight
