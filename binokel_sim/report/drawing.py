"""The figures drawn: :func:`render` turns a :class:`.model.FigureData` into PNG bytes, one
drawing per ``kind`` (:data:`DRAW`).

matplotlib (the optional extra ``[plot]``) is imported only here, lazily, and drawn without
pyplot: each figure is its own :class:`matplotlib.figure.Figure` on an Agg canvas, so no state
passes from one figure to the next.
"""

from __future__ import annotations

import io
import math
import textwrap

import numpy as np

from binokel_sim.report.data import SERIES_COLORS, SUIT_COLORS, SUIT_NAMES
from binokel_sim.report.model import FigureData

FIGSIZE = (8.0, 5.0)  # inches; at DPI a figure is 800 x 500 pixels
DPI = 100
MASS_SHOWN = 0.999  # distributions with a long tail: the x axis ends where this much is covered
MAX_BINS = 60  # a histogram drawn with more distinct values is binned to at most this many
MAX_MARKS = 8  # hands marked in the total-meld figure (more would hide the bars)


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
