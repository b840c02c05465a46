"""Simulated talon deals (:class:`binokel_sim.engines.talon.TalonDeals`) as records, in the format
of docs/rules.md ("Talon games", "Records"): a polars frame per chunk of deals (one row a deal,
the record's keys as columns, in order) and, from it, plain JSON-ready dicts."""

from __future__ import annotations

import functools
from collections.abc import Iterator

import numpy as np
import polars as pl

from binokel_sim.engines.talon import TalonDeals
from binokel_sim.records import columns as col
from binokel_sim.tables import declaration_rows
from binokel_sim.variants import Rules

DECLARATION = pl.Struct({"meld": pl.String, "level": pl.Int64, "cards": col.CARDS,
                         "points": pl.Int64, "swap": pl.Boolean})
TRICK = pl.Struct({"leader": pl.Int64, "cards": col.CARDS, "winner": pl.Int64,
                   "declaration": DECLARATION, "draws": col.CARDS})


def schema(rules: Rules) -> pl.Schema:
    """The columns of a talon game's record frame (``pair_scores`` with partnerships only)."""
    columns = {
        "deal": pl.Int64, "variant": pl.String, "dealer": pl.Int64, "hands": pl.List(col.CARDS),
        "talon": col.CARDS, "trump": pl.String, "turned_dix": pl.Boolean,
        "tricks": pl.List(TRICK), "card_points": col.INTS, "meld_points": col.INTS,
        "scores": col.INTS,
    }
    if rules.partnerships:
        columns["pair_scores"] = col.INTS
    return pl.Schema(columns)


@functools.lru_cache(maxsize=32)
def declaration_table(rules: Rules) -> tuple[pl.DataFrame, int]:
    """Every declaration row of every trump as the record shows it (``meld``, ``level``,
    ``cards``, ``points``), row ``trump * width + row``; and ``width``."""
    by_trump = [declaration_rows(rules, trump) for trump in range(4)]
    width = max(len(rows) for rows in by_trump)
    melds, levels, cards, points = [], [], [], []
    for rows in by_trump:
        rows = rows + [(0, 0, 0, 0, 0, 0)] * (width - len(rows))  # padding, never looked up
        for meld, level, mask, pts, _, _ in rows:
            melds.append(rules.melds[meld].name)
            levels.append(level)
            cards.append([t for t in col.DISPLAY_TYPES.tolist() if mask >> t & 1
                          for _ in range(level)])
            points.append(pts)
    flat = [t for row in cards for t in row]
    lengths = [len(row) for row in cards]
    offsets = np.cumsum([0] + lengths)
    names = col.card_names(np.array(flat, dtype=np.int64)).to_list()
    table = pl.DataFrame({
        "meld": melds, "level": levels,
        "cards": [names[a:b] for a, b in zip(offsets[:-1], offsets[1:])], "points": points,
    }, schema={"meld": pl.String, "level": pl.Int64, "cards": col.CARDS, "points": pl.Int64})
    return table, width


def swap_rank(rules: Rules) -> int:
    return next(m.ranks[0] for m in rules.melds if m.name == rules.swap_meld) \
        if rules.swap_meld else -1


def frame(played: TalonDeals, first_deal: int = 0) -> pl.DataFrame:
    """One row per deal, columns :func:`schema` (the keys of docs/rules.md, in order)."""
    rules = played.rules
    players = rules.players
    deals, n_tricks = played.trick_leaders.shape
    phase1 = rules.talon // players
    talon = played.talon
    trump = talon[:, -1] // 6
    row, swap = played.declarations[..., 0], played.declarations[..., 1] != 0
    declared = row >= 0

    table, width = declaration_table(rules)
    found = table[np.repeat(trump, n_tricks) * width + np.clip(row, 0, None).ravel()]
    declaration = found.with_columns(swap=pl.Series(swap.ravel())).to_struct("declaration")
    declaration = col.when(declared.ravel(), declaration)

    # the draws: the talon in order, its last card the swapped-in nine after a swap
    drawn = talon.copy()
    swapped = (declared & swap)[:, :phase1].any(axis=1)
    if swapped.any():
        drawn[swapped, -1] = trump[swapped] * 6 + swap_rank(rules)
    slots = np.zeros((deals, n_tricks, players), dtype=np.int64)
    slots[:, :phase1] = drawn.reshape(deals, phase1, players)
    lengths = np.where(np.arange(n_tricks) < phase1, players, 0)
    draws = col.head(col.nest(col.card_names(slots), (deals * n_tricks, players)),
                     np.tile(lengths, deals))

    points = played.points
    scores = points[..., 0] + points[..., 1]
    numbers = np.arange(first_deal, first_deal + deals, dtype=np.int64)
    columns = {
        "deal": pl.Series(numbers),
        "variant": pl.Series([rules.name] * deals, dtype=pl.String),
        "dealer": pl.Series(numbers % players),
        "hands": col.hands(played.hands),
        "talon": col.nest(col.card_names(talon), talon.shape),
        "trump": col.suits(trump),
        "turned_dix": pl.Series(talon[:, -1] % 6 == rules.turned_bonus_rank),
        "tricks": col.tricks(played.trick_leaders, played.trick_cards, played.trick_winners,
                             {"declaration": declaration, "draws": draws}),
        "card_points": col.ints(points[..., 0]),
        "meld_points": col.ints(points[..., 1]),
        "scores": col.ints(scores),
    }
    if rules.partnerships:
        columns["pair_scores"] = col.ints(np.stack([scores[:, 0] + scores[:, 2],
                                                    scores[:, 1] + scores[:, 3]], axis=1))
    return col.frame(columns).cast(schema(rules))


def records(played: TalonDeals, first_deal: int = 0) -> Iterator[dict]:
    """The rows of :func:`frame` as dicts (keys in the documented order)."""
    yield from col.dicts(frame(played, first_deal))

