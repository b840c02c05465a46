"""One line on stderr before a command compiles kernels, and the measured compile times.

The kernels are compiled by numba on their first use and kept on disk (``cache=True``); a cold
first run spends minutes compiling. A command says so before it starts, in one line::

    compiling the talon engine (two-hand-48) for play, once: up to about 92 s

How it knows: numba announces every compilation with its ``numba:compile`` event, which it
raises only on a cache miss, right before compiling (``Dispatcher.compile``: a signature found
on disk is loaded without the event). :func:`install` (called by ``kernels/__init__.py``, so
only once the kernels are loaded; not by ``kernels/options.py``, which every kernel imports:
an edit of :data:`COMPILE_SECONDS` would make every cached kernel stale) registers one
listener and, on a cold cache, stamps the kernel sources
(:func:`binokel_sim.kernel_cache.stamp_if_cold`); it prints the line at the first event while
a command is :func:`expect`-ing one and stays silent afterwards. A warm run raises no
event and prints nothing. Runs on Dask workers compile in the workers' processes, where no
command listens: ``binokel-sim warm-up`` before such a run compiles ahead.

``BINOKEL_SIM_COMPILE_NOTICE=off`` turns the line off (the test suite does: whether a test
compiles depends on which tests ran before it).

The same first compilation calls the hook :func:`on_first_miss` sets, line or not (the CLI sets
:func:`binokel_sim.compile_helper.start`: a second process that compiles beside the command).
:func:`install` also puts numba's cache under a lock (:mod:`binokel_sim.cache_lock`).

This module imports nothing heavy: the CLI imports it before numba.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass

# Process CPU seconds each group of kernels (one command on one engine family, with the policies
# of the step when they compile apart: "random", "sampling"; "" the default, the heuristic) adds
# to a cold cache after the groups before it in this order (a family's groups share callees: the
# tricks, the melds, the heuristic). Measured 2026-12-07 21:30 on the project's 2-core machine,
# numba 0.68.1, by `python scripts/compile_times.py --out F` (binokel-sim warm-up's steps on an
# empty NUMBA_CACHE_DIR, each timed with time.process_time(): numba compiles on one thread), a
# warm-up running beside it: 573 CPU s in all, against 425 on the morning of 2026-12-07 (the
# widow family's Durch and Bettel play-outs, Skat-style auction and Abgehen doubled its bid-odds
# group, 43 -> 84; the exact play-outs added 20 to four-hand-80's sampling group; docs/
# performance.md, "Compile cost"). The solver's figure is its cold cost alone. The talon and widow
# engines run every command through one block driver, specialised per kind of seats: all
# random, the heuristic (with random seats), the search policies (sampling, the solver); after a
# family's first command its other commands with the same kind of seats compile nothing.
COMPILE_SECONDS = {
    ("meld", "meld-odds", ""): 24,
    ("partnership", "bid-odds", ""): 28,
    ("partnership", "play", ""): 28,
    ("partnership", "duel", ""): 54,
    ("partnership", "match", ""): 3,
    ("partnership", "bid-odds", "heuristic"): 28,
    ("partnership", "bid-odds", "random"): 8,
    ("partnership", "bid-odds", "sampling"): 47,
    ("partnership", "play", "sampling"): 6,
    ("partnership", "duel", "sampling"): 7,
    ("partnership", "match", "sampling"): 4,
    ("talon", "deal-odds", ""): 38,
    ("talon", "play", ""): 0,
    ("talon", "duel", ""): 0,
    ("talon", "match", ""): 0,
    ("talon", "play", "random"): 12,
    ("talon", "duel", "sampling"): 58,
    ("solver", "solve", ""): 15,  # alone (the two-hand solver; solve --position: the endgame
    # search, 12 CPU s cold on a slow day); 0 after the sampling group, which compiles the solver
    ("widow", "bid-odds", ""): 84,
    ("widow", "play", ""): 0,
    ("widow", "duel", ""): 0,
    ("widow", "match", ""): 0,
    ("widow", "play", "random"): 25,
    ("widow", "duel", "sampling"): 50,
    ("sixty_six", "deal-odds", ""): 13,
    ("sixty_six", "play", ""): 5,
    ("sixty_six", "duel", ""): 4,
    ("sixty_six", "match", ""): 5,
    ("sixty_six", "play", "sampling"): 25,
    ("sixty_six", "duel", "sampling"): 6,
    ("sixty_six", "match", "sampling"): 5,
    ("sixty_six", "deal-odds", "sampling"): 5,
}


ENGINES = {"meld": "meld kernels", "solver": "endgame solver",
           "partnership": "partnership engine",
           "talon": "talon engine", "widow": "widow engine", "sixty_six": "sixty-six engine"}
ENV = "BINOKEL_SIM_COMPILE_NOTICE"


@dataclass
class Expected:
    """What the running command compiles, should numba compile: its name, the engine family
    (``meld`` for meld-odds) and the variant; ``printed`` once the line is out (from the start
    when the line is off), ``hooked`` once the :func:`on_first_miss` hook has been called."""

    command: str
    family: str
    variant: str
    policies: tuple[str, ...] = ()
    printed: bool = False
    hooked: bool = False


_lock = threading.Lock()
_expected: Expected | None = None
_write: Callable[[str], None] | None = None
_muted = False  # binokel-sim warm-up draws its own progress
_count = 0  # compilations started in this process
# called at the first compilation of each expected command, with its Expected (the CLI sets
# it: binokel_sim.compile_helper.start); the notice's switch does not turn it off
_first_miss: Callable[[Expected], None] | None = None


def family_of(command: str, rules) -> str:
    """The group a command's kernels belong to: meld-odds counts melds on any variant, solve
    runs the endgame solver alone; every other command runs its variant's engine family."""
    if command == "meld-odds":
        return "meld"
    if command == "solve":
        return "solver"
    from binokel_sim.families import engine_family

    return engine_family(rules)


SEARCH_POLICIES = ("sampling", "heuristic+solver")


def kind_of(policies: tuple[str, ...]) -> str | None:
    """The kind of seats ``policies`` (the command's ``--policy``, ``-a``, ``-b``) compile for,
    as :data:`COMPILE_SECONDS` names it: ``sampling`` (a search policy at a seat), ``random``
    (every seat random), ``heuristic`` (every seat the heuristic proper: a group of its own
    where a family has one, else as ``""``), ``""`` (the expert or the heuristic, with random
    seats or not); None when not known."""
    if not policies:
        return None
    if any(p in SEARCH_POLICIES for p in policies):
        return "sampling"
    for kind in ("random", "heuristic"):
        if all(p == kind for p in policies):
            return kind
    return ""


def estimate(command: str, family: str, policies: tuple[str, ...] = ()) -> int | None:
    """About how many seconds, at most, a cold compile of ``command`` on ``family`` with
    ``policies`` takes (None: no figure). The heuristic: its group's and the family's first
    group's, which holds what the family's commands share (the play-outs, the item loop); for a
    command without a group of its own (batch, report, calibrate, bench) the family's default
    groups together. Random seats only, or a search policy, compile a specialisation of their
    own: the family's first group and the largest group of that kind. Policies not known: the
    largest of these."""
    parts = {cmd: s for (f, cmd, kind), s in COMPILE_SECONDS.items()
             if f == family and not kind}
    if not parts:
        return None
    first = next(iter(parts))
    if command not in parts:
        usual = sum(parts.values())
    else:
        usual = parts[first] + (parts[command] if command != first else 0)
    kind = kind_of(policies)
    others = {}
    for (f, _, k), s in COMPILE_SECONDS.items():
        if f == family and k:
            others[k] = max(others.get(k, 0), parts[first] + s)
    if kind is None:
        return max([usual, *others.values()])
    return others.get(kind, usual) if kind else usual


def notice_line(command: str, family: str, variant: str,
                policies: tuple[str, ...] = ()) -> str:
    """The line, e.g. ``compiling the partnership engine (four-hand-80) for bid-odds, once: up
    to about 62 s``."""
    seconds = estimate(command, family, policies)
    what = f"compiling the {ENGINES.get(family, family + ' kernels')} ({variant}) for {command}"
    if seconds is None:
        return f"{what}, once (it is cached)"
    if seconds >= 120:
        return f"{what}, once: up to about {round(seconds / 60)} min"
    return f"{what}, once: up to about {seconds} s"


def expect(command: str, rules, write: Callable[[str], None],
           policies: tuple[str, ...] = ()) -> None:
    """The running ``command`` on ``rules`` with the seats' ``policies`` (empty: not known): a
    compilation from now on is announced by ``write(line)``, once. Replaces what was expected
    before."""
    global _expected, _write
    enabled = os.environ.get(ENV, "on").lower() not in ("off", "0", "no")
    with _lock:
        _expected = (Expected(command, family_of(command, rules), rules.name, tuple(policies),
                              printed=not enabled) if not _muted else None)
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


def on_first_miss(hook: Callable[[Expected], None] | None) -> None:
    """Call ``hook(expected)`` at the first compilation of each command that :func:`expect`-s
    one (whether or not the line is printed; not while muted)."""
    global _first_miss
    _first_miss = hook


def on_compile() -> str | None:
    """A compilation starts (numba's ``numba:compile`` event): the line to print, if this is the
    first one of an expecting command, else None. Marks the line printed; the first time, calls
    the :func:`on_first_miss` hook."""
    global _count
    with _lock:
        _count += 1
        if _expected is None:
            return None
        if not _expected.hooked and _first_miss is not None:
            _expected.hooked = True
            _first_miss(_expected)
        if _expected.printed:
            return None
        _expected.printed = True
        return notice_line(_expected.command, _expected.family, _expected.variant,
                           _expected.policies)


_installed = False


def install() -> None:
    """Listen to numba's compilations (once per process). On a cold cache, first stamp the
    kernel sources it will compile (:mod:`binokel_sim.kernel_cache`): what this process caches
    is then known to be current, and the test session keeps it."""
    global _installed
    if _installed:
        return
    from numba.core import event

    from binokel_sim import cache_lock
    from binokel_sim.kernel_cache import numba_cache_dir, stamp_if_cold

    cache_lock.install()
    stamp_if_cold(cache_root=numba_cache_dir())

    class _Listener(event.Listener):
        def on_start(self, ev):
            line = on_compile()
            if line is not None and _write is not None:
                _write(line)

        def on_end(self, ev):
            pass

    event.register("numba:compile", _Listener())
    _installed = True
