"""The ``binokel-sim`` command: thin typer commands over the library, nothing else.

Domain errors (bad cards, rules, output paths, run parameters) are caught at the boundary
(:func:`binokel_sim.cli.base.domain_errors`) and printed as one line on stderr with exit code 1;
usage errors are one line with exit code 2, and Ctrl-C one line with exit code 130
(:class:`binokel_sim.cli.base.App`). One module per group of commands:
``catalog`` (variants), ``hands`` (analyze, meld-odds), ``odds`` (bid-odds, deal-odds),
``batch``, ``report``, ``contests`` (duel, match), ``play``, ``bench``, ``warmup`` (warm-up),
``serve`` (the page).
"""

import gc
import os
import sys

from binokel_sim import compile_helper, compile_notice
from binokel_sim.cli import ctrl_c

STOPPED = 130  # the exit code of a run stopped by Ctrl-C


def exit_stopped(line: str | None = None) -> None:
    """End a process stopped by Ctrl-C with exit code 130, after ``line`` on stderr.

    Not by ``sys.exit``: a Ctrl-C that lands while Python evaluates a string (``namedtuple``
    does, while numba loads) sets CPython's "unhandled KeyboardInterrupt" flag although the
    interrupt is caught, and ``python -m binokel_sim.cli`` was then killed by SIGINT at exit
    (status -2, seen about 1.5 s into a batch). The streams are flushed first; the files of
    the run were removed as the interrupt went up."""
    try:
        if line is not None:
            sys.stderr.write(line + "\n")
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe: nothing more can be said
        pass
    os._exit(STOPPED)


ctrl_c.install()  # first: before the command's modules load
# a cold first run compiles in two processes where there are two cores (compile_helper)
compile_notice.on_first_miss(compile_helper.start)

try:
    # importing a command module registers its commands on the app
    from binokel_sim.cli import catalog, hands, odds, batch, report  # noqa: F401, I001
    from binokel_sim.cli import contests, play, calibrate, solve, bench  # noqa: F401, I001
    from binokel_sim.cli import warmup, serve  # noqa: F401, I001
    from binokel_sim.cli.base import app
except KeyboardInterrupt:  # Ctrl-C while the command starts: the one line any Ctrl-C gets
    exit_stopped("stopped by Ctrl-C; nothing was written")

__all__ = ["app", "main"]

# Young objects between two collections of the youngest generation while a command runs (Python's
# default is 700). A command builds numba's and polars' object graphs once, at start-up, and
# none of it is garbage: at the default the collector traverses it again and again while it is
# built. The collector stays on; the bound on what waits for it is this many objects.
GC_YOUNG_THRESHOLD = 100_000


def main() -> None:
    """The ``binokel-sim`` command (``python -m binokel_sim.cli``): :data:`app` with the cyclic
    garbage collector run rarely during start-up and, once the command is done, the objects
    it leaves frozen (``gc.freeze``), so the interpreter's last collections at exit skip them.
    Measured on ``bid-odds --deals 1000`` (docs/performance.md, "Start-up"): 0.87 s -> 0.69 s,
    the same output and exit code."""
    gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    try:
        if ctrl_c.lost():  # pressed while the command loaded
            raise KeyboardInterrupt
        app()
    except KeyboardInterrupt:  # between the command's own handling and the exit
        exit_stopped("stopped by Ctrl-C")
    except SystemExit as exc:
        if exc.code == STOPPED:  # the command said its Ctrl-C line
            exit_stopped()
        raise
    finally:
        gc.freeze()
