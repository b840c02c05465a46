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

from binokel_sim.cards import SUITS, CardError
from binokel_sim.families import TALON, WIDOW, check_supports, engine_family
from binokel_sim.hands_file import HandRow
from binokel_sim.errors import SimulationError
from binokel_sim.variants import Rules

AUCTION_SCHEMA = {
    "recommended_trump": pl.String, "max_bid_positive_ev": pl.Int64,
    "p_make_min_bid": pl.Float64, "p_make_min_bid_ci_low": pl.Float64,
    "p_make_min_bid_ci_high": pl.Float64, "expected_score_min_bid": pl.Float64,
}
TALON_SCHEMA = {
    "turned": pl.String, "seat": pl.String, "p_win": pl.Float64, "p_win_ci_low": pl.Float64,
    "p_win_ci_high": pl.Float64, "mean_score": pl.Float64, "mean_meld": pl.Float64,
}
COMMON_HEAD = {"row": pl.Int64, "where": pl.String, "hand": pl.String, "seed": pl.Int64}
COMMON_TAIL = {"error": pl.String}
ROW_ERRORS = (CardError, SimulationError)


def batch_schema(rules: Rules) -> dict:
    """The columns of a batch of ``rules``' variant, in order."""
    figures = TALON_SCHEMA if engine_family(rules) == TALON else AUCTION_SCHEMA
    return {**COMMON_HEAD, **figures, **COMMON_TAIL}


def check_batch(rules: Rules) -> None:
    """The variant has a single-hand odds command for batch to summarize."""
    family = engine_family(rules)
    check_supports(rules, "deal-odds" if family == TALON else "bid-odds")


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
        return {**record, **empty, **({"turned": row.turned, "seat": row.seat or seat}
                                      if engine_family(rules) == TALON else {}),
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

    counts = parse_hand(row.hand, rules)
    family = engine_family(rules)
    if family == TALON:
        from binokel_sim.odds.talon import deal_odds, turned_card

        if row.turned is None:  # never the variant's example turned card silently
            raise CardError("no turned card: give the talon games' hands as CSV or Parquet "
                            "with a 'turned' column")
        turned = turned_card(rules, counts, row.turned)
        where = row.seat if row.seat is not None else seat
        result = deal_odds(rules, counts, turned, where, deals, seed, policy, threads)
        return {"turned": result["turned"], "seat": result["seat"], "p_win": result["p_win"],
                "p_win_ci_low": result["p_win_ci_low"], "p_win_ci_high": result["p_win_ci_high"],
                "mean_score": result["mean_score"], "mean_meld": result["mean_meld"]}
    if row.turned is not None:
        raise CardError(f"a turned card is for the talon games; {rules.name} has none")
    from binokel_sim.odds import bid_odds

    result = bid_odds(rules, counts, deals, seed, policy, threads=threads)
    if family == WIDOW:
        chosen = result["trump_chosen"]
        best = max(SUITS, key=lambda s: chosen[s])  # the trump the soloist names most often
        return _auction(result, best)
    best = result["recommended_trump"]
    # no trump may be named: every bid is lost, the same for every studied suit
    info = result["by_trump"][best] if best is not None else next(iter(result["by_trump"].values()))
    return _auction({**info, "max_bid_positive_ev": result["max_bid_positive_ev"]}, best)


def _auction(figures: dict, trump: str | None) -> dict:
    low, high = figures["p_make_min_bid_ci"]
    return {"recommended_trump": trump, "max_bid_positive_ev": figures["max_bid_positive_ev"],
            "p_make_min_bid": figures["p_make_min_bid"], "p_make_min_bid_ci_low": low,
            "p_make_min_bid_ci_high": high,
            "expected_score_min_bid": figures["expected_score_min_bid"]}


def batch_frame(rules: Rules, rows: list[dict]) -> pl.DataFrame:
    """The batch's rows (in input order) as one table."""
    return pl.DataFrame(sorted(rows, key=lambda r: r["row"]), schema=batch_schema(rules))
