"""Public drivers of whole deals (four-hand-80 style games): simulated deals as records, duels of
play policies, and the samples behind the bid odds.

Like :mod:`binokel_sim.simulate`, these validate, allocate, cut the work into chunks of whole
blocks and call ``progress(done, total)`` between chunks; block ``i`` always reads stream
``(seed, i)``, so results do not depend on the thread count.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from binokel_sim.bidding import BIG
from binokel_sim.cards import N_PLANES, SUITS, counts_to_planes
from binokel_sim.constants import MAX_SAMPLES_PER_MOVE, NO_BID, SAMPLES_PER_MOVE
from binokel_sim.families import PARTNERSHIP, TALON, WIDOW, engine_family
from binokel_sim.kernels.partnership.deals import bid_sample_blocks, duel_blocks, play_blocks
from binokel_sim.kernels.policies import (
    POLICY_HEURISTIC,
    POLICY_NAMES,
    POLICY_RANDOM,
    POLICY_SAMPLING,
    POLICY_SOLVER,
)
from binokel_sim.kernels.strict.solver import MAX_CARDS
from binokel_sim.simulate import (
    Progress,
    SimulationError,
    block_of,
    check_memory,
    check_run,
    chunks,
    set_threads,
    unseen_deck,
)
from binokel_sim.tables import allowed_trumps, compile_tables
from binokel_sim.variants import Rules

GAME_BLOCK = 1024  # deals per random stream: play-outs are slower than meld counts
DEAL_FIELDS = ("dealer", "bidder", "bid", "trump", "n_calls", "n_tricks", "play_02", "play_13",
               "score_02", "score_13")


def check_game(rules: Rules) -> None:
    """The trick engine plays four-hand-80 style games: four players in two partnerships, all
    cards dealt, an auction, trump named by the bid winner, strict play throughout."""
    problems = []
    if rules.players != 4 or sorted(map(sorted, rules.partnerships)) != [[0, 2], [1, 3]]:
        problems.append("four players in partnerships 0+2 and 1+3")
    if rules.widow or rules.talon:
        problems.append("no widow and no talon")
    if not rules.bid_ladder:
        problems.append("a bidding ladder")
    if (rules.trump_chosen_by != "bid_winner" or rules.strict != "always"
            or rules.first_leader != "bid_winner"):
        problems.append("trump named by the bid winner, who leads, and strict play on every "
                        "trick")
    if problems:
        raise SimulationError(f"variant {rules.name}: play-outs need {'; '.join(problems)} "
                              f"(as four-hand-80)")


def policy_id(name: str, rules: Rules) -> int:
    """The kernels' id of policy ``name``, checked against what ``rules`` lets it play: the
    ``heuristic+solver`` policy needs a two-player talon game whose phase-2 hands the exact
    solver takes (two-hand-48)."""
    try:
        policy = POLICY_NAMES[name]
    except KeyError:
        raise SimulationError(f"unknown policy {name!r}; known: "
                              f"{', '.join(POLICY_NAMES)}") from None
    if policy == POLICY_SAMPLING and not sampling_plays(rules):
        raise SimulationError(f"variant {rules.name}: policy {name} plays four-hand-80, the "
                              f"widow games and the talon games with free play in phase 1 "
                              f"(with two players hands of at most {MAX_CARDS} cards); use "
                              f"heuristic")
    if policy == POLICY_SOLVER and not solver_plays(rules):
        raise SimulationError(f"variant {rules.name}: policy {name} solves phase 2 of a "
                              f"two-player talon game (hands of at most {MAX_CARDS} cards, as "
                              f"two-hand-48); use heuristic")
    return policy


def solver_plays(rules: Rules) -> bool:
    """Whether the exact solver can play ``rules``' phase 2 (``solve`` and the
    ``heuristic+solver`` policy): two players, a talon, at most MAX_CARDS cards a hand."""
    from binokel_sim.families import supports

    return supports(rules, "solve") and rules.hand_size <= MAX_CARDS


def sampling_plays(rules: Rules) -> bool:
    """Whether the ``sampling`` policy plays ``rules``: the partnership game (four-hand-80,
    ``kernels/partnership/sampling.py``), the widow games (``kernels/strict/widow_knowledge.py``: every trick is
    strict and played as the 72-card games' phase 2), or a talon game with free play in phase 1
    (``kernels/talon/sampling.py``) whose phase 2 it can play: with two players the exact
    solver's (:func:`solver_plays`), with more by sampling (``kernels/strict/sampling.py``)."""
    if engine_family(rules) in (PARTNERSHIP, WIDOW):
        return True
    return (engine_family(rules) == TALON and rules.strict != "always"
            and (rules.players > 2 or solver_plays(rules)))


SAMPLED_BLOCK = 8  # items per random stream when a seat samples (a divisor of the blocks)


def stream_blocks(first: int, slow: bool, base: int, what: str = "deals") -> tuple[int, int]:
    """``(block_size, first_block)`` of a run whose first item is ``first`` (a multiple of
    ``base``, :data:`GAME_BLOCK` or :data:`MATCH_BLOCK`): blocks of ``base`` items, or, when a
    seat samples (``slow``), of ``gcd(base, SAMPLED_BLOCK)`` items, so that even a run of a few
    hundred sampled deals spreads over the threads (the threads split a run by whole blocks; a
    sampled deal costs thousands of heuristic ones). Block ``i`` reads stream ``(seed, i)``
    either way: a run gives the same bytes on any thread count, and a run from ``first`` the
    same items as the whole run's."""
    size = math.gcd(base, SAMPLED_BLOCK) if slow else base
    return size, block_of(first, base, what) * (base // size)


def _chunks(total: int, threads: int, block: int):
    """Chunks of whole blocks of ``block`` items, eight per thread (the progress bar moves a
    chunk at a time). The results do not depend on the chunks."""
    return chunks(total, threads, block, blocks_per_thread=8)


def show_rows(rules: Rules) -> np.ndarray:
    """The meld sets a player shows (``kernels.knowledge.shown_of``), from the rules' meld table:
    int64 (n, 3), per row the card types of one set (mask), when it applies (-1 always, ``s``
    only when suit ``s`` is trump, ``4 + s`` only when it is not) and the most sets the table
    counts. A fixed meld (around, cards) is one row, a suit meld one row per suit."""
    rows = []
    for meld in rules.melds:
        if meld.scope in ("around", "cards"):
            rows.append((meld.type_mask, -1, meld.counted_sets))
            continue
        for suit in range(4):
            when = {"trump": suit, "non_trump": 4 + suit}.get(meld.scope, -1)
            rows.append((meld.type_mask << (6 * suit), when, meld.counted_sets))
    return np.array(rows, dtype=np.int64).reshape(-1, 3)


def sampled(*policies: int) -> bool:
    """Whether one of ``policies`` (kernel ids) is the sampling policy."""
    return POLICY_SAMPLING in policies


def policy_kinds(*policies) -> tuple[np.int64 | None, np.int64 | None]:
    """The talon and widow drivers' ``smart`` and ``search`` for the seats' policies (kernel
    ids: arrays or single ids): ``smart`` None when every one is random (the item loop then
    runs without policy code), ``search`` None when none plays the solver or the sampling
    policy (neither is compiled in). Each pair is a specialisation of its own, compiled on its
    first use: a heuristic run does not wait for the sampling policy's compile."""
    ids = np.concatenate([np.atleast_1d(np.asarray(p, dtype=np.int64)) for p in policies])
    smart = None if bool((ids == POLICY_RANDOM).all()) else np.int64(1)
    search = np.int64(1) if bool((ids >= POLICY_SOLVER).any()) else None
    return smart, search


def shown_if_sampled(rules: Rules, *policies: int) -> np.ndarray | None:
    """The drivers' ``show_rows``: :func:`show_rows` when one of ``policies`` samples, else None,
    which leaves the sampling loop out of the compiled driver (``kernels.partnership.deals.sampler_of``)."""
    return show_rows(rules) if sampled(*policies) else None


def check_samples_per_move(samples_per_move: int) -> None:
    if not 1 <= samples_per_move <= MAX_SAMPLES_PER_MOVE:
        raise SimulationError(f"--samples-per-move must be 1 to {MAX_SAMPLES_PER_MOVE:,} "
                              f"(got {samples_per_move:,})")


def sampling_options(rules: Rules, samples_per_move: int | None) -> dict:
    """The keyword a family's driver takes for the sampling policy: ``samples_per_move``, where
    the policy plays (:func:`sampling_plays`), checked
    (:func:`check_samples_per_move`); none when it is the default."""
    if samples_per_move is None:
        return {}
    if not sampling_plays(rules):
        raise SimulationError(f"variant {rules.name}: --samples-per-move is the sampling "
                              f"policy's, which does not play this variant")
    check_samples_per_move(samples_per_move)
    return {"samples_per_move": samples_per_move}


# --- bid samples --------------------------------------------------------------------------------

@dataclass(frozen=True)
class BidSamples:
    """Simulated deals of one hand; column ``j`` belongs to trump ``trumps[j]``.

    pair_meld, pair_play, opp_meld, opp_play: int64 (samples, len(trumps))
    draws: int64 (samples,), the deals each sample took (1 unless conditioned on an auction;
    None where the samples were not made by :func:`run_bid_samples`)
    """

    trumps: tuple[int, ...]
    pair_meld: np.ndarray
    pair_play: np.ndarray
    opp_meld: np.ndarray
    opp_play: np.ndarray
    draws: np.ndarray | None = None


def marriage_trumps(rules: Rules, counts: np.ndarray) -> list[int]:
    """The suits the hand may name (a marriage in four-hand-80)."""
    return [s for s, ok in enumerate(allowed_trumps(rules, counts)) if ok]


def run_bid_samples(rules: Rules, counts: np.ndarray, samples: int, seed: int, policy: str,
                    trumps: list[int], threads: int | None = None,
                    progress: Progress | None = None, first_sample: int = 0,
                    knowledge=None, auction: tuple | None = None,
                    max_draws: int | None = None,
                    samples_per_move: int = SAMPLES_PER_MOVE) -> BidSamples:
    """Deal the other cards around ``counts`` (the bid winner's hand, seat 0) ``samples`` times and
    play each deal out once per trump in ``trumps`` with ``policy`` on every seat.
    ``first_sample`` (a multiple of :data:`GAME_BLOCK`) gives the samples ``first_sample ..`` of
    a longer run. ``knowledge`` (a :class:`~binokel_sim.constraints.Knowledge`, from ``--known``
    and ``--void``): the other seats are dealt consistently with it by the unbiased constrained
    sampler (an impossible combination is a :class:`CardError`). ``auction``: ``(lo, hi)``
    int64 (4,) by seat (0 the hand, 1 left, 2 partner, 3 right), the bid limits the auction
    showed (:func:`binokel_sim.bidding.auction_bounds`); each sample is then dealt again until
    seats 1..3's heuristic limits lie within them (a :class:`SimulationError` when one would take more than
    ``max_draws`` deals, default :data:`MAX_AUCTION_DRAWS`). ``samples_per_move``: the
    sampling policy's deals per card decision."""
    check_game(rules)
    check_run(samples, seed)
    check_samples_per_move(samples_per_move)
    n_threads = set_threads(threads)
    tables = compile_tables(rules)
    unseen = unseen_deck(rules, counts)
    seats = np.full(4, policy_id(policy, rules), dtype=np.int64)
    block, offset = stream_blocks(first_sample, sampled(seats[0]), GAME_BLOCK, "samples")
    trump_arr = np.array(trumps, dtype=np.int64)
    shape = (samples, len(trumps))
    check_memory(4 * 8 * samples * len(trumps), f"{samples:,} samples")
    pair_meld = np.empty(shape, dtype=np.int64)
    pair_play = np.empty(shape, dtype=np.int64)
    opp_meld = np.empty(shape, dtype=np.int64)
    planes = counts_to_planes(counts)
    cons = sampler_inputs(rules, counts, knowledge)
    draws = np.empty(samples, dtype=np.int64)
    lo, hi = (np.full(4, NO_BID, dtype=np.int64), np.full(4, BIG, dtype=np.int64)) \
        if auction is None else (np.asarray(auction[0], dtype=np.int64),
                                 np.asarray(auction[1], dtype=np.int64))
    max_draws = MAX_AUCTION_DRAWS if max_draws is None else max_draws
    auction_known = (auction is not None, np.int64(tables.trump_need), lo, hi,
                     np.int64(max_draws))
    shown = shown_if_sampled(rules, seats[0])
    # None: every seat plays the heuristic, the specialisation compiled with no other play-out
    general = None if shown is None and bool((seats == POLICY_HEURISTIC).all()) else np.int64(1)
    for first_block, start, n in _chunks(samples, n_threads, block):
        stop = start + n
        bid_sample_blocks(planes, unseen, tables.kt, trump_arr, seats, samples_per_move,
                          shown, tables.card_points, rules.last_trick, seed,
                          offset + first_block, block, pair_meld[start:stop],
                          pair_play[start:stop], opp_meld[start:stop], cons.groups > 0,
                          cons.pool, cons.known, cons.allowed, cons.capacity, cons.ways,
                          auction_known, draws[start:stop], general)
        if (draws[start:stop] > max_draws).any():
            raise AuctionTooRare(f"no deal of the other hands fits the auction in "
                                 f"{max_draws:,} tries: the calls are too unlikely for the "
                                 f"bidding heuristic with this hand")
        if progress is not None:
            progress(stop, samples)
    return BidSamples(tuple(trumps), pair_meld, pair_play, opp_meld,
                      rules.total_card_points - pair_play, draws)


MAX_AUCTION_DRAWS = 100_000  # deals tried for one sample that fits an auction


class AuctionTooRare(SimulationError):
    """No deal of the other hands fitted the auction within the allowed tries."""


def sampler_inputs(rules: Rules, counts: np.ndarray, knowledge):
    """The constrained sampler's inputs for ``knowledge`` over the cards the hand ``counts`` does
    not hold, the other seats' hands and a widow (checked: an impossible combination is a
    :class:`CardError`), or placeholders (``groups`` 0: shuffle as usual) when nothing is
    known."""
    from binokel_sim.constraints import inputs_for

    return inputs_for(rules, counts, knowledge, hidden=rules.widow)


# --- duels --------------------------------------------------------------------------------------

def run_duel(rules: Rules, policy_a: str, policy_b: str, deals: int, seed: int,
             threads: int | None = None, progress: Progress | None = None,
             first_deal: int = 0, samples_per_move: int = SAMPLES_PER_MOVE) -> np.ndarray:
    """Per deal, A's score minus B's score averaged over the two seatings (float64 (deals,)).
    ``first_deal`` (a multiple of :data:`GAME_BLOCK`) gives the deals ``first_deal ..`` of a
    longer run; ``samples_per_move``: the sampling policy's deals per card decision."""
    check_game(rules)
    check_run(deals, seed)
    check_samples_per_move(samples_per_move)
    n_threads = set_threads(threads)
    tables = compile_tables(rules)
    a, b = policy_id(policy_a, rules), policy_id(policy_b, rules)
    block, offset = stream_blocks(first_deal, sampled(a, b), GAME_BLOCK)
    check_memory(16 * deals, f"{deals:,} deals")
    diff = np.empty(deals, dtype=np.int64)
    for first_block, start, n in _chunks(deals, n_threads, block):
        duel_blocks(tables.deck, tables.kt, tables.trump_need, tables.ladder, tables.card_points,
                    rules.last_trick, rules.min_meld, rules.min_play, a, b, samples_per_move,
                    shown_if_sampled(rules, a, b), seed,
                    offset + first_block, block, first_deal + start, diff[start:start + n])
        if progress is not None:
            progress(start + n, deals)
    return diff / 2.0


# --- whole deals as records ---------------------------------------------------------------------

@dataclass(frozen=True)
class PlayedDeals:
    """Arrays of simulated deals (see ``kernels.partnership.deals.play_blocks`` for shapes)."""

    hands: np.ndarray
    info: np.ndarray
    melds: np.ndarray
    bid_seats: np.ndarray
    bid_values: np.ndarray
    trick_cards: np.ndarray
    trick_leaders: np.ndarray
    trick_winners: np.ndarray


def run_play(rules: Rules, deals: int, seed: int, policy: str, threads: int | None = None,
             progress: Progress | None = None, first_deal: int = 0,
             samples_per_move: int = SAMPLES_PER_MOVE) -> PlayedDeals:
    """Simulate ``deals`` whole deals: deal, auction (the bidding heuristic), trump, melds,
    play-out with ``policy`` on every seat, scores. The dealer of deal ``d`` is ``d % 4``.
    ``first_deal`` (a multiple of :data:`GAME_BLOCK`) runs the deals ``first_deal ..`` of a
    longer run: the same deals as that run's. ``samples_per_move``: the sampling policy's deals
    per card decision."""
    check_game(rules)
    check_run(deals, seed)
    check_samples_per_move(samples_per_move)
    n_threads = set_threads(threads)
    tables = compile_tables(rules)
    seats = np.full(4, policy_id(policy, rules), dtype=np.int64)
    block, offset = stream_blocks(first_deal, sampled(seats[0]), GAME_BLOCK)
    n_tricks = rules.hand_size
    max_calls = most_calls(rules, tables.max_total)
    check_memory(deals * (16 * max_calls + 8 * (5 * n_tricks + 40) + 64), f"{deals:,} deals")
    out = PlayedDeals(
        hands=np.empty((deals, 4, N_PLANES), dtype=np.uint32),
        info=np.empty((deals, len(DEAL_FIELDS)), dtype=np.int64),
        melds=np.empty((deals, 4, 4), dtype=np.int64),
        bid_seats=np.empty((deals, max_calls), dtype=np.int64),
        bid_values=np.empty((deals, max_calls), dtype=np.int64),
        trick_cards=np.zeros((deals, n_tricks, 4), dtype=np.int64),
        trick_leaders=np.zeros((deals, n_tricks), dtype=np.int64),
        trick_winners=np.zeros((deals, n_tricks), dtype=np.int64),
    )
    for first_block, start, n in _chunks(deals, n_threads, block):
        s = slice(start, start + n)
        play_blocks(tables.deck, tables.kt, tables.trump_need, tables.ladder, tables.card_points,
                    rules.last_trick, rules.min_meld, rules.min_play, seats, samples_per_move,
                    shown_if_sampled(rules, seats[0]), seed,
                    offset + first_block, block, first_deal + start, out.hands[s], out.info[s],
                    out.melds[s], out.bid_seats[s], out.bid_values[s], out.trick_cards[s],
                    out.trick_leaders[s], out.trick_winners[s])
        if progress is not None:
            progress(start + n, deals)
    return out


def most_calls(rules: Rules, max_meld: int) -> int:
    """An upper bound on the calls of one auction: every bid raises the last, so there are no
    more bids than ladder rungs up to the highest limit the bidding heuristic can reach (a meld of
    ``max_meld`` plus its estimates), plus one pass per player."""
    from binokel_sim.bidding import ladder
    from binokel_sim.constants import BASE_PLAY, PARTNER_MELD, TRUMP_LENGTH

    highest = max_meld + PARTNER_MELD + BASE_PLAY + TRUMP_LENGTH * rules.hand_size
    return len(ladder(rules, highest)) + 4


def suit_letter(trump: int) -> str | None:
    return SUITS[trump] if trump >= 0 else None


# --- whole games --------------------------------------------------------------------------------

MAX_GAME_DEALS = 1000  # a game still open after this many deals is reported unfinished
MATCH_BLOCK = 64  # games per random stream: a game is many deals


def run_match(rules: Rules, policy_a: str, policy_b: str, games: int, seed: int,
              threads: int | None = None, progress: Progress | None = None,
              first_game: int = 0, samples_per_move: int = SAMPLES_PER_MOVE) -> np.ndarray:
    """Whole games to ``rules.game_target`` (SPEC four-hand-80 "game"), A's policy on one pair
    and B's on the other, alternating by game; int64 (games, 4): A won (1/0, -1 unfinished),
    deals, A's final total, B's final total (``kernels.partnership.deals.match_blocks``). ``first_game`` (a
    multiple of :data:`MATCH_BLOCK`) gives the games ``first_game ..`` of a longer run;
    ``samples_per_move``: the sampling policy's deals per card decision."""
    from binokel_sim.kernels.partnership.deals import match_blocks

    check_game(rules)
    check_run(games, seed, "--games")
    check_samples_per_move(samples_per_move)
    n_threads = set_threads(threads)
    tables = compile_tables(rules)
    a, b = policy_id(policy_a, rules), policy_id(policy_b, rules)
    block, offset = stream_blocks(first_game, sampled(a, b), MATCH_BLOCK, "games")
    check_memory(32 * games, f"{games:,} games")
    out = np.empty((games, 4), dtype=np.int64)
    for first_block, start, n in _chunks(games, n_threads, block):
        match_blocks(tables.deck, tables.kt, tables.trump_need, tables.ladder, tables.card_points,
                     rules.last_trick, rules.min_meld, rules.min_play, a, b, samples_per_move,
                     shown_if_sampled(rules, a, b), rules.game_target,
                     MAX_GAME_DEALS, seed, offset + first_block, block, first_game + start,
                     out[start:start + n])
        if progress is not None:
            progress(start + n, games)
    return out
