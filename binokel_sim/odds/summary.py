"""What every family's odds share: the score histograms, a trump's bid rows in brief, and the
columns ``batch`` writes for an auction game's hand (:mod:`binokel_sim.batch`)."""

from __future__ import annotations

import numpy as np
import polars as pl

from binokel_sim.cards import CardError
from binokel_sim.hands_file import HandRow
from binokel_sim.stats import Hist
from binokel_sim.variants import Rules

LANDMARKS = (0.9, 0.75, 0.5, 0.25, 0.1)  # p_make levels whose crossing the default ladder shows
AROUND = 2  # bids shown on each side of the highest bid with a positive expected score
P_MAKE_FLOOR = 0.001  # the ladder is listed up to the highest bid made more often than this


def interesting_bids(rows: list[dict]) -> list[int]:
    """The bids the default ladder shows (``bid-odds`` without ``--full``, and the page): the
    minimum bid; per trump, the first bid at or below each of :data:`LANDMARKS` of p_make; and
    the bids around the highest one with a positive expected score."""
    bids = sorted({r["bid"] for r in rows})
    shown = {bids[0]}
    for trump in dict.fromkeys(r.get("trump") for r in rows):
        own = [r for r in rows if r.get("trump") == trump]
        for level in LANDMARKS:
            below = [r["bid"] for r in own if r["p_make"] <= level]
            if below:
                shown.add(below[0])
        positive = [r["bid"] for r in own if r["expected_score"] > 0]
        if positive:
            k = bids.index(max(positive))
            shown.update(bids[max(k - AROUND, 0):k + AROUND + 1])
    return sorted(shown)


def highest_bid(rules: Rules) -> int:
    """The highest total a side can reach (both partners' best melds where there are
    partnerships, every card point, the all-tricks bonus or a Durch's score): no bid above it
    can be made, so the odds count bids up to it and ``--bid`` asks for none above it."""
    from binokel_sim.tables import compile_tables

    sides = 2 if rules.partnerships else 1
    return (sides * compile_tables(rules).max_total + rules.total_card_points
            + max(rules.all_tricks_bonus, rules.durch_score))


def at_bid(rows: pl.DataFrame, bid: int) -> dict:
    """One trump's bid rows at ``bid`` (``--bid``) in brief, as :func:`at_minimum_bid` at the
    minimum: ``p_make_at_bid`` with its interval (``p_make_at_bid_ci``),
    ``expected_score_at_bid`` and, where the rows have it, ``p_concede_at_bid``."""
    row = rows.filter(pl.col("bid") == bid).row(0, named=True)
    out = {"p_make_at_bid": row["p_make"], "p_make_at_bid_ci": [row["ci_low"], row["ci_high"]],
           "expected_score_at_bid": row["expected_score"]}
    if "p_concede" in row:
        out["p_concede_at_bid"] = row["p_concede"]
    return out


def score_histogram(series: dict[str, np.ndarray], **fields) -> dict:
    """The distribution of a deal's score: how many samples scored each value, for every named
    series of per-sample scores on one shared score axis. Returns ``{**fields, "score": [every
    value any series took, ascending], "count": {name: [samples with that score]}}`` in plain
    Python ints (JSON-ready); each count list sums to the samples."""
    return histogram_document({name: Hist.of(values) for name, values in series.items()},
                              **fields)


def histogram_document(series: dict[str, Hist], **fields) -> dict:
    """:func:`score_histogram` from histograms (:class:`~binokel_sim.stats.Hist`) of the
    series."""
    seen = {name: hist.seen() for name, hist in series.items()}
    values = np.unique(np.concatenate([v for v, _ in seen.values()] or
                                      [np.zeros(0, dtype=np.int64)]))
    count = {}
    for name, (v, c) in seen.items():
        row = np.zeros(values.size, dtype=np.int64)
        row[np.searchsorted(values, v)] = c
        count[name] = row.tolist()
    return {**fields, "score": values.tolist(), "count": count}


def at_minimum_bid(rows: pl.DataFrame) -> dict:
    """One trump's bid rows in brief: ``p_make_min_bid`` with its interval
    (``p_make_min_bid_ci``), ``expected_score_min_bid`` and ``max_bid_positive_ev`` (None when
    even the minimum bid loses on average)."""
    first = rows.row(0, named=True)
    positive = rows.filter(pl.col("expected_score") > 0)
    return {"p_make_min_bid": first["p_make"],
            "p_make_min_bid_ci": [first["ci_low"], first["ci_high"]],
            "expected_score_min_bid": first["expected_score"],
            "max_bid_positive_ev": int(positive["bid"].max()) if not positive.is_empty() else None}


DEFAULT_DEALER = "right"  # the widow bid odds' dealer, seen from the hand (docs/rules.md, 35)


def dealer_field(rules: Rules, dealer: str | None = None) -> dict:
    """The provenance's ``dealer`` where who dealt decides who leads the first trick (the player
    left of the dealer leads): ``dealer`` as given, else :data:`DEFAULT_DEALER`; nothing where
    the soloist leads."""
    if rules.first_leader != "non_dealer":
        return {}
    return {"dealer": (dealer or DEFAULT_DEALER).strip().lower()}


# --- calibrate ------------------------------------------------------------------------------------

def sample_seed(seed: int, deal: int) -> int:
    """The seed of deal ``deal``'s bid-odds samples: a hash of ``(seed, deal)`` (numpy's
    SeedSequence), so no two deals, and no deal and the deals' own stream, share samples."""
    state = np.random.SeedSequence([seed, deal, 0xCA11B]).generate_state(1, dtype=np.uint64)
    return int(state[0] >> np.uint64(1))  # below 2**63


# --- batch rows of the auction games --------------------------------------------------------------

AUCTION_COLUMNS = {
    "recommended_trump": pl.String, "max_bid_positive_ev": pl.Int64,
    "p_make_min_bid": pl.Float64, "p_make_min_bid_ci_low": pl.Float64,
    "p_make_min_bid_ci_high": pl.Float64, "expected_score_min_bid": pl.Float64,
}


def no_turned_card(rules: Rules, row: HandRow) -> None:
    """An auction game's batch row names no turned card."""
    if row.turned is not None:
        raise CardError(f"a turned card is for the talon games; {rules.name} has none")


def auction_figures(figures: dict, trump: str | None) -> dict:
    """A batch row's :data:`AUCTION_COLUMNS` from a trump's bid rows in brief
    (:func:`at_minimum_bid`) and that trump."""
    low, high = figures["p_make_min_bid_ci"]
    return {"recommended_trump": trump, "max_bid_positive_ev": figures["max_bid_positive_ev"],
            "p_make_min_bid": figures["p_make_min_bid"], "p_make_min_bid_ci_low": low,
            "p_make_min_bid_ci_high": high,
            "expected_score_min_bid": figures["expected_score_min_bid"]}
