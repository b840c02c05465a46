"""The house options of SPEC's "Today's practice: values and house options (turn 4)", each a
rules-file key the widow family honours (engine, twin, records, the independent replay) or a
family refuses in one line.

``[widow] concede_payout = "half_bid"``: after Abgehen every opposing side scores its meld plus
half the bid, rounded up to the ladder's step, instead of ``concede_bonus``. The soloist's own
score (minus the bid) does not change, so neither does his decision to give up.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_abgehen import house
from test_variants import builtin_dict
from test_widow_switches import heuristic_mix
from widow_replay import replay_widow

from binokel_sim.engines import widow as widow_games
from binokel_sim.kernels.widow.score import concede_payout as kernel_payout
from binokel_sim.records.widow import records as widow_records
from binokel_sim.reference.widow_score import concession_payout, rounded, score_conceded
from binokel_sim.variants import RulesError, find_variant, rules_from_dict

from conftest import assert_one_line_error, invoke, ok


def with_keys(name: str, ladder_from: int | None = None, **sections: dict):
    """Built-in game ``name`` with these keys per section (``widow={"concede_payout": ...}``; a
    value None removes the key), bidding from ``ladder_from`` when given."""
    data = builtin_dict(name)
    if ladder_from is not None:
        data["bidding"]["ladder"] = [[ladder_from, 10]]
    for section, keys in sections.items():
        for key, value in keys.items():
            if value is None:
                data[section].pop(key, None)
            else:
                data[section][key] = value
    return rules_from_dict(data, f"{name} (house)")


def half_bid(name: str, ladder_from: int | None = 300):
    """A built-in widow game paying half the bid after Abgehen (the bonus key removed: the two
    are refused together), bidding from ``ladder_from`` so that soloists often give up."""
    return with_keys(name, ladder_from, widow={"concede_bonus": None,
                                               "concede_payout": "half_bid"})


# --- the key -------------------------------------------------------------------------------------

def test_the_payout_key_and_its_refusals():
    assert house("swabian-3-40").concede_payout == "bonus"
    assert half_bid("kreuz-4-40").concede_payout == "half_bid"
    data = builtin_dict("swabian-3-40")
    data["widow"]["concede_payout"] = "half_bid"  # and the built-in concede_bonus = 30
    with pytest.raises(RulesError, match="concede_bonus: with concede_payout"):
        rules_from_dict(data)
    data["widow"]["concede_payout"] = "everything"
    with pytest.raises(RulesError, match="concede_payout: 'everything' is not one of bonus, "
                                         "half_bid"):
        rules_from_dict(data)
    data = builtin_dict("swabian-3-40")
    data["widow"] = {"concede": False, "concede_payout": "bonus"}
    with pytest.raises(RulesError, match="only a game with Abgehen"):
        rules_from_dict(data)
    data = builtin_dict("four-hand-80")
    data["widow"] = {"concede_payout": "half_bid"}
    with pytest.raises(RulesError, match="only a game with a widow"):
        rules_from_dict(data)


def test_a_bad_payout_in_a_rules_file_is_one_line(tmp_path):
    text = ok("variants", "--show", "swabian-3-40").stdout
    path = tmp_path / "house.toml"
    path.write_text(text.replace("concede_bonus = 30", 'concede_payout = "all"'))
    assert_one_line_error(invoke("play", "--rules", str(path), "-n", "1"), "concede_payout")


@pytest.mark.parametrize("ladder, bid, payout", [
    ([[150, 10]], 150, 80), ([[150, 10]], 270, 140), ([[150, 10]], 300, 150),
    ([[150, 10]], 310, 160), ([[50, 1], [60, 5]], 55, 28), ([[50, 1], [60, 5]], 65, 35),
    ([[50, 1], [60, 5]], 70, 35), ([[300, 25]], 325, 175),
])
def test_half_the_bid_rounded_up_to_the_step(ladder, bid, payout):
    """Known answers, from the kernel and from the twin."""
    data = builtin_dict("swabian-3-40")
    data["bidding"]["ladder"] = ladder
    data["widow"].pop("concede_bonus")
    data["widow"]["concede_payout"] = "half_bid"
    rules = rules_from_dict(data)
    assert concession_payout(rules, bid) == payout
    assert kernel_payout(30, True, bid, np.array(ladder, dtype=np.int64)) == payout
    assert kernel_payout(30, False, bid, np.array(ladder, dtype=np.int64)) == 30


@pytest.mark.parametrize("name, melds, soloist, bid, scores", [
    ("swabian-3-40", [40, 100, 20], 0, 270, [-270, 240, 160]),
    ("kreuz-4-40", [40, 100, 20, 60], 1, 200, [160, -200, 160, -200]),  # once per side
])
def test_the_score_of_a_deal_given_up_for_half_the_bid(name, melds, soloist, bid, scores):
    from binokel_sim.kernels.widow.score import score_conceded as kernel_score

    rules = half_bid(name, None)
    assert score_conceded(rules, soloist, bid, melds).scores == scores
    got = np.zeros(rules.players, dtype=np.int64)
    kernel_score(np.array(melds, dtype=np.int64), soloist, bid, rules.players,
                 bool(rules.partnerships), kernel_payout(0, True, bid, np.array([[150, 10]])),
                 got, np.zeros((4, 4), np.int64))
    assert got.tolist() == scores


# --- played ----------------------------------------------------------------------------------

@pytest.fixture(params=["swabian-3-40", "kreuz-4-40"])
def paying(request):
    return half_bid(request.param)


def test_heuristic_deals_equal_the_twin(paying):
    _, kernel, twin = heuristic_mix(paying, "some", 100)
    assert kernel == twin
    assert any(r["conceded"] for r in kernel)


def test_records_replay_and_pay_half_the_bid(paying):
    played = widow_games.run_play(paying, 2000, 31, "heuristic")
    records = list(widow_records(played))
    for record in records:
        replay_widow(paying, record)
    given_up = [r for r in records if r["conceded"]]
    assert len(given_up) > 50
    for r in given_up:
        opponent = (r["soloist"] + 1) % paying.players
        side = [s for s in range(paying.players)
                if s % 2 == opponent % 2] if paying.partnerships else [opponent]
        meld = sum(r["melds"][s] for s in side)
        assert r["scores"][opponent] == meld + -(-r["bid"] // 20) * 10


def test_the_checker_refuses_the_bonus_where_half_the_bid_is_paid(paying):
    played = widow_games.run_play(paying, 300, 3, "heuristic")
    record = next(r for r in widow_records(played) if r["conceded"])
    replay_widow(paying, record)
    broken = dict(record, scores=[s if i == record["soloist"] or (
        paying.partnerships and i % 2 == record["soloist"] % 2) else s - record["bid"] // 2 + 30
        for i, s in enumerate(record["scores"])])
    with pytest.raises(AssertionError, match="gave up"):
        replay_widow(paying, broken)


def test_the_text_view_says_half_the_bid():
    from binokel_sim.deal_text import deal_text

    rules = half_bid("swabian-3-40")
    record = next(r for r in widow_records(widow_games.run_play(rules, 300, 3, "heuristic"))
                  if r["conceded"])
    assert "the others score their melds + half the bid" in deal_text(record, rules)


# --- [points] round_to -----------------------------------------------------------------------

def rounding(name: str, round_to: int = 10):
    return with_keys(name, points={"round_to": round_to})


@pytest.mark.parametrize("points, step, want", [
    (64, 10, 60), (65, 10, 70), (0, 10, 0), (5, 10, 10), (250, 10, 250), (4, 3, 3), (5, 3, 6),
    (7, 1, 7),
])
def test_rounded_known_answers(points, step, want):
    assert rounded(points, step) == want


@pytest.mark.parametrize("name", ["four-hand-80", "two-hand-48", "sixty-six"])
def test_round_to_is_refused_where_the_engine_counts_exactly(name):
    data = builtin_dict(name)
    data["points"]["round_to"] = 10
    with pytest.raises(RulesError, match="points.round_to: only the widow games"):
        rules_from_dict(data)


def test_the_score_rounds_each_sides_card_points():
    """Kernel and twin: the soloist's 145 card points are 150 and make a bid of 150 with no
    meld; unrounded they would not."""
    from binokel_sim.engines.widow import family_tables
    from binokel_sim.kernels.widow.deals import score_widow
    from binokel_sim.reference.widow_score import Trick, score_deal

    for rules, made, scores in ((rounding("swabian-3-40"), True, [150, 50, 50]),
                                (find_variant("swabian-3-40"), False, [-300, 54, 51])):
        melds, card_pts = [0, 0, 0], [145, 54, 51]
        tricks = [Trick(0, [], 0), Trick(1, [], 1), Trick(2, [], 2)]
        score = score_deal(rules, 0, 150, melds, card_pts, tricks)
        assert (score.made, score.scores) == (made, scores)
        got = np.zeros(3, dtype=np.int64)
        out = score_widow(np.array(melds), np.array(card_pts), np.array([10, 1, 1]), 0, 150,
                          family_tables(rules).cfg, got)
        assert bool(out[1]) == made and got.tolist() == scores


@pytest.fixture(params=["swabian-3-40", "kreuz-4-40"])
def rounded_game(request):
    return rounding(request.param)


def test_rounded_deals_equal_the_twin(rounded_game):
    _, kernel, twin = heuristic_mix(rounded_game, "some", 100)
    assert kernel == twin


def test_rounded_records_replay(rounded_game):
    played = widow_games.run_play(rounded_game, 2000, 17, "heuristic")
    records = list(widow_records(played))
    for record in records:
        replay_widow(rounded_game, record)
    # melds, bids and bonuses are tens: with the card points rounded every score is
    assert all(s % 10 == 0 for r in records for s in r["scores"])
    played = [r for r in records if r["tricks"] and r["trump"] is not None]
    # the rounding decides a contract now and then: some soloist's exact total misses the bid
    # by less than 5 and makes it, or reaches it and misses after rounding down
    close = [r for r in played if abs(_exact_total(rounded_game, r) - r["bid"]) < 5]
    assert close and any(r["made"] != (_exact_total(rounded_game, r) >= r["bid"])
                         for r in close)


def _exact_total(rules, record) -> int:
    side = ([s for s in range(rules.players) if s % 2 == record["soloist"] % 2]
            if rules.partnerships else [record["soloist"]])
    took = any(t["winner"] in side for t in record["tricks"])
    return (sum(record["card_points"][s] for s in side)
            + (sum(record["melds"][s] for s in side) if took else 0))


def test_a_sampling_soloist_plays_the_rounded_score():
    rules = rounding("swabian-3-40")
    names = ["sampling"] + ["heuristic"] * 2
    from binokel_sim.kernels.policies import POLICY_NAMES
    from binokel_sim.reference import widow as widow_twin
    from test_widow import kernel_records

    kernel = kernel_records(rules, [POLICY_NAMES[n] for n in names], 6, 23, 0, 2, 0,
                            n_samples=3)
    assert kernel == widow_twin.play_deals(rules, 6, 23, 2, policies=names, n_samples=3)


# --- [bidding] all_pass = "vorhand_opens" ------------------------------------------------------

def vorhand_opens(name: str):
    return with_keys(name, bidding={"all_pass": "vorhand_opens"})


def test_all_pass_values_and_refusals():
    assert vorhand_opens("swabian-3-40").all_pass == "vorhand_opens"
    assert find_variant("kreuz-4-40").all_pass == "dealer_at_minimum"
    assert with_keys("swabian-3-40", bidding={"all_pass": "redeal"}).all_pass == "redeal"
    data = builtin_dict("four-hand-80")
    data["bidding"]["all_pass"] = "vorhand_opens"
    with pytest.raises(RulesError, match="played by the widow games only"):
        rules_from_dict(data)


@pytest.fixture(params=["swabian-3-40", "kreuz-4-40", "three-hand-auction-48"])
def opening(request):
    return vorhand_opens(request.param)


@pytest.mark.parametrize("mix", ["all", "some"])
def test_vorhand_opens_deals_equal_the_twin(opening, mix):
    _, kernel, twin = heuristic_mix(opening, mix, 100)
    assert kernel == twin
    assert all(r["bids"][0]["bid"] is not None for r in kernel)


def test_vorhand_opens_records_replay(opening):
    for policy in ("random", "heuristic"):
        records = list(widow_records(widow_games.run_play(opening, 2000, 5, policy)))
        for record in records:
            replay_widow(opening, record)
        first = [r["bids"][0] for r in records]
        assert all(c["bid"] == opening.bid_ladder[0][0] for c in first)
        assert all(c["seat"] == (r["dealer"] + 1) % opening.players
                   for c, r in zip(first, records))
    # the same deals under the built-in rule: a random Vorhand passes in half of them
    plain = list(widow_records(widow_games.run_play(find_variant(opening.name), 2000, 5,
                                                    "random")))
    assert 0.4 < sum(r["bids"][0]["bid"] is None for r in plain) / 2000 < 0.6


def test_the_checker_refuses_vorhand_passing(opening):
    built_in = find_variant(opening.name)
    record = next(r for r in widow_records(widow_games.run_play(built_in, 300, 5, "random"))
                  if r["bids"][0]["bid"] is None)
    replay_widow(built_in, record)
    with pytest.raises(AssertionError, match="Vorhand .* passes at his first call"):
        replay_widow(opening, record)


# --- all_pass = "redeal" ------------------------------------------------------------------------

def test_redeal_voids_a_deal_nobody_bid_on():
    """swabian-3-40 with all_pass = "redeal": the expert's weg leaves some deals without a bid;
    those show as redealt (no contract, nothing counts), replay under the rules, read so in the
    text, and equal the twin (expert and random seats); every other deal is the plain game's,
    and the plain game plays the same voided deals as the dealer's at the minimum."""
    from test_widow import kernel_records
    from widow_replay import replay_widow

    from binokel_sim.deal_text import deal_text
    from binokel_sim.engines.widow import run_play
    from binokel_sim.kernels.policies import POLICY_EXPERT, POLICY_RANDOM
    from binokel_sim.kernels.widow.deals import I_REDEALT
    from binokel_sim.records.widow import records
    from binokel_sim.reference import widow as twin

    rules = with_keys("swabian-3-40", bidding={"all_pass": "redeal"})
    played = run_play(rules, 1500, 2, "expert")
    plain = run_play(find_variant("swabian-3-40"), 1500, 2, "expert")
    void = played.info[:, I_REDEALT] != 0
    assert 50 < void.sum() < 750
    assert (played.scores[void] == 0).all() and (plain.scores[void] != 0).any()
    assert (played.scores[~void] == plain.scores[~void]).all()
    recs = list(records(played))
    for rec in recs:
        replay_widow(rules, rec)
        assert rec["redealt"] is bool(void[rec["deal"]])
    voided = next(r for r in recs if r["redealt"])
    assert voided["soloist"] is None and voided["tricks"] == [] and voided["scores"] == [0] * 3
    assert "nobody bid: the deal is void" in deal_text(voided, rules)
    for names, ids in ((["expert"] * 3, [POLICY_EXPERT] * 3),
                       (["random"] * 3, [POLICY_RANDOM] * 3)):
        kernel = kernel_records(rules, ids, n=70, seed=2, first_block=0, block_size=7,
                                first_deal=0)
        assert kernel == twin.play_deals(rules, 70, 2, 7, policies=names)
        assert any(r["redealt"] for r in kernel)
    bad = dict(voided, scores=[0, 10, -10])
    with pytest.raises(AssertionError, match="voided deal"):
        replay_widow(rules, bad)


def test_redeal_in_duels_matches_and_calibration():
    """A voided deal scores nothing for either side in a duel, counts as a deal of a game, and
    has no forecast in calibrate."""
    from binokel_sim.calibrate import calibration_events
    from binokel_sim.contests import duel, match
    from binokel_sim.engines.widow import run_play
    from binokel_sim.kernels.widow.deals import I_REDEALT

    rules = with_keys("swabian-3-40", bidding={"all_pass": "redeal"})
    diff = duel(rules, "expert", "heuristic", 300, 4)
    assert diff.shape == (300,)
    games = match(rules, "expert", "heuristic", 20, 4)
    assert (games[:, 1] > 0).all()
    events = calibration_events(rules, 40, 16, 4, "expert", "expert", threads=1)
    void = run_play(rules, 40, 4, "expert").info[:, I_REDEALT] != 0
    assert void.any()
    assert all((e["p_make"] is None) == bool(void[e["deal"]]) for e in events)


# --- [bidding] order = "skat" --------------------------------------------------------------------

def skat(name: str, **bidding):
    return with_keys(name, bidding={"order": "skat", **bidding})


def test_bid_order_values_and_refusals():
    assert find_variant("swabian-3-40").bid_order == "round"
    assert skat("kreuz-4-40").bid_order == "skat"
    for name in ("four-hand-80", "two-hand-48"):
        data = builtin_dict(name)
        data.setdefault("bidding", {})["order"] = "skat"
        with pytest.raises(RulesError, match="bidding.order: 'skat' is played by the widow "
                                             "games only"):
            rules_from_dict(data)
    data = builtin_dict("swabian-3-40")
    data["bidding"]["order"] = "clockwise"
    with pytest.raises(RulesError, match="order: 'clockwise' is not one of round, skat"):
        rules_from_dict(data)


@pytest.fixture(params=["swabian-3-40", "kreuz-4-40", "three-hand-auction-48"])
def skat_game(request):
    return skat(request.param)


def test_skat_order_deals_equal_the_twin(skat_game):
    """Random, heuristic and expert seats (alone and beside random ones), deal for deal."""
    from test_widow import kernel_records

    from binokel_sim.kernels.policies import POLICY_NAMES
    from binokel_sim.reference import widow as twin

    p = skat_game.players
    for names in (["random"] * p, ["heuristic"] * p, ["expert"] * p,
                  (["expert", "random", "heuristic", "random"])[:p]):
        kernel = kernel_records(skat_game, [POLICY_NAMES[n] for n in names], n=70, seed=2,
                                first_block=0, block_size=7, first_deal=0)
        assert kernel == twin.play_deals(skat_game, 70, 2, 7, policies=names)


def skat_roles(record: dict, players: int) -> list[str]:
    """Each call of a Skat-style auction read by who makes it: ``say`` (a bid or pass by the
    seat bidding), ``hold`` (the listener keeping the bid just said), ``answer-pass``."""
    roles, said = [], None
    for call in record["bids"]:
        if said is not None:
            roles.append("hold" if call["bid"] == said else "answer-pass")
            said = None
        else:
            roles.append("say")
            said = call["bid"]
    return roles


def test_skat_order_records_replay_and_read_as_skat(skat_game):
    """1,000 deals of every policy replay under the rules; Mittelhand (dealer + 2) makes the
    first call and Vorhand answers it; the listener holds in many deals; the text says so."""
    from binokel_sim.deal_text import deal_text

    p = skat_game.players
    for policy in ("random", "heuristic", "expert"):
        records = list(widow_records(widow_games.run_play(skat_game, 1000, 5, policy)))
        for record in records:
            replay_widow(skat_game, record)
        assert all(r["bids"][0]["seat"] == (r["dealer"] + 2) % p for r in records)
        holds = sum("hold" in skat_roles(r, p) for r in records)
        assert holds > 100, (policy, holds)
        answered = [r for r in records if r["bids"][0]["bid"] is not None]
        assert all(r["bids"][1]["seat"] == (r["dealer"] + 1) % p for r in answered)
    held = next(r for r in records if "hold" in skat_roles(r, p))
    assert ":holds " in deal_text(held, skat_game)


def test_skat_order_with_vorhand_opens_has_a_bid_every_deal():
    rules = skat("swabian-3-40", all_pass="vorhand_opens")
    records = list(widow_records(widow_games.run_play(rules, 1500, 5, "random")))
    nobody = [r for r in records if all(c["bid"] is None for c in r["bids"][:-1])]
    assert nobody and all(r["bids"][-1] == {"seat": (r["dealer"] + 1) % 3, "bid": 150}
                          for r in nobody)
    for record in records:
        replay_widow(rules, record)


def test_the_checker_refuses_round_calls_under_skat_and_a_changed_hold(skat_game):
    built_in = find_variant(skat_game.name)
    record = next(r for r in widow_records(widow_games.run_play(built_in, 300, 5, "heuristic"))
                  if len(r["bids"]) > 3)
    with pytest.raises(AssertionError, match="turn to bid against|answers the bid"):
        replay_widow(skat_game, record)
    played = next(r for r in widow_records(widow_games.run_play(skat_game, 300, 5, "heuristic"))
                  if "hold" in skat_roles(r, skat_game.players))
    k = skat_roles(played, skat_game.players).index("hold")
    bids = [dict(c) for c in played["bids"]]
    bids[k]["bid"] += 10
    with pytest.raises(AssertionError, match="may only hold"):
        replay_widow(skat_game, dict(played, bids=bids))


def test_skat_auction_input():
    """``--auction`` under order = "skat": the say-and-answer turns, holds written as 'hold'
    (or 'ja', or the number again), and one clear line for calls out of turn."""
    from binokel_sim.bidding import parse_auction
    from binokel_sim.constants import NO_BID
    from binokel_sim.errors import SimulationError

    rules = skat("swabian-3-40")
    # dealer seat 0: Vorhand seat 1 listens, seat 2 says, the dealer says last
    assert parse_auction(rules, "150 hold 160 ja 170 pass 180", 0) == [
        (2, 150), (1, 150), (2, 160), (1, 160), (2, 170), (1, NO_BID), (0, 180)]
    assert parse_auction(rules, "150 150 pass", 0) == [(2, 150), (1, 150), (2, NO_BID)]
    assert parse_auction(rules, "pass pass 150", 0) == [(2, NO_BID), (0, NO_BID), (1, 150)]
    for text, needle in (("150 160", "seat 1's answer to 150"),
                         ("hold", "seat 2's turn to say a bid"),
                         ("pass pass hold", "nobody said a bid"),
                         ("150 pass 150", "the next legal bid is 160"),
                         ("150 hold pass pass 160", "after the auction ended")):
        with pytest.raises(SimulationError, match=needle):
            parse_auction(rules, text, 0)
    opens = skat("swabian-3-40", all_pass="vorhand_opens")
    with pytest.raises(SimulationError, match="Vorhand .* must open"):
        parse_auction(opens, "pass pass pass", 0)
    with pytest.raises(SimulationError, match="calls go round the table"):
        parse_auction(find_variant("swabian-3-40"), "150 hold", 0)


@pytest.mark.parametrize("name", ["swabian-3-40", "kreuz-4-40"])
def test_skat_auctions_fit_their_hands_kernel_and_twin(name):
    """The other seats' real hands fit their own Skat-style calls (kernel and twin), and
    against another deal's calls the kernel says what the twin says, some fitting, some not."""
    from test_widow_auction_odds import cut_auctions, kernel_fits

    from binokel_sim.cards import planes_to_counts
    from binokel_sim.constants import NO_BID
    from binokel_sim.reference import widow as twin

    rules = skat(name)
    cases = [c for c in cut_auctions(rules, "expert", 300, 4) if c[2]]
    verdicts = []
    for (_, hands, own), (_, _, other) in zip(cases, cases[1:] + cases[:1]):
        counts = [list(planes_to_counts(h)) for h in hands]
        for calls, must in ((own, True), (other, None)):
            kernel = kernel_fits(rules, hands, "expert", calls)
            assert kernel == twin.fits_auction(
                rules, counts, ["expert"] * rules.players,
                [(s, None if b == NO_BID else b) for s, b in calls])
            if must:
                assert kernel
            else:
                verdicts.append(kernel)
    assert 10 < sum(verdicts) < len(verdicts) - 10


def test_bid_odds_given_a_skat_auction(tmp_path):
    """The command line: a rules file with order = "skat", the calls with holds, and a call out
    of turn refused in one line."""
    from importlib import resources

    text = resources.files("binokel_sim.variants").joinpath("swabian-3-40.toml").read_text(
        "utf-8")
    assert "\n[bidding]\n" in text
    path = tmp_path / "skat.toml"
    path.write_text(text.replace("\n[bidding]\n", '\n[bidding]\norder = "skat"\n'), "utf-8")
    hand = ["bid-odds", "--rules", str(path), "--hand", "AS TS KS QS AH KH QH JD AC TC KD QD",
            "--deals", "300", "--seed", "3", "--dealer", "left"]
    out = ok(*hand, "--auction", "150 pass 160 hold", "--format", "json")
    assert '"deals_per_sample"' in out.stdout
    assert_one_line_error(invoke(*hand, "--auction", "150 160"), "answer to 150")
