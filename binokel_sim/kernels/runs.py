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

Every field is an int (int64 in the kernels).
"""

from collections import namedtuple

Run = namedtuple("Run", ["seed", "first_block", "block_size", "first_deal", "n_items"])
