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
from binokel_sim.constants import MAX_AUCTION_DRAWS, SAMPLES_PER_MOVE
from binokel_sim.errors import AuctionTooRare
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
from binokel_sim.kernels.widow.deals import (
    GivenAuction,
    N_INFO,
    WidowGame,
    WidowOuts,
    WidowTable,
    widow_blocks,
    widow_exact,
    widow_exact_known,
)
from binokel_sim.simulate import (
    Progress,
    SimulationError,
    refuse_options,
    spread_blocks,
    unseen_deck,
)
from binokel_sim.tables import compile_tables, tune_rows
from binokel_sim.variants import Rules

SAMPLE_FIELDS = ("total", "trump", "meld", "bonus", "card_points", "concede_from",
                 "opponent_score", "durch", "bettel", "draws")


# the specialisations its drivers compile beyond the heuristic's, each on first use, as
# (command, policy) for ``binokel-sim warm-up``: one item loop serves every command
# (:func:`binokel_sim.engines.policies.policy_kinds`)
WARM_UP = (("play", "random"), ("duel", "sampling"))


def sampling_plays(rules: Rules) -> bool:
    """The ``sampling`` policy plays every widow game (``kernels/widow/knowledge.py``:
    every trick is strict and played as the 72-card games' phase 2)."""
    return True


def exact_playouts(rules: Rules) -> bool:
    """The sampling policy's play-outs are the heuristic's to the end (no ``duel
    --exact-tricks`` yet)."""
    return False


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
def family_tables(rules: Rules) -> WidowTable:
    """The :class:`~binokel_sim.kernels.widow.deals.WidowTable` the widow kernels take: ``cfg``,
    the ladder int64 (rungs, 2), card points int64 (24,), completions
    int64 (24, k) (:func:`completions`), preferences int64 (3, 4, 24) (:func:`preferences`), the
    meld sets a player shows (:func:`~binokel_sim.engines.policies.show_rows`: the sampling policy's
    knowledge), the soloist's estimate after the Dabb (:func:`binokel_sim.widow_value.weights`,
    Abgehen), a bidding seat's estimate before it and its bid limits
    (:func:`~binokel_sim.widow_value.bid_weights`, :func:`~binokel_sim.widow_value.bid_table`),
    the soloist's concede thresholds (:func:`~binokel_sim.widow_value.concede_table`) and the
    meld kernels' ``kt``."""
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
    cfg[k.CFG_HALF_BID] = int(rules.concede_payout == "half_bid")
    cfg[k.CFG_ROUND_TO] = rules.round_to
    cfg[k.CFG_VORHAND_OPENS] = int(rules.all_pass == "vorhand_opens")
    cfg[k.CFG_DURCH_SCORE] = rules.durch_score
    cfg[k.CFG_REDEAL] = int(rules.all_pass == "redeal")
    cfg[k.CFG_SKAT] = int(rules.bid_order == "skat")
    cfg[k.CFG_TUNE:k.CFG_TUNE + 2 * N_TUNE] = tune_rows(rules)
    low, limits = widow_value.bid_table(rules)
    concede_low, thresholds = widow_value.concede_table(rules)
    assert low == concede_low  # both tables cover widow_value.estimate_range
    cfg[k.CFG_TABLE_LOW] = low
    return WidowTable(cfg, tables.ladder, tables.card_points, completions(rules),
                      preferences(rules), show_rows(rules),
                      np.array(widow_value.weights(rules), dtype=np.int64),
                      np.array(widow_value.bid_weights(rules), dtype=np.int64), limits,
                      thresholds, tables.kt)


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
    under ``order = "skat"`` each bid said may also be held. The drivers check the bound
    anyway."""
    highest = int(widow_value.bid_table(rules)[1].max())
    rungs = max(len(ladder(rules, highest)), 200)
    # Skat-style, a bid said may be held at its value: two calls a rung
    return (2 if rules.bid_order == "skat" else 1) * rungs + rules.players + 1


# --- whole deals as arrays ----------------------------------------------------------------------

@dataclass(frozen=True)
class WidowDeals:
    """Arrays of simulated widow deals (:func:`run_play`; the fields of
    :class:`~binokel_sim.kernels.widow.deals.WidowOuts` that a recorded deal writes)."""

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


# --- the runs: one output helper, one block driver (kernels.widow.deals.widow_blocks) -------------

DEAL_FIELDS = ("hands", "widow", "info", "bid_seats", "bid_values", "buried", "melds",
               "card_points", "scores", "trick_cards", "trick_leaders", "trick_winners")


def outputs(**arrays) -> WidowOuts:
    """The :class:`~binokel_sim.kernels.widow.deals.WidowOuts` of a run: ``arrays`` by field
    name, every other field a placeholder of the one type the kernel is compiled for, so every
    run shares one compiled driver."""
    return run_outputs(WidowOuts, "widow", {"hands": "hands", "trick_cards": "tricks",
                                            "diff": "diff"}, arrays)


def game_bundle(samples_per_move: int, *, max_calls: int = 1, infer: int = INFER_FULL,
                n_sides: int = 0, policy_a: int = 0, policy_b: int = 0, target: int = 0,
                max_deals: int = 0) -> WidowGame:
    """The run's :class:`~binokel_sim.kernels.widow.deals.WidowGame` (ints; 0 where the run has
    no contest)."""
    return WidowGame(int(n_sides), int(policy_a), int(policy_b), int(target), int(max_deals),
                     int(infer), int(samples_per_move), int(max_calls))


def given_auction(calls: list[tuple[int, int]] | None = None,
                  max_draws: int = MAX_AUCTION_DRAWS) -> GivenAuction:
    """The :class:`~binokel_sim.kernels.widow.deals.GivenAuction` of ``calls`` (``(seat, bid)``
    counted from the hand's seat 0, a pass ``NO_BID``; None: no auction)."""
    seats = np.array([s for s, _ in calls or ()], dtype=np.int64)
    values = np.array([b for _, b in calls or ()], dtype=np.int64)
    return GivenAuction(np.int64(calls is not None), seats, values, np.int64(max_draws))


def run_blocks(mode: int, deck: np.ndarray, table: WidowTable, seats: np.ndarray, run: Run,
               game: WidowGame, outs: WidowOuts, known=None,
               given: GivenAuction | None = None) -> None:
    """Run ``run``'s items of ``mode`` on the block driver over the threads: ``seats`` the seats'
    policy ids (in duels and games A's and B's, ``game.policy_a`` / ``policy_b``, decide), a
    sample's ``known`` (:func:`binokel_sim.kernels.sampler.unconstrained` when None) and the
    auction it repeats (:func:`given_auction`; none when None)."""
    if mode in (MODE_DUEL, MODE_MATCH):
        kinds = policy_kinds(game.policy_a, game.policy_b)
    else:
        kinds = policy_kinds(seats)
    spread_blocks(widow_blocks, -(-run.n_items // run.block_size), *kinds, mode, deck, table,
                  seats, run, placeholders()[0] if known is None else known,
                  given_auction() if given is None else given, game, outs)


def run_play(rules: Rules, deals: int, seed: int, policy: str, threads: int | None = None,
             progress: Progress | None = None, first_deal: int = 0,
             samples_per_move: int = SAMPLES_PER_MOVE) -> WidowDeals:
    """Simulate ``deals`` whole deals with ``policy`` on every seat; the dealer of deal ``d`` is
    ``d % players``. ``first_deal`` (a multiple of the run's block: ``GAME_BLOCK``, or
    ``SAMPLED_BLOCK`` with the sampling policy, :func:`~binokel_sim.game_blocks.stream_blocks`)
    runs the deals ``first_deal ..`` of a longer run: the same deals as that run's.
    ``samples_per_move``: the sampling policy's deals per card decision. Writes per deal the
    fields of :class:`WidowDeals` (-1 throughout the tricks of a deal the soloist gave up)."""
    check(rules)
    seats = np.full(rules.players, policy_id(policy, rules), dtype=np.int64)
    p, h, w, calls = rules.players, rules.hand_size, rules.widow, most_calls(rules)
    plan = plan_run(deals, seed, first=first_deal, block=GAME_BLOCK, slow=sampled(seats[0]),
                    threads=threads, row_bytes=16 * p + 16 * w + 8 * N_INFO + 16 * calls + 24 * p
                    + 8 * h * (p + 2))
    check_samples_per_move(samples_per_move)
    table = family_tables(rules)
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
    game = game_bundle(samples_per_move)
    for run, s in plan.steps(progress):
        run_blocks(MODE_PLAY, compile_tables(rules).deck, table, seats, run, game,
                   outputs(**{f: getattr(out, f)[s] for f in DEAL_FIELDS}))
    return out


# --- duels and matches --------------------------------------------------------------------------

def run_duel(rules: Rules, policy_a: str, policy_b: str, deals: int, seed: int,
             threads: int | None = None, progress: Progress | None = None,
             first_deal: int = 0, samples_per_move: int = SAMPLES_PER_MOVE,
             inference: str = "full",
             exact_tricks: tuple[int, int] | None = None) -> np.ndarray:
    """Per deal, A's side score minus the B sides' mean, averaged over the seatings (A on each
    side in turn, auction included: every deal played ``n_sides`` times from the same cards),
    float64 (deals,). ``first_deal`` (a multiple of ``GAME_BLOCK``) gives the
    deals ``first_deal ..`` of a longer run; ``samples_per_move``: the sampling policy's deals
    per card decision; ``inference``: what its deals respect (``engines.policies.inference_id``;
    the soloist is the declarer)."""
    check(rules)
    refuse_options(rules, "duel", exact_tricks=exact_tricks)  # exact_playouts: none here
    a, b = policy_id(policy_a, rules), policy_id(policy_b, rules)
    plan = plan_run(deals, seed, first=first_deal, block=GAME_BLOCK, slow=sampled(a, b),
                    threads=threads, row_bytes=8)
    check_samples_per_move(samples_per_move)
    infer = inference_id(inference, rules, a, b)
    table = family_tables(rules)
    game = game_bundle(samples_per_move, max_calls=most_calls(rules), infer=infer,
                       n_sides=n_sides(rules), policy_a=a, policy_b=b)
    seats = np.zeros(rules.players, dtype=np.int64)
    diff = np.empty(deals, dtype=np.float64)
    for run, s in plan.steps(progress):
        run_blocks(MODE_DUEL, compile_tables(rules).deck, table, seats, run, game,
                   outputs(diff=diff[s]))
    return diff


def run_match(rules: Rules, policy_a: str, policy_b: str, games: int, seed: int,
              threads: int | None = None, progress: Progress | None = None,
              first_game: int = 0, samples_per_move: int = SAMPLES_PER_MOVE) -> np.ndarray:
    """Whole games to ``rules.game_target``; int64 (games, 4): A won (1/0, -1 unfinished), deals,
    A's final total, the B sides' summed final totals (A on side ``(number // P) % n_sides``,
    first dealer ``number % P``). ``first_game`` (a multiple of
    ``MATCH_BLOCK``) gives the games ``first_game ..`` of a longer run; ``samples_per_move``:
    the sampling policy's deals per card decision."""
    check(rules)
    a, b = policy_id(policy_a, rules), policy_id(policy_b, rules)
    plan = plan_run(games, seed, first=first_game, block=MATCH_BLOCK, slow=sampled(a, b),
                    threads=threads, row_bytes=32, what="games", option="--games")
    check_samples_per_move(samples_per_move)
    table = family_tables(rules)
    game = game_bundle(samples_per_move, max_calls=most_calls(rules), n_sides=n_sides(rules),
                       policy_a=a, policy_b=b, target=rules.game_target,
                       max_deals=MAX_GAME_DEALS)
    seats = np.zeros(rules.players, dtype=np.int64)
    out = np.empty((games, 4), dtype=np.int64)
    for run, s in plan.steps(progress):
        run_blocks(MODE_MATCH, compile_tables(rules).deck, table, seats, run, game,
                   outputs(games=out[s]))
    return out


# --- one hand: samples and the exact widow ------------------------------------------------------

def run_samples(rules: Rules, counts: np.ndarray, samples: int, seed: int, policy: str, *,
                threads: int | None = None, progress: Progress | None = None,
                first_sample: int = 0, knowledge=None,
                samples_per_move: int = SAMPLES_PER_MOVE, trumps: list[int] | None = None,
                turned: int | None = None, dealer: int | None = None,
                auction: tuple | None = None, max_draws: int | None = None) -> np.ndarray:
    """Seat 0 holds ``counts`` and is the soloist: the unseen cards are dealt to the other seats
    (consecutive hands of the shuffled unseen cards) and the widow (the rest) ``samples`` times,
    and each deal is played with ``policy`` on every seat: seat 0 takes the widow, demands (where
    the rules have the demand), buries and names trump; the soloist leads, or the player left of
    the dealer where the rules say so. ``dealer``: the dealer's seat, by default the last (seat 0
    sits left of the dealer). Sample ``d`` reads the stream of its block: the deal, the widow
    decisions, the play.
    Returns int64 (samples, 10), columns ``SAMPLE_FIELDS``: the soloist side's total (meld if it
    took a trick + card points + bonus; a Durch's +-1000), the trump (-1 in a Durch), the
    soloist's meld after the widow (0 in a Durch), the bonus (1 if the soloist's side took every
    trick), the side's card points, ``concede_from`` (the smallest bid at which the soloist
    would give up, :data:`binokel_sim.widow_value.NEVER` for one who never does, the sample
    being played out whatever the bid), ``opponent_score`` (seat 1's score, a defender's), 1
    where he declared Durch, 1 where he holds a sure Bettel (he could declare it at a bid up to
    300; the sample is counted), the deals dealt for the sample (1 without ``auction``).
    ``first_sample`` (a multiple of
    ``GAME_BLOCK``) gives the samples ``first_sample ..`` of a longer run. ``knowledge``
    (:class:`~binokel_sim.constraints.Knowledge`, from ``--known`` and ``--void``): the other
    seats and the widow are dealt consistently with it by the unbiased constrained sampler
    (``kernels.sampler.constrained_deal``; an impossible combination is a :class:`CardError`).
    ``samples_per_move``: the sampling policy's
    deals per card decision. ``auction`` (``bid-odds --auction``): the calls so far as ``(seat,
    bid)`` counted from seat 0 (a pass ``NO_BID``, :func:`binokel_sim.bidding.parse_auction`);
    each sample is dealt again until the other seats' policy would have made their calls
    (``kernels.widow.deals.fits_auction``), at most ``max_draws`` times (default
    :data:`~binokel_sim.constants.MAX_AUCTION_DRAWS`; more is an :class:`AuctionTooRare`), and
    the ``draws`` column counts the deals dealt. ``trumps`` and ``turned`` are the other
    families' and refused here (the soloist names trump after the widow)."""
    check(rules)
    refuse_options(rules, "run_samples", trumps=trumps, turned=turned)
    max_draws = MAX_AUCTION_DRAWS if max_draws is None else max_draws
    seats = np.full(rules.players, policy_id(policy, rules), dtype=np.int64)
    plan = plan_run(samples, seed, first=first_sample, block=GAME_BLOCK, slow=sampled(seats[0]),
                    threads=threads, row_bytes=8 * len(SAMPLE_FIELDS), what="samples")
    check_samples_per_move(samples_per_move)
    table = family_tables(rules)
    unseen = unseen_deck(rules, counts)
    out = np.empty((samples, len(SAMPLE_FIELDS)), dtype=np.int64)
    cons = sampler_inputs(rules, counts, knowledge)
    known = (counts_to_planes(counts), int(cons.groups > 0), cons.pool, cons.known, cons.allowed,
             cons.capacity, cons.ways)
    game = game_bundle(samples_per_move)
    for run, s in plan.steps(progress):
        # a sample's first_deal is its dealer (seat 0 the soloist)
        run_blocks(MODE_SAMPLE, unseen, table, seats,
                   run._replace(first_deal=rules.players - 1 if dealer is None else dealer),
                   game, outputs(samples=out[s]), known, given_auction(auction, max_draws))
        if auction is not None and (out[s, -1] > max_draws).any():
            raise AuctionTooRare(f"no deal of the other hands fits the auction in "
                                 f"{max_draws:,} tries: the calls are too unlikely for the "
                                 f"{policy} policy's bidding with this hand")
    return out


def run_playouts(rules: Rules, policy: str, deals: int, seed: int = 1, first_block: int = 0,
                 samples_per_move: int = SAMPLES_PER_MOVE) -> np.ndarray:
    """Deal and play ``deals`` deals without recording them (the benchmark of whole deals): the
    same streams and deals as :func:`run_play`'s (blocks of ``GAME_BLOCK`` from stream
    ``first_block``, on the threads in use); returns only the scores, int64 (deals, P)."""
    seats = np.full(rules.players, policy_id(policy, rules), dtype=np.int64)
    scores = np.empty((deals, rules.players), dtype=np.int64)
    run_blocks(MODE_PLAYOUT, compile_tables(rules).deck, family_tables(rules), seats,
               Run(seed, first_block, GAME_BLOCK, 0, deals),
               game_bundle(samples_per_move, max_calls=most_calls(rules)),
               outputs(scores=scores))
    return scores


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
