"""Deal + play-out throughput (four-hand-80), against the pure-Python reference on the same work.

Run: python benchmarks/bench_playout.py [--scale 1.0]

Each figure is deals per second of the whole pipeline of ``kernels.tricks.playout_blocks``: deal
four hands of 20 from the 80-card deck, pick seat 0's best-meld trump, play the 20 tricks with the
given policy on every seat, score the play points. The reference is
``reference_play.playout_deals`` (the same deals, trump and random play in pure Python). Warms
up first (compiles or loads numba's cache), reports the best of three runs. Prints a JSON dict to
stdout and writes nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time

import numba
import numpy as np

from binokel_sim import reference_play
from binokel_sim.kernels.policies import POLICY_HEURISTIC, POLICY_RANDOM
from binokel_sim.kernels.tricks import playout_blocks
from binokel_sim.tables import compile_tables
from binokel_sim.variants import find_variant

VARIANT = "four-hand-80"
BLOCK_SIZE = 1024
SEED = 20240611


def best_seconds(work, repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def kernel_rate(rules, tables, policy: int, n_deals: int, threads: int) -> float:
    numba.set_num_threads(threads)
    policies = np.full(4, policy, dtype=np.int64)
    play = np.empty((n_deals, 2), dtype=np.int64)
    trumps = np.empty(n_deals, dtype=np.int64)

    def work():
        playout_blocks(tables.deck, tables.card_points, rules.last_trick, tables.kt,
                       tables.trump_need, policies, SEED, 0, BLOCK_SIZE, play, trumps)

    seconds = best_seconds(work)
    assert (play.sum(axis=1) == rules.total_card_points).all()
    return n_deals / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0,
                        help="Multiply the number of deals timed (smaller for a quick run).")
    args = parser.parse_args()
    rules = find_variant(VARIANT)
    tables = compile_tables(rules)
    n_random = max(BLOCK_SIZE * 4, int(1_000_000 * args.scale))
    n_heuristic = max(BLOCK_SIZE * 4, int(400_000 * args.scale))
    n_reference = max(20, int(400 * args.scale))
    threads = numba.config.NUMBA_NUM_THREADS

    for policy in (POLICY_RANDOM, POLICY_HEURISTIC):  # warm-up: compile or load the cache
        kernel_rate(rules, tables, policy, BLOCK_SIZE * 2, 1)

    figures: dict = {
        "variant": VARIANT,
        "block_size": BLOCK_SIZE,
        "deals_timed": {"random": n_random, "heuristic": n_heuristic, "reference": n_reference},
        "machine": {"cpus": os.cpu_count(), "numba_threads": threads,
                    "python": platform.python_version(), "numba": numba.__version__,
                    "processor": platform.processor() or platform.machine()},
    }
    for name, policy, n in (("random", POLICY_RANDOM, n_random),
                            ("heuristic", POLICY_HEURISTIC, n_heuristic)):
        rates = {"1_thread": kernel_rate(rules, tables, policy, n, 1)}
        if threads >= 2:
            rates["2_threads"] = kernel_rate(rules, tables, policy, n, 2)
        figures[f"{name}_deals_and_playouts_per_s"] = rates
    numba.set_num_threads(threads)

    ref_seconds = best_seconds(
        lambda: reference_play.playout_deals(rules, n_reference, SEED, BLOCK_SIZE), repeats=1)
    ref_rate = n_reference / ref_seconds
    figures["reference_python_random_deals_and_playouts_per_s_1_thread"] = ref_rate
    figures["random_speedup_1_thread_vs_reference"] = (
        figures["random_deals_and_playouts_per_s"]["1_thread"] / ref_rate)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
