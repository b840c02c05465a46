"""The engine families' random streams and chunks: block sizes and how a run is cut.

A run of deals (games) is cut into blocks; block ``i`` always reads random stream ``(seed, i)``,
so a run gives the same bytes on 1 or N threads and in any chunking, and a run from deal
``first`` the same deals as the whole run's (docs/performance.md, "Threads").
"""

from __future__ import annotations

import math

from binokel_sim.simulate import block_of, chunks

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
