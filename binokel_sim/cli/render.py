"""How results look on a terminal: one number format per kind of column, short headers, tables
that fit 80 columns.

Every table goes through :func:`table`: headers are short words that may wrap (never cut), number
cells never wrap, and a column's numbers share one format. Probabilities are percentages with a
fixed number of decimals (:func:`percent`); one too small to show is ``<0.0001%``, never ``0%``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.table import Table
from rich.text import Text

DASH = "-"  # an empty cell


def percent(p: float | None, decimals: int = 2) -> str:
    """``p`` (0..1) as a percentage with ``decimals`` decimals; 0 and 1 exactly as ``0%`` and
    ``100%``; a positive ``p`` that would round to 0 as ``<0.01%`` (for 2 decimals), one that would
    round to 100 as ``>99.99%``."""
    if p is None:
        return DASH
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    step = 10.0 ** -decimals
    if 100 * p < step / 2:
        return f"<{step:.{decimals}f}%"
    if 100 * p > 100 - step / 2:
        return f">{100 - step:.{decimals}f}%"
    return f"{100 * p:.{decimals}f}%"


def percent_interval(low: float | None, high: float | None, decimals: int = 2) -> str:
    """A 95% interval of a probability, ``low-high`` in percent (one ``%`` at the end)."""
    if low is None or high is None:
        return DASH
    return f"{percent(low, decimals).rstrip('%')}-{percent(high, decimals)}"


def points(value: float | None, decimals: int = 1) -> str:
    """A mean score or points figure with ``decimals`` decimals."""
    return DASH if value is None else f"{value:.{decimals}f}"


def interval(low: float | None, high: float | None, decimals: int = 1) -> str:
    """A 95% interval of a mean, ``low..high``."""
    if low is None or high is None:
        return DASH
    return f"{low:.{decimals}f}..{high:.{decimals}f}"


def plus_minus(mean: float | None, low: float | None, high: float | None, decimals: int = 1
               ) -> str:
    """A mean with the half-width of its 95% interval: ``353.1 ±7.3``."""
    if mean is None or low is None or high is None:
        return DASH
    return f"{mean:.{decimals}f} ±{(high - low) / 2:.{decimals}f}"


def integer(value: int | None) -> str:
    """A count with thousands separators."""
    return DASH if value is None else f"{value:,}"


def rate(value: float | None) -> str:
    """Items per second, three significant figures: ``24.1M``, ``612k``, ``3.84k``, ``51.2``."""
    if value is None:
        return DASH
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= scale:
            return f"{value / scale:.3g}{suffix}"
    return f"{value:.3g}"


def ratio(value: float | None) -> str:
    """A speed-up: ``4,180x``."""
    return DASH if value is None else f"{value:,.0f}x"


def text(value: Any) -> str:
    return DASH if value is None else str(value)


@dataclass(frozen=True)
class Column:
    """One column of a result table: the row key it shows, its short header and its format."""

    key: str
    header: str
    format: Callable[[Any], str] = text
    numeric: bool = True
    min_width: int | None = None  # a text column that must not fold (variant names)


def table(rows: Iterable[dict], columns: Sequence[Column], title: str | None = None) -> Table:
    """A rich table of ``rows`` (dicts) that fits 80 columns: simple rules, numbers
    right-aligned. Headers wrap on their spaces; cells hold no spaces in numbers, so rich, which
    wraps only on spaces, narrows a table by wrapping headers and never cuts a number."""
    t = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
              collapse_padding=True)
    for c in columns:
        t.add_column(Text(c.header), justify="right" if c.numeric else "left", overflow="fold",
                     min_width=c.min_width)
    for row in rows:
        t.add_row(*(c.format(row.get(c.key)) for c in columns))
    return t


def provenance_line(record: dict, skip: Sequence[str] = ()) -> str:
    """What made a result, as one line that wraps: ``variant four-hand-80, seed 1, ...`` (the
    keys in ``skip`` are shown elsewhere)."""
    return ", ".join(f"{k} {v:,}" if isinstance(v, int) and not isinstance(v, bool) and k != "seed"
                     else f"{k} {v}" for k, v in record.items() if k not in skip)
