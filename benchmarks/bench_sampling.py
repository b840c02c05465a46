"""The sampling policy's card decisions per second (issue 11: at least 200 samples a decision in
at most 1 s on one core).

Run: python benchmarks/bench_sampling.py   (writes the "sampling" section of
results/benchmarks.json; scripts/results_doc.py quotes it in docs/results.md)

Whole deals of every variant (sections "sampling", four-hand-80, and "sampling-VARIANT") with
the sampling policy on every seat, one thread, best of five after a warm-up; a decision is a
card played when two or more card types were legal (two-hand-48: in phase 1, where the policy
samples; :func:`binokel_sim.bench.sampling_decision_rate`). Then at 128 samples on every
thread: one 8-deal block a thread (``game_blocks.SAMPLED_BLOCK``), the blocks played at once
(issue 28: decisions spread over threads; target 2,000 a second in every variant).
"""

from __future__ import annotations

import sys
from pathlib import Path

from binokel_sim.bench import all_threads, sampling_decision_rate
from binokel_sim.constants import SAMPLES_PER_MOVE
from binokel_sim.game_blocks import SAMPLED_BLOCK
from binokel_sim.variants import find_variant

sys.path.insert(0, str(Path(__file__).parent))
from results_file import record  # noqa: E402

DEALS = 4
TALON_DEALS = 16
WIDOW_DEALS = 16


def main() -> None:
    for section, name, deals in (("sampling", "four-hand-80", DEALS),
                                 ("sampling-two-hand-48", "two-hand-48", TALON_DEALS),
                                 ("sampling-three-hand-72", "three-hand-72", DEALS),
                                 ("sampling-four-hand-72", "four-hand-72", DEALS),
                                 ("sampling-three-hand-auction-48", "three-hand-auction-48",
                                  WIDOW_DEALS),
                                 ("sampling-four-hand-widow-48", "four-hand-widow-48",
                                  WIDOW_DEALS),
                                 ("sampling-swabian-3-40", "swabian-3-40", WIDOW_DEALS),
                                 ("sampling-kreuz-4-40", "kreuz-4-40", WIDOW_DEALS)):
        rules = find_variant(name)
        rows = []
        for samples in sorted({SAMPLES_PER_MOVE, 200}):
            rate = sampling_decision_rate(rules, samples, deals, 1)
            rows.append({"samples_per_move": samples, "decisions_per_s": rate,
                         "ms_per_decision": 1000 / rate})
            print(f"{name}, {samples} samples: {rate:,.0f} decisions/s "
                  f"({1000 / rate:.2f} ms each)")
        # every thread: one 8-deal block (game_blocks.SAMPLED_BLOCK) a thread at once
        n = all_threads()
        spread = sampling_decision_rate(rules, SAMPLES_PER_MOVE, SAMPLED_BLOCK * n, n)
        print(f"{name}, {SAMPLES_PER_MOVE} samples, {n} threads: {spread:,.0f} decisions/s")
        record(section, {"variant": rules.name, "deals": deals, "threads": 1, "rows": rows,
                         "all_threads": {"threads": n, "deals": SAMPLED_BLOCK * n,
                                         "samples_per_move": SAMPLES_PER_MOVE,
                                         "decisions_per_s": spread}})


if __name__ == "__main__":
    main()
