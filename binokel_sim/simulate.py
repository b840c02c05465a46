"""Public drivers of the kernels: validation, allocation, chunking, threads and progress.

Work is cut into blocks of ``BLOCK_SIZE`` deals; block ``i`` always reads random stream ``(seed,
i)``, so a run gives the same numbers on 1 or N threads and in any chunking. Chunks of blocks go
to the block drivers one after another, each chunk spread over the threads by
:func:`spread_blocks`; between chunks the optional ``progress(done, total)``
callback is called (the CLI draws its progress bar from it; the library draws nothing).

A run is a list of tasks of fixed block ranges (:mod:`binokel_sim.backend`), run here one after
another or on a Dask cluster; each task returns integer counts, added up in task order.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numba
import numpy as np

from binokel_sim.cards import N_PLANES, N_TYPES
from binokel_sim.errors import SimulationError  # noqa: F401  (re-exported)
from binokel_sim.families import engine_family
from binokel_sim.kernels.deal import deal_blocks
from binokel_sim.kernels.meld_odds import MeldHists, meld_odds_blocks, meld_odds_table
from binokel_sim.kernels.runs import Run
from binokel_sim.tables import compile_tables
from binokel_sim.variants import Rules

BLOCK_SIZE = 16384
MAX_COUNT = 16  # a meld summed over four suits of four copies
Progress = Callable[[int, int], None]


def set_threads(threads: int | None) -> int:
    """Use ``threads`` worker threads (None: all); returns the number in use."""
    limit = numba.config.NUMBA_NUM_THREADS
    if threads is None:
        threads = limit
    if not 1 <= threads <= limit:
        raise SimulationError(f"--threads must be between 1 and {limit}, got {threads}")
    numba.set_num_threads(threads)
    return threads


def spread_blocks(kernel, n_blocks: int, /, *args, **kwargs) -> None:
    """Run a block driver (a kernel ``*_blocks``) over its blocks ``0 .. n_blocks - 1``: one
    contiguous share per thread in use (``numba.get_num_threads()``, :func:`set_threads`), each
    a call ``kernel(*args, **kwargs, share=(lo, hi))`` on its own thread. The kernels release the
    GIL (``nogil``), so the shares run at once; a block writes only its own slots and reads its
    own random stream, so the bytes do not depend on the split. (The drivers are serial kernels
    rather than numba ``prange`` loops: they compile in about a quarter less time,
    docs/performance.md.)"""
    threads = max(1, min(numba.get_num_threads(), n_blocks))
    bounds = [n_blocks * i // threads for i in range(threads + 1)]
    if threads == 1:
        kernel(*args, **kwargs, share=(0, n_blocks))
        return
    with ThreadPoolExecutor(max_workers=threads - 1) as pool:
        others = [pool.submit(kernel, *args, **kwargs, share=(bounds[i], bounds[i + 1]))
                  for i in range(1, threads)]
        kernel(*args, **kwargs, share=(bounds[0], bounds[1]))
        for other in others:
            other.result()


MAX_DEALS = 10**11  # about two hours of meld counting on two cores
MAX_MEMORY = 8 * 2**30  # result arrays above this would crowd a 24 GiB machine


def check_run(deals: int, seed: int, option: str = "--deals") -> None:
    """A run's size (named by its command-line ``option``) and seed are in range."""
    if deals < 1:
        raise SimulationError(f"{option} must be at least 1, got {deals}")
    if deals > MAX_DEALS:
        raise SimulationError(f"{option} must be at most {MAX_DEALS:,}, got {deals:,}")
    if not 0 <= seed < 2**63:
        raise SimulationError(f"--seed must be between 0 and 2**63 - 1, got {seed}")


def check_memory(n_bytes: int, what: str) -> None:
    """Refuse a run whose result arrays alone would take more than ``MAX_MEMORY``."""
    if n_bytes > MAX_MEMORY:
        raise SimulationError(f"{what} would need {n_bytes / 2**30:.0f} GiB of memory (at most "
                              f"{MAX_MEMORY / 2**30:.0f}); use fewer --deals")


def require_options(rules: Rules, what: str, **options) -> None:
    """Refuse a call of ``what`` (a function every engine family defines with one signature,
    docs/architecture.md, "The family registry") that left out an option ``rules``' family needs
    (the ``options`` given as None)."""
    missing = [name for name, value in options.items() if value is None]
    if missing:
        raise SimulationError(f"variant {rules.name}: the {engine_family(rules)} engine's {what} "
                              f"needs {', '.join(missing)}")


def refuse_options(rules: Rules, what: str, **options) -> None:
    """Refuse a call of ``what`` that gave an option ``rules``' family has no use for (the
    ``options`` given other than None): another family's option is an error, never ignored."""
    given = [name for name, value in options.items() if value is not None]
    if given:
        raise SimulationError(f"variant {rules.name}: the {engine_family(rules)} engine's {what} "
                              f"takes no {', '.join(given)}")


def chunks(deals: int, threads: int, block_size: int = BLOCK_SIZE, blocks_per_thread: int = 4):
    """``(first_block, first_deal, n_deals)`` of each chunk: whole blocks, a few per thread."""
    per_chunk = block_size * blocks_per_thread * threads
    start = 0
    while start < deals:
        n = min(per_chunk, deals - start)
        yield start // block_size, start, n
        start += n


def unseen_deck(rules: Rules, known: np.ndarray | None = None) -> np.ndarray:
    """The card types (int64) of every card not in ``known`` (counts per type)."""
    counts = rules.deck_counts()
    if known is not None:
        counts = counts - known
        if (counts < 0).any():
            raise SimulationError("the known cards hold more copies than the deck")
    return np.repeat(np.arange(N_TYPES, dtype=np.int64), counts)


def deal(rules: Rules, deals: int, seed: int, hand_sizes: list[int] | None = None,
         known: np.ndarray | None = None, threads: int | None = None) -> np.ndarray:
    """Deal ``deals`` deals of hands from the deck, or from its unseen rest around ``known``.

    ``hand_sizes`` defaults to every seat's hand (the widow/talon stays undealt). Returns the bit
    planes, uint32 (deals, len(hand_sizes), 4).
    """
    check_run(deals, seed)
    set_threads(threads)
    deck = unseen_deck(rules, known)
    sizes = np.array(hand_sizes or [rules.hand_size] * rules.players, dtype=np.int64)
    if (sizes < 1).any():
        raise SimulationError(f"hand sizes must be at least 1, got {sizes.tolist()}")
    if sizes.sum() > deck.shape[0]:
        raise SimulationError(f"hands of {sizes.sum()} cards in all but only {deck.shape[0]} "
                              f"cards to deal")
    out = np.empty((deals, sizes.shape[0], N_PLANES), dtype=np.uint32)
    spread_blocks(deal_blocks, -(-deals // BLOCK_SIZE), deck=deck, hand_sizes=sizes, seed=seed,
                  first_block=0, block_size=BLOCK_SIZE, out=out)
    return out


@dataclass(frozen=True)
class MeldCounts:
    """Histograms of a meld-odds run.

    count_hist  int64 (n_melds, MAX_COUNT + 1): hands holding each meld exactly c times
    total_hist  int64 (max_total + 1,): hands by best meld total
    """

    deals: int
    count_hist: np.ndarray
    total_hist: np.ndarray


def run_meld_counts(rules: Rules, deals: int, seed: int, trump: int = 0,
                    threads: int | None = None, progress: Progress | None = None,
                    backend=None) -> MeldCounts:
    """Deal ``deals`` single hands and histogram every meld (with ``trump``) and the best total.
    The run is tasks of ``backend.MELD_TASK_BLOCKS`` blocks (:func:`meld_counts_task`), run by
    ``backend`` (default: here, :class:`~binokel_sim.backend.LocalBackend`)."""
    from binokel_sim.backend import MELD_TASK_BLOCKS, LocalBackend, task_ranges, total

    check_run(deals, seed)
    set_threads(threads)
    compile_tables(rules)  # a variant the kernels cannot take fails here, not on a worker
    backend = backend if backend is not None else LocalBackend()
    ranges = task_ranges(deals, BLOCK_SIZE, MELD_TASK_BLOCKS)
    tasks = [(rules, seed, trump, block, n, backend.threads_for(threads))
             for block, _, n in ranges]
    count_hist, total_hist = total(backend.map(meld_counts_task, tasks,
                                               [n for *_, n in ranges], progress))
    return MeldCounts(deals, count_hist, total_hist)


def meld_counts_task(task: tuple) -> tuple[np.ndarray, np.ndarray]:
    """One task of :func:`run_meld_counts`: ``(rules, seed, trump, first_block, deals,
    threads)`` → the meld count and best-total histograms (int64) of blocks ``first_block ..``
    (``deals`` hands)."""
    from binokel_sim.backend import task_context, task_progress

    rules, seed, trump, first, deals, threads = task
    with task_context(threads) as n_threads:
        tables = compile_tables(rules)
        table = meld_odds_table(tables.kt, tables.trump_need, trump)
        progress = task_progress()
        count_hist = np.zeros((tables.n_melds, MAX_COUNT + 1), dtype=np.int64)
        total_hist = np.zeros(tables.max_total + 1, dtype=np.int64)
        for block, start, n in chunks(deals, n_threads):
            n_blocks = (n + BLOCK_SIZE - 1) // BLOCK_SIZE
            out = MeldHists(np.zeros((n_blocks, tables.n_melds, MAX_COUNT + 1), dtype=np.int64),
                            np.zeros((n_blocks, tables.max_total + 1), dtype=np.int64))
            run = Run(seed, first + block, BLOCK_SIZE, (first + block) * BLOCK_SIZE, n)
            spread_blocks(meld_odds_blocks, n_blocks, deck=tables.deck, hand_size=rules.hand_size,
                          mt=table, run=run, out=out)
            count_hist += out.count_hist.sum(axis=0)  # serial reduction, in block order
            total_hist += out.total_hist.sum(axis=0)
            if progress is not None:
                progress(start + n, deals)
    return count_hist, total_hist


def block_of(first: int, block_size: int, what: str = "deals") -> int:
    """The random-stream block item ``first`` of a run starts, which must be a block's first
    item (a run of items ``first ..`` then gives the same items as the whole run's)."""
    if first < 0 or first % block_size:
        raise SimulationError(f"a run of {what} must start at a multiple of {block_size}, got "
                              f"{first}")
    return first // block_size
