"""Slow, obvious twin of :mod:`binokel_sim.kernels.uniformity`: the same deals from the same
block streams (:func:`binokel_sim.reference.core.block_streams`, the deck carried within a
block), counted with lists, and the constrained sampler's draws
(:func:`binokel_sim.reference.sampler.sample_counts`). Imports no kernel.
"""

from __future__ import annotations

from binokel_sim.cards import N_TYPES
from binokel_sim.reference.core import Stream, block_streams, deal_hand
from binokel_sim.reference.sampler import Bound, sample_counts

LAYOUT_SEATS = 0  # four-hand-80: partial shuffles for seats 0 .. P-2, the last seat the rest
LAYOUT_READ_OFF = 1  # the talon and widow games: one shuffle over 0 .. N-2, read off in order


def deal_counts(deck: list[int], layout: int, hand: int, n_seats: int,
                pairs: list[tuple[int, int, int, int]], seed: int, first_block: int,
                block_size: int, n_deals: int) -> tuple[list, list]:
    """Per block: ``cells[b][row][t]`` (rows: the seats, then each talon or widow position) and
    ``pair_hist[b][p][x][y]`` as ``kernels.uniformity.deal_count_blocks`` writes them."""
    n_rest = len(deck) - n_seats * hand
    n_blocks = -(-n_deals // block_size)
    cells = [[[0] * N_TYPES for _ in range(n_seats + n_rest)] for _ in range(n_blocks)]
    hist = [[[[0] * 5 for _ in range(5)] for _ in pairs] for _ in range(n_blocks)]
    for d, stream, work in block_streams(deck, n_deals, seed, block_size, first_block):
        b = d // block_size
        if layout == LAYOUT_SEATS:
            held = [deal_hand(work, s * hand, hand, stream) for s in range(n_seats - 1)]
            last = [0] * N_TYPES
            for t in work[(n_seats - 1) * hand:n_seats * hand]:
                last[t] += 1
            held += [last, [0] * N_TYPES]
        else:
            deal_hand(work, 0, len(work) - 1, stream)
            held = [[0] * N_TYPES for _ in range(n_seats + 1)]
            for j, t in enumerate(work):
                held[min(j // hand, n_seats)][t] += 1
        for s in range(n_seats):
            for t in range(N_TYPES):
                cells[b][s][t] += held[s][t]
        for j in range(n_rest):
            cells[b][n_seats + j][work[n_seats * hand + j]] += 1
        for p, (a, g, c, h) in enumerate(pairs):
            hist[b][p][held[g][a]][held[h][c]] += 1
    return cells, hist


def sampler_draws(pool: list[int], allowed: list[int], capacity: list[int], bound: Bound | None,
                  types: list[int], seed: int, first_block: int, block_size: int,
                  n: int) -> list[tuple[tuple[int, ...], ...]]:
    """Draws ``0 .. n - 1`` of ``kernels.uniformity.sampler_draw_blocks``: per draw, per group,
    the copies of each of ``types``."""
    out = []
    memo: dict = {}
    for i in range(n):
        if i % block_size == 0:
            stream = Stream(seed, first_block + i // block_size)
        split = sample_counts(pool, allowed, capacity, stream, memo, bound)
        out.append(tuple(tuple(row[t] for t in types) for row in split))
    return out
