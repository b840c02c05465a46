"""The command line of the talon games: ``play``, ``duel``, ``match`` and ``deal-odds`` for
two-hand-48, three-hand-72 and four-hand-72 (and ``match`` for four-hand-80): the fields other
programs read, reproducibility, and one-line errors for bad input."""

from __future__ import annotations

import json

import pytest

from binokel_sim.variants import find_variant
from conftest import assert_one_line_error, invoke, ok
from talon_replay import replay_talon

TALON_VARIANTS = ["two-hand-48", "three-hand-72", "four-hand-72"]
RECORD_KEYS = ["deal", "variant", "dealer", "hands", "talon", "trump", "turned_dix", "tricks",
               "card_points", "meld_points", "scores"]
TRICK_KEYS = ["leader", "cards", "winner", "declaration", "draws"]


@pytest.mark.parametrize("variant", TALON_VARIANTS)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_play_jsonl_records(variant, policy):
    rules = find_variant(variant)
    result = ok("play", "--variant", variant, "--deals", "40", "--seed", "3", "--policy", policy,
                "--format", "jsonl")
    lines = result.stdout.splitlines()
    assert len(lines) == 40
    for d, line in enumerate(lines):
        record = json.loads(line)
        keys = RECORD_KEYS + (["pair_scores"] if rules.partnerships else [])
        assert list(record) == keys
        assert record["deal"] == d and record["dealer"] == d % rules.players
        assert record["variant"] == variant
        assert all(list(trick) == TRICK_KEYS for trick in record["tricks"])
        replay_talon(rules, record)
    again = ok("play", "--variant", variant, "--deals", "40", "--seed", "3", "--policy", policy)
    assert again.stdout == result.stdout


def test_play_json_array_and_out_file(tmp_path):
    array = json.loads(ok("play", "--variant", "two-hand-48", "--deals", "3", "--format",
                          "json").stdout)
    path = tmp_path / "deals.jsonl"
    ok("play", "--variant", "two-hand-48", "--deals", "3", "--out", str(path))
    assert [json.loads(line) for line in path.read_text().splitlines()] == array


@pytest.mark.parametrize("variant", TALON_VARIANTS)
def test_duel_json(variant):
    result = json.loads(ok("duel", "--variant", variant, "--deals", "3000", "--seed", "2",
                           "--format", "json").stdout)
    for key in ("deals", "mean_diff", "ci_low", "ci_high", "seed", "variant", "version"):
        assert key in result
    assert result["deals"] == 3000 and result["ci_low"] > 50  # the heuristic beats random
    assert result["ci_low"] <= result["mean_diff"] <= result["ci_high"]


@pytest.mark.parametrize("variant", TALON_VARIANTS + ["four-hand-80"])
def test_match_json(variant):
    args = ("match", "--variant", variant, "--games", "150", "--seed", "2", "--format", "json")
    result = json.loads(ok(*args).stdout)
    for key in ("games", "p_win_a", "ci_low", "ci_high", "mean_deals", "mean_final_score_a",
                "mean_final_score_b", "unfinished", "target"):
        assert key in result
    assert result["games"] == 150 and result["unfinished"] == 0
    assert result["target"] == find_variant(variant).game_target
    assert result["ci_low"] <= result["p_win_a"] <= result["ci_high"]
    assert result["p_win_a"] > 0.8 and result["mean_deals"] >= 1
    assert json.loads(ok(*args).stdout) == result
    table = ok("match", "--variant", variant, "--games", "50")
    assert "P(expert wins)" in table.stdout  # side A's default: expert where it plays


@pytest.mark.parametrize("variant", TALON_VARIANTS)
def test_deal_odds_json(variant):
    rules = find_variant(variant)
    args = ("deal-odds", "--variant", variant, "--deals", "4000", "--seed", "5", "--format",
            "json")
    result = json.loads(ok(*args).stdout)
    for key in ("p_win", "p_win_ci_low", "p_win_ci_high", "mean_score", "mean_card_points",
                "mean_meld", "mean_opponent_score", "mean_opponent_card_points", "quantiles",
                "static_meld", "provenance"):
        assert key in result
    assert result["hand"] and result["turned"] == rules.example_turned
    assert 0 <= result["p_win_ci_low"] <= result["p_win"] <= result["p_win_ci_high"] <= 1
    opponents = result["mean_opponent_card_points"]
    if rules.players == 2:
        assert isinstance(opponents, float)
        opponents = [opponents]
    else:
        assert len(opponents) == 2  # three-hand-72: the other two seats; four-hand-72: seats 1, 3
    assert list(result["quantiles"]) == ["10", "50", "90"]
    assert result["quantiles"]["10"] <= result["quantiles"]["50"] <= result["quantiles"]["90"]
    assert result["provenance"]["seed"] == 5 and result["provenance"]["deals"] == 4000
    assert json.loads(ok(*args, "--threads", "1").stdout) == result


def test_deal_odds_card_points_add_up():
    result = json.loads(ok("deal-odds", "--variant", "three-hand-72", "--deals", "3000",
                           "--format", "json").stdout)
    total = result["mean_card_points"] + sum(result["mean_opponent_card_points"])
    assert total == pytest.approx(370)


def test_deal_odds_dealer_scores_the_turned_nine():
    hand = "AS TS KS QS QS JS 9S KH QH AD JD AC"
    dealer = json.loads(ok("deal-odds", "--hand", hand, "--turned", "9H", "--seat", "dealer",
                           "--deals", "2000", "--policy", "random", "--format", "json").stdout)
    elder = json.loads(ok("deal-odds", "--hand", hand, "--turned", "9H", "--seat", "elder",
                          "--deals", "2000", "--policy", "random", "--format", "json").stdout)
    assert dealer["mean_meld"] >= 10 and dealer["static_meld"] == elder["static_meld"]
    assert dealer["mean_opponent_meld"] < elder["mean_opponent_meld"] + 10


def test_deal_odds_table_and_out_file(tmp_path):
    path = tmp_path / "odds.json"
    result = ok("deal-odds", "--deals", "2000", "--out", str(path))
    assert "out-score" in result.stdout
    assert json.loads(path.read_text())["provenance"]["variant"] == "two-hand-48"


BAD = [
    (["deal-odds", "--hand", "AS TS KS"], ["3 cards", "12"]),
    (["deal-odds", "--turned", "XX"], ["--turned", "XX"]),
    (["deal-odds", "--turned", "AS AH"], ["--turned", "one card"]),
    (["deal-odds", "--hand", "AS AS TS KS QS QS JS 9S KH QH JD AC", "--turned", "AS"],
     ["AS", "holds all"]),
    (["deal-odds", "--seat", "north", "--deals", "10"], ["--seat", "north"]),
    (["deal-odds", "--variant", "four-hand-80", "--deals", "10"], ["four-hand-80", "talon"]),
    (["deal-odds", "--variant", "three-hand-auction-48", "--deals", "10"], ["bid-odds"]),
    (["deal-odds", "--deals", "0"], ["--deals"]),
    (["deal-odds", "--deals", "10", "--out", "/nonexistent/x.json"], ["/nonexistent"]),
    (["deal-odds", "--deals", "10", "--out", "x.csv"], ["suffix"]),
    (["deal-odds", "--policy", "clever", "--deals", "10"], ["clever"]),
    (["match", "--games", "0"], ["--games"]),
    (["match", "--games", str(10**12)], ["--games"]),
    (["bid-odds", "--variant", "two-hand-48", "--deals", "10"], ["two-hand-48", "deal-odds"]),
    (["match", "--a", "clever", "--games", "2"], ["clever"]),
    (["match", "--variant", "nine-hand-99"], ["nine-hand-99"]),
    (["duel", "--variant", "two-hand-48", "--a", "clever", "--deals", "10"], ["clever"]),
]


@pytest.mark.parametrize("args, needles", BAD, ids=[" ".join(a)[:60] for a, _ in BAD])
def test_bad_input_is_one_line_error(args, needles):
    assert_one_line_error(invoke(*args), *needles)


@pytest.mark.parametrize("command", ["deal-odds", "match"])
def test_help(command):
    assert "Example" in ok(command, "--help").stdout


# --- deal-odds --known / --void -------------------------------------------------------------------

def test_deal_odds_known_and_void_in_the_provenance():
    import json

    result = ok("deal-odds", "--deals", "2000", "--known", "other:AH AH", "--void", "1:S",
                "--format", "json")
    record = json.loads(result.stdout)["provenance"]
    assert record["known"] == "1:AH AH" and record["void"] == "1:S"


@pytest.mark.parametrize("args, needle", [
    (["--known", "partner:AS"], "unknown seat"),
    (["--known", "other:9H 9H"], "more copies of 9H"),  # the turned 9H is the second copy
    (["--void", "other:S", "--void", "other:H", "--void", "other:D", "--void", "other:C"],
     "no deal fits"),
])
def test_deal_odds_bad_constraints_one_line(args, needle):
    assert_one_line_error(invoke("deal-odds", "--deals", "1000", *args), needle)


# --- the turned card is never assumed silently ---------------------------------------------------

def test_deal_odds_hand_without_turned_is_one_line_error():
    assert_one_line_error(invoke("deal-odds", "--hand", "AS TS KS QS QS JS 9S KH QH AD JD AC",
                                 "--deals", "1000"), "--turned", "--hand")


def test_deal_odds_example_hand_says_so_on_stderr():
    result = ok("deal-odds", "--deals", "1000", "--format", "json")
    notes = [line for line in result.stderr.splitlines() if line.startswith("note:")]
    assert len(notes) == 1
    assert "example hand of two-hand-48" in notes[0] and "turned card 9H" in notes[0]
    assert json.loads(result.stdout)["turned"] == "9H"
    own_turned = ok("deal-odds", "--turned", "9S", "--deals", "1000")
    assert "example hand" in own_turned.stderr and "turned card" not in own_turned.stderr
    quiet = ok("deal-odds", "--hand", "AS TS KS QS QS JS 9S KH QH AD JD AC", "--turned", "9H",
               "--deals", "1000")
    assert "note:" not in quiet.stderr


def test_max_deals_env_caps_with_a_warning(monkeypatch):
    monkeypatch.setenv("BINOKEL_SIM_MAX_DEALS", "1000")
    result = ok("deal-odds", "--turned", "9H", "--deals", "5000", "--format", "json")
    assert "--deals 5,000 capped at 1,000 by BINOKEL_SIM_MAX_DEALS" in result.stderr
    assert json.loads(result.stdout)["provenance"]["deals"] == 1000
    games = ok("match", "--games", "3000", "--format", "json")
    assert "--games 3,000 capped at 1,000" in games.stderr
    monkeypatch.setenv("BINOKEL_SIM_MAX_DEALS", "none")
    assert invoke("deal-odds", "--deals", "10").exit_code == 2
