"""The published reference tables of ``results/tables/`` (``scripts/make_tables.sh`` makes them),
each built here as a polars DataFrame so that it can be tested on small runs:

- :func:`exact_melds_table`: every meld of a variant at every multiplicity, exactly (the rows of
  ``meld-odds --exact``, with the probability also as an exact fraction);
- :func:`run_partner_meld` + :func:`partner_meld_table` (four-hand-80): the partner's meld by
  one's own meld class and the length of the trump one names;
- :func:`run_pair_make` + :func:`pair_make_table` (four-hand-80): P(make) at 50/60/70 by the
  bidding pair's meld class, from whole simulated deals;
- :func:`run_widow_gain` + :func:`widow_gain_table` (three-hand-auction-48): the meld gained from
  the widow by own meld class, every widow of each hand weighed exactly;
- :func:`duel_match_row` + :func:`duel_match_table`: heuristic against random, every variant.

Tables are long: one row per cell, with the figures of the group the cell belongs to (its
number of deals, its share, the group's mean) repeated on each of its rows. Every count comes
with its interval (Wilson for shares and probabilities, normal for means). What each table
measures is described in ``results/README.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import numpy as np
import polars as pl

from binokel_sim import __version__
from binokel_sim.analysis import exact_meld_odds, provenance
from binokel_sim.cards import N_SUITS, planes_to_counts
from binokel_sim.exact import exact_meld_distribution
from binokel_sim.families import PARTNERSHIP, WIDOW, family_module
from binokel_sim.io import write_table
from binokel_sim.kernels.melds import meld_hand
from binokel_sim.simulate import Progress, SimulationError, check_run, deal
from binokel_sim.stats import mean_interval, wilson_interval
from binokel_sim.tables import compile_tables
from binokel_sim.variants import Rules

# Class edges: ascending lower bounds, the first 0; the last class is open ("200+").
MELD_EDGES = tuple(range(0, 201, 20))  # four-hand-80 hands: 0-19, 20-39, ..., 180-199, 200+
PAIR_EDGES = (0, 20, 30, 40, 50, 60, 70, 80, 90, 100, 120, 150, 200)  # the pair's meld
CONTRACTS = (50, 60, 70)
WIDOW_OWN_EDGES = (0, 20, 40, 60, 80, 100, 150, 200, 250, 300, 400)  # 15-card widow-game hands
GAIN_EDGES = (0, 1, 40, 100, 200, 300, 500)  # meld gained from the widow: 0, 1-39, 40-99, ...
NO_TRUMP = "none"  # the pair-make class of deals whose bid winner named no trump


def class_labels(edges: Sequence[int]) -> list[str]:
    """``"0-19"``, ..., ``"200+"``; a class of one value is just that value (``"0"``)."""
    labels = []
    for i, low in enumerate(edges):
        if i + 1 == len(edges):
            labels.append(f"{low}+")
        else:
            high = edges[i + 1] - 1
            labels.append(str(low) if high == low else f"{low}-{high}")
    return labels


def class_of(values, edges: Sequence[int]) -> np.ndarray:
    """The class index of each value (``np.searchsorted`` on the lower bounds)."""
    values = np.asarray(values)
    if values.size and values.min() < edges[0]:
        raise ValueError(f"value {values.min()} is below the first class ({edges[0]})")
    return np.searchsorted(np.asarray(edges), values, side="right") - 1


def _high(edges: Sequence[int], i: int) -> int | None:
    return edges[i + 1] - 1 if i + 1 < len(edges) else None


def write_both(df: pl.DataFrame, out_dir: str | Path, stem: str, record: dict) -> list[Path]:
    """Write ``df`` as ``stem.csv`` and ``stem.parquet`` in ``out_dir``, with ``record`` (the
    provenance) in constant columns and in the Parquet metadata; returns the paths."""
    clash = set(record) & set(df.columns)
    if clash:
        raise ValueError(f"provenance fields {sorted(clash)} would overwrite table columns")
    out = Path(out_dir)
    return [write_table(df, out / f"{stem}{suffix}", record) for suffix in (".csv", ".parquet")]


def _drivers(family: str) -> ModuleType:
    """The drivers of the engine family whose game a table studies (the partnership game's, the
    widow games'), from the family registry (:func:`binokel_sim.families.family_module`)."""
    return family_module("binokel_sim.engines", family)


# --- exact meld tables --------------------------------------------------------------------------

def exact_melds_table(rules: Rules, trump: int = 0) -> pl.DataFrame:
    """The rows of ``meld-odds --exact`` (:func:`binokel_sim.analysis.exact_meld_odds`: meld,
    count, points, hands (null), probability, ci_low, ci_high) and ``probability_fraction``, the
    exact probability as ``"p/q"`` in lowest terms."""
    df = exact_meld_odds(rules, trump)
    fractions = []
    for meld in rules.melds:
        dist = exact_meld_distribution(rules, meld.name, trump)
        fractions += [str(Fraction(dist.get(c, 0))) for c in range(max(dist) + 1)]
    if len(fractions) != df.height:
        raise AssertionError("exact_meld_odds and exact_meld_distribution disagree on the rows")
    return df.with_columns(pl.Series("probability_fraction", fractions, dtype=pl.String))


def exact_melds_provenance(rules: Rules, trump: int = 0) -> dict:
    return provenance(rules, table="exact-melds", method="exact", trump="SHDC"[trump])


# --- partner meld (four-hand-80) ----------------------------------------------------------------

def check_partnership_bidding(rules: Rules) -> None:
    """The partner-meld and pair-make tables need a four-hand-80 style game (partners 0+2 and
    1+3, every card dealt, trump named by the bid winner)."""
    _drivers(PARTNERSHIP).check(rules)


@dataclass(frozen=True)
class PartnerMeld:
    """A partner-meld run: ``hist[c, L, v]`` deals where seat 0's meld with the trump it names
    is in class ``c`` of ``own_edges``, it holds ``L`` cards of that trump and its partner melds
    ``v`` with it; ``no_trump[c]`` deals where seat 0 may name no suit (no marriage)."""

    deals: int
    seed: int
    own_edges: tuple[int, ...]
    hist: np.ndarray
    no_trump: np.ndarray


def run_partner_meld(rules: Rules, deals: int, seed: int, own_edges: Sequence[int] = MELD_EDGES,
                     threads: int | None = None, progress: Progress | None = None) -> PartnerMeld:
    """Deal ``deals`` deals (the partnership drivers' ``partner_meld_hist``: seat 0 names the suit
    of its best meld among the suits it holds a marriage in, the first of S H D C on a tie; its
    partner is seat 2) and histogram own meld class, trump length and partner meld. Block ``i``
    reads stream ``(seed, i)``: the same numbers on any thread count and in any chunking."""
    hist, no_trump = _drivers(PARTNERSHIP).partner_meld_hist(
        rules, deals, seed, np.asarray(own_edges, dtype=np.int64), threads, progress)
    return PartnerMeld(deals, seed, tuple(int(e) for e in own_edges), hist, no_trump)


PARTNER_SCHEMA = {
    "own_class": pl.String, "own_low": pl.Int64, "own_high": pl.Int64, "trump_length": pl.Int64,
    "group_deals": pl.Int64, "share": pl.Float64, "share_ci_low": pl.Float64,
    "share_ci_high": pl.Float64, "partner_mean": pl.Float64, "partner_mean_ci_low": pl.Float64,
    "partner_mean_ci_high": pl.Float64, "partner_class": pl.String, "partner_low": pl.Int64,
    "partner_high": pl.Int64, "partner_deals": pl.Int64, "probability": pl.Float64,
    "ci_low": pl.Float64, "ci_high": pl.Float64,
}


def partner_meld_table(result: PartnerMeld,
                       partner_edges: Sequence[int] = MELD_EDGES) -> pl.DataFrame:
    """One row per (own class, trump length, partner class) seen: the group's deals and share of
    all deals (Wilson 95%), the partner's mean meld in the group (normal 95%), and the partner
    class's deals and probability within the group (Wilson 95%). ``trump_length`` null: all
    lengths of that own class together (listed first). Deals without a marriage for seat 0 are
    in no row (``PartnerMeld.no_trump``)."""
    own_labels = class_labels(result.own_edges)
    p_labels = class_labels(partner_edges)
    values = np.arange(result.hist.shape[2])
    p_class = class_of(values, partner_edges)
    rows = []
    for c, label in enumerate(own_labels):
        by_length = result.hist[c]
        groups = [(None, by_length.sum(axis=0))]
        groups += [(length, by_length[length]) for length in range(by_length.shape[0])]
        for length, dist in groups:
            n = int(dist.sum())
            if n == 0:
                continue
            share_low, share_high = wilson_interval(n, result.deals)
            mean, mean_low, mean_high = mean_interval(float((values * dist).sum()),
                                                      float((values * values * dist).sum()), n)
            per_class = np.bincount(p_class, weights=dist, minlength=len(p_labels))
            per_class = per_class.astype(np.int64)
            low, high = wilson_interval(per_class, n)
            for k, p_label in enumerate(p_labels):
                rows.append({
                    "own_class": label, "own_low": result.own_edges[c],
                    "own_high": _high(result.own_edges, c), "trump_length": length,
                    "group_deals": n, "share": n / result.deals,
                    "share_ci_low": float(share_low), "share_ci_high": float(share_high),
                    "partner_mean": mean, "partner_mean_ci_low": mean_low,
                    "partner_mean_ci_high": mean_high, "partner_class": p_label,
                    "partner_low": partner_edges[k], "partner_high": _high(partner_edges, k),
                    "partner_deals": int(per_class[k]), "probability": per_class[k] / n,
                    "ci_low": float(low[k]), "ci_high": float(high[k]),
                })
    return pl.DataFrame(rows, schema=PARTNER_SCHEMA)


def partner_meld_provenance(rules: Rules, result: PartnerMeld) -> dict:
    return provenance(rules, table="partner-meld", method="monte-carlo", seed=result.seed,
                      deals=result.deals,
                      trump_rule="seat 0's best meld among its marriages, ties S H D C",
                      no_marriage_deals=int(result.no_trump.sum()))


# --- P(make) by pair meld (four-hand-80) --------------------------------------------------------

@dataclass(frozen=True)
class PairMake:
    """A pair-make run: per pair-meld class (``pair_edges``, then one class for deals whose bid
    winner named no trump) ``class_deals`` and ``made[class, j]``, the deals that would make a
    contract of ``contracts[j]``."""

    deals: int
    seed: int
    policy: str
    pair_edges: tuple[int, ...]
    contracts: tuple[int, ...]
    class_deals: np.ndarray
    made: np.ndarray


def bidding_pair(info: np.ndarray, melds: np.ndarray) -> dict[str, np.ndarray]:
    """The bid winner's pair in played deals (``games.PlayedDeals`` arrays): its meld and play
    and the opponents', with the named trump (melds 0 when no trump was named), and whether a
    trump was named."""
    col = {name: i for i, name in enumerate(_drivers(PARTNERSHIP).DEAL_FIELDS)}
    bidder, trump = info[:, col["bidder"]], info[:, col["trump"]]
    named = trump >= 0
    t = np.where(named, trump, 0)
    d = np.arange(info.shape[0])

    def meld(seat):
        return np.where(named, melds[d, seat % 4, t], 0)

    even = bidder % 2 == 0
    play_02, play_13 = info[:, col["play_02"]], info[:, col["play_13"]]
    return {"pair_meld": meld(bidder) + meld(bidder + 2),
            "opp_meld": meld(bidder + 1) + meld(bidder + 3),
            "pair_play": np.where(even, play_02, play_13),
            "opp_play": np.where(even, play_13, play_02),
            "named": named}


def run_pair_make(rules: Rules, deals: int, seed: int, policy: str = "heuristic",
                  pair_edges: Sequence[int] = PAIR_EDGES, contracts: Sequence[int] = CONTRACTS,
                  chunk: int = 64 * 1024, threads: int | None = None,
                  progress: Progress | None = None) -> PairMake:
    """Play ``deals`` whole deals (:func:`binokel_sim.engines.partnership.run_play`: the bidding heuristic's
    auction and trump, ``policy`` on every seat), ``chunk`` deals at a time (a multiple of
    ``games.GAME_BLOCK``; the same deals as one run of them all), and count per class of the
    bidding pair's meld with the named trump the deals that would make each contract
    (:func:`binokel_sim.odds.partnership.deal_scores`: the play does not depend on the bid)."""
    from binokel_sim.game_blocks import GAME_BLOCK

    check_partnership_bidding(rules)
    check_run(deals, seed)
    if chunk < 1 or chunk % GAME_BLOCK:
        raise SimulationError(f"chunk must be a positive multiple of {GAME_BLOCK}, got {chunk}")
    run_play = _drivers(PARTNERSHIP).run_play
    deal_scores = family_module("binokel_sim.odds", PARTNERSHIP).deal_scores
    n_classes = len(pair_edges) + 1  # the last: no trump named
    class_deals = np.zeros(n_classes, dtype=np.int64)
    made = np.zeros((n_classes, len(contracts)), dtype=np.int64)
    for start in range(0, deals, chunk):
        n = min(chunk, deals - start)
        played = run_play(rules, n, seed, policy, threads=threads, first_deal=start)
        pair = bidding_pair(played.info, played.melds)
        cls = np.where(pair["named"], class_of(pair["pair_meld"], pair_edges), n_classes - 1)
        class_deals += np.bincount(cls, minlength=n_classes)
        for j, contract in enumerate(contracts):
            ok = deal_scores(rules, contract, pair["pair_meld"], pair["pair_play"],
                             pair["opp_meld"], pair["opp_play"], pair["named"])[0]
            made[:, j] += np.bincount(cls[ok], minlength=n_classes)
        del played
        if progress is not None:
            progress(start + n, deals)
    return PairMake(deals, seed, policy, tuple(pair_edges), tuple(contracts), class_deals, made)


PAIR_SCHEMA = {
    "pair_class": pl.String, "pair_low": pl.Int64, "pair_high": pl.Int64,
    "class_deals": pl.Int64, "share": pl.Float64, "share_ci_low": pl.Float64,
    "share_ci_high": pl.Float64, "contract": pl.Int64, "made_deals": pl.Int64,
    "p_make": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
}


def pair_make_table(result: PairMake) -> pl.DataFrame:
    """One row per (pair-meld class seen, contract): the class's deals and share of all deals
    (Wilson 95%), and the share of them that would make the contract (Wilson 95%). Class
    ``"none"`` (bounds null) holds deals whose bid winner named no trump (lost before play)."""
    labels = class_labels(result.pair_edges) + [NO_TRUMP]
    rows = []
    for c, label in enumerate(labels):
        n = int(result.class_deals[c])
        if n == 0:
            continue
        share_low, share_high = wilson_interval(n, result.deals)
        named = c < len(result.pair_edges)
        for j, contract in enumerate(result.contracts):
            k = int(result.made[c, j])
            low, high = wilson_interval(k, n)
            rows.append({
                "pair_class": label, "pair_low": result.pair_edges[c] if named else None,
                "pair_high": _high(result.pair_edges, c) if named else None,
                "class_deals": n, "share": n / result.deals, "share_ci_low": float(share_low),
                "share_ci_high": float(share_high), "contract": contract, "made_deals": k,
                "p_make": k / n, "ci_low": float(low), "ci_high": float(high),
            })
    return pl.DataFrame(rows, schema=PAIR_SCHEMA)


def pair_make_provenance(rules: Rules, result: PairMake) -> dict:
    return provenance(rules, table="pair-make", method="monte-carlo", seed=result.seed,
                      deals=result.deals, policy=result.policy, auction="bidding heuristic")


# --- the widow's gain (three-hand-auction-48) ---------------------------------------------------

@dataclass(frozen=True)
class WidowGain:
    """A widow-gain run over ``hands`` random hands, every widow of each weighed. Per own class
    (``own_edges``): ``class_hands``; ``widows[c, g]`` the (hand, widow) pairs whose gain is in
    gain class ``g`` (``gain_edges``) and ``widows_sq[c, g]`` the sum over hands of the square of
    each hand's count; ``gain_sum[c]`` the summed gain of the pairs and ``gain_sq[c]`` the sum
    over hands of the square of each hand's summed gain (Python integers). All exact integers,
    so the table does not depend on how the hands were split; the squares give the intervals
    over hands."""

    hands: int
    seed: int
    widows_per_hand: int
    own_edges: tuple[int, ...]
    gain_edges: tuple[int, ...]
    class_hands: np.ndarray
    widows: np.ndarray
    widows_sq: np.ndarray
    gain_sum: np.ndarray
    gain_sq: np.ndarray


def best_meld(rules: Rules, planes: np.ndarray) -> int:
    """A widow-game hand's best meld: its highest total over the four trumps (any suit may be
    named), as the widow section's ``own_best_meld``."""
    kt = compile_tables(rules).kt
    n = len(rules.melds)
    scratch_c, scratch_p = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
    return max(int(meld_hand(planes=planes, trump=t, kt=kt, counts_out=scratch_c,
                             points_out=scratch_p)) for t in range(N_SUITS))


def _widow_sums(args) -> tuple:
    """The :class:`WidowGain` sums over some hands (bit planes (n, 4)); a process pool's task."""
    exact_widow = _drivers(WIDOW).exact_widow
    rules, planes, own_edges, gain_edges = args
    n_own, n_gain = len(own_edges), len(gain_edges)
    class_hands = np.zeros(n_own, dtype=np.int64)
    widows = np.zeros((n_own, n_gain), dtype=np.int64)
    widows_sq = np.zeros((n_own, n_gain), dtype=np.int64)
    gain_sum = np.zeros(n_own, dtype=np.int64)
    gain_sq = np.array([0] * n_own, dtype=object)  # can pass 2**63: Python integers
    per_hand = 0
    for hand in planes:
        own = best_meld(rules, hand)
        per_hand, hist = exact_widow(rules, planes_to_counts(hand))
        values = np.flatnonzero(hist)
        gains = values - own
        by_class = np.zeros(n_gain, dtype=np.int64)
        np.add.at(by_class, class_of(gains, gain_edges), hist[values])
        c = int(class_of([own], own_edges)[0])
        class_hands[c] += 1
        widows[c] += by_class
        widows_sq[c] += by_class * by_class
        total_gain = int((gains * hist[values]).sum())
        gain_sum[c] += total_gain
        gain_sq[c] += total_gain * total_gain
    return per_hand, class_hands, widows, widows_sq, gain_sum, gain_sq


def run_widow_gain(rules: Rules, hands: int, seed: int,
                   own_edges: Sequence[int] = WIDOW_OWN_EDGES,
                   gain_edges: Sequence[int] = GAIN_EDGES, workers: int = 1,
                   chunk: int = 10_000, progress: Progress | None = None) -> WidowGain:
    """Deal ``hands`` random hands (:func:`binokel_sim.simulate.deal`, seed ``seed``) and weigh
    every widow of each (:func:`binokel_sim.engines.widow.exact_widow`): gain = best meld of hand
    + widow minus the hand's best meld (both the highest over the four trumps), tallied by the
    hand's own meld class. ``workers`` > 1 spreads chunks of ``chunk`` hands over a process
    pool; the sums are exact integers, so the result does not depend on either."""
    _drivers(WIDOW).check(rules)
    check_run(hands, seed, "hands")
    planes = deal(rules, hands, seed, hand_sizes=[rules.hand_size], threads=None)[:, 0]
    tasks = [(rules, planes[i:i + chunk], tuple(own_edges), tuple(gain_edges))
             for i in range(0, hands, chunk)]
    parts = []
    if workers > 1:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for part in pool.imap(_widow_sums, tasks):
                parts.append(part)
                if progress is not None:
                    progress(min(len(parts) * chunk, hands), hands)
    else:
        for task in tasks:
            parts.append(_widow_sums(task))
            if progress is not None:
                progress(min(len(parts) * chunk, hands), hands)
    sums = [sum(part[i] for part in parts) for i in range(1, 6)]
    return WidowGain(hands, seed, parts[0][0], tuple(own_edges), tuple(gain_edges), *sums)


WIDOW_SCHEMA = {
    "own_class": pl.String, "own_low": pl.Int64, "own_high": pl.Int64, "class_hands": pl.Int64,
    "share": pl.Float64, "share_ci_low": pl.Float64, "share_ci_high": pl.Float64,
    "mean_gain": pl.Float64, "mean_gain_ci_low": pl.Float64, "mean_gain_ci_high": pl.Float64,
    "gain_class": pl.String, "gain_low": pl.Int64, "gain_high": pl.Int64, "widows": pl.Int64,
    "probability": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
}


def _over_hands(total: int, total_sq: int, n: int, scale: int) -> tuple[float, float]:
    """Normal 95% interval of the mean over ``n`` hands of a per-hand figure ``x / scale``,
    from the exact sums of ``x`` and ``x**2``."""
    _, low, high = mean_interval(float(Fraction(total, scale)),
                                 float(Fraction(total_sq, scale * scale)), n)
    return low, high


def widow_gain_table(result: WidowGain) -> pl.DataFrame:
    """One row per (own class seen, gain class): the class's hands and share of all hands
    (Wilson 95%), its mean gain, and the probability that the widow gains that much for a hand
    of the class (exact over the widows, averaged over the hands: ``widows`` / (hands x widows
    per hand)); both intervals are normal 95% intervals over the hands."""
    own_labels, gain_labels = class_labels(result.own_edges), class_labels(result.gain_edges)
    w = result.widows_per_hand
    rows = []
    for c, label in enumerate(own_labels):
        n = int(result.class_hands[c])
        if n == 0:
            continue
        share_low, share_high = wilson_interval(n, result.hands)
        m_low, m_high = _over_hands(int(result.gain_sum[c]), int(result.gain_sq[c]), n, w)
        mean = float(Fraction(int(result.gain_sum[c]), n * w))
        for g, g_label in enumerate(gain_labels):
            k = int(result.widows[c, g])
            q_low, q_high = _over_hands(k, int(result.widows_sq[c, g]), n, w)
            rows.append({
                "own_class": label, "own_low": result.own_edges[c],
                "own_high": _high(result.own_edges, c), "class_hands": n,
                "share": n / result.hands, "share_ci_low": float(share_low),
                "share_ci_high": float(share_high), "mean_gain": mean, "mean_gain_ci_low": m_low,
                "mean_gain_ci_high": m_high, "gain_class": g_label,
                "gain_low": result.gain_edges[g], "gain_high": _high(result.gain_edges, g),
                "widows": k, "probability": float(Fraction(k, n * w)),
                "ci_low": max(q_low, 0.0), "ci_high": min(q_high, 1.0),
            })
    return pl.DataFrame(rows, schema=WIDOW_SCHEMA)


def widow_gain_provenance(rules: Rules, result: WidowGain) -> dict:
    return provenance(rules, table="widow-gain", method="exact widows, monte-carlo hands",
                      seed=result.seed, hands=result.hands,
                      widows_per_hand=result.widows_per_hand)


# --- heuristic against random, every variant ----------------------------------------------------

DUEL_MATCH_SCHEMA = {
    "variant": pl.String, "family": pl.String, "sides": pl.Int64, "duel_deals": pl.Int64,
    "mean_diff": pl.Float64, "diff_ci_low": pl.Float64, "diff_ci_high": pl.Float64,
    "match_games": pl.Int64, "target": pl.Int64, "p_win_a": pl.Float64,
    "p_win_ci_low": pl.Float64, "p_win_ci_high": pl.Float64, "fair_share": pl.Float64,
    "unfinished": pl.Int64, "mean_deals": pl.Float64, "mean_final_score_a": pl.Float64,
    "mean_final_score_b": pl.Float64,
}


def duel_match_row(rules: Rules, deals: int, games: int, duel_seed: int, match_seed: int,
                   policy_a: str = "heuristic", policy_b: str = "random",
                   threads: int | None = None) -> dict:
    """The figures of ``binokel-sim duel`` and ``binokel-sim match`` for one variant: A minus B
    per deal (normal 95%) over ``deals`` deals, and P(A's side wins a game) (Wilson 95%, the
    unfinished games left out) over ``games`` games, with the mean deals per game and the mean
    final totals (B's: per other side)."""
    from binokel_sim.contests import duel, match
    from binokel_sim.families import engine_family, sides

    diff = duel(rules, policy_a, policy_b, deals, duel_seed, threads)
    mean, low, high = mean_interval(float(diff.sum()), float((diff * diff).sum()), deals)
    result = match(rules, policy_a, policy_b, games, match_seed, threads)
    finished = result[:, 0] >= 0
    n_done = int(finished.sum())
    wins = int((result[:, 0] == 1).sum())
    w_low, w_high = wilson_interval(wins, max(n_done, 1))
    n_sides = sides(rules)
    return {
        "variant": rules.name, "family": engine_family(rules), "sides": n_sides,
        "duel_deals": deals, "mean_diff": mean, "diff_ci_low": low, "diff_ci_high": high,
        "match_games": games, "target": rules.game_target,
        "p_win_a": wins / n_done if n_done else None,
        "p_win_ci_low": float(w_low) if n_done else None,
        "p_win_ci_high": float(w_high) if n_done else None,
        "fair_share": 1 / n_sides, "unfinished": games - n_done,
        "mean_deals": float(result[:, 1].mean()),
        "mean_final_score_a": float(result[:, 2].mean()),
        "mean_final_score_b": float(result[:, 3].mean() / (n_sides - 1)),
    }


def duel_match_table(rows: list[dict]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=DUEL_MATCH_SCHEMA)


def duel_match_provenance(duel_seed: int, match_seed: int, policy_a: str = "heuristic",
                          policy_b: str = "random") -> dict:
    return {"table": "heuristic-vs-random", "version": __version__, "a": policy_a,
            "b": policy_b, "duel_seed": duel_seed, "match_seed": match_seed}
