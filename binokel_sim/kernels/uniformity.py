"""Counting kernels of the uniformity report (``scripts/uniformity.py``): where the production
deal puts each card, and the constrained sampler's draws in bulk.

A deal is made exactly as the whole-deal kernels make it, from the same block streams
(:func:`~binokel_sim.kernels.deal.block_start`, the block's deck carried from deal to deal):

- ``LAYOUT_SEATS`` (four-hand-80, ``kernels/partnership/deals.py``):
  :func:`~binokel_sim.kernels.deal.deal_seats`, partial shuffles for seats ``0 .. P-2`` and the
  last seat the cards left; the hands are counted from the bit planes it writes.
- ``LAYOUT_READ_OFF`` (the talon and widow games, ``kernels/talon/deals.py``,
  ``kernels/widow/deals.py``, and sixty-six, ``kernels/sixty_six/deals.py``): one
  :func:`~binokel_sim.kernels.deal.deal_sum` over positions ``0 .. N-2`` of the block's deck as
  uint64, then the deck read off in order: hand ``s`` the positions ``s*H .. s*H+H-1``, the
  talon, stock or widow the positions after them, in order.

Between two deals the whole-deal kernels read the card policies' draws from the same stream;
these kernels deal only (the heuristic and expert seats of four-hand-80 read none, so there the
deals are the games' deals). ``reference/uniformity.py`` is the twin.
"""

import numpy as np

from binokel_sim.kernels.bits import N_TYPES
from binokel_sim.kernels.deal import block_start, deal_seats, deal_sum
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.random import seed_stream
from binokel_sim.kernels.sampler import sample_bounded

LAYOUT_SEATS = 0  # four-hand-80: deal_seats
LAYOUT_READ_OFF = 1  # the talon, widow and stock games: one shuffle, read off in order


@njit
def deal_count_blocks(deck, layout, hand, n_seats, pairs, seed, first_block, block_size,
                      n_deals, cells, pair_hist, share):
    """Deal ``n_deals`` deals of ``n_seats`` hands of ``hand`` cards from ``deck`` (int64 card
    types, :func:`binokel_sim.tables.compile_tables`' deck) in ``layout``, and count them.

    Deal ``d`` reads the stream of block ``first_block + d // block_size``; block ``b`` writes
    only its own rows ``cells[b]`` and ``pair_hist[b]`` (the caller adds them up):

    - ``cells`` int64 (n_blocks, n_seats + R, 24): row ``s < n_seats`` the copies of each type
      seat ``s`` was dealt, row ``n_seats + j`` the card at position ``j`` of the talon or widow
      (``R`` its cards; 0 in ``LAYOUT_SEATS``), summed over the block's deals;
    - ``pair_hist`` int64 (n_blocks, n_pairs, 5, 5): for each row ``(a, g, b, h)`` of ``pairs``
      (int64 (n_pairs, 4); a seat ``g, h <= n_seats``, ``n_seats`` the talon or widow as a
      whole) the deals by (copies of type ``a`` in ``g``, copies of type ``b`` in ``h``).

    ``share``: this call's blocks, ``share[0] <= b < share[1]``
    (:func:`binokel_sim.simulate.spread_blocks`).
    """
    n_cards = deck.shape[0]
    n_rest = cells.shape[1] - n_seats
    for b in range(share[0], share[1]):
        state, work = block_start(deck, seed, first_block + b)
        work64 = work.astype(np.uint64)  # deal_sum's deck, as the talon and widow kernels keep it
        s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
        hands = np.zeros((n_seats, 4), dtype=np.uint32)
        held = np.zeros((n_seats + 1, N_TYPES), dtype=np.int64)  # this deal's copies by seat
        for d in range(b * block_size, min(n_deals, (b + 1) * block_size)):
            held[:, :] = 0
            if layout == LAYOUT_SEATS:
                deal_seats(work, 0, hand, state, hands)
                for s in range(n_seats):
                    p0, p1, p2, p3 = hands[s, 0], hands[s, 1], hands[s, 2], hands[s, 3]
                    for t in range(N_TYPES):
                        bit = np.uint32(1) << np.uint32(t)
                        k = (((p0 & bit) != 0) + ((p1 & bit) != 0) + ((p2 & bit) != 0)
                             + ((p3 & bit) != 0))
                        held[s, t] = k
                        cells[b, s, t] += k
            else:
                _, s0, s1, s2, s3 = deal_sum(work64, n_cards - 1, s0, s1, s2, s3)
                for j in range(n_seats * hand):
                    t = np.int64(work64[j])
                    held[j // hand, t] += 1
                    cells[b, j // hand, t] += 1
                for j in range(n_rest):
                    t = np.int64(work64[n_seats * hand + j])
                    held[n_seats, t] += 1
                    cells[b, n_seats + j, t] += 1
            for p in range(pairs.shape[0]):
                x = held[pairs[p, 1], pairs[p, 0]]
                y = held[pairs[p, 3], pairs[p, 2]]
                pair_hist[b, p, x, y] += 1


@njit
def sampler_draw_blocks(pool, allowed, capacity, n_groups, ways, bound, types, seed,
                        first_block, block_size, out, share):
    """Draw ``out.shape[0]`` constrained deals with the production sampler
    (:func:`~binokel_sim.kernels.sampler.sample_bounded`: ``sample_counts`` when ``bound`` is
    None) of ``pool``, ``allowed``, ``capacity``, ``n_groups`` and ``ways``
    (:func:`~binokel_sim.kernels.sampler.count_bounded` of the same arguments, non-zero).

    Draw ``i`` reads the stream ``(seed, first_block + i // block_size)``, carried from draw to
    draw within a block. Writes ``out`` int8 (n, n_groups, len(types)): the copies of each of
    ``types`` (int64, the types the pool holds) each group was given.
    """
    n = out.shape[0]
    split = np.zeros((4, N_TYPES), dtype=np.int64)
    state = np.empty(4, dtype=np.uint64)
    for b in range(share[0], share[1]):
        seed_stream(state, seed, first_block + b)
        for i in range(b * block_size, min(n, (b + 1) * block_size)):
            sample_bounded(pool, allowed, capacity, n_groups, ways, state, split, bound)
            for g in range(n_groups):
                for k in range(types.shape[0]):
                    out[i, g, k] = split[g, types[k]]
