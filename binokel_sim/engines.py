"""Which engine plays a variant, chosen from its rules data, and the commands' entry points into
the engines: whole deals as records, duels of play policies and whole games.

Three engine families (docs/architecture.md, "Engine families"):

- ``partnership``: every card dealt, an auction, trump named by the bid winner (four-hand-80);
  drivers in :mod:`binokel_sim.games`, kernels in ``kernels/deals.py``;
- ``talon``: a talon and a turned trump (two-hand-48, three-hand-72, four-hand-72); drivers in
  :mod:`binokel_sim.talon_games`, kernels in ``kernels/talon.py``;
- ``widow``: a widow taken by the soloist (three-hand-auction-48, four-hand-widow-48); drivers
  in :mod:`binokel_sim.widow_games`, kernels in ``kernels/widow.py``.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from binokel_sim.simulate import Progress
from binokel_sim.variants import Rules

PARTNERSHIP, TALON, WIDOW = "partnership", "talon", "widow"


def engine_family(rules: Rules) -> str:
    """The family of the engine that plays ``rules``: a talon → talon, a widow → widow, else the
    partnership bidding game."""
    if rules.talon:
        return TALON
    if rules.widow:
        return WIDOW
    return PARTNERSHIP


def play_records(rules: Rules, deals: int, seed: int, policy: str, threads: int | None = None,
                 progress: Progress | None = None) -> Iterator[dict]:
    """Simulate ``deals`` whole deals with ``policy`` on every seat; JSON-ready records, made a
    chunk of deals at a time as they are asked for (:mod:`binokel_sim.record_stream`), so any
    number of deals fits in memory. The arguments are checked at once."""
    from binokel_sim.record_columns import dicts
    from binokel_sim.record_stream import record_frames

    frames = record_frames(rules, deals, seed, policy, threads, progress)
    return (record for frame in frames for record in dicts(frame))


def duel(rules: Rules, policy_a: str, policy_b: str, deals: int, seed: int,
         threads: int | None = None, progress: Progress | None = None) -> np.ndarray:
    """Per deal, A minus B (float64 (deals,)), the same cards played with the sides' policies
    swapped (rotated over every side)."""
    family = engine_family(rules)
    if family == TALON:
        from binokel_sim.talon_games import run_talon_duel

        return run_talon_duel(rules, policy_a, policy_b, deals, seed, threads, progress)
    if family == WIDOW:
        from binokel_sim.widow_games import run_widow_duel

        return run_widow_duel(rules, policy_a, policy_b, deals, seed, threads, progress)
    from binokel_sim.games import run_duel

    return run_duel(rules, policy_a, policy_b, deals, seed, threads, progress)


def match(rules: Rules, policy_a: str, policy_b: str, games: int, seed: int,
          threads: int | None = None, progress: Progress | None = None) -> np.ndarray:
    """Whole games to the variant's target; int64 (games, 4): A won (1/0, -1 unfinished), deals,
    A's final total, the other sides' summed final totals."""
    family = engine_family(rules)
    if family == TALON:
        from binokel_sim.talon_games import run_talon_match

        return run_talon_match(rules, policy_a, policy_b, games, seed, threads, progress)
    if family == WIDOW:
        from binokel_sim.widow_games import run_widow_match

        return run_widow_match(rules, policy_a, policy_b, games, seed, threads, progress)
    from binokel_sim.games import run_match

    return run_match(rules, policy_a, policy_b, games, seed, threads, progress)


def sides(rules: Rules) -> int:
    """How many sides play: the partnerships, else every seat."""
    return len(rules.partnerships) if rules.partnerships else rules.players


# --- which commands a variant supports ------------------------------------------------------------
# One table, by engine family (read from the rules data, so a user's --rules file gets the same
# answer as the built-in variant it resembles). `binokel-sim variants` shows it; the commands ask
# `check_supports` before any work.

FAMILIES = (PARTNERSHIP, TALON, WIDOW)
SUPPORTS: dict[str, tuple[str, ...]] = {  # command -> the engine families it serves, in CLI order
    "variants": FAMILIES,
    "analyze": FAMILIES,
    "meld-odds": FAMILIES,
    "bid-odds": (PARTNERSHIP, WIDOW),
    "deal-odds": (TALON,),
    "batch": FAMILIES,
    "report": FAMILIES,
    "duel": FAMILIES,
    "match": FAMILIES,
    "play": FAMILIES,
    "bench": FAMILIES,
}
# why a family lacks a command, and where to go instead (for the error message)
_UNSUPPORTED = {
    "bid-odds": ("has no auction", "for a talon game's hand use deal-odds"),
    "deal-odds": ("has no talon", "for an auction game's hand use bid-odds"),
}


def supported_commands(rules: Rules) -> tuple[str, ...]:
    """The ``binokel-sim`` commands that take ``rules``, in the order of :data:`SUPPORTS`."""
    family = engine_family(rules)
    return tuple(command for command, families in SUPPORTS.items() if family in families)


def supported_variants(command: str) -> list[str]:
    """The built-in variants ``command`` takes (names, in the order of ``variants``)."""
    from binokel_sim.variants import all_variants

    families = _families(command)
    return [rules.name for rules in all_variants() if engine_family(rules) in families]


def check_supports(rules: Rules, command: str) -> None:
    """Raise :class:`~binokel_sim.simulate.SimulationError` (one line, naming the variants the
    command takes) when ``command`` does not serve ``rules``' engine family."""
    from binokel_sim.simulate import SimulationError

    if engine_family(rules) in _families(command):
        return
    why, instead = _UNSUPPORTED.get(command, (f"is a {engine_family(rules)} game", ""))
    message = (f"variant {rules.name} {why}: {command} supports "
               f"{', '.join(supported_variants(command))}")
    raise SimulationError(f"{message}; {instead}" if instead else message)


def _families(command: str) -> tuple[str, ...]:
    try:
        return SUPPORTS[command]
    except KeyError:
        raise ValueError(f"unknown command {command!r}; known: {', '.join(SUPPORTS)}") from None
