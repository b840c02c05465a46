"""What one talon-game hand is worth in one deal (``binokel-sim deal-odds``): simulated deals
around the hand and the turned card, summarised with 95% intervals.

The samples come from :func:`binokel_sim.engines.talon.run_samples` (seat 0 holds the hand);
definitions are in docs/rules.md ("Deal odds").
"""

from __future__ import annotations

import numpy as np
import polars as pl

from binokel_sim.analysis import analyze_hand
from binokel_sim.cards import SUITS, CardError, format_card, format_counts, parse_card
from binokel_sim.engines.talon import (
    check as check_talon,
)
from binokel_sim.engines.talon import (
    run_samples as run_talon_samples,
)
from binokel_sim.engines.talon import (
    sides_of,
)
from binokel_sim.errors import SimulationError
from binokel_sim.hands import parse_hand
from binokel_sim.hands_file import HandRow
from binokel_sim.odds.summary import histogram_document
from binokel_sim.simulate import Progress
from binokel_sim.stats import Hist, mean_interval, wilson_interval
from binokel_sim.variants import Rules

SEATS = ("dealer", "elder")
QUANTILES = (10, 50, 90)


def _mean(total: int, total_sq: int, n: int) -> dict:
    mean, low, high = mean_interval(float(total), float(total_sq), n)
    return {"mean": mean, "ci_low": low, "ci_high": high}


def _per_opponent(result: dict, key: str, stats: list[dict], opponents: list[int]) -> None:
    """``mean_opponent_<key>`` and its interval: a number against one opponent, else a list with
    one entry per opponent seat (in seat order)."""
    mine = [stats[seat] for seat in opponents]
    for field in ("mean", "ci_low", "ci_high"):
        values_of = [s[field] for s in mine]
        name = f"mean_opponent_{key}" + ("" if field == "mean" else f"_{field}")
        result[name] = values_of[0] if len(opponents) == 1 else values_of


def deal_tally(rules: Rules, points: np.ndarray) -> dict:
    """The integer statistics of talon samples (:func:`~binokel_sim.engines.talon.run_samples`'s ``points``) that
    :func:`deal_odds` reports from; tallies of disjoint samples add
    (:func:`binokel_sim.backend.add`): ``samples``; ``wins`` (seat 0's side out-scored every
    other side); per seat the histogram of the ``score`` (card + meld points) and the sums and
    sums of squares of ``card`` and ``meld`` points; per side the histogram of its score
    (``side``)."""
    card, meld = points[:, :, 0], points[:, :, 1]
    scores = card + meld
    side = sides_of(rules)
    side_scores = np.stack([scores[:, side == q].sum(axis=1) for q in range(side.max() + 1)],
                           axis=1)
    own_side = side[0]
    others = np.delete(side_scores, own_side, axis=1)
    wins = int((side_scores[:, own_side][:, None] > others).all(axis=1).sum())
    seats = range(rules.players)
    return {"samples": int(points.shape[0]), "wins": wins,
            "score": [Hist.of(scores[:, s]) for s in seats],
            "card": [int(card[:, s].sum()) for s in seats],
            "card_sq": [int((card[:, s] * card[:, s]).sum()) for s in seats],
            "meld": [int(meld[:, s].sum()) for s in seats],
            "meld_sq": [int((meld[:, s] * meld[:, s]).sum()) for s in seats],
            "side": [Hist.of(side_scores[:, q]) for q in range(side_scores.shape[1])]}


def deal_task(task: tuple) -> dict:
    """One task of :func:`deal_odds`: ``(rules, counts, turned, dealer, seed, policy,
    first_sample, samples, threads, knowledge, options)`` → the :func:`deal_tally` of those
    samples (``options``: :func:`binokel_sim.contests.sampling_options`)."""
    from binokel_sim.backend import task_context, task_progress

    rules, counts, turned, dealer, seed, policy, first, n, threads, knowledge, options = task
    with task_context(threads) as n_threads:
        points = run_talon_samples(rules, counts, n, seed, policy, threads=n_threads,
                                   progress=task_progress(), first_sample=first,
                                   knowledge=knowledge, turned=turned, dealer=dealer, **options)
    return deal_tally(rules, points)


def deal_odds(rules: Rules, counts: np.ndarray, turned: int, seat: str, samples: int, seed: int,
              policy: str, threads: int | None = None, progress: Progress | None = None,
              backend=None, knowledge=None, samples_per_move: int | None = None) -> dict:
    """The hand ``counts`` (seat 0) with ``turned`` (a card type) turned: ``seat`` is ``dealer``
    (seat 0 deals) or ``elder`` (the seat left of the dealer, who leads first).

    ``score_histogram`` (:func:`binokel_sim.odds.summary.score_histogram`) is the distribution of
    the deal's scores: series ``you`` (mean: ``mean_score``), ``opponent`` (or ``opponent 1``,
    ``opponent 2``... in seat order, as ``mean_opponent_score`` lists them) and, with
    partnerships, ``pair`` and ``opponent pair``. The samples are played in tasks of
    ``backend.DEAL_TASK_BLOCKS`` blocks run by ``backend`` (default: here); every figure comes
    from their integer :func:`deal_tally` (the score quantiles too, read off the histogram).
    ``knowledge`` (from ``--known`` and ``--void``, :mod:`binokel_sim.constraints`): the other
    hands and the talon are dealt consistently with it (an unbiased constrained sampler).
    ``samples_per_move``: the sampling policy's deals per card decision."""
    from binokel_sim.backend import DEAL_TASK_BLOCKS, LocalBackend, task_ranges, total
    from binokel_sim.engines import talon as engine
    from binokel_sim.engines.policies import policy_id, sampling_options
    from binokel_sim.simulate import check_run, set_threads, unseen_deck

    check_talon(rules)
    check_seat(seat)
    dealer = 0 if seat == "dealer" else rules.players - 1
    check_run(samples, seed)
    known = np.asarray(counts, dtype=np.int64).copy()
    known[turned] += 1
    unseen_deck(rules, known)
    if (known > rules.deck_counts()).any():
        raise SimulationError("the turned card is a copy the deck does not have beside the hand")
    engine.sampler_inputs(rules, counts, knowledge, turned=turned)  # impossible: fail now
    policy_id(policy, rules)
    options = sampling_options(rules, samples_per_move)
    set_threads(threads)
    backend = backend if backend is not None else LocalBackend()
    ranges = task_ranges(samples, engine.GAME_BLOCK, DEAL_TASK_BLOCKS)
    tasks = [(rules, np.asarray(counts, dtype=np.int64), turned, dealer, seed, policy, first, n,
              backend.threads_for(threads), knowledge, options) for _, first, n in ranges]
    tally = total(backend.map(deal_task, tasks, [n for *_, n in ranges], progress))
    side = sides_of(rules)
    own_side = side[0]
    wins = tally["wins"]
    low, high = wilson_interval(wins, samples)
    opponents = [s for s in range(rules.players) if side[s] != own_side]
    trump = turned // 6
    static = analyze_hand(rules, counts)["by_trump"][SUITS[trump]]["total"]
    result = {
        "variant": rules.name,
        "hand": format_counts(counts),
        "turned": format_card(turned),
        "trump": SUITS[trump],
        "seat": seat,
        "samples": samples,
        "p_win": wins / samples,
        "p_win_ci_low": float(low),
        "p_win_ci_high": float(high),
    }
    stats = {
        "score": [_mean(h.sum(), h.sum_sq(), samples) for h in tally["score"]],
        "card_points": [_mean(t, t_sq, samples)
                        for t, t_sq in zip(tally["card"], tally["card_sq"])],
        "meld": [_mean(t, t_sq, samples) for t, t_sq in zip(tally["meld"], tally["meld_sq"])],
    }
    for key, per_seat in stats.items():
        m = per_seat[0]
        result[f"mean_{key}"] = m["mean"]
        result[f"mean_{key}_ci_low"] = m["ci_low"]
        result[f"mean_{key}_ci_high"] = m["ci_high"]
    for key, per_seat in stats.items():
        _per_opponent(result, key, per_seat, opponents)
    other_sides = [h for q, h in enumerate(tally["side"]) if q != own_side]
    if rules.partnerships:
        result["mean_pair_score"] = tally["side"][own_side].sum() / samples
        result["mean_opponent_pair_score"] = (sum(h.sum() for h in other_sides)
                                              / (samples * len(other_sides)))
    you = tally["score"][0]
    result["quantiles"] = {str(q): you.percentile(q) for q in QUANTILES}
    result["static_meld"] = int(static)
    series = {"you": you}
    for i, seat_i in enumerate(opponents):
        series["opponent" if len(opponents) == 1 else f"opponent {i + 1}"] = tally["score"][seat_i]
    if rules.partnerships:
        series["pair"] = tally["side"][own_side]
        series["opponent pair"] = other_sides[0]  # partnerships: two sides
    result["score_histogram"] = histogram_document(series)
    return result


def check_seat(seat: str) -> None:
    """``seat`` names one of :data:`SEATS`."""
    if seat not in SEATS:
        raise SimulationError(f"--seat must be dealer or elder, got {seat!r}")


def turned_card(rules: Rules, counts: np.ndarray, text: str | None,
                hand_given: bool = False) -> int:
    """The card type of the turned card ``text``, checked against the deck and the hand
    ``counts`` (the hand cannot hold every copy of it). Never assumed silently: None means the
    variant's example turned card, which goes only with its example hand; with a hand of one's
    own (``hand_given``) it is an error (the turned card decides trump)."""
    if text is None and hand_given:
        raise CardError("give --turned with --hand: the turned card (its suit is trump), e.g. "
                        "--turned 9H")
    text = text if text is not None else rules.example_turned
    if not text:
        raise CardError(f"give --turned: the {rules.name} rules have no example turned card")
    try:
        turned_counts = parse_hand(text, rules, size=1)
    except CardError as exc:
        raise CardError(f"--turned: {exc}".replace("the hand has", "it has")
                        .replace(f"a {rules.name} hand has 1", "give one card")) from None
    turned = parse_card(text)
    if counts[turned] + turned_counts[turned] > rules.deck_counts()[turned]:
        raise CardError(f"the turned card {text.strip()} is a copy your hand already holds all "
                        f"of")
    return turned


# --- batch ----------------------------------------------------------------------------------------

BATCH_COLUMNS = {  # what batch writes for a hand, after the row's own columns
    "turned": pl.String, "seat": pl.String, "p_win": pl.Float64, "p_win_ci_low": pl.Float64,
    "p_win_ci_high": pl.Float64, "mean_score": pl.Float64, "mean_meld": pl.Float64,
}


def batch_figures(rules: Rules, counts: np.ndarray, row: HandRow, seat: str, deals: int,
                  seed: int, policy: str, threads: int | None) -> dict:
    """A batch row's :data:`BATCH_COLUMNS`: :func:`deal_odds` in brief, for the row's turned
    card (required) and its seat (else ``seat``)."""
    if row.turned is None:  # never the variant's example turned card silently
        raise CardError("no turned card: give the talon games' hands as CSV or Parquet "
                        "with a 'turned' column")
    turned = turned_card(rules, counts, row.turned)
    where = row.seat if row.seat is not None else seat
    result = deal_odds(rules, counts, turned, where, deals, seed, policy, threads)
    return {name: result[name] for name in BATCH_COLUMNS}


def batch_error_figures(row: HandRow, seat: str) -> dict:
    """What a bad row keeps of its own: its turned card and seat as given."""
    return {"turned": row.turned, "seat": row.seat or seat}
