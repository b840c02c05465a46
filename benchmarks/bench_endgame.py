"""The exact endgame search of strict tricks (kernels/strict/endgame.py) per variant, from 4, 6
and 8 tricks left (issue 55: median at most 1 ms from 6 tricks left in four-hand-80 and
kreuz-4-40).

Run: python benchmarks/bench_endgame.py [--deals N] [--seed S]   (writes the "endgame" section
of results/benchmarks.json)

The positions are real: ``play --policy expert`` deals of each variant (seed S), each cut at the
start of the trick that leaves 4, 6 or 8 tricks (binokel_sim.positions; in the talon games all
in phase 2), solved for the side of the seat to lead (a seat alone against the others where
every seat plays for itself). two-hand-48's phase 2 has its own two-seat solver
(bench_solver.py). Each position is searched twice, one thread, after a warm-up, with a zeroed
transposition table (not timed): ``value`` (``endgame_value``: the exact value) and ``best``
(``endgame_best``: the value and every best card). Times are wall clock per call
(``time.perf_counter_ns``); nodes are the positions each call searched. Durch and Bettel deals
are skipped (they count tricks), as are deals without card play.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from binokel_sim.endgame import search_inputs
from binokel_sim.kernels.strict import endgame as kernel
from binokel_sim.positions import read_position
from binokel_sim.variants import find_variant

sys.path.insert(0, str(Path(__file__).parent))
from results_file import record  # noqa: E402

VARIANTS = ["four-hand-80", "kreuz-4-40", "swabian-3-40", "four-hand-widow-48",
            "three-hand-auction-48", "three-hand-72", "four-hand-72"]
LEFT = (4, 6, 8)


def deals(variant: str, n: int, seed: int) -> list[dict]:
    """``n`` expert deals of ``variant`` as play records."""
    done = subprocess.run([sys.executable, "-m", "binokel_sim.cli", "play", "--variant", variant,
                           "--deals", str(n), "--seed", str(seed), "--format", "jsonl"],
                          capture_output=True, text=True, check=True)
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def searches(rules, played: list[dict], left: int) -> list[tuple]:
    """The kernel's arguments for each deal cut where ``left`` tricks are left."""
    out = []
    for deal in played:
        tricks = deal.get("tricks") or []
        if deal.get("durch") or deal.get("bettel") or len(tricks) < left:
            continue
        position = read_position(rules, {**deal, "tricks": tricks[:len(tricks) - left]})
        hands, trick, table = search_inputs(rules, position)
        out.append((hands, trick, np.int64(left), table))
    return out


def summary(ns: list[int], nodes: list[int]) -> dict:
    ms = np.array(ns, dtype=np.float64) / 1e6
    return {"positions": len(ns), "median_ms": float(np.median(ms)),
            "p90_ms": float(np.percentile(ms, 90)), "p99_ms": float(np.percentile(ms, 99)),
            "max_ms": float(ms.max()), "median_nodes": float(np.median(nodes)),
            "mean_nodes": float(np.mean(nodes))}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", action="append", help="only these (repeatable)")
    parser.add_argument("--machine-note", help="a line on the machine's state, kept with the "
                                               "figures (docs/results.md prints it)")
    args = parser.parse_args(argv)
    scratch = kernel.endgame_scratch()
    figures: dict = {"deals": args.deals, "seed": args.seed, "policy": "expert",
                     "tt_entries": int(scratch.tt.shape[0]), "target_median_ms_6_left": 1.0}
    if args.machine_note:
        figures["machine_note"] = args.machine_note
    for variant in args.variant or VARIANTS:
        rules = find_variant(variant)
        played = deals(variant, args.deals, args.seed)
        figures[variant] = {}
        for left in LEFT:
            work = searches(rules, played, left)
            kernel.endgame_best(*work[0], scratch)  # warm-up: load (or compile) the kernels
            row = {}
            for name, call in (("value", kernel.endgame_value), ("best", kernel.endgame_best)):
                ns, nodes = [], []
                for args_ in work:
                    scratch.tt[:] = 0
                    start = time.perf_counter_ns()
                    call(*args_, scratch)
                    ns.append(time.perf_counter_ns() - start)
                    nodes.append(int(scratch.stats[kernel.STAT_NODES]))
                row[name] = summary(ns, nodes)
                s = row[name]
                print(f"{variant}, {left} tricks left, {name}: median {s['median_ms']:.3f} ms, "
                      f"p99 {s['p99_ms']:.2f}, max {s['max_ms']:.1f}; median "
                      f"{s['median_nodes']:,.0f} nodes ({s['positions']} positions)", flush=True)
            figures[variant][f"{left}_left"] = row
    record("endgame", figures)


if __name__ == "__main__":
    main()
