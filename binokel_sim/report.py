"""``binokel-sim report``: a hand's odds as PNG figures and a ``report.md`` that lists them.

Every figure is drawn from data built by one small function (``*_data``) out of the result of
the library function the matching command reports, so a figure shows exactly what
``bid-odds``, ``deal-odds`` or ``meld-odds --exact`` print for the same seed:

======================  ========================================  ===========================
figure                  data                                      from
======================  ========================================  ===========================
``bid-curve.png``       :func:`bid_curve_data`                    ``odds.bid_odds``
``score.png``           :func:`score_data`                        their ``score_histogram``,
                                                                  ``odds.deal_odds``'s     
``widow.png``           :func:`widow_data`                        the exact ``widow`` section
``melds.png``           :func:`meld_data`                         ``analysis.exact_meld_odds``
``total-meld.png``      :func:`total_meld_data`                   ``analysis.meld_odds``
======================  ========================================  ===========================

Which figures a variant gets depends on its engine family (``families.engine_family``): the
partnership game (four-hand-80) and the widow games have an auction, hence a bid curve; the
widow games also the exact meld after the widow; the talon games have no auction, so no bid
curve. ``melds.png`` and ``total-meld.png`` describe the variant (a random hand), once per report.

matplotlib (the optional extra ``[plot]``) is imported only here, lazily, and drawn without
pyplot: each figure is its own :class:`matplotlib.figure.Figure` on an Agg canvas, so no state
passes from one figure to the next. Nothing is written until every figure is drawn (in memory);
:func:`publish` then writes the files into a temporary folder beside the output folder (inside
it when it exists) and moves them into place.
"""

from __future__ import annotations

import io
import math
import os
import shutil
import tempfile
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from binokel_sim import __version__
from binokel_sim.families import PARTNERSHIP, TALON, WIDOW, engine_family
from binokel_sim.io import OutputError
from binokel_sim.simulate import Progress
from binokel_sim.variants import Rules

INSTALL = 'pip install "binokel-sim[plot]"'
REPORT_MD = "report.md"
FIGSIZE = (8.0, 5.0)  # inches; at DPI a figure is 800 x 500 pixels
DPI = 100
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_COLORS = {"S": "tab:blue", "H": "tab:red", "D": "tab:orange", "C": "tab:green"}
SERIES_COLORS = ("tab:blue", "tab:red", "tab:green", "tab:purple", "tab:orange", "tab:brown")
MASS_SHOWN = 0.999  # distributions with a long tail: the x axis ends where this much is covered
MAX_BINS = 60  # a histogram drawn with more distinct values is binned to at most this many
MAX_MARKS = 8  # hands marked in the total-meld figure (more would hide the bars)


# --- what a report holds -------------------------------------------------------------------------

@dataclass(frozen=True)
class FigureData:
    """One figure: its file ``name`` (``bid-curve.png``), ``kind`` (which drawing), the data it
    shows, a title, the caption line under it (where the numbers come from) and the one-line
    ``description`` report.md gives it."""

    name: str
    kind: str
    data: dict
    title: str
    caption: str
    description: str


@dataclass
class HandReport:
    """One hand of a report: its place in a hands file (``index`` 0-based, None for a single
    hand), its seed, the library result the figures come from and its figures."""

    hand: list[str]
    seed: int
    odds: dict
    index: int | None = None
    where: str | None = None
    turned: str | None = None
    seat: str | None = None
    figures: list[FigureData] = field(default_factory=list)

    @property
    def prefix(self) -> str:
        return "" if self.index is None else f"hand-{self.index}-"


@dataclass
class Report:
    """Everything ``report.md`` and the figures show: the run's provenance, each hand's figures
    and the variant's."""

    rules: Rules
    family: str
    provenance: dict
    hands: list[HandReport]
    variant_figures: list[FigureData]

    def figures(self) -> list[FigureData]:
        return [f for h in self.hands for f in h.figures] + self.variant_figures


# --- checks before any work ----------------------------------------------------------------------

def require_matplotlib() -> None:
    """Fail at once, saying how to install it, when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise OutputError(f"the report's figures need matplotlib, which is not installed; "
                          f"install it with: {INSTALL}") from None


def check_out_dir(path: Path) -> Path:
    """``--out DIR`` must be a folder that exists and can be written, or one that can be made
    (its parent exists and can be written)."""
    p = Path(path)
    if str(p) == "-":
        raise OutputError("--out: give a folder for the figures and report.md (not -)")
    if p.exists():
        if not p.is_dir():
            raise OutputError(f"cannot write the report to {str(p)!r}: it is a file, not a "
                              f"folder")
        if not os.access(p, os.W_OK | os.X_OK):
            raise OutputError(f"cannot write the report to {str(p)!r}: the folder is not "
                              f"writable")
        return p
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise OutputError(f"cannot write the report to {str(p)!r}: folder {str(parent)!r} does "
                          f"not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write the report to {str(p)!r}: folder {str(parent)!r} is "
                          f"not writable")
    return p


# --- the numbers: the library calls the commands make --------------------------------------------

def hand_odds(rules: Rules, counts: np.ndarray, deals: int, seed: int, policy: str,
              turned: int | None = None, seat: str = "elder", threads: int | None = None,
              progress: Progress | None = None) -> dict:
    """The result ``bid-odds`` (partnership and widow games, every trump: ``--trump auto``) or
    ``deal-odds`` (talon games, ``turned`` a card type) reports for this hand and seed."""
    from binokel_sim.odds import bid_odds, deal_odds

    if engine_family(rules) != TALON:
        return bid_odds(rules, counts, deals, seed, policy, threads=threads, progress=progress)
    if turned is None:
        raise ValueError("a talon game's odds need the turned card")
    return deal_odds(rules, counts, turned, seat, deals, seed, policy, threads=threads,
                     progress=progress)


# --- the data of each figure ---------------------------------------------------------------------

def bid_curve_data(odds: dict, family: str) -> dict:
    """P(bid made) against the bid with its 95% interval: one series per trump (four-hand-80, in
    the order of ``by_trump``) or one series (widow games: the soloist names trump after the
    widow), and the bid marked: the highest with a positive expected score (None when even the
    minimum bid loses on average), with its trump (four-hand-80: the recommended one)."""
    rows = odds["rows"]
    if family == PARTNERSHIP:
        groups = [(suit, rows.filter(pl.col("trump") == suit)) for suit in odds["by_trump"]]
        marked_trump = odds["recommended_trump"]
    else:
        groups = [(None, rows)]
        marked_trump = None
    series = []
    for suit, part in groups:
        series.append({"trump": suit, "bid": part["bid"].to_list(),
                       "p_make": part["p_make"].to_list(), "ci_low": part["ci_low"].to_list(),
                       "ci_high": part["ci_high"].to_list(),
                       "expected_score": part["expected_score"].to_list()})
    return {"series": series, "marked_bid": odds["max_bid_positive_ev"],
            "marked_trump": marked_trump, "min_bid": int(rows["bid"].min()),
            "has_marriage": odds.get("has_marriage", True)}


def score_data(odds: dict, family: str) -> dict:
    """The distribution of the deal's score, as the library reports it (``score_histogram``):
    four-hand-80, the bidding pair's score at the minimum bid for each trump and the opponents'
    for the recommended trump (else the first); widow games, the soloist's side at the minimum
    bid; talon games, you and each opponent (and the pairs, with partnerships, as a second
    panel). Each series: ``label``, ``score`` values, ``count`` (deals), ``mean``, ``panel``."""
    series = []
    if family == PARTNERSHIP:
        trumps = list(odds["by_trump"])
        shown = odds["recommended_trump"] or trumps[0]
        bid = odds["by_trump"][trumps[0]]["score_histogram"]["bid"]
        for suit in trumps:
            hist = odds["by_trump"][suit]["score_histogram"]
            series.append(_series(f"your pair, trump {SUIT_NAMES[suit]}", hist, "pair",
                                  SUIT_COLORS[suit]))
        hist = odds["by_trump"][shown]["score_histogram"]
        series.append(_series(f"opponents, trump {SUIT_NAMES[shown]}", hist, "opponents", "0.45",
                              style="--"))
        return {"bid": bid, "lost_score": -bid, "series": series, "panels": ["scores"]}
    if family == WIDOW:
        hist = odds["score_histogram"]
        series.append(_series("soloist's side", hist, "soloist", SERIES_COLORS[0]))
        return {"bid": hist["bid"], "lost_score": -2 * hist["bid"], "series": series,
                "panels": ["scores"]}
    hist = odds["score_histogram"]
    panels = ["seats"]
    for i, name in enumerate(n for n in hist["count"] if n not in ("pair", "opponent pair")):
        series.append(_series(name, hist, name, SERIES_COLORS[i % len(SERIES_COLORS)],
                              style="-" if name == "you" else "--"))
    if "pair" in hist["count"]:
        panels.append("partnerships")
        for name, color, style in (("pair", SERIES_COLORS[0], "-"),
                                   ("opponent pair", SERIES_COLORS[1], "--")):
            series.append(_series(f"your {name}" if name == "pair" else "opponents' pair", hist,
                                  name, color, style=style, panel=1))
    return {"bid": None, "lost_score": None, "series": series, "panels": panels}


def _series(label: str, hist: dict, key: str, color: str, style: str = "-", panel: int = 0
            ) -> dict:
    score = np.asarray(hist["score"], dtype=np.int64)
    count = np.asarray(hist["count"][key], dtype=np.int64)
    deals = int(count.sum())
    keep = count > 0
    return {"label": label, "key": key, "score": score[keep].tolist(),
            "count": count[keep].tolist(), "deals": deals,
            "mean": float((score * count).sum() / deals), "color": color, "style": style,
            "panel": panel}


def widow_data(odds: dict) -> dict:
    """The exact best meld after the widow (every widow weighed): the ``widow`` section of
    :func:`binokel_sim.odds.widow.bid_odds` as it stands."""
    widow = odds["widow"]
    return {"meld": [d["meld"] for d in widow["distribution"]],
            "probability": [d["probability"] for d in widow["distribution"]],
            "own_best_meld": widow["own_best_meld"], "mean_best_meld": widow["mean_best_meld"],
            "p_improves": widow["p_improves"], "widows": widow["widows"]}


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


# --- building a report ---------------------------------------------------------------------------

def hand_figures(rules: Rules, hand: HandReport, deals: int, policy: str) -> list[FigureData]:
    """The figures of one hand (its bid curve, score distribution and, in the widow games, the
    meld after the widow), from ``hand.odds``."""
    family = engine_family(rules)
    caption = (f"binokel-sim {__version__} · {rules.name} · Monte Carlo: {deals:,} deals, "
               f"seed {hand.seed}, policy {policy}")
    who = _hand_title(rules, hand)
    figures = []
    if family != TALON:
        data = bid_curve_data(hand.odds, family)
        top = data["marked_bid"]
        worth = (f"the highest bid with a positive expected score ({top}) is marked"
                 if top is not None else "no bid has a positive expected score")
        if family == PARTNERSHIP:
            what = ("P(bid made) against the bid for each trump the hand may name, with its 95% "
                    f"interval; {worth}")
        else:
            what = (f"P(bid made) against the bid after taking the widow (the soloist names "
                    f"trump), with its 95% interval; {worth}")
        figures.append(FigureData(f"{hand.prefix}bid-curve.png", "bid_curve", data,
                                  f"{rules.name}: the chance to make each bid\n{who}", caption,
                                  what))
    data = score_data(hand.odds, family)
    if family == PARTNERSHIP:
        what = (f"the distribution of the deal's score at the minimum bid {data['bid']}: your "
                f"pair for each trump, the opponents for the recommended one")
    elif family == WIDOW:
        what = (f"the distribution of the soloist's side's score at the minimum bid "
                f"{data['bid']} (a lost bid scores minus twice the bid)")
    else:
        opponents = sum(1 for x in data["series"] if x["key"].startswith("opponent "))
        what = ("the distribution of the deal's score: you against "
                + ("your opponent" if opponents == 0 else "each opponent")
                + (" (and the two partnerships)" if len(data["panels"]) > 1 else ""))
    figures.append(FigureData(f"{hand.prefix}score.png", "score", data,
                              f"{rules.name}: the score of the deal\n{who}", caption, what))
    if family == WIDOW:
        data = widow_data(hand.odds)
        figures.append(FigureData(
            f"{hand.prefix}widow.png", "widow", data,
            f"{rules.name}: the best meld after taking the widow\n{who}",
            f"binokel-sim {__version__} · {rules.name} · exact: all {data['widows']:,} "
            f"possible widows weighed", f"the exact distribution of the best meld of hand + "
            f"widow over all {data['widows']:,} possible widows (before burying)"))
    return figures


def variant_figures(rules: Rules, deals: int, seed: int, marks: list[tuple[str, int]],
                    threads: int | None = None) -> list[FigureData]:
    """The variant's meld figures: each meld's exact odds and the best total meld of a random
    hand (Monte Carlo, ``deals`` hands, ``seed``), with ``marks`` drawn on it."""
    from binokel_sim.analysis import exact_meld_odds, meld_odds

    exact = meld_data(exact_meld_odds(rules, 0))
    total = total_meld_data(meld_odds(rules, deals, seed, 0, threads), deals, marks)
    hand = f"a random {rules.hand_size}-card hand"
    return [
        FigureData("melds.png", "melds", exact,
                   f"{rules.name}: how often {hand} holds each meld",
                   f"binokel-sim {__version__} · {rules.name} · exact (combinatorics)",
                   f"the exact chance that {hand} holds each meld once, twice, ... "
                   f"(meld-odds --exact), with the points each count scores"),
        FigureData("total-meld.png", "total_meld", total,
                   f"{rules.name}: the best total meld of {hand}",
                   f"binokel-sim {__version__} · {rules.name} · Monte Carlo: {deals:,} hands, "
                   f"seed {seed}",
                   f"the distribution of the best total meld of {hand} (Monte Carlo, the "
                   f"best trump it may name)"
                   + ("; the hand's own meld is marked" if len(marks) == 1 else
                      "; the hands' own melds are marked" if marks else "")),
    ]


def _hand_title(rules: Rules, hand: HandReport) -> str:
    text = " ".join(hand.hand)
    if hand.index is not None:
        text = f"hand {hand.index}: {text}"
    if hand.turned is not None:
        text += f", turned {hand.turned} (trump {SUIT_NAMES[hand.turned[-1]]}), you are the " \
                f"{hand.seat}"
    return text


# --- drawing -------------------------------------------------------------------------------------

def render(figure: FigureData) -> bytes:
    """The figure as PNG bytes (8 x 5 inches at 100 dpi; the meld figure grows with the melds)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    size = FIGSIZE
    if figure.kind == "melds":
        size = (FIGSIZE[0], max(FIGSIZE[1], 1.6 + 0.42 * len(figure.data["melds"])))
    panels = len(figure.data.get("panels", [None]))
    fig = Figure(figsize=size if panels == 1 else (FIGSIZE[0] * 1.5, FIGSIZE[1]), dpi=DPI,
                 layout="constrained")
    FigureCanvasAgg(fig)
    width = fig.get_figwidth()
    fig.suptitle("\n".join(textwrap.fill(line, int(10 * width)) for line in
                           figure.title.splitlines()), fontsize=11)
    fig.get_layout_engine().set(rect=(0, 0.035, 1, 0.965))
    fig.text(0.01, 0.008, figure.caption, fontsize=7.5, color="0.35", ha="left", va="bottom")
    DRAW[figure.kind](fig, figure.data)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI,
                metadata={"Title": figure.title.replace("\n", " "),
                          "Description": figure.description, "Source": figure.caption})
    return buffer.getvalue()


def _percent_axis(axis, log: bool = False, top: float | None = None) -> None:
    """Tick labels in percent (on a log axis, small ones as powers of ten; none above
    ``top``)."""
    from matplotlib.ticker import FuncFormatter

    def fmt(x, _pos=None):
        v = 100 * x
        if top is not None and x > top * 1.0001:
            return ""
        if v == 0:
            return "0%"
        if log and v < 0.01:
            return f"{v:.0e}%"
        return f"{v:.4g}%"

    axis.set_major_formatter(FuncFormatter(fmt))


def _draw_bid_curve(fig, data: dict) -> None:
    from matplotlib.patches import Patch

    ax = fig.add_subplot()
    for s in data["series"]:
        suit = s["trump"]
        if suit is None:
            color, label = SERIES_COLORS[0], "P(bid made), soloist names trump after the widow"
        else:
            color = SUIT_COLORS[suit]
            label = f"trump {SUIT_NAMES[suit]}"
            if suit == data["marked_trump"]:
                label += " (recommended)"
        width = 2.4 if suit is None or suit == data["marked_trump"] else 1.4
        ax.fill_between(s["bid"], s["ci_low"], s["ci_high"], color=color, alpha=0.22,
                        linewidth=0)
        ax.plot(s["bid"], s["p_make"], color=color, linewidth=width, label=label,
                marker="o" if len(s["bid"]) <= 3 else None)  # a lone point still shows
    ax.set_ylim(-0.02, 1.02)
    _percent_axis(ax.yaxis)
    ax.set_xlabel("bid (points)")
    ax.set_ylabel("P(bid made)")
    ax.grid(True, alpha=0.3)
    top = data["marked_bid"]
    if top is not None:
        ax.axvline(top, color="0.2", linestyle="--", linewidth=1.2)
        whose = (f" with {SUIT_NAMES[data['marked_trump']]}" if data["marked_trump"] else "")
        ax.annotate(f"recommended: bid up to {top}{whose}\n(the highest bid with a "
                    f"positive\nexpected score)",
                    xy=(top, 0.88), xytext=(6, 0), textcoords="offset points", fontsize=9,
                    va="center", ha="left", color="0.15",
                    bbox={"boxstyle": "round", "fc": "white", "ec": "0.6", "alpha": 0.9})
    else:
        why = ("the hand holds no marriage: it may name no trump, and every bid is lost"
               if not data["has_marriage"] else
               f"even the minimum bid ({data['min_bid']}) loses on average")
        ax.text(0.98, 0.95, why,
                transform=ax.transAxes, ha="right", va="top", fontsize=9)
    handles, labels = ax.get_legend_handles_labels()
    handles.append(Patch(color="0.5", alpha=0.3, linewidth=0))
    labels.append("shaded: 95% interval")
    ax.legend(handles, labels, loc="lower left", fontsize=9)


def histogram_grid(values: list[int], shown: tuple[float, float], max_bins: int = MAX_BINS
                   ) -> tuple[np.ndarray, int]:
    """``(edges, width)`` of a histogram of integer ``values``: one bin per value on their grid
    (their greatest common step) while the ``shown`` range holds at most ``max_bins`` bins, else
    bins of a round multiple of the step; the edges cover every value and sit half a step off
    the grid, so no value is on an edge. Series drawn together share one grid."""
    v = np.unique(np.asarray(values, dtype=np.int64))
    step = max(int(np.gcd.reduce(np.diff(v))) if v.size > 1 else 1, 1)
    span = max(shown[1] - shown[0], 1)
    for factor in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        width = step * factor
        if span / width <= max_bins:
            break
    start = (int(v.min()) // width) * width - step / 2
    n_bins = int((v.max() - start) // width) + 1
    return start + width * np.arange(n_bins + 1), width


def binned(values: list[int], counts: list[int], edges: np.ndarray) -> np.ndarray:
    """``counts`` summed into the bins of ``edges`` (which cover every value)."""
    v = np.asarray(values, dtype=np.float64)
    index = ((v - edges[0]) // (edges[1] - edges[0])).astype(np.int64)
    return np.bincount(index, weights=np.asarray(counts, dtype=np.float64),
                       minlength=edges.size - 1)[:edges.size - 1]


def shown_range(series: list[tuple[list[int], list[int]]], extra: list[float] = ()
                ) -> tuple[float, float, bool]:
    """``(low, high, cut)``: the x range drawn for ``(values, counts)`` series: from the
    smallest value to where :data:`MASS_SHOWN` of every series is covered (and every value in
    ``extra``); ``cut`` says whether some value lies beyond."""
    low, high, top = math.inf, -math.inf, -math.inf
    for values, counts in series:
        c = np.cumsum(np.asarray(counts, dtype=np.float64))
        k = int(np.searchsorted(c, MASS_SHOWN * c[-1]))
        low = min(low, values[0])
        high = max(high, values[min(k, len(values) - 1)])
        top = max(top, values[-1])
    high = max([high, *extra])
    return float(low), float(high), top > high


def _draw_score(fig, data: dict) -> None:
    axes = [fig.add_subplot(1, len(data["panels"]), i + 1) for i in range(len(data["panels"]))]
    for i, ax in enumerate(axes):
        own = [s for s in data["series"] if s["panel"] == i]
        low, high, cut = shown_range([(s["score"], s["count"]) for s in own])
        edges, width = histogram_grid([v for s in own for v in s["score"]], (low, high))
        for s in own:
            ax.stairs(binned(s["score"], s["count"], edges) / s["deals"], edges,
                      color=s["color"], linestyle=s["style"], linewidth=1.6,
                      label=f"{s['label']}: mean {s['mean']:.1f}")
            ax.axvline(s["mean"], color=s["color"], linestyle=":", linewidth=1)
        ax.set_xlim(low - width, high + width)
        _percent_axis(ax.yaxis)
        ax.set_ylim(bottom=0)
        ax.set_xlabel("score of the deal (points)")
        ax.set_ylabel("share of deals" + ("" if width == 1 else f" (bins of {width} points)"))
        ax.grid(True, alpha=0.3)
        ax.legend(loc="best", fontsize=8.5)
        notes = []
        if data["bid"] is not None:
            notes.append(f"at bid {data['bid']}: a bid not made scores {data['lost_score']}")
        notes.append("dotted lines: the means")
        if cut:
            notes.append(f"the rarest {100 * (1 - MASS_SHOWN):g}% lie beyond the right edge")
        ax.set_title("\n".join(notes), loc="right", fontsize=8, color="0.3")
        if len(axes) > 1:
            ax.set_title("seats" if data["panels"][i] == "seats" else "partnerships",
                         loc="left", fontsize=10)


def _draw_widow(fig, data: dict) -> None:
    ax = fig.add_subplot()
    meld = np.asarray(data["meld"])
    step = int(np.gcd.reduce(np.diff(meld))) if meld.size > 1 else 10
    ax.bar(meld, data["probability"], width=0.8 * max(step, 1), color=SERIES_COLORS[0],
           label="P(best meld after the widow)")
    ax.axvline(data["own_best_meld"], color="0.2", linestyle="--", linewidth=1.2,
               label=f"your hand alone: {data['own_best_meld']}")
    ax.axvline(data["mean_best_meld"], color="tab:red", linestyle=":", linewidth=1.4,
               label=f"mean after the widow: {data['mean_best_meld']:.1f}")
    _percent_axis(ax.yaxis)
    ax.set_xlabel("best meld of hand + widow over the four trumps (points)")
    ax.set_ylabel("share of widows")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(loc="upper right", fontsize=9, title=f"the widow raises your best meld in "
                                                   f"{100 * data['p_improves']:.1f}% of cases",
              title_fontsize=9)


def _draw_melds(fig, data: dict) -> None:
    ax = fig.add_subplot()
    melds = data["melds"]
    most = max(len(m["count"]) - 1 for m in melds)
    kinds = min(most, 3)  # held once, twice, three times or more
    names = {1: "once", 2: "twice", 3: "3 times" if most == 3 else "3 times or more"}
    height = 0.8 / max(kinds, 1)
    smallest = 1.0
    for k in range(1, kinds + 1):
        ys, ps, texts = [], [], []
        for i, m in enumerate(melds):
            probs = m["probability"]
            exactly = k < kinds or len(probs) == kinds + 1  # this bar is one count, not k or more
            p = probs[k] if exactly and k < len(probs) else sum(probs[k:])
            if p <= 0:
                continue
            ys.append(i + (k - 1 - (kinds - 1) / 2) * height)
            ps.append(p)
            label = f"{100 * p:.3g}%" if 100 * p >= 0.001 else f"{100 * p:.1e}%"
            points = m["points"][k] if exactly else None  # None: a house table, by suits
            texts.append(f"{label}  ({points} pts)" if points is not None else label)
            smallest = min(smallest, p)
        bars = ax.barh(ys, ps, height=height * 0.92, color=SERIES_COLORS[k - 1],
                       label=f"held {names[k]}")
        for bar, text in zip(bars, texts):
            ax.text(bar.get_width() * 1.15, bar.get_y() + bar.get_height() / 2, text,
                    va="center", fontsize=7)
    ax.set_xscale("log")
    ax.set_xlim(max(smallest / 3, 1e-16), 20)  # room right of 100% for the labels
    ax.set_yticks(range(len(melds)), [m["meld"].replace("_", " ") for m in melds])
    ax.invert_yaxis()
    _percent_axis(ax.xaxis, log=True, top=1.0)
    ax.set_xlabel("probability (log scale)")
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=kinds, fontsize=8.5,
              frameon=False)


def _draw_total_meld(fig, data: dict) -> None:
    ax = fig.add_subplot()
    marks = data["marks"][:MAX_MARKS]
    low, high, cut = shown_range([(data["points"], data["hands"])], [m["meld"] for m in marks])
    edges, width = histogram_grid(data["points"], (low, high))
    ax.stairs(binned(data["points"], data["hands"], edges) / data["deals"], edges, fill=True,
              color=SERIES_COLORS[0], alpha=0.75, label="share of random hands")
    for i, mark in enumerate(marks):
        ax.axvline(mark["meld"], color=SERIES_COLORS[(i + 1) % len(SERIES_COLORS)],
                   linestyle="--", linewidth=1.3, label=f"{mark['label']}: {mark['meld']}")
    ax.set_xlim(min(low, 0) - width, high + width)
    _percent_axis(ax.yaxis)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("best total meld of the hand (points)")
    ax.set_ylabel("share of hands" + ("" if width == 1 else f" (bins of {width} points)"))
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper right", fontsize=9)
    if cut:
        ax.set_title(f"the rarest {100 * (1 - MASS_SHOWN):g}% of hands lie beyond the right "
                     f"edge", loc="right", fontsize=8, color="0.3")


DRAW = {"bid_curve": _draw_bid_curve, "score": _draw_score, "widow": _draw_widow,
        "melds": _draw_melds, "total_meld": _draw_total_meld}


# --- report.md and the files ---------------------------------------------------------------------

def report_markdown(report: Report) -> str:
    """report.md: the title, the provenance, each hand's result in a line and its figures, then
    the variant's figures, each as an image with a one-line description."""
    rules, family = report.rules, report.family
    lines = [f"# binokel-sim report: {rules.name}", "", f"{rules.name}: {rules.description}.", ""]
    lines += ["| | |", "|---|---|"]
    lines += [f"| {key} | {_cell(value)} |" for key, value in report.provenance.items()]
    lines.append("")
    if family == TALON:
        lines += [(f"{rules.name} has no auction, so there is no bid curve: the figures are "
                   f"the score of the deal (you against the opponents) and the variant's "
                   f"melds."), ""]
    for hand in report.hands:
        if hand.index is not None:
            lines += [f"## Hand {hand.index}: {' '.join(hand.hand)}", "",
                      f"{hand.where}, seed {hand.seed}.", ""]
        else:
            lines += ["## The hand's odds", ""]
        lines += [_summary(family, hand), ""]
        lines += _figure_lines(hand.figures)
    lines += ["## The variant's melds" if report.hands[0].index is not None else
              "## The variant's melds (a random hand)", ""]
    lines += _figure_lines(report.variant_figures)
    return "\n".join(lines).rstrip("\n") + "\n"


def _cell(value) -> str:
    return str(value).replace("|", "\\|")


def _figure_lines(figures: list[FigureData]) -> list[str]:
    lines = []
    for f in figures:
        lines += [f"![{f.title.splitlines()[0]}]({f.name})", "",
                  f"`{f.name}`: {f.description}.", ""]
    return lines


def _summary(family: str, hand: HandReport) -> str:
    odds = hand.odds
    if family == TALON:
        q = odds["quantiles"]
        return (f"Mean score {odds['mean_score']:.1f}; P(out-scoring every opponent) "
                f"{100 * odds['p_win']:.1f}%; your score: 10% {q['10']:.0f}, median "
                f"{q['50']:.0f}, 90% {q['90']:.0f}.")
    top = odds["max_bid_positive_ev"]
    worth = (f"highest bid with a positive expected score: {top}" if top is not None
             else "no bid has a positive expected score")
    if family == PARTNERSHIP:
        best = odds["recommended_trump"]
        if best is None:
            return "The hand may name no trump: every bid is lost."
        info = odds["by_trump"][best]
        return (f"Recommended trump: {SUIT_NAMES[best]} ({best}); P(make the minimum bid) "
                f"{100 * info['p_make_min_bid']:.1f}%; {worth}.")
    widow = odds["widow"]
    return (f"P(make the minimum bid) {100 * odds['p_make_min_bid']:.1f}%; {worth}; the widow "
            f"raises the best meld from {widow['own_best_meld']} to "
            f"{widow['mean_best_meld']:.1f} on average.")


def publish(out_dir: Path, files: dict[str, bytes]) -> None:
    """Write ``files`` (name → bytes) into ``out_dir``, all or nothing so far as a folder
    allows: they go into a temporary folder first (beside ``out_dir`` when it does not exist,
    which is then renamed to ``out_dir`` in one step; inside it when it exists, each file then
    renamed into place, report.md last). A failure or Ctrl-C removes the temporary folder."""
    out_dir = Path(out_dir)
    existed = out_dir.is_dir()
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.report-",
                                        dir=out_dir if existed else out_dir.parent))
    except OSError as exc:
        raise OutputError(f"cannot write the report to {str(out_dir)!r}: "
                          f"{exc.strerror or exc}") from None
    try:
        names = sorted(files, key=lambda name: name == REPORT_MD)  # report.md last
        for name in names:
            (staging / name).write_bytes(files[name])
        if existed:
            for name in names:
                os.replace(staging / name, out_dir / name)
            staging.rmdir()
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(staging, 0o777 & ~umask)  # mkdtemp makes the folder private
            os.rename(staging, out_dir)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise OutputError(f"cannot write the report to {str(out_dir)!r}: "
                          f"{exc.strerror or exc}") from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def write_report(report: Report, out_dir: Path) -> list[Path]:
    """Draw every figure, write them and report.md into ``out_dir`` (:func:`publish`); returns
    the paths written, report.md first."""
    files = {f.name: render(f) for f in report.figures()}
    files[REPORT_MD] = report_markdown(report).encode("utf-8")
    publish(out_dir, files)
    return [out_dir / REPORT_MD] + [out_dir / f.name for f in report.figures()]
