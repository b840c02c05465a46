"""Every engine in one table: ``binokel-sim bench --all``'s rows at scale 1.

Run: python benchmarks/bench_all.py   (writes the "all" section of results/benchmarks.json; the
README's "Speed" section and docs/results.md are written from it by scripts/results_doc.py)

Each row is items per second, best of five after a warm-up, on 1 thread and on all threads, with
the pure-Python twin's rate on one thread where the engine has a twin (binokel_sim/bench_table.py
says what each row times).
"""

from __future__ import annotations

import sys
from pathlib import Path

from binokel_sim.bench import all_threads
from binokel_sim.bench_table import run_table

sys.path.insert(0, str(Path(__file__).parent))
from results_file import record  # noqa: E402


def main() -> None:
    threads = all_threads()

    def progress(done: int, total: int) -> None:
        print(f"  {done}/{total}", file=sys.stderr, flush=True)

    record("all", {"threads": threads, "rows": run_table(threads, 1.0, progress)})


if __name__ == "__main__":
    main()
