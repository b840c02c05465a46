"""Exact meld probabilities: known answers derived here by independent combinatorics (inclusion-
exclusion, direct multivariate hypergeometric sums), distributions summing to exactly 1, and a
brute-force enumeration of every hand of tiny custom decks."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations, product
from math import comb, prod

import polars as pl
import pytest

from binokel_sim.analysis import exact_meld_odds
from binokel_sim.exact import exact_meld_distribution
from binokel_sim.reference import core as core_twin
from binokel_sim.variants import find_variant, load_rules

from conftest import TINY_RULES_FILES, VARIANT_NAMES

# --- known answers, four-hand-80: 20 cards from 80, 4 copies of each of 20 card types -----------

C80 = comb(80, 20)


def test_aces_around_at_least_once():
    # P(an ace in every suit) = sum_j (-1)^j C(4, j) C(80 - 4j, 20) / C(80, 20)
    # (inclusion-exclusion over the j suits whose four aces are all missing)
    p = Fraction(sum((-1) ** j * comb(4, j) * comb(80 - 4 * j, 20) for j in range(5)), C80)
    assert round(float(p), 7) == 0.2089527
    dist = exact_meld_distribution(find_variant("four-hand-80"), "aces_around")
    assert 1 - dist[0] == p


def test_binokel_at_least_once():
    # P(QS and JD) = 1 - P(no QS) - P(no JD) + P(no QS and no JD)
    p = 1 - 2 * Fraction(comb(76, 20), C80) + Fraction(comb(72, 20), C80)
    assert round(float(p), 7) == 0.4716234
    dist = exact_meld_distribution(find_variant("four-hand-80"), "binokel")
    assert 1 - dist[0] == p


def test_binokel_full_distribution_four_hand_80():
    # Direct sum over (number of QS, number of JD) in the hand; binokel count = the smaller.
    want: dict[int, Fraction] = {}
    for q, j in product(range(5), repeat=2):
        w = Fraction(comb(4, q) * comb(4, j) * comb(72, 20 - q - j), C80)
        want[min(q, j)] = want.get(min(q, j), 0) + w
    assert exact_meld_distribution(find_variant("four-hand-80"), "binokel") == want


def test_aces_around_full_distribution_four_hand_80():
    # Direct sum over the aces held in each suit; the count is the smallest.
    want: dict[int, Fraction] = {}
    for a in product(range(5), repeat=4):
        w = Fraction(prod(comb(4, x) for x in a) * comb(64, 20 - sum(a)), C80)
        want[min(a)] = want.get(min(a), 0) + w
    assert exact_meld_distribution(find_variant("four-hand-80"), "aces_around") == want
    # all 16 aces in one hand: the other 4 cards from the 64 non-aces
    assert want[4] == Fraction(comb(64, 4), C80)


def test_run_at_least_once():
    # one of each of the 5 trump cards: inclusion-exclusion over the j types missing
    p = Fraction(sum((-1) ** j * comb(5, j) * comb(80 - 4 * j, 20) for j in range(6)), C80)
    for trump in range(4):
        dist = exact_meld_distribution(find_variant("four-hand-80"), "run", trump)
        assert 1 - dist[0] == p


def test_royal_marriage_distribution_four_hand_80():
    # Sum over the counts of A T K Q J of trump: royal marriages = min(K, Q) - runs, runs = the
    # smallest of the five counts.
    want: dict[int, Fraction] = {}
    for c in product(range(5), repeat=5):
        a, t, k, q, j = c
        royal = min(k, q) - min(c)
        w = Fraction(prod(comb(4, x) for x in c) * comb(60, 20 - sum(c)), C80)
        want[royal] = want.get(royal, 0) + w
    want = {k: v for k, v in want.items() if v}
    assert exact_meld_distribution(find_variant("four-hand-80"), "royal_marriage", 0) == want


def test_common_marriage_distribution_four_hand_80():
    # Trump spades; sum over K and Q counts in hearts, diamonds, clubs (the other 56 cards free).
    want: dict[int, Fraction] = {}
    for c in product(range(5), repeat=6):
        if sum(c) > 20:
            continue
        n = min(c[0], c[1]) + min(c[2], c[3]) + min(c[4], c[5])
        w = Fraction(prod(comb(4, x) for x in c) * comb(56, 20 - sum(c)), C80)
        want[n] = want.get(n, 0) + w
    want = {k: v for k, v in want.items() if v}
    assert exact_meld_distribution(find_variant("four-hand-80"), "common_marriage", 0) == want


# --- known answers, two-hand-48: 12 cards from 48, 2 copies --------------------------------------

C48 = comb(48, 12)


def test_dix_is_hypergeometric():
    # trump 9s held: C(2, k) C(46, 12 - k) / C(48, 12)
    want = {k: Fraction(comb(2, k) * comb(46, 12 - k), C48) for k in range(3)}
    assert exact_meld_distribution(find_variant("two-hand-48"), "dix", 3) == want


def test_double_binokel_two_hand_48():
    # both QS and both JD: the other 8 cards from the remaining 44
    dist = exact_meld_distribution(find_variant("two-hand-48"), "binokel")
    assert dist[2] == Fraction(comb(44, 8), C48)
    assert 1 - dist[0] == 1 - 2 * Fraction(comb(46, 12), C48) + Fraction(comb(44, 12), C48)


def test_quint_count_two_hand_48():
    # quints summed over suits: a suit counts one quint when it holds A T K Q J (two quints of
    # one suit are one quint: "a quint scores 250 once for each suit that holds one")
    want: dict[int, Fraction] = {}
    # per suit: ways to hold u cards of the 5 quint types with s sets
    per_suit: dict[tuple[int, int], int] = {}
    for c in product(range(3), repeat=5):
        key = (min(min(c), 1), sum(c))
        per_suit[key] = per_suit.get(key, 0) + prod(comb(2, x) for x in c)
    for suits in product(per_suit.items(), repeat=4):
        sets = sum(k[0] for k, _ in suits)
        used = sum(k[1] for k, _ in suits)
        if used > 12:
            continue
        w = prod(v for _, v in suits) * comb(8, 12 - used)  # the 8 nines fill the rest
        want[sets] = want.get(sets, 0) + Fraction(w, C48)
    assert exact_meld_distribution(find_variant("two-hand-48"), "quint") == want


# --- every distribution is a distribution ------------------------------------------------------------

@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_every_distribution_sums_to_one(name):
    r = find_variant(name)
    for meld in r.meld_names:
        dists = [exact_meld_distribution(r, meld, trump) for trump in range(4)]
        for d in dists:
            assert all(isinstance(v, Fraction) and v > 0 for v in d.values())
            assert sum(d.values()) == 1
            assert all(isinstance(k, int) and k >= 0 for k in d)
        # the suits are symmetric: which one is trump cannot change a meld's distribution
        assert all(d == dists[0] for d in dists)


def test_unknown_meld_is_an_error():
    with pytest.raises(KeyError, match="no_such_meld"):
        exact_meld_distribution(find_variant("two-hand-48"), "no_such_meld")


def test_exact_meld_odds_table():
    r = find_variant("two-hand-48")
    df = exact_meld_odds(r, 0)
    assert df.columns == ["meld", "count", "points", "hands", "probability", "ci_low", "ci_high"]
    assert df["hands"].null_count() == df.height
    assert df["meld"].unique(maintain_order=True).to_list() == list(r.meld_names)
    assert "total_meld" not in df["meld"].to_list()
    for name in r.meld_names:
        rows = df.filter(pl.col("meld") == name)
        assert rows["count"].to_list() == list(range(rows.height))
        assert abs(rows["probability"].sum() - 1) < 1e-12
        dist = exact_meld_distribution(r, name, 0)
        assert rows["probability"].to_list() == [float(dist.get(c, 0)) for c in range(rows.height)]
    assert (df["ci_low"] == df["probability"]).all() and (df["ci_high"] == df["probability"]).all()


# --- brute force on tiny decks ------------------------------------------------------------------------

def brute_force(rules) -> dict[int, dict[str, dict[int, Fraction]]]:
    """trump -> meld -> count -> probability, by enumerating every hand of physical cards."""
    deck = [t for t in range(24) for _ in range(int(rules.deck_counts()[t]))]
    multisets = Counter(tuple(sorted(h)) for h in combinations(deck, rules.hand_size))
    total = comb(len(deck), rules.hand_size)
    assert sum(multisets.values()) == total
    out: dict[int, dict[str, dict[int, Fraction]]] = {}
    for trump in range(4):
        by_meld: dict[str, dict[int, int]] = {m: {} for m in rules.meld_names}
        for hand, ways in multisets.items():
            counts = [0] * 24
            for t in hand:
                counts[t] += 1
            for name, count, _ in core_twin.meld_table(rules, counts, trump):
                by_meld[name][count] = by_meld[name].get(count, 0) + ways
        out[trump] = {m: {c: Fraction(w, total) for c, w in sorted(d.items())}
                      for m, d in by_meld.items()}
    return out


@pytest.mark.parametrize("path", TINY_RULES_FILES, ids=lambda p: p.stem)
def test_exact_equals_brute_force(path):
    rules = load_rules(path)
    brute = brute_force(rules)
    for trump in range(4):
        for meld in rules.meld_names:
            assert exact_meld_distribution(rules, meld, trump) == brute[trump][meld], \
                (meld, trump)
    # the tiny tables really exercise absorption: a suit meld's count with its parents taken
    # away differs from the plain smallest count over its cards
    absorbed = 0
    deck = [t for t in range(24) for _ in range(int(rules.deck_counts()[t]))]
    for hand in combinations(deck, rules.hand_size):
        counts = [0] * 24
        for t in hand:
            counts[t] += 1
        rows = {n: c for n, c, _ in core_twin.meld_table(rules, counts, 0)}
        royal = next(m for m in rules.melds if m.name == "royal")
        raw = min(counts[r] for r in royal.ranks)  # trump suit 0 = spades: type index = rank
        absorbed += rows["royal"] < raw
        if absorbed:
            break
    assert absorbed
