"""The ``binokel-sim`` command: outputs, exit codes and one-line errors (typer CliRunner), plus a
few runs of the real console script."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from binokel_sim.cli import app

from conftest import HAND_80, VARIANT_NAMES, assert_one_line_error, invoke, ok, runner

HAND_48 = "AS TS KS QS QS JS 9S KH QH AD JD AC"


# --- variants ----------------------------------------------------------------------------------------

def test_variants_json_lists_six():
    rows = json.loads(ok("variants", "--format", "json").stdout)
    assert sorted(r["variant"] for r in rows) == sorted(VARIANT_NAMES)
    by = {r["variant"]: r for r in rows}
    assert by["four-hand-80"]["deck"] == 80 and by["four-hand-80"]["hand"] == 20
    assert by["two-hand-48"]["talon"] == 24
    assert by["three-hand-auction-48"]["widow"] == 3


def test_variants_table():
    result = ok("variants")
    assert "Built-in variants" in result.stdout
    assert result.stdout.count("\n") > 6


# --- analyze -------------------------------------------------------------------------------------------

def check_analysis(obj: dict, variant: str, hand_size: int):
    assert set(obj) >= {"variant", "hand", "by_trump"}
    assert obj["variant"] == variant
    assert isinstance(obj["hand"], list) and len(obj["hand"]) == hand_size
    assert list(obj["by_trump"]) == ["S", "H", "D", "C"]
    for entry in obj["by_trump"].values():
        assert isinstance(entry["total"], int) and isinstance(entry["allowed"], bool)
        assert entry["total"] == sum(m["points"] for m in entry["melds"])
        for m in entry["melds"]:
            assert set(m) == {"name", "count", "points"}


def test_analyze_json():
    obj = json.loads(ok("analyze", "--variant", "four-hand-80", "--hand", HAND_80,
                        "--format", "json").stdout)
    check_analysis(obj, "four-hand-80", 20)
    # K+Q in spades, hearts and diamonds; clubs has K but no Q
    assert [obj["by_trump"][s]["allowed"] for s in "SHDC"] == [True, True, True, False]
    best = obj["best_trump"]
    assert obj["by_trump"][best]["total"] == max(e["total"] for e in obj["by_trump"].values())


def test_analyze_known_hand_json():
    # two-hand-48, spades trump: quint A T K Q J of spades 250 + the second K+Q of spades 40
    hand = "AS TS KS KS QS QS JS TH TH TD TD TC"
    obj = json.loads(ok("analyze", "-v", "binokel-2", "--hand", hand, "-f", "json").stdout)
    assert obj["by_trump"]["S"]["total"] == 290
    assert obj["best_trump"] == "S"


def test_analyze_widow_roundhouse_json():
    # a spade quint 250 and a roundhouse 240; the spade K+Q inside both is absorbed once, kings
    # and queens around are inside the roundhouse: 490
    obj = json.loads(ok("analyze", "-v", "four-hand-widow-48", "--hand",
                        "AS TS KS QS JS KH QH KD QD KC QC", "-f", "json").stdout)
    check_analysis(obj, "four-hand-widow-48", 11)
    for entry in obj["by_trump"].values():
        assert entry["total"] == 490
        melds = {m["name"]: (m["count"], m["points"]) for m in entry["melds"]}
        assert melds["roundhouse"] == (1, 240) and melds["quint"] == (1, 250)
        assert melds["kings_around"] == melds["queens_around"] == (0, 0)
        assert melds["tens_around"] == (0, 0) and melds["nines_around"] == (0, 0)
    # eight tens = 1000 (SPEC: eight of any one rank, tens included)
    obj = json.loads(ok("analyze", "-v", "binokel-3-48", "--hand",
                        "TS TS TH TH TD TD TC TC AS AS AH AH AD JS JH", "-f", "json").stdout)
    assert all(e["total"] == 1000 for e in obj["by_trump"].values())


def test_meld_odds_exact_widow_json():
    obj = json.loads(ok("meld-odds", "-v", "three-hand-auction-48", "--exact", "-f",
                        "json").stdout)
    rows = obj["rows"]
    kings = {r["count"]: r["probability"] for r in rows if r["meld"] == "kings_around"}
    tens = {r["count"]: r["probability"] for r in rows if r["meld"] == "tens_around"}
    aces = {r["count"]: r["probability"] for r in rows if r["meld"] == "aces_around"}
    assert round(kings[1], 10) == 0.0631790559  # four kings without a roundhouse
    assert tens == aces  # tens and nines are as aces: complete sets, nothing inside anything


def test_analyze_example_hand_and_table():
    result = ok("analyze", "--variant", "two-hand-48")
    assert "best trump" in result.stdout
    assert "two-hand-48" in result.stdout


def test_analyze_with_house_rules(tmp_path):
    text = resources.files("binokel_sim.variants").joinpath("two-hand-48.toml").read_text("utf-8")
    old = 'cards = ["QS", "JD"]\npoints = [40, 500]'
    assert old in text
    rules = tmp_path / "house.toml"
    rules.write_text(text.replace(old, 'cards = ["QS", "JD"]\npoints = [40, 300]'), "utf-8")
    hand = "QS QS JD JD TH TH TC TC AH AH AC AC"
    base = json.loads(ok("analyze", "-v", "two-hand-48", "--hand", hand, "-f", "json").stdout)
    house = json.loads(ok("analyze", "--rules", str(rules), "--hand", hand, "-f", "json").stdout)
    assert base["by_trump"]["S"]["total"] == 500
    assert house["by_trump"]["S"]["total"] == 300


HANDS_48 = [HAND_48, "AS AS AH AH AD AD AC AC TS TS TH TH", "QS QS JD JD TH TH TC TC AH AH AC AC"]


def write_hands(tmp_path: Path, kind: str) -> Path:
    if kind == "txt":
        path = tmp_path / "hands.txt"
        path.write_text("# my hands\n" + HANDS_48[0] + "\n\n" + "\n".join(HANDS_48[1:]) + "\n")
    elif kind == "csv":
        path = tmp_path / "hands.csv"
        pl.DataFrame({"player": ["a", "b", "c"], "hand": HANDS_48}).write_csv(path)
    else:
        path = tmp_path / "hands.parquet"
        pl.DataFrame({"hand": HANDS_48, "note": [1, 2, 3]}).write_parquet(path)
    return path


@pytest.mark.parametrize("kind", ["txt", "csv", "parquet"])
def test_analyze_hands_file_jsonl(tmp_path, kind):
    path = write_hands(tmp_path, kind)
    result = ok("analyze", "-v", "two-hand-48", "--hands-file", str(path), "--format", "jsonl")
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 3
    objs = [json.loads(line) for line in lines]
    for obj in objs:
        check_analysis(obj, "two-hand-48", 12)
    # eight aces = 1000; double binokel = 500 (for every trump)
    assert {objs[1]["by_trump"][s]["total"] for s in "SHDC"} == {1000}
    assert {objs[2]["by_trump"][s]["total"] for s in "SHDC"} == {500}


def test_analyze_hands_file_json_is_an_array(tmp_path):
    path = write_hands(tmp_path, "csv")
    arr = json.loads(ok("analyze", "-v", "two-hand-48", "--hands-file", str(path), "-f",
                        "json").stdout)
    assert isinstance(arr, list) and len(arr) == 3


def test_analyze_hands_file_names_the_bad_line_and_goes_on(tmp_path):
    """As batch: the bad line is named on stderr, the others are analyzed, the exit status is
    batch's (0); the JSON carries the bad line with its error in file order."""
    path = tmp_path / "hands.txt"
    path.write_text(HAND_48 + "\n" + HAND_48.replace("AC", "XC") + "\n" + HANDS_48[1] + "\n")
    result = ok("analyze", "-v", "two-hand-48", "--hands-file", str(path), "-f", "jsonl")
    warnings = result.stderr.strip().splitlines()
    assert len(warnings) == 1 and warnings[0].startswith("warning: hands.txt line 2")
    assert "XC" in warnings[0] and "skipped" in warnings[0]
    objs = [json.loads(line) for line in result.stdout.strip().splitlines()]
    assert len(objs) == 3
    check_analysis(objs[0], "two-hand-48", 12)
    assert objs[1]["where"] == "hands.txt line 2" and "XC" in objs[1]["error"]
    assert {objs[2]["by_trump"][s]["total"] for s in "SHDC"} == {1000}
    table = ok("analyze", "-v", "two-hand-48", "--hands-file", str(path))
    assert "hands.txt line 2:" in table.stdout and table.stdout.count("best trump:") == 2
    csv_path = tmp_path / "rows.csv"
    ok("analyze", "-v", "two-hand-48", "--hands-file", str(path), "--out", str(csv_path))
    # the rows of a file leave the bad line out
    assert set(pl.read_csv(csv_path)["hand"]) == {" ".join(objs[0]["hand"]),
                                                   " ".join(objs[2]["hand"])}


def test_analyze_hands_file_strict_stops_at_the_bad_line(tmp_path):
    path = tmp_path / "hands.txt"
    path.write_text(HAND_48 + "\n" + HAND_48.replace("AC", "XC") + "\n")
    assert_one_line_error(invoke("analyze", "-v", "two-hand-48", "--hands-file", str(path),
                                 "--strict"), "line 2", "XC")


def test_analyze_strict_without_hands_file_warns():
    result = ok("analyze", "--strict")
    assert "warning: --strict is read only with --hands-file" in result.stderr


def test_analyze_hands_file_without_hand_column(tmp_path):
    path = tmp_path / "hands.csv"
    pl.DataFrame({"cards": HANDS_48}).write_csv(path)
    assert_one_line_error(invoke("analyze", "-v", "two-hand-48", "--hands-file", str(path)),
                          "hand")


def test_analyze_missing_hands_file(tmp_path):
    assert_one_line_error(invoke("analyze", "--hands-file", str(tmp_path / "none.txt")),
                          "none.txt")


# --- bad input: one line on stderr, exit code 1 ----------------------------------------------------------

@pytest.mark.parametrize("args,needles", [
    (["analyze", "--hand", HAND_80.replace("KC", "ZC")], ["ZC"]),
    (["analyze", "--hand", HAND_80 + " JH"], ["21"]),
    (["analyze", "--hand", HAND_80.replace("TS KS", "AS AS").replace("AH", "AS")], ["AS", "5"]),
    (["analyze", "-v", "two-hand-48", "--hand", HAND_48.replace("9S", "AS AS").replace(" AC", "")],
     ["AS", "3"]),
    (["analyze", "--hand", HAND_80.replace("KC", "9C")], ["9C"]),
    (["analyze", "--variant", "five-hand-100", "--hand", HAND_80], ["five-hand-100",
                                                                    "four-hand-80"]),
    (["meld-odds", "--variant", "nope", "--deals", "10"], ["nope"]),
    (["meld-odds", "--deals", "100", "--threads", "0"], ["--threads", "0"]),
    (["meld-odds", "--deals", "0"], ["--deals", "0"]),
    (["meld-odds", "--deals", "10", "--seed", "-1"], ["--seed"]),
    (["meld-odds", "--deals", "10", "--trump", "X"], ["X"]),
    (["analyze", "--hand", HAND_80, "--hands-file", "x.txt"], ["--hand"]),
])
def test_bad_input(args, needles):
    assert_one_line_error(invoke(*args), *needles)


def test_broken_rules_file(tmp_path):
    path = tmp_path / "house.toml"
    text = resources.files("binokel_sim.variants").joinpath("two-hand-48.toml").read_text("utf-8")
    path.write_text(text.replace('scope = "per_suit"', 'scope = "everywhere"'), "utf-8")
    assert_one_line_error(invoke("analyze", "--rules", str(path), "--hand", HAND_48),
                          "house.toml", "scope")
    path.write_text("name = [", "utf-8")
    assert_one_line_error(invoke("meld-odds", "--rules", str(path), "--deals", "10"),
                          "house.toml")


def test_unwritable_out(tmp_path):
    out = tmp_path / "nowhere" / "f.parquet"
    assert_one_line_error(invoke("meld-odds", "--deals", "100", "--out", str(out)), "nowhere")
    assert_one_line_error(invoke("meld-odds", "--deals", "100", "--out",
                                 str(tmp_path / "f.txt")), "f.txt")
    assert list(tmp_path.iterdir()) == []


# --- meld-odds ------------------------------------------------------------------------------------------

def test_meld_odds_parquet_same_seed_same_bytes(tmp_path):
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    for path in (a, b):
        ok("meld-odds", "--deals", "20000", "--seed", "3", "--out", str(path))
    assert a.read_bytes() == b.read_bytes()
    df = pl.read_parquet(a)
    assert df["seed"].unique().to_list() == [3]
    assert df["deals"].unique().to_list() == [20000]
    assert df["variant"].unique().to_list() == ["four-hand-80"]
    meta = json.loads(pl.read_parquet_metadata(a)["binokel_sim"])
    assert meta["seed"] == 3 and meta["deals"] == 20000 and meta["variant"] == "four-hand-80"


def test_meld_odds_csv_same_seed_same_bytes_other_seed_differs(tmp_path):
    paths = [tmp_path / "a.csv", tmp_path / "b.csv", tmp_path / "c.csv"]
    for path, seed in zip(paths, ["3", "3", "4"]):
        ok("meld-odds", "-v", "two-hand-48", "-n", "20000", "-s", seed, "-o", str(path))
    assert paths[0].read_bytes() == paths[1].read_bytes()
    assert paths[0].read_bytes() != paths[2].read_bytes()


def test_meld_odds_one_thread_equals_two(two_threads):
    args = ["meld-odds", "-v", "four-hand-80", "-n", "40000", "-s", "9", "-f", "json"]
    one = ok(*args, "--threads", "1").stdout
    two = ok(*args, "--threads", str(two_threads)).stdout
    assert one == two


def test_meld_odds_json():
    obj = json.loads(ok("meld-odds", "-v", "two-hand-48", "-n", "5000", "-s", "2", "-f",
                        "json").stdout)
    assert obj["provenance"]["seed"] == 2 and obj["provenance"]["deals"] == 5000
    assert obj["provenance"]["variant"] == "two-hand-48"
    rows = obj["rows"]
    assert set(rows[0]) == {"meld", "count", "points", "hands", "probability", "ci_low",
                            "ci_high"}
    for meld in {r["meld"] for r in rows}:
        assert sum(r["hands"] for r in rows if r["meld"] == meld) == 5000


def test_meld_odds_exact_json():
    obj = json.loads(ok("meld-odds", "-v", "four-hand-80", "--exact", "--format", "json").stdout)
    assert obj["provenance"]["method"] == "exact"
    rows = obj["rows"]
    assert all(r["hands"] is None for r in rows)
    aces = {r["count"]: r["probability"] for r in rows if r["meld"] == "aces_around"}
    assert round(1 - aces[0], 7) == 0.2089527
    binokel = {r["count"]: r["probability"] for r in rows if r["meld"] == "binokel"}
    assert round(1 - binokel[0], 7) == 0.4716234
    for meld in {r["meld"] for r in rows}:
        assert abs(sum(r["probability"] for r in rows if r["meld"] == meld) - 1) < 1e-12


def test_meld_odds_table_output():
    result = ok("meld-odds", "-v", "two-hand-48", "-n", "2000")
    assert "binokel" in result.stdout and "best total meld" in result.stdout


# --- help ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["variants", "analyze", "meld-odds"])
def test_help_has_an_example(command):
    result = ok(command, "--help")
    assert "Example" in result.stdout


def test_top_level_help_lists_commands():
    result = ok("--help")
    for command in ("variants", "analyze", "meld-odds"):
        assert command in result.stdout


def test_version():
    from binokel_sim import __version__

    assert __version__ in ok("--version").stdout


# --- the real console script -----------------------------------------------------------------------------

def console_script() -> str:
    candidate = Path(sys.executable).parent / "binokel-sim"
    found = str(candidate) if candidate.exists() else shutil.which("binokel-sim")
    if found is None:
        pytest.skip("the binokel-sim console script is not installed")
    return found


def test_console_script_analyze():
    proc = subprocess.run([console_script(), "analyze", "-v", "two-hand-48", "--hand",
                           "AS AS AH AH AD AD AC AC TS TS TH TH", "--format", "json"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    obj = json.loads(proc.stdout)
    assert obj["by_trump"]["S"]["total"] == 1000  # eight aces


def test_console_script_error_is_one_line():
    # a long message (it lists all six variants) must not be wrapped at the terminal width
    proc = subprocess.run([console_script(), "analyze", "--variant", "no-such-variant-at-all"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1
    lines = proc.stderr.strip("\n").splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:")
    assert "no-such-variant-at-all" in lines[0] and "two-hand-48" in lines[0]
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("old,new,needle", [
    ("partnerships = [[0, 2], [1, 3]]", "partnerships = [0, 2]", "partnerships"),
    ('inside = ["run"]',
     'inside = ["aces_around", "kings_around", "queens_around", "jacks_around", "run"]',
     "inside"),
])
def test_malformed_rules_file_is_a_one_line_error(tmp_path, old, new, needle):
    text = resources.files("binokel_sim.variants").joinpath("four-hand-80.toml").read_text("utf-8")
    assert old in text
    path = tmp_path / "house.toml"
    path.write_text(text.replace(old, new), "utf-8")
    assert_one_line_error(invoke("analyze", "--rules", str(path), "--hand", HAND_80), needle)


def test_hands_file_not_utf8(tmp_path):
    path = tmp_path / "hands.txt"
    path.write_bytes(b"\xff\xfe AS TS\n")
    assert_one_line_error(invoke("analyze", "--hands-file", str(path)), "hands.txt")


def test_rules_file_not_utf8(tmp_path):
    path = tmp_path / "house.toml"
    path.write_bytes('name = "café"\n'.encode("latin-1"))
    assert_one_line_error(invoke("analyze", "--rules", str(path)), "house.toml")


def test_ragged_csv_hands_file_is_one_line(tmp_path):
    path = tmp_path / "hands.csv"
    path.write_text("hand,player\nAS TS,a\nAS TS,b,extra\n")
    assert_one_line_error(invoke("analyze", "--hands-file", str(path)), "hands.csv")


def test_corrupt_parquet_hands_file(tmp_path):
    path = tmp_path / "hands.parquet"
    path.write_text("not a parquet file")
    assert_one_line_error(invoke("analyze", "--hands-file", str(path)), "hands.parquet")


def test_hands_file_without_hands(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("# nothing here\n\n")
    assert_one_line_error(invoke("analyze", "--hands-file", str(path)), "no hands")


def test_hands_file_with_a_byte_order_mark(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_text("\ufeffAS TS KS QS QS JS 9S KH QH AD JD AC\n", encoding="utf-8")
    result = invoke("analyze", "--variant", "two-hand-48", "--hands-file", str(path),
                    "--format", "jsonl")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["hand"][0] == "AS"


def test_write_failure_is_a_one_line_error(tmp_path, monkeypatch):
    import polars as pl

    def fail(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pl.DataFrame, "write_csv", fail)
    out = tmp_path / "t.csv"
    assert_one_line_error(invoke("meld-odds", "--deals", "1000", "--out", str(out)),
                          "No space left")
    assert not out.exists()


def test_exact_still_rejects_bad_options():
    assert_one_line_error(invoke("meld-odds", "--exact", "--deals", "-5"), "--deals")
    assert_one_line_error(invoke("meld-odds", "--exact", "--threads", "0"), "--threads")


# --- bid-odds --known / --void ---------------------------------------------------------------------

def test_bid_odds_known_and_void_in_the_provenance():
    import json

    result = ok("bid-odds", "--deals", "2000", "--known", 'partner:AS AS', "--known", "3:KD",
                "--void", "left:H", "--format", "json")
    record = json.loads(result.stdout)["provenance"]
    assert record["known"] == "2:AS AS; 3:KD" and record["void"] == "1:H"
    plain = json.loads(ok("bid-odds", "--deals", "2000", "--format", "json").stdout)
    assert "known" not in plain["provenance"] and "void" not in plain["provenance"]


@pytest.mark.parametrize("args, needle", [
    (["--known", "cousin:AS"], "unknown seat"),
    (["--known", "partner:AS AS AS"], "more copies of AS"),
    (["--void", "left"], "write SEAT:SUIT"),
    (["--void", "1:S", "--void", "1:H", "--void", "1:D"], "no deal fits"),
    (["--variant", "three-hand-auction-48", "--void", "1:S H D C", "--void", "2:S H D C"],
     "no deal fits"),
    (["--variant", "four-hand-widow-48", "--known", "partner:AS AS AS"], "more copies of AS"),
])
def test_bid_odds_bad_constraints_one_line(args, needle):
    assert_one_line_error(invoke("bid-odds", "--deals", "1000", *args), needle)
