"""The ``binokel-sim`` command: thin typer commands over the library, nothing else.

Domain errors (bad cards, rules, output paths, run parameters) are caught at the boundary
(:func:`binokel_sim.cli.base.domain_errors`) and printed as one line on stderr with exit code 1;
typer itself answers usage errors with exit code 2. One module per group of commands:
``catalog`` (variants), ``hands`` (analyze, meld-odds), ``odds`` (bid-odds, deal-odds),
``batch``, ``report``, ``games`` (duel, match), ``play``, ``bench``.
"""

# importing a command module registers its commands on the app
from binokel_sim.cli import catalog, hands, odds, batch, report  # noqa: F401, I001
from binokel_sim.cli import games, play, calibrate, solve, bench  # noqa: F401, I001
from binokel_sim.cli.base import app

__all__ = ["app"]
