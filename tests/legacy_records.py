"""The play records as the dict builders made them before ``play`` streamed (one dict per deal
in Python, from a whole run's arrays), kept verbatim as the reference the columnar frames of
:mod:`binokel_sim.records.partnership`, :mod:`binokel_sim.records.talon` and
:mod:`binokel_sim.records.widow` must reproduce key for key and value for value."""

from __future__ import annotations

from collections.abc import Iterator

from binokel_sim.cards import (
    N_TYPES,
    SUITS,
    counts_of,
    format_card,
    format_counts,
    planes_to_counts,
)
from binokel_sim.constants import NO_BID
from binokel_sim.engines.partnership import DEAL_FIELDS, PlayedDeals, suit_letter
from binokel_sim.engines.talon import TalonDeals
from binokel_sim.engines.widow import WidowDeals
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
    I_SOLOIST,
    I_TRUMP,
)
from binokel_sim.tables import declaration_rows

CARD_NAMES = [format_card(t) for t in range(N_TYPES)]


def deal_records(played: PlayedDeals, first_deal: int = 0) -> Iterator[dict]:
    counts = planes_to_counts(played.hands).tolist()
    col = {name: i for i, name in enumerate(DEAL_FIELDS)}
    info_rows = played.info.tolist()
    for d, info in enumerate(info_rows):
        trump = info[col["trump"]]
        n_calls = info[col["n_calls"]]
        seats = played.bid_seats[d, :n_calls].tolist()
        values = played.bid_values[d, :n_calls].tolist()
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


def _declaration_table(rules) -> list[list[dict]]:
    table = []
    for trump in range(4):
        rows = []
        for meld, level, mask, points, _, _ in declaration_rows(rules, trump):
            counts = [level if mask >> t & 1 else 0 for t in range(N_TYPES)]
            rows.append({"meld": rules.melds[meld].name, "level": level,
                         "cards": format_counts(counts), "points": points})
        table.append(rows)
    return table


def talon_records(played: TalonDeals, first_deal: int = 0) -> Iterator[dict]:
    rules = played.rules
    players = rules.players
    phase1 = rules.talon // players
    declarations = _declaration_table(rules)
    swap_card = None
    if rules.swap_meld:
        swap_rank = next(m.ranks[0] for m in rules.melds if m.name == rules.swap_meld)
    counts = planes_to_counts(played.hands).tolist()
    talons = played.talon.tolist()
    points = played.points.tolist()
    cards_all = played.trick_cards.tolist()
    leaders_all = played.trick_leaders.tolist()
    winners_all = played.trick_winners.tolist()
    decl_all = played.declarations.tolist()
    for d, talon in enumerate(talons):
        trump = talon[-1] // 6
        drawn = list(talon)
        if rules.swap_meld:
            swap_card = trump * 6 + swap_rank
        tricks = []
        for k, (cards, leader, winner, (row, swap)) in enumerate(
                zip(cards_all[d], leaders_all[d], winners_all[d], decl_all[d])):
            declaration = None
            if row >= 0:
                declaration = {**declarations[trump][row], "swap": bool(swap)}
                if swap:
                    drawn[-1] = swap_card
            draws = [CARD_NAMES[t] for t in drawn[k * players:(k + 1) * players]] \
                if k < phase1 else []
            tricks.append({"leader": leader, "cards": [CARD_NAMES[c] for c in cards],
                           "winner": winner, "declaration": declaration, "draws": draws})
        card_points = [p[0] for p in points[d]]
        meld_points = [p[1] for p in points[d]]
        scores = [c + m for c, m in zip(card_points, meld_points)]
        record = {
            "deal": first_deal + d,
            "variant": rules.name,
            "dealer": (first_deal + d) % players,
            "hands": [format_counts(counts[d][seat]) for seat in range(players)],
            "talon": [CARD_NAMES[t] for t in talon],
            "trump": SUITS[trump],
            "turned_dix": talon[-1] % 6 == rules.turned_bonus_rank,
            "tricks": tricks,
            "card_points": card_points,
            "meld_points": meld_points,
            "scores": scores,
        }
        if rules.partnerships:
            record["pair_scores"] = [scores[0] + scores[2], scores[1] + scores[3]]
        yield record


def widow_records(played: WidowDeals, first_deal: int = 0) -> Iterator[dict]:
    rules = played.rules
    players = rules.players
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
        if info[I_CONCEDED]:
            tricks = []  # given up before the first lead
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
            "trump": SUITS[info[I_TRUMP]] if info[I_TRUMP] >= 0 else None,
            "melds": melds[d],
            "tricks": tricks,
            "card_points": card_points[d],
            "bonus": info[I_BONUS],
            "made": bool(info[I_MADE]),
            "conceded": bool(info[I_CONCEDED]),
            "durch": bool(info[I_DURCH]),
            "durch_open": bool(info[I_DURCH]) and rules.durch_open,
            "bettel": bool(info[I_BETTEL]),
            "scores": scores[d],
        }
        if rules.partnerships:
            record["pair_scores"] = [scores[d][0], scores[d][1]]
        yield record
