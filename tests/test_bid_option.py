"""``bid-odds --bid N``: the odds of exactly that bid, per trump in four-hand-80 and after the
widow in the widow games, are the ladder's own row at N (also past the rows the ladder lists),
shown in the table and written in the JSON document; a bid off the ladder is one line."""

from __future__ import annotations

import json

import pytest

from binokel_sim.odds.summary import highest_bid
from binokel_sim.variants import find_variant
from tests.conftest import invoke, ok

TOP = highest_bid(find_variant("four-hand-80"))


def document(*args: str) -> dict:
    return json.loads(ok("bid-odds", "--deals", "2000", "--seed", "5", *args,
                         "--format", "json").stdout)


def test_a_listed_bid_is_its_row_per_trump():
    doc = document("--bid", "120")
    assert doc["provenance"]["bid"] == 120
    for trump, info in doc["by_trump"].items():
        row = next(r for r in doc["rows"] if r["trump"] == trump and r["bid"] == 120)
        assert info["p_make_at_bid"] == row["p_make"]
        assert info["p_make_at_bid_ci"] == [row["ci_low"], row["ci_high"]]
        assert info["expected_score_at_bid"] == row["expected_score"]
    plain = document()
    assert "bid" not in plain["provenance"]
    assert all("p_make_at_bid" not in info for info in plain["by_trump"].values())
    assert plain["rows"] == doc["rows"]  # asking for a bid changes no other figure


def test_a_bid_past_the_listed_rows_is_counted_too():
    """The ladder lists bids made in more than 0.1% of the deals; a higher bid is still
    answered: no deal reaches 600 with this hand, so it is never made and costs the bid."""
    doc = document("--bid", "600")
    top = max(r["bid"] for r in doc["rows"])
    assert top < 600
    for info in doc["by_trump"].values():
        assert info["p_make_at_bid"] == 0 and info["expected_score_at_bid"] == -600
        assert info["p_make_at_bid_ci"][0] == 0 and 0 < info["p_make_at_bid_ci"][1] < 0.01


def test_the_widow_games_answer_the_bid_after_the_widow():
    doc = document("-v", "swabian-3-40", "--bid", "400")
    row = next(r for r in doc["rows"] if r["bid"] == 400)
    assert doc["p_make_at_bid"] == row["p_make"]
    assert doc["p_concede_at_bid"] == row["p_concede"]
    assert doc["expected_score_at_bid"] == row["expected_score"]
    table = ok("bid-odds", "-v", "swabian-3-40", "--deals", "2000", "--seed", "5", "--bid",
               "400").stdout
    assert f"at 400: p_make {100 * row['p_make']:.2f}%" in " ".join(table.split())


def test_the_table_shows_the_bid_per_trump():
    doc = document("--bid", "120")
    table = ok("bid-odds", "--deals", "2000", "--seed", "5", "--bid", "120").stdout
    assert "p_make at 120" in table and "expected score at 120" in table
    for trump, info in doc["by_trump"].items():
        line = next(x for x in table.splitlines() if x.split()[:1] == [trump]
                    and f"{info['expected_score_at_bid']:.1f}" in x)
        assert f"{info['expected_score_at_bid']:.1f}" in line


@pytest.mark.parametrize("bid, line", [
    ("103", "error: --bid 103 is not a bid in four-hand-80; the nearest are 100 and 105"),
    ("40", "error: --bid 40: the lowest bid in four-hand-80 is 50"),
    (str(TOP + 5), f"error: --bid {TOP + 5}: no side can score more than {TOP:,} in "
                   f"four-hand-80"),
])
def test_a_bid_off_the_ladder_is_one_line(bid, line):
    result = invoke("bid-odds", "--deals", "10", "--bid", bid)
    assert result.exit_code == 1 and result.stderr.strip() == line
