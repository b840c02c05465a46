"""Commands about hands: ``analyze``, ``meld-odds``."""

from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from binokel_sim.cli.base import (
    PROGRESS_HANDS,
    CardNotation,
    CardsOpt,
    RowsFormat,
    RowsFormatOpt,
    RulesOpt,
    SamplesOpt,
    SchedulerOpt,
    SeedOpt,
    ThreadsOpt,
    VariantOpt,
    WorkersOpt,
    bad_row,
    cards_provenance,
    check_out,
    check_duration,
    clamp_threads,
    command,
    deliver,
    domain_errors,
    given,
    out,
    parse_trump,
    print_json,
    print_rows,
    progress_bar,
    read_hands_file,
    resolve_rules,
    shown_cards,
    source,
    warn,
    warn_few,
    write_out,
)
from binokel_sim.cli.render import (
    Column,
    integer,
    percent,
    percent_interval,
    provenance_line,
)
from binokel_sim.cli.render import table as render_table
from binokel_sim.errors import CardError

OutOpt = Annotated[Optional[Path], typer.Option(
    "--out", "-o", metavar="FILE",
    help="Write the rows (.parquet .csv .json .jsonl; - stdout).")]


class AnalyzeFormat(str, Enum):
    table = "table"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"


def _print_analysis(result: dict) -> None:
    by_trump = result["by_trump"]
    suits = list(by_trump)  # S H D C, as the --cards notation names them
    rows = []
    for i, meld in enumerate(by_trump[suits[0]]["melds"]):
        row = {"meld": meld["name"]}
        for suit in suits:
            m = by_trump[suit]["melds"][i]
            row[suit] = f"{m['count']}x = {m['points']}" if m["count"] else "-"
        rows.append(row)
    rows.append({"meld": "total", **{s: str(by_trump[s]["total"]) for s in suits}})
    rows.append({"meld": "may name", **{s: "yes" if by_trump[s]["allowed"] else "no"
                                        for s in suits}})
    columns = [Column("meld", "meld", numeric=False)] + [Column(s, f"trump {s}") for s in suits]
    out.print(f"{result['variant']}: {' '.join(result['hand'])}", highlight=False)
    out.print(render_table(rows, columns))
    best = result["best_trump"]
    if best is None:
        out.print("best trump: none (this hand may not name any suit)")
    else:
        out.print(f"best trump: {best} ({by_trump[best]['total']} meld)")


@command()
def analyze(
    hand: Annotated[Optional[str], typer.Option(
        "--hand", metavar="CARDS",
        help="The hand, e.g. \"AS TS KS\" (default: the example hand).")] = None,
    hands_file: Annotated[Optional[Path], typer.Option(
        "--hands-file", metavar="FILE",
        help="Many hands: one a line (- stdin), or CSV/Parquet with 'hand'.")] = None,
    strict: Annotated[bool, typer.Option(
        "--strict", help="Stop at the first bad line (default: name it, go on).")] = False,
    variant: VariantOpt = "four-hand-80",
    rules_file: RulesOpt = None,
    fmt: Annotated[AnalyzeFormat, typer.Option(
        "--format", "-f", metavar="FORMAT", help="table, json, jsonl or csv.")]
    = AnalyzeFormat.table,
    out_file: OutOpt = None,
    cards: CardsOpt = CardNotation.french,
) -> None:
    """The melds of a hand with each suit as trump, the total per trump, which suits the hand may
    name and the best one. With --hands-file a bad line is named on stderr and the others are
    analyzed (as batch does; --strict stops at it). More: docs/commands.md.

    Example: echo "AS TS KS QS QS JS 9S KH QH AD JD AC" > hands.txt
    Example: binokel-sim analyze -v binokel-2 --hands-file hands.txt -f jsonl
    Example: binokel-sim analyze --format json
    Example: binokel-sim analyze -v binokel --cards german
    """
    from binokel_sim.analysis import analysis_rows, analyze_hand, provenance
    from binokel_sim.cards import shown_document
    from binokel_sim.hands import parse_hand

    with domain_errors():
        rules = resolve_rules(variant, rules_file)
        if hand is not None and hands_file is not None:
            raise CardError("give --hand or --hands-file, not both")
        check_out(out_file, fmt)
        if hands_file is not None:
            sources = read_hands_file(hands_file)
        else:
            sources = [("--hand", hand if hand is not None else rules.example_hand)]
        results = []  # in file order; a bad line of a hands file as {where, hand, error}
        for where, text in sources:
            try:
                results.append(analyze_hand(rules, parse_hand(text, rules)))
            except CardError as exc:
                if hands_file is None:
                    raise
                bad_row(where, str(exc), strict, "line skipped")
                results.append({"where": where, "hand": text, "error": str(exc)})
        if strict and hands_file is None:
            warn("--strict is read only with --hands-file; ignored")
        results = [shown_document(r, shown_cards(cards)) for r in results]
        if out_file is not None or fmt is AnalyzeFormat.csv:  # rows (polars) only for files
            record = provenance(rules, **source(rules_file), **cards_provenance(cards))
            rows = analysis_rows([r for r in results if "error" not in r])
            if write_out(rows, out_file, record, fmt, {"provenance": record, "hands": results}):
                return
    if fmt is AnalyzeFormat.jsonl and out_file is None:
        import json

        for result in results:
            print(json.dumps(result, ensure_ascii=False))
    elif fmt is AnalyzeFormat.csv:
        print_rows(rows, record, fmt)
    elif fmt is AnalyzeFormat.json:
        print_json(results if hands_file is not None else results[0])
    elif fmt is AnalyzeFormat.table:
        for result in results:
            if "error" in result:
                out.print(f"{result['where']}: {result['error']}", highlight=False)
            else:
                _print_analysis(result)


def _print_meld_odds(df, record: dict, exact: bool) -> None:
    """The meld rows (without sampling columns for exact ones), then the best total meld."""
    out.print(provenance_line(record), highlight=False)
    sampled = [] if exact else [Column("hands", "hands", integer)]
    interval = [] if exact else [Column("interval", "95% interval", percent_interval_4)]
    melds = [Column("meld", "meld", numeric=False), Column("count", "held"),
             Column("points", "points"), *sampled,
             Column("probability", "probability" if exact else "share",
                    lambda p: percent(p, 4)), *interval]
    rows = [{**r, "interval": (r["ci_low"], r["ci_high"])} for r in df.iter_rows(named=True)]
    out.print(render_table([r for r in rows if r["count"] is not None], melds))
    totals = [r for r in rows if r["count"] is None]
    if totals:
        columns = [Column("points", "best total meld"), *sampled,
                   Column("probability", "share", lambda p: percent(p, 4)), *interval]
        out.print(render_table(totals, columns))


def percent_interval_4(bounds: tuple[float, float]) -> str:
    return percent_interval(*bounds, decimals=4)


@command("meld-odds")
def meld_odds_cmd(
    variant: VariantOpt = "four-hand-80",
    rules_file: RulesOpt = None,
    deals: SamplesOpt = 1_000_000,
    seed: SeedOpt = 1,
    trump: Annotated[str, typer.Option(
        "--trump", "-t", metavar="SUIT", help="Trump of the meld rows (S H D C).")]
    = "S",
    threads: ThreadsOpt = None,
    exact: Annotated[bool, typer.Option(
        "--exact", help="Compute the meld rows exactly (combinatorics).")] = False,
    out_file: OutOpt = None,
    fmt: RowsFormatOpt = RowsFormat.table,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
) -> None:
    """How often a random hand holds each meld, and how its best total meld is distributed. Each
    meld gets a row per count (times held, 0, 1, 2...) with the points that count scores, with
    Wilson 95% intervals (or exact probabilities with --exact).

    Example: binokel-sim meld-odds --deals 1000000 --seed 1 --out table.parquet
    Example: binokel-sim meld-odds -v two-hand-48 --exact --out - --format csv
    """
    from binokel_sim.analysis import exact_meld_odds, meld_odds, provenance
    from binokel_sim.backend import open_backend
    from binokel_sim.cards import SUITS
    from binokel_sim.run_time import MELD_HANDS_PER_S, Work
    from binokel_sim.simulate import SimulationError, check_run, set_threads

    with domain_errors():
        rules = resolve_rules(variant, rules_file)
        trump_index = parse_trump(trump)
        check_run(deals, seed)  # checked with --exact too: a bad option is never ignored
        threads = clamp_threads(threads)
        set_threads(threads)  # checked with --exact too
        check_out(out_file, fmt)
        if exact:
            if workers is not None and scheduler is not None:
                raise SimulationError("give --workers or --scheduler, not both")
            ignored = [f"--{name}" for name in ("deals", "seed", "threads", "workers",
                                                 "scheduler") if given(name)]
            if ignored:
                verb = "does" if len(ignored) == 1 else "do"
                warn(f"{' and '.join(ignored)} {verb} not apply to --exact (exact probabilities "
                     f"need no sampling)")
            df = exact_meld_odds(rules, trump_index)
            record = provenance(rules, method="exact", trump=SUITS[trump_index],
                                **source(rules_file))
        else:
            check_duration(Work(deals, "--deals", 1 / MELD_HANDS_PER_S), threads, scheduler)
            with open_backend(workers, scheduler, threads) as backend, \
                    progress_bar(deals, "dealing", PROGRESS_HANDS) as progress:
                df = meld_odds(rules, deals, seed, trump_index, threads, progress, backend)
            warn_few(deals, "hands")
            record = provenance(rules, method="monte_carlo", seed=seed, deals=deals,
                                trump=SUITS[trump_index], **source(rules_file))
        if deliver(df, out_file, record, fmt, {"provenance": record, "rows": df.to_dicts()}):
            return
    _print_meld_odds(df, record, exact)
