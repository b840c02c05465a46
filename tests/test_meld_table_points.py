"""The ``points`` of every meld-table row are what ``analyze`` scores for that count.

For each built-in variant, each row (meld, count) of the exact table and of a small Monte Carlo
table is checked against the analyzer on hands that hold exactly that count of that meld: one hand
for every way the count's sets may fall across the suits (a double quint in two suits, two
marriages in one suit or in two), so a row whose value depended on the way would fail, unless its points are null (a
house table's suit meld that does not score per set, such as the Swabian double Familie: two
Familien of one suit 1500, of two suits 200), and then the ways must differ.
"""

from __future__ import annotations

import random
from itertools import product

import pytest

from binokel_sim.analysis import analyze_hand, exact_meld_odds, meld_odds
from binokel_sim.cards import N_SUITS, N_TYPES, card_type
from binokel_sim.meld_rules import FIXED_SCOPES
from binokel_sim.variants import find_variant

from conftest import VARIANT_NAMES

TRUMP = 0  # the tables' default trump (S)
ATTEMPTS = 300  # random fillings tried per placement before the placement counts as impossible


def _meld_types(meld, suit: int) -> list[int]:
    if meld.scope in FIXED_SCOPES:
        return [t for t in range(N_TYPES) if meld.type_mask >> t & 1]
    return [card_type(r, suit) for r in meld.ranks]


def _placements(rules, meld, count: int):
    """Card-type counts that put ``count`` sets of ``meld`` into a hand: a fixed meld's sets,
    or every split of a suit meld's sets over the suits of its scope."""
    if meld.scope in FIXED_SCOPES:
        yield {t: count for t in _meld_types(meld, 0)}
        return
    suits = [s for s in range(N_SUITS)
             if meld.scope == "per_suit" or (meld.scope == "trump") == (s == TRUMP)]
    for split in product(range(rules.copies + 1), repeat=len(suits)):
        if sum(split) != count:
            continue
        base: dict[int, int] = {}
        for s, k in zip(suits, split):
            for t in _meld_types(meld, s):
                base[t] = base.get(t, 0) + k
        yield base


def _hand_with(rules, meld, count: int, base: dict[int, int], rng: random.Random):
    """A hand holding ``base`` plus random cards whose analysis reports exactly ``count`` of
    ``meld`` with the trump fixed, or None when no filling found one."""
    deck = [int(n) for n in rules.deck_counts()]
    if any(n > deck[t] for t, n in base.items()) or sum(base.values()) > rules.hand_size:
        return None
    rest = []
    for t, n in enumerate(deck):
        rest += [t] * (n - base.get(t, 0))
    for _ in range(ATTEMPTS):
        hand = [0] * N_TYPES
        for t, n in base.items():
            hand[t] += n
        for t in rng.sample(rest, rules.hand_size - sum(base.values())):
            hand[t] += 1
        got = _scored(rules, hand, meld.name)
        if got[0] == count:
            return hand
    return None


def _scored(rules, hand, name: str) -> tuple[int, int]:
    import numpy as np

    melds = analyze_hand(rules, np.array(hand))["by_trump"]["SHDC"[TRUMP]]["melds"]
    entry = next(m for m in melds if m["name"] == name)
    return entry["count"], entry["points"]


def _check_rows(rules, rows) -> int:
    """Every row's points against the analyzer on the hands that hold its count; returns how
    many hands were checked."""
    rng = random.Random(7)
    by_name = {m.name: m for m in rules.melds}
    checked = 0
    for row in rows:
        if row["count"] is None or not row["probability"]:
            continue
        meld = by_name[row["meld"]]
        found = 0
        values = set()
        for base in _placements(rules, meld, row["count"]):
            hand = _hand_with(rules, meld, row["count"], base, rng)
            if hand is None:
                continue
            count, points = _scored(rules, hand, meld.name)
            assert count == row["count"], (rules.name, row, hand)
            # a null row is a count whose value depends on the suits its sets fall in
            assert row["points"] is None or points == row["points"], (rules.name, row, hand)
            values.add(points)
            found += 1
        # a count the table gives a chance must be one some hand holds
        assert found, (rules.name, row)
        assert row["points"] is not None or len(values) > 1, (rules.name, row, values)
        checked += found
    return checked


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_exact_table_points_are_the_analyzers(name):
    rules = find_variant(name)
    rows = exact_meld_odds(rules, TRUMP).to_dicts()
    assert _check_rows(rules, rows) >= len(rules.melds)


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_monte_carlo_table_points_are_the_analyzers(name):
    rules = find_variant(name)
    rows = meld_odds(rules, 20_000, seed=3, trump=TRUMP).to_dicts()
    assert _check_rows(rules, rows) >= len(rules.melds)


def test_the_issue_examples():
    """Issue 25's examples: a double quint in two-hand-48 is 500, three marriages 60, five common
    marriages in four-hand-80 10."""
    def points(name, meld, count):
        rows = exact_meld_odds(find_variant(name), TRUMP)
        return rows.filter((rows["meld"] == meld) & (rows["count"] == count))["points"].item()

    assert points("two-hand-48", "quint", 2) == 500
    assert points("two-hand-48", "marriage", 3) == 60
    assert points("four-hand-80", "common_marriage", 5) == 10
