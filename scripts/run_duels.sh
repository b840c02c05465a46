#!/usr/bin/env bash
# The stronger-play figures of issue 11, each against the heuristic as a seat-swapped duel and as
# whole games: heuristic+solver (two-hand-48: the exact solver once the talon is gone) and
# sampling (four-hand-80, the talon and the widow games: perfect-information sampling, 128 samples a
# decision), then the sampling policy's strength by samples per decision (results/duels/sweep/). Writes
# results/duels/*.json (one row each: the figures, variant, policies, seed and version);
# scripts/results_doc.py quotes them in docs/results.md. About 45 minutes on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p results/duels
binokel-sim duel --variant two-hand-48 -a heuristic+solver -b heuristic --deals 10000 --seed 1 \
  --out results/duels/duel-two-hand-48-heuristic+solver-vs-heuristic.json
binokel-sim match --variant two-hand-48 -a heuristic+solver -b heuristic --games 4000 --seed 1 \
  --out results/duels/match-two-hand-48-heuristic+solver-vs-heuristic.json
binokel-sim duel -a sampling -b heuristic --deals 4000 --seed 1 \
  --out results/duels/duel-four-hand-80-sampling-vs-heuristic.json
binokel-sim match -a sampling -b heuristic --variant four-hand-80 --games 1000 --seed 1 \
  --out results/duels/match-four-hand-80-sampling-vs-heuristic.json
binokel-sim duel --variant two-hand-48 -a sampling -b heuristic --deals 2000 --seed 1 \
  --out results/duels/duel-two-hand-48-sampling-vs-heuristic.json
binokel-sim match --variant two-hand-48 -a sampling -b heuristic --games 1000 --seed 1 \
  --out results/duels/match-two-hand-48-sampling-vs-heuristic.json
for v in three-hand-72 four-hand-72; do
  binokel-sim duel --variant "$v" -a sampling -b heuristic --deals 2000 --seed 1 \
    --out "results/duels/duel-$v-sampling-vs-heuristic.json"
  binokel-sim match --variant "$v" -a sampling -b heuristic --games 500 --seed 1 \
    --out "results/duels/match-$v-sampling-vs-heuristic.json"
done
for v in three-hand-auction-48 four-hand-widow-48 swabian-3-40 swabian-3-40-tournament kreuz-4-40; do
  binokel-sim duel --variant "$v" -a sampling -b heuristic --deals 2000 --seed 1 \
    --out "results/duels/duel-$v-sampling-vs-heuristic.json"
  binokel-sim match --variant "$v" -a sampling -b heuristic --games 2000 --seed 1 \
    --out "results/duels/match-$v-sampling-vs-heuristic.json"
done
mkdir -p results/duels/sweep
for k in 16 32 64 128 256; do
  binokel-sim duel -a sampling -b heuristic --deals 2000 --seed 7 --samples-per-move "$k" \
    --out "results/duels/sweep/sampling-$k.json"
done
for k in 16 32 64 128 256; do
  binokel-sim duel --variant three-hand-72 -a sampling -b heuristic --deals 1000 --seed 7 \
    --samples-per-move "$k" --out "results/duels/sweep/three-hand-72-sampling-$k.json"
done
for k in 16 32 64 128 256; do
  binokel-sim duel --variant three-hand-auction-48 -a sampling -b heuristic --deals 1000 \
    --seed 7 --samples-per-move "$k" \
    --out "results/duels/sweep/three-hand-auction-48-sampling-$k.json"
done
# sixty-six, its own family (docs/results.md "Sixty-six"): the heuristic against random, and
# random against itself as the sanity check
binokel-sim duel --variant sixty-six -a heuristic -b random --deals 200000 --seed 1 \
  --out results/duels/sixty-six-duel-heuristic-vs-random.json
binokel-sim duel --variant sixty-six -a random -b random --deals 200000 --seed 1 \
  --out results/duels/sixty-six-duel-random-vs-random.json
binokel-sim match --variant sixty-six -a heuristic -b random --games 20000 --seed 1 \
  --out results/duels/sixty-six-match-heuristic-vs-random.json
# sixty-six's sampling policy against its heuristic (128 samples a decision, the default)
binokel-sim duel --variant sixty-six -a sampling -b heuristic --deals 2000 --seed 1 \
  --out results/duels/sixty-six-duel-sampling-vs-heuristic.json
