"""Hand analysis and meld tables: the documented Python API behind ``analyze`` and ``meld-odds``.

Everything returns plain dicts or polars DataFrames; nothing prints. One hand is scored by the
rules read straight (:func:`binokel_sim.meld_rules.meld_table`, held to the meld kernel by the
tests): compiling or loading a kernel would cost more than the work. polars, the meld-odds driver
and the exact engine are imported by the functions that use them, so ``analyze`` starts without
numba or polars (docs/performance.md, "Start-up").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from binokel_sim.cards import SUITS, format_counts
from binokel_sim.meld_rules import count_points, may_name, meld_table

if TYPE_CHECKING:
    import polars as pl

    from binokel_sim.simulate import Progress
    from binokel_sim.variants import Rules

TOTAL_ROW = "total_meld"


def odds_schema() -> dict:
    """The columns of :func:`meld_odds` and :func:`exact_meld_odds`."""
    import polars as pl

    return {"meld": pl.String, "count": pl.Int64, "points": pl.Int64, "hands": pl.Int64,
            "probability": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64}




def analyze_hand(rules: Rules, counts: np.ndarray) -> dict:
    """Melds of one hand with each suit as trump.

    Returns ``{"variant", "hand", "by_trump": {suit letter: {"total", "allowed", "melds": [{"name",
    "count", "points"}]}}, "best_trump"}``. ``allowed`` says whether the variant lets this hand
    name the suit; ``best_trump`` is the allowed suit with the highest total (ties: the first in
    S H D C order), or None when the hand may name no suit.
    """
    hand = [int(c) for c in counts]
    by_trump = {}
    for t, suit in enumerate(SUITS):
        melds = [{"name": name, "count": int(c), "points": int(p)}
                 for name, c, p in meld_table(rules, hand, t)]
        by_trump[suit] = {"total": sum(m["points"] for m in melds),
                          "allowed": may_name(rules, hand, t), "melds": melds}
    candidates = [s for s in SUITS if by_trump[s]["allowed"]]
    best = max(candidates, key=lambda s: by_trump[s]["total"], default=None)
    return {"variant": rules.name, "hand": format_counts(counts), "by_trump": by_trump,
            "best_trump": best}


def analysis_rows(results: list[dict]) -> pl.DataFrame:
    """:func:`analyze_hand` results as one table: per hand (``hand_index`` 0-based) and trump, one
    row per meld (``count`` held, ``points``) and a ``total`` row (``count`` null), with whether
    the hand may name that trump and its best trump."""
    import polars as pl

    rows = []
    for i, result in enumerate(results):
        hand = " ".join(result["hand"])
        for suit, info in result["by_trump"].items():
            common = {"hand_index": i, "hand": hand, "trump": suit, "may_name": info["allowed"],
                      "best_trump": result["best_trump"]}
            for meld in info["melds"]:
                rows.append({**common, "meld": meld["name"], "count": meld["count"],
                             "points": meld["points"]})
            rows.append({**common, "meld": "total", "count": None, "points": info["total"]})
    return pl.DataFrame(rows, schema={"hand_index": pl.Int64, "hand": pl.String,
                                      "trump": pl.String, "may_name": pl.Boolean,
                                      "best_trump": pl.String, "meld": pl.String,
                                      "count": pl.Int64, "points": pl.Int64})


def provenance(rules: Rules, **fields) -> dict:
    """The record every result file carries: variant, version and the run's parameters."""
    from binokel_sim import __version__

    return {"variant": rules.name, "version": __version__, **fields}


def meld_odds(rules: Rules, deals: int, seed: int, trump: int = 0, threads: int | None = None,
              progress: Progress | None = None, backend=None) -> pl.DataFrame:
    """Monte Carlo meld table of a random hand of the variant.

    One row per meld and exact multiplicity (``count`` 0 up to the largest seen, ``points`` what
    ``analyze`` scores for that count: :func:`binokel_sim.meld_rules.count_points`, null where a
    house table makes it depend on the suits the sets fall in) with ``trump`` fixed, then rows ``meld == "total_meld"`` giving the
    distribution of the best total meld ``points`` (``count`` null; best over the suits the hand
    may name; a hand that may name none has no trump-dependent meld, so its total is the same for
    every suit). ``probability`` is hands / deals with a Wilson 95% interval. The hands are
    counted in tasks run by ``backend`` (:mod:`binokel_sim.backend`; default: here).
    """
    import polars as pl

    from binokel_sim.simulate import run_meld_counts
    from binokel_sim.stats import wilson_interval

    result = run_meld_counts(rules, deals, seed, trump, threads, progress, backend)
    names, counts, values, hands = [], [], [], []
    for m, meld in enumerate(rules.melds):
        seen = np.flatnonzero(result.count_hist[m])
        for c in range(int(seen.max()) + 1):
            names.append(meld.name)
            counts.append(c)
            values.append(count_points(rules, meld, c))
            hands.append(int(result.count_hist[m, c]))
    for value in np.flatnonzero(result.total_hist):
        names.append(TOTAL_ROW)
        counts.append(None)
        values.append(int(value))
        hands.append(int(result.total_hist[value]))
    hands_arr = np.array(hands, dtype=np.int64)
    low, high = wilson_interval(hands_arr, deals)
    return pl.DataFrame({"meld": names, "count": counts, "points": values, "hands": hands_arr,
                         "probability": hands_arr / deals, "ci_low": low, "ci_high": high},
                        schema=odds_schema())


def exact_meld_odds(rules: Rules, trump: int = 0) -> pl.DataFrame:
    """The meld rows of :func:`meld_odds` computed exactly (no ``total_meld`` rows; ``hands`` is
    null and the interval collapses to the probability)."""
    import polars as pl

    from binokel_sim.exact import exact_meld_distribution

    rows = []
    for meld in rules.melds:
        dist = exact_meld_distribution(rules, meld.name, trump)
        for c in range(max(dist) + 1):
            p = float(dist.get(c, 0))
            rows.append({"meld": meld.name, "count": c, "points": count_points(rules, meld, c),
                         "hands": None, "probability": p, "ci_low": p, "ci_high": p})
    return pl.DataFrame(rows, schema=odds_schema())
