"""Fit the partnership games' bidding model (binokel_sim/pair_value.py) and write
binokel_sim/pair_value.json.

For four-hand-80, ``--hands`` random hands (seed ``--seed``) are each played ``--samples`` times
as the bid winner by bid-odds' samples (no auction: the hand names each suit it may name in
turn, the other 60 cards at random, the heuristic on every seat). Per hand and trump:

- ``play``: the counts of ``pair_value.FEATURES`` (as shares of what the deck holds) predict the
  pair's play (counters with the last trick, as a share of the card points); least squares,
  ``sd`` the residual spread, ``r2`` the share of the variance explained;
- ``partner_meld``: the distribution of the partner's meld with that trump, in points;

These samples depend on no fitted model. Then ``cost``, the margin a pair gives up by defending:
a pair holding the contract at bid ``b`` expects ``S(b) - O`` (its score less the defenders'
mean ``O``), a pair defending expects ``O - C`` (``C`` the holders' mean score), so it bids while
``S(b) > 2 O - C``. ``O`` and ``C`` are means over ``--deals`` whole deals (seed ``--seed``) bid
with the model itself, so the cost is a fixed point: starting from the samples' mean defence,
each round plays the deals with the current cost and moves it halfway to ``2 O - C``, until it
moves less than ``--tolerance`` points (at most ``--rounds``).

Reproducible: same seed, counts and code, same file.

    python scripts/fit_pair_value.py --hands 8000 --samples 16 --deals 20000 --seed 7
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from model_fit import finish_model, linear_fit, write_model  # scripts/model_fit.py

from binokel_sim import __version__, pair_value
from binokel_sim.cards import N_TYPES
from binokel_sim.engines.partnership import (
    DEAL_FIELDS,
    marriage_trumps,
    run_play,
    run_samples,
)
from binokel_sim.pair_value import FEATURES, MODEL_FILE, denominators, features
from binokel_sim.reference.core import meld_total
from binokel_sim.variants import find_variant

VARIANT = "four-hand-80"


def samples(rules, hands: int, n: int, seed: int):
    """Per sample: the features as shares (intercept first), the pair's play, the partner's
    meld and the defending pair's score."""
    rng = np.random.default_rng(seed)
    deck = [t for t in range(N_TYPES) for _ in range(int(rules.deck_counts()[t]))]
    dens = np.array(denominators(rules), dtype=np.float64)
    x, play, partner, defence = [], [], [], []
    for i in range(hands):
        hand = [0] * N_TYPES
        for t in rng.permutation(deck)[:rules.hand_size]:
            hand[int(t)] += 1
        trumps = marriage_trumps(rules, np.array(hand))
        if not trumps:
            continue
        out = run_samples(rules, np.array(hand), n, seed + i, "heuristic", trumps=trumps, threads=1)
        for j, t in enumerate(trumps):
            row = np.concatenate(([1.0], np.array(features(hand, t)) / dens))
            own = meld_total(rules, hand, t)
            counted = out.opp_play[:, j] >= rules.min_play
            opp = out.opp_play[:, j] + np.where(out.opp_meld[:, j] >= rules.min_meld,
                                                out.opp_meld[:, j], 0)
            x.extend([row] * n)
            play.extend(out.pair_play[:, j])
            partner.extend(out.pair_meld[:, j] - own)
            defence.extend(np.where(counted, opp, 0))
    return (np.array(x), np.array(play, dtype=np.float64), np.array(partner, dtype=np.int64),
            np.array(defence, dtype=np.float64))


def use_model(document: dict, path: Path) -> None:
    """Write ``document`` to ``path`` and make the package read its model from there."""
    write_model(document, path)
    pair_value.MODEL_FILE = path
    for cached in (pair_value.load_model, pair_value.weights, pair_value.limit_table):
        cached.cache_clear()


def holders_and_defenders(rules, deals: int, seed: int) -> tuple[float, float]:
    """``(C, O)``: the bidding pair's and the defending pair's mean score over ``deals`` whole
    heuristic deals (the model in use bids them)."""
    out = run_play(rules, deals, seed, "heuristic")
    col = {name: out.info[:, i] for i, name in enumerate(DEAL_FIELDS)}
    even = col["bidder"] % 2 == 0
    holders = np.where(even, col["score_02"], col["score_13"])
    defenders = np.where(even, col["score_13"], col["score_02"])
    return float(holders.mean()), float(defenders.mean())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=8_000, help="random hands")
    parser.add_argument("--samples", type=int, default=16, help="samples per hand and trump")
    parser.add_argument("--deals", type=int, default=20_000, help="deals a round of the cost")
    parser.add_argument("--rounds", type=int, default=20, help="most rounds of the cost")
    parser.add_argument("--tolerance", type=float, default=0.25, help="points")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=MODEL_FILE)
    args = parser.parse_args(argv)
    rules = find_variant(VARIANT)
    print(f"{VARIANT}: {args.hands:,} hands x {args.samples} samples", flush=True)
    x, play, partner, defence = samples(rules, args.hands, args.samples, args.seed)
    total = rules.total_card_points
    y = play / total
    histogram = np.bincount(partner) / partner.size
    document = {
        "provenance": {"script": "scripts/fit_pair_value.py", "version": __version__,
                       "seed": args.seed, "hands": args.hands, "samples_per_hand": args.samples,
                       "deals_per_round": args.deals, "policy": "heuristic", "variant": VARIANT,
                       "rows": int(y.size)},
        "features": list(FEATURES),
        "play": linear_fit(x, y),
        "partner_meld": [round(float(p), 6) for p in histogram],
        "cost": round(float(defence.mean()), 3),
    }
    print(f"play: r2 {document['play']['r2']}, sd {document['play']['sd']} of the card points; "
          f"partner's meld mean {partner.mean():.2f}; mean defence {document['cost']}",
          flush=True)
    provisional = args.out.with_name(args.out.name + ".provisional")
    cost = document["cost"]
    for round_ in range(args.rounds):
        use_model(document, provisional)
        holders, defenders = holders_and_defenders(rules, args.deals, args.seed)
        target = 2 * defenders - holders
        print(f"round {round_ + 1}: cost {cost:.3f}: holders {holders:.3f}, defenders "
              f"{defenders:.3f}, 2 O - C {target:.3f}", flush=True)
        if abs(target - cost) < args.tolerance:
            break
        cost = round((cost + target) / 2, 3)
        document["cost"] = cost
    else:
        raise SystemExit(f"the cost did not settle in {args.rounds} rounds")
    document["cost_fit"] = {"holders": round(holders, 3), "defenders": round(defenders, 3),
                            "rounds": round_ + 1}
    finish_model(document, args.out, provisional)
    return 0


if __name__ == "__main__":
    sys.exit(main())
