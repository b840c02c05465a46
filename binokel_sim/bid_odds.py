"""Bid odds: from simulated play-outs of one hand to ``p_make`` and expected scores per bid.

The simulation (:func:`binokel_sim.simulate.run_bid_samples`) gives, for every sample and every
trump candidate, the bidding pair's meld and play (counters including the last trick) and the
opponents' meld. This module turns those arrays into the bid table. Scoring is the contract's
(SPEC.md, four-hand-80, "Scoring a played deal"); definitions of the recommendation are in
docs/rules.md ("Bid odds").
"""

from __future__ import annotations

import numpy as np
import polars as pl

from binokel_sim.bidding import ladder, minimum_bid
from binokel_sim.cards import SUITS, format_counts
from binokel_sim.games import BidSamples, marriage_trumps, run_bid_samples
from binokel_sim.simulate import Progress
from binokel_sim.stats import mean_interval, wilson_interval
from binokel_sim.variants import Rules

P_MAKE_FLOOR = 0.001  # the ladder is listed up to the highest bid made more often than this
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


def bid_rows(rules: Rules, samples: BidSamples, marriage_trumps: list[int]) -> pl.DataFrame:
    """One row per trump candidate and bid, from the minimum bid up to the highest bid with
    ``p_make`` above 0.1% (at least the minimum bid), with a Wilson 95% interval.

    A bid ``b`` is made by the samples that are played (a marriage in trump, pair meld at least
    ``min_meld``) and whose total reaches ``b``; with the totals of played samples sorted once,
    every bid is a binary search and a suffix sum (the same numbers as :func:`deal_scores`).
    """
    n = samples.pair_meld.shape[0]
    floor = minimum_bid(rules)
    rows = []
    for j, trump in enumerate(samples.trumps):
        # bid 0: the samples that make some bid (their totals, play + meld, decide which) and
        # the opponents' scores, which do not depend on the bid
        made_at_any, _, opp = deal_scores(rules, 0, samples.pair_meld[:, j],
                                          samples.pair_play[:, j], samples.opp_meld[:, j],
                                          samples.opp_play[:, j], trump in marriage_trumps)
        totals = np.sort((samples.pair_play[:, j] + samples.pair_meld[:, j])[made_at_any])
        suffix = np.concatenate([np.cumsum(totals[::-1])[::-1], [0]])
        opp_mean = float(opp.mean())
        top = int(totals[-1]) if totals.size else floor
        for bid in ladder(rules, max(top, floor)):
            first = int(np.searchsorted(totals, bid, side="left"))
            k = totals.size - first
            if bid > floor and k / n <= P_MAKE_FLOOR:
                break
            low, high = wilson_interval(k, n)
            rows.append({"trump": SUITS[trump], "bid": bid, "p_make": k / n,
                         "ci_low": float(low), "ci_high": float(high),
                         "expected_score": float((suffix[first] - bid * (n - k)) / n),
                         "expected_opponent_score": opp_mean})
    return pl.DataFrame(rows, schema=ROW_SCHEMA)


def trump_summary(rules: Rules, samples: BidSamples) -> dict[str, dict]:
    """Per trump: p_meld_20 (pair meld at least min_meld), mean pair meld and play, with 95%
    intervals."""
    n = samples.pair_meld.shape[0]
    out = {}
    for j, trump in enumerate(samples.trumps):
        meld = samples.pair_meld[:, j].astype(np.float64)
        play = samples.pair_play[:, j].astype(np.float64)
        k = int((samples.pair_meld[:, j] >= rules.min_meld).sum())
        low, high = wilson_interval(k, n)
        m_mean, m_low, m_high = mean_interval(meld.sum(), (meld * meld).sum(), n)
        p_mean, p_low, p_high = mean_interval(play.sum(), (play * play).sum(), n)
        out[SUITS[trump]] = {"p_meld_20": k / n, "p_meld_20_ci": [float(low), float(high)],
                             "mean_pair_meld": m_mean, "mean_pair_meld_ci": [m_low, m_high],
                             "mean_pair_play": p_mean, "mean_pair_play_ci": [p_low, p_high]}
    return out


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
             progress: Progress | None = None) -> dict:
    """Bid odds of one hand held by the bid winner (seat 0, who leads the first trick).

    ``trump=None`` ("auto") studies every suit in which the hand holds a marriage; a suit number
    studies that suit alone (a suit without a marriage: every bid is lost). The other 60 cards
    are dealt at random ``samples`` times and the same deals serve every trump. Returns
    ``{"rows": DataFrame, "by_trump": {...}, "recommended_trump", "max_bid_positive_ev",
    "has_marriage", "hand"}``. Each ``by_trump`` entry carries, besides its summary, the
    ``score_histogram`` of the deal's score at the minimum bid (:func:`score_histogram`: series
    ``pair``, the bidding pair's score, whose mean is ``expected_score_min_bid``, and
    ``opponents``, whose mean is the rows' ``expected_opponent_score``); at a higher bid ``b``
    every pair score below ``b`` becomes ``-b``.
    """
    married = marriage_trumps(rules, counts)
    if trump is not None:
        trumps = [trump]
    else:
        trumps = married or [0, 1, 2, 3]  # no marriage: every suit, every bid lost
    result = run_bid_samples(rules, counts, samples, seed, policy, trumps, threads, progress)
    rows = bid_rows(rules, result, married)
    best, max_bid = recommend(rows, [SUITS[t] for t in married])
    by_trump = trump_summary(rules, result)
    floor = minimum_bid(rules)
    for j, trump_j in enumerate(result.trumps):
        suit = SUITS[trump_j]
        by_trump[suit].update(at_minimum_bid(rows.filter(pl.col("trump") == suit)))
        _, pair_score, opp_score = deal_scores(
            rules, floor, result.pair_meld[:, j], result.pair_play[:, j], result.opp_meld[:, j],
            result.opp_play[:, j], trump_j in married)
        by_trump[suit]["score_histogram"] = score_histogram(
            {"pair": pair_score, "opponents": opp_score}, bid=floor)
    return {"hand": format_counts(counts), "has_marriage": bool(married), "rows": rows,
            "by_trump": by_trump, "recommended_trump": best, "max_bid_positive_ev": max_bid}


def score_histogram(series: dict[str, np.ndarray], **fields) -> dict:
    """The distribution of a deal's score: how many samples scored each value, for every named
    series of per-sample scores on one shared score axis. Returns ``{**fields, "score": [every
    value any series took, ascending], "count": {name: [samples with that score]}}`` in plain
    Python ints (JSON-ready); each count list sums to the samples."""
    arrays = {name: np.asarray(values, dtype=np.int64) for name, values in series.items()}
    values = np.unique(np.concatenate(list(arrays.values())))
    count = {name: np.bincount(np.searchsorted(values, a), minlength=values.size).tolist()
             for name, a in arrays.items()}
    return {**fields, "score": values.tolist(), "count": count}


def at_minimum_bid(rows: pl.DataFrame) -> dict:
    """One trump's bid rows in brief: ``p_make_min_bid`` with its interval
    (``p_make_min_bid_ci``), ``expected_score_min_bid`` and ``max_bid_positive_ev`` (None when
    even the minimum bid loses on average)."""
    first = rows.row(0, named=True)
    positive = rows.filter(pl.col("expected_score") > 0)
    return {"p_make_min_bid": first["p_make"],
            "p_make_min_bid_ci": [first["ci_low"], first["ci_high"]],
            "expected_score_min_bid": first["expected_score"],
            "max_bid_positive_ev": int(positive["bid"].max()) if not positive.is_empty() else None}
