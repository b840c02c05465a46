"""Simulated widow deals (:class:`binokel_sim.widow_games.WidowDeals`) as JSON-ready records, in
the format of docs/rules.md ("Widow games", "Records")."""

from __future__ import annotations

from collections.abc import Iterator

from binokel_sim.cards import N_TYPES, SUITS, counts_of, format_card, format_counts, planes_to_counts
from binokel_sim.constants import NO_BID
from binokel_sim.kernels.widow import (
    I_BID,
    I_BONUS,
    I_CALLS,
    I_DEMAND,
    I_FROM,
    I_GIVEN,
    I_MADE,
    I_SOLOIST,
    I_TRUMP,
)
from binokel_sim.simulate import SimulationError
from binokel_sim.widow_games import WidowDeals

CARD_NAMES = [format_card(t) for t in range(N_TYPES)]


def widow_records(played: WidowDeals, first_deal: int = 0) -> Iterator[dict]:
    """One dict per deal (keys in the documented order)."""
    rules = played.rules
    players = rules.players
    if (played.info[:, I_CALLS] > played.bid_seats.shape[1]).any():
        raise SimulationError("an auction had more calls than the record has room for")
    counts = planes_to_counts(played.hands).tolist()
    info_rows = played.info.tolist()
    widows = played.widow.tolist()
    buried = played.buried.tolist()
    melds = played.melds.tolist()
    card_points = played.card_points.tolist()
    scores = played.scores.tolist()
    for d, info in enumerate(info_rows):
        n_calls = info[I_CALLS]
        seats = played.bid_seats[d, :n_calls].tolist()
        values = played.bid_values[d, :n_calls].tolist()
        demand = None
        if info[I_DEMAND] >= 0:
            demand = {"card": CARD_NAMES[info[I_DEMAND]], "from": info[I_FROM],
                      "given": CARD_NAMES[info[I_GIVEN]]}
        tricks = [{"leader": leader, "cards": [CARD_NAMES[c] for c in cards], "winner": winner}
                  for leader, cards, winner in zip(played.trick_leaders[d].tolist(),
                                                   played.trick_cards[d].tolist(),
                                                   played.trick_winners[d].tolist())]
        record = {
            "deal": first_deal + d,
            "variant": rules.name,
            "dealer": (first_deal + d) % players,
            "hands": [format_counts(counts[d][seat]) for seat in range(players)],
            "widow": format_counts(counts_of(widows[d])),
            "bids": [{"seat": seat, "bid": None if value == NO_BID else value}
                     for seat, value in zip(seats, values)],
            "soloist": info[I_SOLOIST],
            "bid": info[I_BID],
            "demand": demand,
            "buried": format_counts(counts_of(buried[d])),
            "trump": SUITS[info[I_TRUMP]],
            "melds": melds[d],
            "tricks": tricks,
            "card_points": card_points[d],
            "bonus": info[I_BONUS],
            "made": bool(info[I_MADE]),
            "scores": scores[d],
        }
        if rules.partnerships:
            record["pair_scores"] = [scores[d][0], scores[d][1]]
        yield record
