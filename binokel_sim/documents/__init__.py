"""The JSON documents of the odds commands, built once for every front end: the CLI's
``--format json`` and the page's ``/api/`` answers (:mod:`binokel_sim.web`) are these
dictionaries, so their fields cannot drift apart.

- :mod:`.bid_odds`: ``bid-odds``, one module per engine family that bids, with the same names
  (``own_options`` and ``check`` the family's options, then ``document``);
- :mod:`.deal_odds`: ``deal-odds`` (the talon games), with the same names.

Each ``document`` returns ``(result, document)``: the library's result (its ``rows`` a polars
frame, what the CLI's table is printed from) and the JSON document (``provenance`` first).
"""

from __future__ import annotations

from typing import Optional

from binokel_sim.constants import SAMPLES_PER_MOVE


def sampling_fields(samples_per_move: Optional[int], *policies: str,
                    inference: Optional[str] = None) -> dict:
    """``samples_per_move`` for a result's provenance when a policy samples (the default
    written out), and ``inference`` when given (``duel --inference``); nothing when no policy
    samples."""
    if "sampling" not in policies:
        return {}
    return {"samples_per_move": SAMPLES_PER_MOVE if samples_per_move is None
            else samples_per_move, **({} if inference is None else {"inference": inference})}
