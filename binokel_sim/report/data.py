"""The figure data every family shares: the suits' names and colours, a score series and a bid
curve out of a library result, and the variant's meld figures' data (``meld-odds``)."""

from __future__ import annotations

import numpy as np
import polars as pl

from binokel_sim.variants import Rules

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_COLORS = {"S": "tab:blue", "H": "tab:red", "D": "tab:orange", "C": "tab:green"}
SERIES_COLORS = ("tab:blue", "tab:red", "tab:green", "tab:purple", "tab:orange", "tab:brown")


def bid_curve(odds: dict, groups: list[tuple[str | None, pl.DataFrame]],
              marked_trump: str | None) -> dict:
    """A bid curve's data: one series per ``(trump, rows)`` group of ``odds["rows"]`` (P(bid
    made) against the bid with its 95% interval and expected score) and the bid marked: the
    highest with a positive expected score (None when even the minimum bid loses on average),
    with ``marked_trump``."""
    rows = odds["rows"]
    series = []
    for suit, part in groups:
        series.append({"trump": suit, "bid": part["bid"].to_list(),
                       "p_make": part["p_make"].to_list(), "ci_low": part["ci_low"].to_list(),
                       "ci_high": part["ci_high"].to_list(),
                       "expected_score": part["expected_score"].to_list()})
    return {"series": series, "marked_bid": odds["max_bid_positive_ev"],
            "marked_trump": marked_trump, "min_bid": int(rows["bid"].min()),
            "has_marriage": odds.get("has_marriage", True)}


def score_series(label: str, hist: dict, key: str, color: str, style: str = "-",
                 panel: int = 0) -> dict:
    """One series of a score figure: the ``key`` counts of a library ``score_histogram``
    (values never seen left out), their deals and mean, and how it is drawn."""
    score = np.asarray(hist["score"], dtype=np.int64)
    count = np.asarray(hist["count"][key], dtype=np.int64)
    deals = int(count.sum())
    keep = count > 0
    return {"label": label, "key": key, "score": score[keep].tolist(),
            "count": count[keep].tolist(), "deals": deals,
            "mean": float((score * count).sum() / deals), "color": color, "style": style,
            "panel": panel}


def meld_data(exact: pl.DataFrame) -> dict:
    """Per meld (in the rules' order), the exact chance of a random hand holding it once, twice,
    ... (the rows of :func:`binokel_sim.analysis.exact_meld_odds`, ``meld-odds --exact``) and
    what each count scores."""
    melds = []
    for name in dict.fromkeys(exact["meld"].to_list()):
        rows = exact.filter(pl.col("meld") == name).sort("count")
        melds.append({"meld": name, "count": rows["count"].to_list(),
                      "points": rows["points"].to_list(),
                      "probability": rows["probability"].to_list()})
    return {"melds": melds}


def total_meld_data(sampled: pl.DataFrame, deals: int, marks: list[tuple[str, int]]) -> dict:
    """The best total meld of a random hand (the ``total_meld`` rows of
    :func:`binokel_sim.analysis.meld_odds`, Monte Carlo) and the hands to mark on it
    (``(label, meld)``)."""
    rows = sampled.filter(pl.col("meld") == "total_meld").sort("points")
    return {"points": rows["points"].to_list(), "hands": rows["hands"].to_list(),
            "probability": rows["probability"].to_list(), "deals": deals,
            "marks": [{"label": label, "meld": int(meld)} for label, meld in marks]}


def hand_meld(rules: Rules, counts: np.ndarray) -> int:
    """The hand's best total meld as ``meld-odds``' ``total_meld`` rows count a random hand's:
    the best over the suits it may name (any suit when it may name none)."""
    from binokel_sim.analysis import analyze_hand

    analysis = analyze_hand(rules, counts)
    best = analysis["best_trump"]
    if best is not None:
        return analysis["by_trump"][best]["total"]
    return max(info["total"] for info in analysis["by_trump"].values())
