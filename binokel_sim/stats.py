"""Confidence intervals for Monte Carlo proportions and means."""

from __future__ import annotations

from statistics import NormalDist

import numpy as np

Z95 = NormalDist().inv_cdf(0.975)


def wilson_interval(successes, trials, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval (no continuity correction) for ``successes`` out of ``trials``,
    vectorised over numpy arrays. Matches ``scipy.stats.binomtest(...).proportion_ci('wilson')``
    (checked in the tests)."""
    k = np.asarray(successes, dtype=np.float64)
    n = np.asarray(trials, dtype=np.float64)
    p = k / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # exact ends: rounding would otherwise leave 0 (k = 0) or 1 (k = n) just outside
    low = np.where(k == 0, 0.0, np.clip(centre - half, 0.0, 1.0))
    high = np.where(k == n, 1.0, np.clip(centre + half, 0.0, 1.0))
    return low, high


def mean_interval(total: float, total_sq: float, n: int, z: float = Z95) -> tuple[float, float, float]:
    """Mean and normal 95% interval from a sum and a sum of squares over ``n`` samples."""
    mean = total / n
    var = max(total_sq / n - mean * mean, 0.0) * n / max(n - 1, 1)
    half = z * (var / n) ** 0.5
    return mean, mean - half, mean + half
