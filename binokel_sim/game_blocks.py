"""The engine families' random streams and chunks: block sizes and how a run is cut.

A run of deals (games) is cut into blocks; block ``i`` always reads random stream ``(seed, i)``,
so a run gives the same bytes on 1 or N threads and in any chunking, and a run from deal
``first`` the same deals as the whole run's (docs/performance.md, "Threads").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from binokel_sim.kernels.runs import Run, placeholders
from binokel_sim.simulate import (Progress, block_of, check_memory, check_run, chunks,
                                  set_threads)

GAME_BLOCK = 1024  # deals per random stream: play-outs are slower than meld counts
MATCH_BLOCK = 64  # games per random stream: a game is many deals
SAMPLED_BLOCK = 8  # items per random stream when a seat samples (a divisor of the blocks)
MAX_GAME_DEALS = 1000  # a game still open after this many deals is reported unfinished


def stream_blocks(first: int, slow: bool, base: int, what: str = "deals") -> tuple[int, int]:
    """``(block_size, first_block)`` of a run whose first item is ``first`` (a multiple of the
    block size): blocks of ``base`` items (:data:`GAME_BLOCK` or :data:`MATCH_BLOCK`), or, when
    a seat samples (``slow``), of ``gcd(base, SAMPLED_BLOCK)`` items, so that even a run of a few
    hundred sampled deals spreads over the threads (the threads split a run by whole blocks; a
    sampled deal costs thousands of heuristic ones). Block ``i`` reads stream ``(seed, i)``
    either way: a run gives the same bytes on any thread count, and a run from ``first`` the
    same items as the whole run's. (The commands' tasks start at a whole ``base``; ``play
    --deal`` starts a sampled run at its deal's small block.)"""
    size = math.gcd(base, SAMPLED_BLOCK) if slow else base
    return size, block_of(first, size, what)


def chunk_blocks(total: int, threads: int, block: int):
    """Chunks of whole blocks of ``block`` items, eight per thread (the progress bar moves a
    chunk at a time). The results do not depend on the chunks."""
    return chunks(total, threads, block, blocks_per_thread=8)


@dataclass(frozen=True)
class Plan:
    """How a run is cut, checked once by :func:`plan_run`: ``n`` items from item ``first`` in
    blocks of ``block`` items, block ``i`` of the run reading stream ``(seed, offset + i)``,
    split over ``threads`` threads."""

    n: int
    seed: int
    first: int
    block: int
    offset: int
    threads: int

    def steps(self, progress: Progress | None = None):
        """Each chunk's :class:`~binokel_sim.kernels.runs.Run` and its slice of the run's
        output rows; ``progress(done, n)`` is called after each chunk the caller ran. The
        chunks are whole blocks, eight per thread; the results do not depend on them."""
        for first_block, start, count in chunk_blocks(self.n, self.threads, self.block):
            yield Run(self.seed, self.offset + first_block, self.block, self.first + start,
                      count), slice(start, start + count)
            if progress is not None:
                progress(start + count, self.n)


def plan_run(n: int, seed: int, *, first: int = 0, block: int = GAME_BLOCK, slow: bool = False,
             threads: int | None = None, row_bytes: int = 0, what: str = "deals",
             option: str = "--deals") -> Plan:
    """The one preamble of every family's ``run_*`` driver: the run's size (``--deals``, or
    ``--games``/``--samples`` for ``what`` games/samples) and seed in range, the thread count
    set, the blocks cut (:func:`stream_blocks`: ``block`` items, fewer when a seat samples,
    ``slow``; ``first`` a multiple of the block), and the result arrays' ``n * row_bytes`` bytes
    within the memory bound. Returns the :class:`Plan` whose :meth:`Plan.steps` the driver
    runs its kernel over."""
    check_run(n, seed, option)
    n_threads = set_threads(threads)
    size, offset = stream_blocks(first, slow, block, what)
    check_memory(n * row_bytes, f"{n:,} {what}")
    return Plan(n, seed, first, size, offset, n_threads)


def run_outputs(bundle: type, family: str, shapes: dict[str, str], arrays: dict):
    """A block driver's outputs bundle (a named tuple class, e.g. ``TalonOuts``, ``WidowOuts``):
    ``arrays`` by field name, every other field a placeholder of the one type the driver is
    compiled for (:func:`~binokel_sim.kernels.runs.placeholders`: ``shapes`` names a field's
    kind, ``"hands"``, ``"tricks"`` or ``"diff"``, else ``"rows"``), so every run shares one
    compiled driver. A name that is no field of ``bundle`` is a TypeError naming ``family``."""
    _, hands, rows, tricks, diff = placeholders()
    empty = {"hands": hands, "rows": rows, "tricks": tricks, "diff": diff}
    unknown = set(arrays) - set(bundle._fields)
    if unknown:
        raise TypeError(f"no {family} output named {', '.join(sorted(unknown))}")
    return bundle(*(arrays[f] if f in arrays else empty[shapes.get(f, "rows")]
                    for f in bundle._fields))
