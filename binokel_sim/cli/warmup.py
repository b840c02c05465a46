"""``warm-up``: compile the kernels ahead, one step per command and engine family."""

import contextlib
import io
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from binokel_sim.cli.base import command, domain_errors, err
from binokel_sim.errors import SimulationError

# one variant per engine family for --all: a family's variants share its compiled kernels
# (the rules reach the kernels as table arrays, not as compile-time constants)
ALL_VARIANTS = ("four-hand-80", "two-hand-48", "three-hand-auction-48", "sixty-six")
SOLVE_HANDS = ("--hand", "AS TS KH QH JD 9C", "--other", "KS AH TD AD QC JC", "--trump", "H")
# a four-hand-80 record cut after trick 14 (the package's example position)
EXAMPLE_POSITION = Path(__file__).resolve().parents[1] / "positions" / "example.json"


@dataclass(frozen=True)
class Step:
    """One group of kernels: the smallest run of ``command`` on ``variant`` (``argv``), which
    compiles what any run of that command on the variant's engine family compiles."""

    family: str
    command: str
    variant: str
    argv: tuple[str, ...]
    policies: str = ""  # the seats' policies, where a step compiles them apart from the others

    @property
    def label(self) -> str:
        extra = f", {self.policies}" if self.policies else ""
        return f"{self.command} ({self.family}, {self.variant}{extra})"


def steps_for(variant: str, meld: bool = True) -> list[Step]:
    """The steps that compile every command of ``variant``'s engine family (and meld-odds)."""
    from binokel_sim.engines import engine
    from binokel_sim.families import TALON, engine_family, odds_command, supports
    from binokel_sim.variants import find_variant

    rules = find_variant(variant)
    name, family = rules.name, engine_family(rules)
    v = ("--variant", name)
    out = [Step("meld", "meld-odds", name, ("meld-odds", *v, "--deals", "1000", "-f", "json"))
           ] if meld else []
    odds = odds_command(rules)
    out.append(Step(family, odds, name, (odds, *v, "--deals", "100", "-f", "json")))
    out.append(Step(family, "play", name, ("play", *v, "--deals", "1", "-f", "jsonl")))
    for cmd, size in (("duel", "--deals"), ("match", "--games")):
        out.append(Step(family, cmd, name, (cmd, *v, "-a", "heuristic", "-b", "random", size, "1",
                                            "-f", "json")))
    # the engines compile the play of every seat random, of the heuristic, and of the search
    # policies (sampling, the solver) as specialisations of their own, each on first use: the
    # family's module lists those beyond the heuristic's (its WARM_UP)
    one = ("--samples-per-move", "1")
    for cmd, policy in engine(rules).WARM_UP:
        extra = one if policy == "sampling" else ()
        if cmd in ("duel", "match"):
            size = "--deals" if cmd == "duel" else "--games"
            args = (cmd, *v, "-a", policy, "-b", "heuristic", size, "1", *extra, "-f", "json")
        elif cmd == "play":
            args = ("play", *v, "--policy", policy, "--deals", "1", *extra, "-f", "jsonl")
        else:
            cmd = odds
            deals = "1" if policy == "sampling" else "100"
            args = (odds, *v, "--policy", policy, "--deals", deals, *extra, "-f", "json")
        out.append(Step(family, cmd, name, args, policy))
    if supports(rules, "solve") and family == TALON and rules.players == 2:
        out.append(Step("solver", "solve", name, ("solve", *v, *SOLVE_HANDS, "-f", "json")))
    elif supports(rules, "solve"):  # the endgame search: one compiled copy for every variant
        out.append(Step("solver", "solve", name, ("solve", "--variant", "four-hand-80",
                                                  "--position", str(EXAMPLE_POSITION), "-f",
                                                  "json")))
    return out


def plan(variants: list[str], meld: bool = True) -> list[Step]:
    """The steps for ``variants`` in order, meld-odds once (``meld``) or not at all."""
    out: list[Step] = []
    for i, variant in enumerate(variants):
        out += steps_for(variant, meld=meld and i == 0)
    return out


def part_of(steps: list[Step], part: int, parts: int) -> list[Step]:
    """Part ``part`` (1-based) of ``parts`` of ``steps`` for as many processes, balanced by the
    compile times measured (``compile_notice.COMPILE_SECONDS``): the steps are grouped by engine
    family (a family's steps share most of their callees, its trick loops and heuristic, so one
    process compiles them: two processes compiling the same callees at once each pay for them;
    a family's random seats apart from its heuristic ones cost the four-hand-80 random step 75 s
    where it takes 16 after the others), and the groups go, longest first, to the part with
    the least so far. Each part keeps the plan's order."""
    from binokel_sim.compile_notice import COMPILE_SECONDS

    groups: dict[str, list[int]] = {}
    for i, step in enumerate(steps):
        groups.setdefault(step.family, []).append(i)
    cost = {key: sum(COMPILE_SECONDS.get((steps[i].family, steps[i].command, steps[i].policies),
                                         0) for i in idx) for key, idx in groups.items()}
    load = [0] * parts
    mine: list[int] = []
    for key in sorted(groups, key=lambda k: -cost[k]):
        least = load.index(min(load))
        load[least] += cost[key]
        if least == part - 1:
            mine += groups[key]
    return [steps[i] for i in sorted(mine)]


def run_step(step: Step) -> tuple[int, float]:
    """Run ``step``'s command here, its output dropped; returns the compilations it started and
    its process CPU seconds. A failing command raises SimulationError with its last line."""
    from binokel_sim import compile_notice
    from binokel_sim.cli.base import app  # with every command: binokel_sim.cli added them

    import binokel_sim.kernels  # noqa: F401  (numba's compile events are listened to)

    before, cpu = compile_notice.compilations(), time.process_time()
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    stderr = io.StringIO()
    compile_notice.mute(True)
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            code = app(list(step.argv), standalone_mode=False)
    except (SystemExit, typer.Exit) as exc:
        code = getattr(exc, "code", getattr(exc, "exit_code", 1))
    except Exception as exc:  # a usage error (click raises it here): the step's arguments
        raise SimulationError(f"warm-up of {step.label} failed: {exc}") from None
    finally:
        compile_notice.mute(False)
    if code not in (None, 0):
        lines = stderr.getvalue().strip().splitlines() or ["(no message)"]
        raise SimulationError(f"warm-up of {step.label} failed: {lines[-1]}")
    return compile_notice.compilations() - before, time.process_time() - cpu


@command("warm-up")
def warm_up(
    variant: Annotated[Optional[list[str]], typer.Option(
        "--variant", "-v", help="Compile this variant's engine (repeatable; default "
                                "four-hand-80).")] = None,
    every: Annotated[bool, typer.Option(
        "--all", help=f"Compile every engine family ({', '.join(ALL_VARIANTS)}).")] = False,
    part: Annotated[Optional[str], typer.Option(
        "--part", hidden=True,
        help="K/N: only part K of N of the steps, balanced by compile time (the test suite "
             "warms up in two processes).")] = None,
) -> None:
    """Compile the kernels ahead, so that no command's first run waits for it. Kernels are
    compiled once, on first use, and kept on disk; a cold first run otherwise spends half a
    minute to a minute and a half compiling. One step per command, engine family and kind of
    seats (random, heuristic, sampling); each step runs the command's smallest run. Prints
    what it compiled and how long it took.

    Example: binokel-sim warm-up

    Example: binokel-sim warm-up --variant two-hand-48

    Example: binokel-sim warm-up --all
    """
    with domain_errors():
        if every and variant:
            raise SimulationError("give --variant or --all, not both")
        from binokel_sim.variants import find_variant

        names = list(ALL_VARIANTS) if every else [find_variant(v).name
                                                  for v in (variant or ["four-hand-80"])]
        steps = plan(names)
        if part is not None:
            from binokel_sim.numbers import read_int

            k_text, _, n_text = part.partition("/")
            k, n = read_int(k_text, signed=False), read_int(n_text, signed=False)
            if k is None or n is None or not 1 <= k <= n:
                raise SimulationError(f"--part must be K/N with 1 <= K <= N (got {part!r})")
            steps = part_of(steps, k, n)
        console = Console(stderr=True, file=sys.stderr)  # the bar stays on the real stderr
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                   TimeElapsedColumn())
        start, results = time.perf_counter(), []
        with Progress(*columns, console=console, transient=True,
                      disable=not console.is_terminal) as bar:
            task = bar.add_task("compiling", total=len(steps))
            for step in steps:
                bar.update(task, description=f"compiling {step.label}")
                results.append((step, *run_step(step)))
                bar.advance(task)
        for step, compiled, cpu in results:
            what = f"compiled in {cpu:.0f} s" if compiled else "already compiled"
            err.print(f"{step.label}: {what}", markup=False, highlight=False, soft_wrap=True)
        fresh = sum(1 for _, compiled, _ in results if compiled)
        err.print(f"warm-up: {fresh} of {len(results)} groups compiled, "
                  f"{time.perf_counter() - start:.0f} s", markup=False, highlight=False,
                  soft_wrap=True)
