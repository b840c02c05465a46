"""``play --format text``: a deal as a person reads it (hands by seat, the auction or the talon,
the widow's handling, each trick with who played what and who won it, the scores), within 80
columns, for every engine family."""

from __future__ import annotations

import re

import pytest
from conftest import VARIANT_NAMES, ok

from binokel_sim.deal_text import WIDTH, deal_text
from binokel_sim.records.stream import play_records
from binokel_sim.variants import find_variant

TRICK = re.compile(r"^ *(\d+)\. ((?:\w\w\(\d\) ?)+) won by (\d)")


def blocks(name: str, deals: int, seed: int = 1, policy: str = "heuristic"):
    rules = find_variant(name)
    return [(record, deal_text(record, rules))
            for record in play_records(rules, deals, seed, policy)]


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_the_text_shows_what_the_record_holds(name):
    rules = find_variant(name)
    for record, text in blocks(name, 12, policy="random"):
        lines = text.splitlines()
        assert max(len(line) for line in lines) <= WIDTH
        assert lines[0] == f"deal {record['deal']}, {name}, dealer seat {record['dealer']}"
        for seat, hand in enumerate(record["hands"]):  # every seat's hand, grouped by suit
            row = next(line for line in lines if line.startswith(f"  seat {seat} "))
            shown = re.findall(r"([SHDC]): ([^ ].*?)(?=   [SHDC]:|$)", row)
            assert [f"{r}{suit}" for suit, ranks in shown for r in ranks.split()] == hand
        tricks = [TRICK.match(line) for line in lines if TRICK.match(line)]
        assert len(tricks) == len(record["tricks"])
        for k, (match, trick) in enumerate(zip(tricks, record["tricks"]), 1):
            assert int(match.group(1)) == k and int(match.group(3)) == trick["winner"]
            played = re.findall(r"(\w\w)\((\d)\)", match.group(2))
            assert [card for card, _ in played] == trick["cards"]
            assert [int(seat) for _, seat in played] == [
                (trick["leader"] + i) % rules.players for i in range(len(trick["cards"]))]
        if "stock" in record:  # sixty-six: the deal ends in game points to one seat
            result = record["result"]
            assert lines[-1].startswith(f"seat {result['seat']} scores "
                                        f"{result['game_points']} game point")
            assert lines[-1].endswith(f"({result['reason']})")
            assert f"points by seat: 0 {record['points'][0]}, 1 {record['points'][1]}" in lines
            continue
        scores = next(line for line in lines if line.startswith("scores by"))
        if "pair_scores" in record or name == "four-hand-80":
            pairs = record.get("pair_scores", record["scores"])
            assert lines[-1] == f"scores by pair: 0+2 {pairs[0]}, 1+3 {pairs[1]}"
        else:
            assert scores == "scores by seat: " + ", ".join(
                f"{s} {v}" for s, v in enumerate(record["scores"]))


def test_four_hand_80_shows_the_auction_and_the_trump():
    for record, text in blocks("four-hand-80", 8):
        calls = " ".join(text.split("auction (seat:bid): ")[1].split("\n")[:3])
        for call in record["bids"]:
            assert f"{call['seat']}:{'pass' if call['bid'] is None else call['bid']}" in calls
        assert (f"seat {record['bidder']} holds the bid at {record['bid']} and names "
                f"{record['trump']} trump") in text
        assert f"card points by pair: 0+2 {record['play_points'][0]}" in text


def test_talon_games_show_the_turned_card_declarations_and_draws():
    seen_declaration = False
    for record, text in blocks("two-hand-48", 10):
        assert f"turned card {record['talon'][-1]}: {record['trump']} trump" in text
        flat = " ".join(text.split())
        for trick in record["tricks"]:
            if trick["declaration"] is not None:
                seen_declaration = True
                d = trick["declaration"]
                assert f"{trick['winner']} declares {d['meld']} {' '.join(d['cards'])} " \
                       f"({d['points']})" in flat
            if trick["draws"]:
                assert "draws " + trick["draws"][0] in flat
    assert seen_declaration


def test_widow_games_show_the_widow_demand_and_burial():
    for record, text in blocks("three-hand-auction-48", 10):
        soloist = record["soloist"]
        assert f"seat {soloist} plays alone at {record['bid']}" in text
        assert "left of the dealer, leads" not in text  # the soloist leads
        assert f"seat {soloist} buries {' '.join(record['buried'])} and names " \
               f"{record['trump']} trump" in text
        if record["demand"] is not None:
            assert f"demands {record['demand']['card']}: seat {record['demand']['from']}" in text


def test_cli_text_to_stdout_and_to_a_file(tmp_path):
    out = ok("play", "--variant", "four-hand-widow-48", "--deals", "3", "--seed", "2",
             "--format", "text").stdout
    assert out.startswith("binokel-sim play: variant four-hand-widow-48, version ")
    assert out.count("\ndeal ") == 3 and "dealer seat 2" in out
    assert max(len(line) for line in out.splitlines()) <= WIDTH
    path = tmp_path / "deals.txt"
    result = ok("play", "--variant", "four-hand-widow-48", "--deals", "3", "--seed", "2",
                "--out", str(path))
    assert path.read_text() == out and result.stderr.strip() == f"wrote {path}"


def test_partnership_widow_games_name_the_partner_and_the_swabian_games_the_first_lead():
    for record, text in blocks("kreuz-4-40", 10):
        soloist = record["soloist"]
        assert f"seat {soloist} plays with seat {(soloist + 2) % 4} at {record['bid']}" in text
        leader = (record["dealer"] + 1) % 4
        if record["conceded"]:  # no lead: the soloist gave up (Abgehen)
            assert f"seat {soloist} gives up before the first lead" in text
        else:
            assert f"seat {leader}, left of the dealer, leads" in text
        assert "demands" not in text
