"""Hands checked against a variant: the deck's cards, its copies and its hand size."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from binokel_sim.cards import CardError, counts_of, format_card, parse_cards
from binokel_sim.variants import Rules


def parse_hand(text: str | Iterable[str], rules: Rules, size: int | None = None) -> np.ndarray:
    """Cards -> counts per type (int64 (24,)), checked against ``rules``.

    ``size`` is the number of cards the task needs: None (the default) means the variant's hand
    size, -1 skips the check. Errors name the offending token or count.
    """
    types = parse_cards(text)
    deck = rules.deck_counts()
    for t in types:
        if deck[t] == 0:
            raise CardError(f"{format_card(t)} is not in the {rules.name} deck")
    counts = counts_of(types)
    for t in np.flatnonzero(counts > deck):
        raise CardError(f"{int(counts[t])} copies of {format_card(int(t))}, but the {rules.name} "
                        f"deck has {int(deck[t])}")
    expected = rules.hand_size if size is None else size
    if expected >= 0 and len(types) != expected:
        raise CardError(f"the hand has {len(types)} cards; a {rules.name} hand has {expected}")
    return counts
