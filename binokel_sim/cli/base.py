"""What every ``binokel-sim`` command shares: the typer app, the consoles, the common options,
the error boundary and the progress bar.

Domain errors (bad cards, rules, output paths, run parameters) are caught here and printed as one
line on stderr with exit code 1; typer itself answers usage errors with exit code 2.
"""

from __future__ import annotations

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
from binokel_sim.cards import CardError, parse_suit
from binokel_sim.io import OutputError
from binokel_sim.simulate import SimulationError
from binokel_sim.variants import Rules, RulesError, find_variant, load_rules

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


def read_hands_file(path: Path) -> list[tuple[str, str]]:
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

