"""The exact endgame of a two-player talon game: phase 2 of two-hand-48, once the talon is gone.

Both hands are then known and play is strict (SPEC.md "Variant two-hand-48"), so the rest of the
deal is a game of perfect information. :func:`solve_endgame` checks a position (two hands of
equal size, a trump, the seat to lead), runs the kernel (:mod:`binokel_sim.kernels.strict.solver`) and
returns plain data: the card points each side secures with best play of both, every best card to
lead and what every lead is worth. The ``solve`` command prints it.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from binokel_sim.cards import (
    N_RANKS,
    N_TYPES,
    SUITS,
    counts_to_planes,
    format_card,
    format_counts,
    parse_card,
    parse_suit,
)
from binokel_sim.errors import CardError, SimulationError
from binokel_sim.hands import parse_hand
from binokel_sim.variants import Rules

Hand = str | Iterable[str] | np.ndarray  # card text, tokens, or counts per type (24,)


def solve_endgame(rules: Rules, hand: Hand, other: Hand, trump: int | str, leader: int = 0
                  ) -> dict:
    """Solve the position where seat 0 holds ``hand``, seat 1 ``other``, ``trump`` (suit index
    or letter) is trump and ``leader`` (0 or 1) leads the next trick.

    Returns ``{"variant", "trump", "leader", "hand", "other", "tricks", "points",
    "opponent_points", "total_points", "last_trick", "best_cards", "leads", "nodes"}``:
    ``points`` are the card points (the last trick's bonus, ``last_trick``, included) seat 0
    secures from here with best play of both sides, ``opponent_points`` what seat 1 secures
    (they add up to ``total_points``, everything still in play); ``best_cards`` every card with which the leader secures his side of that (cards sorted
    S H D C, high to low); ``leads`` one row per card the leader may lead, ``{"card", "points",
    "opponent_points"}`` after it; ``nodes`` the positions the searches visited.
    """
    from binokel_sim.families import TALON, check_supports, engine_family, supports
    from binokel_sim.kernels.strict import solver as kernel

    if not supports(rules, "solve"):
        check_supports(rules, "solve")  # the error naming the variants it takes
    if engine_family(rules) != TALON or rules.players != 2:
        raise SimulationError(f"the two-hand form (--hand, --other) is a two-player talon "
                              f"game's phase 2; a {rules.name} position is a play record cut "
                              f"at a card: give --position FILE")
    counts = [_counts(h, rules) for h in (hand, other)]
    _check_hands(rules, *counts, limit=min(rules.hand_size, kernel.MAX_CARDS))
    suit = parse_suit(trump) if isinstance(trump, str) else int(trump)
    if not 0 <= suit < len(SUITS):
        raise CardError(f"unknown trump suit {trump!r} (use S, H, D or C)")
    if leader not in (0, 1):
        raise SimulationError(f"the leader is seat 0 or 1, got {leader!r}")

    hands = np.stack([counts_to_planes(c) for c in counts]).astype(np.uint32)
    card_points = card_points_of(rules)
    ctx = np.zeros(kernel.CTX_SIZE, dtype=np.int64)
    table = np.zeros((1 << kernel.TT_BITS, 2), dtype=np.int64)
    values = np.empty(24, dtype=np.int64)
    points, _ = kernel.solve_leads(hands=hands, trump=suit, leader=leader, card_points=card_points,
                                   last_trick=rules.last_trick, ctx=ctx, tt=table, values=values)
    points = int(points)
    total = int((counts[0] + counts[1]) @ card_points) + rules.last_trick
    leads = [(t, int(values[t])) for t in display_order(values >= 0)]
    return {
        "variant": rules.name,
        "trump": SUITS[suit],
        "leader": leader,
        "hand": format_counts(counts[0]),
        "other": format_counts(counts[1]),
        "tricks": int(counts[0].sum()),
        "points": points,
        "opponent_points": total - points,
        "total_points": total,
        "last_trick": rules.last_trick,
        "best_cards": [format_card(t) for t, v in leads if v == points],
        "leads": [{"card": format_card(t), "points": v, "opponent_points": total - v}
                  for t, v in leads],
        "nodes": int(ctx[kernel.CTX_NODES]),
    }


def card_points_of(rules: Rules) -> np.ndarray:
    """Trick points per card type (int64 (24,)): ``tables.compile_tables(rules).card_points``
    without compiling the meld tables, which the solver does not need (0.6 s)."""
    return np.array([rules.rank_points[t % N_RANKS] for t in range(N_TYPES)], dtype=np.int64)


def _counts(hand: Hand, rules: Rules) -> np.ndarray:
    if isinstance(hand, np.ndarray):
        return np.asarray(hand, dtype=np.int64)
    return parse_hand(hand, rules, size=-1)


def _check_hands(rules: Rules, mine: np.ndarray, theirs: np.ndarray, limit: int) -> None:
    """Two hands after the talon: the same number of cards (1 to ``limit``), and no card more
    often between them than the deck holds it."""
    sizes = int(mine.sum()), int(theirs.sum())
    if sizes[0] != sizes[1]:
        raise CardError(f"the hands have {sizes[0]} and {sizes[1]} cards; after the talon both "
                        f"hold the same number")
    if sizes[0] == 0:
        raise CardError("the hands are empty; give each at least one card")
    if sizes[0] > limit:
        raise CardError(f"the hands have {sizes[0]} cards; after the talon a {rules.name} hand "
                        f"has at most {limit}")
    deck = rules.deck_counts()
    both = mine + theirs
    for t in np.flatnonzero(both > deck):
        raise CardError(f"{int(both[t])} copies of {format_card(int(t))} in the two hands, but "
                        f"the {rules.name} deck has {int(deck[t])}")


def display_order(held: np.ndarray) -> list[int]:
    """The card types of ``held`` (bool (24,)) as hands are shown: S H D C, high to low."""
    names = format_counts(held.astype(np.int64))
    return [parse_card(name) for name in names]
