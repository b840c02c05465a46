#!/usr/bin/env bash
# The calibration studies of issue 11: do the heuristic's bid odds come true? 20,000 whole deals of
# four-hand-80, each bid winner's p_make, then the deal played out:
#   - the forecast from 500 bid-odds samples of the other hands at random (about two minutes on
#     two cores);
#   - the forecast from 200 samples that repeat the deal's auction (--given-auction: each sample
#     is dealt again until the other seats' bidding heuristic would have made their calls; about
#     six minutes on two cores);
#   - the cross check: the plain forecast (made with the heuristic) against deals played by the
#     sampling policy on every seat (--outcome-policy sampling; about fifteen minutes).
# Writes results/calibration/<study>/{calibration.json, events.parquet, reliability.png};
# scripts/results_doc.py quotes them in docs/results.md.
set -euo pipefail
cd "$(dirname "$0")/.."
binokel-sim calibrate --variant four-hand-80 --deals 20000 --samples 500 --seed 1 \
  --policy heuristic --out results/calibration/four-hand-80 --format json > /dev/null
binokel-sim calibrate --variant four-hand-80 --deals 20000 --samples 200 --seed 1 \
  --policy heuristic --given-auction --out results/calibration/four-hand-80-given-auction \
  --format json > /dev/null
binokel-sim calibrate --variant four-hand-80 --deals 20000 --samples 500 --seed 1 \
  --policy heuristic --outcome-policy sampling \
  --out results/calibration/four-hand-80-outcome-sampling --format json > /dev/null
# issue 28: the expert (the default policy of four-hand-80) as the forecast and the outcome policy
binokel-sim calibrate --variant four-hand-80 --deals 20000 --samples 500 --seed 1 \
  --policy expert --out results/calibration/four-hand-80-expert --format json > /dev/null
# issue 52: four-hand-80's expert given the auction (its calls read with its bid_partner)
binokel-sim calibrate --variant four-hand-80 --deals 20000 --samples 200 --seed 1 \
  --policy expert --given-auction --out results/calibration/four-hand-80-expert-given-auction \
  --format json > /dev/null
# the widow games (issue 27): the plain forecast of every bidding widow game, heuristic auctions
# and play, 500 samples a forecast (about a minute each on two cores)
for v in three-hand-auction-48 four-hand-widow-48 swabian-3-40 swabian-3-40-tournament kreuz-4-40; do
  binokel-sim calibrate --variant "$v" --deals 20000 --samples 500 --seed 1 --policy heuristic \
    --out "results/calibration/$v" --format json > /dev/null
done
# issue 28: the widow games' expert (their default policy) as the forecast and the outcome policy
for v in three-hand-auction-48 four-hand-widow-48 swabian-3-40 swabian-3-40-tournament kreuz-4-40; do
  binokel-sim calibrate --variant "$v" --deals 20000 --samples 500 --seed 1 --policy expert \
    --out "results/calibration/$v-expert" --format json > /dev/null
done
# issue 52: the widow games' expert forecast given the auction (the samples repeat the deal's
# calls under the expert's bidding), 200 samples a forecast as four-hand-80's
for v in three-hand-auction-48 four-hand-widow-48 swabian-3-40 swabian-3-40-tournament kreuz-4-40; do
  binokel-sim calibrate --variant "$v" --deals 20000 --samples 200 --seed 1 --policy expert \
    --given-auction --out "results/calibration/$v-expert-given-auction" --format json > /dev/null
done
# the auctions of the bidding games, old bidding and new (docs/results.md, "Auctions")
python scripts/auction_stats.py --deals 20000 --seed 1 --out results/auctions.json > /dev/null
