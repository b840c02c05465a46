"""Which engine plays a variant, chosen from its rules data, and the commands' entry points into
the engines: whole deals as records, duels of play policies and whole games.

Three engine families (docs/architecture.md, "Engine families"):

- ``partnership``: every card dealt, an auction, trump named by the bid winner (four-hand-80);
  drivers in :mod:`binokel_sim.games`, kernels in ``kernels/partnership/deals.py``;
- ``talon``: a talon and a turned trump (two-hand-48, three-hand-72, four-hand-72); drivers in
  :mod:`binokel_sim.talon_games`, kernels in ``kernels/talon/deals.py``;
- ``widow``: a widow taken by the soloist (three-hand-auction-48, four-hand-widow-48); drivers
  in :mod:`binokel_sim.widow_games`, kernels in ``kernels/widow/deals.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where used: the CLI reads SUPPORTS without numpy or numba
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
                 progress: Progress | None = None,
                 samples_per_move: int | None = None) -> Iterator[dict]:
    """Simulate ``deals`` whole deals with ``policy`` on every seat; JSON-ready records, made a
    chunk of deals at a time as they are asked for (:mod:`binokel_sim.record_stream`), so any
    number of deals fits in memory. The arguments are checked at once. ``samples_per_move``:
    the sampling policy's deals per decision (None: its default)."""
    from binokel_sim.record_columns import dicts
    from binokel_sim.record_stream import record_frames

    frames = record_frames(rules, deals, seed, policy, threads, progress, samples_per_move)
    return (record for frame in frames for record in dicts(frame))


def duel(rules: Rules, policy_a: str, policy_b: str, deals: int, seed: int,
         threads: int | None = None, progress: Progress | None = None,
         samples_per_move: int | None = None) -> np.ndarray:
    """Per deal, A minus B (float64 (deals,)), the same cards played with the sides' policies
    swapped (rotated over every side)."""
    return _duel(rules, policy_a, policy_b, deals, seed, threads, progress, 0, samples_per_move)


def match(rules: Rules, policy_a: str, policy_b: str, games: int, seed: int,
          threads: int | None = None, progress: Progress | None = None,
          samples_per_move: int | None = None) -> np.ndarray:
    """Whole games to the variant's target; int64 (games, 4): A won (1/0, -1 unfinished), deals,
    A's final total, the other sides' summed final totals."""
    options = sampling_options(rules, samples_per_move)  # refused where it does not play
    family = engine_family(rules)
    if family == TALON:
        from binokel_sim.talon_games import run_talon_match

        return run_talon_match(rules, policy_a, policy_b, games, seed, threads, progress,
                               **options)
    if family == WIDOW:
        from binokel_sim.widow_games import run_widow_match

        return run_widow_match(rules, policy_a, policy_b, games, seed, threads, progress,
                               **options)
    from binokel_sim.games import run_match

    return run_match(rules, policy_a, policy_b, games, seed, threads, progress, **options)


def sampling_options(rules: Rules, samples_per_move: int | None) -> dict:
    """The keyword a family's driver takes for the sampling policy: ``samples_per_move``, where
    the policy plays (:func:`~binokel_sim.games.sampling_plays`), checked
    (:func:`~binokel_sim.games.check_samples_per_move`); none when it is the default."""
    if samples_per_move is None:
        return {}
    from binokel_sim.games import check_samples_per_move, sampling_plays

    if not sampling_plays(rules):
        from binokel_sim.simulate import SimulationError

        raise SimulationError(f"variant {rules.name}: --samples-per-move is the sampling "
                              f"policy's, which does not play this variant")
    check_samples_per_move(samples_per_move)
    return {"samples_per_move": samples_per_move}


# --- duels and matches as tasks: integer sums only (docs/distributed.md) --------------------------

def _family_module(rules: Rules):
    """The driver module of ``rules``' engine family (its GAME_BLOCK and MATCH_BLOCK)."""
    family = engine_family(rules)
    if family == TALON:
        from binokel_sim import talon_games as module
    elif family == WIDOW:
        from binokel_sim import widow_games as module
    else:
        from binokel_sim import games as module
    return module


def duel_scale(rules: Rules) -> int:
    """What a deal's A-minus-B (:func:`duel`) is multiplied by to make it an integer: it is a
    mean over the ``k`` seatings of (A's side minus the mean of the ``k - 1`` B sides), so
    ``k (k - 1)`` (2 for two sides, 6 for three)."""
    k = sides(rules)
    return k * (k - 1)


def duel_task(task: tuple) -> dict:
    """One task of :func:`duel_summary`: ``(rules, policy_a, policy_b, seed, first_deal, deals,
    threads, samples_per_move)`` → ``{"deals", "sum", "sum_sq"}`` of the deals' A-minus-B times
    :func:`duel_scale` (integers)."""
    import numpy as np

    from binokel_sim.backend import task_context, task_progress

    rules, policy_a, policy_b, seed, first, deals, threads, samples_per_move = task
    with task_context(threads) as n_threads:
        diff = _duel(rules, policy_a, policy_b, deals, seed, n_threads, task_progress(), first,
                     samples_per_move)
    scaled = np.rint(diff * duel_scale(rules)).astype(np.int64)  # exact: see duel_scale
    return {"deals": int(deals), "sum": int(scaled.sum()), "sum_sq": int((scaled * scaled).sum())}


def _duel(rules, policy_a, policy_b, deals, seed, threads, progress, first_deal,
          samples_per_move=None):
    family = engine_family(rules)
    if family == TALON:
        from binokel_sim.talon_games import run_talon_duel as run
    elif family == WIDOW:
        from binokel_sim.widow_games import run_widow_duel as run
    else:
        from binokel_sim.games import run_duel as run
    return run(rules, policy_a, policy_b, deals, seed, threads, progress, first_deal=first_deal,
               **sampling_options(rules, samples_per_move))


def duel_summary(rules: Rules, policy_a: str, policy_b: str, deals: int, seed: int,
                 threads: int | None = None, progress: Progress | None = None,
                 backend=None, samples_per_move: int | None = None) -> dict:
    """What ``binokel-sim duel`` reports: ``{"deals", "mean_diff", "ci_low", "ci_high"}``, the
    mean of :func:`duel`'s per-deal A minus B with its normal 95% interval, computed from exact
    integer sums over tasks of ``backend.DUEL_TASK_BLOCKS`` blocks run by ``backend`` (default:
    here), so every backend gives the same numbers."""
    from binokel_sim.backend import DUEL_TASK_BLOCKS, LocalBackend, task_ranges, total
    from binokel_sim.stats import mean_interval

    module = _family_module(rules)
    _check_policies(rules, policy_a, policy_b, deals, seed, threads, samples_per_move)
    backend = backend if backend is not None else LocalBackend()
    ranges = task_ranges(deals, module.GAME_BLOCK, DUEL_TASK_BLOCKS)
    tasks = [(rules, policy_a, policy_b, seed, first, n, backend.threads_for(threads),
              samples_per_move) for _, first, n in ranges]
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
        family = engine_family(rules)
        if family == TALON:
            from binokel_sim.talon_games import run_talon_match as run
        elif family == WIDOW:
            from binokel_sim.widow_games import run_widow_match as run
        else:
            from binokel_sim.games import run_match as run
        result = run(rules, policy_a, policy_b, games, seed, n_threads, task_progress(),
                     first_game=first, **sampling_options(rules, samples_per_move))
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

    module = _family_module(rules)
    _check_policies(rules, policy_a, policy_b, games, seed, threads, samples_per_move,
                    "--games")
    backend = backend if backend is not None else LocalBackend()
    ranges = task_ranges(games, module.MATCH_BLOCK, MATCH_TASK_BLOCKS)
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
                    option: str = "--deals") -> None:
    """What the family's drivers would refuse, refused before any task starts."""
    from binokel_sim.games import policy_id
    from binokel_sim.simulate import check_run, set_threads

    family = engine_family(rules)
    if family == TALON:
        from binokel_sim.talon_games import check_talon as check
    elif family == WIDOW:
        from binokel_sim.widow_games import check_widow as check
    else:
        from binokel_sim.games import check_game as check
    check(rules)
    check_run(n, seed, option)
    policy_id(policy_a, rules)
    policy_id(policy_b, rules)
    sampling_options(rules, samples_per_move)
    set_threads(threads)


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
    "calibrate": (PARTNERSHIP, WIDOW),
    "solve": (TALON,),
    "bench": FAMILIES,
    "warm-up": FAMILIES,
}
# a command that needs more of a variant than its family: (test of the rules, what fails it)
_REQUIRES = {
    "solve": (lambda rules: rules.players == 2, "has more than two players"),
}
# why a family lacks a command, and where to go instead (for the error message)
_UNSUPPORTED = {
    "bid-odds": ("has no auction", "for a talon game's hand use deal-odds"),
    "deal-odds": ("has no talon", "for an auction game's hand use bid-odds"),
    "calibrate": ("has no auction", "calibrate studies the bid odds"),
    "solve": ("has no talon", "the endgame solver plays a two-hand talon game's phase 2"),
}


def supports(rules: Rules, command: str) -> bool:
    """Whether ``command`` takes ``rules``: its engine family, and what the command needs more."""
    if engine_family(rules) not in _families(command):
        return False
    test = _REQUIRES.get(command)
    return test is None or test[0](rules)


def supported_commands(rules: Rules) -> tuple[str, ...]:
    """The ``binokel-sim`` commands that take ``rules``, in the order of :data:`SUPPORTS`."""
    return tuple(command for command in SUPPORTS if supports(rules, command))


def supported_variants(command: str) -> list[str]:
    """The built-in variants ``command`` takes (names, in the order of ``variants``)."""
    from binokel_sim.variants import all_variants

    return [rules.name for rules in all_variants() if supports(rules, command)]


def check_supports(rules: Rules, command: str) -> None:
    """Raise :class:`~binokel_sim.simulate.SimulationError` (one line, naming the variants the
    command takes) when ``command`` does not serve ``rules``."""
    from binokel_sim.simulate import SimulationError

    if supports(rules, command):
        return
    if engine_family(rules) in _families(command):
        why, instead = _REQUIRES[command][1], ""
    else:
        why, instead = _UNSUPPORTED.get(command, (f"is a {engine_family(rules)} game", ""))
    message = (f"variant {rules.name} {why}: {command} supports "
               f"{', '.join(supported_variants(command))}")
    raise SimulationError(f"{message}; {instead}" if instead else message)


def _families(command: str) -> tuple[str, ...]:
    try:
        return SUPPORTS[command]
    except KeyError:
        raise ValueError(f"unknown command {command!r}; known: {', '.join(SUPPORTS)}") from None
