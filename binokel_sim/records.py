"""Simulated deals (:class:`binokel_sim.games.PlayedDeals`) as plain JSON-ready records."""

from __future__ import annotations

from collections.abc import Iterator


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
    counts = planes_to_counts(played.hands).tolist()
    col = {name: i for i, name in enumerate(DEAL_FIELDS)}
    info_rows = played.info.tolist()
    for d, info in enumerate(info_rows):
        trump = info[col["trump"]]
        n_calls = info[col["n_calls"]]
        seats, values = played.bid_seats[d, :n_calls].tolist(), played.bid_values[d, :n_calls].tolist()
        n_tricks = info[col["n_tricks"]]
        cards = played.trick_cards[d, :n_tricks].tolist()
        leaders = played.trick_leaders[d, :n_tricks].tolist()
        winners = played.trick_winners[d, :n_tricks].tolist()
        yield {
            "deal": first_deal + d,
            "hands": [format_counts(counts[d][seat]) for seat in range(4)],
            "dealer": info[col["dealer"]],
            "bids": [{"seat": seat, "bid": None if value == NO_BID else value}
                     for seat, value in zip(seats, values)],
            "bidder": info[col["bidder"]],
            "bid": info[col["bid"]],
            "trump": suit_letter(trump),
            "melds": played.melds[d, :, trump].tolist() if trump >= 0 else None,
            "tricks": [{"leader": leader, "cards": [CARD_NAMES[c] for c in trick],
                        "winner": winner}
                       for leader, trick, winner in zip(leaders, cards, winners)],
            "play_points": [info[col["play_02"]], info[col["play_13"]]],
            "scores": [info[col["score_02"]], info[col["score_13"]]],
        }
