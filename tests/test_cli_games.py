"""The whole-deal commands ``bid-odds``, ``duel`` and ``play``: outputs, files, exit codes and
one-line errors (typer CliRunner)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from binokel_sim import __version__
from binokel_sim.cli import app

from conftest import HAND_80, assert_one_line_error, invoke, ok



# --- bid-odds ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def bid_odds_json():
    result = ok("bid-odds", "--deals", "2000", "--seed", "3", "--format", "json")
    return result.stdout, json.loads(result.stdout)


def test_bid_odds_json(bid_odds_json):
    _, obj = bid_odds_json
    assert obj["provenance"]["seed"] == 3 and obj["provenance"]["deals"] == 2000
    assert obj["provenance"]["policy"] == "expert"  # the default where it plays
    assert obj["provenance"]["variant"] == "four-hand-80"
    assert obj["has_marriage"] is True and len(obj["hand"]) == 20
    assert obj["recommended_trump"] in ("S", "H", "D")
    rows = obj["rows"]
    assert rows and all({"trump", "bid", "p_make", "ci_low", "ci_high"} <= set(r) for r in rows)
    assert {r["trump"] for r in rows} == {"S", "H", "D"} == set(obj["by_trump"])
    assert min(r["bid"] for r in rows) == 50
    for info in obj["by_trump"].values():
        assert {"p_meld_20", "mean_pair_meld", "mean_pair_play"} <= set(info)
        assert 0 <= info["p_meld_20"] <= 1 and 0 <= info["mean_pair_play"] <= 50


def test_bid_odds_same_seed_same_output(bid_odds_json):
    again = ok("bid-odds", "--deals", "2000", "--seed", "3", "--format", "json").stdout
    assert again == bid_odds_json[0]
    other = ok("bid-odds", "--deals", "2000", "--seed", "4", "--format", "json").stdout
    assert other != bid_odds_json[0]


def test_bid_odds_explicit_hand_and_trump():
    obj = json.loads(ok("bid-odds", "--hand", HAND_80.lower().replace("t", "10"), "--deals",
                        "300", "--trump", "h", "--format", "json").stdout)
    assert {r["trump"] for r in obj["rows"]} == {"H"} and list(obj["by_trump"]) == ["H"]
    obj = json.loads(ok("bid-odds", "--deals", "300", "--trump", "C", "--format",
                        "json").stdout)
    assert [r["p_make"] for r in obj["rows"]] == [0.0]  # no marriage in clubs


def test_bid_odds_table():
    result = ok("bid-odds", "--deals", "300", "--seed", "2", "--policy", "random")
    assert "recommended trump" in result.stdout and "p_make" in result.stdout
    no_marriage = ok("bid-odds", "--hand", "KS KS KS KS KH KH KH KH KD KD KD KD KC KC KC KC AS AH "
                                           "AD AC", "--deals", "200")
    assert "no marriage" in no_marriage.stdout


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_bid_odds_out_file(tmp_path, suffix):
    path = tmp_path / f"x{suffix}"
    result = ok("bid-odds", "--deals", "500", "--seed", "9", "--policy", "random", "--out",
                str(path), "--format", "json")
    df = pl.read_parquet(path) if suffix == ".parquet" else pl.read_csv(path)
    rows = json.loads(result.stdout)["rows"]
    assert df.height == len(rows) > 0
    assert {"trump", "bid", "p_make", "ci_low", "ci_high", "seed", "policy", "deals",
            "version"} <= set(df.columns)
    assert df["seed"].unique().to_list() == [9] and df["deals"].unique().to_list() == [500]
    assert df["policy"].unique().to_list() == ["random"]
    assert df["version"].cast(pl.String).unique().to_list() == [__version__]
    assert df["bid"].to_list() == [r["bid"] for r in rows]
    assert df["p_make"].to_list() == pytest.approx([r["p_make"] for r in rows])


# --- duel ----------------------------------------------------------------------------------------

def test_duel_json():
    obj = json.loads(ok("duel", "--deals", "3000", "--format", "json").stdout)
    assert {"deals", "mean_diff", "ci_low", "ci_high"} <= set(obj)
    # side A defaults to the variant's default policy (expert where it plays), B to random
    assert obj["deals"] == 3000 and obj["a"] == "expert" and obj["b"] == "random"
    assert obj["ci_low"] <= obj["mean_diff"] <= obj["ci_high"]
    assert obj["ci_low"] > 0  # the expert wins by ~75 points a deal
    again = ok("duel", "--deals", "3000", "--format", "json").stdout
    assert json.loads(again) == obj


def test_duel_table():
    result = ok("duel", "--a", "random", "--b", "heuristic", "--deals", "500", "--seed", "2")
    assert "random minus heuristic" in result.stdout


def test_duel_inference_is_read_and_named():
    """``--inference`` (the ablation): it is in the result when a policy samples, and it changes
    the play (the same deals with the same stream give another difference)."""
    args = ("duel", "-a", "sampling", "-b", "heuristic", "--deals", "24", "--seed", "3",
            "--samples-per-move", "2", "--threads", "1", "--format", "json")
    full = json.loads(ok(*args).stdout)
    off = json.loads(ok(*args, "--inference", "off").stdout)
    assert full["inference"] == "full" and off["inference"] == "off"
    assert off["mean_diff"] != full["mean_diff"]
    text = " ".join(ok(*args[:-2], "--inference", "declarer").stdout.split())
    assert "(sampling's inference: declarer)" in text
    assert "inference" not in json.loads(ok("duel", "--deals", "100", "--format", "json").stdout)


def test_duel_exact_tricks_is_read_and_named():
    """``--exact-tricks`` (issue 55's ablation): each side's K is in the result, the text says
    it, and solving the last tricks changes the play (the same deals, another difference)."""
    args = ("duel", "-a", "sampling", "-b", "sampling", "--deals", "16", "--seed", "3",
            "--samples-per-move", "4", "--threads", "1", "--format", "json")
    exact = json.loads(ok(*args, "--exact-tricks", "3,0").stdout)
    assert (exact["exact_tricks_a"], exact["exact_tricks_b"]) == (3, 0)
    swapped = json.loads(ok(*args, "--exact-tricks", "0,3").stdout)
    assert swapped["mean_diff"] != exact["mean_diff"]
    assert "exact_tricks_a" not in json.loads(ok(*args).stdout)
    text = " ".join(ok(*args[:-2], "--exact-tricks", "2").stdout.split())
    assert "(exact play-outs: A's last 2, B's last 2 tricks)" in text


def test_exact_tricks_per_seat():
    from binokel_sim.kernels.partnership.deals import seated

    assert seated(np.array([3, 0]), True).tolist() == [3, 0, 3, 0]
    assert seated(np.array([3, 0]), False).tolist() == [0, 3, 0, 3]
    assert seated(np.array([1, 2, 3, 4]), False).tolist() == [1, 2, 3, 4]


# --- play ----------------------------------------------------------------------------------------

PLAY_KEYS = {"hands", "dealer", "bids", "bidder", "bid", "trump", "melds", "tricks",
             "play_points", "scores"}


def test_play_jsonl():
    result = ok("play", "--deals", "5", "--seed", "2", "--format", "jsonl")
    lines = result.stdout.splitlines()
    assert len(lines) == 5
    for d, line in enumerate(lines):
        rec = json.loads(line)
        assert PLAY_KEYS <= set(rec)
        assert rec["dealer"] == d % 4 and len(rec["hands"]) == 4
        assert all(len(h) == 20 for h in rec["hands"])
        if rec["tricks"]:
            assert len(rec["tricks"]) == 20 and sum(rec["play_points"]) == 50
    assert ok("play", "--deals", "5", "--seed", "2", "--format", "jsonl").stdout == result.stdout
    assert ok("play", "--deals", "5", "--seed", "3", "--format", "jsonl").stdout != result.stdout


def test_play_json_and_out_file(tmp_path):
    array = json.loads(ok("play", "--deals", "3", "--seed", "2", "--format", "json",
                          "--policy", "random").stdout)
    assert len(array) == 3 and all(PLAY_KEYS <= set(r) for r in array)
    path = tmp_path / "deals.jsonl"
    ok("play", "--deals", "3", "--seed", "2", "--policy", "random", "--out", str(path))
    assert [json.loads(line) for line in path.read_text().splitlines()] == array


# --- errors --------------------------------------------------------------------------------------

BAD = [
    (["bid-odds", "--hand", HAND_80.replace("KC", "XC")], ["unknown card", "XC"]),
    (["bid-odds", "--hand", HAND_80 + " JC"], ["21 cards"]),
    (["bid-odds", "--hand", HAND_80.replace("AS AS TS", "AS AS AS AS AS")
      .replace("KC", "").replace("TC", "")], ["5 copies of AS"]),  # five aces of spades, 20 cards
    (["bid-odds", "--policy", "clever", "--deals", "10"], ["clever"]),
    (["bid-odds", "--variant", "nine-hand-99"], ["nine-hand-99"]),
    (["bid-odds", "--variant", "two-hand-48", "--deals", "10"], ["two-hand-48", "four-hand-80"]),
    (["bid-odds", "--trump", "X", "--deals", "10"], ["trump", "'X'"]),
    (["bid-odds", "--deals", "0"], ["--deals"]),
    (["bid-odds", "--deals", "10", "--out", "/nonexistent/x.csv"], ["/nonexistent"]),
    (["bid-odds", "--deals", "10", "--threads", "0"], ["--threads"]),
    (["duel", "--a", "clever", "--deals", "10"], ["clever"]),
    (["duel", "--b", "clever", "--deals", "10"], ["clever"]),
    (["duel", "--variant", "nine-hand-99"], ["nine-hand-99"]),
    (["duel", "--deals", "0"], ["--deals"]),
    (["duel", "--deals", "10", "--threads", "0"], ["--threads"]),
    (["duel", "--deals", "10", "--inference", "some"], ["--inference", "'some'", "full"]),
    (["duel", "--deals", "10", "--inference", "off"], ["--inference off", "neither", "sampling"]),
    (["duel", "-v", "two-hand-48", "-a", "sampling", "--deals", "10", "--inference", "off"],
     ["two-hand-48", "infers nothing"]),
    (["duel", "-v", "three-hand-72", "-a", "sampling", "--deals", "10", "--inference",
      "declarer"], ["three-hand-72", "no declarer"]),
    (["duel", "-a", "sampling", "--deals", "10", "--exact-tricks", "x"],
     ["--exact-tricks", "'x'"]),
    (["duel", "-a", "sampling", "--deals", "10", "--exact-tricks", "1,2,3"],
     ["--exact-tricks", "'1,2,3'"]),
    (["duel", "-a", "sampling", "--deals", "10", "--exact-tricks", "9"], ["9 for A", "0..8"]),
    (["duel", "-a", "sampling", "--deals", "10", "--exact-tricks", "3"],
     ["B does not play the sampling policy"]),
    (["duel", "-v", "kreuz-4-40", "-a", "sampling", "--deals", "10", "--exact-tricks", "3,0"],
     ["kreuz-4-40", "exact_tricks"]),
    (["duel", "-v", "two-hand-48", "-a", "sampling", "--deals", "10", "--exact-tricks", "3,0"],
     ["two-hand-48", "exact_tricks"]),
    (["play", "--policy", "clever", "--deals", "2"], ["clever"]),
    (["play", "--variant", "nine-hand-99"], ["nine-hand-99"]),
    (["play", "--deals", "0"], ["--deals"]),
    (["play", "--deals", "2", "--out", "/nonexistent/x.jsonl"], ["/nonexistent"]),
    (["play", "--deals", "2", "--threads", "0"], ["--threads"]),
]


@pytest.mark.parametrize("args, needles", BAD, ids=[" ".join(a)[:60] for a, _ in BAD])
def test_bad_input_is_one_line_error(args, needles):
    assert_one_line_error(invoke(*args), *needles)


def test_bad_out_file_writes_nothing(tmp_path):
    path = tmp_path / "x.txt"
    assert_one_line_error(invoke("bid-odds", "--deals", "10", "--out", str(path)), "suffix")
    assert not path.exists()


@pytest.mark.parametrize("command", ["bid-odds", "duel", "play"])
def test_help(command):
    result = ok(command, "--help")
    assert "Example" in result.stdout


def test_play_out_file_takes_its_format_from_the_suffix(tmp_path):
    path = tmp_path / "deals.json"
    ok("play", "--deals", "3", "--seed", "2", "--out", str(path))  # default --format is jsonl
    assert len(json.loads(path.read_text())) == 3


def test_too_many_deals_is_a_one_line_error():
    # bid-odds keeps counts, not samples (docs/distributed.md), so only --deals is bounded
    assert_one_line_error(invoke("duel", "--deals", str(10**12)), "--deals")
    assert_one_line_error(invoke("bid-odds", "--deals", str(10**12), "--trump", "S"), "--deals")


def test_rules_where_the_bid_winner_does_not_lead(tmp_path):
    text = (Path(__file__).parent.parent / "binokel_sim" / "variants" / "four-hand-80.toml"
            ).read_text()
    path = tmp_path / "odd.toml"
    path.write_text(text.replace('first_leader = "bid_winner"', 'first_leader = "non_dealer"'))
    assert_one_line_error(invoke("play", "--rules", str(path), "--deals", "2"), "leads")


# --- the sampling policy ------------------------------------------------------------------------

def test_sampling_duel_match_and_play_carry_samples_per_move():
    obj = json.loads(ok("duel", "-a", "sampling", "-b", "heuristic", "--deals", "24",
                        "--samples-per-move", "3", "--format", "json").stdout)
    assert obj["samples_per_move"] == 3 and obj["a"] == "sampling" and obj["deals"] == 24
    default = json.loads(ok("duel", "-a", "heuristic", "-b", "sampling", "--deals", "8",
                            "--format", "json").stdout)
    from binokel_sim.constants import SAMPLES_PER_MOVE
    assert default["samples_per_move"] == SAMPLES_PER_MOVE
    obj = json.loads(ok("match", "--variant", "four-hand-80", "-a", "sampling", "-b",
                        "heuristic", "--games", "2", "--samples-per-move", "2", "--format",
                        "json").stdout)
    assert obj["samples_per_move"] == 2 and obj["games"] == 2
    lines = ok("play", "--policy", "sampling", "--deals", "3", "--samples-per-move", "2").stdout
    assert len(lines.splitlines()) == 3


def test_sampling_plays_two_hand_48_play_and_deal_odds():
    lines = ok("play", "--variant", "two-hand-48", "--policy", "sampling", "--deals", "3",
               "--samples-per-move", "2").stdout
    assert len(lines.splitlines()) == 3
    obj = json.loads(ok("deal-odds", "--policy", "sampling", "--deals", "8",
                        "--samples-per-move", "2", "--format", "json").stdout)
    assert obj["provenance"]["samples_per_move"] == 2 and obj["samples"] == 8
    assert_one_line_error(invoke("deal-odds", "--samples-per-move", "0", "--policy",
                                 "sampling", "--deals", "8"), "--samples-per-move", "1 to")


def test_sampling_plays_the_72_card_games_play_duel_and_deal_odds():
    lines = ok("play", "--variant", "four-hand-72", "--policy", "sampling", "--deals", "2",
               "--samples-per-move", "2").stdout
    assert len(lines.splitlines()) == 2
    obj = json.loads(ok("deal-odds", "--variant", "three-hand-72", "--policy", "sampling",
                        "--deals", "4", "--samples-per-move", "2", "--format", "json").stdout)
    assert obj["provenance"]["samples_per_move"] == 2 and obj["samples"] == 4
    obj = json.loads(ok("duel", "--variant", "three-hand-72", "-a", "sampling", "-b",
                        "heuristic", "--deals", "3", "--samples-per-move", "2", "--format",
                        "json").stdout)
    assert obj["samples_per_move"] == 2 and obj["deals"] == 3


def test_sampling_bid_odds_and_calibrate():
    obj = json.loads(ok("bid-odds", "--policy", "sampling", "--deals", "6",
                        "--samples-per-move", "2", "--format", "json").stdout)
    assert obj["provenance"]["samples_per_move"] == 2
    assert obj["provenance"]["policy"] == "sampling"
    obj = json.loads(ok("calibrate", "--deals", "10", "--samples", "20", "--bins", "2",
                        "--outcome-policy", "sampling", "--samples-per-move", "2", "--format",
                        "json").stdout)
    assert obj["outcome_policy"] == "sampling" and obj["provenance"]["samples_per_move"] == 2


def test_samples_per_move_without_sampling_warns_and_other_variants_refuse():
    result = ok("duel", "-a", "heuristic", "-b", "random", "--deals", "1000",
                "--samples-per-move", "5")
    assert "--samples-per-move is read only by the sampling policy" in result.stderr
    # the widow games play it too (tests/test_widow_sampling.py)
    obj = json.loads(ok("duel", "--variant", "four-hand-widow-48", "-a", "sampling", "-b",
                        "heuristic", "--deals", "8", "--samples-per-move", "2", "--format",
                        "json").stdout)
    assert obj["deals"] == 8 and obj["samples_per_move"] == 2
    line = ok("play", "--variant", "three-hand-auction-48", "--policy", "sampling", "--deals",
              "1", "--samples-per-move", "2", "--format", "jsonl").stdout.splitlines()[0]
    assert json.loads(line)["variant"] == "three-hand-auction-48"


def test_sampling_refused_where_many_deals_per_hand_run_and_bad_counts_are_one_line():
    assert_one_line_error(invoke("report", "--policy", "sampling", "--deals", "100", "--out",
                                 "unused-report-dir"), "report", "sampling")
    assert not Path("unused-report-dir").exists()
    assert_one_line_error(invoke("duel", "-a", "sampling", "-b", "heuristic", "--deals", "10",
                                 "--samples-per-move", "0"), "--samples-per-move", "1 to")
