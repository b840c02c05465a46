"""Meld odds: the batch kernel equals the reference histogram for histogram (dealt hands and any
multiset of cards, built-in and made-up variants), results do not depend on the thread count, the
table has its documented shape, and the Monte Carlo rows agree with the exact probabilities within
a few standard errors."""

from __future__ import annotations

from math import comb, sqrt

import numba
import numpy as np
import polars as pl
import pytest
from conftest import TINY_RULES_FILES, VARIANT_NAMES, kernel_tables
from hypothesis import given
from hypothesis import strategies as st

from binokel_sim import simulate
from binokel_sim.analysis import exact_meld_odds, meld_odds
from binokel_sim.kernels.meld_odds import MeldHists, meld_odds_blocks, meld_odds_table
from binokel_sim.kernels.runs import Run
from binokel_sim.reference import core as core_twin
from binokel_sim.simulate import (
    MAX_COUNT,
    SimulationError,
    run_meld_counts,
    spread_blocks,
)
from binokel_sim.tables import compile_tables
from binokel_sim.variants import find_variant, load_rules


def kernel_counts(rules, n: int, seed: int, trump: int, block_size: int, first_block: int = 0):
    tables = compile_tables(rules)
    n_blocks = (n + block_size - 1) // block_size
    out = MeldHists(np.zeros((n_blocks, tables.n_melds, MAX_COUNT + 1), dtype=np.int64),
                    np.zeros((n_blocks, tables.max_total + 1), dtype=np.int64))
    spread_blocks(meld_odds_blocks, n_blocks, tables.deck, rules.hand_size,
                  meld_odds_table(kernel_tables(tables), tables.trump_need, trump),
                  Run(seed, first_block, block_size, first_block * block_size, n), out)
    return out.count_hist.sum(axis=0), out.total_hist.sum(axis=0)


def reference_arrays(rules, n: int, seed: int, trump: int, block_size: int, shape_c, shape_t):
    count_hist, total_hist = core_twin.meld_odds_counts(rules, n, seed, trump, block_size)
    ch = np.zeros(shape_c, dtype=np.int64)
    th = np.zeros(shape_t, dtype=np.int64)
    for m, meld in enumerate(rules.melds):
        for c, k in count_hist[meld.name].items():
            ch[m, c] = k
    for v, k in total_hist.items():
        th[v] = k
    return ch, th


# --- kernel == reference ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_kernel_equals_reference_small_blocks(name):
    # 1500 deals in blocks of 400 (the last one partial); trump hearts
    r = find_variant(name)
    ch, th = kernel_counts(r, 1500, seed=11, trump=1, block_size=400)
    ref_ch, ref_th = reference_arrays(r, 1500, 11, 1, 400, ch.shape, th.shape)
    assert np.array_equal(ch, ref_ch)
    assert np.array_equal(th, ref_th)
    assert (ch.sum(axis=1) == 1500).all() and th.sum() == 1500


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_public_run_equals_reference(name):
    # simulate.run_meld_counts with its own BLOCK_SIZE (the first 1000 deals of block 0)
    r = find_variant(name)
    result = run_meld_counts(r, 1000, seed=3, trump=0)
    assert result.deals == 1000
    ref_ch, ref_th = reference_arrays(r, 1000, 3, 0, simulate.BLOCK_SIZE,
                                      result.count_hist.shape, result.total_hist.shape)
    assert np.array_equal(result.count_hist, ref_ch)
    assert np.array_equal(result.total_hist, ref_th)


@pytest.mark.parametrize("path", TINY_RULES_FILES, ids=lambda p: p.stem)
def test_kernel_equals_reference_custom_rules(path):
    # made-up variants with chains of parents (suit melds inside fixed melds: fixed states)
    r = load_rules(path)
    for trump in range(4):
        ch, th = kernel_counts(r, 700, seed=5 + trump, trump=trump, block_size=300)
        ref_ch, ref_th = reference_arrays(r, 700, 5 + trump, trump, 300, ch.shape, th.shape)
        assert np.array_equal(ch, ref_ch) and np.array_equal(th, ref_th)


@st.composite
def any_hands(draw):
    """A variant (built-in or made-up) and any multiset of its cards within the deck's copies: the
    high multiplicities (double runs, eight aces, triple binokel) a deal almost never reaches."""
    source = draw(st.sampled_from(VARIANT_NAMES + TINY_RULES_FILES))
    rules = find_variant(source) if isinstance(source, str) else load_rules(source)
    deck = rules.deck_counts()
    hand = [draw(st.integers(0, int(deck[t]))) if deck[t] else 0 for t in range(24)]
    return rules, hand, draw(st.integers(0, 3))


@given(any_hands())
def test_kernel_scores_any_hand_like_the_reference(case):
    # a deck that is exactly the hand, dealt whole: the histograms of that one hand
    rules, hand, trump = case
    tables = compile_tables(rules)
    deck = np.repeat(np.arange(24, dtype=np.int64), hand)
    ch = np.zeros((1, tables.n_melds, MAX_COUNT + 1), dtype=np.int64)
    th = np.zeros((1, tables.max_total + 1), dtype=np.int64)
    spread_blocks(meld_odds_blocks, 1, deck, deck.shape[0],
                  meld_odds_table(kernel_tables(tables), tables.trump_need, trump),
                  Run(0, 0, 1, 0, 1), MeldHists(ch, th))
    counts = [count for _, count, _ in core_twin.meld_table(rules, hand, trump)]
    assert [int(np.flatnonzero(row)[0]) for row in ch[0]] == counts
    assert ch.sum() == tables.n_melds
    assert np.flatnonzero(th[0]).tolist() == [core_twin.best_total(rules, hand)]


def test_one_thread_equals_two_threads_kernel(two_threads):
    r = find_variant("four-hand-80")
    numba.set_num_threads(1)
    one = kernel_counts(r, 20011, seed=9, trump=2, block_size=97)
    numba.set_num_threads(two_threads)
    two = kernel_counts(r, 20011, seed=9, trump=2, block_size=97)
    assert np.array_equal(one[0], two[0]) and np.array_equal(one[1], two[1])


def test_one_thread_equals_two_threads_public(two_threads):
    # more than four blocks: one thread cuts the run into two chunks, two threads into one
    r = find_variant("two-hand-48")
    n = 4 * simulate.BLOCK_SIZE + 105
    one = run_meld_counts(r, n, seed=21, threads=1)
    two = run_meld_counts(r, n, seed=21, threads=two_threads)
    assert np.array_equal(one.count_hist, two.count_hist)
    assert np.array_equal(one.total_hist, two.total_hist)
    # and both equal one unchunked kernel call with the same block size
    ch, th = kernel_counts(r, n, seed=21, trump=0, block_size=simulate.BLOCK_SIZE)
    assert np.array_equal(one.count_hist, ch) and np.array_equal(one.total_hist, th)


def test_progress_callback_reaches_the_total():
    r = find_variant("two-hand-48")
    calls = []
    run_meld_counts(r, 5000, seed=1, progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1] == (5000, 5000)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


@pytest.mark.parametrize("deals,seed,threads", [(0, 1, None), (10, -1, None), (10, 1, 0)])
def test_bad_arguments(deals, seed, threads):
    with pytest.raises(SimulationError):
        run_meld_counts(find_variant("two-hand-48"), deals, seed, threads=threads)


# --- the table ----------------------------------------------------------------------------------------

def test_meld_odds_table_shape():
    r = find_variant("four-hand-80")
    n = 4000
    df = meld_odds(r, n, seed=1)
    assert df.columns == ["meld", "count", "points", "hands", "probability", "ci_low", "ci_high"]
    assert df.schema == {"meld": pl.String, "count": pl.Int64, "points": pl.Int64,
                         "hands": pl.Int64,
                         "probability": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64}
    assert df["meld"].unique(maintain_order=True).to_list() == list(r.meld_names) + ["total_meld"]
    for name in r.meld_names:
        rows = df.filter(pl.col("meld") == name)
        assert rows["count"].to_list() == list(range(rows.height))  # 0 .. largest seen
        meld = r.melds[r.meld_names.index(name)]
        # a suit meld's count is added over suits: per set (test_meld_table_points holds every
        # row to the analyzer); a fixed or trump meld reads its table
        per_set = meld.scope in ("non_trump", "per_suit")
        assert rows["points"].to_list() == [c * meld.points[1] if per_set
                                            else meld.points[min(c, len(meld.points) - 1)]
                                            for c in range(rows.height)]
        assert rows["hands"].sum() == n
        assert rows["hands"][-1] > 0
    total = df.filter(pl.col("meld") == "total_meld")
    assert total["hands"].sum() == n and (total["hands"] > 0).all()
    assert total["count"].is_null().all() and total["points"].is_sorted()
    assert ((df["probability"] - df["hands"] / n).abs() < 1e-15).all()
    assert (df["ci_low"] <= df["probability"]).all() and (df["probability"] <= df["ci_high"]).all()
    assert (df["ci_low"] >= 0).all() and (df["ci_high"] <= 1).all()


def test_meld_odds_same_seed_same_table():
    r = find_variant("three-hand-72")
    assert meld_odds(r, 3000, seed=4).equals(meld_odds(r, 3000, seed=4))
    assert not meld_odds(r, 3000, seed=4).equals(meld_odds(r, 3000, seed=5))


def test_total_meld_rows_match_reference_best_total():
    # total_meld rows: best total over the suits the hand may name (all four if none)
    r = find_variant("four-hand-80")
    df = meld_odds(r, 800, seed=17).filter(pl.col("meld") == "total_meld")
    _, total_hist = core_twin.meld_odds_counts(r, 800, 17, 0, simulate.BLOCK_SIZE)
    assert dict(zip(df["points"].to_list(), df["hands"].to_list())) == total_hist


# --- statistics against the exact values --------------------------------------------------------------

_MILLION: dict[tuple[str, int], pl.DataFrame] = {}


def million(name: str, trump: int = 0) -> pl.DataFrame:
    """The Monte Carlo table of 1,000,000 deals, seed 1 (computed once per module)."""
    if (name, trump) not in _MILLION:
        _MILLION[name, trump] = meld_odds(find_variant(name), 1_000_000, seed=1, trump=trump)
    return _MILLION[name, trump]


def p_at_least_one(df: pl.DataFrame, meld: str) -> float:
    return 1.0 - df.filter((pl.col("meld") == meld) & (pl.col("count") == 0))["probability"][0]


def test_four_hand_80_aces_around_and_binokel_within_4_se():
    n = 1_000_000
    C = comb(80, 20)
    # aces around >= 1: an ace in every suit; inclusion-exclusion over the suits missing all aces
    p_aces = sum((-1) ** j * comb(4, j) * comb(80 - 4 * j, 20) for j in range(5)) / C
    # binokel >= 1: 1 - P(no QS) - P(no JD) + P(neither)
    p_bin = 1 - 2 * comb(76, 20) / C + comb(72, 20) / C
    assert round(p_aces, 7) == 0.2089527 and round(p_bin, 7) == 0.4716234
    df = million("four-hand-80")
    for meld, p in [("aces_around", p_aces), ("binokel", p_bin)]:
        se = sqrt(p * (1 - p) / n)
        assert abs(p_at_least_one(df, meld) - p) < 4 * se, meld


@pytest.mark.parametrize("name,trump", [("four-hand-80", 0), ("two-hand-48", 0),
                                        ("three-hand-auction-48", 1), ("four-hand-widow-48", 0),
                                        ("three-hand-72", 2), ("four-hand-72", 3)])
def test_monte_carlo_matches_exact_every_row(name, trump):
    mc = million(name, trump)
    exact = exact_meld_odds(find_variant(name), trump)
    n = 1_000_000
    joined = exact.join(mc.select("meld", "count", pl.col("probability").alias("mc")),
                        on=["meld", "count"], how="left").with_columns(pl.col("mc").fill_null(0.0))
    # every Monte Carlo meld row has an exact twin (nothing seen that cannot happen)
    mc_rows = mc.filter(pl.col("meld") != "total_meld").select("meld", "count")
    assert mc_rows.join(exact, on=["meld", "count"], how="anti").height == 0
    bad = []
    for meld, count, p, got in joined.select("meld", "count", "probability", "mc").iter_rows():
        tol = max(4.5 * sqrt(p * (1 - p) / n), 3 / n)
        if abs(got - p) > tol:
            bad.append((meld, count, p, got, tol))
    assert not bad


# --- Wilson intervals (stats.wilson_interval) ---------------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 7, 20, 99, 1000, 123457, 10**6])
def test_wilson_interval_matches_scipy(n):
    from scipy.stats import binomtest

    from binokel_sim.stats import wilson_interval

    ks = sorted({k for k in (0, 1, 2, n // 10, n // 3, n // 2, n - 2, n - 1, n) if 0 <= k <= n})
    low, high = wilson_interval(np.array(ks), n)
    for k, lo, hi in zip(ks, low, high):
        ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
        assert lo == pytest.approx(ci.low, abs=1e-12), (k, n)
        assert hi == pytest.approx(ci.high, abs=1e-12), (k, n)
    # scalars work too
    lo, hi = wilson_interval(ks[-1], n)
    assert float(hi) == pytest.approx(binomtest(ks[-1], n).proportion_ci(method="wilson").high,
                                      abs=1e-12)
