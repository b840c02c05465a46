"""Slow, obvious pure-Python twin of ``kernels/partnership/partner_meld.py`` (imports no kernel).

Deals come from :mod:`binokel_sim.reference.core` (the same random streams, the same partial
Fisher-Yates, the deck permutation carried within a block); melds are read straight from the
rules by :func:`binokel_sim.reference.core.meld_total`. Per deal: seat 0 names the suit with its
highest meld among the suits it may name (the first of S H D C on a tie), its own meld is its
total with that trump, the trump length its cards in that suit, and the partner (seat 2) melds
with that trump; a seat 0 that may name no suit is counted by its best total alone.
"""

from __future__ import annotations

from binokel_sim.cards import N_RANKS, N_SUITS
from binokel_sim.reference.core import deal_deals, deck_cards, may_name, meld_total
from binokel_sim.variants import Rules

PARTNER_SEAT = 2


def own_class(value: int, edges: list[int]) -> int:
    """The class ``[edges[i], edges[i+1])`` holding ``value``; the last class is open."""
    return max(i for i, low in enumerate(edges) if value >= low)


def deal_record(rules: Rules, hands: list[list[int]]) -> tuple[int, int, int, int]:
    """``(trump, own meld, trump length, partner meld)`` of one deal (counts per hand, seat 0
    first); trump -1 (length and partner meld -1) when seat 0 may name no suit."""
    own = hands[0]
    totals = [meld_total(rules, own, t) for t in range(N_SUITS)]
    allowed = [t for t in range(N_SUITS) if may_name(rules, own, t)]
    if not allowed:
        return -1, max(totals), -1, -1
    trump = max(allowed, key=lambda t: (totals[t], -t))
    length = sum(own[trump * N_RANKS + r] for r in range(N_RANKS))
    return trump, totals[trump], length, meld_total(rules, hands[PARTNER_SEAT], trump)


def partner_records(rules: Rules, n_deals: int, seed: int, block_size: int,
                    first_block: int = 0) -> list[tuple[int, int, int, int]]:
    """:func:`deal_record` of every deal, dealt like the kernel: seats 0 to P-2 by partial
    shuffles (the last seat takes the rest without a draw, so it is not dealt here)."""
    sizes = [rules.hand_size] * (rules.players - 1)
    deals = deal_deals(deck_cards(rules), sizes, n_deals, seed, block_size, first_block)
    return [deal_record(rules, hands) for hands in deals]


def partner_histogram(rules: Rules, n_deals: int, seed: int, block_size: int,
                      own_edges: list[int]) -> tuple[dict, dict]:
    """The kernel's histograms as dicts: ``{(own class, trump length, partner meld): deals}``
    and ``{own class: deals without a trump}``."""
    hist: dict[tuple[int, int, int], int] = {}
    no_trump: dict[int, int] = {}
    for trump, own, length, partner in partner_records(rules, n_deals, seed, block_size):
        c = own_class(own, own_edges)
        if trump < 0:
            no_trump[c] = no_trump.get(c, 0) + 1
        else:
            hist[c, length, partner] = hist.get((c, length, partner), 0) + 1
    return hist, no_trump
