"""Policies against each other: ``duel`` (the same deals, sides swapped) and ``match`` (whole
games)."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from binokel_sim.cli.base import (
    RowsFormat,
    RowsFormatOpt,
    RulesOpt,
    SamplesOpt,
    SamplesPerMoveOpt,
    SchedulerOpt,
    SeedOpt,
    ThreadsOpt,
    VariantOpt,
    WorkersOpt,
    cap_deals,
    check_duration,
    check_out,
    clamp_threads,
    command,
    deliver,
    domain_errors,
    out,
    progress_bar,
    progress_threshold,
    resolve_rules,
    samples_per_move_for,
    sampling_provenance,
    source,
    warn_few,
)
from binokel_sim.cli.render import percent, percent_interval

PolicyA = Annotated[Optional[str], typer.Option(
    "--a", "-a", "--policy-a", show_default=False,
    help="Side A's policy (as --policy; default expert where it plays, else heuristic).")]
PolicyB = Annotated[str, typer.Option(
    "--b", "-b", "--policy-b", help="Side B's policy (every other side).")]
InferenceOpt = Annotated[str, typer.Option(
    "--inference", metavar="WHO",
    help="Sampling policy: whose decisions use the play's inferences: full, declarer, off.")]
ExactOpt = Annotated[Optional[str], typer.Option(
    "--exact-tricks", metavar="K[,KB]", show_default=False,
    help="Sampling policy (four-hand-80, three- and four-hand-72): solve its play-outs' "
         "last K tricks exactly (A's K, B's KB; one K for both; 0: the heuristic to the end, "
         "the default).")]
OutOpt = Annotated[Optional[Path], typer.Option(
    "--out", "-o", metavar="FILE",
    help="Write the result row (.parquet .csv .json .jsonl; - stdout).")]


def exact_pair(text: Optional[str]) -> Optional[tuple[int, int]]:
    """``--exact-tricks``: ``K`` (both sides) or ``KA,KB``, as ``(A's, B's)``; None when not
    given. The numbers' range is checked with the policies
    (:func:`~binokel_sim.engines.policies.exact_tricks_of`)."""
    if text is None:
        return None
    parts = text.split(",")
    if len(parts) > 2 or not all(p.strip().isdigit() for p in parts):
        from binokel_sim.errors import SimulationError

        raise SimulationError(f"--exact-tricks {text!r} is not K or KA,KB (whole numbers of "
                              f"tricks)")
    numbers = [int(p) for p in parts]
    return (numbers[0], numbers[-1])


def one_row(result: dict):
    """A result (flat dict) as a one-row table for ``--out`` and ``--format jsonl|csv``."""
    import polars as pl

    return pl.DataFrame([result])


@command()
def duel(
    a: PolicyA = None,
    b: PolicyB = "random",
    variant: VariantOpt = "four-hand-80",
    rules_file: RulesOpt = None,
    deals: SamplesOpt = 100_000,
    seed: SeedOpt = 1,
    threads: ThreadsOpt = None,
    out_file: OutOpt = None,
    fmt: RowsFormatOpt = RowsFormat.table,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    samples_per_move: SamplesPerMoveOpt = None,
    inference: InferenceOpt = "full",
    exact_tricks: ExactOpt = None,
) -> None:
    """Which of two play policies scores more on the same cards. Every deal is played once for
    every side with A's policy on that side and B's on the others (two plays per deal for
    partnerships and two players, three for three players); reported is A's mean score minus B's
    per deal, with a 95% interval.

    Example: binokel-sim duel -v two-hand-48 -a heuristic -b random --deals 100000
    Example: binokel-sim duel -v three-hand-72 -a expert -b heuristic -n 20000
    Example: binokel-sim duel -a sampling -b random -n 200
    Example: binokel-sim duel -a sampling -b heuristic -n 200 --inference declarer
    Example: binokel-sim duel -a sampling -b sampling -n 8 --exact-tricks 3,0
    """
    from binokel_sim.analysis import provenance
    from binokel_sim.backend import open_backend
    from binokel_sim.contests import duel_summary
    from binokel_sim.engines.policies import default_policy
    from binokel_sim.families import sides
    from binokel_sim.run_time import Work, playout_seconds

    with domain_errors():
        rules = resolve_rules(variant, rules_file)
        a = a if a is not None else default_policy(rules)
        threads = clamp_threads(threads)
        check_out(out_file, fmt)
        samples_per_move = samples_per_move_for(samples_per_move, a, b)
        exact = exact_pair(exact_tricks)
        check_duration(Work(deals, "--deals", sides(rules) * playout_seconds(
            rules, (a, b), samples_per_move)), threads, scheduler)
        with open_backend(workers, scheduler, threads) as backend, \
                progress_bar(deals, "dueling", progress_threshold(a, b)) as progress:
            summary = duel_summary(rules, a, b, deals, seed, threads, progress, backend,
                                   samples_per_move, inference, exact)
        warn_few(deals)
        mean, low, high = summary["mean_diff"], summary["ci_low"], summary["ci_high"]
        record = provenance(rules, seed=seed, a=a, b=b,
                            **sampling_provenance(samples_per_move, a, b,
                                                  inference=inference),
                            **({} if exact is None else
                               {"exact_tricks_a": exact[0], "exact_tricks_b": exact[1]}),
                            **source(rules_file))
        result = {**record, **summary}
        if deliver(one_row(result), out_file, {}, fmt, result):
            return
    inferring = "" if inference == "full" else f" (sampling's inference: {inference})"
    if exact is not None:
        inferring += f" (exact play-outs: A's last {exact[0]}, B's last {exact[1]} tricks)"
    out.print(f"{rules.name}, {deals:,} deals, seed {seed}: {a} minus {b}{inferring} = "
              f"{mean:+.2f} points per deal (95% interval {low:+.2f} to {high:+.2f})",
              highlight=False)


@command()
def match(
    a: PolicyA = None,
    b: PolicyB = "random",
    variant: VariantOpt = "two-hand-48",
    rules_file: RulesOpt = None,
    games: Annotated[int, typer.Option("--games", "-n", metavar="N",
                                       callback=lambda value: cap_deals(value, "--games"),
                                       help="Whole games to play.")] = 2_000,
    seed: SeedOpt = 1,
    threads: ThreadsOpt = None,
    out_file: OutOpt = None,
    fmt: RowsFormatOpt = RowsFormat.table,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    samples_per_move: SamplesPerMoveOpt = None,
) -> None:
    """How often policy A wins whole games against policy B. Games are played to the variant's
    target (1000 in two-hand-48, 1500 in the 72-card games, 500 in four-hand-80) with A's policy
    on one side and B's on the others, the side and the first dealer rotating from game to game;
    reported is how often A wins, with a 95% interval.

    Example: binokel-sim match -v two-hand-48 -a heuristic -b random -n 10000
    """
    from binokel_sim.analysis import provenance
    from binokel_sim.backend import open_backend
    from binokel_sim.contests import match_summary
    from binokel_sim.engines.policies import default_policy
    from binokel_sim.run_time import DEALS_PER_GAME, Work, playout_seconds

    with domain_errors():
        rules = resolve_rules(variant, rules_file)
        a = a if a is not None else default_policy(rules)
        threads = clamp_threads(threads)
        check_out(out_file, fmt)
        samples_per_move = samples_per_move_for(samples_per_move, a, b)
        check_duration(Work(games, "--games", DEALS_PER_GAME * playout_seconds(
            rules, (a, b), samples_per_move)), threads, scheduler)
        threshold = progress_threshold(a, b) // 10
        with open_backend(workers, scheduler, threads) as backend, \
                progress_bar(games, "playing games", threshold) as progress:
            figures = match_summary(rules, a, b, games, seed, threads, progress, backend,
                                    samples_per_move)
        warn_few(games, "games", "--games")
        summary = {**provenance(rules, seed=seed, a=a, b=b,
                                **sampling_provenance(samples_per_move, a, b),
                                **source(rules_file)), **figures}
        if deliver(one_row(summary), out_file, {}, fmt, summary):
            return
    n_sides, n_done = summary["sides"], summary["games"] - summary["unfinished"]
    others = "the other side" if n_sides == 2 else f"each of the other {n_sides - 1} sides"
    out.print(f"{rules.name}, {games:,} games to {rules.game_target}, seed {seed}: {a} (one side) "
              f"against {b} ({others})", highlight=False)
    if n_done:
        out.print(f"P({a} wins) = {percent(summary['p_win_a'])} (95% interval "
                  f"{percent_interval(summary['ci_low'], summary['ci_high'])}; an even game "
                  f"would be {percent(1 / n_sides)})", highlight=False)
    out.print(f"mean deals per game {summary['mean_deals']:.2f}; mean final score {a} "
              f"{summary['mean_final_score_a']:.1f}, {b} {summary['mean_final_score_b']:.1f}",
              highlight=False)
    if summary["unfinished"]:
        out.print(f"{summary['unfinished']} games were still open after the deal limit and are "
                  f"not counted", highlight=False)
