"""One line on stderr before a command compiles kernels, and the measured compile times.

The kernels are compiled by numba on their first use and kept on disk (``cache=True``); a cold
first run spends minutes compiling. A command says so before it starts, in one line::

    compiling the talon engine (two-hand-48) for play, once: up to about 3 min

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

# Process CPU seconds each group of kernels (one command on one engine family) adds to a cold
# cache after the groups before it in this order (a family's groups share its callees: the
# trick play, the melds, the item loop). Measured 2026-12-03 on the project's 2-core machine,
# numba 0.68.1, by `python scripts/compile_times.py` (binokel-sim warm-up's steps on an empty
# NUMBA_CACHE_DIR, each timed with time.process_time(): numba compiles on one thread) and by
# `binokel-sim warm-up`'s own figures, and whole cold commands by /usr/bin/time (user CPU);
# docs/architecture.md, "Compile cost". The machine was shared and loaded (load 2 to 9 on 2
# cores), which inflates even CPU time (the same talon deal-odds took 152 s and 249 s): the
# smallest figure measured is kept. solve alone is not measured (its kernel comes with the
# talon engine's heuristic+solver policy): set like a small kernel.
COMPILE_SECONDS = {
    ("meld", "meld-odds"): 22,
    ("partnership", "bid-odds"): 62,  # README's first line, cold: 62 s user, 70 s wall
    ("partnership", "play"): 27,
    ("partnership", "duel"): 6,
    ("partnership", "match"): 7,
    # the talon and widow engines run every command through one parallel driver (talon_blocks,
    # widow_blocks): after a family's first command the others compile nothing (warm-up after a
    # cold `play --variant two-hand-48`: deal-odds, duel, match "already compiled"); that cold
    # play took 130 s user CPU, 154 s wall, on a fresh clone
    ("talon", "deal-odds"): 130,
    ("talon", "play"): 0,
    ("talon", "duel"): 0,
    ("talon", "match"): 0,
    ("solver", "solve"): 15,
    ("widow", "bid-odds"): 130,
    ("widow", "play"): 0,
    ("widow", "duel"): 0,
    ("widow", "match"): 0,
}


ENGINES = {"meld": "meld kernels", "solver": "endgame solver",
           "partnership": "partnership engine",
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
    """The group a command's kernels belong to: meld-odds counts melds on any variant, solve
    runs the endgame solver alone; every other command runs its variant's engine family."""
    if command == "meld-odds":
        return "meld"
    if command == "solve":
        return "solver"
    from binokel_sim.engines import engine_family

    return engine_family(rules)


def estimate(command: str, family: str) -> int | None:
    """About how many seconds, at most, a cold compile of ``command`` on ``family`` takes (None:
    no figure): its group's and the family's first group's, which holds what the family's
    commands share (the play-outs, the item loop); for a command without a group of its own
    (batch, report, calibrate, bench) the whole family's."""
    parts = {cmd: s for (f, cmd), s in COMPILE_SECONDS.items() if f == family}
    if not parts:
        return None
    if command not in parts:
        return sum(parts.values())
    first = next(iter(parts))
    return parts[first] + (parts[command] if command != first else 0)


def notice_line(command: str, family: str, variant: str) -> str:
    """The line, e.g. ``compiling the partnership engine (four-hand-80) for bid-odds, once: up
    to about 62 s``."""
    seconds = estimate(command, family)
    what = f"compiling the {ENGINES.get(family, family + ' kernels')} ({variant}) for {command}"
    if seconds is None:
        return f"{what}, once (it is cached)"
    if seconds >= 120:
        return f"{what}, once: up to about {round(seconds / 60)} min"
    return f"{what}, once: up to about {seconds} s"


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
