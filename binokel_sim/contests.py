"""Duels of play policies and whole games, above the engine families: each is run by its
variant's family (:func:`binokel_sim.engines.engine`), cut into tasks of integer sums for any
backend; whole deals as records are :func:`binokel_sim.records.stream.play_records`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from binokel_sim.engines import engine
from binokel_sim.engines.policies import (
    exact_tricks_of,
    inference_id,
    policy_id,
    sampling_options,
)
from binokel_sim.families import sides
from binokel_sim.game_blocks import GAME_BLOCK, MATCH_BLOCK

if TYPE_CHECKING:
    import numpy as np

    from binokel_sim.simulate import Progress
    from binokel_sim.variants import Rules

def duel(rules: Rules, policy_a: str, policy_b: str, deals: int, seed: int,
         threads: int | None = None, progress: Progress | None = None,
         samples_per_move: int | None = None, inference: str = "full",
         exact_tricks: tuple[int, int] | None = None) -> np.ndarray:
    """Per deal, A minus B (float64 (deals,)), the same cards played with the sides' policies
    swapped (rotated over every side). ``inference``: what the sampling policy's deals respect
    (``engines.policies.inference_id``); ``exact_tricks``: A's and B's tricks left that their
    sampling play-outs solve exactly (``engines.policies.exact_tricks_of``)."""
    return _duel(rules, policy_a, policy_b, deals, seed, threads, progress, 0, samples_per_move,
                 inference, exact_tricks)


def match(rules: Rules, policy_a: str, policy_b: str, games: int, seed: int,
          threads: int | None = None, progress: Progress | None = None,
          samples_per_move: int | None = None) -> np.ndarray:
    """Whole games to the variant's target; int64 (games, 4): A won (1/0, -1 unfinished), deals,
    A's final total, the other sides' summed final totals."""
    options = sampling_options(rules, samples_per_move)  # refused where it does not play
    return engine(rules).run_match(rules, policy_a, policy_b, games, seed, threads, progress,
                                   **options)


# --- duels and matches as tasks: integer sums only (docs/distributed.md) --------------------------

def duel_scale(rules: Rules) -> int:
    """What a deal's A-minus-B (:func:`duel`) is multiplied by to make it an integer: it is a
    mean over the ``k`` seatings of (A's side minus the mean of the ``k - 1`` B sides), so
    ``k (k - 1)`` (2 for two sides, 6 for three)."""
    k = sides(rules)
    return k * (k - 1)


def duel_task(task: tuple) -> dict:
    """One task of :func:`duel_summary`: ``(rules, policy_a, policy_b, seed, first_deal, deals,
    threads, samples_per_move, inference, exact_tricks)`` → ``{"deals", "sum", "sum_sq"}`` of
    the deals' A-minus-B times
    :func:`duel_scale` (integers)."""
    import numpy as np

    from binokel_sim.backend import task_context, task_progress

    (rules, policy_a, policy_b, seed, first, deals, threads, samples_per_move, inference,
     exact_tricks) = task
    with task_context(threads) as n_threads:
        diff = _duel(rules, policy_a, policy_b, deals, seed, n_threads, task_progress(), first,
                     samples_per_move, inference, exact_tricks)
    scaled = np.rint(diff * duel_scale(rules)).astype(np.int64)  # exact: see duel_scale
    return {"deals": int(deals), "sum": int(scaled.sum()), "sum_sq": int((scaled * scaled).sum())}


def _duel(rules, policy_a, policy_b, deals, seed, threads, progress, first_deal,
          samples_per_move=None, inference="full", exact_tricks=None):
    return engine(rules).run_duel(rules, policy_a, policy_b, deals, seed, threads, progress,
                                  first_deal=first_deal, inference=inference,
                                  exact_tricks=exact_tricks,
                                  **sampling_options(rules, samples_per_move))


def duel_summary(rules: Rules, policy_a: str, policy_b: str, deals: int, seed: int,
                 threads: int | None = None, progress: Progress | None = None,
                 backend=None, samples_per_move: int | None = None,
                 inference: str = "full", exact_tricks: tuple[int, int] | None = None) -> dict:
    """What ``binokel-sim duel`` reports: ``{"deals", "mean_diff", "ci_low", "ci_high"}``, the
    mean of :func:`duel`'s per-deal A minus B with its normal 95% interval, computed from exact
    integer sums over tasks of ``backend.DUEL_TASK_BLOCKS`` blocks run by ``backend`` (default:
    here), so every backend gives the same numbers. ``inference``: what the sampling policy's
    deals respect (``engines.policies.inference_id``); ``exact_tricks``: :func:`duel`'s."""
    from binokel_sim.backend import DUEL_TASK_BLOCKS, LocalBackend, task_ranges, total
    from binokel_sim.stats import mean_interval

    _check_policies(rules, policy_a, policy_b, deals, seed, threads, samples_per_move,
                    inference=inference, exact_tricks=exact_tricks)
    backend = backend if backend is not None else LocalBackend()
    ranges = task_ranges(deals, GAME_BLOCK, DUEL_TASK_BLOCKS)
    tasks = [(rules, policy_a, policy_b, seed, first, n, backend.threads_for(threads),
              samples_per_move, inference, exact_tricks) for _, first, n in ranges]
    sums = total(backend.map(duel_task, tasks, [n for *_, n in ranges], progress))
    scale = duel_scale(rules)
    mean, low, high = mean_interval(sums["sum"] / scale, sums["sum_sq"] / (scale * scale),
                                    sums["deals"])
    return {"deals": sums["deals"], "mean_diff": mean, "ci_low": low, "ci_high": high}


def match_task(task: tuple) -> dict:
    """One task of :func:`match_summary`: ``(rules, policy_a, policy_b, seed, first_game, games,
    threads, samples_per_move)`` → integer sums over its games: ``games``, ``finished``,
    ``wins_a``, ``deals``, ``score_a``, ``score_b`` (A's final totals, the B sides' summed final
    totals)."""
    from binokel_sim.backend import task_context, task_progress

    rules, policy_a, policy_b, seed, first, games, threads, samples_per_move = task
    with task_context(threads) as n_threads:
        result = engine(rules).run_match(rules, policy_a, policy_b, games, seed, n_threads,
                                         task_progress(), first_game=first,
                                         **sampling_options(rules, samples_per_move))
    return {"games": int(games), "finished": int((result[:, 0] >= 0).sum()),
            "wins_a": int((result[:, 0] == 1).sum()), "deals": int(result[:, 1].sum()),
            "score_a": int(result[:, 2].sum()), "score_b": int(result[:, 3].sum())}


def match_summary(rules: Rules, policy_a: str, policy_b: str, games: int, seed: int,
                  threads: int | None = None, progress: Progress | None = None,
                  backend=None, samples_per_move: int | None = None) -> dict:
    """What ``binokel-sim match`` reports, from :func:`match`'s games summed in tasks of
    ``backend.MATCH_TASK_BLOCKS`` blocks run by ``backend`` (default: here): ``games``,
    ``target``, ``sides``, ``p_win_a`` with its Wilson 95% interval (``ci_low``, ``ci_high``;
    None when no game finished; unfinished games are left out), ``fair_share``, ``unfinished``,
    ``mean_deals``, ``mean_final_score_a`` and ``mean_final_score_b`` (per B side), the means
    over every game."""
    from binokel_sim.backend import MATCH_TASK_BLOCKS, LocalBackend, task_ranges, total
    from binokel_sim.stats import wilson_interval

    _check_policies(rules, policy_a, policy_b, games, seed, threads, samples_per_move,
                    "--games")
    backend = backend if backend is not None else LocalBackend()
    ranges = task_ranges(games, MATCH_BLOCK, MATCH_TASK_BLOCKS)
    tasks = [(rules, policy_a, policy_b, seed, first, n, backend.threads_for(threads),
              samples_per_move) for _, first, n in ranges]
    sums = total(backend.map(match_task, tasks, [n for *_, n in ranges], progress))
    n_done, wins, n_sides = sums["finished"], sums["wins_a"], sides(rules)
    low, high = wilson_interval(wins, max(n_done, 1))
    return {"games": games, "target": rules.game_target, "sides": n_sides,
            "p_win_a": wins / n_done if n_done else None,
            "ci_low": float(low) if n_done else None, "ci_high": float(high) if n_done else None,
            "fair_share": 1 / n_sides, "unfinished": games - n_done,
            "mean_deals": sums["deals"] / games,
            "mean_final_score_a": sums["score_a"] / games,
            "mean_final_score_b": sums["score_b"] / games / (n_sides - 1)}


def _check_policies(rules: Rules, policy_a: str, policy_b: str, n: int, seed: int,
                    threads: int | None, samples_per_move: int | None,
                    option: str = "--deals", inference: str = "full",
                    exact_tricks: tuple[int, int] | None = None) -> None:
    """What the family's drivers would refuse, refused before any task starts (``inference``:
    :func:`~binokel_sim.engines.policies.inference_id`'s refusals; ``exact_tricks``: a family's
    duel without exact play-outs refuses it, with the numbers checked by
    :func:`~binokel_sim.engines.policies.exact_tricks_of`)."""
    from binokel_sim.simulate import check_run, refuse_options, set_threads

    engine(rules).check(rules)
    check_run(n, seed, option)
    a, b = policy_id(policy_a, rules), policy_id(policy_b, rules)
    inference_id(inference, rules, a, b)
    if exact_tricks is not None:
        if not engine(rules).exact_playouts(rules):
            refuse_options(rules, "duel", exact_tricks=exact_tricks)
        exact_tricks_of(exact_tricks, a, b)
    sampling_options(rules, samples_per_move)
    set_threads(threads)
