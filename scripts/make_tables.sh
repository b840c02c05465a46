#!/usr/bin/env bash
# Make the published reference tables of results/tables/ with their published sizes (about a
# quarter of an hour on two idle cores; see results/README.md for what each table holds).
set -euo pipefail
cd "$(dirname "$0")/.."
python scripts/make_tables.py --tables all --seed 1 \
  --partner-deals 100000000 \
  --pair-deals 20000000 \
  --widow-hands 1000000 --workers 2 \
  --duel-deals 1000000 \
  --match-games 100000 \
  "$@"
