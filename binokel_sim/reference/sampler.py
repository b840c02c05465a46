"""Slow, obvious twin of :mod:`binokel_sim.kernels.sampler`: the same constrained deal, counted
with Python integers (exact) and drawn from the same random stream, plus a brute-force
enumeration of every physical assignment for the tests' uniformity check.

Knowledge is given as in the kernel: ``pool`` (copies per card type still to place),
``allowed`` (per seat, the set of types it may hold, as a 24-bit mask) and ``capacity`` (cards
per seat). Imports no kernel.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from math import factorial
from operator import sub
from typing import NamedTuple

from binokel_sim.cards import ALL_TYPES, N_TYPES, SUIT_MASK
from binokel_sim.reference.core import Stream


def _may(allowed: list[int], seat: int, t: int) -> bool:
    return bool(allowed[seat] >> t & 1)


def splits(k: int, seats: int, allowed: list[int], t: int) -> tuple[tuple[int, ...], ...]:
    """Every way ``(a_0, .., a_{seats-1})`` to split ``k`` copies of type ``t`` over the seats
    that may hold it, in the kernel's order (a_0 ascending, then a_1 ascending)."""
    return _splits(k, seats, tuple(allowed[:seats]), t)


@lru_cache(maxsize=None)
def _splits(k: int, seats: int, allowed: tuple[int, ...], t: int) -> tuple[tuple[int, ...], ...]:
    return tuple(a for a in compositions(k, seats)
                 if all(a[s] == 0 or _may(allowed, s, t) for s in range(seats)))


def compositions(k: int, parts: int):
    """Every ``(a_0, .., a_{parts-1})`` of non-negative integers summing to ``k``, ``a_0``
    ascending, then ``a_1`` ascending, ..."""
    if parts == 1:
        yield (k,)
        return
    for first in range(k + 1):
        for rest in compositions(k - first, parts - 1):
            yield (first, *rest)


def multinomial(k: int, a) -> int:
    out = factorial(k)
    for x in a:
        out //= factorial(x)
    return out


def weighted_splits(k: int, seats: int, allowed: list[int], t: int
                    ) -> tuple[tuple[tuple[int, ...], int], ...]:
    """``(split, multinomial(k, split))`` for every split of :func:`splits`, in its order."""
    return _weighted_splits(k, seats, tuple(allowed[:seats]), t)


@lru_cache(maxsize=None)
def _weighted_splits(k: int, seats: int, allowed: tuple[int, ...], t: int
                     ) -> tuple[tuple[tuple[int, ...], int], ...]:
    return tuple((a, multinomial(k, a)) for a in _splits(k, seats, allowed, t))


class Bound(NamedTuple):
    """The widow games' bound (``kernels/sampler.py``, "a lower bound on two groups together"):
    the soloist's and the buried groups hold at least ``lower[t]`` copies of each type between
    them, but one type may fall one short when ``slack`` is open, that type is one of ``given``
    (the types the card given back may be) and the holder's group holds a copy of it or ``held``
    has it (the types the holder is known to hold or has played). Of type ``demand`` (-1: none)
    the two groups hold no more than ``max(lower, 0)``."""

    lower: list[int]
    soloist: int
    buried: int
    holder: int
    given: int
    held: int
    slack: bool
    demand: int = -1


def consistent(counts: list[list[int]], bound: Bound | None) -> bool:
    """Whether per-group counts meet ``bound``, checked directly: the shortfalls of the two
    groups below ``lower``, at most one card in all, on a type the slack may take."""
    if bound is None:
        return True
    d = bound.demand
    if d >= 0 and counts[bound.soloist][d] + counts[bound.buried][d] > max(bound.lower[d], 0):
        return False
    short = {t: bound.lower[t] - counts[bound.soloist][t] - counts[bound.buried][t]
             for t in range(N_TYPES)}
    short = {t: n for t, n in short.items() if n > 0}
    if not short:
        return True
    if not bound.slack or len(short) > 1:
        return False
    (t, n), = short.items()
    holder_has = bound.holder >= 0 and counts[bound.holder][t] > 0
    return n == 1 and bool(bound.given >> t & 1) and (holder_has or bool(bound.held >> t & 1))


def _layer(bound: Bound | None, t: int, open_: bool, a) -> bool | None:
    """The slack after type ``t`` is split ``a`` (None: the split breaks the bound)."""
    if bound is None:
        return open_
    got = a[bound.soloist] + a[bound.buried]
    if t == bound.demand and got > max(bound.lower[t], 0):
        return None
    if got >= bound.lower[t]:
        return open_
    holder_has = bound.holder >= 0 and a[bound.holder] > 0
    if (open_ and got == bound.lower[t] - 1 and bound.given >> t & 1
            and (holder_has or bound.held >> t & 1)):
        return False
    return None


def ways_from(t: int, need: tuple[int, ...], pool: list[int], allowed: list[int],
              memo: dict, bound: Bound | None = None, open_: bool = False) -> int:
    """Consistent placements of the copies of types ``t..23`` when the seats still need
    ``need`` cards (exact integer); ``open_``: the bound's slack is still open."""
    if t == N_TYPES:
        return 1 if all(n == 0 for n in need) else 0
    key = (t, need, open_)
    total = memo.get(key)
    if total is None:
        total = 0
        for a, ways in weighted_splits(pool[t], len(need), allowed, t):
            rest = tuple(map(sub, need, a))  # what the seats still need
            if min(rest) < 0:
                continue
            after = _layer(bound, t, open_, a)
            if after is not None:
                total += ways * ways_from(t + 1, rest, pool, allowed, memo, bound, after)
        memo[key] = total
    return total


def count_ways(pool: list[int], allowed: list[int], capacity: list[int],
               bound: Bound | None = None) -> int:
    if sum(pool) != sum(capacity):
        return 0
    return ways_from(0, tuple(capacity), pool, allowed, {}, bound, bool(bound and bound.slack))


def sample_counts(pool: list[int], allowed: list[int], capacity: list[int],
                  stream: Stream, memo: dict | None = None,
                  bound: Bound | None = None) -> list[list[int]]:
    """One consistent deal as counts per seat and type; type by type, a split is chosen with
    probability (its ways) / (all ways), read off one 53-bit uniform per type with copies.
    ``memo``: the counts of earlier calls with the same pool, allowed, capacity and bound,
    kept."""
    memo = {} if memo is None else memo
    seats = len(capacity)
    need = tuple(capacity)
    open_ = bool(bound and bound.slack)
    out = [[0] * N_TYPES for _ in range(seats)]
    for t in range(N_TYPES):
        k = pool[t]
        if k == 0:
            if bound is not None:  # as the count did: an empty type may spend the slack
                open_ = _layer(bound, t, open_, (0,) * seats)
            continue
        total = ways_from(t, need, pool, allowed, memo, bound, open_)
        u53 = stream.next_u64() >> 11  # u = u53 / 2**53; choose the first split whose running
        running = 0                    # sum of ways exceeds u * total (exact integers)
        chosen = None
        for a, ways in weighted_splits(k, seats, allowed, t):
            rest = tuple(map(sub, need, a))  # what the seats still need
            after = _layer(bound, t, open_, a)
            if min(rest) < 0 or after is None:
                continue
            w = ways * ways_from(t + 1, rest, pool, allowed, memo, bound, after)
            if w == 0:
                continue
            chosen = (a, after)
            running += w
            if u53 * total < running * 2**53:
                break
        a, open_ = chosen
        for s in range(seats):
            out[s][t] = a[s]
        need = tuple(n - x for n, x in zip(need, a))
    return out


def enumerate_deals(pool: list[int], allowed: list[int], capacity: list[int],
                    bound: Bound | None = None) -> dict:
    """Brute force: every assignment of the physical cards to seats that respects the knowledge
    (and ``bound``, by :func:`consistent`), counted by the per-seat counts it gives: ``{counts
    as a tuple of tuples: assignments}``."""
    cards = [t for t in range(N_TYPES) for _ in range(pool[t])]
    seats = len(capacity)
    found: dict = {}
    for assignment in product(range(seats), repeat=len(cards)):
        per = [[0] * N_TYPES for _ in range(seats)]
        for card, s in zip(cards, assignment):
            per[s][card] += 1
        if any(sum(per[s]) != capacity[s] for s in range(seats)):
            continue
        if any(per[s][t] and not _may(allowed, s, t) for s in range(seats) for t in range(N_TYPES)):
            continue
        if not consistent(per, bound):
            continue
        key = tuple(tuple(row) for row in per)
        found[key] = found.get(key, 0) + 1
    return found


# --- small cases, enumerated exactly: the uniformity tests (tests/test_sampler.py) and the
# uniformity report (scripts/uniformity.py) draw them with the kernel and compare -------------

_ALL, _SUIT = ALL_TYPES, SUIT_MASK

PLAIN_CASES = {  # name: (pool, allowed, capacity)
    # 10 cards over three seats, one seat void in spades, one holding no spade above the queen
    "three seats, a void and a must-head bound":
        ([1, 0, 1, 0, 0, 2] + [1, 1, 0, 1, 0, 1] + [1, 0, 0, 0, 0, 1] + [0] * 6,
         [_ALL & ~_SUIT, _ALL, _ALL & ~0b111000], [3, 4, 3]),
    # two seats, copies of the same type: multiplicities matter (KS KS AS AS 9H 9H JH)
    "two seats, copies of a type":
        ([0, 0, 0, 2, 0, 2] + [2, 1, 0, 0, 0, 0] + [0] * 12, [_ALL, _ALL], [3, 4]),
    # three seats, nothing known: the plain random deal
    "three seats, nothing known":
        ([1, 1, 1, 0, 0, 2] + [1, 1, 0, 0, 0, 0] + [0] * 12, [_ALL, _ALL, _ALL], [2, 3, 2]),
    # three seats and two hidden talon cards (anything), two seats void in a suit each
    "three seats and a talon, two voids":
        ([1, 0, 1, 0, 0, 1] + [1, 0, 0, 1, 0, 1] + [0] * 12,
         [_ALL & ~_SUIT, _ALL & ~(_SUIT << 6), _ALL, _ALL], [2, 1, 1, 2]),
}

BOUNDED_CASES = {  # name: (pool, allowed, capacity, bound): the widow games' bound
    # the soloist (group 0) and the buried cards (group 2) hold both QS and the AH between them;
    # no slack (the holder, or no demand)
    "soloist and buried cards hold two types":
        ([0, 0, 1, 0, 0, 1] + [1, 0, 0, 0, 0, 1] + [1, 1, 0, 0, 0, 0] + [0] * 6,
         [_ALL, _ALL & ~(_SUIT << 6), _ALL], [3, 2, 1],
         Bound([0, 0, 1, 0, 0, 0] + [0, 0, 0, 0, 0, 1] + [0] * 12, 0, 2, -1, _ALL, 0, False)),
    # the same with one card of slack: the holder (group 1) may hold one of them instead, the
    # card given back; it is known to have played a 9D (type 12), which the slack may take too
    "the same with a card of slack":
        ([0, 0, 1, 0, 0, 1] + [1, 0, 0, 0, 0, 1] + [1, 1, 0, 0, 0, 0] + [0] * 6,
         [_ALL, _ALL, _ALL], [3, 2, 1],
         Bound([0, 0, 1, 0, 0, 0] + [0, 0, 0, 0, 0, 1] + [1] + [0] * 11, 0, 2, 1,
               _ALL & ~(1 << 13), 1 << 12, True)),
    # four groups (three seats and the buried cards), copies of a type, slack
    "four groups, copies of a type, slack":
        ([0, 0, 0, 2, 0, 2] + [1, 1, 0, 0, 0, 0] + [0] * 12, [_ALL, _ALL, _ALL, _ALL],
         [2, 2, 1, 1], Bound([0, 0, 0, 2, 0, 1] + [0] * 18, 1, 3, 2, _ALL, 0, True)),
    # a type none of whose copies is left to place (9D, type 12) short by one: it takes the
    # slack (the holder was given it and has played it), so every other type must meet its
    # bound; and the demanded type (KS, type 3): the two groups hold its one copy, not the other
    "the slack taken, a demanded type":
        ([0, 0, 1, 2, 0, 1] + [1, 0, 0, 0, 0, 1] + [0] * 12, [_ALL, _ALL, _ALL], [2, 2, 2],
         Bound([0, 0, 1, 1, 0, 0] + [0, 0, 0, 0, 0, 1] + [1] + [0] * 11, 0, 2, 1,
               _ALL & ~(1 << 3), 1 << 12, True, 3)),
}
