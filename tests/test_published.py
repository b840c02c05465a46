"""The published tables (binokel_sim/published.py, results/tables/): the exact meld tables equal
``meld-odds --exact`` row for row; the partner-meld kernel equals its pure-Python twin histogram
for histogram; the pair-make and widow-gain tables equal plain recomputations; distributions sum
to 1; every file carries its provenance."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numba
import numpy as np
import polars as pl
import pytest
from conftest import VARIANT_NAMES, ok

from binokel_sim import __version__, published, simulate
from binokel_sim.cards import planes_to_counts
from binokel_sim.engines.partnership import DEAL_FIELDS, run_play
from binokel_sim.kernels.partnership.partner_meld import partner_meld_blocks
from binokel_sim.odds.widow import widow_section
from binokel_sim.reference.partner import partner_histogram, partner_records
from binokel_sim.simulate import spread_blocks
from binokel_sim.tables import compile_tables
from binokel_sim.variants import find_variant

RESULTS = Path(__file__).resolve().parent.parent / "results" / "tables"
EXACT_COLUMNS = ["meld", "count", "points", "probability", "ci_low", "ci_high"]


def cli_exact_rows(name: str) -> list[dict]:
    obj = json.loads(ok("meld-odds", "--variant", name, "--exact", "--format", "json").stdout)
    return obj["rows"]


def same_exact_rows(df: pl.DataFrame, rows: list[dict]) -> None:
    assert df.height == len(rows)
    for got, want in zip(df.select(EXACT_COLUMNS).iter_rows(named=True), rows):
        assert got == {k: want[k] for k in EXACT_COLUMNS}  # floats equal to the last bit


# --- class helpers ------------------------------------------------------------------------------

def test_class_labels_and_classes():
    assert published.class_labels((0, 20, 40)) == ["0-19", "20-39", "40+"]
    assert published.class_labels((0, 1, 40)) == ["0", "1-39", "40+"]
    assert published.class_of([0, 19, 20, 39, 40, 999], (0, 20, 40)).tolist() == [0, 0, 1, 1, 2, 2]
    with pytest.raises(ValueError):
        published.class_of([-10], (0, 20))


# --- exact meld tables --------------------------------------------------------------------------

@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_exact_table_equals_meld_odds_exact(name, tmp_path):
    rules = find_variant(name)
    df = published.exact_melds_table(rules)
    rows = cli_exact_rows(name)
    same_exact_rows(df, rows)
    assert df["hands"].null_count() == df.height
    fractions = [Fraction(f) for f in df["probability_fraction"]]
    assert [float(f) for f in fractions] == df["probability"].to_list()
    for meld in df["meld"].unique():  # every meld's multiplicities add up to exactly 1
        assert sum(f for f, m in zip(fractions, df["meld"]) if m == meld) == 1
    paths = published.write_both(df, tmp_path, f"exact-melds-{name}",
                                 published.exact_melds_provenance(rules))
    csv, parquet = (pl.read_csv(paths[0]), pl.read_parquet(paths[1]))
    for back in (csv, parquet):  # the files give back the same rows, to the last bit
        same_exact_rows(back, rows)
        assert back["variant"].unique().to_list() == [name]
        assert back["version"].unique().to_list() == [__version__]
        assert back["method"].unique().to_list() == ["exact"]
    meta = json.loads(pl.read_parquet_metadata(paths[1])["binokel_sim"])
    assert meta == published.exact_melds_provenance(rules)


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_published_exact_files_equal_meld_odds_exact(name):
    files = [RESULTS / f"exact-melds-{name}{suffix}" for suffix in (".csv", ".parquet")]
    if not all(f.exists() for f in files):
        pytest.skip("results/tables/ not made yet (scripts/make_tables.sh)")
    rows = cli_exact_rows(name)
    same_exact_rows(pl.read_csv(files[0]), rows)
    same_exact_rows(pl.read_parquet(files[1]), rows)


def test_provenance_never_overwrites_a_column(tmp_path):
    with pytest.raises(ValueError, match="overwrite"):
        published.write_both(pl.DataFrame({"seed": [1]}), tmp_path, "x", {"seed": 2})


# --- partner meld: kernel == twin ---------------------------------------------------------------

R80 = find_variant("four-hand-80")
EDGES = list(published.MELD_EDGES)


def twin_arrays(n: int, seed: int, block_size: int, shape):
    hist, no_trump = partner_histogram(R80, n, seed, block_size, EDGES)
    h = np.zeros(shape, dtype=np.int64)
    nt = np.zeros(len(EDGES), dtype=np.int64)
    for key, k in hist.items():
        h[key] = k
    for c, k in no_trump.items():
        nt[c] = k
    return h, nt


def test_partner_kernel_equals_twin_small_blocks():
    # 2500 deals in blocks of 600 (the last one partial)
    tables = compile_tables(R80)
    n, block = 2500, 600
    n_blocks = (n + block - 1) // block
    shape = (len(EDGES), R80.hand_size + 1, tables.max_total + 1)
    h = np.zeros((n_blocks, *shape), dtype=np.int64)
    nt = np.zeros((n_blocks, len(EDGES)), dtype=np.int64)
    spread_blocks(partner_meld_blocks, n_blocks, tables.deck, R80.hand_size, tables.kt,
                  tables.trump_need, np.array(EDGES, dtype=np.int64), 13, 0, block, n, h, nt)
    ref_h, ref_nt = twin_arrays(n, 13, block, shape)
    assert np.array_equal(h.sum(axis=0), ref_h)
    assert np.array_equal(nt.sum(axis=0), ref_nt)
    assert h.sum() + nt.sum() == n
    assert h[:, :, :2].sum() == 0  # a named trump holds its marriage: at least 2 cards


def test_partner_driver_equals_twin():
    result = published.run_partner_meld(R80, 1500, seed=5)
    ref_h, ref_nt = twin_arrays(1500, 5, simulate.BLOCK_SIZE, result.hist.shape)
    assert np.array_equal(result.hist, ref_h)
    assert np.array_equal(result.no_trump, ref_nt)


def test_partner_one_thread_equals_two(two_threads):
    one = published.run_partner_meld(R80, 70_000, seed=3, threads=1)
    numba.set_num_threads(two_threads)
    two = published.run_partner_meld(R80, 70_000, seed=3, threads=two_threads)
    assert np.array_equal(one.hist, two.hist) and np.array_equal(one.no_trump, two.no_trump)


def test_partner_table_from_plain_loop():
    n, seed = 1200, 8
    df = published.partner_meld_table(published.run_partner_meld(R80, n, seed))
    # distributions sum to 1 and the groups add up
    sums = df.group_by("own_class", "trump_length").agg(pl.col("probability").sum(),
                                                        pl.col("partner_deals").sum(),
                                                        pl.col("group_deals").first())
    assert np.allclose(sums["probability"].to_numpy(), 1.0, rtol=0, atol=1e-12)
    assert (sums["partner_deals"] == sums["group_deals"]).all()
    # the same figures by a plain loop over the twin's deals
    records = partner_records(R80, n, seed, simulate.BLOCK_SIZE)
    named = [r for r in records if r[0] >= 0]
    groups = {}
    for _, own, length, partner in named:
        c = max(i for i, low in enumerate(EDGES) if own >= low)
        groups.setdefault((c, None), []).append(partner)
        groups.setdefault((c, length), []).append(partner)
    rows = df.filter(pl.col("partner_class") == "0-19")
    assert rows.height == len(groups)
    labels = published.class_labels(EDGES)
    for row in rows.iter_rows(named=True):
        partners = groups[labels.index(row["own_class"]), row["trump_length"]]
        assert row["group_deals"] == len(partners)
        assert row["share"] == len(partners) / n
        assert row["partner_mean"] == pytest.approx(np.mean(partners), abs=1e-9)
        assert row["probability"] == pytest.approx(np.mean(np.array(partners) < 20), abs=1e-12)
        assert row["ci_low"] <= row["probability"] <= row["ci_high"]
    lengths = df.filter(pl.col("trump_length").is_not_null()).unique(["own_class", "trump_length"])
    assert lengths["share"].sum() == pytest.approx(len(named) / n, abs=1e-12)


# --- P(make) by pair meld -----------------------------------------------------------------------

def test_pair_make_table_from_plain_loop():
    n, seed = 3 * 1024, 4
    result = published.run_pair_make(R80, n, seed, chunk=1024)  # three chunks
    df = published.pair_make_table(result)
    played = run_play(R80, n, seed, "heuristic")  # one run: the same deals
    col = {f: i for i, f in enumerate(DEAL_FIELDS)}
    edges = list(published.PAIR_EDGES)
    labels = published.class_labels(edges)
    deals, made = {}, {}
    for d in range(n):
        info = played.info[d]
        bidder, trump = info[col["bidder"]], info[col["trump"]]
        if trump < 0:
            label, meld = published.NO_TRUMP, 0
        else:
            meld = played.melds[d, bidder, trump] + played.melds[d, (bidder + 2) % 4, trump]
            label = labels[max(i for i, low in enumerate(edges) if meld >= low)]
        play = info[col["play_02"]] if bidder % 2 == 0 else info[col["play_13"]]
        deals[label] = deals.get(label, 0) + 1
        for contract in published.CONTRACTS:
            # the contract: made with a trump named, pair meld >= 20, play >= 20, play + meld >= X
            if trump >= 0 and meld >= 20 and play >= 20 and play + meld >= contract:
                made[label, contract] = made.get((label, contract), 0) + 1
    assert df.height == len(deals) * len(published.CONTRACTS)
    for row in df.iter_rows(named=True):
        assert row["class_deals"] == deals[row["pair_class"]]
        assert row["made_deals"] == made.get((row["pair_class"], row["contract"]), 0)
        assert row["p_make"] == row["made_deals"] / row["class_deals"]
        assert row["ci_low"] <= row["p_make"] <= row["ci_high"]
    shares = df.unique("pair_class")["share"].sum()
    assert shares == pytest.approx(1.0, abs=1e-12)
    assert (df.filter(pl.col("pair_high") < 20)["p_make"] == 0).all()  # lost before play


# --- the widow's gain ---------------------------------------------------------------------------

R48 = find_variant("three-hand-auction-48")


def test_widow_gain_table_from_widow_sections():
    n, seed = 200, 6
    result = published.run_widow_gain(R48, n, seed, chunk=64)
    assert result.widows_per_hand == 5456
    df = published.widow_gain_table(result)
    planes = simulate.deal(R48, n, seed, hand_sizes=[R48.hand_size])[:, 0]
    own_edges, gain_edges = published.WIDOW_OWN_EDGES, published.GAIN_EDGES
    own_labels, gain_labels = (published.class_labels(own_edges),
                               published.class_labels(gain_edges))
    probs, gains = {}, {}
    for p in planes:
        section = widow_section(R48, planes_to_counts(p))
        own = section["own_best_meld"]
        c = own_labels[max(i for i, low in enumerate(own_edges) if own >= low)]
        q = dict.fromkeys(gain_labels, 0.0)
        for entry in section["distribution"]:
            gain = entry["meld"] - own
            assert gain >= 0
            q[gain_labels[max(i for i, low in enumerate(gain_edges) if gain >= low)]] += \
                entry["probability"]
        probs.setdefault(c, []).append(q)
        gains.setdefault(c, []).append(section["mean_best_meld"] - own)
    assert df.height == len(probs) * len(gain_labels)
    for row in df.iter_rows(named=True):
        hands = probs[row["own_class"]]
        assert row["class_hands"] == len(hands)
        assert row["probability"] == pytest.approx(np.mean([q[row["gain_class"]] for q in hands]),
                                                   abs=1e-12)
        assert row["mean_gain"] == pytest.approx(np.mean(gains[row["own_class"]]), abs=1e-9)
    sums = df.group_by("own_class").agg(pl.col("probability").sum())["probability"]
    assert np.allclose(sums.to_numpy(), 1.0, rtol=0, atol=1e-12)
    assert df.unique("own_class")["share"].sum() == pytest.approx(1.0, abs=1e-12)


def test_widow_gain_does_not_depend_on_chunks():
    a = published.run_widow_gain(R48, 90, 2, chunk=90)
    b = published.run_widow_gain(R48, 90, 2, chunk=7)
    assert published.widow_gain_table(a).equals(published.widow_gain_table(b))


def test_widow_gain_process_pool_equals_one_process():
    a = published.run_widow_gain(R48, 30, 5, chunk=10)
    b = published.run_widow_gain(R48, 30, 5, chunk=10, workers=2)
    assert published.widow_gain_table(a).equals(published.widow_gain_table(b))


# --- duels and matches, provenance of the Monte Carlo tables ------------------------------------

def test_duel_match_rows_every_variant(tmp_path):
    from binokel_sim.contests import duel

    rows = [published.duel_match_row(find_variant(name), 1024, 40, 3, 4)
            for name in VARIANT_NAMES]
    df = published.duel_match_table(rows)
    assert df["variant"].to_list() == VARIANT_NAMES
    diff = duel(R80, "heuristic", "random", 1024, 3)
    row = df.row(VARIANT_NAMES.index("four-hand-80"), named=True)
    assert row["mean_diff"] == pytest.approx(diff.mean(), abs=1e-9)
    assert (df["diff_ci_low"] <= df["mean_diff"]).all()
    assert (df["mean_diff"] <= df["diff_ci_high"]).all()
    paths = published.write_both(df, tmp_path, "heuristic-vs-random",
                                 published.duel_match_provenance(3, 4))
    back = pl.read_csv(paths[0])
    assert back["duel_seed"].unique().to_list() == [3] and back["a"][0] == "heuristic"
    assert back["variant"].to_list() == VARIANT_NAMES


def test_monte_carlo_tables_carry_provenance(tmp_path):
    partner = published.run_partner_meld(R80, 500, seed=2)
    pair = published.run_pair_make(R80, 1024, seed=2)
    widow = published.run_widow_gain(R48, 20, seed=2)
    cases = [
        (published.partner_meld_table(partner), published.partner_meld_provenance(R80, partner),
         {"deals": 500, "seed": 2, "table": "partner-meld"}),
        (published.pair_make_table(pair), published.pair_make_provenance(R80, pair),
         {"deals": 1024, "seed": 2, "policy": "heuristic", "table": "pair-make"}),
        (published.widow_gain_table(widow), published.widow_gain_provenance(R48, widow),
         {"hands": 20, "seed": 2, "table": "widow-gain"}),
    ]
    for df, record, expected in cases:
        assert {**record, **expected} == record and record["version"] == __version__
        csv, parquet = published.write_both(df, tmp_path, record["table"], record)
        for back in (pl.read_csv(csv), pl.read_parquet(parquet)):
            assert back.height == df.height
            for key, value in expected.items():
                assert back[key].unique().to_list() == [value]
        assert json.loads(pl.read_parquet_metadata(parquet)["binokel_sim"]) == record
