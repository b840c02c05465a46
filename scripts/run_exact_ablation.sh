#!/usr/bin/env bash
# Exact endgames in the sampling policy's play-outs (issue 55, item 2): paired duels of sampling
# whose play-outs solve the last K tricks exactly (duel --exact-tricks K) against today's
# sampling (K = 0: the heuristic to the end) and against the expert, with 32 or 128 samples a
# decision and the play's inferences on (full) or off; the same seed everywhere. The variants
# whose play-outs can be solved: four-hand-80, and phase 2 of three- and four-hand-72.
# Writes results/duels/exact/<variant>-<cell>.json; scripts/results_doc.py quotes them in
# docs/results.md. Usage: scripts/run_exact_ablation.sh [DEALS [VARIANT:CELL...]] (default
# 2000 deals and every cell below; a cell is K-OPPONENT-SAMPLES-INFERENCE, such as
# four-hand-80:3-sampling-32-full). On two cores a 32-sample cell takes 2 to 10 minutes, a
# 128-sample one about four times that.
set -euo pipefail
cd "$(dirname "$0")/.."
deals="${1:-2000}"
shift || true
cells=("$@")
if [ ${#cells[@]} -eq 0 ]; then
  for k in 2 3 4; do cells+=("four-hand-80:$k-sampling-32-full"); done
  for k in 0 3 4; do cells+=("four-hand-80:$k-expert-32-full"); done
  cells+=(four-hand-80:3-sampling-32-off four-hand-80:3-sampling-128-full)
  for v in three-hand-72 four-hand-72; do
    cells+=("$v:3-sampling-32-full" "$v:0-expert-32-full" "$v:3-expert-32-full")
  done
fi
mkdir -p results/duels/exact
for item in "${cells[@]}"; do
  variant="${item%%:*}"
  cell="${item#*:}"
  IFS=- read -r k opponent samples inference <<< "$cell"
  binokel-sim duel --variant "$variant" -a sampling -b "$opponent" --deals "$deals" --seed 1 \
    --samples-per-move "$samples" --inference "$inference" --exact-tricks "$k,0" \
    --out "results/duels/exact/$variant-$cell.json"
done
