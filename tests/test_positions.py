"""Positions (binokel_sim/positions/): a play record cut at a card read as what each seat holds,
checked against the rest of the same record; and ``solve --position`` (binokel_sim/endgame.py)
on records of every strict-trick family it reads."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from binokel_sim.cards import parse_card
from binokel_sim.endgame import solve_position
from binokel_sim.positions import read_position
from binokel_sim.solver import card_points_of
from binokel_sim.variants import find_variant

from conftest import assert_one_line_error, invoke, ok

GAMES = ["four-hand-80", "kreuz-4-40", "swabian-3-40", "four-hand-widow-48",
         "three-hand-auction-48", "two-hand-48", "three-hand-72", "four-hand-72"]
OUTCOME = ("card_points", "bonus", "made", "scores", "pair_scores", "melds", "meld_points")


def phase_1(rules) -> int:
    """The tricks of free play before strict play starts: a talon's (0 elsewhere)."""
    return rules.talon // rules.players


def records(variant: str, policy: str, deals: int, seed: int) -> list[dict]:
    result = ok("play", "--variant", variant, "--deals", str(deals), "--seed", str(seed),
                "--policy", policy, "--format", "jsonl")
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def cut(record: dict, k: int, j: int) -> dict:
    """The record cut after ``k`` tricks and ``j`` cards of the next, outcome fields removed
    (a talon game's declarations and draws are kept: they change the hands)."""
    out = {f: v for f, v in record.items() if f not in OUTCOME}
    tricks = [{f: v for f, v in t.items() if f != "winner"} for t in record["tricks"][:k]]
    if j:
        trick = record["tricks"][k]
        tricks.append({"leader": trick["leader"], "cards": trick["cards"][:j]})
    out["tricks"] = tricks
    return out


def played(record: dict) -> list[tuple[int, int, int]]:
    """Every card of the record's tricks as ``(trick, seat, card)``, in play order."""
    n = len(record["hands"])
    return [(k, (t["leader"] + i) % n, parse_card(c)) for k, t in enumerate(record["tricks"])
            for i, c in enumerate(t["cards"])]


@pytest.mark.parametrize("variant", GAMES)
def test_a_cut_record_holds_the_cards_played_later(variant):
    """At every cut (in strict play: after a talon's tricks), each seat holds exactly the cards
    it plays later in the same deal; the table, the leader and the tricks won are the
    record's."""
    rules = find_variant(variant)
    rng = random.Random(5)
    seen = 0
    for policy, deals in (("expert", 120), ("random", 60)):
        for record in records(variant, policy, deals, 3):
            if not record.get("tricks"):
                continue  # conceded, or nobody bid
            n = len(record["hands"])
            k = rng.randrange(phase_1(rules), len(record["tricks"]))
            j = rng.randrange(n)
            position = read_position(rules, cut(record, k, j))
            later = [np.zeros(24, np.int64) for _ in range(n)]
            for i, (trick, seat, card) in enumerate(played(record)):
                if i >= k * n + j:
                    later[seat][card] += 1
            assert all((h == w).all() for h, w in zip(position.hands, later)), (record, k, j)
            assert position.leader == record["tricks"][k]["leader"]
            assert [parse_card(c) for c in record["tricks"][k]["cards"][:j]] == \
                list(position.table)
            assert position.won == tuple(sum(t["winner"] == s for t in record["tricks"][:k])
                                         for s in range(n))
            seen += 1
    assert seen > 100


def test_a_talon_record_is_read_once_the_talon_is_gone(tmp_path):
    rules = find_variant("two-hand-48")
    record = records("two-hand-48", "expert", 1, 4)[0]
    assert read_position(rules, cut(record, 12, 0)).tricks_left == 12
    path = tmp_path / "early.json"
    path.write_text(json.dumps(cut(record, 11, 0)))
    assert_one_line_error(invoke("solve", "--position", str(path)),
                          "the talon lasts 12 tricks and the record has 11")
    bad = cut(record, 12, 0)
    bad["tricks"][0]["draws"] = list(reversed(bad["tricks"][0]["draws"]))
    path.write_text(json.dumps(bad))
    if bad["tricks"][0]["draws"][0] != record["tricks"][0]["draws"][0]:
        assert_one_line_error(invoke("solve", "--position", str(path)), "draws")


@pytest.mark.parametrize("variant", GAMES)
def test_the_last_trick_solves_to_what_it_gave(variant):
    """One trick left, every card forced: the value is what the record's last trick gave the
    side of its leader (its card points, and the last trick's bonus to its winner)."""
    rules = find_variant(variant)
    points = card_points_of(rules)
    for record in records(variant, "expert", 40, 8):
        if not record.get("tricks") or record.get("durch") or record.get("bettel"):
            continue
        last = record["tricks"][-1]
        position = read_position(rules, cut(record, len(record["tricks"]) - 1, 0))
        result = solve_position(rules, position)
        side = position.sides[last["leader"]]
        trick = sum(int(points[parse_card(c)]) for c in last["cards"]) + rules.last_trick
        assert result["value"] == (trick if position.sides[last["winner"]] == side else 0)
        assert result["tricks_left"] == 1 and len(result["moves"]) == 1


def test_solve_a_four_hand_80_record_cut_after_trick_14(tmp_path):
    record = records("four-hand-80", "expert", 1, 11)[0]
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(cut(record, 14, 0)))
    doc = json.loads(ok("solve", "--variant", "four-hand-80", "--position", str(path),
                        "--format", "json").stdout)
    assert doc["tricks_left"] == 6 and doc["tricks_done"] == 14
    assert doc["unit"] == "card points" and 0 <= doc["value"] <= doc["total"]
    values = {m["card"]: m["value"] for m in doc["moves"]}
    assert doc["value"] == max(values.values())
    assert doc["best"] == [c for c, v in values.items() if v == doc["value"]]
    text = ok("solve", "--variant", "four-hand-80", "--position", str(path)).stdout
    assert "6 tricks to play after 14" in text and "best" in text


def test_a_durch_is_solved_in_tricks(tmp_path):
    rules = find_variant("kreuz-4-40")
    durch = next(r for r in records("kreuz-4-40", "expert", 3000, 1) if r["durch"])
    result = solve_position(rules, read_position(rules, cut(durch, 0, 0)))
    assert result["unit"] == "tricks" and result["contract"] == "durch"
    assert result["trump"] is None
    assert result["made"] == (result["value"] == 9)
    assert result["side"] == [durch["soloist"], (durch["soloist"] + 2) % 4]


def test_bad_positions_are_one_line(tmp_path):
    record = records("kreuz-4-40", "expert", 1, 3)[0]
    good = tmp_path / "good.json"
    good.write_text(json.dumps(cut(record, 4, 0)))

    def write(name, data):
        path = tmp_path / name
        path.write_text(data if isinstance(data, str) else json.dumps(data))
        return str(path)

    assert_one_line_error(invoke("solve", "-v", "kreuz-4-40", "--position",
                                 str(tmp_path / "none.json")), "cannot read")
    assert_one_line_error(invoke("solve", "-v", "kreuz-4-40", "--position",
                                 write("bad.json", "{not json")), "not a JSON record")
    assert_one_line_error(invoke("solve", "-v", "swabian-3-40", "--position", str(good)),
                          "give --variant kreuz-4-40")
    wrong = cut(record, 4, 0)
    wrong["tricks"][1]["cards"][1] = wrong["tricks"][1]["cards"][0]
    assert_one_line_error(invoke("solve", "-v", "kreuz-4-40", "--position",
                                 write("wrong.json", wrong)), "trick 2")
    early = cut(record, 0, 0)
    assert_one_line_error(invoke("solve", "-v", "four-hand-80", "--position",
                                 write("early.json", {**early, "variant": "four-hand-80"})),
                          "hand")
    assert_one_line_error(invoke("solve", "-v", "kreuz-4-40", "--position", str(good),
                                 "--hand", "AS"), "not both")
    assert_one_line_error(invoke("solve", "-v", "kreuz-4-40", "--hand", "AS", "--other", "KS",
                                 "-t", "S"), "--position")
    assert_one_line_error(invoke("solve", "-v", "two-hand-48", "--hand", "AS"), "--other")
    assert_one_line_error(invoke("solve", "-v", "sixty-six", "--position", str(good)),
                          "sixty-six")
    long = records("four-hand-80", "expert", 1, 2)[0]
    assert_one_line_error(invoke("solve", "-v", "four-hand-80", "--position",
                                 write("long.json", cut(long, 5, 0))), "at most 10")
