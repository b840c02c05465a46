#!/usr/bin/env bash
# Run every benchmark and refresh results/benchmarks.json, docs/results.md and the README's
# "Speed" section (some 15 minutes on two cores). Run it on an otherwise idle machine: the
# figures are wall-clock throughput, best of five. Run it in an environment made by the README's
# first line (a user's install, without the test extras' scipy: see benchmarks/bench_startup.py).
set -euo pipefail
cd "$(dirname "$0")/.."
python benchmarks/bench_all.py       # binokel-sim bench --all: every engine, 1 and 2 threads, twins
python benchmarks/bench_startup.py   # --help, warm analyze, bid-odds 1M as commands
python benchmarks/bench_melds.py
python benchmarks/bench_playout.py
python benchmarks/bench_talon.py
python benchmarks/bench_widow.py
python benchmarks/bench_records.py
python benchmarks/bench_sampling.py  # the sampling policy's decisions per second
python benchmarks/bench_solver.py    # the endgame solver: time per 12-trick position
python benchmarks/bench_expert.py    # the expert policy: deals per second, deal-odds 1M
python scripts/results_doc.py
