"""The expert policy's speed (issue 28): whole deals a second with the expert on every seat, one
thread and all threads, beside the heuristic's in the same run, for every variant it plays; and
``deal-odds`` with its default policy (the expert) on two-hand-48's example hand, 1,000,000
samples, in process and as a command.

Run: python benchmarks/bench_expert.py   (writes the "expert" section of results/benchmarks.json)
Targets (issue 28): 100,000 deals a second a thread in every variant (150,000 in four-hand-80,
which the expert does not play yet). Best of five after a warm-up, numba cache warm.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from binokel_sim.bench import all_threads
from binokel_sim.bench.talon import playout_rate
from binokel_sim.engines.policies import expert_plays
from binokel_sim.variants import all_variants

sys.path.insert(0, str(Path(__file__).parent))
from results_file import deal_odds_seconds, record  # noqa: E402

TARGET_PER_THREAD = 100_000


def main() -> None:
    n = all_threads()
    figures: dict = {"target_deals_per_s_per_thread": TARGET_PER_THREAD, "variants": {}}
    for rules in all_variants():
        if not expert_plays(rules):
            continue
        rates = {}
        for policy in ("expert", "heuristic"):
            rates[f"{policy}_deals_per_s"] = {
                "1_thread": playout_rate(rules, policy, 400_000, 1),
                f"{n}_threads": playout_rate(rules, policy, 400_000, n)}
        figures["variants"][rules.name] = rates
    figures["deal_odds_1m_seconds"] = {"policy": "expert (the default)", "threads": n,
                                       **deal_odds_seconds("expert", [])}
    record("expert", figures)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    np.seterr(all="raise")
    main()
