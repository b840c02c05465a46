"""The reliability diagram of a calibration study (``calibrate --out DIR``): each equal-count
bin's observed rate against its mean forecast, with the Wilson 95% interval, the diagonal of
perfect calibration and, below, the histogram of the forecasts. Drawn like the
report's figures (:mod:`binokel_sim.report`): matplotlib (the ``[plot]`` extra) imported here
only, one Figure on an Agg canvas, PNG bytes returned."""

from __future__ import annotations

import io

from binokel_sim.report import DPI, FIGSIZE


def reliability_png(summary: dict, forecasts: list[float], title: str, caption: str) -> bytes:
    """The diagram of :func:`binokel_sim.calibration.calibration_summary`'s ``bins``, with the
    histogram of ``forecasts`` (every event's) beneath."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(FIGSIZE[1] * 1.3, FIGSIZE[1] * 1.4), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    fig.get_layout_engine().set(rect=(0, 0.03, 1, 0.97))  # room for the caption
    top, bottom = fig.subplots(2, 1, height_ratios=(4, 1), sharex=True)
    bins = summary["bins"]
    x = [b["mean_predicted"] for b in bins]
    y = [b["observed"] for b in bins]
    err = [[b["observed"] - b["ci_low"] for b in bins], [b["ci_high"] - b["observed"] for b in bins]]
    top.plot([0, 1], [0, 1], color="0.6", linestyle="--", linewidth=1, label="perfect calibration")
    top.errorbar(x, y, yerr=err, fmt="o-", color="tab:blue", capsize=3, markersize=4,
                 label="observed rate, 95% interval")
    top.set_xlim(0, 1)
    top.set_ylim(0, 1)
    top.set_ylabel("observed: contract made")
    top.legend(loc="upper left", fontsize=8)
    top.text(0.98, 0.03, f"ECE {summary['ece']:.3f}\nBrier {summary['brier']:.3f}\n"
                         f"skill {_skill(summary['brier_skill'])}", ha="right", va="bottom",
             fontsize=8, transform=top.transAxes)
    top.set_title(title, fontsize=10)
    bottom.hist(forecasts, bins=20, range=(0, 1), color="tab:blue", alpha=0.5)
    bottom.set_xlim(0, 1)
    bottom.set_xlabel("predicted p_make (bid-odds)")
    bottom.set_ylabel("events")
    fig.text(0.01, 0.003, caption, fontsize=7, color="0.35", ha="left", va="bottom")
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI, metadata={"Title": title, "Source": caption})
    return buffer.getvalue()


def _skill(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"
