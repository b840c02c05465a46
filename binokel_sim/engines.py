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
    """Simulate ``deals`` whole deals with ``policy`` on every seat; JSON-ready records."""
    family = engine_family(rules)
    if family == TALON:
        from binokel_sim.talon_games import run_talon_play
        from binokel_sim.talon_records import talon_records

        return talon_records(run_talon_play(rules, deals, seed, policy, threads, progress))
    if family == WIDOW:
        from binokel_sim.widow_games import run_widow_play
        from binokel_sim.widow_records import widow_records

        return widow_records(run_widow_play(rules, deals, seed, policy, threads, progress))
    from binokel_sim.games import run_play
    from binokel_sim.records import deal_records

    return deal_records(run_play(rules, deals, seed, policy, threads, progress))


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
