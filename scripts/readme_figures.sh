#!/usr/bin/env bash
# The README's figure and the report it links to: `binokel-sim report` of four-hand-80's example
# hand (200,000 deals, seed 1, the expert policy on every seat), written into
# results/report-four-hand-80/ (bid-curve.png, score.png, melds.png, total-meld.png and
# report.md, which names what made them). Those are the committed files: this replaces them.
# Give another folder to look without touching them: scripts/readme_figures.sh /tmp/report
# About ten seconds on two cores once the engine is compiled (a first run compiles it).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-results/report-four-hand-80}"
binokel-sim report --variant four-hand-80 --deals 200000 --seed 1 --policy expert --out "$out"
