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
