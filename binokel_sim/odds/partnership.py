"""Bid odds: from simulated play-outs of one hand to ``p_make`` and expected scores per bid.

The simulation (:func:`binokel_sim.engines.partnership.run_samples`) gives, for every sample
and every trump candidate, the bidding pair's meld and play (counters including the last
trick) and the opponents' meld. This module reduces those arrays to integer counts and sums
(:func:`bid_tally`, which add across the tasks of a run, :mod:`binokel_sim.backend`) and turns
them into the bid table. Scoring is the contract's (SPEC.md, four-hand-80, "Scoring a played
deal"); definitions of the recommendation are in docs/rules.md ("Bid odds").
"""

from __future__ import annotations

import numpy as np
import polars as pl

from binokel_sim.bidding import auction_bounds, ladder, minimum_bid
from binokel_sim.cards import SUITS, format_counts, planes_to_counts
from binokel_sim.engines.partnership import (
    BidSamples,
    marriage_trumps,
    partner_margin,
)
from binokel_sim.engines.partnership import (
    run_samples as run_bid_samples,
)
from binokel_sim.engines.policies import sampling_options
from binokel_sim.hands_file import HandRow
from binokel_sim.odds.summary import (
    AUCTION_COLUMNS,
    P_MAKE_FLOOR,
    at_bid,
    at_minimum_bid,
    auction_figures,
    histogram_document,
    no_turned_card,
    sample_seed,
)
from binokel_sim.simulate import Progress
from binokel_sim.stats import Hist, mean_interval, wilson_interval
from binokel_sim.variants import Rules

ROW_SCHEMA = {"trump": pl.String, "bid": pl.Int64, "p_make": pl.Float64, "ci_low": pl.Float64,
              "ci_high": pl.Float64, "expected_score": pl.Float64,
              "expected_opponent_score": pl.Float64}


def deal_scores(rules: Rules, bid: int, pair_meld, pair_play, opp_meld, opp_play, has_marriage):
    """Both pairs' scores of a deal (arrays broadcast), per the contract.

    The bidding pair loses ``bid`` at once without a marriage in trump or with pair meld under
    ``min_meld`` (the opponents then score 0). Otherwise a pair's meld counts only if its play is
    at least ``min_play`` and its meld at least ``min_meld``; the bidding pair scores its total if
    it reaches the bid, else ``-bid``; the opponents score play (+ meld) if their play reaches
    ``min_play``, else 0.
    """
    pair_meld, pair_play = np.asarray(pair_meld), np.asarray(pair_play)
    opp_meld, opp_play = np.asarray(opp_meld), np.asarray(opp_play)
    played = np.asarray(has_marriage) & (pair_meld >= rules.min_meld)
    pair_counts = (pair_play >= rules.min_play) & (pair_meld >= rules.min_meld)
    pair_total = pair_play + np.where(pair_counts, pair_meld, 0)
    made = played & (pair_play >= rules.min_play) & (pair_total >= bid)
    pair_score = np.where(made, pair_total, -bid)
    opp_counts = (opp_play >= rules.min_play) & (opp_meld >= rules.min_meld)
    opp_total = np.where(opp_play >= rules.min_play, opp_play + np.where(opp_counts, opp_meld, 0), 0)
    opp_score = np.where(played, opp_total, 0)
    return made, pair_score, opp_score


def bid_tally(rules: Rules, samples: BidSamples, marriage_trumps: list[int]) -> dict:
    """The integer statistics of bid samples that everything :func:`bid_odds` reports is computed
    from; tallies of disjoint samples add (:func:`binokel_sim.backend.add`). Per trump (lists in
    the order of ``samples.trumps``): ``made``, the histogram of the totals (play + meld) of the
    samples that make some bid (:func:`deal_scores`: played, and play at least ``min_play``);
    ``opponents``, the histogram of the opponents' scores (which do not depend on the bid); the
    sums and sums of squares of the pair's ``meld`` and ``play``; ``meld_ok``, the samples with
    pair meld at least ``min_meld``. ``samples``: how many; ``deals``: the deals dealt for them
    (more than ``samples`` when the samples are conditioned on the auction)."""
    from binokel_sim.kernels.partnership.deals import bid_tally_column

    per: dict[str, list] = {key: [] for key in ("made", "opponents", "meld", "meld_sq", "play",
                                                "play_sq", "meld_ok")}
    arrays = [np.asarray(a, dtype=np.int64) for a in (samples.pair_meld, samples.pair_play,
                                                      samples.opp_meld, samples.opp_play)]
    for j, trump in enumerate(samples.trumps):
        # deal_scores' rules, in one pass over the samples (kernels.partnership.deals.bid_tally_column)
        (made_low, made_counts, opp_low, opp_counts, meld, meld_sq, play, play_sq,
         meld_ok) = bid_tally_column(*arrays, j, trump in marriage_trumps, rules.min_meld,
                                     rules.min_play)
        per["made"].append(Hist(made_low, made_counts))
        per["opponents"].append(Hist(opp_low, opp_counts))
        per["meld"].append(int(meld))
        per["meld_sq"].append(int(meld_sq))
        per["play"].append(int(play))
        per["play_sq"].append(int(play_sq))
        per["meld_ok"].append(int(meld_ok))
    n = int(samples.pair_meld.shape[0])
    deals = n if samples.draws is None else int(samples.draws.sum())
    return {"samples": n, "deals": deals, **per}


def bid_rows(rules: Rules, samples: BidSamples, marriage_trumps: list[int]) -> pl.DataFrame:
    """One row per trump candidate and bid, from the minimum bid up to the highest bid with
    ``p_make`` above 0.1% (at least the minimum bid), with a Wilson 95% interval
    (:func:`rows_from_tally` of the samples' :func:`bid_tally`)."""
    return rows_from_tally(rules, bid_tally(rules, samples, marriage_trumps), samples.trumps)


def rows_from_tally(rules: Rules, tally: dict, trumps, through: int = 0) -> pl.DataFrame:
    """The bid rows of :func:`bid_rows` from a :func:`bid_tally` (with ``through``, at least up
    to that bid: ``--bid``).

    A bid ``b`` is made by the samples that are played (a marriage in trump, pair meld at least
    ``min_meld``) and whose total reaches ``b``: ``k`` of the ``n`` samples, a suffix of the
    totals' histogram; the expected score is (the suffix's sum of totals - ``b`` (n - k)) / n
    (the same numbers as :func:`deal_scores`).
    """
    n = tally["samples"]
    floor = minimum_bid(rules)
    rows = []
    for j, trump in enumerate(trumps):
        values, counts = tally["made"][j].seen()
        suffix_k = np.concatenate([np.cumsum(counts[::-1])[::-1], [0]])
        suffix_sum = np.concatenate([np.cumsum((values * counts)[::-1])[::-1], [0]])
        opp_mean = tally["opponents"][j].sum() / n
        top = int(values[-1]) if values.size else floor
        for bid in ladder(rules, max(top, floor, through)):
            first = int(np.searchsorted(values, bid, side="left"))
            k = int(suffix_k[first])
            if bid > max(floor, through) and k / n <= P_MAKE_FLOOR:
                break
            low, high = wilson_interval(k, n)
            rows.append({"trump": SUITS[trump], "bid": bid, "p_make": k / n,
                         "ci_low": float(low), "ci_high": float(high),
                         "expected_score": (int(suffix_sum[first]) - bid * (n - k)) / n,
                         "expected_opponent_score": opp_mean})
    return pl.DataFrame(rows, schema=ROW_SCHEMA)


def trump_summary(rules: Rules, samples: BidSamples) -> dict[str, dict]:
    """Per trump: p_meld_20 (pair meld at least min_meld), mean pair meld and play, with 95%
    intervals (:func:`summary_from_tally` of the samples' :func:`bid_tally`)."""
    return summary_from_tally(bid_tally(rules, samples, []), samples.trumps)


def summary_from_tally(tally: dict, trumps) -> dict[str, dict]:
    """:func:`trump_summary` from a :func:`bid_tally`."""
    n = tally["samples"]
    out = {}
    for j, trump in enumerate(trumps):
        k = tally["meld_ok"][j]
        low, high = wilson_interval(k, n)
        m_mean, m_low, m_high = mean_interval(float(tally["meld"][j]),
                                              float(tally["meld_sq"][j]), n)
        p_mean, p_low, p_high = mean_interval(float(tally["play"][j]),
                                              float(tally["play_sq"][j]), n)
        out[SUITS[trump]] = {"p_meld_20": k / n, "p_meld_20_ci": [float(low), float(high)],
                             "mean_pair_meld": m_mean, "mean_pair_meld_ci": [m_low, m_high],
                             "mean_pair_play": p_mean, "mean_pair_play_ci": [p_low, p_high]}
    return out


def bid_samples_tally(rules: Rules, counts: np.ndarray, samples: int, seed: int, policy: str,
                      trumps: list[int], marriage_trumps: list[int], threads: int | None = None,
                      progress: Progress | None = None, backend=None, knowledge=None,
                      auction: tuple | None = None,
                      samples_per_move: int | None = None) -> dict:
    """The :func:`bid_tally` of :func:`~binokel_sim.engines.partnership.run_samples`'s samples, computed
    in tasks of ``backend.BID_TASK_BLOCKS`` blocks (:func:`bid_odds_task`) run by ``backend``
    (default: here) and added up: the same integers however the run is split. ``knowledge``
    and ``auction``: what is known of the other hands, and the bid limits their calls showed
    (:func:`~binokel_sim.engines.partnership.run_samples`); ``samples_per_move``: the sampling
    policy's deals per decision (None: its default)."""
    from binokel_sim import game_blocks
    from binokel_sim.backend import BID_TASK_BLOCKS, LocalBackend, task_ranges, total
    from binokel_sim.engines import partnership as engine
    from binokel_sim.engines import policies as engine_policies
    from binokel_sim.simulate import check_run, set_threads

    engine.check(rules)
    check_run(samples, seed)
    engine_policies.policy_id(policy, rules)
    options = sampling_options(rules, samples_per_move)
    set_threads(threads)
    engine.sampler_inputs(rules, counts, knowledge)  # an impossible combination fails here
    backend = backend if backend is not None else LocalBackend()
    ranges = task_ranges(samples, game_blocks.GAME_BLOCK, BID_TASK_BLOCKS)
    tasks = [(rules, np.asarray(counts, dtype=np.int64), seed, policy, tuple(trumps),
              tuple(marriage_trumps), first, n, backend.threads_for(threads), knowledge, auction,
              options) for _, first, n in ranges]
    return total(backend.map(bid_odds_task, tasks, [n for *_, n in ranges], progress))


def bid_odds_task(task: tuple) -> dict:
    """One task of :func:`bid_samples_tally`: ``(rules, counts, seed, policy, trumps,
    marriage_trumps, first_sample, samples, threads, knowledge, auction, options)`` → the
    :func:`bid_tally` of those samples (``options``: the sampling policy's keywords)."""
    from binokel_sim.backend import task_context, task_progress

    (rules, counts, seed, policy, trumps, married, first, n, threads, knowledge, auction,
     options) = task
    with task_context(threads) as n_threads:
        result = run_bid_samples(rules, counts, n, seed, policy, threads=n_threads,
                                 progress=task_progress(), first_sample=first,
                                 knowledge=knowledge, trumps=list(trumps), auction=auction,
                                 **options)
    return bid_tally(rules, result, list(married))


def recommend(rows: pl.DataFrame, allowed: list[str]) -> tuple[str | None, int | None]:
    """The recommended trump: among the ``allowed`` suits (those the hand may name), the one with
    the highest expected score at the minimum bid (ties: higher p_make, then suit order S H D C).
    The highest bid with positive expected value for that trump, or None when even the minimum
    bid loses on average. ``(None, None)`` when no studied suit is allowed."""
    rows = rows.filter(pl.col("trump").is_in(allowed))
    if rows.is_empty():
        return None, None
    order = {s: i for i, s in enumerate(SUITS)}
    first = rows.group_by("trump").agg(pl.col("bid").min().alias("bid")).join(rows, on=["trump",
                                                                                       "bid"])
    first = first.with_columns(pl.col("trump").replace_strict(order).alias("_order"))
    best = first.sort(["expected_score", "p_make", "_order"], descending=[True, True, False]).row(
        0, named=True)["trump"]
    positive = rows.filter((pl.col("trump") == best) & (pl.col("expected_score") > 0))
    return best, (int(positive["bid"].max()) if not positive.is_empty() else None)


def bid_odds(rules: Rules, counts: np.ndarray, samples: int, seed: int, policy: str = "heuristic",
             trump: int | None = None, threads: int | None = None,
             progress: Progress | None = None, backend=None, knowledge=None,
             auction: tuple | None = None, samples_per_move: int | None = None,
             bid: int | None = None) -> dict:
    """Bid odds of one hand held by the bid winner (seat 0, who leads the first trick).

    ``trump=None`` ("auto") studies every suit in which the hand holds a marriage; a suit number
    studies that suit alone (a suit without a marriage: every bid is lost). The other 60 cards
    are dealt at random ``samples`` times and the same deals serve every trump. Returns
    ``{"rows": DataFrame, "by_trump": {...}, "recommended_trump", "max_bid_positive_ev",
    "has_marriage", "hand", "deals_per_sample"}`` (1 unless ``auction`` is given: then the deals
    dealt per sample kept, the inverse of the share of deals that repeat the calls). Each ``by_trump`` entry carries, besides its summary, the
    ``score_histogram`` of the deal's score at the minimum bid (:func:`score_histogram`: series
    ``pair``, the bidding pair's score, whose mean is ``expected_score_min_bid``, and
    ``opponents``, whose mean is the rows' ``expected_opponent_score``); at a higher bid ``b``
    every pair score below ``b`` becomes ``-b``. The samples are played in tasks run by
    ``backend`` (:mod:`binokel_sim.backend`; default: here); every figure comes from their
    integer :func:`bid_tally`, so every backend gives the same result. ``knowledge`` (from
    ``--known`` and ``--void``, :mod:`binokel_sim.constraints`): the other 60 cards are dealt
    consistently with it (an unbiased constrained sampler). ``auction`` (``--auction``: the
    calls so far as ``(seat, bid)``, seats counted from the hand): only deals whose other seats'
    bidding would have made them are kept (:func:`~binokel_sim.bidding.auction_bounds` under
    ``policy``'s knob ``bid_partner``). ``samples_per_move``: the
    sampling policy's deals per card decision (None: its default). ``bid`` (``--bid``, a bid of
    the ladder): each ``by_trump`` entry also gives the figures at that bid (:func:`at_bid`).
    """
    married = marriage_trumps(rules, counts)
    if trump is not None:
        trumps = [trump]
    else:
        trumps = married or [0, 1, 2, 3]  # no marriage: every suit, every bid lost
    if auction is not None:
        auction = auction_bounds(rules, 0, auction, partner_margin(rules, policy))
    tally = bid_samples_tally(rules, counts, samples, seed, policy, trumps, married, threads,
                              progress, backend, knowledge, auction, samples_per_move)
    rows = rows_from_tally(rules, tally, trumps)
    best, max_bid = recommend(rows, [SUITS[t] for t in married])
    by_trump = summary_from_tally(tally, trumps)
    floor = minimum_bid(rules)
    n = tally["samples"]
    through = None if bid is None else rows_from_tally(rules, tally, trumps, through=bid)
    for j, trump_j in enumerate(trumps):
        suit = SUITS[trump_j]
        by_trump[suit].update(at_minimum_bid(rows.filter(pl.col("trump") == suit)))
        if through is not None:
            by_trump[suit].update(at_bid(through.filter(pl.col("trump") == suit), bid))
        made = tally["made"][j].where(lambda v: v >= floor)  # made at the minimum bid
        pair = made + Hist.constant(-floor, n - made.n)  # else the bid is lost
        by_trump[suit]["score_histogram"] = histogram_document(
            {"pair": pair, "opponents": tally["opponents"][j]}, bid=floor)
    return {"hand": format_counts(counts), "has_marriage": bool(married), "rows": rows,
            "by_trump": by_trump, "recommended_trump": best, "max_bid_positive_ev": max_bid,
            "deals_per_sample": tally["deals"] / n}


# --- calibrate ----------------------------------------------------------------------------------

AUCTION_DRAWS = 20_000  # --given-auction: deals tried per sample before a deal is left out


def calibration_events(rules: Rules, deals: int, samples: int, seed: int, policy: str,
                       outcome_policy: str, threads: int | None, progress: Progress | None,
                       given_auction: bool, options: dict) -> list[dict]:
    """``calibrate``'s events (:func:`binokel_sim.calibrate.calibration_events`): per deal
    played with ``outcome_policy``, the bid winner's forecast ``p_make`` at his bid with the
    trump he named (None where ``given_auction`` found no fitting deal within
    :data:`AUCTION_DRAWS` tries) and whether the pair made it."""
    from binokel_sim.engines.partnership import (
        DEAL_FIELDS,
        AuctionTooRare,
        run_play,
    )
    from binokel_sim.engines.partnership import (
        run_samples as run_bid_samples,
    )

    played = run_play(rules, deals, seed, outcome_policy, threads, **options)
    col = {name: i for i, name in enumerate(DEAL_FIELDS)}
    margin = partner_margin(rules, outcome_policy)  # the calls are the outcome policy's
    events = []
    for d in range(deals):
        info = played.info[d]
        bidder, bid, trump = int(info[col["bidder"]]), int(info[col["bid"]]), int(info[col["trump"]])
        counts = planes_to_counts(played.hands[d, bidder])
        p_make, draws = 0.0, None
        if trump >= 0:
            auction = None
            if given_auction:
                n_calls = int(info[col["n_calls"]])
                calls = zip(played.bid_seats[d, :n_calls], played.bid_values[d, :n_calls])
                auction = auction_bounds(rules, bidder, calls, margin)
            try:
                s = run_bid_samples(rules, counts, samples, sample_seed(seed, d), policy,
                                    threads=threads, trumps=[trump], auction=auction,
                                    max_draws=AUCTION_DRAWS, **options)
            except AuctionTooRare:
                p_make = None  # no forecast: counted in no_forecast, left out of the figures
            else:
                made, _, _ = deal_scores(rules, bid, s.pair_meld[:, 0], s.pair_play[:, 0],
                                         s.opp_meld[:, 0], s.opp_play[:, 0], True)
                p_make = float(made.mean())
                draws = float(s.draws.mean())
        pair_score = info[col["score_02"] if bidder % 2 == 0 else col["score_13"]]
        events.append({"deal": d, "bidder": bidder, "hand": " ".join(format_counts(counts)),
                       "bid": bid, "trump": SUITS[trump] if trump >= 0 else None,
                       "p_make": p_make, "made": bool(pair_score > 0), "draws": draws})
        if progress is not None:
            progress(d + 1, deals)
    return events


# --- batch ----------------------------------------------------------------------------------------

BATCH_COLUMNS = AUCTION_COLUMNS  # what batch writes for a hand, after the row's own columns


def batch_figures(rules: Rules, counts: np.ndarray, row: HandRow, seat: str, deals: int,
                  seed: int, policy: str, threads: int | None) -> dict:
    """A batch row's :data:`BATCH_COLUMNS`: :func:`bid_odds` (every trump) in brief for the
    recommended trump (``seat`` is the talon games')."""
    no_turned_card(rules, row)
    result = bid_odds(rules, counts, deals, seed, policy, threads=threads)
    best = result["recommended_trump"]
    # no trump may be named: every bid is lost, the same for every studied suit
    info = result["by_trump"][best] if best is not None else next(iter(result["by_trump"].values()))
    return auction_figures({**info, "max_bid_positive_ev": result["max_bid_positive_ev"]}, best)


def batch_error_figures(row: HandRow, seat: str) -> dict:
    """What a bad row keeps of its own (nothing beyond the hand)."""
    return {}
