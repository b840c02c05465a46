"""Batch driver for meld tables: deal one hand, count every meld, histogram the results."""

import numpy as np
from numba import prange

from binokel_sim.kernels.deal import block_start, deal_planes
from binokel_sim.kernels.melds import may_name, meld_count, packed_counts, score_hand
from binokel_sim.kernels.options import njit_parallel


@njit_parallel
def meld_odds_blocks(deck, hand_size, kt, trump_need, fixed_trump, seed, first_block,
                     block_size, n_deals, count_hist, total_hist):
    """Deal ``n_deals`` hands of ``hand_size`` from ``deck`` and histogram their melds.

    Block ``b`` (deals ``b*block_size`` on) reads stream ``first_block + b`` and writes only its own
    slots: ``count_hist[b, m, c]`` (int64 (n_blocks, n_melds, 17)) counts hands holding meld ``m``
    exactly ``c`` times with ``fixed_trump`` as trump; ``total_hist[b, v]`` (int64 (n_blocks,
    max_total + 1)) counts hands whose best meld total is ``v``, best over the suits the hand may
    name (over all four suits when it may name none). Every hand is scored for all four trumps.
    """
    n_melds = kt[0].shape[0]
    n_blocks = count_hist.shape[0]
    for b in prange(n_blocks):
        state, work = block_start(deck, seed, first_block + b)
        totals = np.empty(4, dtype=np.int64)
        stop = min(n_deals, (b + 1) * block_size)
        for _ in range(b * block_size, stop):
            p0, p1, p2, p3 = deal_planes(work, 0, hand_size, state)
            key = score_hand(p0, p1, p2, p3, kt, totals)
            packed = packed_counts(kt, key, fixed_trump)
            for m in range(n_melds):
                count_hist[b, m, meld_count(packed, m)] += 1
            best_allowed = -1
            best_any = -1
            for t in range(4):
                best_any = max(best_any, totals[t])
                if totals[t] > best_allowed and may_name(p0, t, trump_need):
                    best_allowed = totals[t]
            total_hist[b, best_allowed if best_allowed >= 0 else best_any] += 1
