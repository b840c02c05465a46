"""How far predicted probabilities can be trusted: reliability bins, the Brier score and its
decomposition, the Brier skill score and the expected calibration error.

Inputs are a forecast ``p`` (each bidder's predicted chance to make his contract) and the outcome
``o`` (1 made, 0 not) of the same events. Nothing here simulates; ``calibrate`` (issue 11) feeds it.

- **Equal-count bins**: the events sorted by ``p`` (ties by their order, a stable sort) and cut
  into ``bins`` groups whose sizes differ by at most one, so every bin's observed rate rests on
  about N / bins events. Each bin reports its mean forecast, the observed rate and the Wilson 95%
  interval of that rate.
- **Brier score** ``BS = mean((p - o)^2)``. Murphy's decomposition over the bins,
  ``BS = REL - RES + UNC + WBV``: reliability ``REL = sum n_k (pbar_k - obar_k)^2 / N``,
  resolution ``RES = sum n_k (obar_k - obar)^2 / N``, uncertainty ``UNC = obar (1 - obar)`` and
  the within-bin term ``WBV = BS - (REL - RES + UNC)``, which is zero when forecasts are constant
  inside each bin (Stephenson, Coelho and Jolliffe 2008 split it further; one term is enough
  here and makes the parts add up exactly).
- **Brier skill score** against the base rate (always forecasting ``obar``, whose Brier score is
  ``UNC``): ``BSS = 1 - BS / UNC`` (undefined, None, when every outcome is the same).
- **Expected calibration error**: the n-weighted mean of ``|pbar_k - obar_k|`` over the bins.
"""

from __future__ import annotations

import numpy as np

from binokel_sim.stats import wilson_interval

MIN_BINS = 10


def reliability_bins(predicted, outcome, bins: int = MIN_BINS) -> list[dict]:
    """Equal-count bins of the events sorted by forecast: per bin ``n``, ``p_low`` and ``p_high``
    (its smallest and largest forecast), ``mean_predicted``, ``observed`` and the Wilson 95%
    interval ``ci_low``, ``ci_high`` of the observed rate. Fewer events than bins: one bin an
    event."""
    p, o = _check(predicted, outcome)
    order = np.argsort(p, kind="stable")
    out = []
    for idx in np.array_split(order, min(bins, p.size)):
        made = int(o[idx].sum())
        low, high = wilson_interval(made, idx.size)
        out.append({"n": int(idx.size), "p_low": float(p[idx].min()),
                    "p_high": float(p[idx].max()), "mean_predicted": float(p[idx].mean()),
                    "observed": made / idx.size, "ci_low": float(low), "ci_high": float(high)})
    return out


def calibration_summary(predicted, outcome, bins: int = MIN_BINS) -> dict:
    """Everything a reliability study reports: ``events``, ``base_rate``, ``bins`` (as
    :func:`reliability_bins`), ``brier``, its parts ``reliability``, ``resolution``,
    ``uncertainty`` and ``within_bin``, ``brier_skill`` and ``ece``."""
    p, o = _check(predicted, outcome)
    table = reliability_bins(p, o, bins)
    n = p.size
    base = float(o.mean())
    brier = float(np.mean((p - o) ** 2))
    rel = sum(b["n"] * (b["mean_predicted"] - b["observed"]) ** 2 for b in table) / n
    res = sum(b["n"] * (b["observed"] - base) ** 2 for b in table) / n
    unc = base * (1.0 - base)
    ece = sum(b["n"] * abs(b["mean_predicted"] - b["observed"]) for b in table) / n
    return {"events": int(n), "base_rate": base, "bins": table, "brier": brier,
            "reliability": rel, "resolution": res, "uncertainty": unc,
            "within_bin": brier - (rel - res + unc),
            "brier_skill": None if unc == 0 else 1.0 - brier / unc, "ece": ece}


def _check(predicted, outcome) -> tuple[np.ndarray, np.ndarray]:
    p = np.asarray(predicted, dtype=np.float64).ravel()
    o = np.asarray(outcome, dtype=np.float64).ravel()
    if p.size == 0 or p.size != o.size:
        raise ValueError(f"need as many outcomes as forecasts, and at least one: got {p.size} "
                         f"forecasts and {o.size} outcomes")
    if np.any((p < 0) | (p > 1)) or not np.all(np.isfinite(p)):
        raise ValueError("forecasts must be probabilities in [0, 1]")
    if np.any((o != 0) & (o != 1)):
        raise ValueError("outcomes must be 0 or 1")
    return p, o
