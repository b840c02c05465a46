"""Merge benchmark figures into results/benchmarks.json (one section per benchmark script)."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from binokel_sim.bench import machine

RESULTS = Path(__file__).resolve().parent.parent / "results" / "benchmarks.json"


def record(section: str, figures: dict) -> None:
    data = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    data[section] = {"measured": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                     "machine": machine(), **figures}
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(data, indent=2) + "\n")


def heuristic_against_random(rules, deals: int, games: int) -> dict:
    """The duel (A minus B per deal, 95% interval) and whole games (P(A wins), Wilson 95%
    interval) of the heuristic against random, seed 1, as the benchmark sections record them."""
    from binokel_sim.contests import duel, match
    from binokel_sim.families import sides
    from binokel_sim.stats import mean_interval, wilson_interval

    diff = duel(rules, "heuristic", "random", deals, 1)
    mean, low, high = mean_interval(float(diff.sum()), float((diff * diff).sum()), diff.size)
    played = match(rules, "heuristic", "random", games, 1)
    wins = int((played[:, 0] == 1).sum())
    done = int((played[:, 0] >= 0).sum())
    lo, hi = wilson_interval(wins, done)
    return {
        "duel_heuristic_minus_random": {"deals": int(diff.size), "seed": 1, "mean_diff": mean,
                                        "ci_low": low, "ci_high": high},
        "match_heuristic_vs_random": {
            "games": int(played.shape[0]), "seed": 1, "target": rules.game_target,
            "p_win_a": wins / done, "ci_low": float(lo), "ci_high": float(hi),
            "fair_share": 1 / sides(rules), "unfinished": int(played.shape[0] - done),
            "mean_deals": float(played[:, 1].mean())},
    }
