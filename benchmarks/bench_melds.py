"""Deal and meld-count throughput, against the pure-Python reference on the same work.

Run: python benchmarks/bench_melds.py   (writes the "melds" section of results/benchmarks.json)
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from binokel_sim.bench import all_threads, best_seconds, deal_rate, meld_rate, reference_meld_rate
from binokel_sim.variants import find_variant

sys.path.insert(0, str(Path(__file__).parent))
from results_file import record  # noqa: E402

VARIANT = "four-hand-80"
DEALS = 8_000_000


def cli_seconds(*args: str) -> float:
    cmd = [sys.executable, "-m", "binokel_sim.cli", *args]
    return best_seconds(lambda: subprocess.run(cmd, check=True, capture_output=True))


def main() -> None:
    rules = find_variant(VARIANT)
    n = all_threads()
    ref = reference_meld_rate(rules, 20_000)
    figures = {
        "variant": VARIANT,
        "one_hand_deals_per_s": {"1_thread": deal_rate(rules, DEALS, 1),
                                 f"{n}_threads": deal_rate(rules, DEALS, n)},
        "four_hand_deals_per_s": {"1_thread": deal_rate(rules, DEALS // 4, 1, hands=4),
                                  f"{n}_threads": deal_rate(rules, DEALS // 4, n, hands=4)},
        "deal_and_meld_count_all_trumps_hands_per_s": {"1_thread": meld_rate(rules, DEALS, 1),
                                                       f"{n}_threads": meld_rate(rules, DEALS, n)},
        "reference_python_hands_per_s_1_thread": ref,
        "cli_warm_seconds": {"analyze": cli_seconds("analyze"),
                             "meld_odds_100k": cli_seconds("meld-odds", "--deals", "100000")},
    }
    figures["meld_odds_speedup_all_threads_vs_reference_1_thread"] = (
        figures["deal_and_meld_count_all_trumps_hands_per_s"][f"{n}_threads"] / ref)
    record("melds", figures)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
