"""Fit the widow-game soloist's estimate (binokel_sim/widow_value.py) and write
binokel_sim/widow_value.json.

For every built-in widow game, ``--deals`` heuristic deals (seed ``--seed``) are played with
Abgehen switched off (``[widow] concede = false``), so every deal is played out. For each deal
the soloist's hand after burying (the cards he plays), the trump and the buried cards give the
counts of ``widow_value.FEATURES``; the target is what the play brought his side beyond his own
meld: the side's card points plus, with partnerships, the partner's meld, as a share of the
deck's card points. One least-squares fit for the games without partnerships (``solo``), one for
those with (``pairs``); ``sd`` is the residual spread (the estimate's error), ``r2`` the share of
the variance explained. Reproducible: same seed, deals and code, same file.

    python scripts/fit_widow_value.py --deals 40000 --seed 7
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path

import numpy as np

from binokel_sim import __version__
from binokel_sim.cards import N_TYPES
from binokel_sim.engines.widow import run_play
from binokel_sim.kernels.widow.deals import I_SOLOIST, I_TRUMP
from binokel_sim.variants import all_variants, builtin_toml, rules_from_dict
from binokel_sim.widow_value import FEATURES, MODEL_FILE, denominators, features, kind


def played_out(name: str):
    """The built-in variant ``name`` with Abgehen off: every deal is played."""
    data = tomllib.loads(builtin_toml(name))
    data.setdefault("widow", {})["concede"] = False
    return rules_from_dict(data, f"{name} without Abgehen")


def rows(rules, deals: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Per deal: the features as shares (intercept first) and the target share."""
    out = run_play(rules, deals, seed, "heuristic")
    players, total = rules.players, rules.total_card_points
    shares = np.array(denominators(rules), dtype=np.float64)
    x = np.empty((deals, 1 + len(FEATURES)))
    y = np.empty(deals)
    for d in range(deals):
        soloist, trump = int(out.info[d, I_SOLOIST]), int(out.info[d, I_TRUMP])
        hand = [0] * N_TYPES
        for k in range(rules.hand_size):
            position = (soloist - int(out.trick_leaders[d, k])) % players
            hand[int(out.trick_cards[d, k, position])] += 1
        buried = [0] * N_TYPES
        for t in out.buried[d]:
            buried[int(t)] += 1
        x[d, 0] = 1.0
        x[d, 1:] = np.array(features(rules, hand, trump, buried)) / shares
        side = [soloist, (soloist + 2) % players] if rules.partnerships else [soloist]
        gain = sum(int(out.card_points[d, s]) for s in side)
        if rules.partnerships:
            gain += int(out.melds[d, side[1]])
        y[d] = gain / total
    return x, y


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40_000, help="heuristic deals per variant")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=MODEL_FILE)
    args = parser.parse_args(argv)
    games = [r for r in all_variants() if r.widow and not r.talon]
    data: dict[str, list] = {"solo": [], "pairs": []}
    for rules in games:
        print(f"{rules.name}: {args.deals:,} heuristic deals", flush=True)
        data[kind(rules)].append(rows(played_out(rules.name), args.deals, args.seed))
    models = {}
    for name, parts in data.items():
        x = np.vstack([p[0] for p in parts])
        y = np.concatenate([p[1] for p in parts])
        coef, *_ = np.linalg.lstsq(x, y, rcond=None)
        residual = y - x @ coef
        models[name] = {"coef": [round(float(c), 6) for c in coef],
                        "sd": round(float(residual.std()), 6),
                        "r2": round(float(1 - residual.var() / y.var()), 4)}
        print(f"{name}: r2 {models[name]['r2']}, sd {models[name]['sd']} of the card points",
              flush=True)
    document = {
        "provenance": {"script": "scripts/fit_widow_value.py", "version": __version__,
                       "seed": args.seed, "deals_per_variant": args.deals, "policy": "heuristic",
                       "variants": [r.name for r in games]},
        "features": list(FEATURES),
        "target": "the soloist side's card points (+ the partner's meld) / the deck's card points",
        "models": models,
    }
    args.out.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
