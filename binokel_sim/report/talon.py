"""The report of the talon games (two-hand-48, three-hand-72, four-hand-72): no auction, so no
bid curve; the deal's score, you against each opponent (and the partnerships, with
partnerships); the odds are ``deal-odds``' (:func:`binokel_sim.odds.deal_odds`), which need the
turned card and the seat. Defines every name of :data:`.registry.VIEW`."""

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
        raise ValueError("a talon game's odds need the turned card")
    return deal_odds(rules, counts, turned, seat, deals, seed, policy, threads=threads,
                     progress=progress)


def bid_curve_data(odds: dict) -> dict | None:
    """None: the talon games have no auction."""
    return None


def score_data(odds: dict) -> dict:
    """The distribution of the deal's score (``score_histogram``): you and each opponent (and
    the pairs, with partnerships, as a second panel). Each series: ``label``, ``score`` values,
    ``count`` (deals), ``mean``, ``panel``."""
    series = []
    hist = odds["score_histogram"]
    panels = ["seats"]
    for i, name in enumerate(n for n in hist["count"] if n not in ("pair", "opponent pair")):
        series.append(score_series(name, hist, name, SERIES_COLORS[i % len(SERIES_COLORS)],
                                   style="-" if name == "you" else "--"))
    if "pair" in hist["count"]:
        panels.append("partnerships")
        for name, color, style in (("pair", SERIES_COLORS[0], "-"),
                                   ("opponent pair", SERIES_COLORS[1], "--")):
            series.append(score_series(f"your {name}" if name == "pair" else "opponents' pair",
                                       hist, name, color, style=style, panel=1))
    return {"bid": None, "lost_score": None, "series": series, "panels": panels}


def describe_score(data: dict) -> str:
    """score.png's line in report.md."""
    opponents = sum(1 for x in data["series"] if x["key"].startswith("opponent "))
    return ("the distribution of the deal's score: you against "
            + ("your opponent" if opponents == 0 else "each opponent")
            + (" (and the two partnerships)" if len(data["panels"]) > 1 else ""))


def extra_figures(rules: Rules, hand: HandReport, who: str) -> list[FigureData]:
    """No figure beyond the score."""
    return []


def summary(odds: dict) -> str:
    """The hand's result in a line of report.md: the mean score, P(out-scoring every opponent)
    and the quantiles of your score."""
    q = odds["quantiles"]
    return (f"Mean score {odds['mean_score']:.1f}; P(out-scoring every opponent) "
            f"{100 * odds['p_win']:.1f}%; your score: 10% {q['10']:.0f}, median "
            f"{q['50']:.0f}, 90% {q['90']:.0f}.")


def hands_note(rules: Rules) -> str | None:
    """Why report.md shows no bid curve."""
    return (f"{rules.name} has no auction, so there is no bid curve: the figures are the score "
            f"of the deal (you against the opponents) and the variant's melds.")
