"""Calibration numbers (binokel_sim/calibration.py) on data with a known answer."""

from __future__ import annotations

import numpy as np
import pytest

from binokel_sim.calibration import calibration_summary, reliability_bins


def test_hand_worked_example():
    # two bins: {0.1, 0.1} with one made (observed 0.5), {0.9, 0.9} with both made (1.0)
    s = calibration_summary([0.1, 0.9, 0.1, 0.9], [0, 1, 1, 1], bins=2)
    assert [b["n"] for b in s["bins"]] == [2, 2]
    assert [b["mean_predicted"] for b in s["bins"]] == pytest.approx([0.1, 0.9])
    assert [b["observed"] for b in s["bins"]] == [0.5, 1.0]
    assert s["base_rate"] == 0.75
    assert s["brier"] == pytest.approx((0.01 + 0.81 + 0.01 + 0.01) / 4)  # 0.21
    assert s["reliability"] == pytest.approx(0.5 * 0.4**2 + 0.5 * 0.1**2)  # 0.085
    assert s["resolution"] == pytest.approx(0.5 * 0.25**2 + 0.5 * 0.25**2)  # 0.0625
    assert s["uncertainty"] == pytest.approx(0.1875)
    assert s["within_bin"] == pytest.approx(0.0)  # forecasts are constant inside each bin
    assert s["brier_skill"] == pytest.approx(1 - 0.21 / 0.1875)
    assert s["ece"] == pytest.approx(0.5 * 0.4 + 0.5 * 0.1)


def test_equal_count_bins_cover_every_event_once():
    rng = np.random.default_rng(5)
    p = rng.random(1003)
    o = rng.random(1003) < p
    table = reliability_bins(p, o, 10)
    assert len(table) == 10
    assert sum(b["n"] for b in table) == 1003
    assert max(b["n"] for b in table) - min(b["n"] for b in table) <= 1
    for a, b in zip(table, table[1:]):
        assert a["p_high"] <= b["p_low"]  # sorted by forecast
    for b in table:
        assert b["ci_low"] <= b["observed"] <= b["ci_high"]
        assert b["p_low"] <= b["mean_predicted"] <= b["p_high"]


def test_calibrated_forecasts_have_a_small_ece_and_biased_ones_do_not():
    rng = np.random.default_rng(11)
    p = rng.random(200_000)
    o = rng.random(p.size) < p  # outcomes drawn with exactly the forecast chance
    good = calibration_summary(p, o, 10)
    assert good["ece"] < 0.01
    # the decomposition adds up, and a calibrated forecast's reliability term is near zero
    assert good["reliability"] - good["resolution"] + good["uncertainty"] + good["within_bin"] \
        == pytest.approx(good["brier"])
    assert good["reliability"] < 1e-4
    # a uniform forecast against outcomes of probability p: E[(p - o)^2] = 1/6; BSS = 1/3
    assert good["brier"] == pytest.approx(1 / 6, abs=0.003)
    assert good["brier_skill"] == pytest.approx(1 - (1 / 6) / 0.25, abs=0.015)
    # forecasts 0.1 too high everywhere: the ECE finds the 0.1 (clipped near 1)
    biased = calibration_summary(np.clip(p + 0.1, 0, 1), o, 10)
    assert biased["ece"] == pytest.approx(0.1, abs=0.01)


def test_base_rate_forecast_has_zero_skill_and_constant_outcomes_none():
    o = np.array([1] * 30 + [0] * 70)
    s = calibration_summary(np.full(100, 0.3), o, 10)
    assert s["brier"] == pytest.approx(0.21)
    assert s["brier_skill"] == pytest.approx(0.0)
    assert calibration_summary([0.2, 0.7], [1, 1], 10)["brier_skill"] is None


@pytest.mark.parametrize("p, o", [([], []), ([0.5], [1, 0]), ([1.5], [1]), ([0.5], [2]),
                                  ([float("nan")], [1])])
def test_bad_input_is_refused(p, o):
    with pytest.raises(ValueError):
        calibration_summary(p, o)


# --- the study: binokel-sim calibrate -------------------------------------------------------------

import json  # noqa: E402

from conftest import assert_one_line_error, invoke, ok  # noqa: E402


@pytest.mark.parametrize("variant", ["four-hand-80", "three-hand-auction-48", "swabian-3-40"])
def test_calibrate_json_has_the_issue_keys(variant):
    doc = json.loads(ok("calibrate", "--variant", variant, "--deals", "40", "--samples", "64",
                        "--threads", "1", "--format", "json").stdout)
    for key in ("deals", "bins", "brier", "brier_skill", "ece", "reliability", "resolution",
                "uncertainty", "base_rate", "provenance"):
        assert key in doc
    assert doc["deals"] == 40 and len(doc["bins"]) == 10
    assert sum(b["n"] for b in doc["bins"]) == 40
    for b in doc["bins"]:
        assert set(b) >= {"mean_predicted", "observed", "n", "ci_low", "ci_high"}
    assert doc["provenance"]["variant"] == variant and doc["provenance"]["seed"] == 1
    ece = sum(b["n"] * abs(b["mean_predicted"] - b["observed"]) for b in doc["bins"]) / 40
    assert doc["ece"] == pytest.approx(ece)


def test_calibrate_forecasts_are_bid_odds_and_outcomes_the_played_deals(tmp_path):
    from binokel_sim.calibrate import calibrate
    from binokel_sim.engines.partnership import DEAL_FIELDS, run_play
    from binokel_sim.hands import parse_hand
    from binokel_sim.odds.partnership import bid_odds
    from binokel_sim.odds.summary import sample_seed
    from binokel_sim.variants import find_variant

    rules = find_variant("four-hand-80")
    result = calibrate(rules, 12, 128, 7, threads=1)
    played = run_play(rules, 12, 7, "heuristic", 1)
    col = {n: i for i, n in enumerate(DEAL_FIELDS)}
    for d, event in enumerate(result["events"]):
        info = played.info[d]
        assert event["bidder"] == info[col["bidder"]] and event["bid"] == info[col["bid"]]
        score = info[col["score_02"] if event["bidder"] % 2 == 0 else col["score_13"]]
        assert event["made"] == (score > 0)
        if event["trump"] is None:
            assert event["p_make"] == 0.0
            continue
        # the forecast is bid-odds' p_make for that hand, trump and bid, from the deal's seed
        odds = bid_odds(rules, parse_hand(event["hand"], rules), 128, sample_seed(7, d),
                        "heuristic", trump="SHDC".index(event["trump"]), threads=1)
        rows = odds["rows"].filter(odds["rows"]["trump"] == event["trump"])
        at_bid = rows.filter(rows["bid"] == event["bid"])["p_make"].to_list()
        assert at_bid == [pytest.approx(event["p_make"])] or (not at_bid and event["p_make"]
                                                               == pytest.approx(0.0, abs=0.002))


def test_swabian_forecasts_sit_the_dealer_where_he_sat():
    """swabian-3-40: the player left of the dealer leads, so each deal's forecast is bid-odds'
    p_make with the deal's dealer seen from the soloist (decision 35), which differs from the
    default seat's (the hand leads) in some deals."""
    from binokel_sim.calibrate import calibration_events
    from binokel_sim.hands import parse_hand
    from binokel_sim.odds.summary import sample_seed
    from binokel_sim.odds.widow import bid_odds
    from binokel_sim.variants import find_variant

    rules = find_variant("swabian-3-40")
    events = calibration_events(rules, 30, 200, 5, "heuristic", "heuristic", threads=1)

    def p_make(d, event, dealer):
        odds = bid_odds(rules, parse_hand(event["hand"], rules), 200, sample_seed(5, d),
                        threads=1, dealer=dealer)
        at_bid = odds["rows"].filter(odds["rows"]["bid"] == event["bid"])["p_make"].to_list()
        return at_bid[0] if at_bid else 0.0

    differs = 0
    for d, event in enumerate(events):
        dealer = (d % 3 - event["bidder"]) % 3
        assert event["p_make"] == pytest.approx(p_make(d, event, dealer))
        differs += dealer != 2 and p_make(d, event, 2) != pytest.approx(event["p_make"])
    assert differs  # the dealer's seat changed some forecast


def test_calibrate_is_the_same_on_one_or_two_threads():
    args = ("calibrate", "--deals", "30", "--samples", "1100", "--seed", "3", "--format", "json")
    one = json.loads(ok(*args, "--threads", "1").stdout)
    two = json.loads(ok(*args, "--threads", "2").stdout)
    assert one == two


def test_calibrate_writes_its_folder(tmp_path):
    out = tmp_path / "calib"
    result = ok("calibrate", "--deals", "20", "--samples", "64", "--threads", "1", "--out",
                str(out))
    assert sorted(p.name for p in out.iterdir()) == ["calibration.json", "events.parquet",
                                                    "reliability.png"]
    assert (out / "reliability.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "wrote" in result.stderr
    import polars as pl

    events = pl.read_parquet(out / "events.parquet")
    assert events.height == 20 and {"p_make", "made", "bid", "variant", "seed"} <= set(
        events.columns)


@pytest.mark.parametrize("args, needle", [
    (("--variant", "two-hand-48"), "calibrate supports four-hand-80"),
    (("--deals", "5"), "fewer than the 10 bins"),
    (("--bins", "1"), "--bins must be at least 2"),
    (("--samples", "0"), "--samples must be at least 1"),
    (("--out", "/nonexistent/x"), "does not exist"),
    (("--policy", "clever"), "clever"),
])
def test_calibrate_bad_input(args, needle):
    assert_one_line_error(invoke("calibrate", "--deals", "20", "--samples", "32", *args), needle)


def test_calibrate_given_the_auction():
    """Each forecast's samples repeat the deal's auction: the p_make of samples conditioned on
    that auction's bounds; the JSON says so, and the bins hold the deals with a forecast."""
    from binokel_sim.bidding import auction_bounds
    from binokel_sim.calibrate import calibrate
    from binokel_sim.engines.partnership import (
        DEAL_FIELDS,
        run_play,
    )
    from binokel_sim.engines.partnership import (
        run_samples as run_bid_samples,
    )
    from binokel_sim.hands import parse_hand
    from binokel_sim.odds.partnership import AUCTION_DRAWS, deal_scores
    from binokel_sim.odds.summary import sample_seed
    from binokel_sim.variants import find_variant

    rules = find_variant("four-hand-80")
    result = calibrate(rules, 12, 64, 5, threads=1, given_auction=True)
    assert result["given_auction"] is True
    played = run_play(rules, 12, 5, "heuristic", 1)
    col = {n: i for i, n in enumerate(DEAL_FIELDS)}
    conditioned = 0
    for d, event in enumerate(result["events"]):
        if event["trump"] is None or event["p_make"] is None:
            continue
        info = played.info[d]
        n_calls = int(info[col["n_calls"]])
        bounds = auction_bounds(rules, event["bidder"], zip(played.bid_seats[d, :n_calls],
                                                            played.bid_values[d, :n_calls]))
        s = run_bid_samples(rules, parse_hand(event["hand"], rules), 64, sample_seed(5, d),
                            "heuristic", trumps=["SHDC".index(event["trump"])], threads=1,
                            auction=bounds,
                            max_draws=AUCTION_DRAWS)
        made, _, _ = deal_scores(rules, event["bid"], s.pair_meld[:, 0], s.pair_play[:, 0],
                                 s.opp_meld[:, 0], s.opp_play[:, 0], True)
        assert event["p_make"] == pytest.approx(float(made.mean()))
        assert event["draws"] == pytest.approx(float(s.draws.mean()))
        conditioned += event["draws"] > 1
    assert conditioned > 0
    doc = json.loads(ok("calibrate", "--deals", "20", "--samples", "32", "--threads", "1",
                        "--given-auction", "--format", "json").stdout)
    assert doc["given_auction"] is True and doc["provenance"]["given_auction"] is True
    assert sum(b["n"] for b in doc["bins"]) == 20 - doc["no_forecast"]


@pytest.mark.parametrize("variant", ["swabian-3-40", "kreuz-4-40"])
def test_calibrate_given_the_auction_in_the_widow_games(variant):
    """Each event's forecast repeats the deal's whole auction, seats seen from the soloist
    (issue 52): its p_make is bid-odds' with those calls, and some samples took more than one
    deal."""
    from binokel_sim.calibrate import calibration_events
    from binokel_sim.cards import planes_to_counts
    from binokel_sim.engines import widow
    from binokel_sim.kernels.widow.deals import I_CALLS
    from binokel_sim.odds.summary import sample_seed
    from binokel_sim.odds.widow import AUCTION_DRAWS, made_share
    from binokel_sim.variants import find_variant

    rules = find_variant(variant)
    events = calibration_events(rules, 12, 32, 5, "expert", "expert", threads=1,
                                given_auction=True)
    played = widow.run_play(rules, 12, 5, "expert")
    conditioned = 0
    for event in events:
        d, solo = event["deal"], event["bidder"]
        n = int(played.info[d, I_CALLS])
        calls = [((int(s) - solo) % rules.players, int(b))
                 for s, b in zip(played.bid_seats[d, :n], played.bid_values[d, :n])]
        s = widow.run_samples(rules, planes_to_counts(played.hands[d, solo]), 32,
                              sample_seed(5, d), "expert", threads=1,
                              dealer=(d % rules.players - solo) % rules.players,
                              auction=calls, max_draws=AUCTION_DRAWS)
        assert event["p_make"] == pytest.approx(made_share(s, event["bid"]))
        assert event["draws"] == pytest.approx(float(s[:, -1].mean()))
        conditioned += event["draws"] > 1
    assert conditioned > 0


def test_deals_without_a_forecast_are_kept_as_events_and_left_out_of_the_figures(
        tmp_path, monkeypatch):
    """With few tries allowed, some auctions fit no sample: those deals have an empty p_make in
    events.parquet, are counted in no_forecast, and the bins, scores and diagram use the
    rest."""
    import polars as pl

    from binokel_sim.odds import partnership

    monkeypatch.setattr(partnership, "AUCTION_DRAWS", 300)
    out = tmp_path / "given"
    doc = json.loads(ok("calibrate", "--deals", "40", "--samples", "16", "--threads", "1",
                        "--given-auction", "--out", str(out), "--format", "json").stdout)
    assert 0 < doc["no_forecast"] < 30
    assert sum(b["n"] for b in doc["bins"]) == 40 - doc["no_forecast"]
    events = pl.read_parquet(out / "events.parquet")
    assert events.height == 40 and events["p_make"].null_count() == doc["no_forecast"]
    assert (out / "reliability.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
