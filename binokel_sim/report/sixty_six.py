"""The report of sixty-six: no auction, so no bid curve; the deal's game points, you against your
opponent, from ``deal-odds`` (:func:`binokel_sim.odds.deal_odds`), which needs the turned card
and the seat. Defines every name of :data:`.registry.VIEW`."""

from __future__ import annotations

import numpy as np

from binokel_sim.report.data import SERIES_COLORS, score_series
from binokel_sim.report.model import FigureData, HandReport
from binokel_sim.simulate import Progress
from binokel_sim.variants import Rules

__all__ = ["BID_CURVE_TEXT", "MARKS_MELD", "TURNED_CARD", "bid_curve_data", "describe_score",
           "extra_figures", "hands_note", "odds", "score_data", "summary"]

TURNED_CARD = True  # the hand plays against a turned card, from a seat: --turned, --seat
MARKS_MELD = False  # total-meld.png marks no hand
BID_CURVE_TEXT = None  # no auction, no bid curve


def odds(rules: Rules, counts: np.ndarray, deals: int, seed: int, policy: str,
         turned: int | None = None, seat: str = "elder", threads: int | None = None,
         progress: Progress | None = None) -> dict:
    """What ``deal-odds`` reports for this hand, ``turned`` (a card type, required), ``seat``
    and seed."""
    from binokel_sim.odds import deal_odds

    if turned is None:
        raise ValueError("a sixty-six hand's odds need the turned card")
    return deal_odds(rules, counts, turned, seat, deals, seed, policy, threads=threads,
                     progress=progress)


def bid_curve_data(odds: dict) -> dict | None:
    """None: sixty-six has no auction."""
    return None


def score_data(odds: dict) -> dict:
    """The distribution of the deal's game points: you and your opponent."""
    hist = odds["score_histogram"]
    series = [score_series(name, hist, name, SERIES_COLORS[i], style="-" if i == 0 else "--")
              for i, name in enumerate(("you", "opponent"))]
    return {"bid": None, "lost_score": None, "series": series, "panels": ["seats"]}


def describe_score(data: dict) -> str:
    """score.png's line in report.md."""
    return "the distribution of the deal's game points: you against your opponent"


def extra_figures(rules: Rules, hand: HandReport, who: str) -> list[FigureData]:
    """No figure beyond the score."""
    return []


def summary(odds: dict) -> str:
    """The hand's result in a line of report.md."""
    return (f"Mean game points {odds['mean_score']:.2f} (net {odds['mean_net_game_points']:+.2f});"
            f" P(scoring the deal) {100 * odds['p_win']:.1f}%.")


def hands_note(rules: Rules) -> str | None:
    """Why report.md shows no bid curve."""
    return (f"{rules.name} has no auction, so there is no bid curve: the figures are the deal's "
            f"game points (you against your opponent) and the variant's melds.")
