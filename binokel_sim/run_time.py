"""How long a run will take, said before it starts.

A run's time is estimated from the work it asks for (hands, deals, samples, games, with the
policies that play them) and the speed the engines have on one thread of the project's 2-core
machine (README, "Speed"; results/benchmarks.json), divided among the threads the run gets. The
rates below are the slowest variant's of each kind of work, rounded down, so an estimate errs
long; it is "about", within a factor of two or three on other machines.

A command asks :func:`check_duration` before its work: a run estimated at more than
:data:`ANNOUNCE` seconds (an hour) is announced on stderr with its estimate, and one estimated at
more than :data:`LONGEST` seconds (a day) is refused, naming the largest count that fits (the
documented maximum of every ``--deals``, ``--games`` and ``--samples``: a day's run here). A run
on a Dask scheduler (``--scheduler``: any number of machines) is announced, never refused.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from binokel_sim.errors import SimulationError
from binokel_sim.families import PARTNERSHIP, engine_family
from binokel_sim.variants import Rules

ANNOUNCE = 3600.0  # a run estimated longer says so before it starts
LONGEST = 24 * 3600.0  # a run estimated longer is refused

# work per second on one thread (README "Speed", the slowest variant, rounded down)
MELD_HANDS_PER_S = 10_000_000  # meld-odds: a hand dealt and its melds counted, every trump
PLAYOUTS_PER_S = {"random": 500_000, "heuristic": 150_000, "expert": 120_000}  # whole deals
ODDS_SAMPLES_PER_S = 100_000  # bid-odds / deal-odds: one sample, every trump studied
RECORDS_PER_S = 50_000  # play: a deal's record written (one thread: the writer is serial)
SAMPLING_DECISIONS_PER_S = 400  # the sampling policy: one card at 128 samples per move
SAMPLING_BASE = 128
SOLVER_PLAYOUT_S = 1 / 40  # heuristic+solver on every seat: one deal, the solver once the talon
#                            is gone (two-hand-48: measured 15 ms a duel deal, solver on one side)
DEALS_PER_GAME = 8  # match: deals a game to the target (measured 3.4 to 5.7)
MOST_TRUMPS = 4  # four-hand-80's bid-odds plays each trump the hand may name


@dataclass(frozen=True)
class Work:
    """What a run does: ``count`` units (named by the command-line ``option``), each costing
    ``per_unit`` seconds on one thread (shared by the threads) plus ``serial`` seconds (not)."""

    count: int
    option: str
    per_unit: float
    serial: float = 0.0

    def seconds(self, threads: int, count: int | None = None) -> float:
        n = self.count if count is None else count
        return n * (self.per_unit / max(threads, 1) + self.serial)


def playout_seconds(rules: Rules, policies: tuple[str, ...], samples_per_move: int | None = None,
                    fast_rate: float | None = None) -> float:
    """One thread's seconds for one whole deal played by ``policies`` (the seats' policies,
    sharing the seats equally): the sampling policy costs per card it decides, the solver per
    deal it finishes, the others per deal (``fast_rate``: their deals per second, default
    :data:`PLAYOUTS_PER_S`)."""
    share = 1 / len(policies)
    slow = 0.0
    fast = 0.0
    for policy in policies:
        if policy == "sampling":
            scale = (samples_per_move or SAMPLING_BASE) / SAMPLING_BASE
            slow += share * rules.deck_size * scale / SAMPLING_DECISIONS_PER_S
        elif policy == "heuristic+solver":
            slow += share * SOLVER_PLAYOUT_S
        else:
            rate = fast_rate if fast_rate is not None else PLAYOUTS_PER_S.get(policy, min(
                PLAYOUTS_PER_S.values()))
            fast = max(fast, 1 / rate)
    return fast + slow


def odds_sample_seconds(rules: Rules, policy: str, samples_per_move: int | None = None) -> float:
    """One thread's seconds for one sample of bid-odds or deal-odds (the hand's odds: a deal of
    the unseen cards played out, once per trump studied in four-hand-80)."""
    if policy in ("sampling", "heuristic+solver"):
        playouts = MOST_TRUMPS if engine_family(rules) == PARTNERSHIP else 1
        return playouts * playout_seconds(rules, (policy,), samples_per_move)
    return 1 / ODDS_SAMPLES_PER_S


def duration(seconds: float) -> str:
    """A duration as a person reads it: ``about 3 hours``, ``about 2.5 days``."""
    for unit, size in (("years", 365 * 86400), ("days", 86400), ("hours", 3600),
                       ("minutes", 60)):
        if seconds >= 2 * size or unit == "minutes" and seconds >= size:
            value = seconds / size
            shown = f"{value:,.0f}" if value >= 10 else f"{value:.1f}".removesuffix(".0")
            return f"about {shown} {unit}"
    return f"about {max(seconds, 1):.0f} seconds"


def round_down(n: int) -> int:
    """``n`` rounded down to two significant digits (17,280,000,000 -> 17,000,000,000)."""
    if n < 100:
        return n
    step = 10 ** (len(str(n)) - 2)
    return n // step * step


def check_duration(work: Work | list[Work], threads: int, cluster: bool = False,
                   can_cluster: bool = False) -> str | None:
    """The line to say before a run of ``work`` (several: their times add up) on ``threads``
    threads, or None for a run under an hour; a run over a day is a :class:`SimulationError`
    naming the largest count of the first work that fits (not on a ``cluster``; a command that
    ``can_cluster`` names ``--scheduler`` too)."""
    works = work if isinstance(work, list) else [work]
    seconds = sum(w.seconds(threads) for w in works)
    if seconds <= ANNOUNCE:
        return None
    first = works[0]
    here = f"on {threads} thread{'s' if threads != 1 else ''} here"
    if seconds > LONGEST and not cluster:
        rest = seconds - first.seconds(threads)
        per = first.seconds(threads, 1)
        fits = round_down(math.floor((LONGEST - rest) / per)) if per > 0 and rest < LONGEST \
            else 0
        hint = (f"use {first.option} {fits:,} or fewer" if fits >= 1 else
                "use a smaller run")
        cluster_hint = ", or --scheduler for a cluster" if can_cluster else ""
        raise SimulationError(f"this run would take {duration(seconds)} {here} ({first.option} "
                              f"{first.count:,}); the longest run taken is a day: {hint}"
                              f"{cluster_hint}")
    where = "on one machine; the cluster shares it out" if cluster else here
    return (f"this run will take {duration(seconds)} {where} ({first.option} "
            f"{first.count:,}); Ctrl-C stops it")
