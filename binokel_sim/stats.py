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


class Hist:
    """How many samples took each integer value: ``counts[i]`` samples took ``low + i`` (int64
    counts, trimmed to the values seen). Histograms of disjoint samples add exactly (``+``), so
    they carry a run's distributions from its tasks (:mod:`binokel_sim.backend`)."""

    __slots__ = ("low", "counts")

    def __init__(self, low: int, counts: np.ndarray):
        self.low = int(low)
        self.counts = np.asarray(counts, dtype=np.int64)

    @classmethod
    def of(cls, values) -> Hist:
        """The histogram of integer ``values``."""
        v = np.asarray(values, dtype=np.int64).ravel()
        if v.size == 0:
            return cls(0, np.zeros(0, dtype=np.int64))
        low = int(v.min())
        return cls(low, np.bincount(v - low))

    @classmethod
    def constant(cls, value: int, count: int) -> Hist:
        """``count`` samples of ``value``."""
        if count <= 0:
            return cls(0, np.zeros(0, dtype=np.int64))
        return cls(value, np.array([count], dtype=np.int64))

    def __add__(self, other: Hist) -> Hist:
        if not self.counts.size:
            return other
        if not other.counts.size:
            return self
        low = min(self.low, other.low)
        high = max(self.low + self.counts.size, other.low + other.counts.size)
        counts = np.zeros(high - low, dtype=np.int64)
        counts[self.low - low:self.low - low + self.counts.size] += self.counts
        counts[other.low - low:other.low - low + other.counts.size] += other.counts
        return Hist(low, counts)

    def __eq__(self, other) -> bool:
        return (isinstance(other, Hist) and self.low == other.low
                and np.array_equal(self.counts, other.counts))

    def __repr__(self) -> str:
        return f"Hist(low={self.low}, counts={self.counts.tolist()})"

    def __reduce__(self):
        return Hist, (self.low, self.counts)

    @property
    def values(self) -> np.ndarray:
        return np.arange(self.low, self.low + self.counts.size, dtype=np.int64)

    @property
    def n(self) -> int:
        return int(self.counts.sum())

    def seen(self) -> tuple[np.ndarray, np.ndarray]:
        """The values taken (ascending) and how many samples took each."""
        keep = np.flatnonzero(self.counts)
        return keep.astype(np.int64) + self.low, self.counts[keep]

    def sum(self) -> int:
        values, counts = self.seen()
        return sum(int(v) * int(c) for v, c in zip(values, counts))

    def sum_sq(self) -> int:
        values, counts = self.seen()
        return sum(int(v) * int(v) * int(c) for v, c in zip(values, counts))

    def where(self, keep) -> Hist:
        """The samples whose value passes ``keep`` (a function of the values array)."""
        values = self.values
        counts = np.where(keep(values), self.counts, 0)
        nonzero = np.flatnonzero(counts)
        if not nonzero.size:
            return Hist(0, np.zeros(0, dtype=np.int64))
        return Hist(self.low + int(nonzero[0]), counts[nonzero[0]:nonzero[-1] + 1])

    def percentile(self, q: float) -> float:
        """``np.percentile(samples, q)`` (its default linear interpolation, the same float)
        from the histogram alone."""
        n = self.n
        if n == 0:
            raise ValueError("the percentile of no samples")
        values, counts = self.seen()
        ends = np.cumsum(counts)  # samples up to and including each value, in sorted order

        def at(i: int) -> int:  # the i-th smallest sample (0-based)
            return int(values[int(np.searchsorted(ends, i, side="right"))])

        # numpy: virtual index (n - 1) * q / 100, gamma its fraction, _lerp(previous, next)
        virtual = (n - 1) * np.true_divide(q, 100)
        if virtual >= n - 1:
            return float(at(n - 1))
        below = int(np.floor(virtual))
        t = float(virtual - below)
        a, b = at(below), at(below + 1)
        d = b - a
        return float(a + d * t) if t < 0.5 else float(b - d * (1 - t))
