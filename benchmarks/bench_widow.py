"""Widow games: whole-deal throughput, the exact widow section's time, bid-odds wall time, and
the heuristic against random in duels and whole games for both widow variants.

Run: python benchmarks/bench_widow.py   (writes the "widow" section of results/benchmarks.json)

Whole deals per second: deal, auction, the soloist's widow handling, melds, every trick and the
score, with the policy on every seat, best of five after a warm-up; the reference is the
pure-Python twin (random policy) on one thread. ``exact_widow_ms``: the exact widow section of the
built-in example hand, best of five, in process. ``bid_odds_1m_seconds``: the example hand of
three-hand-auction-48 with 1,000,000 samples on all threads, numba cache warm, in process and as a
whole CLI command.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from binokel_sim.bench import all_threads, best_seconds
from binokel_sim.bench.widow import playout_rate as widow_rate
from binokel_sim.bench.widow import reference_playout_rate as reference_widow_rate
from binokel_sim.hands import parse_hand
from binokel_sim.variants import find_variant
from binokel_sim.odds import bid_odds
from binokel_sim.odds.widow import widow_section

sys.path.insert(0, str(Path(__file__).parent))
from results_file import heuristic_against_random, record  # noqa: E402

VARIANTS = ("three-hand-auction-48", "four-hand-widow-48")


def main() -> None:
    n = all_threads()
    figures: dict = {}
    for name in VARIANTS:
        rules = find_variant(name)
        rates = {}
        for policy, deals in (("random", 400_000), ("heuristic", 200_000)):
            rates[f"{policy}_deals_per_s"] = {"1_thread": widow_rate(rules, policy, deals, 1),
                                              f"{n}_threads": widow_rate(rules, policy, deals, n)}
        ref = reference_widow_rate(rules, 300)
        rates["reference_python_random_deals_per_s_1_thread"] = ref
        rates["random_speedup_all_threads_vs_reference_1_thread"] = (
            rates["random_deals_per_s"][f"{n}_threads"] / ref)
        counts = parse_hand(rules.example_hand, rules)
        rates["exact_widow_ms"] = 1000 * best_seconds(lambda: widow_section(rules, counts))
        rates.update(heuristic_against_random(rules, 100_000, 10_000))
        figures[name] = rates

    rules = find_variant("three-hand-auction-48")
    counts = parse_hand(rules.example_hand, rules)
    bid_odds(rules, counts, 2_000, 1)  # warm
    times = []
    for _ in range(3):
        start = time.perf_counter()
        bid_odds(rules, counts, 1_000_000, 1)
        times.append(time.perf_counter() - start)
    cmd = [sys.executable, "-m", "binokel_sim.cli", "bid-odds", "--variant", rules.name,
           "--deals", "1000000"]
    start = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    figures["bid_odds_1m_seconds"] = {"variant": rules.name, "policy": "heuristic",
                                      "in_process": min(times),
                                      "cli": time.perf_counter() - start}
    record("widow", figures)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
