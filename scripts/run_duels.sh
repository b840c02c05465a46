#!/usr/bin/env bash
# The stronger-play figures of issue 11: heuristic+solver (two-hand-48: the exact solver once the
# talon is gone) against the heuristic, as a seat-swapped duel and as whole games to 1000. Writes
# results/duels/*.json (one row each: the figures, variant, policies, seed and version);
# scripts/results_doc.py quotes them in docs/results.md. About four minutes on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p results/duels
binokel-sim duel --variant two-hand-48 -a heuristic+solver -b heuristic --deals 10000 --seed 1 \
  --out results/duels/duel-two-hand-48-heuristic+solver-vs-heuristic.json
binokel-sim match --variant two-hand-48 -a heuristic+solver -b heuristic --games 4000 --seed 1 \
  --out results/duels/match-two-hand-48-heuristic+solver-vs-heuristic.json
