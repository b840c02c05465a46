"""Simulated widow deals (:class:`binokel_sim.engines.widow.WidowDeals`) as records, in the format
of docs/rules.md ("Widow games", "Records"): a polars frame per chunk of deals (one row a deal,
the record's keys as columns, in order) and, from it, plain JSON-ready dicts."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import polars as pl

from binokel_sim.cards import N_TYPES
from binokel_sim.constants import NO_BID
from binokel_sim.engines.widow import WidowDeals
from binokel_sim.errors import SimulationError
from binokel_sim.kernels.widow.deals import (
    I_BETTEL,
    I_BID,
    I_BONUS,
    I_CALLS,
    I_CONCEDED,
    I_DEMAND,
    I_DURCH,
    I_FROM,
    I_GIVEN,
    I_MADE,
    I_REDEALT,
    I_SOLOIST,
    I_TRUMP,
)
from binokel_sim.records import columns as col
from binokel_sim.variants import Rules

DEMAND = pl.Struct({"card": pl.String, "from": pl.Int64, "given": pl.String})
TRICK = pl.Struct({"leader": pl.Int64, "cards": col.CARDS, "winner": pl.Int64})


def schema(rules: Rules) -> pl.Schema:
    """The columns of a widow game's record frame (``pair_scores`` with partnerships only)."""
    columns = {
        "deal": pl.Int64, "variant": pl.String, "dealer": pl.Int64, "hands": pl.List(col.CARDS),
        "widow": col.CARDS, "bids": pl.List(col.CALL), "soloist": pl.Int64, "bid": pl.Int64,
        "demand": DEMAND, "buried": col.CARDS, "trump": pl.String, "melds": col.INTS,
        "tricks": pl.List(TRICK), "card_points": col.INTS, "bonus": pl.Int64,
        "made": pl.Boolean, "conceded": pl.Boolean, "durch": pl.Boolean,
        "durch_open": pl.Boolean, "bettel": pl.Boolean,
        "scores": col.INTS,
    }
    if rules.partnerships:
        columns["pair_scores"] = col.INTS
    if rules.all_pass == "redeal":
        columns["redealt"] = pl.Boolean
    return pl.Schema(columns)


def frame(played: WidowDeals, first_deal: int = 0) -> pl.DataFrame:
    """One row per deal, columns :func:`schema` (the keys of docs/rules.md, in order)."""
    rules = played.rules
    info = played.info
    if (info[:, I_CALLS] > played.bid_seats.shape[1]).any():
        raise SimulationError("an auction had more calls than the record has room for")
    deals = info.shape[0]
    numbers = np.arange(first_deal, first_deal + deals, dtype=np.int64)
    # a redealt deal (nobody bid, all_pass = "redeal") was played as the dealer's and voided: it
    # shows no contract, no widow handling, no melds, tricks or card points
    redealt = info[:, I_REDEALT] != 0
    demanded = (info[:, I_DEMAND] >= 0) & ~redealt
    conceded = (info[:, I_CONCEDED] != 0) & ~redealt
    durch = (info[:, I_DURCH] != 0) & ~redealt
    bettel = (info[:, I_BETTEL] != 0) & ~redealt
    kept = ~redealt[:, None]
    demand = pl.DataFrame({
        "card": col.card_names(np.clip(info[:, I_DEMAND], 0, None)),
        "from": info[:, I_FROM],
        "given": col.card_names(np.clip(info[:, I_GIVEN], 0, None)),
    }).to_struct("demand")
    columns = {
        "deal": pl.Series(numbers),
        "variant": pl.Series([rules.name] * deals, dtype=pl.String),
        "dealer": pl.Series(numbers % rules.players),
        "hands": col.hands(played.hands),
        "widow": col.types_sorted(played.widow),
        "bids": col.calls(played.bid_seats, played.bid_values, info[:, I_CALLS], NO_BID),
        "soloist": col.when(~redealt, pl.Series(info[:, I_SOLOIST])),
        "bid": col.when(~redealt, pl.Series(info[:, I_BID])),
        "demand": col.when(demanded, demand),
        "buried": pl.DataFrame({"b": col.types_sorted(played.buried),
                                "n": np.where(redealt, 0, rules.widow)}).select(
            pl.col("b").list.head(pl.col("n"))).to_series(),
        "trump": col.suits(np.where(redealt, -1, info[:, I_TRUMP])),
        "melds": col.ints(np.where(kept, played.melds, 0)),
        "tricks": played_tricks(played, conceded | redealt),
        "card_points": col.ints(np.where(kept, played.card_points, 0)),
        "bonus": pl.Series(info[:, I_BONUS]),
        "made": pl.Series(info[:, I_MADE] != 0),
        "conceded": pl.Series(conceded),
        "durch": pl.Series(durch),
        "durch_open": pl.Series(durch & rules.durch_open),  # an open Durch is always laid down
        "bettel": pl.Series(bettel),
        "scores": col.ints(played.scores),
    }
    if rules.partnerships:
        columns["pair_scores"] = col.ints(played.scores[:, :2])
    if rules.all_pass == "redeal":
        columns["redealt"] = pl.Series(redealt)
    return col.frame(columns).cast(schema(rules))


def played_tricks(played: WidowDeals, conceded: np.ndarray) -> pl.Series:
    """The tricks of every deal; none where the soloist gave up before the first lead (or the
    deal was voided: ``conceded`` marks both)."""
    if not conceded.any():
        return col.tricks(played.trick_leaders, played.trick_cards, played.trick_winners)
    # a conceded deal's tricks are -1 throughout: named as any card, then cut to none
    cards = np.where(conceded[:, None, None], 0, played.trick_cards)
    tricks = col.tricks(played.trick_leaders, cards, played.trick_winners)
    played_out = np.where(conceded, 0, played.trick_leaders.shape[1])
    return pl.DataFrame({"tricks": tricks, "n": played_out}).select(
        pl.col("tricks").list.head(pl.col("n"))).to_series()


def records(played: WidowDeals, first_deal: int = 0) -> Iterator[dict]:
    """The rows of :func:`frame` as dicts (keys in the documented order)."""
    yield from col.dicts(frame(played, first_deal))


def soloist_cards(played: WidowDeals, d: int) -> tuple[list[int], list[int]]:
    """The cards the soloist of played deal ``d`` played (his hand after the widow, any demand
    and burying) and the cards he buried, as copies per card type."""
    rules = played.rules
    soloist = int(played.info[d, I_SOLOIST])
    hand, buried = [0] * N_TYPES, [0] * N_TYPES
    for k in range(rules.hand_size):
        position = (soloist - int(played.trick_leaders[d, k])) % rules.players
        hand[int(played.trick_cards[d, k, position])] += 1
    for t in played.buried[d]:
        buried[int(t)] += 1
    return hand, buried
