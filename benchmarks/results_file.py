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


def deal_odds_seconds(policy: str, cli_args: list[str]) -> dict:
    """``deal-odds`` on two-hand-48's example hand with 1,000,000 samples on all threads, numba
    cache warm: the best of five in process with ``policy`` and the best of three as the command
    ``binokel-sim deal-odds --deals 1000000 *cli_args``."""
    import subprocess
    import sys
    import time

    from binokel_sim.cards import parse_card
    from binokel_sim.hands import parse_hand
    from binokel_sim.odds.talon import deal_odds
    from binokel_sim.variants import find_variant

    rules = find_variant("two-hand-48")
    counts = parse_hand(rules.example_hand, rules)
    turned = parse_card(rules.example_turned)
    deal_odds(rules, counts, turned, "elder", 2_000, 1, policy)  # warm
    times = []
    for _ in range(5):
        start = time.perf_counter()
        deal_odds(rules, counts, turned, "elder", 1_000_000, 1, policy)
        times.append(time.perf_counter() - start)
    cmd = [sys.executable, "-m", "binokel_sim.cli", "deal-odds", "--deals", "1000000", *cli_args]
    cli = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        cli.append(time.perf_counter() - start)
    return {"variant": rules.name, "in_process": min(times), "cli": min(cli)}


def bid_odds_seconds(policy: str, cli_args: list[str]) -> dict:
    """``bid-odds`` on four-hand-80's example hand (every marriage trump) with 1,000,000 samples
    on all threads, numba cache warm: the best of five in process with ``policy`` and the best
    of three as the command ``binokel-sim bid-odds --deals 1000000 --seed 1 *cli_args``."""
    import subprocess
    import sys
    import time

    from binokel_sim.hands import parse_hand
    from binokel_sim.odds.partnership import bid_odds
    from binokel_sim.variants import find_variant

    rules = find_variant("four-hand-80")
    counts = parse_hand(rules.example_hand, rules)
    bid_odds(rules, counts, 2_000, 1, policy)  # warm
    times = []
    for _ in range(5):
        start = time.perf_counter()
        result = bid_odds(rules, counts, 1_000_000, 1, policy)
        times.append(time.perf_counter() - start)
    cmd = [sys.executable, "-m", "binokel_sim.cli", "bid-odds", "--deals", "1000000", "--seed",
           "1", *cli_args]
    cli = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        cli.append(time.perf_counter() - start)
    return {"variant": rules.name, "policy": policy, "in_process": min(times), "cli": min(cli),
            "trumps": list(result["by_trump"])}
