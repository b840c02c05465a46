#!/usr/bin/env bash
# The calibration study of issue 11: do the heuristic's bid odds come true? 20,000 whole deals of
# four-hand-80, each bid winner's p_make from 500 bid-odds samples, then the deal played out (about
# two minutes on two cores). Writes results/calibration/four-hand-80/{calibration.json,
# events.parquet, reliability.png}; scripts/results_doc.py quotes it in docs/results.md.
set -euo pipefail
cd "$(dirname "$0")/.."
binokel-sim calibrate --variant four-hand-80 --deals 20000 --samples 500 --seed 1 \
  --out results/calibration/four-hand-80 --format json > /dev/null
