"""The uniformity report's kernels (kernels/uniformity.py) deal for deal equal to their twin
(reference/uniformity.py), its exact pair distribution equal to brute-force enumeration, its
tests able to fail, and ``scripts/uniformity.py`` writing the report (a small run)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from conftest import VARIANT_NAMES
from hypothesis import given, settings
from hypothesis import strategies as st
from test_sampler import bounded_knowledge, kernel_bound, knowledge

from binokel_sim.kernels.sampler import count_bounded
from binokel_sim.kernels.uniformity import (
    LAYOUT_READ_OFF,
    LAYOUT_SEATS,
    deal_count_blocks,
    sampler_draw_blocks,
)
from binokel_sim.reference import sampler as sampler_twin
from binokel_sim.reference import uniformity as twin
from binokel_sim.tables import compile_tables
from binokel_sim.variants import find_variant

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "uniformity.py"


def script():
    """scripts/uniformity.py as a module (its exact distributions and tests)."""
    spec = importlib.util.spec_from_file_location("uniformity_script", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def layout_of(rules) -> int:
    return LAYOUT_READ_OFF if rules.talon or rules.widow else LAYOUT_SEATS


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(VARIANT_NAMES), st.integers(0, 2**40), st.integers(0, 5),
       st.integers(1, 9), st.integers(1, 30), st.data())
def test_deal_counts_equal_the_twin(name, seed, first_block, block_size, n_deals, data):
    rules = find_variant(name)
    deck = compile_tables(rules).deck
    players, hand = rules.players, rules.hand_size
    rest = deck.shape[0] - players * hand
    types = [int(t) for t in np.unique(deck)]
    seat = st.integers(0, players if rest else players - 1)
    pairs = data.draw(st.lists(st.tuples(st.sampled_from(types), seat, st.sampled_from(types),
                                         seat), min_size=1, max_size=4))
    n_blocks = -(-n_deals // block_size)
    cells = np.zeros((n_blocks, players + rest, 24), dtype=np.int64)
    hist = np.zeros((n_blocks, len(pairs), 5, 5), dtype=np.int64)
    deal_count_blocks(deck, layout_of(rules), hand, players, np.array(pairs, dtype=np.int64),
                      seed, first_block, block_size, n_deals, cells, hist, (0, n_blocks))
    want_cells, want_hist = twin.deal_counts(list(deck), layout_of(rules), hand, players, pairs,
                                             seed, first_block, block_size, n_deals)
    assert cells.tolist() == want_cells
    assert hist.tolist() == want_hist
    # every card dealt once a deal: each type's copies, each seat's hand, each talon position
    copies = np.bincount(deck, minlength=24)
    total = cells.sum(axis=0)
    assert (total.sum(axis=0) == n_deals * copies).all()
    assert (total.sum(axis=1) == n_deals * np.array([hand] * players + [1] * rest)).all()
    assert (hist.sum(axis=(0, 2, 3)) == n_deals).all()


def test_a_block_share_is_the_whole_run_split():
    """Blocks in two shares (two threads) write what one call writes."""
    rules = find_variant("four-hand-80")
    deck = compile_tables(rules).deck
    pairs = np.array([[2, 0, 13, 0]], dtype=np.int64)
    runs = []
    for shares in ([(0, 5)], [(0, 2), (2, 5)]):
        cells = np.zeros((5, 4, 24), dtype=np.int64)
        hist = np.zeros((5, 1, 5, 5), dtype=np.int64)
        for share in shares:
            deal_count_blocks(deck, LAYOUT_SEATS, 20, 4, pairs, 3, 0, 16, 70, cells, hist, share)
        runs.append((cells, hist))
    assert all((a == b).all() for a, b in zip(*runs))


def kernel_sampler_draws(pool, allowed, capacity, bound, seed, block_size, n):
    groups = len(capacity)
    p = np.asarray(pool, dtype=np.int64)
    a = np.zeros(4, dtype=np.int64)
    c = np.zeros(4, dtype=np.int64)
    a[:groups] = allowed
    c[:groups] = capacity
    kb = None if bound is None else kernel_bound(bound)
    ways = np.zeros((50, c[0] + 1, c[1] + 1, c[2] + 1))
    if count_bounded(p, a, c, groups, ways, kb) == 0:
        return None
    types = np.flatnonzero(p).astype(np.int64)
    out = np.zeros((n, groups, len(types)), dtype=np.int8)
    n_blocks = -(-n // block_size)
    sampler_draw_blocks(p, a, c, groups, ways, kb, types, seed, 2, block_size, out, (0, n_blocks))
    return [tuple(tuple(int(x) for x in row) for row in draw) for draw in out], types.tolist()


@settings(max_examples=30, deadline=None)
@given(knowledge(), st.integers(0, 2**32), st.integers(1, 4), st.integers(1, 9))
def test_sampler_draws_equal_the_twin(k, seed, block_size, n):
    pool, allowed, capacity = k
    got = kernel_sampler_draws(pool, allowed, capacity, None, seed, block_size, n)
    if got is None:
        return
    draws, types = got
    assert draws == twin.sampler_draws(pool, allowed, capacity, None, types, seed, 2,
                                       block_size, n)


@settings(max_examples=30, deadline=None)
@given(bounded_knowledge(), st.integers(0, 2**32), st.integers(1, 4), st.integers(1, 9))
def test_bounded_sampler_draws_equal_the_twin(k, seed, block_size, n):
    pool, allowed, capacity, bound = k
    got = kernel_sampler_draws(pool, allowed, capacity, bound, seed, block_size, n)
    if got is None:
        return
    draws, types = got
    assert draws == twin.sampler_draws(pool, allowed, capacity, bound, types, seed, 2,
                                       block_size, n)


# --- the report's exact distributions and tests --------------------------------------------------

ALL = (1 << 24) - 1


@pytest.mark.parametrize("pool, capacity, a, g, b, h", [
    ([2, 2, 1, 1, 1] + [0] * 19, [2, 3, 2], 0, 0, 1, 0),  # two types in one seat
    ([2, 2, 1, 1, 1] + [0] * 19, [2, 3, 2], 0, 1, 1, 2),  # two types in two seats
    ([3, 1, 1, 1, 0] + [0] * 19, [3, 2, 1], 0, 0, 0, 2),  # one type in two seats
    ([3, 1, 1, 1, 0] + [0] * 19, [3, 2, 1], 0, 1, 0, 1),  # one type in one seat: x == y
    ([1, 2, 1, 1, 1, 1] + [0] * 18, [1, 4, 2], 1, 0, 0, 1),  # a seat of one card (a position)
])
def test_pair_distribution_is_the_enumerated_one(pool, capacity, a, g, b, h):
    """The report's exact joint count of two types in two seats equals brute-force enumeration
    of every assignment of the physical cards (reference/sampler.py)."""
    found = sampler_twin.enumerate_deals(pool, [ALL] * len(capacity), capacity)
    total = sum(found.values())
    want: dict = {}
    for counts, ways in found.items():
        key = (counts[g][a], counts[h][b])
        want[key] = want.get(key, Fraction(0)) + Fraction(ways, total)
    got = script().pair_distribution(sum(pool), pool[a], pool[b], capacity[g], capacity[h],
                                     a == b, g == h)
    assert {k: v for k, v in got.items() if v} == want


def test_the_tests_see_a_biased_deal():
    """A card × seat table at its exact expectation passes; one in twenty of a type's copies
    moved from one seat to another over a million deals fails (a test that cannot fail proves
    nothing). The same for a pair's joint counts."""
    u = script()
    copies = np.array([2] * 24)
    sizes, deals = [12, 12, 24], 1_000_000
    fair = np.rint(deals * np.outer(sizes, copies) / 48).astype(np.int64)
    assert u.table_test(fair, sizes, copies, deals)["p"] > 0.99
    biased = fair.copy()
    moved = fair[0, 5] // 20
    biased[0, 5] -= moved
    biased[1, 5] += moved
    result = u.table_test(biased, sizes, copies, deals)
    assert result["p"] < 1e-6 and result["max_cell"][1] == "AS"
    exact = u.pair_distribution(48, 2, 2, 12, 12, False, True)
    observed = {k: round(float(p) * deals) for k, p in exact.items()}
    assert u.goodness_of_fit(observed, exact, deals)["p"] > 0.99
    observed[(0, 0)] += 5000
    observed[(1, 1)] -= 5000
    assert u.goodness_of_fit(observed, exact, deals)["p"] < 1e-6
    observed[(5, 0)] = 1  # a deal no hand can have
    assert u.goodness_of_fit(observed, exact, deals)["outside"] == 1


def test_the_script_writes_the_report(tmp_path):
    """A small run of the report (three families, few deals and draws): every test has its
    p-value, every card is counted, no sampler draw falls outside the consistent deals, and
    the provenance names the command that reruns it."""
    out = tmp_path / "uniformity.json"
    names = ["four-hand-80", "swabian-3-40", "two-hand-48"]
    done = subprocess.run([sys.executable, str(SCRIPT), "--deals", "5000", "--draws", "3000",
                           "--seed", "4", "--calibration-runs", "3", "--calibration-deals",
                           "2000", "--variants", *names, "--out", str(out)],
                          capture_output=True, text=True, timeout=900, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    doc = json.loads(out.read_text())
    assert doc["provenance"]["command"] == (
        "python scripts/uniformity.py --deals 5000 --seed 4 --draws 3000 --follow-up 4 "
        "--calibration-runs 3 --calibration-deals 2000 --variants " + " ".join(names))
    u = script()
    assert [(v["variant"], v["seed"]) for v in doc["variants"]] == \
        [(n, u.variant_seed(4, n)) for n in names]
    assert len({u.variant_seed(4, n) for n in VARIANT_NAMES}) == len(VARIANT_NAMES)
    for v in doc["variants"]:
        rules = find_variant(v["variant"])
        cells = np.array(v["counts"]["cells"])
        assert (cells.sum(axis=0) == 5000 * rules.deck_counts()).all()
        assert 0 <= v["card_seat"]["p"] <= 1 and len(v["pairs"]) == (5 if "positions" in v
                                                                     else 4)
        assert ("positions" in v) == bool(rules.talon or rules.widow)
        assert ("turned_card" in v.get("positions", {})) == bool(rules.talon)
        calibration = v["calibration"]
        assert (calibration["runs"], calibration["first_seed"]) == (3, v["seed"] + 10**8)
        assert list(calibration["tests"]) == list(u.p_values(v))
    assert len(doc["sampler"]) == 13 and all(row["outside"] == 0 for row in doc["sampler"])
    assert [row["seed"] for row in doc["sampler"]] == list(range(4 + 10**6, 4 + 10**6 + 13))
    assert all(row["p"] is None or 0 <= row["p"] <= 1 for row in doc["sampler"])
    total = doc["summary"]["tests"] + doc["summary"]["untested"]
    assert total == sum(1 + ("positions" in v) + ("turned_card" in v.get("positions", {}))
                        + len(v["pairs"]) for v in doc["variants"]) + 13
    assert f"| two-hand-48 | {u.variant_seed(4, 'two-hand-48')} | 5,000 |" in done.stdout


def test_a_small_p_value_is_followed_up_on_fresh_streams(monkeypatch):
    """Every test below the threshold (here: every test) is run again on fresh streams, the
    first run left out: its p-values each and together are those of the fresh runs' counts."""
    u = script()
    monkeypatch.setattr(u, "FOLLOW_UP_BELOW", 2.0)
    rules = find_variant("three-hand-auction-48")
    row = u.variant_report(rules, 3000, 9, 1, 2)
    names = list(u.p_values(row))
    assert [f["test"] for f in row["follow_ups"]] == names
    runs = [u.deal_counts(rules, 3000, seed, 1) for seed in (9 + 10**7, 9 + 2 * 10**7)]
    each = [u.p_values(u.variant_tests(rules, run, 3000)) for run in runs]
    together = u.p_values(u.variant_tests(rules, {**runs[0],
                                                  "cells": runs[0]["cells"] + runs[1]["cells"],
                                                  "pair_hist": runs[0]["pair_hist"]
                                                  + runs[1]["pair_hist"]}, 6000))
    for f in row["follow_ups"]:
        assert f["seeds"] == [9 + 10**7, 9 + 2 * 10**7] and f["p"] == u.p_values(row)[f["test"]]
        assert f["p_each"] == [e[f["test"]] for e in each]
        assert f["p_combined"] == together[f["test"]]
    assert u.variant_report(rules, 3000, 9, 1, 0)["follow_ups"] == []  # --follow-up 0: none


def test_a_small_sampler_p_value_is_followed_up_on_fresh_streams(monkeypatch):
    u = script()
    monkeypatch.setattr(u, "FOLLOW_UP_BELOW", 2.0)
    name = "three seats and a talon, two voids"
    case = sampler_twin.PLAIN_CASES[name]
    exact = u.enumerated(*case)
    monkeypatch.setattr(u, "sampler_cases", lambda: [
        (name, "kernel", exact, lambda n, seed: (u.kernel_draws(*case, None, n, seed)[0], {}),
         {})])
    row, = u.sampler_report(2000, 5, 2)
    first = 5 + 10**6
    assert row["seed"] == first and row["p"] == u.fit_of(
        exact, u.kernel_draws(*case, None, 2000, first)[0], 2000)["p"]
    fresh = [first + 10**7, first + 2 * 10**7]
    runs = [u.kernel_draws(*case, None, 2000, seed)[0] for seed in fresh]
    together = {k: runs[0].get(k, 0) + runs[1].get(k, 0) for k in set(runs[0]) | set(runs[1])}
    follow, = row["follow_ups"]
    assert follow["seeds"] == fresh
    assert follow["p_each"] == [u.fit_of(exact, run, 2000)["p"] for run in runs]
    assert follow["p_combined"] == u.fit_of(exact, together, 4000)["p"]
