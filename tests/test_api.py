"""The public Python API: its names import lazily from ``binokel_sim``, and ``bid_odds`` answers
every bidding variant (the partnership game and the widow games) while ``deal_odds`` answers the
talon games, each by its family's module, with a clear error elsewhere."""

from __future__ import annotations

import subprocess
import sys

import polars as pl
import pytest

import binokel_sim
from binokel_sim.errors import SimulationError
from binokel_sim.hands import parse_hand
from binokel_sim.variants import find_variant


def test_every_public_name_resolves_to_its_module():
    for name, module in binokel_sim.API.items():
        value = getattr(binokel_sim, name)
        assert callable(value) and value.__module__ == module, name
    assert set(binokel_sim.__all__) == {*binokel_sim.API, "__version__"}
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        binokel_sim.nothing  # noqa: B018


def test_importing_the_package_loads_nothing_heavy():
    code = ("import sys, binokel_sim; "
            "print(sorted(m for m in ('numpy', 'numba', 'polars') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("variant", ["four-hand-80", "three-hand-auction-48"])
def test_bid_odds_answers_every_bidding_variant_as_its_family_does(variant):
    from binokel_sim import bid_odds
    from binokel_sim.odds import partnership, widow

    rules = find_variant(variant)
    hand = parse_hand(rules.example_hand, rules)
    result = bid_odds(rules, hand, 400, 3)
    family = widow if rules.widow else partnership
    direct = family.bid_odds(rules, hand, 400, 3)
    assert isinstance(result["rows"], pl.DataFrame) and not result["rows"].is_empty()
    assert result["rows"].equals(direct["rows"])
    assert ("widow" in result) == bool(rules.widow)  # the exact widow section, widow games only


def test_each_entry_refuses_what_its_variants_lack():
    from binokel_sim import bid_odds, deal_odds

    talon = find_variant("two-hand-48")
    with pytest.raises(SimulationError, match="bid-odds supports"):
        bid_odds(talon, parse_hand(talon.example_hand, talon), 100, 1)
    partner = find_variant("four-hand-80")
    with pytest.raises(SimulationError, match="deal-odds supports"):
        deal_odds(partner, parse_hand(partner.example_hand, partner), 0, "dealer", 100, 1)
    widow = find_variant("three-hand-auction-48")
    with pytest.raises(SimulationError, match="the soloist names trump after the widow"):
        bid_odds(widow, parse_hand(widow.example_hand, widow), 100, 1, trump=0)
