"""Playing whole deals and games: ``duel``, ``play``, ``match``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from binokel_sim.cli.base import (
    OddsFormat, OddsFormatOpt, PolicyOpt, RulesOpt, SamplesOpt, SeedOpt, ThreadsOpt,
    VariantOpt, app, domain_errors, err, out, progress_bar, resolve_rules, source, PROGRESS_DEALS,
)
from binokel_sim.io import check_output
from enum import Enum


class PlayFormat(str, Enum):
    jsonl = "jsonl"
    json = "json"



@app.command()
def duel(
    a: Annotated[str, typer.Option("--a", help="Policy of side A (heuristic or random).")] =
    "heuristic",
    b: Annotated[str, typer.Option("--b", help="Policy of side B.")] = "random",
    variant: VariantOpt = "four-hand-80",
    rules_file: RulesOpt = None,
    deals: SamplesOpt = 100_000,
    seed: SeedOpt = 1,
    threads: ThreadsOpt = None,
    fmt: OddsFormatOpt = OddsFormat.table,
) -> None:
    """Play the same deals once for every side with A's policy on that side and B's on the others
    (two plays per deal for partnerships and two players, three for three players) and report A's
    mean score minus B's per deal, with a 95% interval.

    Example: binokel-sim duel --variant two-hand-48 --a heuristic --b random --deals 100000 --seed 1
    """
    from binokel_sim.analysis import provenance
    from binokel_sim.engines import duel as run_duel
    from binokel_sim.stats import mean_interval

    with domain_errors():
        rules = resolve_rules(variant, rules_file)
        with progress_bar(deals, "dueling") as progress:
            diff = run_duel(rules, a, b, deals, seed, threads, progress)
    mean, low, high = mean_interval(float(diff.sum()), float((diff * diff).sum()), deals)
    result = {**provenance(rules, seed=seed, a=a, b=b, **source(rules_file)), "deals": deals,
              "mean_diff": mean,
              "ci_low": low, "ci_high": high}
    if fmt is OddsFormat.json:
        print(json.dumps(result, indent=2))
        return
    out.print(f"{rules.name}, {deals:,} deals, seed {seed}: {a} minus {b} = {mean:+.2f} points "
              f"per deal (95% interval {low:+.2f} to {high:+.2f})", highlight=False)


@app.command()
def play(
    variant: VariantOpt = "four-hand-80",
    rules_file: RulesOpt = None,
    deals: SamplesOpt = 10,
    seed: SeedOpt = 1,
    policy: PolicyOpt = "heuristic",
    threads: ThreadsOpt = None,
    fmt: Annotated[PlayFormat, typer.Option(
        "--format", "-f", help="jsonl (one deal a line) or json (an array).")] = PlayFormat.jsonl,
    out_file: Annotated[Optional[Path], typer.Option(
        "--out", "-o", help="Write the records to this file instead of stdout: .jsonl (one deal "
                            "a line) or .json (an array), whatever --format says.")] = None,
) -> None:
    """Simulate whole deals and print them as records, one JSON object a deal: for four-hand-80
    the deal, auction, trump, melds, every trick and the scores; for the talon games the deal, the
    talon, every trick with its declaration and draws, and the scores. The dealer rotates: deal d
    is dealt by seat d % players.

    Example: binokel-sim play --variant two-hand-48 --deals 5 --seed 1 --format jsonl
    """
    from binokel_sim.engines import play_records
    from binokel_sim.io import write_text

    with domain_errors():
        rules = resolve_rules(variant, rules_file)
        if out_file is not None:
            check_output(out_file, suffixes=(".jsonl", ".json"))
            fmt = PlayFormat(out_file.suffix.lower().lstrip("."))  # the file's suffix decides
        with progress_bar(deals, "playing") as progress:
            records = play_records(rules, deals, seed, policy, threads, progress)
        if fmt is PlayFormat.jsonl:
            text = "".join(json.dumps(r) + "\n" for r in records)
        else:
            text = json.dumps(list(records)) + "\n"
        if out_file is not None:
            write_text(text, out_file)
    if out_file is None:
        sys.stdout.write(text)
    else:
        err.print(f"wrote {out_file}")


@app.command()
def match(
    a: Annotated[str, typer.Option("--a", help="Policy of side A (heuristic or random).")] =
    "heuristic",
    b: Annotated[str, typer.Option("--b", help="Policy of every other side.")] = "random",
    variant: VariantOpt = "two-hand-48",
    rules_file: RulesOpt = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Whole games to play.")] = 2_000,
    seed: SeedOpt = 1,
    threads: ThreadsOpt = None,
    fmt: OddsFormatOpt = OddsFormat.table,
) -> None:
    """Play whole games to the variant's target (1000 in two-hand-48, 1500 in the 72-card games,
    500 in four-hand-80) with A's policy on one side and B's on the others, the side and the
    first dealer rotating from game to game, and report how often A wins, with a 95% interval.

    Example: binokel-sim match --variant two-hand-48 --a heuristic --b random --games 10000 --seed 1
    """
    from binokel_sim.analysis import provenance
    from binokel_sim.engines import match as run_match
    from binokel_sim.engines import sides
    from binokel_sim.stats import wilson_interval

    with domain_errors():
        rules = resolve_rules(variant, rules_file)
        with progress_bar(games, "playing games", PROGRESS_DEALS // 10) as progress:
            result = run_match(rules, a, b, games, seed, threads, progress)
    finished = result[:, 0] >= 0
    n_done = int(finished.sum())
    wins = int((result[:, 0] == 1).sum())
    low, high = wilson_interval(wins, max(n_done, 1))
    n_sides = sides(rules)
    summary = {**provenance(rules, seed=seed, a=a, b=b, **source(rules_file)), "games": games,
               "target": rules.game_target, "sides": n_sides,
               "p_win_a": wins / n_done if n_done else None,
               "ci_low": float(low) if n_done else None, "ci_high": float(high) if n_done else None,
               "fair_share": 1 / n_sides, "unfinished": games - n_done,
               "mean_deals": float(result[:, 1].mean()),
               "mean_final_score_a": float(result[:, 2].mean()),
               "mean_final_score_b": float(result[:, 3].mean() / (n_sides - 1))}
    if fmt is OddsFormat.json:
        print(json.dumps(summary, indent=2))
        return
    others = "the other side" if n_sides == 2 else f"each of the other {n_sides - 1} sides"
    out.print(f"{rules.name}, {games:,} games to {rules.game_target}, seed {seed}: {a} (one side) "
              f"against {b} ({others})", highlight=False)
    if n_done:
        out.print(f"P({a} wins) = {summary['p_win_a']:.4f} (95% interval {low:.4f} to "
                  f"{high:.4f}; an even game would be {1 / n_sides:.4f})", highlight=False)
    out.print(f"mean deals per game {summary['mean_deals']:.2f}; mean final score {a} "
              f"{summary['mean_final_score_a']:.1f}, {b} {summary['mean_final_score_b']:.1f}",
              highlight=False)
    if summary["unfinished"]:
        out.print(f"{summary['unfinished']} games were still open after the deal limit and are "
                  f"not counted", highlight=False)


