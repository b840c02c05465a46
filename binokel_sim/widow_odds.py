"""Bid odds of a widow-game hand (``binokel-sim bid-odds --variant three-hand-auction-48``): what
the widow will bring, exactly, and how likely each bid is made, from simulated deals.

The samples come from :func:`binokel_sim.widow_games.run_widow_samples` (seat 0 is the soloist)
and the exact widow section from :func:`binokel_sim.widow_games.exact_widow`. Scoring is the
contract's (SPEC.md "Variant three-hand-auction-48"); definitions are in docs/rules.md
("Widow bid odds").
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import polars as pl

from binokel_sim.bid_odds import P_MAKE_FLOOR, at_minimum_bid, score_histogram
from binokel_sim.bidding import ladder, minimum_bid
from binokel_sim.cards import SUITS, counts_to_planes, format_counts
from binokel_sim.simulate import Progress
from binokel_sim.stats import mean_interval, wilson_interval
from binokel_sim.tables import compile_tables
from binokel_sim.variants import Rules
from binokel_sim.widow_games import SAMPLE_FIELDS, exact_widow, run_widow_samples

ROW_SCHEMA = {"bid": pl.Int64, "p_make": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
              "expected_score": pl.Float64}


def bid_rows(rules: Rules, totals: np.ndarray) -> pl.DataFrame:
    """One row per bid from the minimum up to the highest bid made in more than 0.1% of the
    samples (at least the minimum): ``p_make`` = share of samples whose total reaches the bid,
    with a Wilson 95% interval, and the expected score (the total when made, else minus twice
    the bid). The play does not depend on the bid, so one set of samples serves every bid."""
    n = totals.shape[0]
    ordered = np.sort(totals)
    suffix = np.concatenate([np.cumsum(ordered[::-1])[::-1], [0]])
    floor = minimum_bid(rules)
    rows = []
    for bid in ladder(rules, max(int(ordered[-1]), floor)):
        first = int(np.searchsorted(ordered, bid, side="left"))
        k = n - first
        if bid > floor and k / n <= P_MAKE_FLOOR:
            break
        low, high = wilson_interval(k, n)
        rows.append({"bid": bid, "p_make": k / n, "ci_low": float(low), "ci_high": float(high),
                     "expected_score": float((suffix[first] - 2 * bid * (n - k)) / n)})
    return pl.DataFrame(rows, schema=ROW_SCHEMA)


def widow_section(rules: Rules, counts: np.ndarray) -> dict:
    """The exact widow analysis: over every possible widow from the unseen cards (each set of
    physical cards equally likely), the best static meld of hand + widow (the highest over the
    four trumps, before any demand or burying)."""
    widows, hist = exact_widow(rules, counts)
    values = np.flatnonzero(hist)
    p = counts_to_planes(counts)
    own = compile_tables(rules)
    totals = np.empty(4, dtype=np.int64)
    from binokel_sim.kernels.melds import score_hand

    score_hand(p[0], p[1], p[2], p[3], own.kt, totals)
    own_best = int(totals.max())
    mean = Fraction(int((values * hist[values]).sum()), widows)
    improves = Fraction(int(hist[own_best + 1:].sum()), widows)
    return {
        "widows": widows,
        "own_best_meld": own_best,
        "mean_best_meld": float(mean),
        "p_improves": float(improves),
        "distribution": [{"meld": int(v), "probability": float(Fraction(int(hist[v]), widows))}
                         for v in values],
    }


def widow_bid_odds(rules: Rules, counts: np.ndarray, samples: int, seed: int,
                   policy: str = "heuristic", threads: int | None = None,
                   progress: Progress | None = None) -> dict:
    """Bid odds of one hand held by the soloist before the widow. Returns ``{"hand", "rows"
    (DataFrame), "p_make_min_bid" (and "_ci"), "expected_score_min_bid", "max_bid_positive_ev",
    "trump_chosen", "mean_meld_after_widow", "p_bonus", "widow", "score_histogram"}``.
    ``score_histogram`` (:func:`binokel_sim.bid_odds.score_histogram`) is the distribution of
    the soloist's side's score at the minimum bid (series ``soloist``: the total when made, else
    minus twice the bid; its mean is ``expected_score_min_bid``)."""
    widow = widow_section(rules, counts)
    out = run_widow_samples(rules, counts, samples, seed, policy, threads, progress)
    col = {name: i for i, name in enumerate(SAMPLE_FIELDS)}
    totals = out[:, col["total"]]
    rows = bid_rows(rules, totals)
    meld = out[:, col["meld"]].astype(np.float64)
    m_mean, m_low, m_high = mean_interval(float(meld.sum()), float((meld * meld).sum()), samples)
    bonus = int(out[:, col["bonus"]].sum())
    b_low, b_high = wilson_interval(bonus, samples)
    chosen = np.bincount(out[:, col["trump"]], minlength=4) / samples
    floor = minimum_bid(rules)
    scores = np.where(totals >= floor, totals, -2 * floor)
    return {
        "hand": format_counts(counts),
        "rows": rows,
        **at_minimum_bid(rows),
        "trump_chosen": {SUITS[s]: float(chosen[s]) for s in range(4)},
        "mean_meld_after_widow": m_mean,
        "mean_meld_after_widow_ci": [m_low, m_high],
        "p_bonus": bonus / samples,
        "p_bonus_ci": [float(b_low), float(b_high)],
        "widow": widow,
        "score_histogram": score_histogram({"soloist": scores}, bid=floor),
    }
