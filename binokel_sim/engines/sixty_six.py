"""Public drivers of sixty-six (Sechsundsechzig): simulated deals as arrays, paired duels, whole
games to 7 game points and the samples behind ``deal-odds``.

The names of :data:`binokel_sim.engines.FAMILY_API`, with the talon family's signatures. Like
every family's, these validate, allocate, cut the work into chunks of whole blocks and call
``progress(done, total)`` between chunks; block ``i`` always reads stream ``(seed, i)``, so the
results do not depend on the thread count. The rules are SPEC.md's "Variant sixty-six"; the
decisions beyond it are in docs/rules.md, "Sixty-six". The kernels are
``kernels/sixty_six/`` (:mod:`~binokel_sim.kernels.sixty_six.deals` for ``play``,
:mod:`~binokel_sim.kernels.sixty_six.games` for the rest); the twin is
:mod:`binokel_sim.reference.sixty_six`.

The policies: ``random``, ``heuristic`` and ``sampling`` (docs/rules.md, "Sixty-six",
"Policies" and "Sampling policy"; ``samples_per_move`` its deals a decision, the runs in the
small blocks of ``game_blocks.stream_blocks(..., slow=True)`` when a seat samples); the
``expert`` and ``heuristic+solver`` policies do not play sixty-six and are refused by
:func:`binokel_sim.engines.policies.policy_id`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from binokel_sim.cards import RANK_K, RANK_Q, N_TYPES
from binokel_sim.constants import SAMPLES_PER_MOVE
from binokel_sim.engines.policies import check_samples_per_move, inference_id, policy_id
from binokel_sim.game_blocks import MATCH_BLOCK, MAX_GAME_DEALS, plan_run
from binokel_sim.kernels.policies import POLICY_SAMPLING
from binokel_sim.kernels.sixty_six.deals import (
    SixtySixDeals,
    SixtySixKnobs,
    SixtySixTable,
    new_deals,
    sixty_six_blocks,
)
from binokel_sim.kernels.sixty_six.games import (
    Game,
    Sample,
    sixty_six_duel_blocks,
    sixty_six_match_blocks,
    sixty_six_sample_blocks,
)
from binokel_sim.simulate import (
    Progress,
    SimulationError,
    refuse_options,
    require_options,
    spread_blocks,
)
from binokel_sim.variants import Rules

# the specialisations beyond play's, compiled on first use (``binokel-sim warm-up``): one
# compiled driver serves the random and heuristic seats (the seats are data), a second any run
# with a sampling seat
WARM_UP = (("play", "sampling"), ("duel", "sampling"), ("match", "sampling"),
           ("odds", "sampling"))
DEAL_BYTES = 8 * (1 + 2 + 12 + 1 + 12 + 12 + 24 + 12 + 4 + 2 + 2 + 3)  # a row of SixtySixDeals


def sampling_plays(rules: Rules) -> bool:
    """The ``sampling`` policy plays sixty-six (``kernels/sixty_six/sampling.py``)."""
    return True


def exact_playouts(rules: Rules) -> bool:
    """The sampling policy's play-outs are its own (no ``duel --exact-tricks``)."""
    return False


def expert_plays(rules: Rules) -> bool:
    """The ``expert`` policy does not play sixty-six: it has no fitted knobs there."""
    return False


def check(rules: Rules) -> None:
    """The sixty-six engine plays SPEC's sixty-six: two players, a 24-card deck of single
    copies, six cards each, a stock of twelve with the turned trump, a claim, K+Q marriages in
    and outside trump, strict play once the stock is closed or gone."""
    problems = []
    if not rules.claim:
        problems.append("a claim ([game] claim)")
    if rules.players != 2 or rules.partnerships:
        problems.append("two players")
    if rules.copies != 1 or rules.deck_size != N_TYPES:
        problems.append("the 24 cards 9 J Q K T A once each")
    if rules.hand_size != 6 or rules.talon != 12 or rules.widow:
        problems.append("six cards each and a stock of twelve")
    if rules.trump_chosen_by != "turned_card":
        problems.append("trump chosen by the turned card")
    if rules.strict != "after_talon":
        problems.append("strict play once the stock is closed or gone")
    scopes = {m.scope for m in rules.melds if sorted(m.ranks) == [RANK_Q, RANK_K]}
    if not {"trump", "non_trump"} <= scopes:
        problems.append("K+Q marriages in trump and outside")
    if problems:
        raise SimulationError(f"variant {rules.name}: the sixty_six engine needs "
                              f"{'; '.join(problems)}")


@functools.lru_cache(maxsize=32)
def family_tables(rules: Rules) -> SixtySixTable:
    """The kernels' ``SixtySixTable`` of ``rules`` with the shipped policies' knobs
    (``SixtySixKnobs()``)."""
    return sixty_six_table(rules)


def sixty_six_table(rules: Rules, knobs: SixtySixKnobs = SixtySixKnobs()) -> SixtySixTable:
    """The kernels' table of ``rules`` (a sixty-six variant) with the policies' ``knobs``."""
    marriages = {m.scope: m.per_set for m in rules.melds if sorted(m.ranks) == [RANK_Q, RANK_K]}
    return SixtySixTable(
        deck=np.arange(N_TYPES, dtype=np.int64),
        card_points=np.array([rules.rank_points[t % 6] for t in range(N_TYPES)],
                             dtype=np.int64),
        marriage=marriages["non_trump"], trump_marriage=marriages["trump"],
        exchange_rank=rules.trump_exchange, claim=rules.claim, last_trick=rules.last_trick,
        knobs=knobs)


def policy_of(name: str, rules: Rules) -> int:
    """A policy's kernel id, checked (``random``, ``heuristic`` and ``sampling`` play here)."""
    return policy_id(name, rules)


def search_of(rules: Rules, samples_per_move: int, *policies: int) -> np.int64 | None:
    """The kernels' ``samples``: ``samples_per_move`` (checked) when one of ``policies`` (kernel
    ids) samples, else None (the sampling code is not compiled in); a value other than the
    default with no sampling seat is refused (never ignored)."""
    check_samples_per_move(samples_per_move)
    if POLICY_SAMPLING in policies:
        return np.int64(samples_per_move)
    if samples_per_move != SAMPLES_PER_MOVE:
        raise SimulationError(f"variant {rules.name}: --samples-per-move is the sampling "
                              f"policy's, and no seat plays it")
    return None


def blocks(n: int, block: int) -> int:
    """The blocks of ``block`` items that ``n`` items fill."""
    return -(-n // block)


@dataclass(frozen=True)
class SixtySixPlayed:
    """Simulated sixty-six deals: the rules, the kernel's table and its ``SixtySixDeals``."""

    rules: Rules
    table: SixtySixTable
    deals: SixtySixDeals


def rows(deals: SixtySixDeals, s: slice) -> SixtySixDeals:
    """Rows ``s`` of ``deals`` (views, C-contiguous: the kernel's one compiled type)."""
    return SixtySixDeals(*(a[s] for a in deals))


def run_play(rules: Rules, deals: int, seed: int, policy: str, threads: int | None = None,
             progress: Progress | None = None, first_deal: int = 0,
             samples_per_move: int = SAMPLES_PER_MOVE) -> SixtySixPlayed:
    """Simulate ``deals`` whole deals with ``policy`` on both seats; the dealer of deal ``d`` is
    ``d % 2``. ``first_deal`` (a multiple of ``GAME_BLOCK``) runs the deals ``first_deal ..`` of
    a longer run: the same deals as that run's."""
    return run_seats(rules, deals, seed, (policy, policy), threads, progress, first_deal,
                     samples_per_move)


def run_seats(rules: Rules, deals: int, seed: int, policies: tuple[str, str],
              threads: int | None = None, progress: Progress | None = None,
              first_deal: int = 0, samples_per_move: int = SAMPLES_PER_MOVE) -> SixtySixPlayed:
    """:func:`run_play` with a policy per seat (``policies[seat]``): mixed seats."""
    check(rules)
    seats = np.array([policy_of(p, rules) for p in policies], dtype=np.int64)
    samples = search_of(rules, samples_per_move, *seats)
    plan = plan_run(deals, seed, first=first_deal, slow=samples is not None, threads=threads,
                    row_bytes=DEAL_BYTES)
    table = family_tables(rules)
    out = new_deals(deals)
    for run, s in plan.steps(progress):
        spread_blocks(sixty_six_blocks, blocks(run.n_items, run.block_size), table, run, seats,
                      samples, rows(out, s))
    return SixtySixPlayed(rules, table, out)


def run_duel(rules: Rules, policy_a: str, policy_b: str, deals: int, seed: int,
             threads: int | None = None, progress: Progress | None = None,
             first_deal: int = 0, samples_per_move: int = SAMPLES_PER_MOVE,
             inference: str = "full",
             exact_tricks: tuple[int, int] | None = None) -> np.ndarray:
    """Per deal, A's game points minus B's, averaged over the two seatings of the same cards
    (float64 (deals,)). ``first_deal`` (a multiple of ``GAME_BLOCK``) gives the deals
    ``first_deal ..`` of a longer run. ``inference`` other than ``full`` is refused (the
    sampling seats' deals respect all they have seen; docs/rules.md "Sixty-six")."""
    check(rules)
    refuse_options(rules, "duel", exact_tricks=exact_tricks)  # exact_playouts: none here
    a, b = policy_of(policy_a, rules), policy_of(policy_b, rules)
    inference_id(inference, rules, a, b)
    samples = search_of(rules, samples_per_move, a, b)
    plan = plan_run(deals, seed, first=first_deal, slow=samples is not None, threads=threads,
                    row_bytes=8)
    table = family_tables(rules)
    policies = np.array([a, b], dtype=np.int64)
    diff = np.empty(deals, dtype=np.float64)
    for run, s in plan.steps(progress):
        spread_blocks(sixty_six_duel_blocks, blocks(run.n_items, run.block_size), table, run,
                      policies, samples, diff[s])
    return diff


def run_match(rules: Rules, policy_a: str, policy_b: str, games: int, seed: int,
              threads: int | None = None, progress: Progress | None = None,
              first_game: int = 0, samples_per_move: int = SAMPLES_PER_MOVE) -> np.ndarray:
    """Whole games to ``rules.game_target`` game points, the deal alternating; int64 (games, 4):
    A won (1/0, -1 unfinished), deals, A's final game points, B's. ``first_game`` (a multiple
    of ``MATCH_BLOCK``) gives the games ``first_game ..`` of a longer run."""
    check(rules)
    game = Game(policy_of(policy_a, rules), policy_of(policy_b, rules), rules.game_target,
                MAX_GAME_DEALS)
    samples = search_of(rules, samples_per_move, game.policy_a, game.policy_b)
    plan = plan_run(games, seed, first=first_game, block=MATCH_BLOCK,
                    slow=samples is not None, threads=threads, row_bytes=32, what="games",
                    option="--games")
    table = family_tables(rules)
    out = np.empty((games, 4), dtype=np.int64)
    for run, s in plan.steps(progress):
        spread_blocks(sixty_six_match_blocks, blocks(run.n_items, run.block_size), table, run,
                      game, samples, out[s])
    return out


# --- samples of one hand (deal-odds) ------------------------------------------------------------

def sampler_inputs(rules: Rules, counts: np.ndarray, knowledge, *, turned: int | None = None):
    """The sample's inputs: the hand and the ``turned`` card checked, and the unseen cards
    (int64, ascending). What is known of the other hand (``--known``, ``--void``) is refused:
    sixty-six's samples deal the other seat and the stock uniformly."""
    require_options(rules, "sampler_inputs", turned=turned)
    if knowledge is not None and not knowledge.empty:
        raise SimulationError(f"variant {rules.name}: --known and --void are not supported "
                              f"for sixty-six; leave them out")
    seen = np.asarray(counts, dtype=np.int64).copy()
    if seen.sum() != rules.hand_size:
        raise SimulationError(f"a sixty-six hand has {rules.hand_size} cards, got {seen.sum()}")
    seen[turned] += 1
    if (seen > 1).any():
        raise SimulationError("the turned card is in the hand: the deck has one copy of it")
    return np.flatnonzero(seen == 0).astype(np.int64)


def run_samples(rules: Rules, counts: np.ndarray, samples: int, seed: int, policy: str, *,
                threads: int | None = None, progress: Progress | None = None,
                first_sample: int = 0, knowledge=None,
                samples_per_move: int = SAMPLES_PER_MOVE, trumps: list[int] | None = None,
                turned: int | None = None, dealer: int | None = None,
                auction: tuple | None = None, max_draws: int | None = None) -> SixtySixPlayed:
    """Deal the other seat's hand and the stock from the cards neither in ``counts`` (seat 0's
    hand) nor the ``turned`` card, ``samples`` times, ``dealer`` dealing (both needed), and play
    each deal with ``policy`` on both seats. Returns the deals (:class:`SixtySixPlayed`, seat 0
    the hand's). ``first_sample`` (a multiple of ``GAME_BLOCK``) gives the samples
    ``first_sample ..`` of a longer run. ``trumps``, ``auction`` and ``max_draws`` are other
    families' and refused (the turned card is trump)."""
    check(rules)
    require_options(rules, "run_samples", turned=turned, dealer=dealer)
    refuse_options(rules, "run_samples", trumps=trumps, auction=auction, max_draws=max_draws)
    seats = np.full(2, policy_of(policy, rules), dtype=np.int64)
    search = search_of(rules, samples_per_move, *seats)
    if dealer not in (0, 1):
        raise SimulationError(f"the dealer is seat 0 or 1, got {dealer}")
    plan = plan_run(samples, seed, first=first_sample, slow=search is not None, threads=threads,
                    row_bytes=DEAL_BYTES, what="samples")
    unseen = sampler_inputs(rules, counts, knowledge, turned=turned)
    table = family_tables(rules)
    hand = int(sum(1 << t for t in np.flatnonzero(np.asarray(counts))))
    sample = Sample(hand, int(turned), int(dealer), unseen)
    out = new_deals(samples)
    for run, s in plan.steps(progress):
        spread_blocks(sixty_six_sample_blocks, blocks(run.n_items, run.block_size), table,
                      run._replace(first_deal=0), sample, seats, search, rows(out, s))
    return SixtySixPlayed(rules, table, out)
