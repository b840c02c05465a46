"""Sixty-six as a registered family (issue 51, item 6): ``play``'s records replay under the rules
(tests/sixty_six_replay.py, written from SPEC, imports nothing of the package) for every policy
and mixed seats, and equal the twin's deal for deal; the duel, match and deal-odds kernels
against the twin; the commands the family serves and the one-line refusals of those it does
not."""

from __future__ import annotations

import json

import numpy as np
import pytest

from binokel_sim.cards import parse_card, parse_cards
from binokel_sim.engines import engine
from binokel_sim.engines import sixty_six as drivers
from binokel_sim.errors import SimulationError
from binokel_sim.families import SIXTY_SIX, engine_family, supported_commands
from binokel_sim.game_blocks import GAME_BLOCK, MATCH_BLOCK
from binokel_sim.hands import parse_hand
from binokel_sim.kernels.policies import POLICY_HEURISTIC, POLICY_RANDOM
from binokel_sim.kernels.sixty_six.deals import SixtySixKnobs
from binokel_sim.odds import deal_odds
from binokel_sim.odds import sixty_six as odds66
from binokel_sim.records import sixty_six as records66
from binokel_sim.records.stream import play_records
from binokel_sim.reference import sixty_six as twin
from binokel_sim.variants import find_variant

from conftest import assert_one_line_error, runner
from sixty_six_replay import check_many, dealer_violations, replay

RULES = find_variant("sixty-six")
IDS = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC}
KNOBS = SixtySixKnobs()


def invoke(argv):
    from binokel_sim.cli import app

    return runner.invoke(app, list(argv))


def ok(result):
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    return result


def test_the_family_is_read_from_the_rules():
    assert engine_family(RULES) == SIXTY_SIX
    assert engine(RULES) is drivers
    assert supported_commands(RULES) == ("variants", "analyze", "meld-odds", "deal-odds", "batch",
                                         "report", "duel", "match", "play", "bench", "warm-up",
                                         "serve")


# --- the replay of play's records ----------------------------------------------------------------

def assert_replays(records):
    counts = check_many(records)
    found = [v for r in records for v in replay(r)] + dealer_violations(records)
    assert counts == {}, (counts, found[:5])


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_plays_records_replay_under_the_rules(policy):
    """Thousands of deals from play's stream (two blocks: the second starts at deal 1024)."""
    records = list(play_records(RULES, 3000, 17, policy))
    assert len(records) == 3000 and [r["deal"] for r in records] == list(range(3000))
    assert_replays(records)


@pytest.mark.parametrize("seats", [("random", "heuristic"), ("heuristic", "random")])
def test_mixed_seats_records_replay_under_the_rules(seats):
    played = drivers.run_seats(RULES, 2500, 4, seats)
    records = list(records66.records(played))
    assert_replays(records)
    reasons = {r["result"]["reason"] for r in records}
    assert {"claim", "wrong_claim", "failed_close"} <= reasons, reasons  # the random seat ends
    # most deals early (a coin decides its claims); test_sixty_six.py plays deals out


def test_the_replay_sees_a_broken_record_from_play():
    """The check can fail: one card of a simulated deal changed is a violation."""
    record = next(iter(play_records(RULES, 1, 3, "heuristic")))
    record["tricks"][0]["cards"].reverse()
    assert replay(record)


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_plays_records_equal_the_twins(policy):
    ours = list(play_records(RULES, 1100, 29, policy))
    theirs = twin.play_deals(RULES, KNOBS, [IDS[policy]] * 2, 1100, 29, GAME_BLOCK)
    assert len(ours) == len(theirs) == 1100
    for a, b in zip(ours, theirs):
        assert a == b, a["deal"]


def test_play_from_the_command_line_equals_the_twin():
    result = invoke(["play", "--variant", "sixty-six", "--deals", "40", "--seed", "8",
                     "--policy", "random", "--format", "jsonl"])
    ok(result)
    ours = [json.loads(line) for line in result.stdout.splitlines()]
    assert ours == twin.play_deals(RULES, KNOBS, [POLICY_RANDOM] * 2, 40, 8, GAME_BLOCK)


@pytest.mark.parametrize("fmt", ["json", "text", "parquet"])
def test_play_writes_every_format(fmt, tmp_path):
    out = tmp_path / f"deals.{'txt' if fmt == 'text' else fmt}"
    ok(invoke(["play", "--variant", "sixty-six", "--deals", "5", "--format", fmt, "-o",
               str(out)]))
    if fmt == "json":
        assert len(json.loads(out.read_text())) == 5
    elif fmt == "text":
        assert out.read_text().count("game point") == 5
    else:
        import polars as pl

        frame = pl.read_parquet(out)
        assert frame.height == 5 and frame.columns == list(records66.schema(RULES))


# --- duels, matches and samples against the twin -------------------------------------------------

@pytest.mark.parametrize("a,b", [("heuristic", "random"), ("random", "random")])
def test_the_duel_equals_the_twins(a, b):
    ours = drivers.run_duel(RULES, a, b, 1100, 5)
    theirs = twin.play_duel(RULES, KNOBS, [IDS[a], IDS[b]], 1100, 5, GAME_BLOCK)
    assert ours.tolist() == theirs


def test_a_policy_against_itself_without_chance_is_even_deal_for_deal():
    """The heuristic reads no random numbers: the two seatings of a deal are the same play with
    the seats swapped, so A minus B is 0 in every deal."""
    diff = drivers.run_duel(RULES, "heuristic", "heuristic", 2000, 3)
    assert not diff.any()
    assert drivers.run_duel(RULES, "heuristic", "random", 2000, 3).mean() > 1


def test_the_match_equals_the_twins():
    ours = drivers.run_match(RULES, "random", "heuristic", 150, 6)
    theirs = twin.play_match(RULES, KNOBS, POLICY_RANDOM, POLICY_HEURISTIC, 150, 6, MATCH_BLOCK,
                             RULES.game_target, 1000)
    assert ours.tolist() == theirs
    finished = ours[ours[:, 0] >= 0]
    winner_total = np.where(finished[:, 0] == 1, finished[:, 2], finished[:, 3])
    assert (winner_total >= 7).all() and (np.minimum(finished[:, 2], finished[:, 3]) < 7).all()


@pytest.mark.parametrize("policy,seat", [("random", "dealer"), ("heuristic", "elder")])
def test_the_samples_equal_the_twins(policy, seat):
    counts = parse_hand(RULES.example_hand, RULES)
    turned = parse_card(RULES.example_turned)
    dealer = 0 if seat == "dealer" else 1
    played = drivers.run_samples(RULES, counts, 1100, 2, policy, turned=turned, dealer=dealer)
    ours = list(records66.records(played))
    hand = set(parse_cards(RULES.example_hand))
    theirs = twin.play_samples(RULES, KNOBS, [IDS[policy]] * 2, hand, turned, dealer, 1100, 2,
                               GAME_BLOCK)
    for a, b in zip(ours, theirs):
        assert a == {**b, "deal": a["deal"]}, a["deal"]
    assert all(r["hands"][0] == records66.hand_cards(sum(1 << t for t in hand)) for r in ours)
    assert all(r["stock"][-1] == RULES.example_turned for r in ours)
    assert_replays_each(ours)
    # deal-odds' marriages that count, from the arrays, are the records'
    meld = odds66.counted_marriages(played)
    for r, m in zip(ours, meld.tolist()):
        assert m == [marriages_counted(r, s) for s in range(2)]


def assert_replays_each(records):
    bad = [v for r in records for v in replay(r)]
    assert not bad, bad[:5]


def marriages_counted(record, seat):
    if not record["tricks_won"][seat]:
        return 0
    shown = [t["marriage"] for t in record["tricks"] if t["marriage"] and t["leader"] == seat]
    claim = record["claim"]
    if claim and claim["marriage"] and claim["seat"] == seat:
        shown.append(claim["marriage"])
    return sum(m["points"] for m in shown)


def test_deal_odds_figures():
    counts = parse_hand("KH QH AH TH AS TS", RULES)
    strong = deal_odds(RULES, counts, parse_card("9H"), "elder", 3000, 1, "heuristic")
    weak = deal_odds(RULES, parse_hand("9S JS 9D JD 9C JC", RULES), parse_card("9H"), "elder",
                     3000, 1, "heuristic")
    assert strong["static_meld"] == 40 and weak["static_meld"] == 0
    assert strong["p_win_ci_low"] > weak["p_win_ci_high"]
    assert strong["mean_net_game_points_ci_low"] > weak["mean_net_game_points_ci_high"]
    assert strong["mean_score"] == pytest.approx(sum(
        v * c for v, c in zip(strong["score_histogram"]["score"],
                              strong["score_histogram"]["count"]["you"])) / 3000)


# --- the commands --------------------------------------------------------------------------------

def test_deal_odds_runs_without_arguments():
    result = invoke(["deal-odds", "--variant", "sixty-six", "--deals", "2000", "--format",
                     "json"])
    ok(result)
    document = json.loads(result.stdout)
    assert document["provenance"]["variant"] == "sixty-six"
    assert document["hand"] == parse_hand_cards(RULES.example_hand)
    assert document["turned"] == RULES.example_turned
    assert 0 <= document["p_win_ci_low"] <= document["p_win"] <= document["p_win_ci_high"] <= 1


def parse_hand_cards(text):
    return records66.hand_cards(sum(1 << t for t in parse_cards(text)))


def test_batch_and_report(tmp_path):
    hands = tmp_path / "hands.csv"
    hands.write_text('hand,turned,seat\n"KH QH AH TH AS TS",9H,elder\n"9S JS 9D JD 9C JC",9H,'
                     'dealer\n')
    result = invoke(["batch", "--variant", "sixty-six", "--hands-file", str(hands), "--deals",
                     "1000", "--format", "json"])
    ok(result)
    rows = json.loads(result.stdout)
    rows = rows["rows"] if isinstance(rows, dict) else rows
    assert [r["seat"] for r in rows] == ["elder", "dealer"]
    assert rows[0]["mean_meld"] > 0 and rows[0]["p_win"] > rows[1]["p_win"]
    ok(invoke(["report", "--variant", "sixty-six", "--deals", "1000", "-o",
               str(tmp_path / "report")]))
    assert "game points" in (tmp_path / "report" / "report.md").read_text()


def test_duel_and_match_from_the_command_line():
    result = invoke(["duel", "--variant", "sixty-six", "-a", "heuristic", "-b", "random",
                     "--deals", "2000", "--format", "json"])
    ok(result)
    document = json.loads(result.stdout)
    assert document["ci_low"] <= document["mean_diff"] <= document["ci_high"]
    result = invoke(["match", "--variant", "sixty-six", "--games", "200", "--format", "json"])
    ok(result)
    document = json.loads(result.stdout)
    assert document["target"] == 7 and document["games"] == 200


@pytest.mark.parametrize("argv,needle", [
    (["bid-odds"], "bid-odds supports"),
    (["calibrate"], "calibrate supports"),
    (["solve", "--hand", "AS TS KS QH JD 9C", "--other", "KH AH TD AD QC JC", "--trump", "H"],
     "is a sixty-six game (a stock that may be closed, a claim): solve supports four-hand-72, "
     "four-hand-80"),
    (["play", "--policy", "expert"], "policy expert"),
    (["duel", "-a", "heuristic+solver", "-b", "random"], "heuristic+solver"),
    (["deal-odds", "--known", "other:AH"], "--known and --void are not supported"),
    (["deal-odds", "--hand", "AS TS KS QH JD 9C", "--turned", "AS"], "is in your hand"),
])
def test_what_the_family_does_not_do_is_refused_in_one_line(argv, needle):
    result = invoke([argv[0], "--variant", "sixty-six", *argv[1:]])
    assert_one_line_error(result, needle)


@pytest.mark.parametrize("call,refusal", [
    (lambda c: drivers.run_samples(RULES, c, 10, 1, "random", turned=5, dealer=0, trumps=[0]),
     "takes no trumps"),
    (lambda c: drivers.run_samples(RULES, c, 10, 1, "random", dealer=0), "needs turned"),
    (lambda c: drivers.run_duel(RULES, "random", "random", 10, 1, inference="off"),
     "neither policy is sampling"),
    (lambda c: drivers.run_duel(RULES, "random", "random", 10, 1, samples_per_move=4),
     "samples-per-move"),
])
def test_the_engine_refuses_what_it_has_no_use_for(call, refusal):
    counts = parse_hand(RULES.example_hand, RULES)
    with pytest.raises(SimulationError, match=refusal):
        call(counts)


def test_one_deal_of_a_run_alone_is_its_record_in_the_run():
    whole = invoke(["play", "--variant", "sixty-six", "--deals", "1030", "--seed", "3",
                    "--format", "jsonl"])
    alone = invoke(["play", "--variant", "sixty-six", "--deal", "1029", "--seed", "3",
                    "--format", "jsonl"])
    assert ok(alone).stdout == ok(whole).stdout.splitlines(keepends=True)[-1]


def test_the_contests_and_samples_do_not_depend_on_the_threads(two_threads):
    counts = parse_hand(RULES.example_hand, RULES)
    turned = parse_card(RULES.example_turned)
    runs = []
    for threads in (1, two_threads):
        duel = drivers.run_duel(RULES, "random", "heuristic", 3000, 9, threads=threads)
        match = drivers.run_match(RULES, "random", "random", 300, 9, threads=threads)
        samples = drivers.run_samples(RULES, counts, 3000, 9, "random", threads=threads,
                                      turned=turned, dealer=1)
        runs.append((duel, match, samples.deals))
    (d1, m1, s1), (d2, m2, s2) = runs
    assert np.array_equal(d1, d2) and np.array_equal(m1, m2)
    assert all(np.array_equal(a, b) for a, b in zip(s1, s2))


def test_the_pages_deal_odds_is_the_cli_document():
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from binokel_sim.web.questions import Limits
    from tests.test_web_api import BASE, app_of

    args = {"variant": "sixty-six", "deals": "2000", "seed": "9", "seat": "dealer",
            "hand": "KH QH AH TH AS TS", "turned": "9D"}
    with TestClient(app_of(Limits(max_deals=200_000, max_sampling_deals=20)),
                    base_url=BASE) as client:
        reply = client.get("/api/deal-odds", params=args)
        assert reply.status_code == 200, reply.text
        page = client.get("/", params={"variant": "sixty-six"})
        assert page.status_code == 200 and "sixty-six" in page.text
    cli = [item for key, value in args.items() for item in (f"--{key}", value)]
    result = invoke(["deal-odds", *cli, "--format", "json"])
    assert reply.json() == json.loads(ok(result).stdout)
