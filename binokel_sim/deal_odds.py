"""What one talon-game hand is worth in one deal (``binokel-sim deal-odds``): simulated deals
around the hand and the turned card, summarised with 95% intervals.

The samples come from :func:`binokel_sim.talon_games.run_talon_samples` (seat 0 holds the hand);
definitions are in docs/rules.md ("Deal odds").
"""

from __future__ import annotations

import numpy as np

from binokel_sim.analysis import analyze_hand
from binokel_sim.bid_odds import score_histogram
from binokel_sim.cards import SUITS, CardError, format_card, format_counts, parse_card
from binokel_sim.hands import parse_hand
from binokel_sim.simulate import Progress, SimulationError
from binokel_sim.stats import mean_interval, wilson_interval
from binokel_sim.talon_games import check_talon, run_talon_samples, sides_of
from binokel_sim.variants import Rules

SEATS = ("dealer", "elder")
QUANTILES = (10, 50, 90)


def _mean(values: np.ndarray) -> dict:
    v = values.astype(np.float64)
    mean, low, high = mean_interval(float(v.sum()), float((v * v).sum()), v.size)
    return {"mean": mean, "ci_low": low, "ci_high": high}


def _per_opponent(result: dict, key: str, values: np.ndarray, opponents: list[int]) -> None:
    """``mean_opponent_<key>`` and its interval: a number against one opponent, else a list with
    one entry per opponent seat (in seat order)."""
    stats = [_mean(values[:, seat]) for seat in opponents]
    for field in ("mean", "ci_low", "ci_high"):
        values_of = [s[field] for s in stats]
        name = f"mean_opponent_{key}" + ("" if field == "mean" else f"_{field}")
        result[name] = values_of[0] if len(opponents) == 1 else values_of


def deal_odds(rules: Rules, counts: np.ndarray, turned: int, seat: str, samples: int, seed: int,
              policy: str, threads: int | None = None, progress: Progress | None = None) -> dict:
    """The hand ``counts`` (seat 0) with ``turned`` (a card type) turned: ``seat`` is ``dealer``
    (seat 0 deals) or ``elder`` (the seat left of the dealer, who leads first).

    ``score_histogram`` (:func:`binokel_sim.bid_odds.score_histogram`) is the distribution of
    the deal's scores: series ``you`` (mean: ``mean_score``), ``opponent`` (or ``opponent 1``,
    ``opponent 2``... in seat order, as ``mean_opponent_score`` lists them) and, with
    partnerships, ``pair`` and ``opponent pair``."""
    check_talon(rules)
    if seat not in SEATS:
        raise SimulationError(f"--seat must be dealer or elder, got {seat!r}")
    dealer = 0 if seat == "dealer" else rules.players - 1
    points = run_talon_samples(rules, counts, turned, dealer, samples, seed, policy, threads,
                               progress)
    card, meld = points[:, :, 0], points[:, :, 1]
    scores = card + meld
    side = sides_of(rules)
    side_scores = np.stack([scores[:, side == q].sum(axis=1) for q in range(side.max() + 1)],
                           axis=1)
    own_side = side[0]
    others = np.delete(side_scores, own_side, axis=1)
    wins = int((side_scores[:, own_side][:, None] > others).all(axis=1).sum())
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
    for key, values in (("score", scores[:, 0]), ("card_points", card[:, 0]),
                        ("meld", meld[:, 0])):
        m = _mean(values)
        result[f"mean_{key}"] = m["mean"]
        result[f"mean_{key}_ci_low"] = m["ci_low"]
        result[f"mean_{key}_ci_high"] = m["ci_high"]
    for key, values in (("score", scores), ("card_points", card), ("meld", meld)):
        _per_opponent(result, key, values, opponents)
    if rules.partnerships:
        result["mean_pair_score"] = float(side_scores[:, own_side].mean())
        result["mean_opponent_pair_score"] = float(others.mean())
    result["quantiles"] = {str(q): float(v) for q, v in
                           zip(QUANTILES, np.percentile(scores[:, 0], QUANTILES))}
    result["static_meld"] = int(static)
    series = {"you": scores[:, 0]}
    for i, seat_i in enumerate(opponents):
        series["opponent" if len(opponents) == 1 else f"opponent {i + 1}"] = scores[:, seat_i]
    if rules.partnerships:
        series["pair"] = side_scores[:, own_side]
        series["opponent pair"] = others[:, 0]  # partnerships: two sides
    result["score_histogram"] = score_histogram(series)
    return result


def turned_card(rules: Rules, counts: np.ndarray, text: str | None) -> int:
    """The card type of the turned card ``text`` (None: the variant's example), checked against
    the deck and the hand ``counts`` (the hand cannot hold every copy of it)."""
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
