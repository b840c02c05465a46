"""Simulated talon deals (:class:`binokel_sim.talon_games.TalonDeals`) as JSON-ready records, in
the format of docs/rules.md ("Talon games", "Records")."""

from __future__ import annotations

from collections.abc import Iterator

from binokel_sim.cards import N_TYPES, SUITS, format_card, format_counts, planes_to_counts
from binokel_sim.tables import declaration_rows
from binokel_sim.talon_games import TalonDeals

CARD_NAMES = [format_card(t) for t in range(N_TYPES)]


def _declaration_table(rules) -> list[list[dict]]:
    """Per trump, per declaration row: the record's ``meld``, ``level``, ``cards``, ``points``."""
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
    """One dict per deal (keys in the documented order)."""
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
