"""The expert policy (docs/rules.md "Expert policy"): where it plays and where it is refused,
its knobs file, that it is the heuristic with other knobs (the heuristic's knobs make it play
the heuristic's cards), that it beats the heuristic, and deal-odds playing it by default. Its
cards against the twin and its records replaying are in tests/test_talon.py."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import invoke, ok

from binokel_sim import expert_play, tables
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


@pytest.mark.parametrize("name", ["four-hand-80", "three-hand-auction-48", "swabian-3-40"])
def test_variants_without_knobs_refuse_the_expert_in_one_line(name):
    rules = find_variant(name)
    with pytest.raises(SimulationError, match="policy expert plays the talon games"):
        policies.policy_id("expert", rules)
    assert policies.default_policy(rules) == "heuristic"
    result = invoke("duel", "--variant", name, "-a", "expert", "-b", "heuristic", "--deals", "10")
    assert result.exit_code != 0
    assert "policy expert plays the talon games" in result.stderr
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
    tables.compile_talon.cache_clear()
    try:
        return talon_games.run_duel(rules, "expert", "heuristic", deals, 3)
    finally:
        expert_play.override(name, None)
        tables.compile_talon.cache_clear()


def test_the_heuristics_knobs_play_the_heuristics_cards():
    """The expert is the heuristic's code with the expert's knobs: given the heuristic's own
    knobs, every deal of a duel comes out even (the expert's branch changes nothing else)."""
    rules = find_variant("three-hand-72")
    heuristic = dict(zip(expert_play.KNOBS, tables.tune_rows(rules)[:len(expert_play.KNOBS)]))
    assert heuristic["score"] == 0 and heuristic["win_points"] == 10
    assert (duel_with("three-hand-72", {k: int(v) for k, v in heuristic.items()}, 600) == 0).all()


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

    at = {"win_points": h.T_WIN_POINTS, "win_meld": h.T_WIN_MELD, "score": h.T_SCORE,
          "lead_big": h.L_BIG, "lead_keep": h.L_KEEP, "lead_trump": h.L_TRUMP,
          "lead_master": h.L_MASTER, "lead_rank": h.L_RANK, "lead_ready": h.L_READY,
          "follow_win": h.F_WIN, "follow_take": h.F_TAKE, "follow_ready": h.F_READY,
          "follow_big_wins": h.F_BIG_WINS, "follow_big_loses": h.F_BIG_LOSES,
          "follow_keep": h.F_KEEP, "follow_trump": h.F_TRUMP, "follow_rank": h.F_RANK,
          "lead_pending": h.L_PENDING, "lead_shown": h.L_SHOWN,
          "follow_pending": h.F_PENDING, "follow_shown": h.F_SHOWN,
          "pull_margin": h.S_PULL, "take_last": h.S_TAKE_LAST, "grab": h.S_GRAB, "team": h.S_TEAM,
          "strict_score": h.X_SCORE, "strict_lead_trump": h.X_L_TRUMP,
          "strict_lead_master": h.X_L_MASTER, "strict_lead_pull": h.X_L_PULL,
          "strict_lead_big": h.X_L_BIG, "strict_lead_rank": h.X_L_RANK,
          "strict_lead_length": h.X_L_LENGTH, "strict_lead_out": h.X_L_OUT,
          "strict_follow_win": h.X_F_WIN, "strict_follow_take": h.X_F_TAKE,
          "strict_follow_safe": h.X_F_SAFE, "strict_follow_big_wins": h.X_F_BIG_WINS,
          "strict_follow_big_loses": h.X_F_BIG_LOSES, "strict_follow_smear": h.X_F_SMEAR,
          "strict_follow_trump": h.X_F_TRUMP, "strict_follow_rank": h.X_F_RANK,
          "follow_over": h.F_OVER, "follow_smear": h.F_SMEAR, "partner_rules": h.F_E3}
    assert [at[name] for name in expert_play.KNOBS] == list(range(N_TUNE))
