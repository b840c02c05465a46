"""Many hands in one run: per input hand, the summary of what ``bid-odds`` (auction variants) or
``deal-odds`` (talon games) reports for it.

Row ``i`` of the input (0-based, bad rows counted) is simulated with seed ``seed + i``, so its
numbers are exactly those of the single-hand command run with that seed. A row that cannot be
used (an unknown card, a wrong hand size, a bad turned card or seat) gets its message in ``error``
and empty figures. The rows are independent, so they may run in any order or on any machine
(:func:`summarize_hand` is the unit of work, :func:`summarize_task` the task a backend runs).
"""

from __future__ import annotations

import polars as pl

from binokel_sim.cards import CardError
from binokel_sim.errors import SimulationError
from binokel_sim.families import check_supports, odds_command
from binokel_sim.hands_file import HandRow
from binokel_sim.variants import Rules

COMMON_HEAD = {"row": pl.Int64, "where": pl.String, "hand": pl.String, "seed": pl.Int64}
COMMON_TAIL = {"error": pl.String}
ROW_ERRORS = (CardError, SimulationError)


def batch_schema(rules: Rules) -> dict:
    """The columns of a batch of ``rules``' variant, in order."""
    from binokel_sim.odds import family_odds

    return {**COMMON_HEAD, **family_odds(rules).BATCH_COLUMNS, **COMMON_TAIL}


def check_batch(rules: Rules) -> None:
    """The variant has a single-hand odds command for batch to summarize."""
    check_supports(rules, odds_command(rules))


def summarize_hand(rules: Rules, row: HandRow, index: int, deals: int, seed: int, policy: str,
                   threads: int | None = None, seat: str = "elder") -> dict:
    """Row ``index`` of a batch: the summary of the single-hand command with seed
    ``seed + index``. Bad rows come back with ``error`` set; run errors (bad ``deals``,
    ``policy``) raise, since they would fail every row."""
    record = {"row": index, "where": row.where, "hand": row.hand, "seed": seed + index}
    empty = {k: None for k in batch_schema(rules) if k not in record}
    try:
        figures = _figures(rules, row, deals, seed + index, policy, threads, seat)
    except ROW_ERRORS as exc:
        if not _row_error(exc):
            raise
        from binokel_sim.odds import family_odds

        return {**record, **empty, **family_odds(rules).batch_error_figures(row, seat),
                "error": str(exc)}
    return {**record, **empty, **figures}


def summarize_task(task: tuple) -> dict:
    """One task of a batch (:mod:`binokel_sim.backend`): ``(rules, row, index, deals, seed,
    policy, threads, seat)`` → :func:`summarize_hand`'s row. The hand's own simulation runs
    where the task runs, in that process, with at most the threads that machine has."""
    from binokel_sim.backend import task_context

    rules, row, index, deals, seed, policy, threads, seat = task
    with task_context(threads) as n_threads:
        return summarize_hand(rules, row, index, deals, seed, policy,
                              n_threads if threads is not None else None, seat)


def _row_error(exc: Exception) -> bool:
    """Whether an error belongs to the row (its cards, turned card, seat), not to the run."""
    return isinstance(exc, CardError) or str(exc).startswith("--seat")


def _figures(rules: Rules, row: HandRow, deals: int, seed: int, policy: str,
             threads: int | None, seat: str) -> dict:
    from binokel_sim.hands import parse_hand
    from binokel_sim.odds import family_odds

    counts = parse_hand(row.hand, rules)
    return family_odds(rules).batch_figures(rules, counts, row, seat, deals, seed, policy,
                                            threads)


def batch_frame(rules: Rules, rows: list[dict]) -> pl.DataFrame:
    """The batch's rows (in input order) as one table."""
    return pl.DataFrame(sorted(rows, key=lambda r: r["row"]), schema=batch_schema(rules))
