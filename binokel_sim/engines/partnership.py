"""The partnership family's drivers (four-hand-80 style games): simulated deals as arrays, duels
of play policies, whole games and the samples behind the bid odds (the names of
:data:`binokel_sim.engines.FAMILY_API`).

Like :mod:`binokel_sim.simulate`, these validate, allocate, cut the work into chunks of whole
blocks and call ``progress(done, total)`` between chunks; block ``i`` always reads stream
``(seed, i)``, so results do not depend on the thread count.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from binokel_sim import expert_play, pair_value
from binokel_sim.cards import N_PLANES, SUITS, counts_to_planes
from binokel_sim.constants import EXACT_TRICKS, MAX_AUCTION_DRAWS, SAMPLES_PER_MOVE
from binokel_sim.errors import AuctionTooRare
from binokel_sim.constraints import hand_sampler_inputs
from binokel_sim.engines.policies import (
    check_samples_per_move,
    exact_tricks_of,
    inference_id,
    policy_id,
    sampled,
    shown_if_sampled,
)
from binokel_sim.game_blocks import GAME_BLOCK, MATCH_BLOCK, MAX_GAME_DEALS, plan_run
from binokel_sim.kernels.knowledge import INFER_FULL
from binokel_sim.kernels.partnership.deals import (
    Auction,
    BidHand,
    BidOut,
    DealRecords,
    Known,
    PartnershipTable,
    Seats,
    bid_sample_blocks,
    duel_blocks,
    match_blocks,
    play_blocks,
)
from binokel_sim.kernels.policies import POLICY_EXPERT, POLICY_HEURISTIC
from binokel_sim.simulate import (
    BLOCK_SIZE,
    Progress,
    SimulationError,
    check_run,
    chunks,
    refuse_options,
    require_options,
    set_threads,
    spread_blocks,
    unseen_deck,
)
from binokel_sim.tables import allowed_trumps, compile_tables
from binokel_sim.variants import Rules

DEAL_FIELDS = ("dealer", "bidder", "bid", "trump", "n_calls", "n_tricks", "play_02", "play_13",
               "score_02", "score_13")


# the specialisations its drivers compile beyond the default's, each on first use, as
# (command, policy) for ``binokel-sim warm-up``: the bid odds compile the heuristic proper's
# pair play-out apart from the expert's (the library's default policy, the odds' is the
# expert), and every driver the sampling policy in a specialisation of its own ("odds" is the
# family's odds command)
WARM_UP = (("odds", "heuristic"), ("odds", "random"), ("odds", "sampling"), ("play", "sampling"),
           ("duel", "sampling"), ("match", "sampling"))


def sampling_plays(rules: Rules) -> bool:
    """The ``sampling`` policy plays every partnership game
    (``kernels/partnership/sampling.py``)."""
    return True


def exact_playouts(rules: Rules) -> bool:
    """The sampling policy's play-outs solve the last tricks exactly (``duel --exact-tricks``;
    ``kernels/partnership/sampling.py``)."""
    return True


def expert_plays(rules: Rules) -> bool:
    """The ``expert`` policy (the heuristic card player with fitted knobs,
    ``kernels/partnership/heuristic.py``) plays the variants whose knobs are fitted."""
    return expert_play.fitted(rules.name)


def family_tables(rules: Rules) -> PartnershipTable:
    """The kernels' :data:`~binokel_sim.kernels.partnership.deals.PartnershipTable` of ``rules``:
    the compiled tables (:func:`~binokel_sim.tables.compile_tables`), the bidding model
    (:func:`bidding_model`) and the card player's knob rows (:func:`knob_rows`). Built on each
    call (the expert's knobs may be overridden between runs: ``scripts/fit_expert.py``)."""
    return partnership_table(rules, compile_tables(rules), bidding=True)


def partnership_table(rules: Rules, tables, bidding: bool) -> PartnershipTable:
    """The kernels' table from ``tables``, with the bidding model when ``bidding``; else
    placeholder arrays of the same types (one compiled specialisation; the plain bid odds skip
    the model's table)."""
    ladder, play_w, bid_table = (bidding_model(rules, tables) if bidding else
                                 (tables.ladder, np.zeros(1, dtype=np.int64),
                                  np.zeros((1, 1), dtype=np.int64)))
    return PartnershipTable(
        deck=tables.deck, kt=tables.kt, trump_need=np.int64(tables.trump_need), ladder=ladder,
        play_w=play_w, bid_table=bid_table, card_points=tables.card_points,
        last_trick=np.int64(rules.last_trick), min_meld=np.int64(rules.min_meld),
        min_play=np.int64(rules.min_play), tune=knob_rows(rules))


def knob_rows(rules: Rules) -> np.ndarray:
    """The partnership card player's knobs as its kernels read them (int64 (2, N_PTUNE),
    ``kernels.partnership.tricks.seat_knobs``): the heuristic's row (its fixed values), then the
    expert's (:mod:`binokel_sim.expert_play`, the heuristic's values where none are fitted)."""
    from binokel_sim.kernels.partnership.heuristic import HEURISTIC_PTUNE

    heuristic = dict(zip(expert_play.PARTNERSHIP_KNOBS, HEURISTIC_PTUNE))
    expert = expert_play.knobs(rules.name, heuristic)
    return np.array([list(HEURISTIC_PTUNE), [expert[n] for n in expert_play.PARTNERSHIP_KNOBS]],
                    dtype=np.int64)


def partner_margin(rules: Rules, policy: str) -> int:
    """The knob ``bid_partner`` with which ``policy`` bids in ``rules`` (the expert's fitted
    value, every other policy's 0: the bidding heuristic's plain ladder; kernels/auction.py
    ``behind_partner``)."""
    from binokel_sim.kernels.partnership.heuristic import P_BID_PARTNER
    from binokel_sim.kernels.policies import POLICY_EXPERT

    row = 1 if policy_id(policy, rules) == POLICY_EXPERT else 0
    return int(knob_rows(rules)[row, P_BID_PARTNER])


def sampler_inputs(rules: Rules, counts: np.ndarray, knowledge, *, turned: int | None = None):
    """The constrained sampler's inputs for ``knowledge`` over the cards the hand ``counts`` does
    not hold (:func:`binokel_sim.constraints.hand_sampler_inputs`); no card is turned here."""
    refuse_options(rules, "sampler_inputs", turned=turned)
    return hand_sampler_inputs(rules, counts, knowledge)


def check(rules: Rules) -> None:
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


























# --- bid samples --------------------------------------------------------------------------------

@dataclass(frozen=True)
class BidSamples:
    """Simulated deals of one hand; column ``j`` belongs to trump ``trumps[j]``.

    pair_meld, pair_play, opp_meld, opp_play: int64 (samples, len(trumps))
    draws: int64 (samples,), the deals each sample took (1 unless conditioned on an auction;
    None where the samples were not made by :func:`run_samples`)
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


def run_samples(rules: Rules, counts: np.ndarray, samples: int, seed: int, policy: str, *,
                threads: int | None = None, progress: Progress | None = None,
                first_sample: int = 0, knowledge=None,
                samples_per_move: int = SAMPLES_PER_MOVE, trumps: list[int] | None = None,
                turned: int | None = None, dealer: int | None = None,
                auction: tuple | None = None, max_draws: int | None = None) -> BidSamples:
    """Deal the other cards around ``counts`` (the bid winner's hand, seat 0) ``samples`` times and
    play each deal out once per trump in ``trumps`` (needed) with ``policy`` on every seat.
    ``first_sample`` (a multiple of :data:`GAME_BLOCK`) gives the samples ``first_sample ..`` of
    a longer run. ``knowledge`` (a :class:`~binokel_sim.constraints.Knowledge`, from ``--known``
    and ``--void``): the other seats are dealt consistently with it by the unbiased constrained
    sampler (an impossible combination is a :class:`CardError`). ``auction``: ``(lo, hi)``
    int64 (4,) by seat (0 the hand, 1 left, 2 partner, 3 right), the bid limits the auction
    showed (:func:`binokel_sim.bidding.auction_bounds`); each sample is then dealt again until
    seats 1..3's heuristic limits lie within them (a :class:`SimulationError` when one would take more than
    ``max_draws`` deals, default :data:`MAX_AUCTION_DRAWS`). ``samples_per_move``: the
    sampling policy's deals per card decision. ``turned`` and ``dealer`` are the other
    families' and refused here (the auction's dealer is in ``auction``)."""
    check(rules)
    require_options(rules, "run_samples", trumps=trumps)
    refuse_options(rules, "run_samples", turned=turned, dealer=dealer)
    check_samples_per_move(samples_per_move)
    seats = np.full(4, policy_id(policy, rules), dtype=np.int64)
    plan = plan_run(samples, seed, first=first_sample, block=GAME_BLOCK, slow=sampled(seats[0]),
                    threads=threads, row_bytes=4 * 8 * len(trumps), what="samples",
                    option="--deals")
    tables = compile_tables(rules)
    # the bidding model only where the samples repeat an auction (the plain odds skip its table;
    # arrays of the same types keep one compiled specialisation)
    table = partnership_table(rules, tables, bidding=auction is not None)
    bid_hand = BidHand(counts_to_planes(counts), unseen_deck(rules, counts),
                       np.array(trumps, dtype=np.int64))
    shape = (samples, len(trumps))
    out = BidOut(np.empty(shape, dtype=np.int64), np.empty(shape, dtype=np.int64),
                 np.empty(shape, dtype=np.int64), np.empty(samples, dtype=np.int64))
    cons = sampler_inputs(rules, counts, knowledge)
    # both constraints None (the plain odds), or both given, each switched by its ``on``: one
    # compiled driver for every mix of --known, --void and --auction
    max_draws = MAX_AUCTION_DRAWS if max_draws is None else max_draws
    known = auction_known = None
    if cons.groups > 0 or auction is not None:
        known = Known(bool(cons.groups > 0), cons.pool, cons.known, cons.allowed, cons.capacity,
                      cons.ways)
        lo, hi = ((np.zeros(4, dtype=np.int64),) * 2 if auction is None else
                  (np.asarray(auction[0], dtype=np.int64),
                   np.asarray(auction[1], dtype=np.int64)))
        auction_known = Auction(auction is not None, lo, hi, np.int64(max_draws))
    shown = shown_if_sampled(rules, seats[0])
    policies = Seats(seats, np.int64(samples_per_move), np.int64(INFER_FULL),
                     np.full(4, EXACT_TRICKS, dtype=np.int64), shown)
    # None: every seat plays the heuristic or the expert, the specialisation compiled with the
    # paired play-outs only; rows None: the heuristic proper's pair (its knobs as constants),
    # else each seat by its knob row (the expert's pair)
    plain = (seats == POLICY_HEURISTIC) | (seats == POLICY_EXPERT)  # the heuristic's code
    general = None if shown is None and bool(plain.all()) else np.int64(1)
    rows = None if bool((seats == POLICY_HEURISTIC).all()) else np.int64(1)
    for run, s in plan.steps():
        spread_blocks(bid_sample_blocks, -(-run.n_items // run.block_size), table, policies, run,
                      bid_hand, known, auction_known, BidOut(*(a[s] for a in out)), general,
                      rows)
        if (out.draws[s] > max_draws).any():
            raise AuctionTooRare(f"no deal of the other hands fits the auction in "
                                 f"{max_draws:,} tries: the calls are too unlikely for the "
                                 f"bidding heuristic with this hand")
        if progress is not None:
            progress(s.stop, samples)
    return BidSamples(tuple(trumps), out.pair_meld, out.pair_play, out.opp_meld,
                      rules.total_card_points - out.pair_play, out.draws)






# --- duels --------------------------------------------------------------------------------------

def run_duel(rules: Rules, policy_a: str, policy_b: str, deals: int, seed: int,
             threads: int | None = None, progress: Progress | None = None,
             first_deal: int = 0, samples_per_move: int = SAMPLES_PER_MOVE,
             inference: str = "full", exact_tricks: tuple[int, int] | None = None
             ) -> np.ndarray:
    """Per deal, A's score minus B's score averaged over the two seatings (float64 (deals,)).
    ``first_deal`` (a multiple of :data:`GAME_BLOCK`) gives the deals ``first_deal ..`` of a
    longer run; ``samples_per_move``: the sampling policy's deals per card decision;
    ``inference``: what its deals respect (``engines.policies.inference_id``; the bid winner is
    the declarer); ``exact_tricks``: A's and B's tricks left solved exactly in its play-outs
    (``engines.policies.exact_tricks_of``; None: :data:`~binokel_sim.constants.EXACT_TRICKS`
    each)."""
    check(rules)
    check_samples_per_move(samples_per_move)
    a, b = policy_id(policy_a, rules), policy_id(policy_b, rules)
    infer = inference_id(inference, rules, a, b)
    plan = plan_run(deals, seed, first=first_deal, block=GAME_BLOCK, slow=sampled(a, b),
                    threads=threads, row_bytes=16)
    table = family_tables(rules)
    seats = Seats(np.array([a, b], dtype=np.int64), np.int64(samples_per_move), np.int64(infer),
                  exact_tricks_of(exact_tricks, a, b), shown_if_sampled(rules, a, b))
    diff = np.empty(deals, dtype=np.int64)
    for run, s in plan.steps(progress):
        spread_blocks(duel_blocks, -(-run.n_items // run.block_size), table, seats, run, diff[s])
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
    ``first_deal`` (a multiple of the run's block: :data:`GAME_BLOCK`, or ``SAMPLED_BLOCK`` with
    the sampling policy, :func:`~binokel_sim.game_blocks.stream_blocks`) runs the deals
    ``first_deal ..`` of a longer run: the same deals as that run's. ``samples_per_move``: the sampling policy's deals
    per card decision."""
    check(rules)
    check_samples_per_move(samples_per_move)
    seats = np.full(4, policy_id(policy, rules), dtype=np.int64)
    n_tricks = rules.hand_size
    max_calls = most_calls(rules)
    plan = plan_run(deals, seed, first=first_deal, block=GAME_BLOCK, slow=sampled(seats[0]),
                    threads=threads, row_bytes=16 * max_calls + 8 * (5 * n_tricks + 40) + 64)
    table = family_tables(rules)
    policies = Seats(seats, np.int64(samples_per_move), np.int64(INFER_FULL),
                     np.full(4, EXACT_TRICKS, dtype=np.int64), shown_if_sampled(rules, seats[0]))
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
    for run, s in plan.steps(progress):
        spread_blocks(play_blocks, -(-run.n_items // run.block_size), table, policies, run,
                      DealRecords(out.hands[s], out.info[s], out.melds[s], out.bid_seats[s],
                                  out.bid_values[s], out.trick_cards[s], out.trick_leaders[s],
                                  out.trick_winners[s]))
    return out


def most_calls(rules: Rules) -> int:
    """An upper bound on the calls of one auction: every bid raises the last, so there are no
    more bids than ladder rungs up to the highest limit of the bidding model
    (:func:`binokel_sim.pair_value.limit_table`), plus one pass per player."""
    from binokel_sim.bidding import ladder

    return len(ladder(rules, max(int(pair_value.limit_table(rules).max()), 0))) + 4


def bidding_model(rules: Rules, tables) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The drivers' ``bidding`` argument: ``(ladder, play_w, bid_table)``, the ladder of
    ``tables`` (:func:`~binokel_sim.tables.compile_tables`) and the fitted bidding model
    (:func:`binokel_sim.pair_value.weights`, :func:`binokel_sim.pair_value.limit_table`)."""
    return tables.ladder, pair_value.weights(rules), pair_value.limit_table(rules)


def suit_letter(trump: int) -> str | None:
    return SUITS[trump] if trump >= 0 else None


# --- whole games --------------------------------------------------------------------------------



def run_match(rules: Rules, policy_a: str, policy_b: str, games: int, seed: int,
              threads: int | None = None, progress: Progress | None = None,
              first_game: int = 0, samples_per_move: int = SAMPLES_PER_MOVE) -> np.ndarray:
    """Whole games to ``rules.game_target`` (SPEC four-hand-80 "game"), A's policy on one pair
    and B's on the other, alternating by game; int64 (games, 4): A won (1/0, -1 unfinished),
    deals, A's final total, B's final total (``kernels.partnership.deals.match_blocks``). ``first_game`` (a
    multiple of :data:`MATCH_BLOCK`) gives the games ``first_game ..`` of a longer run;
    ``samples_per_move``: the sampling policy's deals per card decision."""
    check(rules)
    check_samples_per_move(samples_per_move)
    a, b = policy_id(policy_a, rules), policy_id(policy_b, rules)
    plan = plan_run(games, seed, first=first_game, block=MATCH_BLOCK, slow=sampled(a, b),
                    threads=threads, row_bytes=32, what="games", option="--games")
    table = family_tables(rules)
    seats = Seats(np.array([a, b], dtype=np.int64), np.int64(samples_per_move),
                  np.int64(INFER_FULL), np.full(2, EXACT_TRICKS, dtype=np.int64),
                  shown_if_sampled(rules, a, b))
    out = np.empty((games, 4), dtype=np.int64)
    for run, s in plan.steps(progress):
        spread_blocks(match_blocks, -(-run.n_items // run.block_size), table, seats,
                      np.int64(rules.game_target), np.int64(MAX_GAME_DEALS), run, out[s])
    return out


# --- the partner's meld (published.run_partner_meld) --------------------------------------------

def partner_meld_hist(rules: Rules, deals: int, seed: int, own_edges: np.ndarray,
                      threads: int | None = None, progress: Progress | None = None
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Deal ``deals`` deals (``kernels/partnership/partner_meld.py``: seat 0 names the suit of
    its best meld among the suits it holds a marriage in, the first of S H D C on a tie; its
    partner is seat 2): ``hist[c, L, v]``, the deals where seat 0's meld is in class ``c`` of
    ``own_edges`` (int64), it holds ``L`` cards of its trump and its partner melds ``v``, and
    ``no_trump[c]``, those where seat 0 may name no suit. Block ``i`` reads stream ``(seed,
    i)``: the same numbers on any thread count and in any chunking."""
    from binokel_sim.kernels.partnership.partner_meld import partner_meld_blocks

    check(rules)
    check_run(deals, seed)
    n_threads = set_threads(threads)
    tables = compile_tables(rules)
    shape = (own_edges.shape[0], rules.hand_size + 1, tables.max_total + 1)
    hist = np.zeros(shape, dtype=np.int64)
    no_trump = np.zeros(own_edges.shape[0], dtype=np.int64)
    done = 0
    for first_block, _, n in chunks(deals, n_threads):
        n_blocks = (n + BLOCK_SIZE - 1) // BLOCK_SIZE
        h = np.zeros((n_blocks, *shape), dtype=np.int64)
        nt = np.zeros((n_blocks, own_edges.shape[0]), dtype=np.int64)
        spread_blocks(partner_meld_blocks, n_blocks, deck=tables.deck,
                      hand_size=rules.hand_size, kt=tables.kt, trump_need=tables.trump_need,
                      own_edges=own_edges, seed=seed, first_block=first_block,
                      block_size=BLOCK_SIZE, n_deals=n, hist=h, no_trump=nt)
        hist += h.sum(axis=0)  # serial reduction, in block order
        no_trump += nt.sum(axis=0)
        done += n
        if progress is not None:
            progress(done, deals)
    return hist, no_trump
