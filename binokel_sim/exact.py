"""Exact meld probabilities by combinatorics, no sampling.

A hand of ``h`` cards is a uniform ``h``-subset of the deck, so the counts of the card types a meld
looks at follow a multivariate hypergeometric law. A meld's count in a suit depends only on that
suit's cards and on the fixed melds it sits inside, so the suits are handled one at a time: each
suit gives a table of (value, cards used) -> number of ways, the tables are convolved, and the
cards nobody looks at fill the rest of the hand. A fixed meld's value is a minimum over suits;
``P(min >= k)`` is a product-separable event, and ``P(= k)`` is a difference of two of them
(inclusion-exclusion, over the meld and the melds it sits inside at once).

All arithmetic is on Python integers; probabilities are exact fractions.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from math import comb, prod

from binokel_sim.cards import N_SUITS, type_rank, type_suit
from binokel_sim.meld_rules import fixed_counted, suit_sets
from binokel_sim.variants import MeldSpec, Rules

FIXED_SCOPES = ("around", "cards")


def _fixed_ranks_in_suit(meld: MeldSpec, suit: int) -> tuple[int, ...]:
    return tuple(type_rank(t) for t in range(24) if meld.type_mask >> t & 1 and type_suit(t) == suit)


def _ways(rules: Rules, suits: list[tuple[tuple[int, ...], object]]) -> dict[int, int]:
    """Hands (as numbers of ways) by the summed value of per-suit functions.

    ``suits[s] = (ranks, fn)``: ``fn(counts)`` gets the counts of ``ranks`` in suit ``s`` and
    returns that suit's value, or None to exclude the hand.
    """
    h, c = rules.hand_size, rules.copies
    acc: dict[int, list[int]] = {0: [1] + [0] * h}
    looked_at = 0
    for ranks, fn in suits:
        looked_at += len(ranks) * c
        table: dict[int, list[int]] = {}
        for vec in product(range(c + 1), repeat=len(ranks)):
            used = sum(vec)
            if used > h:
                continue
            value = fn(vec)
            if value is None:
                continue
            table.setdefault(value, [0] * (h + 1))[used] += prod(comb(c, x) for x in vec)
        merged: dict[int, list[int]] = {}
        for v1, poly1 in acc.items():
            for v2, poly2 in table.items():
                out = merged.setdefault(v1 + v2, [0] * (h + 1))
                for u1, w1 in enumerate(poly1):
                    if w1:
                        for u2 in range(h + 1 - u1):
                            out[u1 + u2] += w1 * poly2[u2]
        acc = merged
    others = rules.deck_size - looked_at
    return {v: sum(w * comb(others, h - u) for u, w in enumerate(poly)) for v, poly in acc.items()}


def _fixed_distribution(rules: Rules, meld: MeldSpec) -> dict[int, Fraction]:
    """A fixed meld's count. Its multiplicity and those of the (around) melds it sits inside are
    fixed at ``w``; "every multiplicity >= floor" is product-separable over the suits, and
    "multiplicities == w" is inclusion-exclusion over raising each floor by one. The count is a
    function of ``w`` (:func:`binokel_sim.meld_rules.fixed_counted`)."""
    involved = [meld, *_ancestors(rules, meld)]
    c = rules.copies
    at_least: dict[tuple[int, ...], int] = {}

    def ways_at_least(floor: tuple[int, ...]) -> int:
        if floor not in at_least:
            suits = []
            for s in range(N_SUITS):
                per_meld = [_fixed_ranks_in_suit(m, s) for m in involved]
                ranks = tuple(sorted(set().union(*per_meld)))

                def value(vec, ranks=ranks, per_meld=per_meld):
                    count = dict(zip(ranks, vec))
                    ok = all(min((count[r] for r in mr), default=fl) >= fl
                             for mr, fl in zip(per_meld, floor))
                    return 0 if ok else None

                suits.append((ranks, value))
            at_least[floor] = sum(_ways(rules, suits).values())
        return at_least[floor]

    ways: dict[int, int] = {}
    for w in product(range(c + 1), repeat=len(involved)):
        count = fixed_counted(rules, {m.name: wm for m, wm in zip(involved, w)})[meld.name]
        n = 0
        for bump in product((0, 1), repeat=len(involved)):
            floor = tuple(wm + b for wm, b in zip(w, bump))
            if any(x > c for x in floor):
                continue
            n += (-1 if sum(bump) % 2 else 1) * ways_at_least(floor)
        ways[count] = ways.get(count, 0) + n
    total = comb(rules.deck_size, rules.hand_size)
    return {k: Fraction(n, total) for k, n in sorted(ways.items()) if n}


def _ancestors(rules: Rules, meld: MeldSpec) -> list[MeldSpec]:
    by_name = {m.name: m for m in rules.melds}
    found: dict[str, MeldSpec] = {}
    todo = list(meld.inside)
    while todo:
        name = todo.pop()
        if name not in found:
            found[name] = by_name[name]
            todo.extend(by_name[name].inside)
    return list(found.values())


def _suit_distribution(rules: Rules, meld: MeldSpec, trump: int) -> dict[int, Fraction]:
    ancestors = _ancestors(rules, meld)
    fixed = [a for a in ancestors if a.scope in FIXED_SCOPES]
    suit_ranks = sorted({r for m in [meld, *ancestors] if m.scope not in FIXED_SCOPES
                         for r in m.ranks})
    ways: dict[int, int] = {}
    c = rules.copies
    # Fix the fixed ancestors' multiplicities w; the event "sets == w" is "sets >= w" minus
    # "sets >= w + 1" (inclusion-exclusion over every fixed ancestor at once). What an ancestor
    # counts follows from w (an around meld inside another may count 0: fixed_counted).
    for w in product(range(c + 1), repeat=len(fixed)):
        # fixed melds that are not ancestors cannot change this meld: they count as 0 here
        kept = {m.name: 0 for m in rules.melds if m.scope in FIXED_SCOPES}
        counted = fixed_counted(rules, {f.name: wf for f, wf in zip(fixed, w)})
        kept.update({f.name: min(counted[f.name], f.counted_sets) for f in fixed})
        for bump in product((0, 1), repeat=len(fixed)):
            floor = [wf + b for wf, b in zip(w, bump)]
            if any(x > c for x in floor):
                continue
            sign = -1 if sum(bump) % 2 else 1
            suits = []
            for s in range(N_SUITS):
                fixed_ranks = [_fixed_ranks_in_suit(f, s) for f in fixed]
                ranks = tuple(sorted(set(suit_ranks).union(*fixed_ranks)))

                def value(vec, s=s, ranks=ranks, fixed_ranks=fixed_ranks, floor=floor, kept=kept):
                    count = dict(zip(ranks, vec))  # ranks no ancestor uses read as 0
                    for fr, fl in zip(fixed_ranks, floor):
                        if fr and min(count[r] for r in fr) < fl:
                            return None
                    return suit_sets(rules, lambda r: count.get(r, 0), s == trump, kept)[meld.name]

                suits.append((ranks, value))
            for v, n in _ways(rules, suits).items():
                ways[v] = ways.get(v, 0) + sign * n
    total = comb(rules.deck_size, rules.hand_size)
    return {v: Fraction(n, total) for v, n in sorted(ways.items()) if n}


def exact_meld_distribution(rules: Rules, meld_name: str, trump: int = 0) -> dict[int, Fraction]:
    """P(meld count == k) for every k with non-zero probability, for a hand dealt from the full
    deck, with ``trump`` (0..3) as trump."""
    meld = next((m for m in rules.melds if m.name == meld_name), None)
    if meld is None:
        raise KeyError(f"variant {rules.name} has no meld {meld_name!r}")
    if meld.scope in FIXED_SCOPES:
        return _fixed_distribution(rules, meld)
    return _suit_distribution(rules, meld, trump)
