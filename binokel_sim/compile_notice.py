"""One line on stderr before a command compiles kernels, and the measured compile times.

The kernels are compiled by numba on their first use and kept on disk (``cache=True``); a cold
first run spends minutes compiling. A command says so before it starts, in one line::

    compiling the talon engine (two-hand-48) for play, once: about 90 s

How it knows: numba announces every compilation with its ``numba:compile`` event, which it
raises only on a cache miss, right before compiling (``Dispatcher.compile``: a signature found
on disk is loaded without the event). :func:`install` (called by ``kernels/options.py``, so
only once numba is loaded) registers one listener; it prints the line at the first event
while a command is :func:`expect`-ing one and stays silent afterwards. A warm run raises no
event and prints nothing. Runs on Dask workers compile in the workers' processes, where no
command listens: ``binokel-sim warm-up`` before such a run compiles ahead.

``BINOKEL_SIM_COMPILE_NOTICE=off`` turns the line off (the test suite does: whether a test
compiles depends on which tests ran before it).

This module imports nothing heavy: the CLI imports it before numba.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass

# Process CPU seconds of each group's cold compile (the kernels of one command on one engine
# family): `python scripts/compile_times.py` runs `binokel-sim warm-up --all` on an empty
# NUMBA_CACHE_DIR and times each group with time.process_time() (numba compiles on one
# thread, so CPU time is the wall time of an idle machine; the measuring machine was shared).
# Measured 2026-12-03 on the project's 2-core machine, numba 0.68.1, after the cuts in
# docs/architecture.md ("Compile cost"). A group's figure assumes the groups before it in
# GROUPS order were compiled (they share the callees: trick play, melds, policies); the notice
# quotes the group alone, plus the callees, so it rounds up.
COMPILE_SECONDS = {
    ("meld", "meld-odds"): 12,
    ("partnership", "bid-odds"): 60,
    ("partnership", "play"): 60,
    ("partnership", "duel"): 40,
    ("partnership", "match"): 40,
    ("talon", "play"): 90,
    ("talon", "deal-odds"): 60,
    ("talon", "duel"): 40,
    ("talon", "match"): 40,
    ("talon", "solve"): 15,
    ("widow", "bid-odds"): 90,
    ("widow", "play"): 90,
    ("widow", "duel"): 40,
    ("widow", "match"): 40,
}
ENGINES = {"meld": "meld kernels", "partnership": "partnership engine",
           "talon": "talon engine", "widow": "widow engine"}
ENV = "BINOKEL_SIM_COMPILE_NOTICE"


@dataclass
class Expected:
    """What the running command compiles, should numba compile: its name, the engine family
    (``meld`` for meld-odds) and the variant."""

    command: str
    family: str
    variant: str
    printed: bool = False


_lock = threading.Lock()
_expected: Expected | None = None
_write: Callable[[str], None] | None = None
_muted = False  # binokel-sim warm-up draws its own progress
_count = 0  # compilations started in this process


def family_of(command: str, rules) -> str:
    """The group a command's kernels belong to: meld-odds counts melds on any variant; every
    other command runs its variant's engine family."""
    if command == "meld-odds":
        return "meld"
    from binokel_sim.engines import engine_family

    return engine_family(rules)


def estimate(command: str, family: str) -> int | None:
    """Seconds a cold compile of ``command`` on ``family`` takes (None: not measured). A
    command not in the table (batch, report, calibrate, bench) runs the kernels of the family's
    other commands: the sum of those."""
    if (family, command) in COMPILE_SECONDS:
        return COMPILE_SECONDS[(family, command)]
    parts = [s for (f, _), s in COMPILE_SECONDS.items() if f == family]
    return sum(parts) if parts else None


def notice_line(command: str, family: str, variant: str) -> str:
    """The line, e.g. ``compiling the talon engine (two-hand-48) for play, once: about 90 s``."""
    seconds = estimate(command, family)
    what = f"compiling the {ENGINES.get(family, family + ' kernels')} ({variant}) for {command}"
    if seconds is None:
        return f"{what}, once (it is cached)"
    if seconds >= 120:
        return f"{what}, once: about {round(seconds / 60)} min"
    return f"{what}, once: about {seconds} s"


def expect(command: str, rules, write: Callable[[str], None]) -> None:
    """The running ``command`` on ``rules``: a compilation from now on is announced by
    ``write(line)``, once. Replaces what was expected before."""
    global _expected, _write
    enabled = not _muted and os.environ.get(ENV, "on").lower() not in ("off", "0", "no")
    with _lock:
        _expected = (Expected(command, family_of(command, rules), rules.name) if enabled
                     else None)
        _write = write


def done() -> None:
    """The command is over: no line from here on."""
    global _expected, _write
    with _lock:
        _expected, _write = None, None


def mute(muted: bool = True) -> None:
    """No line while muted (``binokel-sim warm-up`` says what it compiles itself)."""
    global _muted
    _muted = muted


def compilations() -> int:
    """How many compilations (numba dispatchers compiling a signature, callees included) this
    process has started since :func:`install`."""
    return _count


def on_compile() -> str | None:
    """A compilation starts (numba's ``numba:compile`` event): the line to print, if this is the
    first one of an expecting command, else None. Marks the line printed."""
    global _count
    with _lock:
        _count += 1
        if _expected is None or _expected.printed:
            return None
        _expected.printed = True
        return notice_line(_expected.command, _expected.family, _expected.variant)


_installed = False


def install() -> None:
    """Listen to numba's compilations (once per process)."""
    global _installed
    if _installed:
        return
    from numba.core import event

    class _Listener(event.Listener):
        def on_start(self, ev):
            line = on_compile()
            if line is not None and _write is not None:
                _write(line)

        def on_end(self, ev):
            pass

    event.register("numba:compile", _Listener())
    _installed = True
