"""Reading many hands from a file: text (one hand a line), CSV or Parquet (a ``hand`` column),
or ``-`` for text on stdin.

Each row keeps where it came from (``hands.csv line 3``) so an error can name it. CSV and Parquet
rows may carry ``turned`` (the turned card) and ``seat`` (``dealer``/``elder``) for the talon
games. Blank lines and ``#`` comments of a text file are not rows.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from binokel_sim.cards import CardError
from binokel_sim.io import is_stdout

OPTIONAL_COLUMNS = ("turned", "seat")


@dataclass(frozen=True)
class HandRow:
    """One input hand: ``where`` it came from, the ``hand`` text and the optional columns."""

    where: str
    hand: str
    turned: str | None = None
    seat: str | None = None


def read_hands(path: str | Path) -> list[HandRow]:
    """Every row of a hands file, in file order (a file without rows is an error)."""
    path = Path(path)
    suffix = path.suffix.lower()
    try:
        if is_stdout(path):  # "-" names the standard stream: stdin here
            rows = _text_rows(sys.stdin.read(), "stdin")
        elif suffix in (".csv", ".parquet"):
            rows = _table_rows(path, suffix)
        else:
            rows = _text_rows(path.read_text(encoding="utf-8-sig"), path.name)
    except OSError as exc:
        raise CardError(f"cannot read hands file {str(path)!r}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise CardError(f"cannot read hands file {str(path)!r}: not UTF-8 text") from None
    except pl.exceptions.PolarsError as exc:
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise CardError(f"cannot read hands file {str(path)!r}: {first_line}") from None
    if not rows:
        raise CardError(f"{'stdin' if is_stdout(path) else path.name}: no hands in the file")
    return rows


def _text_rows(text: str, name: str) -> list[HandRow]:
    return [HandRow(f"{name} line {i + 1}", line) for i, line in enumerate(text.splitlines())
            if line.strip() and not line.lstrip().startswith("#")]


def _table_rows(path: Path, suffix: str) -> list[HandRow]:
    df = pl.read_csv(path, infer_schema=False) if suffix == ".csv" else pl.read_parquet(path)
    if "hand" not in df.columns:
        raise CardError(f"{path.name}: no column named 'hand' (columns: {', '.join(df.columns)})")
    extra = [c for c in OPTIONAL_COLUMNS if c in df.columns]
    # a CSV's first data row is line 2 (the header is line 1); a Parquet file has rows
    where = (lambda i: f"{path.name} line {i + 2}") if suffix == ".csv" else \
        (lambda i: f"{path.name} row {i + 1}")
    rows = []
    for i, record in enumerate(df.select("hand", *extra).iter_rows(named=True)):
        values = {c: None if record[c] is None else str(record[c]) for c in extra}
        rows.append(HandRow(where(i), "" if record["hand"] is None else str(record["hand"]),
                            **values))
    return rows
