"""The report of the partnership game (four-hand-80): every trump the hand may name, each with
its bid curve and its pair's score; the odds are ``bid-odds --trump auto``'s
(:func:`binokel_sim.odds.bid_odds`). Defines every name of :data:`.registry.VIEW`."""

from __future__ import annotations

import numpy as np
import polars as pl

from binokel_sim.report.data import SUIT_COLORS, SUIT_NAMES, bid_curve, score_series
from binokel_sim.report.model import FigureData, HandReport
from binokel_sim.simulate import Progress
from binokel_sim.variants import Rules

__all__ = ["BID_CURVE_TEXT", "MARKS_MELD", "TURNED_CARD", "bid_curve_data", "describe_score",
           "extra_figures", "hands_note", "odds", "score_data", "summary"]

TURNED_CARD = False  # no turned card: --turned and --seat are refused
MARKS_MELD = True  # each hand's best meld is marked on total-meld.png
BID_CURVE_TEXT = ("P(bid made) against the bid for each trump the hand may name, with its 95% "
                  "interval; {worth}")


def odds(rules: Rules, counts: np.ndarray, deals: int, seed: int, policy: str,
         turned: int | None = None, seat: str = "elder", threads: int | None = None,
         progress: Progress | None = None) -> dict:
    """What ``bid-odds`` (every trump: ``--trump auto``) reports for this hand and seed; the
    game has no turned card (``turned`` must be None, ``seat`` is not read)."""
    from binokel_sim.odds import bid_odds

    if turned is not None:
        raise ValueError(f"{rules.name} has no turned card")
    return bid_odds(rules, counts, deals, seed, policy, threads=threads, progress=progress)


def bid_curve_data(odds: dict) -> dict:
    """The bid curve (:func:`.data.bid_curve`): one series per trump, in the order of
    ``by_trump``, the recommended trump marked."""
    rows = odds["rows"]
    groups = [(suit, rows.filter(pl.col("trump") == suit)) for suit in odds["by_trump"]]
    return bid_curve(odds, groups, odds["recommended_trump"])


def score_data(odds: dict) -> dict:
    """The distribution of the deal's score (``score_histogram``): the bidding pair's score at
    the minimum bid for each trump and the opponents' for the recommended trump (else the
    first). Each series: ``label``, ``score`` values, ``count`` (deals), ``mean``, ``panel``."""
    series = []
    trumps = list(odds["by_trump"])
    shown = odds["recommended_trump"] or trumps[0]
    bid = odds["by_trump"][trumps[0]]["score_histogram"]["bid"]
    for suit in trumps:
        hist = odds["by_trump"][suit]["score_histogram"]
        series.append(score_series(f"your pair, trump {SUIT_NAMES[suit]}", hist, "pair",
                                   SUIT_COLORS[suit]))
    hist = odds["by_trump"][shown]["score_histogram"]
    series.append(score_series(f"opponents, trump {SUIT_NAMES[shown]}", hist, "opponents",
                               "0.45", style="--"))
    return {"bid": bid, "lost_score": -bid, "series": series, "panels": ["scores"]}


def describe_score(data: dict) -> str:
    """score.png's line in report.md."""
    return (f"the distribution of the deal's score at the minimum bid {data['bid']}: your "
            f"pair for each trump, the opponents for the recommended one")


def extra_figures(rules: Rules, hand: HandReport, who: str) -> list[FigureData]:
    """No figure beyond the bid curve and the score."""
    return []


def summary(odds: dict) -> str:
    """The hand's result in a line of report.md: the recommended trump, P(make the minimum
    bid) and the highest bid worth making."""
    top = odds["max_bid_positive_ev"]
    worth = (f"highest bid with a positive expected score: {top}" if top is not None
             else "no bid has a positive expected score")
    best = odds["recommended_trump"]
    if best is None:
        return "The hand may name no trump: every bid is lost."
    info = odds["by_trump"][best]
    return (f"Recommended trump: {SUIT_NAMES[best]} ({best}); P(make the minimum bid) "
            f"{100 * info['p_make_min_bid']:.1f}%; {worth}.")


def hands_note(rules: Rules) -> str | None:
    """No note above the hands."""
    return None
