"""The ``binokel-sim`` command: thin typer commands over the library, nothing else.

Domain errors (bad cards, rules, output paths, run parameters) are caught here and printed as one
line on stderr with exit code 1; typer itself answers usage errors with exit code 2.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import polars as pl
import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeRemainingColumn
from rich.table import Table

from binokel_sim import __version__
from binokel_sim.cards import SUITS, CardError, parse_suit
from binokel_sim.io import OutputError, check_output, write_table
from binokel_sim.simulate import SimulationError
from binokel_sim.variants import Rules, RulesError, all_variants, find_variant, load_rules

app = typer.Typer(
    help="Monte Carlo simulator and exact hand analyzer for Binokel and double-deck pinochle.\n\n"
         "Example: binokel-sim bid-odds --deals 200000 --seed 1",
    no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
)
out = Console()
err = Console(stderr=True)
DOMAIN_ERRORS = (CardError, RulesError, OutputError, SimulationError)

# runs this large (about a second or more on two cores) get a progress bar on a terminal
PROGRESS_HANDS = 20_000_000  # meld-odds: hands dealt and scored
PROGRESS_DEALS = 100_000  # bid-odds, duel, play: deals played out


class TableFormat(str, Enum):
    table = "table"
    json = "json"
    jsonl = "jsonl"


class OddsFormat(str, Enum):
    table = "table"
    json = "json"


@contextmanager
def domain_errors() -> Iterator[None]:
    """Turn a domain error into one line on stderr and exit code 1."""
    try:
        yield
    except DOMAIN_ERRORS as exc:
        err.print(f"error: {exc}", markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None
    except MemoryError:
        err.print("error: not enough memory for a run this large; use fewer --deals",
                  markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None


def _version(value: bool) -> None:
    if value:
        out.print(f"binokel-sim {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[Optional[bool], typer.Option(
        "--version", callback=_version, is_eager=True, help="Print the version and exit.")] = None,
) -> None:
    """Monte Carlo simulator and exact hand analyzer for Binokel and double-deck pinochle."""


VariantOpt = Annotated[str, typer.Option(
    "--variant", "-v", help="Built-in variant name or alias (see `binokel-sim variants`).")]
RulesOpt = Annotated[Optional[Path], typer.Option(
    "--rules", help="A rules file (TOML, the format of the built-in variants) to use instead of "
                    "--variant, for house rules.")]


PolicyOpt = Annotated[str, typer.Option(
    "--policy", help="Card-play policy of every seat: heuristic (plays as a sensible player) or "
                     "random (uniform over the legal cards).")]
SamplesOpt = Annotated[int, typer.Option("--deals", "-n", help="Simulated deals.")]
SeedOpt = Annotated[int, typer.Option("--seed", "-s", help="Random seed; the same seed gives the "
                                                            "same numbers on any thread count.")]
ThreadsOpt = Annotated[Optional[int], typer.Option(
    "--threads", help="Worker threads (default: all cores).")]


OddsFormatOpt = Annotated[OddsFormat, typer.Option("--format", "-f",
                                                   help="table or json on stdout.")]


def resolve_rules(variant: str, rules_file: Optional[Path]) -> Rules:
    return load_rules(rules_file) if rules_file is not None else find_variant(variant)


def source(rules_file: Optional[Path]) -> dict:
    """Provenance of a run on a user's rules file (the variant name alone would not say which)."""
    return {} if rules_file is None else {"rules_file": str(rules_file)}


def parse_trump(text: str) -> int:
    try:
        return parse_suit(text)
    except CardError:
        raise CardError(f"unknown trump suit {text!r} (use S, H, D or C)") from None


@contextmanager
def progress_bar(total: int, label: str, threshold: int = PROGRESS_DEALS
                 ) -> Iterator[Optional[Callable[[int, int], None]]]:
    """A rich progress bar on stderr for runs of ``threshold`` or more on a terminal; yields the
    callback the drivers call (None: no bar)."""
    if total < threshold or not err.is_terminal:
        yield None
        return
    columns = (TextColumn(label), BarColumn(), TaskProgressColumn(), TimeRemainingColumn())
    with Progress(*columns, console=err, transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done, _total: bar.update(task, completed=done)


def print_frame(df, record: dict, float_format: str) -> None:
    """A result table on stdout, titled with its provenance; text columns left, numbers right."""
    table = Table(title=", ".join(f"{k} {v}" for k, v in record.items()), title_justify="left")
    for column, dtype in df.schema.items():
        table.add_column(column, justify="left" if dtype == pl.String else "right")
    for row in df.iter_rows():
        table.add_row(*("" if v is None else float_format.format(v) if isinstance(v, float)
                        else str(v) for v in row))
    out.print(table)


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


def _read_hands_file(path: Path) -> list[tuple[str, str]]:
    """``(where, hand text)`` per hand: a text file (one hand a line, # comments) or a CSV or
    Parquet file with a ``hand`` column."""
    suffix = path.suffix.lower()
    try:
        if suffix in (".csv", ".parquet"):
            df = pl.read_csv(path) if suffix == ".csv" else pl.read_parquet(path)
            if "hand" not in df.columns:
                raise CardError(f"{path.name}: no column named 'hand' (columns: "
                                f"{', '.join(df.columns)})")
            hands = [(f"{path.name} row {i + 1}", "" if h is None else str(h))
                     for i, h in enumerate(df["hand"])]
        else:
            lines = path.read_text(encoding="utf-8-sig").splitlines()
            hands = [(f"{path.name} line {i + 1}", line) for i, line in enumerate(lines)
                     if line.strip() and not line.lstrip().startswith("#")]
    except OSError as exc:
        raise CardError(f"cannot read hands file {str(path)!r}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise CardError(f"cannot read hands file {str(path)!r}: not UTF-8 text") from None
    except pl.exceptions.PolarsError as exc:
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise CardError(f"cannot read hands file {str(path)!r}: {first_line}") from None
    if not hands:
        raise CardError(f"{path.name}: no hands in the file")
    return hands


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
            sources = _read_hands_file(hands_file)
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


class PlayFormat(str, Enum):
    jsonl = "jsonl"
    json = "json"


@app.command("bid-odds")
def bid_odds_cmd(
    hand: Annotated[Optional[str], typer.Option(
        "--hand", help="The bid winner's cards: 20 in four-hand-80, 15 or 11 before the widow in "
                       "the widow games. Without --hand the variant's built-in example hand is "
                       "used.")] = None,
    variant: VariantOpt = "four-hand-80",
    rules_file: RulesOpt = None,
    deals: SamplesOpt = 200_000,
    seed: SeedOpt = 1,
    policy: PolicyOpt = "heuristic",
    trump: Annotated[str, typer.Option(
        "--trump", "-t", help="four-hand-80: auto (every suit with a marriage) or one suit S H D "
                              "C. In the widow games the soloist's policy names trump after "
                              "the widow, so only auto is accepted.")] = "auto",
    threads: ThreadsOpt = None,
    out_file: Annotated[Optional[Path], typer.Option(
        "--out", "-o", help="Write the bid rows to a .parquet, .csv, .json or .jsonl file, with "
                            "the seed, policy, deals and version in it.")] = None,
    fmt: OddsFormatOpt = OddsFormat.table,
) -> None:
    """For every bid on the ladder: how likely the bid is made and what bidding it is worth, from
    simulated play-outs. four-hand-80: for every trump the hand may name (the other 60 cards dealt
    at random, the bid winner leading, the same deals for every trump). Widow games
    (three-hand-auction-48, four-hand-widow-48): the unseen cards are dealt to the widow and the
    other seats, the soloist takes the widow, demands, buries, names trump and plays; also the
    exact widow analysis (every possible widow weighed) and how often each trump is chosen.

    Example: binokel-sim bid-odds --hand "AS AS TS KS KS QS QS JS AH TH KH QH AD KD QD JD JD AC TC KC" --deals 1000000 --seed 7

    Example: binokel-sim bid-odds --variant three-hand-auction-48 --hand "AS AS TS KS QS QS JS 9S AH KH QH AD JD KC QC" --format json
    """
    from binokel_sim.analysis import provenance
    from binokel_sim.bid_odds import bid_odds
    from binokel_sim.engines import TALON, WIDOW, engine_family
    from binokel_sim.hands import parse_hand

    with domain_errors():
        rules = resolve_rules(variant, rules_file)
        counts = parse_hand(hand if hand is not None else rules.example_hand, rules)
        if engine_family(rules) == TALON:
            raise SimulationError(f"variant {rules.name}: bid-odds needs an auction "
                                  f"(four-hand-80, the widow games); for a talon game's hand use "
                                  f"binokel-sim deal-odds")
        if engine_family(rules) == WIDOW:
            if trump.strip().lower() != "auto":
                raise SimulationError(f"--trump {trump}: in {rules.name} the soloist names trump "
                                      f"after the widow; only --trump auto is accepted")
            _widow_bid_odds(rules, counts, deals, seed, policy, threads, out_file, fmt,
                            source(rules_file))
            return
        trump_index = None if trump.strip().lower() == "auto" else parse_trump(trump)
        if out_file is not None:
            check_output(out_file)
        with progress_bar(deals, "playing") as progress:
            result = bid_odds(rules, counts, deals, seed, policy, trump_index, threads, progress)
        record = provenance(rules, method="monte_carlo", seed=seed, deals=deals, policy=policy,
                            **source(rules_file))
        if out_file is not None:
            write_table(result["rows"], out_file, record)
    summary = {k: result[k] for k in ("hand", "has_marriage", "recommended_trump",
                                      "max_bid_positive_ev")}
    if fmt is OddsFormat.json:
        print(json.dumps({"provenance": record, **summary, "by_trump": result["by_trump"],
                          "rows": result["rows"].to_dicts()}, indent=2))
        return
    out.print(f"{rules.name}: {' '.join(result['hand'])}", highlight=False)
    if not result["has_marriage"]:
        out.print("This hand holds no marriage: it may not name trump, and every bid is lost.")
    for suit, info in result["by_trump"].items():
        out.print(f"trump {suit}: pair meld >= {rules.min_meld} in {info['p_meld_20']:.1%}, mean "
                  f"pair meld {info['mean_pair_meld']:.1f}, mean pair play "
                  f"{info['mean_pair_play']:.1f}", highlight=False)
    print_frame(result["rows"], record, "{:.4f}")
    if result["recommended_trump"] is not None:
        top = result["max_bid_positive_ev"]
        out.print(f"recommended trump: {result['recommended_trump']}; highest bid with positive "
                  f"expected score: {top if top is not None else 'none'}")


def _widow_bid_odds(rules: Rules, counts, deals: int, seed: int, policy: str,
                    threads: Optional[int], out_file: Optional[Path], fmt: OddsFormat,
                    origin: dict) -> None:
    """bid-odds for the widow games (inside :func:`domain_errors`)."""
    from binokel_sim.analysis import provenance
    from binokel_sim.widow_odds import widow_bid_odds

    if out_file is not None:
        check_output(out_file)
    with progress_bar(deals, "playing") as progress:
        result = widow_bid_odds(rules, counts, deals, seed, policy, threads, progress)
    record = provenance(rules, method="monte_carlo", seed=seed, deals=deals, policy=policy,
                        **origin)
    if out_file is not None:
        write_table(result["rows"], out_file, record)
    rest = {k: v for k, v in result.items() if k != "rows"}
    if fmt is OddsFormat.json:
        print(json.dumps({"provenance": record, **rest, "rows": result["rows"].to_dicts()},
                         indent=2))
        return
    widow = result["widow"]
    out.print(f"{rules.name}: {' '.join(result['hand'])}", highlight=False)
    out.print(f"the widow (exact, {widow['widows']:,} widows): best meld {widow['own_best_meld']} "
              f"before it, {widow['mean_best_meld']:.1f} on average after it; it raises the best "
              f"meld in {widow['p_improves']:.1%}", highlight=False)
    chosen = ", ".join(f"{s} {p:.1%}" for s, p in result["trump_chosen"].items())
    out.print(f"trump chosen: {chosen}; mean meld after the widow "
              f"{result['mean_meld_after_widow']:.1f}; all tricks (+1000) in "
              f"{result['p_bonus']:.2%}", highlight=False)
    print_frame(result["rows"], record, "{:.4f}")
    top = result["max_bid_positive_ev"]
    out.print(f"highest bid with positive expected score: {top if top is not None else 'none'}",
              highlight=False)


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


@app.command("deal-odds")
def deal_odds_cmd(
    hand: Annotated[Optional[str], typer.Option(
        "--hand", help="Your 12 cards. Without --hand the variant's built-in example hand is "
                       "used.")] = None,
    turned: Annotated[Optional[str], typer.Option(
        "--turned", help="The turned card (its suit is trump), e.g. 9H. Without --turned the "
                         "variant's example turned card is used.")] = None,
    seat: Annotated[str, typer.Option(
        "--seat", help="dealer (you dealt: a turned 9 scores 10 for you) or elder (left of the "
                       "dealer: you lead the first trick).")] = "elder",
    variant: VariantOpt = "two-hand-48",
    rules_file: RulesOpt = None,
    deals: SamplesOpt = 200_000,
    seed: SeedOpt = 1,
    policy: PolicyOpt = "heuristic",
    threads: ThreadsOpt = None,
    out_file: Annotated[Optional[Path], typer.Option(
        "--out", "-o", help="Write the result to a .json file, with the seed, policy, deals and "
                            "version in it.")] = None,
    fmt: OddsFormatOpt = OddsFormat.table,
) -> None:
    """What a talon-game hand is worth in one deal: the unseen cards are dealt at random around
    your hand and the turned card, and every deal is played out. Reports your mean score, card
    points and declared melds and the opponents', the chance to out-score every opponent, score
    quantiles and the hand's static meld value.

    Example: binokel-sim deal-odds --variant two-hand-48 --hand "AS TS KS QS QS JS 9S KH QH AD JD AC" --turned 9H --seat dealer
    """
    from binokel_sim.analysis import provenance
    from binokel_sim.cards import parse_card
    from binokel_sim.deal_odds import deal_odds
    from binokel_sim.hands import parse_hand
    from binokel_sim.io import write_text
    from binokel_sim.engines import TALON, engine_family
    from binokel_sim.talon_games import check_talon

    with domain_errors():
        rules = resolve_rules(variant, rules_file)
        if engine_family(rules) != TALON:
            raise SimulationError(f"variant {rules.name}: deal-odds is for the talon games "
                                  f"(two-hand-48, three-hand-72, four-hand-72); for a hand that "
                                  f"bids use binokel-sim bid-odds")
        check_talon(rules)
        counts = parse_hand(hand if hand is not None else rules.example_hand, rules)
        turned_text = turned if turned is not None else rules.example_turned
        if not turned_text:
            raise CardError(f"give --turned: the {rules.name} rules have no example turned card")
        try:
            turned_counts = parse_hand(turned_text, rules, size=1)
        except CardError as exc:
            raise CardError(f"--turned: {exc}".replace("the hand has", "it has")
                            .replace(f"a {rules.name} hand has 1", "give one card")) from None
        turned_type = parse_card(turned_text)
        if counts[turned_type] + turned_counts[turned_type] > rules.deck_counts()[turned_type]:
            raise CardError(f"the turned card {turned_text.strip()} is a copy your hand already "
                            f"holds all of")
        if out_file is not None:
            check_output(out_file, suffixes=(".json",))
        with progress_bar(deals, "playing") as progress:
            result = deal_odds(rules, counts, turned_type, seat, deals, seed, policy, threads,
                               progress)
        record = provenance(rules, method="monte_carlo", seed=seed, deals=deals, policy=policy,
                            **source(rules_file))
        document = {"provenance": record, **result}
        if out_file is not None:
            write_text(json.dumps(document, indent=2) + "\n", out_file)
    if fmt is OddsFormat.json:
        print(json.dumps(document, indent=2))
        return
    _print_deal_odds(result, record)
    if out_file is not None:
        err.print(f"wrote {out_file}")


def _print_deal_odds(result: dict, record: dict) -> None:
    out.print(f"{result['variant']}: {' '.join(result['hand'])}, turned {result['turned']} "
              f"(trump {result['trump']}), you are the {result['seat']}; static meld "
              f"{result['static_meld']}", highlight=False)
    table = Table(title=", ".join(f"{k} {v}" for k, v in record.items()), title_justify="left")
    for column in ("", "score", "card points", "declared melds"):
        table.add_column(column, justify="left" if not column else "right")

    def cell(key: str, i: int | None = None) -> str:
        mean, low, high = (result[key], result[f"{key}_ci_low"], result[f"{key}_ci_high"])
        if i is not None:
            mean, low, high = mean[i], low[i], high[i]
        return f"{mean:.1f} ({low:.1f}-{high:.1f})"

    table.add_row("you", cell("mean_score"), cell("mean_card_points"), cell("mean_meld"))
    opponents = result["mean_opponent_score"]
    for i in range(len(opponents) if isinstance(opponents, list) else 1):
        j = i if isinstance(opponents, list) else None
        table.add_row(f"opponent {i + 1}" if j is not None else "opponent",
                      cell("mean_opponent_score", j), cell("mean_opponent_card_points", j),
                      cell("mean_opponent_meld", j))
    out.print(table)
    q = result["quantiles"]
    out.print(f"P(out-score every opponent) = {result['p_win']:.4f} (95% interval "
              f"{result['p_win_ci_low']:.4f} to {result['p_win_ci_high']:.4f}); your score: 10% "
              f"{q['10']:.0f}, median {q['50']:.0f}, 90% {q['90']:.0f}", highlight=False)


@app.command()
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
        n = set_threads(threads)
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())
