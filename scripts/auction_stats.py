"""Auction statistics of the bidding games (issue 52, item 5): four-hand-80 and the widow games,
the default policy (expert) with its bidding as shipped (*new*) and as it was before issue 52
(*old*: the expert's ``bid_shift`` of then, no "weg", raising anyone's bid; in four-hand-80 the
plain ladder of the bidding heuristic). Per variant: the
share of deals in which every seat bid, of hands with best meld at most 40 before the Dabb (before
the auction in four-hand-80) that bid, of deals in which a seat raised its partner's standing bid
once both opponents had passed (partnership games), the winning bid's 10/50/90% quantiles, the
contracts made (a deal given up counts as not made), given up and set, and the Durch and Bettel
declared and made.

    python scripts/auction_stats.py --deals 20000 --seed 1 [--out results/auctions.json]

Prints a Markdown table; with ``--out`` also writes the rows as JSON with their provenance.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from numba import njit

from binokel_sim import __version__, expert_play
from binokel_sim.engines import partnership, widow
from binokel_sim.kernels.melds import score_hand
from binokel_sim.kernels.partnership.heuristic import HEURISTIC_PTUNE
from binokel_sim.kernels.strict.heuristic import HEURISTIC_TUNE
from binokel_sim.kernels.widow.deals import (
    I_BETTEL,
    I_BID,
    I_CALLS,
    I_CONCEDED,
    I_DURCH,
    I_MADE,
)
from binokel_sim.stats import wilson_interval
from binokel_sim.tables import compile_tables
from binokel_sim.variants import all_variants, find_variant

# the expert's bidding before issue 52 (expert_play.json of then): its bid_shift, no "weg"
# (bid_open 0) and raising anyone's bid (bid_partner 0); the games borrowing knobs borrow these
OLD_SHIFT = {"three-hand-auction-48": 82, "four-hand-widow-48": 51, "swabian-3-40": 62,
             "kreuz-4-40": 12}
WEAK_MELD = 40  # "a hand with no meld to speak of": the best meld at most this before the Dabb


@njit
def best_melds(hands, kt):
    """Each seat's best meld over the four trumps of its hand as dealt (int64 (deals, P))."""
    n, p = hands.shape[0], hands.shape[1]
    out = np.empty((n, p), np.int64)
    totals = np.empty(4, np.int64)
    for d in range(n):
        for s in range(p):
            score_hand(hands[d, s, 0], hands[d, s, 1], hands[d, s, 2], hands[d, s, 3], kt,
                       totals)
            out[d, s] = max(max(totals[0], totals[1]), max(totals[2], totals[3]))
    return out


def call_shares(rules, seats: np.ndarray, values: np.ndarray, n_calls: np.ndarray) -> dict:
    """From the calls of each deal: which seats bid (bool (deals, P)), and per deal whether a
    seat raised its partner's standing bid, and whether it did so once both opponents had
    passed."""
    deals, players = seats.shape[0], rules.players
    bid = np.zeros((deals, players), dtype=bool)
    raised = np.zeros(deals, dtype=bool)
    raised_out = np.zeros(deals, dtype=bool)
    for d in range(deals):
        active, holder = [True] * players, -1
        for k in range(min(int(n_calls[d]), seats.shape[1])):
            seat, value = int(seats[d, k]), int(values[d, k])
            if value < 0:
                active[seat] = False
                continue
            bid[d, seat] = True
            if rules.partnerships and holder >= 0 and holder % 2 == seat % 2:
                raised[d] = True
                raised_out[d] |= not any(active[o] for o in range(players) if o % 2 != seat % 2)
            holder = seat
    return {"bid": bid, "partner_raise": raised, "partner_raise_after_out": raised_out}


def summary(rules, bidding: str, deals: int, seed: int, calls: dict, weak: np.ndarray,
            bids: np.ndarray, made: np.ndarray, conceded: np.ndarray, durch: np.ndarray,
            bettel: np.ndarray) -> dict:
    low, high = wilson_interval(int(made.sum()), deals)
    return {"variant": rules.name, "bidding": bidding, "policy": "expert", "deals": deals,
            "seed": seed, "version": __version__,
            "p_all_bid": float(calls["bid"].all(axis=1).mean()),
            "p_weak_bid": float(calls["bid"][weak].mean()) if weak.any() else None,
            "p_partner_raise": float(calls["partner_raise"].mean()),
            "p_partner_raise_after_out": float(calls["partner_raise_after_out"].mean()),
            "bid_quantiles": [float(q) for q in np.percentile(bids, [10, 50, 90])],
            "p_made": float(made.mean()), "p_made_ci": [float(low), float(high)],
            "p_conceded": float(conceded.mean()), "p_set": float((~made & ~conceded).mean()),
            "durch": int(durch.sum()), "durch_made": int((durch & made).sum()),
            "bettel": int(bettel.sum()), "bettel_made": int((bettel & made).sum())}


def widow_row(rules, deals: int, seed: int, bidding: str) -> dict:
    played = widow.run_play(rules, deals, seed, "expert")
    info = played.info
    calls = call_shares(rules, played.bid_seats, played.bid_values, info[:, I_CALLS])
    weak = best_melds(played.hands, widow.family_tables(rules).kt) <= WEAK_MELD
    made = info[:, I_MADE] != 0
    return summary(rules, bidding, deals, seed, calls, weak, info[:, I_BID], made,
                   info[:, I_CONCEDED] != 0, info[:, I_DURCH] != 0, info[:, I_BETTEL] != 0)


def partnership_row(rules, deals: int, seed: int, bidding: str) -> dict:
    """four-hand-80 (the partnership engine: the bidding pair makes its bid when its score is
    positive; no Abgehen, Durch or Bettel)."""
    played = partnership.run_play(rules, deals, seed, "expert")
    col = {name: played.info[:, i] for i, name in enumerate(partnership.DEAL_FIELDS)}
    calls = call_shares(rules, played.bid_seats, played.bid_values, col["n_calls"])
    weak = best_melds(played.hands, compile_tables(rules).kt) <= WEAK_MELD
    score = np.where(col["bidder"] % 2 == 0, col["score_02"], col["score_13"])
    none = np.zeros(deals, dtype=bool)
    return summary(rules, bidding, deals, seed, calls, weak, col["bid"], score > 0, none,
                   none, none)


def old_bidding(rules) -> dict:
    """The expert's knobs with its bidding of before issue 52 (:data:`OLD_SHIFT`; four-hand-80:
    its one bidding knob ``bid_partner`` 0)."""
    if not rules.widow:
        fitted = expert_play.knobs(rules.name,
                                   dict(zip(expert_play.PARTNERSHIP_KNOBS, HEURISTIC_PTUNE)))
        return dict(fitted, bid_partner=0)
    fitted = expert_play.knobs(rules.name, dict(zip(expert_play.KNOBS, HEURISTIC_TUNE)))
    source = expert_play.BORROWED.get(rules.name, rules.name)
    return dict(fitted, bid_shift=OLD_SHIFT[source], bid_open=0, bid_partner=0)


def rows(deals: int, seed: int) -> list[dict]:
    out = []
    for rules in all_variants():
        if not rules.bid_ladder or rules.talon:
            continue
        measure = widow_row if rules.widow else partnership_row
        expert_play.override(rules.name, old_bidding(rules))
        widow.family_tables.cache_clear()
        try:
            out.append(measure(rules, deals, seed, "old"))
        finally:
            expert_play.override(rules.name, None)
            widow.family_tables.cache_clear()
        out.append(measure(rules, deals, seed, "new"))
    return out


def share(value: float | None) -> str:
    return "–" if value is None else f"{value:.1%}"


def table(result: list[dict]) -> list[str]:
    lines = ["| variant | bidding | all seats bid | meld ≤ 40 bid | partner raised (opponents "
             "out) | winning bid 10/50/90% | made (95% CI) | given up | set | Durch (made) | "
             "Bettel (made) |", "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in result:
        low, high = r["p_made_ci"]
        q = "/".join(f"{v:.0f}" for v in r["bid_quantiles"])
        raised = ("–" if not find_variant(r["variant"]).partnerships else
                  f"{r['p_partner_raise']:.1%} ({r['p_partner_raise_after_out']:.1%})")
        lines.append(f"| {r['variant']} | {r['bidding']} | {share(r['p_all_bid'])} | "
                     f"{share(r['p_weak_bid'])} | {raised} | {q} | {r['p_made']:.1%} "
                     f"({low:.1%} to {high:.1%}) | {r['p_conceded']:.1%} | {r['p_set']:.1%} | "
                     f"{r['durch']} ({r['durch_made']}) | {r['bettel']} ({r['bettel_made']}) |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    result = rows(args.deals, args.seed)
    print("\n".join(table(result)))
    if args.out is not None:
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
