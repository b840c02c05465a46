"""The two-hand endgame solver's time per position (issue 28: median and p99 over 1,000 random
12-trick positions, target median at most 1 ms).

Run: python benchmarks/bench_solver.py [--positions N] [--seed S]   (writes the "solver" section
of results/benchmarks.json)

A position is what two-hand-48's phase 2 starts from: two hands of 12 cards dealt from a
shuffled 48-card deck (``numpy.random.default_rng(seed)``), a trump drawn uniformly, seat 0 to
lead. Each is solved twice, one thread, after a warm-up solve: ``solve`` (the value with best
play of both, what the solver policy asks after a trick) and ``solve_leads`` (the value of
every lead, what it asks to choose a card), each with a fresh, zeroed transposition table (the
zeroing is not timed). Times are wall clock per call (``time.perf_counter_ns``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from binokel_sim.cards import N_TYPES, counts_to_planes
from binokel_sim.kernels.strict import solver as kernel
from binokel_sim.solver import card_points_of
from binokel_sim.variants import find_variant

sys.path.insert(0, str(Path(__file__).parent))
from results_file import record  # noqa: E402

HAND = 12


def positions(rules, n: int, seed: int) -> list[tuple[np.ndarray, int]]:
    """``n`` random positions: (hands uint32 (2, 4) as planes, trump)."""
    rng = np.random.default_rng(seed)
    deck = np.repeat(np.arange(N_TYPES), rules.deck_counts())
    out = []
    for _ in range(n):
        cards = rng.permutation(deck)
        counts = [np.bincount(cards[s * HAND:(s + 1) * HAND], minlength=N_TYPES)
                  for s in range(2)]
        hands = np.stack([counts_to_planes(c) for c in counts]).astype(np.uint32)
        out.append((hands, int(rng.integers(0, 4))))
    return out


def summary(ns: list[int], nodes: list[int]) -> dict:
    ms = np.array(ns, dtype=np.float64) / 1e6
    return {"median_ms": float(np.median(ms)), "p90_ms": float(np.percentile(ms, 90)),
            "p99_ms": float(np.percentile(ms, 99)), "max_ms": float(ms.max()),
            "mean_ms": float(ms.mean()), "mean_nodes": float(np.mean(nodes))}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rules = find_variant("two-hand-48")
    card_points = card_points_of(rules)
    ctx = np.zeros(kernel.CTX_SIZE, dtype=np.int64)
    table = np.zeros((1 << kernel.TT_BITS, 2), dtype=np.int64)
    values = np.empty(N_TYPES, dtype=np.int64)
    work = positions(rules, args.positions, args.seed)
    # warm-up: load (or compile) both kernels
    kernel.solve(work[0][0], work[0][1], 0, card_points, rules.last_trick, ctx, table)
    kernel.solve_leads(work[0][0], work[0][1], 0, card_points, rules.last_trick, ctx, table,
                       values)
    figures = {"variant": rules.name, "positions": args.positions, "seed": args.seed,
               "tricks": HAND, "tt_entries": 1 << kernel.TT_BITS}
    for name, call in (("solve", lambda h, t: kernel.solve(h, t, 0, card_points,
                                                            rules.last_trick, ctx, table)),
                       ("solve_leads", lambda h, t: kernel.solve_leads(
                           h, t, 0, card_points, rules.last_trick, ctx, table, values))):
        ns, nodes = [], []
        for hands, trump in work:
            table[:] = 0
            ctx[:] = 0
            start = time.perf_counter_ns()
            call(hands, trump)
            ns.append(time.perf_counter_ns() - start)
            nodes.append(int(ctx[kernel.CTX_NODES]))
        figures[name] = summary(ns, nodes)
        s = figures[name]
        print(f"{name}: median {s['median_ms']:.3f} ms, p90 {s['p90_ms']:.3f}, p99 "
              f"{s['p99_ms']:.3f}, max {s['max_ms']:.3f}; {s['mean_nodes']:,.0f} nodes on "
              f"average", flush=True)
    figures["target_median_ms"] = 1.0
    record("solver", figures)


if __name__ == "__main__":
    main()
