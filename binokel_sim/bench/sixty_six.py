"""``bench`` in sixty-six: its whole deals and the twin's. The names of
:data:`binokel_sim.bench.FAMILY_API`; no sampling policy plays sixty-six, so :func:`decisions`
refuses."""

from __future__ import annotations

import time
from types import SimpleNamespace

from binokel_sim.bench.timing import best_seconds
from binokel_sim.errors import SimulationError
from binokel_sim.kernels.policies import POLICY_HEURISTIC, POLICY_RANDOM
from binokel_sim.kernels.sixty_six.deals import SixtySixKnobs
from binokel_sim.reference import sixty_six as sixty_six_twin
from binokel_sim.variants import Rules

_POLICIES = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC}


def _twin_deals(rules: Rules, deals: int, seed: int, block_size: int,
                policy: str = "random") -> list[dict]:
    """The twin's records of ``deals`` deals with ``policy`` on both seats (the shipped knobs)."""
    seats = [_POLICIES[policy]] * 2
    return sixty_six_twin.play_deals(rules, SixtySixKnobs(), seats, deals, seed, block_size)


# the twin that makes the family's records (random policy), as bench.reference_records_rate
# calls it: play_deals(rules, deals, seed, block_size)
TWIN = SimpleNamespace(play_deals=_twin_deals)


def playout_rate(rules: Rules, policy: str, deals: int, threads: int) -> float:
    """Whole sixty-six deals per second, records' arrays written (``engines.sixty_six.run_play``)."""
    from binokel_sim.engines.sixty_six import run_play

    return deals / best_seconds(lambda: run_play(rules, deals, 1, policy, threads))


def reference_playout_rate(rules: Rules, deals: int, policy: str = "random") -> float:
    """Whole deals per second of the pure-Python twin (records built)."""
    if policy not in _POLICIES:
        raise SimulationError(f"the sixty-six twin plays random and heuristic, not {policy}")
    start = time.perf_counter()
    _twin_deals(rules, deals, 1, 1024, policy)
    return deals / (time.perf_counter() - start)


def decisions(played) -> int:
    """The sampling policy's decisions: it does not play sixty-six."""
    raise SimulationError(f"variant {played.rules.name}: the sampling policy does not play "
                          f"sixty-six, so there are no sampling decisions to count")
