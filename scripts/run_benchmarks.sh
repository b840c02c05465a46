#!/usr/bin/env bash
# Run every benchmark and refresh results/benchmarks.json (a few minutes on two cores).
# Run it on an otherwise idle machine: the figures are wall-clock throughput.
set -euo pipefail
cd "$(dirname "$0")/.."
python benchmarks/bench_melds.py
python benchmarks/bench_playout.py
python benchmarks/bench_talon.py
python benchmarks/bench_widow.py
python benchmarks/bench_records.py
python scripts/results_doc.py
