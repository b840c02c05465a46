"""Slow, obvious twin of :mod:`binokel_sim.kernels.sampler`: the same constrained deal, counted
with Python integers (exact) and drawn from the same random stream, plus a brute-force
enumeration of every physical assignment for the tests' uniformity check.

Knowledge is given as in the kernel: ``pool`` (copies per card type still to place),
``allowed`` (per seat, the set of types it may hold, as a 24-bit mask) and ``capacity`` (cards
per seat). Imports no kernel.
"""

from __future__ import annotations

from itertools import product
from math import factorial

from binokel_sim.reference import Stream

N_TYPES = 24


def _may(allowed: list[int], seat: int, t: int) -> bool:
    return bool(allowed[seat] >> t & 1)


def splits(k: int, seats: int, allowed: list[int], t: int):
    """Every way ``(a_0, .., a_{seats-1})`` to split ``k`` copies of type ``t`` over the seats
    that may hold it, in the kernel's order (a_0 ascending, then a_1 ascending)."""
    for a in product(range(k + 1), repeat=seats):
        if sum(a) == k and all(a[s] == 0 or _may(allowed, s, t) for s in range(seats)):
            yield a


def multinomial(k: int, a) -> int:
    out = factorial(k)
    for x in a:
        out //= factorial(x)
    return out


def ways_from(t: int, need: tuple[int, ...], pool: list[int], allowed: list[int],
              memo: dict) -> int:
    """Consistent placements of the copies of types ``t..23`` when the seats still need
    ``need`` cards (exact integer)."""
    if t == N_TYPES:
        return 1 if all(n == 0 for n in need) else 0
    key = (t, need)
    if key not in memo:
        total = 0
        for a in splits(pool[t], len(need), allowed, t):
            rest = tuple(n - x for n, x in zip(need, a))
            if min(rest) >= 0:
                total += multinomial(pool[t], a) * ways_from(t + 1, rest, pool, allowed, memo)
        memo[key] = total
    return memo[key]


def count_ways(pool: list[int], allowed: list[int], capacity: list[int]) -> int:
    if sum(pool) != sum(capacity):
        return 0
    return ways_from(0, tuple(capacity), pool, allowed, {})


def sample_counts(pool: list[int], allowed: list[int], capacity: list[int],
                  stream: Stream, memo: dict | None = None) -> list[list[int]]:
    """One consistent deal as counts per seat and type; type by type, a split is chosen with
    probability (its ways) / (all ways), read off one 53-bit uniform per type with copies.
    ``memo``: the counts of earlier calls with the same pool, allowed and capacity, kept."""
    memo = {} if memo is None else memo
    seats = len(capacity)
    need = tuple(capacity)
    out = [[0] * N_TYPES for _ in range(seats)]
    for t in range(N_TYPES):
        k = pool[t]
        if k == 0:
            continue
        total = ways_from(t, need, pool, allowed, memo)
        u53 = stream.next_u64() >> 11  # u = u53 / 2**53; choose the first split whose running
        running = 0                    # sum of ways exceeds u * total (exact integers)
        chosen = None
        for a in splits(k, seats, allowed, t):
            rest = tuple(n - x for n, x in zip(need, a))
            if min(rest) < 0:
                continue
            w = multinomial(k, a) * ways_from(t + 1, rest, pool, allowed, memo)
            if w == 0:
                continue
            chosen = a
            running += w
            if u53 * total < running * 2**53:
                break
        for s in range(seats):
            out[s][t] = chosen[s]
        need = tuple(n - x for n, x in zip(need, chosen))
    return out


def enumerate_deals(pool: list[int], allowed: list[int], capacity: list[int]) -> dict:
    """Brute force: every assignment of the physical cards to seats that respects the knowledge,
    counted by the per-seat counts it gives: ``{counts as a tuple of tuples: assignments}``."""
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
        key = tuple(tuple(row) for row in per)
        found[key] = found.get(key, 0) + 1
    return found
