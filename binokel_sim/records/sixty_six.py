"""Simulated sixty-six deals (the kernel's ``SixtySixDeals``) as the JSON-ready records of
docs/rules.md ("Sixty-six", "Records"): one dict a deal, its keys in the record's order.

The family's module of :mod:`binokel_sim.records` (its ``FAMILY_API``: :func:`schema`,
:func:`frame`, :func:`records`); :func:`deal_records` reads only the kernel's arrays and the
table.
"""

from __future__ import annotations

from collections.abc import Iterator

import polars as pl

from binokel_sim.cards import format_card, format_counts, format_suit, type_suit
from binokel_sim.kernels.sixty_six.rules import ANNOUNCED, CLOSED, EXCHANGED, REASONS


def hand_cards(mask: int) -> list[str]:
    """A hand's card-type mask as cards, sorted S H D C and high to low."""
    return format_counts([(mask >> t) & 1 for t in range(24)])


def marriage(table, suit: int, trump: int) -> dict:
    points = table.trump_marriage if suit == trump else table.marriage
    return {"suit": format_suit(suit), "points": int(points)}


def draws_of(stock: list[int], flags: list[int], nine: int) -> list[list[int]]:
    """Each trick's draws, rebuilt: two cards of the stock in order (the winner's first) after
    every trick until the stock is closed or exhausted; after an exchange the stock's last card
    is the nine."""
    if any(f & EXCHANGED for f in flags):
        stock = stock[:-1] + [nine]
    draws, top, closed = [], 0, False
    for f in flags:
        closed = closed or bool(f & CLOSED)
        if closed or top >= len(stock):
            draws.append([])
        else:
            draws.append(stock[top:top + 2])
            top += 2
    return draws


def trick_record(leader: int, winner: int, cards: list[int], flags: int, draws: list[int],
                 table, trump: int) -> dict:
    announced = marriage(table, type_suit(cards[0]), trump) if flags & ANNOUNCED else None
    return {"leader": leader, "exchange": bool(flags & EXCHANGED), "close": bool(flags & CLOSED),
            "marriage": announced, "cards": [format_card(c) for c in cards], "winner": winner,
            "draws": [format_card(c) for c in draws]}


def claim_record(claim: list[int], table, trump: int) -> dict | None:
    """The record's ``claim`` from the kernel's row (claimant, last trick, turn flags, suit)."""
    seat, after, flags, suit = claim
    if seat < 0:
        return None
    return {"seat": seat, "after": after,
            "marriage": marriage(table, suit, trump) if flags & ANNOUNCED else None,
            "exchange": bool(flags & EXCHANGED), "close": bool(flags & CLOSED)}


def deal_records(deals, table, variant: str, first_deal: int = 0) -> list[dict]:
    """The records of ``deals`` (``SixtySixDeals`` of a run from deal ``first_deal``), played
    under ``table`` (``SixtySixTable``: the marriages' points, the exchanged rank)."""
    out = []
    for d in range(deals.dealer.shape[0]):
        stock = deals.stock[d].tolist()
        trump = type_suit(stock[-1])
        n = int(deals.n_tricks[d])
        flags = deals.flags[d, :n].tolist()
        draws = draws_of(stock, flags, trump * 6 + int(table.exchange_rank))
        tricks = [trick_record(int(deals.leaders[d, k]), int(deals.winners[d, k]),
                               deals.cards[d, k].tolist(), flags[k], draws[k], table, trump)
                  for k in range(n)]
        seat, game_points, reason = deals.result[d].tolist()
        out.append({
            "deal": first_deal + d, "variant": variant, "dealer": int(deals.dealer[d]),
            "hands": [hand_cards(int(h)) for h in deals.hands[d]],
            "stock": [format_card(c) for c in stock], "trump": format_suit(trump), "tricks": tricks,
            "claim": claim_record(deals.claim[d].tolist(), table, trump),
            "points": deals.points[d].tolist(), "tricks_won": deals.tricks_won[d].tolist(),
            "result": {"seat": seat, "game_points": game_points, "reason": REASONS[reason]},
        })
    return out


# --- the family's records API (binokel_sim.records.FAMILY_API) ----------------------------------

MARRIAGE = pl.Struct({"suit": pl.String, "points": pl.Int64})
TRICK = pl.Struct({"leader": pl.Int64, "exchange": pl.Boolean, "close": pl.Boolean,
                   "marriage": MARRIAGE, "cards": pl.List(pl.String), "winner": pl.Int64,
                   "draws": pl.List(pl.String)})
CLAIM = pl.Struct({"seat": pl.Int64, "after": pl.Int64, "marriage": MARRIAGE,
                   "exchange": pl.Boolean, "close": pl.Boolean})
RESULT = pl.Struct({"seat": pl.Int64, "game_points": pl.Int64, "reason": pl.String})


def schema(rules) -> pl.Schema:
    """The columns of a sixty-six record frame: the record's keys, in order."""
    return pl.Schema({
        "deal": pl.Int64, "variant": pl.String, "dealer": pl.Int64,
        "hands": pl.List(pl.List(pl.String)), "stock": pl.List(pl.String), "trump": pl.String,
        "tricks": pl.List(TRICK), "claim": CLAIM, "points": pl.List(pl.Int64),
        "tricks_won": pl.List(pl.Int64), "result": RESULT})


def frame(played, first_deal: int = 0) -> pl.DataFrame:
    """One row per deal of ``played`` (``engines.sixty_six.SixtySixPlayed``), columns
    :func:`schema`."""
    rows = deal_records(played.deals, played.table, played.rules.name, first_deal)
    return pl.DataFrame(rows, schema=schema(played.rules), orient="row")


def records(played, first_deal: int = 0) -> Iterator[dict]:
    """The records of ``played`` as dicts (keys in the documented order)."""
    yield from deal_records(played.deals, played.table, played.rules.name, first_deal)
