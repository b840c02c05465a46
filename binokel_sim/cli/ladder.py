"""The bid ladder as ``bid-odds`` shows it by default: the bids worth a look
(:func:`binokel_sim.odds.summary.interesting_bids`, which the page shows too) and the note on
what was left out (``--full`` shows every row)."""

from binokel_sim.cli.base import out
from binokel_sim.odds.summary import LANDMARKS


def ladder_note(shown: int, total: int) -> None:
    if shown < total:
        out.print(f"{shown} of {total} bids shown: the minimum bid, where p_make falls below "
                  f"{', '.join(f'{p:.0%}' for p in LANDMARKS)}, and around the highest bid "
                  f"with a positive expected score; --full shows every row", highlight=False)
