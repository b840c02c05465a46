"""Array work behind the play records (:mod:`binokel_sim.records.columns`): hands as sorted card
types, the one step a numpy expression does slowly (a repeat by counts per row)."""

import numpy as np

from binokel_sim.kernels.options import njit


@njit
def sorted_types(planes, order, out):
    """Bit planes uint32 (rows, 4) (a thermometer code: plane k holds the types present at least
    k+1 times) -> each row's card types in ``order`` (int64 (24,): the card types in display
    order), every copy once, into ``out`` (rows, width), padded with -1. Returns the number of
    cards of each row, int64 (rows,); a row longer than ``width`` is cut short in ``out`` (the
    caller calls again with room for the longest).

    A type's copies are written four times without a branch and the position then advances by
    the count (the branch on a count would be mispredicted at almost every card type)."""
    rows = planes.shape[0]
    width = out.shape[1]
    lengths = np.empty(rows, dtype=np.int64)
    for i in range(rows):
        p0, p1, p2, p3 = planes[i, 0], planes[i, 1], planes[i, 2], planes[i, 3]
        k = 0
        for j in range(order.shape[0]):
            t = order[j]
            copies = (p0 >> t & 1) + (p1 >> t & 1) + (p2 >> t & 1) + (p3 >> t & 1)
            if k + 4 <= width:
                out[i, k] = t
                out[i, k + 1] = t
                out[i, k + 2] = t
                out[i, k + 3] = t
            else:
                for c in range(copies):
                    if k + c < width:
                        out[i, k + c] = t
            k += copies
        for rest in range(min(k, width), width):
            out[i, rest] = -1
        lengths[i] = k
    return lengths
