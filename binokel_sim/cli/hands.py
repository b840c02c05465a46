"""Commands about hands and variants: ``variants``, ``analyze``, ``meld-odds``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from binokel_sim.cards import SUITS, CardError
from binokel_sim.cli.base import (
    OddsFormat, OddsFormatOpt, RulesOpt, SamplesOpt, SeedOpt, TableFormat, ThreadsOpt,
    VariantOpt, app, domain_errors, err, out, print_frame, progress_bar, parse_trump,
    read_hands_file, resolve_rules, source, PROGRESS_HANDS,
)
from binokel_sim.io import check_output, write_table
from binokel_sim.variants import all_variants


@app.command()
def variants(
    fmt: Annotated[OddsFormat, typer.Option("--format", "-f", help="table or json.")] =
    OddsFormat.table,
) -> None:
    """List the built-in variants: players, deck, hand size, widow/talon and meld table.

    Example: binokel-sim variants --format json
    """
    rows = [r.summary() for r in all_variants()]
    if fmt is OddsFormat.json:
        print(json.dumps(rows, indent=2))
        return
    table = Table(title="Built-in variants")
    for key in rows[0]:
        table.add_column(key)
    for row in rows:
        table.add_row(*(str(v) for v in row.values()))
    out.print(table)



def _print_analysis(result: dict) -> None:
    by_trump = result["by_trump"]
    table = Table(title=f"{result['variant']}: {' '.join(result['hand'])}", title_justify="left")
    table.add_column("meld")
    for suit in SUITS:
        table.add_column(f"trump {suit}", justify="right")
    for i, meld in enumerate(by_trump["S"]["melds"]):
        cells = []
        for suit in SUITS:
            m = by_trump[suit]["melds"][i]
            cells.append(f"{m['count']}x = {m['points']}" if m["count"] else "-")
        table.add_row(meld["name"], *cells)
    table.add_row("total", *(str(by_trump[s]["total"]) for s in SUITS), style="bold")
    table.add_row("may name", *("yes" if by_trump[s]["allowed"] else "no" for s in SUITS))
    out.print(table)
    best = result["best_trump"]
    if best is None:
        out.print("best trump: none (this hand may not name any suit)")
    else:
        out.print(f"best trump: {best} ({by_trump[best]['total']} meld)")


@app.command()
def analyze(
    hand: Annotated[Optional[str], typer.Option(
        "--hand", help="The hand, cards separated by spaces or commas (AS TS KS QS ...). Without "
                       "--hand or --hands-file the variant's built-in example hand is used.")] = None,
    hands_file: Annotated[Optional[Path], typer.Option(
        "--hands-file", help="Many hands: a text file with one hand a line, or a CSV/Parquet "
                             "file with a 'hand' column.")] = None,
    variant: VariantOpt = "four-hand-80",
    rules_file: RulesOpt = None,
    fmt: Annotated[TableFormat, typer.Option(
        "--format", "-f", help="table, json (one object, or an array for --hands-file) or "
                               "jsonl (one object a line).")] = TableFormat.table,
) -> None:
    """The melds of a hand with each suit as trump, the total per trump, which suits the hand may
    name and the best one.

    Example: binokel-sim analyze --variant two-hand-48 --hand "AS TS KS QS QS JS 9S KH QH AD JD AC" --format json
    """
    from binokel_sim.analysis import analyze_hand
    from binokel_sim.hands import parse_hand

    with domain_errors():
        rules = resolve_rules(variant, rules_file)
        if hand is not None and hands_file is not None:
            raise CardError("give --hand or --hands-file, not both")
        if hands_file is not None:
            sources = read_hands_file(hands_file)
        else:
            sources = [("--hand", hand if hand is not None else rules.example_hand)]
        results = []
        for where, text in sources:
            try:
                results.append(analyze_hand(rules, parse_hand(text, rules)))
            except CardError as exc:
                raise CardError(f"{where}: {exc}" if hands_file is not None else str(exc)) from None
    if fmt is TableFormat.jsonl:
        for result in results:
            print(json.dumps(result, ensure_ascii=False))
    elif fmt is TableFormat.json:
        print(json.dumps(results if hands_file is not None else results[0], ensure_ascii=False,
                         indent=2))
    else:
        for result in results:
            _print_analysis(result)


@app.command("meld-odds")
def meld_odds_cmd(
    variant: VariantOpt = "four-hand-80",
    rules_file: RulesOpt = None,
    deals: SamplesOpt = 1_000_000,
    seed: SeedOpt = 1,
    trump: Annotated[str, typer.Option(
        "--trump", "-t", help="Trump suit for the meld rows (S H D C). By symmetry every suit gives "
                              "the same rows; the total_meld rows use each hand's best trump.")]
    = "S",
    threads: ThreadsOpt = None,
    exact: Annotated[bool, typer.Option(
        "--exact", help="Compute the meld rows exactly by combinatorics instead of sampling.")]
    = False,
    out_file: Annotated[Optional[Path], typer.Option(
        "--out", "-o", help="Write the table to a .parquet, .csv, .json or .jsonl file, with the "
                            "seed, variant, deals and version in it.")] = None,
    fmt: OddsFormatOpt = OddsFormat.table,
) -> None:
    """How often a random hand holds each meld 0, 1, 2... times, and the distribution of its best
    total meld, with Wilson 95% intervals (or exact probabilities with --exact).

    Example: binokel-sim meld-odds --variant four-hand-80 --deals 1000000 --seed 1 --out x.parquet
    """
    from binokel_sim.analysis import exact_meld_odds, meld_odds, provenance
    from binokel_sim.simulate import check_run, set_threads

    with domain_errors():
        rules = resolve_rules(variant, rules_file)
        trump_index = parse_trump(trump)
        check_run(deals, seed)  # checked with --exact too: a bad option is never ignored
        set_threads(threads)
        if out_file is not None:
            check_output(out_file)
        if exact:
            df = exact_meld_odds(rules, trump_index)
            record = provenance(rules, method="exact", trump=SUITS[trump_index],
                                **source(rules_file))
        else:
            with progress_bar(deals, "dealing", PROGRESS_HANDS) as progress:
                df = meld_odds(rules, deals, seed, trump_index, threads, progress)
            record = provenance(rules, method="monte_carlo", seed=seed, deals=deals,
                                trump=SUITS[trump_index], **source(rules_file))
        if out_file is not None:
            write_table(df, out_file, record)
    if fmt is OddsFormat.json:
        print(json.dumps({"provenance": record, "rows": df.to_dicts()}, indent=2))
        return
    print_frame(df, record, "{:.7g}")
    if out_file is not None:
        err.print(f"wrote {out_file}")

