"""The ``binokel-sim`` command: thin typer commands over the library, nothing else.

Domain errors (bad cards, rules, output paths, run parameters) are caught at the boundary
(:func:`binokel_sim.cli.base.domain_errors`) and printed as one line on stderr with exit code 1;
typer itself answers usage errors with exit code 2. One module per group of commands:
``hands`` (variants, analyze, meld-odds), ``odds`` (bid-odds, deal-odds), ``games`` (duel,
play, match), ``bench``.
"""

from binokel_sim.cli import bench, games, hands, odds  # noqa: F401  (they register the commands)
from binokel_sim.cli.base import app

__all__ = ["app"]
