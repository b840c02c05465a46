"""Columns of the play records built from the kernels' numpy arrays in polars, one chunk of deals
at a time: card names, hands sorted for display, lists of per-row length, the calls of an
auction, tricks. :mod:`binokel_sim.records.partnership`, :mod:`binokel_sim.records.talon` and
:mod:`binokel_sim.records.widow` assemble them into one frame per chunk (the record's keys in
order), which the writers of :mod:`binokel_sim.records.stream` turn into JSON lines or Parquet and
the Python API into dicts.

Every column has a fixed dtype (``Int64`` numbers, ``String`` cards and suits, ``Boolean`` flags),
so the frames of all chunks share one schema."""

from __future__ import annotations

import json
from collections.abc import Iterator

import numpy as np
import polars as pl

from binokel_sim.cards import DISPLAY_ORDER, N_TYPES, notation
from binokel_sim.kernels.records import sorted_types
# card types in the order a hand is shown: suits S H D C, within a suit high to low
DISPLAY_TYPES = np.array(DISPLAY_ORDER, dtype=np.int64)
DISPLAY_POSITION = np.argsort(DISPLAY_TYPES)  # a card type's place in that order
HAND_ROOM = 32  # cards per row the sorting kernel is first given room for

CARDS = pl.List(pl.String)
INTS = pl.List(pl.Int64)
CALL = pl.Struct({"seat": pl.Int64, "bid": pl.Int64})


def card_names(types: np.ndarray) -> pl.Series:
    """Card types (any shape, flattened) -> their names in the current notation
    (:func:`binokel_sim.cards.card_notation`), a ``String`` series."""
    shown = notation()
    names = pl.Series("card", [shown.card(t) for t in range(N_TYPES)], dtype=pl.String)
    return names.gather(pl.Series(np.ravel(types)))


def nest(flat: pl.Series, shape: tuple[int, ...]) -> pl.Series:
    """A flat series as nested lists: ``shape[0]`` rows of ``shape[1]`` items (of ``shape[2]``
    items ...), dtype ``List(List(...))`` rather than fixed-size arrays."""
    dtype = flat.dtype
    for _ in shape[1:]:
        dtype = pl.List(dtype)
    if shape[0] == 0 or any(k == 0 for k in shape[1:]):
        return pl.Series(flat.name, [[]] * shape[0] if len(shape) > 1 else [], dtype=dtype)
    return flat.reshape(shape).cast(dtype)


def head(lists: pl.Series, lengths: np.ndarray, width: int | None = None) -> pl.Series:
    """Each row's list cut to its first ``lengths[row]`` items (``width``: every list's length
    now, when known)."""
    lengths = np.asarray(lengths, dtype=np.int64)
    if width is not None and (lengths == width).all():
        return lists
    frame = pl.DataFrame({"x": lists, "n": lengths})
    return frame.select(pl.col("x").list.head(pl.col("n"))).to_series().alias(lists.name)


def ints(values: np.ndarray) -> pl.Series:
    """An int array (rows, k) as a ``List(Int64)`` column."""
    values = np.ascontiguousarray(values, dtype=np.int64)
    return nest(pl.Series(values.ravel(), dtype=pl.Int64), values.shape)


def hands(planes: np.ndarray) -> pl.Series:
    """Bit planes uint32 (deals, [seats,] 4) -> the cards of each hand sorted S H D C, high to
    low: ``List(List(String))`` (``List(String)`` without the seats axis); hands may hold
    different numbers of cards."""
    shape = planes.shape[:-1]
    flat_planes = np.ascontiguousarray(planes, dtype=np.uint32).reshape(-1, planes.shape[-1])
    rows = flat_planes.shape[0]
    width = HAND_ROOM
    while True:
        types = np.empty((rows, width), dtype=np.int8)
        lengths = sorted_types(planes=flat_planes, order=DISPLAY_TYPES, out=types)
        longest = int(lengths.max()) if rows else 0
        if longest <= width:
            break
        width = longest
    if rows and (lengths == longest).all():
        return nest(card_names(types[:, :longest]), (*shape, longest))
    lists = head(nest(card_names(np.maximum(types, 0)), (rows, width)), lengths)
    if len(shape) == 1:
        return lists
    wrapped = pl.DataFrame({"cards": lists}).to_struct("x")  # a struct reshapes as one item
    return nest(wrapped, shape).list.eval(pl.element().struct.field("cards"))


def types_sorted(types: np.ndarray) -> pl.Series:
    """Card types int64 (rows, k) -> each row's cards sorted S H D C, high to low,
    ``List(String)``."""
    shown = np.sort(DISPLAY_POSITION[types], axis=1)
    return nest(card_names(DISPLAY_TYPES[shown]), types.shape)


def calls(seats: np.ndarray, values: np.ndarray, n_calls: np.ndarray, no_bid: int) -> pl.Series:
    """The auctions: per deal its first ``n_calls`` calls as ``{"seat", "bid"}`` (``bid`` null
    for a pass ``no_bid``), ``List(Struct)``."""
    deals = seats.shape[0]
    width = int(n_calls.max()) if deals else 0
    if width == 0:
        return pl.Series([[]] * deals, dtype=pl.List(CALL))
    seats = np.ascontiguousarray(seats[:, :width], dtype=np.int64).ravel()
    values = np.ascontiguousarray(values[:, :width], dtype=np.int64).ravel()
    frame = pl.DataFrame({"seat": seats, "bid": values})
    struct = frame.select(pl.struct(pl.col("seat"),
                                    pl.when(pl.col("bid") != no_bid).then(pl.col("bid"))
                                    .alias("bid"))).to_series()
    return head(nest(struct, (deals, width)), n_calls)


def tricks(leaders: np.ndarray, cards: np.ndarray, winners: np.ndarray,
           extra: dict[str, pl.Series] | None = None) -> pl.Series:
    """Tricks (deals, tricks): ``{"leader", "cards" (in play order), "winner", **extra}`` per
    trick, ``List(Struct)``; ``extra`` holds flat series of deals * tricks rows."""
    deals, n = leaders.shape
    columns = {
        "leader": pl.Series(np.ascontiguousarray(leaders, dtype=np.int64).ravel()),
        "cards": nest(card_names(cards), (deals * n, cards.shape[2])),
        "winner": pl.Series(np.ascontiguousarray(winners, dtype=np.int64).ravel()),
        **(extra or {}),
    }
    struct = pl.DataFrame(columns).to_struct("tricks")
    return nest(struct, (deals, n))


def suits(trump: np.ndarray) -> pl.Series:
    """Suit indices -> names in the current notation (``S``; German ``Laub``), null for a
    negative index (no trump)."""
    trump = np.asarray(trump, dtype=np.int64)
    names = pl.Series("suit", list(notation().suits), dtype=pl.String).gather(
        np.clip(trump, 0, None))
    return pl.select(pl.when(pl.Series(trump >= 0)).then(names)).to_series()


def when(present: np.ndarray, column: pl.Series) -> pl.Series:
    """``column`` where ``present``, null elsewhere."""
    return pl.select(pl.when(pl.Series(np.asarray(present, dtype=bool))).then(column)
                     ).to_series().alias(column.name)


def dicts(frame: pl.DataFrame) -> Iterator[dict]:
    """The rows of a record frame as plain dicts, read back from its JSON lines (faster than
    polars' own row conversion, and the very values the JSON writer gives)."""
    text = frame.write_ndjson()
    for line in text.split("\n")[:-1] if text else []:  # each line ends with a newline
        yield json.loads(line)


def frame(columns: dict[str, pl.Series]) -> pl.DataFrame:
    """The record frame, its columns named and ordered as the record's keys."""
    return pl.DataFrame([s.alias(name) for name, s in columns.items()])
