#!/usr/bin/env bash
# The inference ablation of the sampling policy (issue 28, like the Skat literature's): sampling
# against the heuristic with its deals respecting what the play told the table (voids, no trump,
# must-head) for every seat's decisions (full), only the declarer's (the bid winner, the widow
# games' soloist) or nobody's (off); the same deals and seed for the three, 128 samples a
# decision. Writes results/duels/ablation/<variant>-<inference>.json; scripts/results_doc.py
# quotes them in docs/results.md. Usage: scripts/run_ablation.sh [DEALS [VARIANT...]]
# (default 2000 deals; four-hand-80 and the widow games, then three- and four-hand-72 with off
# and full only: the talon games have no bid winner, and `duel` refuses `declarer` there; in
# two-hand-48 sampling infers nothing). About 30 minutes on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
deals="${1:-2000}"
shift || true
variants=("$@")
talon=()
if [ ${#variants[@]} -eq 0 ]; then
  variants=(four-hand-80 three-hand-auction-48 four-hand-widow-48 swabian-3-40 kreuz-4-40)
  talon=(three-hand-72 four-hand-72)
fi
mkdir -p results/duels/ablation
run() {  # variant, inference
  binokel-sim duel --variant "$1" -a sampling -b heuristic --deals "$deals" --seed 1 \
    --inference "$2" --out "results/duels/ablation/$1-$2.json"
}
for v in "${variants[@]}"; do
  for i in off declarer full; do run "$v" "$i"; done
done
for v in "${talon[@]}"; do
  for i in off full; do run "$v" "$i"; done
done
