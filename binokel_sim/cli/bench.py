"""``bench``: throughput on this machine, of the meld kernel for one variant or (``--all``) of
every engine beside its pure-Python twin."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from binokel_sim.cli.base import (
    RowsFormat,
    RowsFormatOpt,
    RulesOpt,
    ThreadsOpt,
    VariantOpt,
    cap_deals,
    check_out,
    clamp_threads,
    command,
    deliver,
    domain_errors,
    given,
    out,
    progress_bar,
    resolve_rules,
    warn,
)
from binokel_sim.cli.render import Column, rate, ratio
from binokel_sim.cli.render import table as render_table
from binokel_sim.errors import SimulationError


@command()
def bench(
    variant: VariantOpt = "four-hand-80",
    rules_file: RulesOpt = None,
    deals: Annotated[int, typer.Option("--deals", "-n", callback=lambda value: cap_deals(value),
                                       help="Hands per timed run.")] = 4_000_000,
    threads: ThreadsOpt = None,
    reference: Annotated[bool, typer.Option(
        "--reference/--no-reference", help="Also time the pure-Python twin.")]
    = True,
    every: Annotated[bool, typer.Option(
        "--all", help="Every engine beside its twin (minutes).")] = False,
    scale: Annotated[float, typer.Option(
        "--scale", min=0.0001, max=10.0,
        help="With --all: this fraction of the work (0.1: quick; at most 10, under an hour).")]
    = 1.0,
    fmt: RowsFormatOpt = RowsFormat.table,
    out_file: Annotated[Optional[Path], typer.Option(
        "--out", "-o", metavar="FILE",
        help="With --all: write the rows (.parquet .csv .json .jsonl).")] = None,
) -> None:
    """Measure speed on this machine: dealing and meld counting for one variant, or every
    engine with --all (a few minutes; scripts/run_benchmarks.sh runs it for the README). Each
    figure is the best of five runs after a warm-up, without process start-up.

    Example: binokel-sim bench --variant four-hand-80 --deals 1000000 --threads 2
    """
    from binokel_sim.simulate import check_run, set_threads

    with domain_errors():
        if every:
            if given("variant") or given("rules_file") or given("deals") or given("reference"):
                raise SimulationError("--all measures every variant with its own work; drop "
                                      "--variant, --rules, --deals and --reference")
            check_out(out_file, fmt)
            n = set_threads(clamp_threads(threads))
            _bench_all(n, scale, fmt, out_file)
            return
        if given("scale") or given("fmt") or given("out_file"):
            raise SimulationError("--scale, --format and --out go with --all")
        rules = resolve_rules(variant, rules_file)
        check_run(deals, 0)
        n = set_threads(clamp_threads(threads))
        _bench_melds(rules, deals, n, reference)


def _bench_melds(rules, deals: int, n: int, reference: bool) -> None:
    from rich.table import Table

    from binokel_sim.bench import deal_rate, meld_rate, reference_meld_rate

    rows = [("hands dealt / s", deal_rate(rules, deals, n)),
            ("hands dealt + all melds, all trumps / s", meld_rate(rules, deals, n))]
    if reference:
        # the twin is slow: 20,000 hands at most (no more than the timed runs')
        ref = reference_meld_rate(rules, min(deals, 20_000))
        rows.append(("pure-Python reference, same work / s (1 thread)", ref))
        rows.append(("speed-up over the reference", rows[1][1] / ref))
    table = Table(title=f"{rules.name}, {n} thread(s), {deals:,} hands per run",
                  title_justify="left")
    table.add_column("measure")
    table.add_column("value", justify="right")
    for name, value in rows:
        table.add_row(name, f"{value:,.0f}")
    out.print(table)


def _bench_all(threads: int, scale: float, fmt: RowsFormat, out_file: Optional[Path]) -> None:
    import polars as pl

    from binokel_sim import __version__
    from binokel_sim.bench import machine
    from binokel_sim.bench_table import legend, measures, run_table

    if threads < 2:
        warn("--threads 1: the all-threads column is left empty")
    with progress_bar(len(measures()), "measuring", threshold=0) as progress:
        rows = run_table(threads, scale, progress)
    record = {"command": "bench --all", "version": __version__, "threads": threads,
              "scale": scale, **machine()}
    document = {"provenance": record, "rows": rows}
    if deliver(pl.DataFrame(rows), out_file, record, fmt, document):
        return
    many = f"{threads} threads" if threads > 1 else "all threads"
    columns = [Column("engine", "engine", numeric=False),
               Column("variant", "variant", numeric=False,
                      min_width=max(len(r["variant"]) for r in rows)),
               Column("per_s_1_thread", "1 thread", rate),
               Column("per_s_all_threads", many, rate), Column("twin_per_s", "twin", rate),
               Column("ratio", "ratio", ratio)]
    out.print(render_table(rows, columns, title=f"binokel-sim {__version__}: items per second, "
                                                f"best of five"))
    for line in legend():
        out.print(line, highlight=False)
    out.print("twin: the pure-Python twin doing the same work on 1 thread; ratio: the engine's "
              "best rate over the twin's.", highlight=False)
