"""How often a hand one step from a sure Durch takes every trick (issue 52, Durch by probability;
docs/rules.md "Widow games", "Policies", *Durch*).

For every deal of ``--deals`` expert deals (stream ``--seed``) that was counted (no Durch, no
Abgehen, no demand), the soloist's hand after burying is classed by what a Durch would risk, from
the cards the other seats hold between them (his partner's among them): ``losers``, the tricks he
would lose leading every suit from the top (per suit ``min(n, m)`` less his cards at or above
their highest), and ``first``, the suits in which he could not head a first lead that is not his
(0 when he leads). ``(0, 0)`` is a sure Durch, which the policies declare already. Each other
class with ``losers + first <= 2`` is then played as a Durch by the twin (the soloist's top
card, every other seat the heuristic's) and the share that takes every trick printed. These are
the expert's deals with its knob ``durch_worlds`` at 0 (a sure Durch only).

Then the expert's Durch by play-outs (knob ``durch_worlds``, docs/rules.md "Policies",
*Durch*) against the sure Durch only, on the same deals (a paired comparison): the Durch
declared and made with each, and what the play-outs' Durch gained the soloist over counting
those deals, a deal of the whole run and a Durch added, with 95% intervals.

    python scripts/durch_odds.py --variant kreuz-4-40 --deals 20000 --seed 1 \
        [--out results/durch.json]

With ``--out`` the comparison is also kept (one entry per variant, with its provenance) for
docs/results.md (scripts/results_doc.py).
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

from binokel_sim import __version__, expert_play
from binokel_sim.cards import N_RANKS, N_SUITS, N_TYPES, counts_of, parse_cards
from binokel_sim.constants import NO_TRUMP
from binokel_sim.engines import widow as widow_games
from binokel_sim.engines.widow import run_play
from binokel_sim.records.widow import records
from binokel_sim.reference import widow as twin
from binokel_sim.reference.widow_policy import expert_knobs
from binokel_sim.stats import mean_interval
from binokel_sim.variants import find_variant


def risk(hand: list[int], others: list[int], leads: bool) -> tuple[int, int]:
    """``(losers, first)`` of a Durch with ``hand`` against ``others`` (module docstring)."""
    losers = first = 0
    for suit in range(N_SUITS):
        mine = [hand[suit * N_RANKS + r] for r in range(N_RANKS)]
        theirs = [others[suit * N_RANKS + r] for r in range(N_RANKS)]
        n, m = sum(mine), sum(theirs)
        if m == 0:
            continue
        top_out = max(r for r in range(N_RANKS) if theirs[r])
        if n:
            losers += max(0, min(n, m) - sum(mine[top_out:]))
        if not leads and (n == 0 or max(r for r in range(N_RANKS) if mine[r]) <= top_out):
            first += 1
    return losers, first


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="kreuz-4-40")
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="also keep the comparison in this JSON file")
    args = parser.parse_args(argv)
    rules = find_variant(args.variant)
    with_odds = list(records(run_play(rules, args.deals, args.seed, "expert")))
    expert_play.override(rules.name, {**expert_knobs(rules), "durch_worlds": 0})
    widow_games.family_tables.cache_clear()
    try:
        sure_only = list(records(run_play(rules, args.deals, args.seed, "expert")))
    finally:
        expert_play.override(rules.name, None)
        widow_games.family_tables.cache_clear()
    counted = defaultdict(lambda: [0, 0])
    for rec in sure_only:
        if rec["conceded"] or rec["durch"] or rec["demand"] is not None:
            continue
        solo = rec["soloist"]
        hands = [list(counts_of(parse_cards(h))) for h in rec["hands"]]
        widow, buried = counts_of(parse_cards(rec["widow"])), counts_of(parse_cards(rec["buried"]))
        hands[solo] = [h + w - b for h, w, b in zip(hands[solo], widow, buried)]
        others = [sum(hands[s][t] for s in range(rules.players) if s != solo)
                  for t in range(N_TYPES)]
        leads = (rules.first_leader != "non_dealer"
                 or (rec["dealer"] + 1) % rules.players == solo)
        losers, first = risk(hands[solo], others, leads)
        if (losers, first) == (0, 0) or losers + first > 2:
            continue
        seats = ["heuristic"] * rules.players
        seats[solo] = twin.TOP
        leader = (rec["dealer"] + 1) % rules.players if rules.first_leader == "non_dealer" \
            else solo
        tricks = twin.play_tricks(rules, hands, leader, NO_TRUMP, None, seats, soloist=solo)
        side = [s for s in range(rules.players)
                if (s % 2 == solo % 2 if rules.partnerships else s == solo)]
        counted[(losers, first)][0] += 1
        counted[(losers, first)][1] += all(t.winner in side for t in tricks)
    print(f"{rules.name}, {args.deals:,} expert deals, seed {args.seed}: hands one or two steps "
          f"from a sure Durch, played as a Durch")
    print("| losers leading | first leads he cannot head | deals | share of deals | "
          "every trick taken |")
    print("|---:|---:|---:|---:|---:|")
    for (losers, first), (n, made) in sorted(counted.items()):
        print(f"| {losers} | {first} | {n} | {n / args.deals:.2%} | {made} ({made / n:.0%}) |")
    print()
    row = compare(with_odds, sure_only, args.deals)
    if args.out:
        kept = json.loads(args.out.read_text()) if args.out.exists() else {}
        kept[rules.name] = {**row, "deals": args.deals, "seed": args.seed,
                            "version": __version__, "date": datetime.date.today().isoformat(),
                            "command": f"python scripts/durch_odds.py --variant {rules.name} "
                                       f"--deals {args.deals} --seed {args.seed}"}
        args.out.write_text(json.dumps(kept, indent=1, sort_keys=True) + "\n")
    return 0


def compare(with_odds: list[dict], sure_only: list[dict], deals: int) -> dict:
    """The play-outs' Durch against the sure one only, deal for deal (module docstring),
    printed and returned."""
    row: dict = {}
    print("| expert's Durch | declared | share of deals | made |")
    print("|---|---:|---:|---:|")
    for name, recs in (("sure only (durch_worlds 0)", sure_only),
                       ("by play-outs (as shipped)", with_odds)):
        declared = [r for r in recs if r["durch"]]
        made = sum(r["made"] for r in declared)
        row["sure" if "sure" in name else "playouts"] = {"declared": len(declared),
                                                         "made": made}
        print(f"| {name} | {len(declared)} | {len(declared) / deals:.2%} | {made} "
              f"({made / max(1, len(declared)):.0%}) |")
    gain = np.array([a["scores"][a["soloist"]] - b["scores"][b["soloist"]]
                     for a, b in zip(with_odds, sure_only)], dtype=float)
    added = np.array([a["durch"] and not b["durch"] for a, b in zip(with_odds, sure_only)])
    for key, name, values in (("gain_deal", "a deal", gain),
                              ("gain_added", "a Durch added", gain[added])):
        mean, low, high = mean_interval(values.sum(), (values ** 2).sum(), len(values))
        print(f"soloist's gain {name}: {mean:+.2f} (95% CI {low:+.2f} .. {high:+.2f}, "
              f"{len(values):,} deals)")
        row[key] = {"mean": round(mean, 2), "ci95": [round(low, 2), round(high, 2)],
                    "n": len(values)}
    return row


if __name__ == "__main__":
    sys.exit(main())
