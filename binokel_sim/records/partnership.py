"""Simulated four-hand-80 deals (:class:`binokel_sim.engines.partnership.PlayedDeals`) as
records: a polars frame per chunk of deals (one row a deal, the record's keys as columns, in
order) and, from it, plain JSON-ready dicts. The format is docs/rules.md, "Play, bidding and
scoring". The names of :data:`binokel_sim.records.FAMILY_API`."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import polars as pl

from binokel_sim.engines.partnership import DEAL_FIELDS, PlayedDeals
from binokel_sim.kernels.auction import NO_BID
from binokel_sim.records import columns as col
from binokel_sim.variants import Rules

INFO = {name: i for i, name in enumerate(DEAL_FIELDS)}

SCHEMA = pl.Schema({
    "deal": pl.Int64,
    "hands": pl.List(col.CARDS),
    "dealer": pl.Int64,
    "bids": pl.List(col.CALL),
    "bidder": pl.Int64,
    "bid": pl.Int64,
    "trump": pl.String,
    "melds": col.INTS,
    "tricks": pl.List(pl.Struct({"leader": pl.Int64, "cards": col.CARDS, "winner": pl.Int64})),
    "play_points": col.INTS,
    "scores": col.INTS,
})


def schema(rules: Rules) -> pl.Schema:
    """The records' columns and types: :data:`SCHEMA`, the same for every partnership game."""
    return SCHEMA


def frame(played: PlayedDeals, first_deal: int = 0) -> pl.DataFrame:
    """One row per deal, columns :data:`SCHEMA`: ``deal``, ``hands`` (seat 0 first, as dealt),
    ``dealer``, ``bids`` (calls in order: ``{"seat", "bid"}``, ``bid`` null for a pass),
    ``bidder``, ``bid``, ``trump`` (null: the bid winner could name none), ``melds`` (points per
    seat with the named trump, null without one), ``tricks`` (``leader``, ``cards`` in play order
    from the leader, ``winner``; empty when the bid was lost before play), ``play_points`` and
    ``scores`` per pair (seats 0+2, 1+3)."""
    info = played.info
    deals = info.shape[0]
    trump = info[:, INFO["trump"]]
    melds = np.take_along_axis(played.melds, np.clip(trump, 0, None)[:, None, None], axis=2)
    return col.frame({
        "deal": pl.Series(np.arange(first_deal, first_deal + deals, dtype=np.int64)),
        "hands": col.hands(played.hands),
        "dealer": pl.Series(info[:, INFO["dealer"]]),
        "bids": col.calls(played.bid_seats, played.bid_values, info[:, INFO["n_calls"]], NO_BID),
        "bidder": pl.Series(info[:, INFO["bidder"]]),
        "bid": pl.Series(info[:, INFO["bid"]]),
        "trump": col.suits(trump),
        "melds": col.when(trump >= 0, col.ints(melds[:, :, 0])),
        "tricks": col.head(col.tricks(played.trick_leaders, played.trick_cards,
                                      played.trick_winners), info[:, INFO["n_tricks"]],
                           played.trick_leaders.shape[1]),
        "play_points": col.ints(info[:, [INFO["play_02"], INFO["play_13"]]]),
        "scores": col.ints(info[:, [INFO["score_02"], INFO["score_13"]]]),
    }).cast(SCHEMA)


def records(played: PlayedDeals, first_deal: int = 0) -> Iterator[dict]:
    """The rows of :func:`frame` as dicts."""
    yield from col.dicts(frame(played, first_deal))
