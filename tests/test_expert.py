"""The expert policy (docs/rules.md "Expert policy"): where it plays and where it is refused,
its knobs file, that it is the heuristic with other knobs (the heuristic's knobs make it play
the heuristic's cards), that it beats the heuristic, and deal-odds and bid-odds playing it by
default. Its cards against the twins and its records replaying are in tests/test_talon.py
(talon games), tests/test_tricks.py and tests/test_games.py (four-hand-80)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import invoke, ok

from binokel_sim import expert_play, tables
from binokel_sim.engines import partnership as partnership_games
from binokel_sim.engines import policies
from binokel_sim.engines import talon as talon_games
from binokel_sim.errors import RulesError
from binokel_sim.simulate import SimulationError
from binokel_sim.variants import find_variant

TALON = ("two-hand-48", "three-hand-72", "four-hand-72")


def test_the_built_in_talon_games_have_fitted_knobs_with_provenance():
    model = json.loads(expert_play.MODEL_FILE.read_text(encoding="utf-8"))
    for name in TALON:
        entry = model["variants"][name]
        assert set(entry["knobs"]) == set(expert_play.KNOBS), name
        assert entry["knobs"]["score"] == 1
        low, high = entry["measured"]["ci95"]
        assert 0 < low <= entry["measured"]["gain"] <= high, name
        assert entry["provenance"]["command"].startswith("python scripts/fit_expert.py")
        assert policies.policy_id("expert", find_variant(name)) == 6
        assert policies.default_policy(find_variant(name)) == "expert"


def test_four_hand_80_has_fitted_knobs_with_provenance():
    entry = json.loads(expert_play.MODEL_FILE.read_text(encoding="utf-8"))["variants"][
        "four-hand-80"]
    assert set(entry["knobs"]) == set(expert_play.PARTNERSHIP_KNOBS)
    assert entry["knobs"]["lead_score"] == 1
    low, high = entry["measured"]["ci95"]
    assert 0 < low <= entry["measured"]["gain"] <= high
    assert entry["provenance"]["command"].startswith("python scripts/fit_expert.py")
    rules = find_variant("four-hand-80")
    assert policies.policy_id("expert", rules) == 6
    assert policies.default_policy(rules) == "expert"


WIDOW = ("three-hand-auction-48", "four-hand-widow-48", "swabian-3-40", "kreuz-4-40")


@pytest.mark.parametrize("name", WIDOW)
def test_the_widow_games_have_fitted_knobs_with_provenance(name):
    """The widow games' expert buries its side aces last (docs/rules.md "Expert policy")."""
    entry = json.loads(expert_play.MODEL_FILE.read_text(encoding="utf-8"))["variants"][name]
    assert set(entry["knobs"]) == set(expert_play.KNOBS)
    assert entry["knobs"]["bury_aces_last"] == 1
    assert entry["knobs"]["score"] == 0 and entry["knobs"]["strict_score"] == 0
    low, high = entry["measured"]["ci95"]
    assert 0 < low <= entry["measured"]["gain"] <= high
    assert entry["provenance"]["command"].startswith("python scripts/fit_expert.py")
    rules = find_variant(name)
    assert policies.policy_id("expert", rules) == 6
    assert policies.default_policy(rules) == "expert"


@pytest.mark.parametrize("name", ["three-hand-auction-48", "swabian-3-40"])
def test_variants_without_knobs_refuse_the_expert_in_one_line(name, monkeypatch):
    """A variant ``expert_play.json`` fits no knobs for (here: one taken out of it) refuses the
    expert and defaults to the heuristic."""
    model = expert_play._model()
    unfitted = {**model, "variants": {k: v for k, v in model["variants"].items() if k != name}}
    monkeypatch.setattr(expert_play, "_model", lambda: unfitted)
    rules = find_variant(name)
    with pytest.raises(SimulationError, match="policy expert plays the variants its knobs"):
        policies.policy_id("expert", rules)
    assert policies.default_policy(rules) == "heuristic"
    result = invoke("duel", "--variant", name, "-a", "expert", "-b", "heuristic", "--deals", "10")
    assert result.exit_code != 0
    assert "policy expert plays the variants its knobs" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_an_unknown_knob_is_refused(monkeypatch, tmp_path):
    bad = tmp_path / "expert_play.json"
    bad.write_text(json.dumps({"variants": {"two-hand-48": {"knobs": {"win_pionts": 3}}}}))
    monkeypatch.setattr(expert_play, "MODEL_FILE", bad)
    expert_play._model.cache_clear()
    try:
        with pytest.raises(RulesError, match="unknown knobs \\['win_pionts'\\]"):
            expert_play.knobs("two-hand-48", {})
    finally:
        expert_play._model.cache_clear()


def duel_with(name: str, knobs: dict | None, deals: int) -> np.ndarray:
    rules = find_variant(name)
    expert_play.override(name, knobs)
    talon_games.family_tables.cache_clear()
    try:
        return talon_games.run_duel(rules, "expert", "heuristic", deals, 3)
    finally:
        expert_play.override(name, None)
        talon_games.family_tables.cache_clear()


def test_the_heuristics_knobs_play_the_heuristics_cards():
    """The expert is the heuristic's code with the expert's knobs: given the heuristic's own
    knobs, every deal of a duel comes out even (the expert's branch changes nothing else)."""
    rules = find_variant("three-hand-72")
    heuristic = dict(zip(expert_play.KNOBS, tables.tune_rows(rules)[:len(expert_play.KNOBS)]))
    assert heuristic["score"] == 0 and heuristic["win_points"] == 10
    assert (duel_with("three-hand-72", {k: int(v) for k, v in heuristic.items()}, 600) == 0).all()


def test_four_hand_80_heuristics_knobs_play_the_heuristics_cards():
    """The same for four-hand-80's card player: the heuristic's knobs as the expert's make
    every deal of a duel come out even."""
    from binokel_sim.kernels.partnership.heuristic import HEURISTIC_PTUNE

    rules = find_variant("four-hand-80")
    expert_play.override(rules.name, dict(zip(expert_play.PARTNERSHIP_KNOBS, HEURISTIC_PTUNE)))
    try:
        diff = partnership_games.run_duel(rules, "expert", "heuristic", 2000, 3)
    finally:
        expert_play.override(rules.name, None)
    assert (diff == 0).all()


def test_the_expert_beats_the_heuristic_in_four_hand_80():
    """On deals the fit never saw (stream 3, 20,000 deals, a duel of a second): the lower end
    of the 95% interval above +10 points a deal (the fit measured some +14)."""
    diff = partnership_games.run_duel(find_variant("four-hand-80"), "expert", "heuristic",
                                      20_000, 3)
    low = diff.mean() - 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))
    assert low > 10, diff.mean()


@pytest.mark.parametrize("name", WIDOW)
def test_the_widow_expert_beats_the_heuristic(name):
    """The widow games' expert (its burial) gains in a duel on deals the fit never saw (stream
    3, 10,000 deals): the lower end of the 95% interval above +5 points a deal (the fits
    measured +14 to +26)."""
    from binokel_sim.engines import widow as widow_games

    diff = widow_games.run_duel(find_variant(name), "expert", "heuristic", 10_000, 3)
    low = diff.mean() - 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))
    assert low > 5, (name, diff.mean())


def test_bid_odds_plays_the_expert_by_default():
    default = json.loads(ok("bid-odds", "--deals", "2000", "--format", "json").stdout)
    assert default["provenance"]["policy"] == "expert"
    heuristic = json.loads(ok("bid-odds", "--deals", "2000", "--format", "json", "--policy",
                              "heuristic").stdout)
    assert heuristic["provenance"]["policy"] == "heuristic"
    assert heuristic != default


def test_four_hand_80_knob_names_follow_the_kernels_order():
    from binokel_sim.kernels.partnership import heuristic as h

    at = {"cash_first": h.P_CASH_FIRST, "pull_defenders": h.P_PULL_DEFENDERS,
          "pull_window": h.P_PULL_WINDOW, "pull_min": h.P_PULL_MIN, "lead_ruff": h.P_LEAD_RUFF,
          "ruff_low": h.P_RUFF_LOW, "smear_losers": h.P_SMEAR_LOSERS,
          "smear_trump": h.P_SMEAR_TRUMP, "lead_score": h.P_LEAD_SCORE,
          "lead_trump_bid": h.W_TRUMP_BID, "lead_trump_def": h.W_TRUMP_DEF,
          "lead_trump_early": h.W_TRUMP_EARLY, "lead_trump_len": h.W_TRUMP_LEN,
          "lead_master": h.W_MASTER, "lead_master_trump": h.W_MASTER_TRUMP,
          "lead_counter": h.W_COUNTER, "lead_rank": h.W_RANK, "lead_len": h.W_LEN,
          "lead_out": h.W_OUT, "lead_void_opp": h.W_VOID_OPP,
          "lead_void_partner": h.W_VOID_PARTNER, "lead_copies": h.W_COPIES,
          "lead_singleton": h.W_SINGLETON, "lead_trump_out": h.W_TRUMP_OUT,
          "lead_trump_drawn": h.W_TRUMP_DRAWN, "infer": h.P_INFER,
          "lead_beaters": h.W_BEATERS, "bid_partner": h.P_BID_PARTNER}
    assert [at[name] for name in expert_play.PARTNERSHIP_KNOBS] == list(range(h.N_PTUNE))


@pytest.mark.parametrize("name", TALON)
def test_the_expert_beats_the_heuristic(name):
    """The fitted knobs gain in a duel on deals the fit never saw (stream 3, 3,000 deals): the
    lower end of the 95% interval above +25 points a deal in every talon game."""
    diff = talon_games.run_duel(find_variant(name), "expert", "heuristic", 3000, 3)
    low = diff.mean() - 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))
    assert low > 25, (name, diff.mean())


def test_deal_odds_plays_the_expert_by_default():
    default = json.loads(ok("deal-odds", "--deals", "2000", "--format", "json").stdout)
    assert default["provenance"]["policy"] == "expert"
    named = json.loads(ok("deal-odds", "--deals", "2000", "--format", "json", "--policy",
                          "expert").stdout)
    assert named == default
    heuristic = json.loads(ok("deal-odds", "--deals", "2000", "--format", "json", "--policy",
                              "heuristic").stdout)
    assert heuristic["provenance"]["policy"] == "heuristic"
    assert heuristic["mean_score"] != default["mean_score"]


def test_the_knob_names_follow_the_kernels_order():
    from binokel_sim.kernels.policies import N_TUNE
    from binokel_sim.kernels.strict import heuristic as h
    from binokel_sim.kernels.widow import knobs as w

    at = {"win_points": h.T_WIN_POINTS, "win_meld": h.T_WIN_MELD, "score": h.T_SCORE,
          "lead_big": h.L_BIG, "lead_keep": h.L_KEEP, "lead_trump": h.L_TRUMP,
          "lead_master": h.L_MASTER, "lead_rank": h.L_RANK, "lead_ready": h.L_READY,
          "follow_win": h.F_WIN, "follow_take": h.F_TAKE, "follow_ready": h.F_READY,
          "follow_big_wins": h.F_BIG_WINS, "follow_big_loses": h.F_BIG_LOSES,
          "follow_keep": h.F_KEEP, "follow_trump": h.F_TRUMP, "follow_rank": h.F_RANK,
          "lead_pending": h.L_PENDING, "lead_shown": h.L_SHOWN,
          "follow_pending": h.F_PENDING, "follow_shown": h.F_SHOWN,
          "pull_margin": h.S_PULL, "take_last": h.S_TAKE_LAST, "grab": h.S_GRAB, "team": w.S_TEAM,
          "strict_score": h.X_SCORE, "strict_lead_trump": h.X_L_TRUMP,
          "strict_lead_master": h.X_L_MASTER, "strict_lead_pull": h.X_L_PULL,
          "strict_lead_big": h.X_L_BIG, "strict_lead_rank": h.X_L_RANK,
          "strict_lead_length": h.X_L_LENGTH, "strict_lead_out": h.X_L_OUT,
          "strict_follow_win": h.X_F_WIN, "strict_follow_take": h.X_F_TAKE,
          "strict_follow_safe": h.X_F_SAFE, "strict_follow_big_wins": h.X_F_BIG_WINS,
          "strict_follow_big_loses": h.X_F_BIG_LOSES, "strict_follow_smear": h.X_F_SMEAR,
          "strict_follow_trump": h.X_F_TRUMP, "strict_follow_rank": h.X_F_RANK,
          "follow_over": h.F_OVER, "follow_smear": h.F_SMEAR, "partner_rules": h.F_E3,
          "bury_aces_last": w.W_BURY, "bury_void": w.W_VOID, "bid_shift": w.W_BID,
          "bid_open": w.W_OPEN, "bid_partner": w.W_PARTNER, "durch_worlds": w.W_DURCH}
    weight = {"win": h.PL_WIN, "take": h.PL_TAKE, "ready": h.PL_READY, "big_wins": h.PL_BIG_WINS,
              "big_loses": h.PL_BIG_LOSES, "keep": h.PL_KEEP, "trump": h.PL_TRUMP,
              "rank": h.PL_RANK, "pending": h.PL_PENDING, "shown": h.PL_SHOWN,
              "trump_wins": h.PL_TRUMP_WINS, "rank_wins": h.PL_RANK_WINS}
    assert len(weight) == h.N_PLACE
    for i, place in enumerate(("second", "third", "last", "third_partner", "last_partner")):
        at |= {f"{place}_{name}": h.PL_FOLLOW + i * h.N_PLACE + j for name, j in weight.items()}
    assert [at[name] for name in expert_play.KNOBS] == list(range(N_TUNE))
