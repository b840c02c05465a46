"""``bench``: dealing and meld-counting speed on this machine."""

from typing import Annotated

import typer
from rich.table import Table

from binokel_sim.cli.base import (
    RulesOpt,
    ThreadsOpt,
    VariantOpt,
    clamp_threads,
    command,
    domain_errors,
    out,
    resolve_rules,
)


@command()
def bench(
    variant: VariantOpt = "four-hand-80",
    rules_file: RulesOpt = None,
    deals: Annotated[int, typer.Option("--deals", "-n", help="Hands per timed run.")] = 4_000_000,
    threads: ThreadsOpt = None,
    reference: Annotated[bool, typer.Option(
        "--reference/--no-reference", help="Also time the pure-Python reference (20,000 hands).")]
    = True,
) -> None:
    """Measure dealing and meld-counting speed on this machine (the full benchmarks, which also
    write results/benchmarks.json, are in benchmarks/).

    Example: binokel-sim bench --variant four-hand-80 --deals 4000000 --threads 2
    """
    from binokel_sim.bench import deal_rate, meld_rate, reference_meld_rate
    from binokel_sim.simulate import check_run, set_threads

    with domain_errors():
        rules = resolve_rules(variant, rules_file)
        check_run(deals, 0)
        n = set_threads(clamp_threads(threads))
        rows = [("hands dealt / s", deal_rate(rules, deals, n)),
                ("hands dealt + all melds, all trumps / s", meld_rate(rules, deals, n))]
        if reference:
            ref = reference_meld_rate(rules, 20_000)
            rows.append(("pure-Python reference, same work / s (1 thread)", ref))
            rows.append(("speed-up over the reference", rows[1][1] / ref))
    table = Table(title=f"{rules.name}, {n} thread(s), {deals:,} hands per run",
                  title_justify="left")
    table.add_column("measure")
    table.add_column("value", justify="right")
    for name, value in rows:
        table.add_row(name, f"{value:,.0f}")
    out.print(table)

