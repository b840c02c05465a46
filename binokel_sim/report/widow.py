"""The report of the widow games (three-hand-auction-48, four-hand-widow-48): the soloist's bid
curve (trump named after the widow), its side's score and the exact best meld after the widow;
the odds are ``bid-odds``' (:func:`binokel_sim.odds.bid_odds`). Defines every name of
:data:`.registry.VIEW`."""

from __future__ import annotations

import numpy as np

from binokel_sim import __version__
from binokel_sim.report.data import SERIES_COLORS, bid_curve, score_series
from binokel_sim.report.model import FigureData, HandReport
from binokel_sim.simulate import Progress
from binokel_sim.variants import Rules

__all__ = ["BID_CURVE_TEXT", "MARKS_MELD", "TURNED_CARD", "bid_curve_data", "describe_score",
           "extra_figures", "hands_note", "odds", "score_data", "summary"]

TURNED_CARD = False  # no turned card: --turned and --seat are refused
MARKS_MELD = True  # each hand's best meld is marked on total-meld.png
BID_CURVE_TEXT = ("P(bid made) against the bid after taking the widow (the soloist names "
                  "trump), with its 95% interval; {worth}")


def odds(rules: Rules, counts: np.ndarray, deals: int, seed: int, policy: str,
         turned: int | None = None, seat: str = "elder", threads: int | None = None,
         progress: Progress | None = None) -> dict:
    """What ``bid-odds`` reports for this hand and seed; the game has no turned card
    (``turned`` must be None, ``seat`` is not read)."""
    from binokel_sim.odds import bid_odds

    if turned is not None:
        raise ValueError(f"{rules.name} has no turned card")
    return bid_odds(rules, counts, deals, seed, policy, threads=threads, progress=progress)


def bid_curve_data(odds: dict) -> dict:
    """The bid curve (:func:`.data.bid_curve`): one series, the soloist naming trump after the
    widow."""
    return bid_curve(odds, [(None, odds["rows"])], None)


def score_data(odds: dict) -> dict:
    """The distribution of the soloist's side's score at the minimum bid
    (``score_histogram``). Each series: ``label``, ``score`` values, ``count`` (deals),
    ``mean``, ``panel``."""
    hist = odds["score_histogram"]
    series = [score_series("soloist's side", hist, "soloist", SERIES_COLORS[0])]
    return {"bid": hist["bid"], "lost_score": -2 * hist["bid"], "series": series,
            "panels": ["scores"]}


def describe_score(data: dict) -> str:
    """score.png's line in report.md."""
    return (f"the distribution of the soloist's side's score at the minimum bid "
            f"{data['bid']} (a lost bid scores minus twice the bid)")


def extra_figures(rules: Rules, hand: HandReport, who: str) -> list[FigureData]:
    """``widow.png``: the exact best meld after the widow (:func:`_widow_data`)."""
    data = _widow_data(hand.odds)
    return [FigureData(
        f"{hand.prefix}widow.png", "widow", data,
        f"{rules.name}: the best meld after taking the widow\n{who}",
        f"binokel-sim {__version__} · {rules.name} · exact: all {data['widows']:,} "
        f"possible widows weighed", f"the exact distribution of the best meld of hand + "
        f"widow over all {data['widows']:,} possible widows (before burying)")]


def _widow_data(odds: dict) -> dict:
    """The exact best meld after the widow (every widow weighed): the ``widow`` section of
    :func:`binokel_sim.odds.widow.bid_odds` as it stands."""
    widow = odds["widow"]
    return {"meld": [d["meld"] for d in widow["distribution"]],
            "probability": [d["probability"] for d in widow["distribution"]],
            "own_best_meld": widow["own_best_meld"], "mean_best_meld": widow["mean_best_meld"],
            "p_improves": widow["p_improves"], "widows": widow["widows"]}


def summary(odds: dict) -> str:
    """The hand's result in a line of report.md: P(make the minimum bid), the highest bid
    worth making and what the widow adds to the best meld."""
    top = odds["max_bid_positive_ev"]
    worth = (f"highest bid with a positive expected score: {top}" if top is not None
             else "no bid has a positive expected score")
    widow = odds["widow"]
    return (f"P(make the minimum bid) {100 * odds['p_make_min_bid']:.1f}%; {worth}; the widow "
            f"raises the best meld from {widow['own_best_meld']} to "
            f"{widow['mean_best_meld']:.1f} on average.")


def hands_note(rules: Rules) -> str | None:
    """No note above the hands."""
    return None
