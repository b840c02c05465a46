"""Fit the widow-game estimates (binokel_sim/widow_value.py) and write
binokel_sim/widow_value.json.

First the estimate before the Dabb, which the heuristic bids by (``bid``): for every built-in
widow game, ``--hands`` random hands (seed ``--seed``) are each played ``--samples`` times as
soloist by bid-odds' samples (no auction; the heuristic on every seat); the counts of
``widow_value.bid_features`` of the hand (as shares of what the deck holds) and the game's widow
share predict the soloist side's total without the all-tricks bonus, as a share of the card
points; ``defence`` is a defender's mean score (seat 1's) as a share, linear in the widow share.
One fit for the games without partnerships and one for those with. These samples depend on no
fitted model.

Then the estimate after the Dabb, which the soloist gives up by (Abgehen):
for every built-in widow game, ``--deals`` heuristic deals (seed ``--seed``) are played with
Abgehen and Durch switched off (``[widow] concede = false``, ``durch = false``), so every deal
is played out and counted. For each deal the soloist's hand after burying (the cards he plays),
the trump and the buried cards give the
counts of ``widow_value.FEATURES``; the target is what the play brought his side beyond his own
meld: the side's card points plus, with partnerships, the partner's meld, as a share of the
deck's card points. One least-squares fit for the games without partnerships (``solo``), one for
those with (``pairs``); ``sd`` is the residual spread (the estimate's error), ``r2`` the share of
the variance explained. Reproducible: same seed, deals and code, same file.

The deals of the second fit are bid by the first fit's heuristic, so the file is written once
both are done (a provisional file, every weight zero, serves the runs before).

    python scripts/fit_widow_value.py --deals 40000 --hands 2000 --samples 8 --seed 7
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from model_fit import finish_model, linear_fit, write_model  # scripts/model_fit.py

from binokel_sim import __version__, widow_value
from binokel_sim.cards import N_TYPES
from binokel_sim.engines import widow as widow_engine
from binokel_sim.engines.widow import SAMPLE_FIELDS, run_play, run_samples
from binokel_sim.kernels.widow.deals import I_SOLOIST, I_TRUMP
from binokel_sim.records.widow import soloist_cards
from binokel_sim.reference.core import meld_total
from binokel_sim.variants import all_variants, builtin_toml, rules_from_dict
from binokel_sim.widow_value import (
    BID_FEATURES,
    FEATURES,
    MODEL_FILE,
    bid_denominators,
    bid_features,
    denominators,
    features,
    kind,
)

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib


def played_out(name: str):
    """The built-in variant ``name`` with Abgehen and Durch off: every deal is played and
    counted (the models estimate what counting brings)."""
    data = tomllib.loads(builtin_toml(name))
    data.setdefault("widow", {})["concede"] = False
    data["widow"]["durch"] = False
    data["widow"].pop("concede_bonus", None)  # no Abgehen, no bonus (refused otherwise)
    return rules_from_dict(data, f"{name} without Abgehen and Durch")


def rows(rules, deals: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Per deal: the features as shares (intercept first) and the target share."""
    out = run_play(rules, deals, seed, "heuristic")
    players, total = rules.players, rules.total_card_points
    shares = np.array(denominators(rules), dtype=np.float64)
    x = np.empty((deals, 1 + len(FEATURES)))
    y = np.empty(deals)
    for d in range(deals):
        soloist, trump = int(out.info[d, I_SOLOIST]), int(out.info[d, I_TRUMP])
        hand, buried = soloist_cards(out, d)
        x[d, 0] = 1.0
        x[d, 1:] = np.array(features(rules, hand, trump, buried)) / shares
        side = [soloist, (soloist + 2) % players] if rules.partnerships else [soloist]
        gain = sum(int(out.card_points[d, s]) for s in side)
        if rules.partnerships:
            gain += int(out.melds[d, side[1]])
        y[d] = gain / total
    return x, y


def bid_rows(rules, hands: int, samples: int, seed: int):
    """Per sample of ``hands`` random hands: the bid features as shares (intercept first, the
    widow share last), the target share and seat 1's score share."""
    rng = np.random.default_rng(seed)
    deck = [t for t in range(N_TYPES) for _ in range(int(rules.deck_counts()[t]))]
    total, dens = rules.total_card_points, bid_denominators(rules)
    col = {name: i for i, name in enumerate(SAMPLE_FIELDS)}
    x, y, defence = [], [], []
    for i in range(hands):
        hand = [0] * N_TYPES
        for t in rng.permutation(deck)[:rules.hand_size]:
            hand[int(t)] += 1
        melds = [int(meld_total(rules, hand, s)) for s in range(4)]
        counts = bid_features(rules, hand, melds) + [rules.widow / rules.hand_size]
        row = [1.0] + [c / d for c, d in zip(counts, dens)]
        out = run_samples(rules, np.array(hand), samples, seed + i, "heuristic", threads=1)
        for sample in out:
            x.append(row)
            y.append((sample[col["total"]] - rules.all_tricks_bonus * sample[col["bonus"]])
                     / total)
            defence.append(sample[col["opponent_score"]] / total)
    return np.array(x), np.array(y), np.array(defence)


def use_model(document: dict, path: Path) -> None:
    """Write ``document`` to ``path`` and make the package read its models from there."""
    write_model(document, path)
    widow_value.MODEL_FILE = path
    for cached in (widow_value.load_model, widow_value.weights, widow_value.bid_weights,
                   widow_value.bid_table, widow_value.concede_table,
                   widow_engine.family_tables):
        cached.cache_clear()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40_000, help="heuristic deals per variant")
    parser.add_argument("--hands", type=int, default=2_000, help="random hands per variant")
    parser.add_argument("--samples", type=int, default=8, help="samples per random hand")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=MODEL_FILE)
    args = parser.parse_args(argv)
    games = [r for r in all_variants() if r.widow and not r.talon]
    zero = {"coef": [0.0] * (1 + len(FEATURES)), "sd": 1.0, "r2": 0.0}
    zero_bid = {"coef": [0.0] * (1 + len(BID_FEATURES)), "sd": 1.0, "r2": 0.0,
                "defence": [0.0, 0.0]}
    document = {
        "provenance": {"script": "scripts/fit_widow_value.py", "version": __version__,
                       "seed": args.seed, "deals_per_variant": args.deals,
                       "hands_per_variant": args.hands, "samples_per_hand": args.samples,
                       "policy": "heuristic", "variants": [r.name for r in games]},
        "features": list(FEATURES),
        "target": "the soloist side's card points (+ the partner's meld) / the deck's card points",
        "models": {"solo": zero, "pairs": zero},
        "bid_features": list(BID_FEATURES),
        "bid_target": "the soloist side's total without the all-tricks bonus / the card points",
        "bid": {"solo": zero_bid, "pairs": zero_bid},
    }
    provisional = args.out.with_name(args.out.name + ".provisional")
    use_model(document, provisional)
    parts: dict[str, list] = {"solo": [], "pairs": []}
    for rules in games:
        print(f"{rules.name}: {args.hands:,} hands x {args.samples} samples", flush=True)
        parts[kind(rules)].append(bid_rows(played_out(rules.name), args.hands, args.samples,
                                           args.seed))
    for name, fits in parts.items():
        x = np.vstack([p[0] for p in fits])
        y = np.concatenate([p[1] for p in fits])
        shares = np.array([[1.0, p[0][0, -1]] for p in fits])
        means = np.array([p[2].mean() for p in fits])
        defence, *_ = np.linalg.lstsq(shares, means, rcond=None)
        document["bid"][name] = {**linear_fit(x, y),
                                 "defence": [round(float(d), 6) for d in defence]}
        print(f"bid, {name}: r2 {document['bid'][name]['r2']}, sd {document['bid'][name]['sd']}",
              flush=True)
    use_model(document, provisional)  # the second fit's deals are bid by the first
    data: dict[str, list] = {"solo": [], "pairs": []}
    for rules in games:
        print(f"{rules.name}: {args.deals:,} heuristic deals", flush=True)
        data[kind(rules)].append(rows(played_out(rules.name), args.deals, args.seed))
    models = {}
    for name, fits in data.items():
        x = np.vstack([p[0] for p in fits])
        y = np.concatenate([p[1] for p in fits])
        models[name] = linear_fit(x, y)
        print(f"{name}: r2 {models[name]['r2']}, sd {models[name]['sd']} of the card points",
              flush=True)
    document["models"] = models
    finish_model(document, args.out, provisional)
    return 0


if __name__ == "__main__":
    sys.exit(main())
