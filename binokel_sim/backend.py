"""Where a run's tasks execute: in this process, or on a Dask cluster (docs/distributed.md).

A run is cut into **tasks** of fixed block ranges (:func:`task_ranges`: a constant number of
random-stream blocks per task, set per command below and never derived from the worker or thread
count). Every task is a picklable top-level function of one argument (a tuple) that returns only
integer counts and sums (Python ints, int64 arrays, :class:`~binokel_sim.stats.Hist`); the
results come back in task order and are added up with :func:`total`. Integer addition is exact,
so a run gives the same bytes whichever backend ran its tasks, on how many workers and threads.

- :class:`LocalBackend` runs the tasks in this process one after another (numba's threads split
  each task's blocks, as before there were tasks);
- :class:`DaskBackend` hands them to a ``distributed.Client``: a local cluster of worker
  processes (``--workers K``) or a running scheduler (``--scheduler tcp://HOST:PORT``).

:func:`open_backend` chooses and starts one from the command-line options.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from binokel_sim.errors import SimulationError

INSTALL_HINT = '--workers/--scheduler need dask: pip install "binokel-sim[dask]"'
CONNECT_TIMEOUT = 5  # seconds to reach a scheduler, and for it to have a worker
# a local cluster's scheduler: no dashboard, and its HTTP endpoints on a free loopback port
# (not 8787, where another cluster may be: that would be a warning on stderr)
QUIET_SCHEDULER = {"dashboard_address": "127.0.0.1:0"}

# Task sizes, in random-stream blocks (simulate.BLOCK_SIZE = 16,384 hands for meld-odds,
# games.GAME_BLOCK = 1,024 deals for the play-outs, games.MATCH_BLOCK = 64 games for match),
# chosen so that a task is about a second or more of work on two cores (measured per variant:
# docs/distributed.md, "What runs where"). They are constants: the tasks of a run never depend
# on the workers or threads.
MELD_TASK_BLOCKS = 1024  # 16,777,216 hands
BID_TASK_BLOCKS = 256  # 262,144 deals played out once per trump studied (bid-odds)
DEAL_TASK_BLOCKS = 256  # 262,144 deals (deal-odds)
DUEL_TASK_BLOCKS = 256  # 262,144 deals, each played once per side
MATCH_TASK_BLOCKS = 1024  # 65,536 whole games


def task_ranges(total: int, block_size: int, blocks_per_task: int) -> list[tuple[int, int, int]]:
    """``(first_block, first_item, n)`` of every task of a run of ``total`` items: whole blocks
    of ``block_size`` items, ``blocks_per_task`` of them a task (the last task may be short).
    The list depends on nothing else (not on workers, not on threads)."""
    per_task = block_size * blocks_per_task
    return [(start // block_size, start, min(per_task, total - start))
            for start in range(0, total, per_task)]


# --- inside a task -------------------------------------------------------------------------------

_TASK_LOCK = threading.RLock()  # one task's kernels at a time in a process
_here = threading.local()


@contextmanager
def task_context(threads: int | None) -> Iterator[int]:
    """Around a task's work: one task at a time per process (a Dask worker given several threads
    runs its tasks one after another, each with all of numba's threads, rather than fighting
    over the cores), and numba's thread count for this task: ``threads`` (None: every thread
    numba has here), at most what this machine has. Yields the count."""
    import numba

    limit = numba.config.NUMBA_NUM_THREADS
    n = limit if threads is None else max(1, min(threads, limit))
    with _TASK_LOCK:
        numba.set_num_threads(n)
        yield n


def task_progress() -> Callable[[int, int], None] | None:
    """The progress callback a driver inside a task may call between its chunks (``done`` and
    ``total`` within the task): set by :class:`LocalBackend` when the run has a progress
    callback, so a run in this process reports as finely as before; None elsewhere (a Dask
    worker reports when the task finishes)."""
    return getattr(_here, "progress", None)


# --- the results ---------------------------------------------------------------------------------

def add(a: Any, b: Any) -> Any:
    """Two task results added element by element: dicts by key, lists and tuples by position,
    int64 arrays, :class:`~binokel_sim.stats.Hist` and Python ints (all exact)."""
    if isinstance(a, dict):
        if a.keys() != b.keys():
            raise ValueError(f"task results with other keys: {sorted(a)} and {sorted(b)}")
        return {k: add(a[k], b[k]) for k in a}
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            raise ValueError(f"task results of other lengths: {len(a)} and {len(b)}")
        return type(a)(add(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray):
        if a.dtype.kind not in "iu" or a.shape != b.shape:
            raise ValueError("task results must be integer arrays of one shape")
        return a + b
    if isinstance(a, float) or isinstance(b, float):
        raise ValueError("task results must be integers, not floats (sums must be exact)")
    return a + b


def total(results: Sequence[Any]) -> Any:
    """The task results added up in task order (:func:`add`)."""
    if not results:
        raise ValueError("no task results to add")
    return functools.reduce(add, results)


# --- backends ------------------------------------------------------------------------------------

Progress = Callable[[int, int], None]


class LocalBackend:
    """The tasks run here, one after another, in the calling thread."""

    name = "local"

    def threads_for(self, threads: int | None) -> int | None:
        """The numba threads a task gets: what the run asked for (None: all)."""
        return threads

    def map(self, fn: Callable, tasks: Sequence, sizes: Sequence[int] | None = None,
            progress: Progress | None = None) -> list:
        """``[fn(task) for task in tasks]``; ``progress(done, total)`` in units of ``sizes``
        (one per task) as the tasks' drivers go and when each task finishes."""
        sizes = list(sizes) if sizes is not None else [1] * len(tasks)
        whole = sum(sizes)
        results, done = [], 0
        for task, size in zip(tasks, sizes):
            if progress is not None:
                _here.progress = (lambda d, _n, base=done, size=size:
                                  progress(base + min(d, size), whole))
            try:
                results.append(fn(task))
            finally:
                _here.progress = None
            done += size
            if progress is not None:
                progress(done, whole)
        return results

    def imap_unordered(self, fn: Callable, tasks: Sequence) -> Iterator[tuple[int, Any]]:
        """``(index, fn(task))`` for each task as it finishes (here: in order, one at a time)."""
        for i, task in enumerate(tasks):
            yield i, fn(task)


class DaskBackend:
    """The tasks run on a Dask cluster through ``client``; ``threads`` is the numba threads each
    task uses on its worker (None: all the worker machine's)."""

    name = "dask"

    def __init__(self, client, threads: int | None = None):
        self.client = client
        self.threads = threads

    def threads_for(self, threads: int | None) -> int | None:
        return threads if threads is not None else self.threads

    def map(self, fn: Callable, tasks: Sequence, sizes: Sequence[int] | None = None,
            progress: Progress | None = None) -> list:
        """``[fn(task) for task in tasks]`` computed on the cluster, in task order;
        ``progress(done, total)`` as tasks finish, in units of ``sizes``."""
        from distributed import as_completed

        sizes = list(sizes) if sizes is not None else [1] * len(tasks)
        futures = self.client.map(fn, list(tasks), pure=False)
        try:
            with _worker_lost():
                if progress is not None:
                    size_of = {f.key: s for f, s in zip(futures, sizes)}
                    whole, done = sum(sizes), 0
                    for future in as_completed(futures, loop=self.client.loop):
                        done += size_of[future.key]
                        progress(done, whole)
                return self.client.gather(futures)
        except BaseException:
            self.client.cancel(futures)
            raise

    def imap_unordered(self, fn: Callable, tasks: Sequence) -> Iterator[tuple[int, Any]]:
        """``(index, result)`` for each task as it finishes on the cluster, in any order."""
        from distributed import as_completed

        futures = self.client.map(fn, list(tasks), pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        try:
            for future in as_completed(futures, loop=self.client.loop):
                with _worker_lost():
                    result = future.result()
                yield index[future.key], result
        finally:
            self.client.cancel(futures)  # what has not finished when the caller stops


@contextmanager
def _worker_lost() -> Iterator[None]:
    """A task whose worker died (distributed's ``KilledWorker``, after its retries) or a cluster
    that went away mid-run (``CommClosedError``) is a one-line
    :class:`~binokel_sim.errors.SimulationError`; a task's own exception passes as it is."""
    from distributed import KilledWorker
    from distributed.comm.core import CommClosedError


    try:
        yield
    except KilledWorker:
        raise SimulationError("a task's Dask worker died while running it, on every worker "
                              "that tried (out of memory? see the workers' log)") from None
    except CommClosedError:
        raise SimulationError("the connection to the Dask cluster closed during the run") \
            from None


Backend = LocalBackend | DaskBackend


@contextmanager
def open_backend(workers: int | None = None, scheduler: str | None = None,
                 threads: int | None = None) -> Iterator[Backend]:
    """The backend the options ask for: neither → :class:`LocalBackend`; ``workers=K`` → a
    local Dask cluster of K worker processes (one task at a time each, numba using ``threads``
    threads, by default this machine's cores / K, at least 1), stopped afterwards
    (:func:`_local_cluster`); ``scheduler="tcp://HOST:PORT"`` → the running cluster there (its
    workers use ``threads`` threads, by default all their cores). Errors are one-line
    :class:`~binokel_sim.errors.SimulationError`\\ s: both given, dask not installed, a
    scheduler that cannot be reached or has no workers, workers with another binokel-sim, a
    worker lost during the run."""

    if workers is not None and scheduler is not None:
        raise SimulationError("give --workers or --scheduler, not both")
    if workers is None and scheduler is None:
        yield LocalBackend()
        return
    if workers is not None and workers < 1:
        raise SimulationError(f"--workers must be at least 1, got {workers}")
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise SimulationError(INSTALL_HINT) from None
    if workers is not None:
        import numba

        per_worker = threads if threads is not None else max(
            1, numba.config.NUMBA_NUM_THREADS // workers)
        with _local_cluster(workers) as client:
            _check_workers(client, None)
            yield DaskBackend(client, per_worker)
        return
    client = _connect(scheduler)
    try:
        _check_workers(client, scheduler)
        yield DaskBackend(client, threads)
    finally:
        with _quiet_logs():
            _close(client)


SHUTDOWN_TIMEOUT = 10  # seconds for the client, then the local cluster, to close


@contextmanager
def _local_cluster(workers: int) -> Iterator[Any]:
    """A client of a local cluster of ``workers`` worker processes on the loopback address,
    closed in order afterwards: first the workers are told the run is over (from then on they
    log nothing: a worker whose heartbeat meets the closing scheduler logs a ``CommClosedError``
    traceback, a worker killed while it closes may log more, and their stderr is this
    command's), then the client and the cluster close, each within :data:`SHUTDOWN_TIMEOUT`,
    this process's logs quiet meanwhile. While the run goes on the workers log as usual, less
    the "Compute Failed" report of a task that raised (the exception comes back here and is
    reported once, as in a run without Dask). A cluster that does not start is one line."""
    from distributed import Client, LocalCluster


    try:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=None,
                               scheduler_kwargs=QUIET_SCHEDULER, silence_logs=logging.ERROR)
    except Exception as exc:  # noqa: BLE001 - whatever it was, one line names it
        raise SimulationError(f"the local Dask cluster of {workers} workers did not start: "
                              f"{type(exc).__name__}: {exc}") from None
    client = None
    try:
        client = Client(cluster, set_as_default=False)
        client.run(_task_errors_reported_by_the_client)
        yield client
    finally:
        with _quiet_logs():
            if client is not None:
                try:
                    client.run(_run_over)
                except Exception:  # noqa: BLE001 - a worker already gone says nothing
                    pass
                _close(client)
            _close(cluster)


def _close(closable) -> None:
    """``closable.close`` (a client or a cluster) within :data:`SHUTDOWN_TIMEOUT`; one that
    takes longer is left to the interpreter's exit (distributed stops what remains)."""
    try:
        closable.close(timeout=SHUTDOWN_TIMEOUT)
    except (TimeoutError, OSError):
        pass


@contextmanager
def _quiet_logs() -> Iterator[None]:
    """This process logs nothing meanwhile (the cluster's close: distributed's and tornado's
    messages about connections it closes itself)."""
    before = logging.root.manager.disable
    logging.disable(logging.CRITICAL)
    try:
        yield
    finally:
        logging.disable(before)


class _NoComputeFailed(logging.Filter):
    """Drops a worker's "Compute Failed" record: the task's exception goes back to the command,
    which reports it once."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Compute Failed")


def _task_errors_reported_by_the_client() -> None:
    """Run on each local worker when the cluster starts (:func:`_local_cluster`)."""
    logger = logging.getLogger("distributed.worker")
    if not any(isinstance(f, _NoComputeFailed) for f in logger.filters):
        logger.addFilter(_NoComputeFailed())


def _run_over() -> None:
    """Run on each local worker once the run is over, before the cluster closes: whatever the
    worker logs from now on is about its own shutdown."""
    logging.disable(logging.CRITICAL)


def _connect(address: str):
    """A client of the scheduler at ``address``. The address is tried first with one bare
    connection (a failed ``Client`` would linger and print a traceback when collected)."""
    import asyncio

    from distributed import Client
    from distributed.comm import connect

    async def probe() -> None:
        comm = await connect(address, timeout=f"{CONNECT_TIMEOUT}s")
        await comm.close()

    try:
        asyncio.run(probe())
    except Exception as exc:  # noqa: BLE001 - whatever went wrong, one line names it
        raise _unreachable(address, exc) from None
    try:
        return Client(address, timeout=f"{CONNECT_TIMEOUT}s", set_as_default=False)
    except Exception as exc:  # noqa: BLE001
        raise _unreachable(address, exc) from None


def _unreachable(address: str, exc: Exception):

    if isinstance(exc, ValueError):
        return SimulationError(f"--scheduler {address}: {exc}; give tcp://HOST:PORT")
    if isinstance(exc, (OSError, TimeoutError)):
        return SimulationError(f"cannot reach the Dask scheduler at {address} within "
                               f"{CONNECT_TIMEOUT} s; is `dask scheduler` running there?")
    return SimulationError(f"no Dask scheduler answers at {address} ({type(exc).__name__})")


def _check_workers(client, scheduler: str | None) -> None:
    """The cluster has a worker, and every worker runs this binokel-sim version (the tasks are
    this version's functions; another version could give other numbers)."""
    from importlib.metadata import PackageNotFoundError, version

    from binokel_sim import __version__

    where = f"the Dask scheduler at {scheduler}" if scheduler else "the local Dask cluster"
    try:
        client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError):
        raise SimulationError(f"{where} has no workers after {CONNECT_TIMEOUT} s; start one "
                              f"with `dask worker {scheduler or 'ADDRESS'}`") from None
    try:
        found = client.run(version, "binokel-sim")
    except PackageNotFoundError:
        raise SimulationError(f"a worker of {where} has no binokel-sim installed: "
                              f'pip install "binokel-sim[dask]" on every worker machine') from None
    other = {w: v for w, v in found.items() if v != __version__}
    if other:
        listed = ", ".join(f"{w} has {v}" for w, v in sorted(other.items()))
        raise SimulationError(f"workers of {where} run another binokel-sim than this "
                              f"{__version__}: {listed}")
