"""The command line of the widow games: ``bid-odds`` (with the exact widow section), ``play``,
``duel`` and ``match`` for three-hand-auction-48 and four-hand-widow-48: the fields other
programs read, reproducibility, and one-line errors for bad input."""

from __future__ import annotations

import json

import pytest

from binokel_sim.variants import find_variant
from conftest import assert_one_line_error, invoke, ok
from widow_replay import replay_widow

WIDOW_VARIANTS = ["three-hand-auction-48", "four-hand-widow-48", "swabian-3-40", "kreuz-4-40"]
RECORD_KEYS = ["deal", "variant", "dealer", "hands", "widow", "bids", "soloist", "bid", "demand",
               "buried", "trump", "melds", "tricks", "card_points", "bonus", "made", "conceded",
               "durch", "durch_open", "bettel", "scores"]


@pytest.mark.parametrize("variant", WIDOW_VARIANTS)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_play_jsonl_records(variant, policy):
    rules = find_variant(variant)
    result = ok("play", "--variant", variant, "--deals", "30", "--seed", "4", "--policy", policy)
    for d, line in enumerate(result.stdout.splitlines()):
        record = json.loads(line)
        assert list(record) == RECORD_KEYS + (["pair_scores"] if rules.partnerships else [])
        assert record["deal"] == d and record["dealer"] == d % rules.players
        replay_widow(rules, record)
    assert len(result.stdout.splitlines()) == 30


@pytest.mark.parametrize("variant, widows", [("three-hand-auction-48", 5456),
                                             ("four-hand-widow-48", 66045),
                                             ("swabian-3-40", 20475),  # C(28, 4): the Dabb
                                             ("kreuz-4-40", 31465)])  # C(31, 4)
def test_bid_odds_json(variant, widows):
    args = ("bid-odds", "--variant", variant, "--deals", "3000", "--seed", "2", "--format", "json")
    result = json.loads(ok(*args).stdout)
    for key in ("rows", "max_bid_positive_ev", "widow", "trump_chosen", "mean_meld_after_widow",
                "p_bonus", "provenance"):
        assert key in result
    rows = result["rows"]
    assert rows[0]["bid"] == find_variant(variant).bid_ladder[0][0]
    for row in rows:
        for key in ("bid", "p_make", "ci_low", "ci_high", "p_concede", "expected_score"):
            assert key in row
        assert row["ci_low"] <= row["p_make"] <= row["ci_high"]
    assert all(a["p_make"] >= b["p_make"] for a, b in zip(rows, rows[1:]))
    top = result["max_bid_positive_ev"]
    assert top is None or any(r["bid"] == top and r["expected_score"] > 0 for r in rows)
    widow = result["widow"]
    for key in ("widows", "mean_best_meld", "p_improves", "distribution"):
        assert key in widow
    assert widow["widows"] == widows
    assert sum(d["probability"] for d in widow["distribution"]) == pytest.approx(1, abs=1e-12)
    assert sum(result["trump_chosen"].values()) == pytest.approx(1)
    assert json.loads(ok(*args, "--threads", "1").stdout) == result


@pytest.mark.parametrize("variant", WIDOW_VARIANTS)
def test_bid_odds_known_and_void(variant):
    """--known/--void deal the other seats and the widow around the constraints: the provenance
    says so, the exact widow section weighs fewer widows, and the same run repeats."""
    args = ("bid-odds", "--variant", variant, "--deals", "2000", "--seed", "3", "--format",
            "json")
    plain = json.loads(ok(*args).stdout)
    result = json.loads(ok(*args, "--known", "left:AH TH", "--void", "right:D").stdout)
    record = result["provenance"]
    assert record["known"] == "1:AH TH" and record["void"].endswith(":D")
    assert "known" not in plain["provenance"]
    assert result["widow"]["widows"] < plain["widow"]["widows"]
    assert sum(d["probability"] for d in result["widow"]["distribution"]) == \
        pytest.approx(1, abs=1e-9)
    assert result["rows"] != plain["rows"]
    assert json.loads(ok(*args, "--known", "left:AH TH", "--void", "right:D", "--threads",
                         "1").stdout) == result


def test_bid_odds_table_and_out_file(tmp_path):
    path = tmp_path / "odds.csv"
    result = ok("bid-odds", "--variant", "three-hand-auction-48", "--deals", "2000", "--out",
                str(path))
    assert "the widow (exact" in result.stdout and "highest bid" in result.stdout
    assert path.read_text().startswith("bid,p_make")


@pytest.mark.parametrize("variant", WIDOW_VARIANTS)
def test_duel_and_match_json(variant):
    duel = json.loads(ok("duel", "--variant", variant, "--deals", "2000", "--format",
                         "json").stdout)
    assert duel["deals"] == 2000 and duel["ci_low"] > 100
    match = json.loads(ok("match", "--variant", variant, "--games", "100", "--format",
                          "json").stdout)
    assert match["games"] == 100 and match["p_win_a"] > 0.8
    assert match["target"] == find_variant(variant).game_target  # 1500, 1000 in the Swabian games


BAD = [
    (["bid-odds", "--variant", "three-hand-auction-48", "--hand", "AS TS KS"], ["3 cards", "15"]),
    (["bid-odds", "--variant", "four-hand-widow-48", "--hand",
      "AS AS TS KS QS QS JS 9S AH KH QH AD JD KC QC"], ["15 cards", "11"]),
    (["bid-odds", "--variant", "three-hand-auction-48", "--trump", "S", "--deals", "10"],
     ["--trump", "auto"]),
    (["bid-odds", "--variant", "three-hand-auction-48", "--policy", "clever", "--deals", "10"],
     ["clever"]),
    (["bid-odds", "--variant", "three-hand-auction-48", "--deals", "0"], ["--deals"]),
    (["bid-odds", "--variant", "three-hand-auction-48", "--deals", "10", "--out",
      "/nonexistent/x.csv"], ["/nonexistent"]),
    (["play", "--variant", "four-hand-widow-48", "--policy", "clever", "--deals", "2"],
     ["clever"]),
    (["match", "--variant", "three-hand-auction-48", "--b", "clever", "--games", "2"],
     ["clever"]),
]


@pytest.mark.parametrize("args, needles", BAD, ids=[" ".join(a)[:60] for a, _ in BAD])
def test_bad_input_is_one_line_error(args, needles):
    assert_one_line_error(invoke(*args), *needles)


@pytest.mark.parametrize("variant", ["three-hand-auction-48", "four-hand-widow-48",
                                     "swabian-3-40"])
def test_bid_odds_with_the_sampling_policy(variant):
    """The sampling policy plays the samples' cards (the soloist's widow handling is the
    heuristic's): its provenance says so, and its odds differ from the heuristic's on the same
    seed."""
    args = ("bid-odds", "--variant", variant, "--deals", "64", "--seed", "4", "--format", "json")
    sampled = json.loads(ok(*args, "--policy", "sampling", "--samples-per-move", "2").stdout)
    plain = json.loads(ok(*args).stdout)
    assert sampled["provenance"]["policy"] == "sampling"
    assert sampled["provenance"]["samples_per_move"] == 2
    assert sampled["widow"] == plain["widow"]  # exact: no play in it
    assert sampled["rows"] != plain["rows"]


def test_bid_odds_dealer_where_the_player_left_of_the_dealer_leads():
    """swabian-3-40: Vorhand (left of the dealer) leads, so who dealt changes the odds; the
    provenance names the dealer (default right: the hand leads). In the seed games the soloist
    leads and --dealer is refused in one line."""
    base = ("bid-odds", "-v", "swabian-3-40", "--deals", "2000", "--seed", "3", "-f", "json")
    default, right, left = (json.loads(ok(*base, *extra).stdout)
                            for extra in ((), ("--dealer", "right"), ("--dealer", "left")))
    assert default["provenance"]["dealer"] == "right" and left["provenance"]["dealer"] == "left"
    assert default["rows"] == right["rows"] and default["rows"] != left["rows"]
    assert_one_line_error(invoke("bid-odds", "-v", "three-hand-auction-48", "--dealer", "left"),
                          "--dealer", "the soloist leads")
    assert_one_line_error(invoke(*base, "--dealer", "partner"), "--dealer", "unknown seat")
