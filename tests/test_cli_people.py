"""The command line as people meet it (issue 8): tables that fit 80 columns with one number format
per column, warnings for options a run would not use, files that say what made them, ``-`` for
stdin/stdout, ``-h``, and Ctrl-C that leaves nothing half-written."""

from __future__ import annotations

import io
import json
import re

import polars as pl
import pytest

from binokel_sim.cli import base
from binokel_sim.cli.render import percent, percent_interval
from conftest import VARIANT_NAMES, assert_one_line_error, invoke, ok

WIDTH = 80


@pytest.fixture(autouse=True)
def _console_80(monkeypatch):
    """Render as a terminal of 80 columns would."""
    monkeypatch.setattr(base.out, "_width", WIDTH)
    monkeypatch.setattr(base.err, "_width", WIDTH)


def assert_fits(text: str) -> None:
    """No line wider than 80 columns and nothing cut (rich marks a cut cell with an ellipsis)."""
    for line in text.splitlines():
        assert len(line.rstrip()) <= WIDTH, line
    assert "…" not in text, text


def warnings_of(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("warning:")]


# --- number formats -----------------------------------------------------------------------------

@pytest.mark.parametrize("p, decimals, shown", [
    (0.0, 2, "0%"), (1.0, 2, "100%"), (0.5, 2, "50.00%"), (0.123456, 4, "12.3456%"),
    (3e-9, 4, "<0.0001%"), (4e-7, 4, "<0.0001%"), (6e-7, 4, "0.0001%"), (0.99999999, 4, ">99.9999%"),
    (0.00004, 2, "<0.01%"), (None, 2, "-"),
])
def test_percent(p, decimals, shown):
    assert percent(p, decimals) == shown


def test_percent_interval_has_one_sign():
    assert percent_interval(0.1, 0.25) == "10.00-25.00%"


# --- tables fit 80 columns ----------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_analyze_and_exact_meld_tables_fit(variant):
    assert_fits(ok("analyze", "--variant", variant).stdout)
    exact = ok("meld-odds", "--variant", variant, "--exact").stdout
    assert_fits(exact)
    header = next(line for line in exact.splitlines() if "meld" in line and "held" in line)
    assert "hands" not in header and "interval" not in header  # no Monte Carlo columns


def test_meld_odds_table_fits_and_shares_one_format():
    result = ok("meld-odds", "--variant", "four-hand-80", "--deals", "3000", "--seed", "2")
    assert_fits(result.stdout)
    rows = [line.split() for line in result.stdout.splitlines() if line.startswith(" aces_around")
            or line.startswith("aces_around")]
    assert rows and all(row[4].endswith("%") and "." in row[4] for row in rows)
    assert "best total meld" in result.stdout  # the totals have their own table: no mixed "count"


def test_exact_table_shows_tiny_probabilities_as_tiny():
    result = ok("meld-odds", "--variant", "four-hand-80", "--exact")
    assert "<0.0001%" in result.stdout
    assert " 0.0000%" not in result.stdout


@pytest.mark.parametrize("args", [
    ("bid-odds", "--deals", "2000"),
    ("bid-odds", "--deals", "2000", "--full"),
    ("bid-odds", "--variant", "three-hand-auction-48", "--deals", "1500"),
    ("bid-odds", "--variant", "four-hand-widow-48", "--deals", "1500", "--full"),
    ("deal-odds", "--variant", "two-hand-48", "--deals", "1500"),
    ("deal-odds", "--variant", "four-hand-72", "--deals", "1500"),
    ("duel", "--variant", "two-hand-48", "--deals", "1500"),
    ("match", "--variant", "two-hand-48", "--games", "40"),
    ("bench", "--deals", "20000", "--no-reference"),
])
def test_table_commands_fit(args):
    assert_fits(ok(*args).stdout)


def test_a_ladder_of_four_trumps_fits_and_cuts_no_header():
    """A marriage in every suit (ordinary in pinochle): four trumps' ladder columns would not fit
    80 side by side ("S  expecte" / "d score"); each figure gets a table, a column per trump."""
    hand = "AS AS TS KS QS JS AH TH KH QH AD KD QD JD AC KC QC JC TC TD"
    text = ok("bid-odds", "--hand", hand, "--deals", "2000").stdout
    assert_fits(text)
    assert "p_make by trump" in text and "expected score by trump" in text
    assert not re.search(r"expecte(?!d)|(?<![a-z])d score", text), text
    header = next(line for line in text.splitlines() if line.split()[:1] == ["bid"])
    assert header.split() == ["bid", "S", "H", "D", "C"]


def test_bid_odds_default_is_a_summary_and_full_lists_every_row():
    short = ok("bid-odds", "--deals", "2000", "--seed", "3").stdout
    full = ok("bid-odds", "--deals", "2000", "--seed", "3", "--full").stdout
    rows = json.loads(ok("bid-odds", "--deals", "2000", "--seed", "3", "--format", "json")
                      .stdout)["rows"]
    assert "p_make at" in short and "bid up to" in short and "recommended trump" in short
    assert "--full shows every row" in " ".join(short.split())
    ladder_rows = [line for line in full.splitlines() if line.split()[:1] in (["S"], ["H"], ["D"])
                   and len(line.split()) >= 5 and line.split()[1].isdigit()]
    assert len(ladder_rows) == len(rows)
    assert len(short.splitlines()) < len(full.splitlines())


def test_help_fits_and_shows_flags_as_flags():
    for command in ("bid-odds", "meld-odds", "play", "duel", "analyze"):
        result = ok(command, "-h")
        assert "Usage" in result.stdout
        assert_fits(result.stdout)


def test_reflow_joins_lines_keeps_paragraphs():
    assert base.reflow("one\n    two\n\n    Example: x y") == "one two\n\nExample: x y"


# --- no silent surprises ------------------------------------------------------------------------

def test_rules_and_variant_together_is_an_error(tmp_path):
    rules = tmp_path / "house.toml"
    rules.write_text(ok("variants", "--show", "two-hand-48").stdout)
    assert_one_line_error(invoke("analyze", "--rules", str(rules), "--variant", "four-hand-80"),
                          "--variant", "--rules")
    ok("analyze", "--rules", str(rules))


def test_exact_warns_about_deals_and_seed():
    result = ok("meld-odds", "--variant", "two-hand-48", "--exact", "--deals", "5000", "--seed", "3")
    (line,) = warnings_of(result)
    assert "--deals and --seed" in line and "--exact" in line
    assert not warnings_of(ok("meld-odds", "--variant", "two-hand-48", "--exact"))


def test_trump_the_hand_cannot_name_warns():
    # the example hand holds no marriage in clubs
    result = ok("bid-odds", "--trump", "C", "--deals", "1000")
    (line,) = warnings_of(result)
    assert "--trump C" in line and "no marriage" in line
    assert not warnings_of(ok("bid-odds", "--trump", "S", "--deals", "1000"))


def test_threads_above_the_cores_are_clamped_with_a_warning():
    result = ok("meld-odds", "--deals", "2000", "--threads", "999")
    (line,) = warnings_of(result)
    assert "--threads 999" in line and "using" in line


@pytest.mark.parametrize("args", [
    ("bid-odds", "--deals", "300"),
    ("meld-odds", "--deals", "300"),
    ("duel", "--variant", "two-hand-48", "--deals", "300"),
    ("deal-odds", "--deals", "300"),
])
def test_few_samples_warn_that_intervals_are_wide(args):
    (line,) = warnings_of(ok(*args))
    assert "only 300" in line and "wide" in line


def test_ctrl_c_prints_one_line_and_leaves_no_file(tmp_path, monkeypatch):
    import binokel_sim.analysis

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(binokel_sim.analysis, "meld_odds", interrupted)
    target = tmp_path / "odds.parquet"
    result = invoke("meld-odds", "--deals", "2000", "--out", str(target))
    assert result.exit_code == 130
    assert result.stderr.strip().splitlines() == [base.STOPPED]
    assert list(tmp_path.iterdir()) == []


def test_atomic_file_removes_a_half_written_file_on_ctrl_c(tmp_path):
    from binokel_sim.io import atomic_file

    target = tmp_path / "deals.jsonl"
    with pytest.raises(KeyboardInterrupt):
        with atomic_file(target) as f:
            f.write("half")
            raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []


# --- files describe themselves ------------------------------------------------------------------

def test_bid_odds_parquet_carries_inputs_and_outcome(tmp_path):
    target = tmp_path / "odds.parquet"
    result = ok("bid-odds", "--deals", "2000", "--seed", "5", "--out", str(target))
    assert result.stderr.strip().splitlines()[-1] == f"wrote {target}"
    df = pl.read_parquet(target)
    answer = json.loads(ok("bid-odds", "--deals", "2000", "--seed", "5", "--format", "json")
                        .stdout)
    assert df["hand"].unique().to_list() == [" ".join(answer["hand"])]
    assert df["trump_option"].unique().to_list() == ["auto"]
    assert df["policy"].unique().to_list() == ["expert"]  # the default in four-hand-80
    assert df["recommended_trump"].unique().to_list() == [answer["recommended_trump"]]
    assert df["max_bid_positive_ev"].unique().to_list() == [answer["max_bid_positive_ev"]]
    meta = pl.read_parquet_metadata(target)
    assert json.loads(meta["binokel_sim_result"])["by_trump"] == answer["by_trump"]


@pytest.mark.parametrize("args, columns", [
    (("analyze", "--variant", "two-hand-48"), {"hand", "trump", "meld", "count", "points",
                                               "variant", "version"}),
    (("duel", "--variant", "two-hand-48", "--deals", "1000"), {"a", "b", "seed", "mean_diff",
                                                                "ci_low", "variant", "version"}),
    (("match", "--variant", "two-hand-48", "--games", "30"), {"a", "b", "p_win_a", "seed",
                                                               "variant", "version"}),
])
@pytest.mark.parametrize("suffix", [".csv", ".json", ".parquet"])
def test_out_files_say_what_made_them(tmp_path, args, columns, suffix):
    target = tmp_path / f"result{suffix}"
    result = ok(*args, "--out", str(target))
    assert f"wrote {target}" in result.stderr
    df = {".csv": pl.read_csv, ".json": pl.read_json, ".parquet": pl.read_parquet}[suffix](target)
    assert columns <= set(df.columns)


# --- pipes --------------------------------------------------------------------------------------

def test_out_dash_writes_rows_to_stdout():
    result = ok("meld-odds", "--variant", "two-hand-48", "--exact", "--out", "-", "--format", "csv")
    df = pl.read_csv(io.StringIO(result.stdout))
    assert {"meld", "count", "points", "probability", "variant", "method"} <= set(df.columns)
    assert "wrote" not in result.stderr
    lines = ok("duel", "--variant", "two-hand-48", "--deals", "1000", "--out", "-", "--format",
               "jsonl").stdout.splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["deals"] == 1000


def test_out_dash_needs_a_row_format():
    assert_one_line_error(invoke("meld-odds", "--exact", "--out", "-"), "--format")


def test_format_csv_equals_out_dash():
    a = ok("meld-odds", "--variant", "two-hand-48", "--exact", "--format", "csv").stdout
    b = ok("meld-odds", "--variant", "two-hand-48", "--exact", "--out", "-", "--format", "csv")
    assert a == b.stdout


def test_hands_file_dash_reads_stdin():
    from conftest import runner
    from binokel_sim.cli import app

    hands = "AS TS KS QS QS JS 9S KH QH AD JD AC\n# a comment\nAS AS TS TS KS KS QS QS JS JS 9S 9S\n"
    result = runner.invoke(app, ["analyze", "--variant", "two-hand-48", "--hands-file", "-",
                                 "--format", "jsonl"], input=hands)
    assert result.exit_code == 0, result.stderr
    assert [json.loads(line)["hand"][0] for line in result.stdout.splitlines()] == ["AS", "AS"]
    bad = runner.invoke(app, ["analyze", "--variant", "two-hand-48", "--hands-file", "-",
                              "--strict"], input="AS XX\n")
    assert_one_line_error(bad, "stdin line 1")
    skipped = runner.invoke(app, ["analyze", "--variant", "two-hand-48", "--hands-file", "-"],
                            input="AS XX\n")
    assert skipped.exit_code == 0 and skipped.stderr.startswith("warning: stdin line 1")


def test_short_help_and_policy_names():
    assert "Usage" in ok("-h").stdout
    a = json.loads(ok("duel", "--variant", "two-hand-48", "--deals", "1000", "-a", "random",
                      "-b", "heuristic", "--format", "json").stdout)
    b = json.loads(ok("duel", "--variant", "two-hand-48", "--deals", "1000", "--policy-a",
                      "random", "--policy-b", "heuristic", "--format", "json").stdout)
    assert a == b and a["a"] == "random" and a["b"] == "heuristic"


def test_shell_completion_is_offered():
    assert "--install-completion" in ok("-h").stdout
