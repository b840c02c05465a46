"""Auction statistics of the bidding games under the heuristic (issue 27, item 5): four-hand-80
and the widow games. How often all pass and the dealer is forced to play at the minimum, how
often the soloist (the bidding pair in four-hand-80) makes his contract (and gives up, Abgehen,
in the widow games), the median bid and how often it is above the minimum.

    python scripts/auction_stats.py --deals 20000 --seed 1 [--out results/auctions.json]

Prints a Markdown table; with ``--out`` also writes the rows as JSON with their provenance.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from binokel_sim import __version__
from binokel_sim.engines.widow import run_play
from binokel_sim.kernels.widow.deals import I_BID, I_CALLS, I_CONCEDED, I_MADE, I_SOLOIST
from binokel_sim.stats import wilson_interval
from binokel_sim.variants import all_variants, find_variant


def auction_row(rules, deals: int, seed: int, policy: str) -> dict:
    played = run_play(rules, deals, seed, policy)
    info = played.info
    minimum = rules.bid_ladder[0][0]
    calls = info[:, I_CALLS]
    width = played.bid_values.shape[1]
    made_call = (played.bid_values >= 0) & (np.arange(width)[None, :] < calls[:, None])
    forced = ~made_call.any(axis=1)
    made = info[:, I_MADE] != 0
    conceded = info[:, I_CONCEDED] != 0
    bids = info[:, I_BID]
    soloist = info[:, I_SOLOIST]
    score = played.scores[np.arange(deals), soloist]
    low, high = wilson_interval(int(made.sum()), deals)
    return {"variant": rules.name, "policy": policy, "deals": deals, "seed": seed,
            "version": __version__,
            "p_forced_at_minimum": float(forced.mean()),
            "p_made": float(made.mean()), "p_made_ci": [float(low), float(high)],
            "p_conceded": float(conceded.mean()),
            "p_set": float((~made & ~conceded).mean()),
            "median_bid": float(np.median(bids)), "minimum_bid": minimum,
            "p_bid_above_minimum": float((bids > minimum).mean()),
            "mean_soloist_score": float(score.mean())}


def partnership_row(rules, deals: int, seed: int, policy: str) -> dict:
    """:func:`auction_row` for four-hand-80 (the partnership engine: the bidding pair makes its
    bid when its score is positive; there is no Abgehen)."""
    from binokel_sim.engines.partnership import DEAL_FIELDS
    from binokel_sim.engines.partnership import run_play as run_partnership

    played = run_partnership(rules, deals, seed, policy)
    col = {name: played.info[:, i] for i, name in enumerate(DEAL_FIELDS)}
    width = played.bid_values.shape[1]
    calls = col["n_calls"]
    made_call = (played.bid_values >= 0) & (np.arange(width)[None, :] < calls[:, None])
    bidder_pair = col["bidder"] % 2
    score = np.where(bidder_pair == 0, col["score_02"], col["score_13"])
    made = score > 0
    bids = col["bid"]
    minimum = rules.bid_ladder[0][0]
    low, high = wilson_interval(int(made.sum()), deals)
    return {"variant": rules.name, "policy": policy, "deals": deals, "seed": seed,
            "version": __version__,
            "p_forced_at_minimum": float((~made_call.any(axis=1)).mean()),
            "p_made": float(made.mean()), "p_made_ci": [float(low), float(high)],
            "p_conceded": 0.0, "p_set": float((~made).mean()),
            "median_bid": float(np.median(bids)), "minimum_bid": minimum,
            "p_bid_above_minimum": float((bids > minimum).mean()),
            "mean_soloist_score": float(score.mean())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", default="heuristic")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    rows = [partnership_row(find_variant("four-hand-80"), args.deals, args.seed, args.policy)]
    rows += [auction_row(r, args.deals, args.seed, args.policy) for r in all_variants()
             if r.widow and not r.talon]
    print("| variant | dealer forced at the minimum | contracts made (95% CI) | given up | set | "
          "median bid (minimum) | bids above the minimum | soloist's mean score |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        low, high = r["p_made_ci"]
        print(f"| {r['variant']} | {r['p_forced_at_minimum']:.1%} | {r['p_made']:.1%} "
              f"({low:.1%} to {high:.1%}) | {r['p_conceded']:.1%} | {r['p_set']:.1%} | "
              f"{r['median_bid']:.0f} ({r['minimum_bid']}) | {r['p_bid_above_minimum']:.1%} | "
              f"{r['mean_soloist_score']:+.1f} |")
    if args.out is not None:
        args.out.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
