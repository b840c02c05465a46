"""Play-out throughput, bid-odds wall time and the policy duel (four-hand-80).

Run: python benchmarks/bench_playout.py   (writes the "playouts" section of results/benchmarks.json)

Play-out figures are whole deals per second (deal four hands, pick seat 0's best trump, play the
20 tricks with the policy on every seat), best of three after a warm-up; the reference is the
pure-Python twin on the same deals. ``bid_odds_1m_seconds`` is the wall time of the bid odds of
the built-in example hand with 1,000,000 samples over every marriage trump on all threads with
the heuristic, numba cache warm, best of five in process and best of three as a whole CLI
command (the expert's default run is benchmarks/bench_expert.py's).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from binokel_sim.bench import all_threads
from binokel_sim.bench.partnership import playout_rate, reference_playout_rate
from binokel_sim.engines.partnership import run_duel
from binokel_sim.stats import mean_interval
from binokel_sim.variants import find_variant

sys.path.insert(0, str(Path(__file__).parent))
from results_file import bid_odds_seconds, record  # noqa: E402

VARIANT = "four-hand-80"


def main() -> None:
    rules = find_variant(VARIANT)
    n = all_threads()
    figures: dict = {"variant": VARIANT}
    ref = reference_playout_rate(rules, 400)
    for policy, deals in (("random", 1_000_000), ("heuristic", 400_000)):
        figures[f"{policy}_deals_and_playouts_per_s"] = {
            "1_thread": playout_rate(rules, policy, deals, 1),
            f"{n}_threads": playout_rate(rules, policy, deals, n),
        }
    figures["reference_python_random_deals_and_playouts_per_s_1_thread"] = ref
    figures["random_speedup_all_threads_vs_reference_1_thread"] = (
        figures["random_deals_and_playouts_per_s"][f"{n}_threads"] / ref)

    figures["bid_odds_1m_seconds"] = bid_odds_seconds("heuristic", ["--policy", "heuristic"])

    diff = run_duel(rules, "heuristic", "random", 200_000, 1)
    mean, low, high = mean_interval(float(diff.sum()), float((diff * diff).sum()), diff.size)
    figures["duel_heuristic_minus_random"] = {"deals": int(diff.size), "seed": 1,
                                              "mean_diff": mean, "ci_low": low, "ci_high": high}
    record("playouts", figures)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
