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
# the talon games have no bid winner: `duel` refuses --inference declarer there
no_declarer=(three-hand-72 four-hand-72)
if [ ${#variants[@]} -eq 0 ]; then
  variants=(four-hand-80 three-hand-auction-48 four-hand-widow-48 swabian-3-40 kreuz-4-40
            "${no_declarer[@]}")
fi
mkdir -p results/duels/ablation
for v in "${variants[@]}"; do
  inferences=(off declarer full)
  if [[ " ${no_declarer[*]} " == *" $v "* ]]; then inferences=(off full); fi
  for i in "${inferences[@]}"; do
    binokel-sim duel --variant "$v" -a sampling -b heuristic --deals "$deals" --seed 1 \
      --inference "$i" --out "results/duels/ablation/$v-$i.json"
  done
done
