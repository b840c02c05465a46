"""How ``bench`` times: the best of five runs after a warm-up (the engines), one run (the slow
twins), and the variant's example hand that several measurements use."""

from __future__ import annotations

import time
from collections.abc import Callable

from binokel_sim.variants import Rules


def best_seconds(work: Callable[[], object], repeats: int = 5) -> float:
    work()  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def timed(work: Callable[[], object]) -> float:
    """Seconds of one call (the twins: slow enough that one run is the measurement)."""
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def example_hand(rules: Rules):
    """The variant's example hand as counts per card type."""
    from binokel_sim.hands import parse_hand

    return parse_hand(rules.example_hand, rules)
