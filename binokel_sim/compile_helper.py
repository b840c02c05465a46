"""A second process that compiles beside a command's cold first run.

numba compiles on one thread, and a command's first run on a cold cache spends most of its time
compiling (docs/performance.md, "Compile cost"). numba meets a command's kernels in a fixed
order: the block driver's typing reaches each callee's call and compiles that callee then (or
loads it from the cache, when it is there). So a second process that compiles the same callees
with the same signatures, starting from the **last** one numba will reach, fills the cache
ahead of the command, and the two meet in the middle: on two cores a cold widow ``bid-odds``
or a sampling duel takes about a quarter less (docs/performance.md, "The compile helper").

Which signatures: the **plans** in ``compile_plans.bin``, one per warm-up step (a command, an
engine family and a kind of seats), each the callees that step compiles on an empty cache, in the
order numba finished them (the block drivers left out, and any callee that holds more than half
of its step's compile, the sample loop a driver calls at once: the command compiles those, and
the helper takes their callees), recorded by ``python scripts/compile_plans.py`` with the
kernel sources' closure hashes (:func:`binokel_sim.kernel_cache.closure_hashes`). A plan entry
whose kernel module changed since is skipped; ``tests/test_compile_helper.py`` fails until the
plans are recorded again.

:func:`start` is the hook :mod:`binokel_sim.compile_notice` calls at a command's first
compilation (the CLI sets it): where the machine has two cores or more, a plan fits the command
and numba is the version the plans were recorded with, it starts ``python -m
binokel_sim.compile_helper PLAN PARENT`` in a session of its own (a Ctrl-C at the terminal stops
the command, not the helper), at a lower priority, its output discarded. The helper stops when its
plan is done or, between two compilations, once its parent has exited; what it compiled is in
numba's cache either way (saves are atomic and locked: :mod:`binokel_sim.cache_lock`).
``BINOKEL_SIM_COMPILE_HELPER=off`` turns it off (the test suite does).
"""

from __future__ import annotations

import importlib
import os
import pickle
import subprocess
import sys
import zlib
from pathlib import Path

PLANS = Path(__file__).with_name("compile_plans.bin")
ENV = "BINOKEL_SIM_COMPILE_HELPER"


def plan_name(family: str, command: str, kind: str) -> str:
    """A plan's name: the warm-up step's family, command and kind of seats ('' the default)."""
    return f"{family} {command} {kind}"


def read_plans(path: Path = PLANS) -> dict | None:
    """The plans (``numba``: the version they were recorded with, ``closures``: the kernel
    modules' closure hashes then, ``plans``: ``{name: [(module, qualname, pickled argument
    types), ...]}``), or None when the file is missing or unreadable."""
    try:
        return pickle.loads(zlib.decompress(path.read_bytes()))
    except (OSError, ValueError, zlib.error, pickle.UnpicklingError, EOFError):
        return None


def write_plans(plans: dict, path: Path = PLANS) -> None:
    """Write ``plans`` (:func:`read_plans`' form) whole, then rename it into place."""
    part = path.with_name(path.name + f".{os.getpid()}.part")
    part.write_bytes(zlib.compress(pickle.dumps(plans, protocol=4), 9))
    part.replace(path)


def choose(plans: dict, family: str, command: str, policies: tuple[str, ...]) -> str | None:
    """The plan for ``command`` on ``family`` with the seats' ``policies``: its warm-up step's,
    else the family's first step of that kind of seats (a command with no step of its own, such
    as batch or report, runs the same drivers), else None."""
    from binokel_sim.compile_notice import kind_of

    kind = kind_of(tuple(policies)) or ""
    kinds = [kind] if kind != "heuristic" else ["heuristic", ""]
    for k in kinds:
        if plan_name(family, command, k) in plans["plans"]:
            return plan_name(family, command, k)
    for k in kinds:
        for name in plans["plans"]:
            plan_family, _, plan_kind = name.split(" ", 2)
            if plan_family == family and plan_kind == k:
                return name
    return None


def enabled() -> bool:
    """Whether a helper may start: not turned off, and two cores or more for this process."""
    if os.environ.get(ENV, "on").lower() in ("off", "0", "no"):
        return False
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity on this platform
        cores = os.cpu_count() or 1
    return cores >= 2


def start(expected) -> subprocess.Popen | None:
    """Start the helper for the :class:`~binokel_sim.compile_notice.Expected` command, when
    :func:`enabled` and a plan recorded with this numba fits it; the process, or None."""
    if not enabled():
        return None
    import numba

    plans = read_plans()
    if plans is None or plans.get("numba") != numba.__version__:
        return None
    name = choose(plans, expected.family, expected.command, expected.policies)
    if name is None:
        return None
    root = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [root, *filter(None, [os.environ.get("PYTHONPATH")])])}
    try:
        return subprocess.Popen([sys.executable, "-m", "binokel_sim.compile_helper", name,
                                 str(os.getpid())], stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                                start_new_session=True)
    except OSError:  # no process to be had (a limit): the command compiles alone, as before
        return None


def module_path(module: str) -> str | None:
    """A module's key in :func:`~binokel_sim.kernel_cache.closure_hashes`: its file under the
    package (``binokel_sim.kernels.widow.deals`` -> ``kernels/widow/deals.py``), or None when
    it has none."""
    from binokel_sim.kernel_cache import module_file

    package = Path(__file__).resolve().parent
    path = module_file(package, module.split(".", 1)[1])
    return None if path is None else path.relative_to(package).as_posix()


def resolve(module: str, qualname: str):
    """The numba dispatcher ``module.qualname``, or None when there is none (renamed since)."""
    try:
        obj = importlib.import_module(module)
    except ImportError:
        return None
    for part in qualname.split("."):
        obj = getattr(obj, part, None)
    return obj if callable(getattr(obj, "compile", None)) else None


def run(name: str, parent: int | None = None, plans: dict | None = None) -> int:
    """Compile plan ``name``'s entries from the last to the first, each signature once (numba
    loads what is cached already); stop early once ``parent`` is no longer this process's
    parent. Skips an entry whose kernel module changed since the plan was recorded, or that
    no longer resolves or compiles. Returns how many entries it compiled or loaded."""
    from binokel_sim.kernel_cache import closure_hashes

    plans = plans if plans is not None else read_plans()
    if plans is None or name not in plans["plans"]:
        return 0
    current, recorded = closure_hashes(), plans["closures"]
    done = 0
    for module, qualname, args in reversed(plans["plans"][name]):
        if parent is not None and os.getppid() != parent:
            break
        key = module_path(module)
        if key is None or current.get(key) is None or current[key] != recorded.get(key):
            continue
        dispatcher = resolve(module, qualname)
        if dispatcher is None:
            continue
        try:
            dispatcher.compile(tuple(pickle.loads(args)))
        except Exception:  # a signature the code no longer takes: the command compiles its own
            continue
        done += 1
    return done


USAGE = "usage: python -m binokel_sim.compile_helper PLAN [PARENT_PID] (started by a command)"


def main(argv: list[str]) -> int:
    """``python -m binokel_sim.compile_helper PLAN [PARENT]``; a bad command line is one line on
    stderr and exit code 2."""
    if not 1 <= len(argv) <= 2 or (len(argv) == 2 and not argv[1].isdigit()):
        print(USAGE, file=sys.stderr)
        return 2
    plans = read_plans()
    if plans is None or argv[0] not in plans["plans"]:
        print(f"no compile plan {argv[0]!r} in {PLANS}", file=sys.stderr)
        return 2
    try:
        os.nice(10)  # the command's own threads come first once it has compiled
    except (AttributeError, OSError):
        pass
    run(argv[0], int(argv[1]) if len(argv) > 1 else None, plans)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
