"""Talon games: whole-deal throughput, deal-odds wall time, and the heuristic against random in
duels and whole games for every talon variant.

Run: python benchmarks/bench_talon.py   (writes the "talon" section of results/benchmarks.json)

Whole deals per second: deal, every trick, the declarations and draws, with the policy on every
seat, best of five after a warm-up; the reference is the pure-Python twin (random policy) on one
thread. ``deal_odds_1m_seconds``: the built-in example hand of two-hand-48 with 1,000,000 samples
on all threads, numba cache warm, in process and as a whole CLI command.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from binokel_sim.bench import all_threads
from binokel_sim.bench.talon import playout_rate as talon_rate
from binokel_sim.bench.talon import reference_playout_rate as reference_talon_rate
from binokel_sim.variants import find_variant

sys.path.insert(0, str(Path(__file__).parent))
from results_file import deal_odds_seconds, heuristic_against_random, record  # noqa: E402

VARIANTS = ("two-hand-48", "three-hand-72", "four-hand-72")


def main() -> None:
    n = all_threads()
    figures: dict = {}
    for name in VARIANTS:
        rules = find_variant(name)
        rates = {}
        for policy, deals in (("random", 1_000_000), ("heuristic", 400_000)):
            rates[f"{policy}_deals_per_s"] = {"1_thread": talon_rate(rules, policy, deals, 1),
                                              f"{n}_threads": talon_rate(rules, policy, deals, n)}
        ref = reference_talon_rate(rules, 300)
        rates["reference_python_random_deals_per_s_1_thread"] = ref
        rates["random_speedup_all_threads_vs_reference_1_thread"] = (
            rates["random_deals_per_s"][f"{n}_threads"] / ref)
        rates.update(heuristic_against_random(rules, 200_000, 20_000))
        figures[name] = rates

    figures["deal_odds_1m_seconds"] = {"policy": "heuristic",
                                       **deal_odds_seconds("heuristic", ["--policy", "heuristic"])}
    record("talon", figures)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    np.seterr(all="raise")
    main()
