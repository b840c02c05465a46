"""The run bundle a block driver takes: which items of which random streams it runs.

A named tuple, not five positional arguments (issue 51: kernel contracts as named bundles).
numba types a ``collections.namedtuple`` by its fields and caches the kernels that take one
(``cache=True``), so a driver's signature stays short and each field is documented here once:

- ``seed`` (int, ``0 <= seed < 2**63``): the run's seed;
- ``first_block``: the random-stream block of the run's first item; block ``b`` of the run
  reads stream ``(seed, first_block + b)`` (:func:`binokel_sim.kernels.deal.block_start`);
- ``block_size``: items per block (``binokel_sim.game_blocks.GAME_BLOCK`` for whole deals);
- ``first_deal``: the number of the run's first item (a deal's dealer and record number);
- ``n_items``: the items of the run (deals, samples or games), in blocks of ``block_size``.

Every field is an int (int64 in the kernels). :func:`placeholders` fills a driver's unused
outputs.
"""

from collections import namedtuple

import numpy as np

from binokel_sim.kernels.options import njit
from binokel_sim.kernels.sampler import unconstrained

Run = namedtuple("Run", ["seed", "first_block", "block_size", "first_deal", "n_items"])


@njit
def placeholders():
    """Empty outputs and a sample's known tuple for what a run does not use, one type each, so
    that every run of a block driver shares its one compiled signature (the talon and widow
    drivers; ``binokel_sim.game_blocks.run_outputs``): ``(known, hands, rows, tricks, diff)``
    (:func:`~binokel_sim.kernels.sampler.unconstrained`, uint32 (0, 1, 4), int64 (0, 1), int64
    (0, 1, 1), float64 (0,))."""
    return (unconstrained(np.zeros(4, dtype=np.uint32)), np.empty((0, 1, 4), dtype=np.uint32),
            np.empty((0, 1), dtype=np.int64), np.empty((0, 1, 1), dtype=np.int64),
            np.empty(0, dtype=np.float64))
