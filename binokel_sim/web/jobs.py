"""The page's runs: a small pool of workers and a bounded queue in front of it.

One run at a time uses the kernels in a process (:data:`binokel_sim.backend` lets one task's
kernels run at a time), so the pool has one worker by default and every run gets all of
numba's threads. Up to ``waiting`` more runs queue; beyond that :meth:`Jobs.submit` raises
:class:`Busy`, which the server answers with HTTP 503 and a line saying so: one user cannot
queue the machine full. A run reports its progress through the drivers' ``progress(done,
total)`` callback, called between chunks; a cancelled run raises :class:`Cancelled` from that
callback, so it stops at the next chunk and leaves nothing behind; so does a run past its
time limit (``seconds``), which fails with a line saying so. At most :data:`KEPT` ended runs
(done, failed or cancelled) are kept for their page to fetch, the oldest forgotten first.
"""

from __future__ import annotations

import itertools
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as StillRunning
from dataclasses import dataclass, field
from typing import Any

from binokel_sim.errors import SimulationError

LOG = logging.getLogger(__name__)
KEPT = 64  # ended runs kept for their page to fetch (the oldest are forgotten first)
ACTIVE = ("queued", "running")


class Busy(SimulationError):
    """Every worker is busy and the queue is full."""


class Cancelled(Exception):
    """Raised inside a cancelled run, from its progress callback."""


class TooLong(SimulationError):
    """Raised inside a run past its time limit, from its progress callback."""


@dataclass
class Job:
    """One run: its state (``queued``, ``running``, ``done``, ``failed``, ``cancelled``), its
    progress and, once done, its value (or the one-line error)."""

    id: str
    total: int
    state: str = "queued"
    done: int = 0
    value: Any = None
    error: str | None = None
    note: str | None = None  # e.g. the line that a first run compiles its engine
    internal: bool = False  # failed by a bug (HTTP 500), not by its input
    seconds: float | None = None  # the run's time limit (None: none)
    started: float = field(default_factory=time.monotonic)
    clock: float | None = None  # when the time limit's clock started (None: not yet)
    finished: float | None = None
    cancel_event: threading.Event = field(default_factory=threading.Event)
    future: Future | None = None

    def progress(self, done: int, total: int) -> None:
        """The drivers' callback: records the progress; stops a cancelled run, and a run past
        its time limit."""
        if self.cancel_event.is_set():
            raise Cancelled
        self.done, self.total = done, total
        now = time.monotonic()
        if self.clock is None:  # a run that compiles its engine first: counted from here
            self.clock = now
        if self.seconds is not None and now - self.clock > self.seconds and done < total:
            raise TooLong(f"the run was stopped after {self.seconds:g} s, this server's limit "
                          f"(serve --max-seconds), at {done:,} of {total:,} deals; ask for "
                          f"fewer deals")

    def say(self, line: str) -> None:
        """A line for the user while the run goes on (shown beside its progress): the
        engine compiles first, so the time limit's clock starts at the first progress."""
        self.note, self.clock = line, None

    def status(self) -> dict:
        out = {"job": self.id, "state": self.state, "done": self.done, "total": self.total,
               "seconds": round((self.finished or time.monotonic()) - self.started, 2)}
        for key in ("note", "error"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out


class Jobs:
    """The pool (``workers`` threads) and its queue (at most ``waiting`` runs not yet started)."""

    def __init__(self, workers: int = 1, waiting: int = 4) -> None:
        if workers < 1 or waiting < 0:
            raise SimulationError("the server needs at least one worker and a queue of 0 or more")
        self.workers, self.waiting = workers, waiting
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="binokel-run")
        self._lock = threading.Lock()
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._ids = itertools.count(1)

    def active(self) -> int:
        """Runs queued or running."""
        return sum(job.state in ACTIVE for job in self._jobs.values())

    def kept(self) -> int:
        """Runs held: active ones and at most :data:`KEPT` ended ones."""
        return len(self._jobs)

    def submit(self, total: int, work: Callable[[Job], Any],
               errors: tuple[type[BaseException], ...], seconds: float | None = None) -> Job:
        """Queue ``work(job)`` (it passes ``job.progress`` to the drivers); an exception of
        ``errors`` becomes the job's one-line ``error``, and so does running longer than
        ``seconds`` (None: no limit). Raises :class:`Busy` when the pool and its queue are
        full."""
        with self._lock:
            if self.active() >= self.workers + self.waiting:
                raise Busy(f"the server is busy: {self.active()} runs are running or queued "
                           f"(at most {self.workers + self.waiting}); try again in a moment")
            # numbered in order, and not to be guessed: only the page that started a run
            # (or the API client) can follow or cancel it
            job = Job(id=f"{next(self._ids)}-{secrets.token_hex(8)}", total=total,
                      seconds=seconds)
            self._jobs[job.id] = job
            ended = [key for key, kept in self._jobs.items() if kept.state not in ACTIVE]
            for key in ended[:max(len(ended) - KEPT, 0)]:  # the oldest first, wherever they are
                del self._jobs[key]
        try:
            job.future = self._pool.submit(self._run, job, work, errors)
        except RuntimeError:  # the pool is shut down: the server is stopping
            job.state, job.finished = "cancelled", time.monotonic()
            raise Busy("the server is stopping; try again when it is back") from None
        return job

    def _run(self, job: Job, work: Callable[[Job], Any],
             errors: tuple[type[BaseException], ...]) -> Any:
        if job.cancel_event.is_set():
            job.state, job.finished = "cancelled", time.monotonic()
            return None
        job.state, job.started = "running", time.monotonic()
        job.clock = job.started
        try:
            job.value = work(job)
            job.state, job.done = "done", job.total
        except Cancelled:
            job.state = "cancelled"
        except errors as exc:
            job.error, job.state = str(exc), "failed"
        except Exception as exc:  # a bug: said and logged, not hidden; the worker lives on
            LOG.exception("run %s failed", job.id)
            job.error, job.state, job.internal = (f"internal error: {type(exc).__name__}: "
                                                  f"{exc}", "failed", True)
        job.finished = time.monotonic()
        return job.value

    def get(self, job_id: str) -> Job | None:
        return self._jobs.get(job_id)

    def cancel(self, job_id: str) -> Job | None:
        """Ask a run to stop (a queued one never starts); returns the job (None: unknown)."""
        job = self._jobs.get(job_id)
        if job is not None and job.state in ACTIVE:
            job.cancel_event.set()
            if job.future is not None and job.future.cancel():
                job.state, job.finished = "cancelled", time.monotonic()
        return job

    def shutdown(self) -> None:
        """Cancel every run; the running ones stop at their next chunk (:meth:`wait`)."""
        for job in list(self._jobs.values()):
            job.cancel_event.set()
        self._pool.shutdown(wait=False, cancel_futures=True)

    def wait(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for the runs to end; True when none is left."""
        deadline = time.monotonic() + seconds
        for job in list(self._jobs.values()):
            if job.future is not None and not job.future.done():
                try:
                    job.future.exception(timeout=max(deadline - time.monotonic(), 0))
                except StillRunning:
                    return False
                except CancelledError:
                    pass
        return True
