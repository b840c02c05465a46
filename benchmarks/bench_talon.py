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
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from binokel_sim.bench import all_threads
from binokel_sim.bench.talon import playout_rate as talon_rate
from binokel_sim.bench.talon import reference_playout_rate as reference_talon_rate
from binokel_sim.cards import parse_card
from binokel_sim.odds.talon import deal_odds
from binokel_sim.hands import parse_hand
from binokel_sim.variants import find_variant

sys.path.insert(0, str(Path(__file__).parent))
from results_file import heuristic_against_random, record  # noqa: E402

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

    rules = find_variant("two-hand-48")
    counts = parse_hand(rules.example_hand, rules)
    turned = parse_card(rules.example_turned)
    deal_odds(rules, counts, turned, "elder", 2_000, 1, "heuristic")  # warm
    times = []
    for _ in range(5):
        start = time.perf_counter()
        deal_odds(rules, counts, turned, "elder", 1_000_000, 1, "heuristic")
        times.append(time.perf_counter() - start)
    cmd = [sys.executable, "-m", "binokel_sim.cli", "deal-odds", "--deals", "1000000", "--policy",
           "heuristic"]
    cli = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        cli.append(time.perf_counter() - start)
    figures["deal_odds_1m_seconds"] = {"variant": rules.name, "policy": "heuristic",
                                       "in_process": min(times), "cli": min(cli)}
    record("talon", figures)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    np.seterr(all="raise")
    main()
