"""The ``binokel-sim`` command: thin typer commands over the library, nothing else.

Domain errors (bad cards, rules, output paths, run parameters) are caught at the boundary
(:func:`binokel_sim.cli.base.domain_errors`) and printed as one line on stderr with exit code 1;
typer itself answers usage errors with exit code 2. One module per group of commands:
``catalog`` (variants), ``hands`` (analyze, meld-odds), ``odds`` (bid-odds, deal-odds),
``batch``, ``report``, ``contests`` (duel, match), ``play``, ``bench``, ``warmup`` (warm-up),
``serve`` (the page).
"""

# importing a command module registers its commands on the app
from binokel_sim.cli import catalog, hands, odds, batch, report  # noqa: F401, I001
from binokel_sim.cli import contests, play, calibrate, solve, bench  # noqa: F401, I001
from binokel_sim.cli import warmup, serve  # noqa: F401, I001
import gc

from binokel_sim.cli.base import app

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
        app()
    finally:
        gc.freeze()
