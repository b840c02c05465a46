"""``binokel-sim bench --all``: one table of every engine on 1 and all threads beside its
pure-Python twin (tiny runs: the figures themselves are measured in benchmarks/, never asserted)."""

from __future__ import annotations

import json

import pytest

from binokel_sim.bench_table import ALL, measures
from binokel_sim.variants import all_variants

from conftest import assert_one_line_error, invoke, ok

SCALE = "0.001"


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    document = json.loads(ok("bench", "--all", "--scale", SCALE, "--threads", "2",
                             "--format", "json").stdout)
    assert document["provenance"]["command"] == "bench --all"
    assert document["provenance"]["threads"] == 2
    return document["rows"]


def test_every_engine_and_variant_has_a_row(rows):
    engines = {(r["engine"], r["variant"]) for r in rows}
    assert {v.name for v in all_variants()} == set(ALL)
    for variant in ALL:
        assert ("deal + meld", variant) in engines
        assert ("play-out random", variant) in engines
        assert ("play-out heuristic", variant) in engines
    assert {e for e, _ in engines} >= {"deal", "bid-odds random", "bid-odds heuristic",
                                       "deal-odds heuristic", "records random",
                                       "exact meld table", "exact widow"}
    assert len(rows) == len(measures())


def test_rates_twins_and_ratios_agree(rows):
    for r in rows:
        assert r["per_s_1_thread"] > 0, r
        threaded = r["per_s_all_threads"]
        twin = r["twin_per_s"]
        assert (twin is None) == (r["ratio"] is None), r
        if twin is not None:
            best = max(r["per_s_1_thread"], threaded or 0.0)
            assert r["ratio"] == pytest.approx(best / twin), r
    # every play-out, random or heuristic, has its twin, and so do four-hand-80's bid odds
    by_key = {(r["engine"], r["variant"]): r for r in rows}
    for r in rows:
        if r["engine"].startswith("play-out"):
            assert r["twin_per_s"] > 0, r
    assert by_key[("bid-odds heuristic", "four-hand-80")]["twin_per_s"] > 0
    assert by_key[("bid-odds heuristic", "three-hand-auction-48")]["twin_per_s"] is None
    assert by_key[("exact meld table", "four-hand-80")]["per_s_all_threads"] is None


def test_table_fits_80_columns_and_explains_its_labels():
    text = ok("bench", "--all", "--scale", SCALE).stdout
    assert max(len(line) for line in text.splitlines()) <= 80
    for label in ("deal + meld", "play-out heuristic", "records random", "exact widow"):
        assert f"{label}: " in text
    assert "three-hand-auction-48" in text  # the variant column never folds a name


@pytest.mark.parametrize("args, needle", [
    (("--all", "--variant", "two-hand-48"), "--all measures every variant"),
    (("--all", "--deals", "1000"), "--all measures every variant"),
    (("--scale", "0.5"), "go with --all"),
    (("--format", "json"), "go with --all"),
])
def test_options_that_do_not_go_together_are_an_error(args, needle):
    assert_one_line_error(invoke("bench", *args), needle)
