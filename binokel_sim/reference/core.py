"""Slow, obvious pure-Python twins of the kernels, for tests and baseline benchmarks.

Nothing here uses bit tricks or numba: hands are counts per card type (lists of 24 ints) and the
meld rules are read straight from :class:`binokel_sim.variants.Rules`. The random generator is a
plain port of the kernels' splitmix64 / xoshiro256++ / Lemire draws (32 bits for the card
policies, 16 bits for the shuffles), so a reference deal with the same seed and block must give the
same hands as the kernel.
"""

from __future__ import annotations

from binokel_sim.cards import N_SUITS, N_TYPES
from binokel_sim.constants import RACE_DELTA, RACE_EVERY, RACE_Z2
from binokel_sim.meld_rules import fixed_sets, may_name, meld_table, meld_tables, suit_sets
from binokel_sim.variants import Rules

# re-exported: the twin reads melds through them (the rules read straight, no bit tricks)
__all__ = ["fixed_sets", "may_name", "meld_table", "meld_tables", "suit_sets"]

M64 = (1 << 64) - 1


# --- random streams ---------------------------------------------------------------------------

def splitmix64(x: int) -> int:
    z = (x + 0x9E3779B97F4A7C15) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


class Stream:
    """xoshiro256++ seeded like ``kernels.random.seed_stream(state, seed, block)``."""

    def __init__(self, seed: int, block: int):
        x = splitmix64(seed & M64) ^ splitmix64((block + 0x94D049BB133111EB) & M64)
        self.s = []
        for i in range(4):
            x = splitmix64((x + i) & M64)
            self.s.append(x)
        if not any(self.s):
            self.s[0] = 0x9E3779B97F4A7C15

    def next_u64(self) -> int:
        s0, s1, s2, s3 = self.s

        def rotl(x: int, k: int) -> int:
            return ((x << k) | (x >> (64 - k))) & M64

        result = (rotl((s0 + s3) & M64, 23) + s0) & M64
        t = (s1 << 17) & M64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        self.s = [s0, s1, s2, s3]
        return result

    def bounded(self, x32: int, n: int) -> int:
        """Uniform in [0, n) from 32 bits, rejecting (and drawing afresh) like the kernel."""
        m = x32 * n
        if (m & 0xFFFFFFFF) < n:
            threshold = (2**32 - n) % n
            while (m & 0xFFFFFFFF) < threshold:
                m = (self.next_u64() >> 32) * n
        return m >> 32

    def bounded16(self, x16: int, n: int) -> int:
        """Uniform in [0, n) from 16 bits, rejecting (and drawing afresh from the top 16 bits of
        the next output) like the kernel's ``bounded16``."""
        m = x16 * n
        if (m & 0xFFFF) < n:
            threshold = (2**16 - n) % n
            while (m & 0xFFFF) < threshold:
                m = (self.next_u64() >> 48) * n
        return m >> 16


def deal_hand(work: list[int], start: int, size: int, stream: Stream) -> list[int]:
    """Partial Fisher-Yates: shuffle ``size`` cards into ``work[start:start+size]`` and return the
    hand as counts per card type. Four 16-bit draws per 64-bit output (top bits first; the rest
    of the last output is dropped), like the kernel."""
    quarters: list[int] = []
    for i in range(start, start + size):
        if not quarters:
            r = stream.next_u64()
            quarters = [(r >> 48) & 0xFFFF, (r >> 32) & 0xFFFF, (r >> 16) & 0xFFFF, r & 0xFFFF]
        j = i + stream.bounded16(quarters.pop(0), len(work) - i)
        work[i], work[j] = work[j], work[i]
    counts = [0] * N_TYPES
    for t in work[start:start + size]:
        counts[t] += 1
    return counts


def deck_cards(rules: Rules) -> list[int]:
    """The card type of every physical card of the deck, ascending."""
    return [t for t in range(N_TYPES) for _ in range(int(rules.deck_counts()[t]))]


def block_streams(deck: list[int], n_deals: int, seed: int, block_size: int,
                  first_block: int = 0):
    """``(d, stream, work)`` for every deal ``d``: a fresh stream and a fresh copy of the deck at
    the start of each block (like ``kernels.deal.block_start``), carried over within the block."""
    for d in range(n_deals):
        if d % block_size == 0:
            stream = Stream(seed, first_block + d // block_size)
            work = list(deck)
        yield d, stream, work


def deal_deals(deck: list[int], hand_sizes: list[int], n_deals: int, seed: int,
               block_size: int, first_block: int = 0) -> list[list[list[int]]]:
    """Deals as counts per hand, stream per block, the deck permutation carried within a block."""
    deals = []
    for _, stream, work in block_streams(deck, n_deals, seed, block_size, first_block):
        hands, start = [], 0
        for size in hand_sizes:
            hands.append(deal_hand(work, start, size, stream))
            start += size
        deals.append(hands)
    return deals


# --- melds --------------------------------------------------------------------------------------

def meld_total(rules: Rules, counts: list[int], trump: int) -> int:
    return sum(points for _, _, points in meld_table(rules, counts, trump))


def meld_totals(rules: Rules, counts: list[int]) -> list[int]:
    """:func:`meld_total` with each suit as trump, S H D C."""
    return [sum(points for _, _, points in table) for table in meld_tables(rules, counts)]


def best_total(rules: Rules, counts: list[int]) -> int:
    """Best meld total over the suits the hand may name (all four if it may name none)."""
    totals = meld_totals(rules, counts)
    allowed = [totals[t] for t in range(N_SUITS) if may_name(rules, counts, t)]
    return max(allowed) if allowed else max(totals)


def meld_odds_counts(rules: Rules, n_deals: int, seed: int, trump: int, block_size: int):
    """The reference for ``kernels.meld_odds``: per-meld count histograms and best totals."""
    deck = deck_cards(rules)
    count_hist = {m.name: {} for m in rules.melds}
    total_hist: dict[int, int] = {}
    for (hand,) in deal_deals(deck, [rules.hand_size], n_deals, seed, block_size):
        for name, count, _ in meld_table(rules, hand, trump):
            count_hist[name][count] = count_hist[name].get(count, 0) + 1
        best = best_total(rules, hand)
        total_hist[best] = total_hist.get(best, 0) + 1
    return count_hist, total_hist


def inferring(inference: str, seat: int, declarer: int) -> bool:
    """Whether ``seat``'s sampling decision respects what the play excluded, under
    ``inference``: ``full`` every seat's, ``declarer`` only the declarer's (the bid winner, the
    soloist; -1 none), ``off`` none."""
    return inference == "full" or (inference == "declarer" and seat == declarer)


def race_zone(seats_per_side: int) -> int:
    """The race's indifference zone for a seat whose side has ``seats_per_side`` seats
    (``kernels/strict/sampling.py`` race_zone, which takes the partnership flag: a side of two
    seats or of one): ``RACE_DELTA`` shared by the side's seats, who make that many times the
    decisions of a deal."""
    return RACE_DELTA // seats_per_side


def race_leader(alive: list[int], values: dict[int, list[int]]) -> int:
    """The type of ``alive`` with the highest sum of ``values``, the lowest type on a tie
    (``kernels/strict/sampling.py`` best_type): the race's leader and the decision's card."""
    return max(alive, key=lambda t: (sum(values[t]), -t))


def race_survivors(alive: list[int], values: dict[int, list[int]], n_samples: int,
                   zone: int) -> list[int]:
    """The card types of ``alive`` still in the sampling decision's race after a sample
    (``kernels/strict/sampling.py`` race_step): ``values[t]`` the values of ``t`` on the ``n``
    samples so far (the same samples for every type). Unless ``n`` is a multiple of
    ``RACE_EVERY`` below ``n_samples`` (a look) all of ``alive`` stay. At a look the leader (the
    highest sum, the lowest type on a tie) stays, and every type whose differences to it have a
    mean not ``z`` standard errors below ``zone`` (the indifference zone, :func:`race_zone`):
    with ``S`` the sum and ``Q`` the sum of squares of the differences and ``M = zone n - S``, a
    type goes when ``M > 0`` and ``z**2 (n Q - S**2) < (n - 1) M**2``, ``z**2`` the integer
    ``RACE_Z2``."""
    n = len(values[alive[0]])
    if n % RACE_EVERY or n >= n_samples:
        return alive
    lead = race_leader(alive, values)
    keep = []
    for t in alive:
        diffs = [a - b for a, b in zip(values[t], values[lead])]
        s, q = sum(diffs), sum(d * d for d in diffs)
        m = zone * n - s
        if t != lead and m > 0 and RACE_Z2 * (n * q - s * s) < (n - 1) * m * m:
            continue
        keep.append(t)
    return keep
