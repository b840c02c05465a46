#!/usr/bin/env bash
# The expert policy's duel table (issue 28): in every variant it plays, expert against the
# heuristic (20,000 deals) and expert against sampling (2,000 deals, 128 samples a decision),
# each deal played once per seating, seed 11 (deals the fit, on seed 1, never saw); sampling
# against the heuristic is run_duels.sh's.
# Writes results/duels/duel-<variant>-expert-vs-<policy>.json; scripts/results_doc.py quotes them
# in docs/results.md. About 30 minutes on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p results/duels
for v in two-hand-48 three-hand-72 four-hand-72 four-hand-80 three-hand-auction-48 \
    four-hand-widow-48 swabian-3-40 swabian-3-40-tournament kreuz-4-40; do
  binokel-sim duel --variant "$v" -a expert -b heuristic --deals 20000 --seed 11 \
    --out "results/duels/duel-$v-expert-vs-heuristic.json"
done
for v in two-hand-48 three-hand-72 four-hand-72 four-hand-80 three-hand-auction-48 \
    four-hand-widow-48 swabian-3-40 swabian-3-40-tournament kreuz-4-40; do
  binokel-sim duel --variant "$v" -a expert -b sampling --deals 2000 --seed 11 \
    --out "results/duels/duel-$v-expert-vs-sampling.json"
done
