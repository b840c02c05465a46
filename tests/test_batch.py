"""``binokel-sim batch``: one row per hand equal to the single-hand command with seed S + i, bad
rows named and kept with an error, --strict, every output format, and --resume after Ctrl-C giving
the same file as an uninterrupted run."""

from __future__ import annotations

import io
import json
from pathlib import Path

import polars as pl
import pytest

from conftest import HAND_80, assert_one_line_error, invoke, ok

HAND_80_B = "AS AS TS KS KS QS QS JS AH TH KH QH AD KD QD JD JD AC TC JC"
HAND_48 = "AS TS KS QS QS JS 9S KH QH AD JD AC"
HAND_48_B = "AS AS TS TS KS KS QS QS JS JS 9S 9S"
HAND_WIDOW = "AS AS TS KS QS QS JS 9S AH KH QH AD JD KC QC"
DEALS = "1500"


def hands_txt(tmp_path, *hands: str):
    path = tmp_path / "hands.txt"
    path.write_text("# my hands\n" + "\n".join(hands) + "\n")
    return path


def batch_rows(*args: str) -> list[dict]:
    return json.loads(ok("batch", *args, "--format", "json").stdout)["rows"]


def test_auction_rows_equal_bid_odds_with_seed_plus_row(tmp_path):
    path = hands_txt(tmp_path, HAND_80, "AS XX", HAND_80_B)
    rows = batch_rows("--hands-file", str(path), "--deals", DEALS, "--seed", "7")
    assert [r["row"] for r in rows] == [0, 1, 2]
    assert rows[1]["error"] and "XX" in rows[1]["error"] and rows[1]["p_make_min_bid"] is None
    for row, hand in ((rows[0], HAND_80), (rows[2], HAND_80_B)):
        single = json.loads(ok("bid-odds", "--hand", hand, "--deals", DEALS, "--seed",
                               str(7 + row["row"]), "--format", "json").stdout)
        best = single["recommended_trump"]
        info = single["by_trump"][best]
        assert row["seed"] == 7 + row["row"] and row["error"] is None
        assert row["recommended_trump"] == best
        assert row["max_bid_positive_ev"] == single["max_bid_positive_ev"]
        assert row["p_make_min_bid"] == info["p_make_min_bid"]
        assert [row["p_make_min_bid_ci_low"], row["p_make_min_bid_ci_high"]] == \
            info["p_make_min_bid_ci"]
        assert row["expected_score_min_bid"] == info["expected_score_min_bid"]


@pytest.mark.parametrize("variant, hand", [("three-hand-auction-48", HAND_WIDOW),
                                           ("swabian-3-40", "AS TS KS QS JS JS KH QH AD JD KC QC")])
def test_widow_rows_equal_bid_odds(tmp_path, variant, hand):
    path = hands_txt(tmp_path, hand)
    (row,) = batch_rows("--variant", variant, "--hands-file", str(path), "--deals", DEALS,
                        "--seed", "4")
    single = json.loads(ok("bid-odds", "--variant", variant, "--hand", hand, "--deals", DEALS,
                           "--seed", "4", "--format", "json").stdout)
    assert row["max_bid_positive_ev"] == single["max_bid_positive_ev"]
    assert row["p_make_min_bid"] == single["p_make_min_bid"]
    assert row["expected_score_min_bid"] == single["expected_score_min_bid"]
    chosen = single["trump_chosen"]
    assert row["recommended_trump"] == max(chosen, key=chosen.get)


def test_the_swabian_batch_names_its_dealer(tmp_path):
    """Where the player left of the dealer leads, who dealt changes the odds: the provenance
    names the dealer the rows assume (right, as bid-odds' default), and only there."""
    path = hands_txt(tmp_path, "AS TS KS QS JS JS KH QH AD JD KC QC")
    args = ("--hands-file", str(path), "--deals", "200", "--seed", "4", "--format", "json")
    swabian = json.loads(ok("batch", "--variant", "swabian-3-40", *args).stdout)
    assert swabian["provenance"]["dealer"] == "right"
    path = hands_txt(tmp_path, HAND_WIDOW)
    seed_game = json.loads(ok("batch", "--variant", "three-hand-auction-48", "--hands-file",
                              str(path), "--deals", "200", "--seed", "4", "--format",
                              "json").stdout)
    assert "dealer" not in seed_game["provenance"]


def test_talon_rows_take_turned_and_seat_columns(tmp_path):
    path = tmp_path / "hands.csv"
    pl.DataFrame({"hand": [HAND_48, HAND_48_B, HAND_48], "turned": ["9H", "9H", "9S"],
                  "seat": ["dealer", "elder", "north"]}).write_csv(path)
    result = ok("batch", "--variant", "two-hand-48", "--hands-file", str(path), "--deals",
                DEALS, "--seed", "2", "--format", "json")
    rows = json.loads(result.stdout)["rows"]
    assert "hands.csv line 4" in result.stderr and "seat" in rows[2]["error"]
    for row, hand, turned, seat in ((rows[0], HAND_48, "9H", "dealer"),
                                    (rows[1], HAND_48_B, "9H", "elder")):
        single = json.loads(ok("deal-odds", "--variant", "two-hand-48", "--hand", hand,
                               "--turned", turned, "--seat", seat, "--deals", DEALS, "--seed",
                               str(2 + row["row"]), "--format", "json").stdout)
        assert (row["turned"], row["seat"]) == (turned, seat)
        for key in ("p_win", "p_win_ci_low", "p_win_ci_high", "mean_score", "mean_meld"):
            assert row[key] == single[key], key


def test_bad_row_is_named_on_stderr_and_strict_stops(tmp_path):
    path = hands_txt(tmp_path, HAND_80, HAND_80.replace("KC", "XC"))
    result = ok("batch", "--hands-file", str(path), "--deals", DEALS)
    assert "hands.txt line 3" in result.stderr and "XC" in result.stderr
    target = tmp_path / "out.csv"
    assert_one_line_error(invoke("batch", "--hands-file", str(path), "--deals", DEALS, "--strict",
                                 "--out", str(target)), "hands.txt line 3", "XC")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hands.txt"]


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".json", ".jsonl"])
def test_out_formats_carry_the_rows_and_provenance(tmp_path, suffix):
    path = hands_txt(tmp_path, HAND_80, "AS XX")
    target = tmp_path / f"odds{suffix}"
    result = ok("batch", "--hands-file", str(path), "--deals", DEALS, "--out", str(target))
    assert f"wrote {target}" in result.stderr
    read = {".parquet": pl.read_parquet, ".csv": pl.read_csv, ".json": pl.read_json,
            ".jsonl": pl.read_ndjson}[suffix]
    df = read(target)
    assert df.height == 2 and df["error"].null_count() == 1
    assert {"hand", "recommended_trump", "max_bid_positive_ev", "p_make_min_bid",
            "expected_score_min_bid", "variant", "seed", "deals", "policy",
            "version"} <= set(df.columns)
    assert not list(tmp_path.glob("*.partial.jsonl"))


@pytest.mark.parametrize("target", ["odds.parquet", "odds.csv", "odds.json", "odds.jsonl", "-csv",
                                    "-jsonl"])
def test_every_output_carries_each_rows_own_seed(tmp_path, target):
    """Row i was simulated with seed S + i, and every output says so in its ``seed`` column (issue
    54: the files said S on every row, so a row reproduced from the file gave other numbers);
    the run's S stays in the Parquet metadata."""
    path = hands_txt(tmp_path, HAND_80, "AS XX", HAND_80_B)
    args = ["batch", "--hands-file", str(path), "--deals", DEALS, "--seed", "7"]
    if target.startswith("-"):
        text = ok(*args, "--out", "-", "--format", target[1:]).stdout
        df = (pl.read_csv if target == "-csv" else pl.read_ndjson)(io.StringIO(text))
    else:
        ok(*args, "--out", str(tmp_path / target))
        read = {".parquet": pl.read_parquet, ".csv": pl.read_csv, ".json": pl.read_json,
                ".jsonl": pl.read_ndjson}[Path(target).suffix]
        df = read(tmp_path / target)
        if target.endswith(".parquet"):
            run = json.loads(pl.read_parquet_metadata(tmp_path / target)["binokel_sim"])
            assert run["seed"] == 7
    assert df["row"].to_list() == [0, 1, 2] and df["seed"].to_list() == [7, 8, 9]
    third = json.loads(ok("bid-odds", "--hand", HAND_80_B, "--deals", DEALS, "--seed", "9",
                          "--format", "json").stdout)
    assert df["max_bid_positive_ev"][2] == third["max_bid_positive_ev"]
    assert df["recommended_trump"][2] == third["recommended_trump"]


def test_out_dash_is_stdout(tmp_path):
    path = hands_txt(tmp_path, HAND_80)
    text = ok("batch", "--hands-file", str(path), "--deals", DEALS, "--out", "-", "--format",
              "csv").stdout
    assert pl.read_csv(io.StringIO(text)).height == 1


def test_resume_after_ctrl_c_gives_the_same_file(tmp_path, monkeypatch):
    import binokel_sim.batch as batch

    path = hands_txt(tmp_path, HAND_80, "AS XX", HAND_80_B, HAND_80)
    whole = tmp_path / "whole.parquet"
    args = ["batch", "--hands-file", str(path), "--deals", DEALS, "--seed", "3"]
    ok(*args, "--out", str(whole))

    real = batch.summarize_hand
    calls = []

    def interrupted(rules, row, index, *rest, **kw):
        calls.append(index)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(rules, row, index, *rest, **kw)

    target = tmp_path / "odds.parquet"
    monkeypatch.setattr(batch, "summarize_hand", interrupted)
    stopped = invoke(*args, "--out", str(target))
    assert stopped.exit_code == 130
    assert "2 of 4 hands are kept" in stopped.stderr and "--resume" in stopped.stderr
    assert not target.exists()
    partial = tmp_path / "odds.parquet.partial.jsonl"
    assert len(partial.read_text().splitlines()) == 1 + 2

    # without --resume the partial run is not silently thrown away
    assert_one_line_error(invoke(*args, "--out", str(target)), "--resume")
    # other arguments cannot continue it
    assert_one_line_error(invoke(*args[:-1], "4", "--out", str(target), "--resume"),
                          "other arguments")

    monkeypatch.setattr(batch, "summarize_hand", real)
    resumed = ok(*args, "--out", str(target), "--resume")
    assert f"wrote {target}" in resumed.stderr
    assert target.read_bytes() == whole.read_bytes()
    assert not partial.exists()


def test_batch_refuses_what_it_cannot_do(tmp_path):
    path = hands_txt(tmp_path, HAND_80)
    assert_one_line_error(invoke("batch", "--hands-file", str(path), "--resume"), "--out")
    assert_one_line_error(invoke("batch", "--hands-file", str(tmp_path / "none.txt")), "none.txt")
    assert_one_line_error(invoke("batch", "--hands-file", str(path), "--deals", "0"), "--deals")
    assert_one_line_error(invoke("batch", "--hands-file", str(path), "--policy", "clever",
                                 "--deals", "100"), "clever")
