"""Deal and meld-count throughput, against the pure-Python reference on the same work.

Run: python benchmarks/bench_melds.py   (writes the "melds" section of results/benchmarks.json)
"""

from __future__ import annotations

import subprocess
import sys
import time

import numba
import numpy as np

from binokel_sim import reference
from binokel_sim.kernels.deal import deal_blocks
from binokel_sim.kernels.meld_odds import meld_odds_blocks
from binokel_sim.simulate import BLOCK_SIZE, MAX_COUNT
from binokel_sim.tables import compile_tables
from binokel_sim.variants import find_variant

sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
from results_file import record  # noqa: E402

VARIANT = "four-hand-80"


def best_of(fn, repeats: int = 3) -> float:
    fn()  # warm-up (compiles or loads the numba cache)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def deals_per_second(tables, sizes, n: int, threads: int) -> float:
    numba.set_num_threads(threads)
    out = np.empty((n, len(sizes), 4), dtype=np.uint32)
    size_arr = np.array(sizes, dtype=np.int64)
    return n / best_of(lambda: deal_blocks(tables.deck, size_arr, 1, 0, BLOCK_SIZE, out))


def melds_per_second(rules, tables, n: int, threads: int) -> float:
    numba.set_num_threads(threads)
    n_blocks = (n + BLOCK_SIZE - 1) // BLOCK_SIZE

    def work():
        ch = np.zeros((n_blocks, tables.n_melds, MAX_COUNT + 1), dtype=np.int64)
        th = np.zeros((n_blocks, tables.max_total + 1), dtype=np.int64)
        meld_odds_blocks(tables.deck, rules.hand_size, tables.kt, tables.trump_need, 0, 1,
                         0, BLOCK_SIZE, n, ch, th)

    return n / best_of(work)


def reference_per_second(rules, n: int) -> float:
    start = time.perf_counter()
    reference.meld_odds_counts(rules, n, 1, 0, BLOCK_SIZE)
    return n / (time.perf_counter() - start)


def cli_seconds() -> float:
    cmd = [sys.executable, "-m", "binokel_sim.cli", "analyze"]
    subprocess.run(cmd, check=True, capture_output=True)  # warm numba's cache
    return best_of(lambda: subprocess.run(cmd, check=True, capture_output=True), repeats=3)


def main() -> None:
    rules = find_variant(VARIANT)
    tables = compile_tables(rules)
    threads = numba.config.NUMBA_NUM_THREADS
    n = 8_000_000
    ref = reference_per_second(rules, 20_000)
    figures = {
        "variant": VARIANT,
        "one_hand_deals_per_s": {"1_thread": deals_per_second(tables, [20], n, 1),
                                 f"{threads}_threads": deals_per_second(tables, [20], n, threads)},
        "four_hand_deals_per_s": {"1_thread": deals_per_second(tables, [20] * 4, n // 4, 1),
                                  f"{threads}_threads": deals_per_second(tables, [20] * 4, n // 4,
                                                                         threads)},
        "deal_and_meld_count_all_trumps_hands_per_s": {
            "1_thread": melds_per_second(rules, tables, n, 1),
            f"{threads}_threads": melds_per_second(rules, tables, n, threads),
        },
        "reference_python_hands_per_s_1_thread": ref,
        "cli_analyze_warm_seconds": cli_seconds(),
    }
    figures["meld_odds_speedup_all_threads_vs_reference"] = (
        figures["deal_and_meld_count_all_trumps_hands_per_s"][f"{threads}_threads"] / ref)
    record("melds", figures)
    import json
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
