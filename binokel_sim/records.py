"""Simulated deals (:class:`binokel_sim.games.PlayedDeals`) as plain JSON-ready records."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from binokel_sim.cards import N_TYPES, format_card, format_counts, planes_to_counts
from binokel_sim.games import DEAL_FIELDS, PlayedDeals, suit_letter
from binokel_sim.kernels.auction import NO_BID


CARD_NAMES = [format_card(t) for t in range(N_TYPES)]


def deal_records(played: PlayedDeals, first_deal: int = 0) -> Iterator[dict]:
    """One dict per deal: ``deal``, ``hands`` (seat 0 first, as dealt), ``dealer``, ``bids`` (calls
    in order: ``{"seat", "bid"}``, ``bid`` null for a pass), ``bidder``, ``bid``, ``trump`` (null:
    the bid winner could name none), ``melds`` (points per seat with the named trump, null without
    one), ``tricks`` (``leader``, ``cards`` in play order from the leader, ``winner``; empty when
    the bid was lost before play), ``play_points`` and ``scores`` per pair (seats 0+2, 1+3)."""
    counts = planes_to_counts(played.hands)
    col = {name: i for i, name in enumerate(DEAL_FIELDS)}
    for d in range(played.info.shape[0]):
        info = played.info[d]
        trump = int(info[col["trump"]])
        calls = []
        for k in range(int(info[col["n_calls"]])):
            value = int(played.bid_values[d, k])
            calls.append({"seat": int(played.bid_seats[d, k]),
                          "bid": None if value == NO_BID else value})
        tricks = [{"leader": int(played.trick_leaders[d, k]),
                   "cards": [CARD_NAMES[c] for c in played.trick_cards[d, k].tolist()],
                   "winner": int(played.trick_winners[d, k])}
                  for k in range(int(info[col["n_tricks"]]))]
        yield {
            "deal": first_deal + d,
            "hands": [format_counts(counts[d, seat]) for seat in range(4)],
            "dealer": int(info[col["dealer"]]),
            "bids": calls,
            "bidder": int(info[col["bidder"]]),
            "bid": int(info[col["bid"]]),
            "trump": suit_letter(trump),
            "melds": [int(played.melds[d, seat, trump]) for seat in range(4)] if trump >= 0
            else None,
            "tricks": tricks,
            "play_points": [int(info[col["play_02"]]), int(info[col["play_13"]])],
            "scores": [int(info[col["score_02"]]), int(info[col["score_13"]])],
        }
