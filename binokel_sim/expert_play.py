"""The expert policy's knobs: the talon heuristic's rules with fitted values, per variant.

The expert plays the heuristic's code (:mod:`binokel_sim.kernels.strict.heuristic`) with its
own values of the knobs the heuristic holds fixed: in phase 1 the weights of a card scorer that
replaces rules E1-E3, in strict tricks the S-rules' thresholds and an optional scorer's weights,
whether a widow-game defender counts the other defender as his partner, and how a widow game's
soloist buries: his side aces last, a short side suit first (docs/rules.md, "Expert policy",
names every knob).
``scripts/fit_expert.py`` fits them per variant by paired duels against the heuristic (the same
deals played once per seating) and writes ``expert_play.json`` with its provenance:
the command, the seed, the deals, and each variant's measured gain with its 95% interval.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

from binokel_sim.errors import RulesError

MODEL_FILE = Path(__file__).with_name("expert_play.json")
# the knobs by name, in the order of the kernels' tune rows (kernels/strict/heuristic.py: T_*,
# L_*, F_*, S_* with the family slot S_FAMILY ("team": kernels/widow/knobs.py S_TEAM), X_*, the
# family slots from FAMILY_KNOBS (kernels/widow/knobs.py W_*), then the places' PL_*;
# tests/test_expert.py checks the order)
KNOBS = ("win_points", "win_meld", "score", "lead_big", "lead_keep", "lead_trump", "lead_master",
         "lead_rank", "lead_ready", "follow_win", "follow_take", "follow_ready",
         "follow_big_wins", "follow_big_loses", "follow_keep", "follow_trump", "follow_rank",
         "lead_pending", "lead_shown", "follow_pending", "follow_shown",
         "pull_margin", "take_last", "grab", "team",
         "strict_score", "strict_lead_trump", "strict_lead_master", "strict_lead_pull",
         "strict_lead_big", "strict_lead_rank", "strict_lead_length", "strict_lead_out",
         "strict_follow_win", "strict_follow_take", "strict_follow_safe",
         "strict_follow_big_wins", "strict_follow_big_loses", "strict_follow_smear",
         "strict_follow_trump", "strict_follow_rank", "follow_over", "follow_smear",
         "partner_rules", "bury_aces_last", "bury_void", "bid_shift", "bid_open",
         "bid_partner", "durch_worlds")
# phase 1 of the talon games: a follower's weights by its place in the trick, added to the
# follow_* scores (kernels/strict/heuristic.py: PL_FOLLOW, the places in this order, N_PLACE
# features each in this order, PL_*)
PLACES = ("second", "third", "last", "third_partner", "last_partner")
PLACE_FEATURES = ("win", "take", "ready", "big_wins", "big_loses", "keep", "trump", "rank",
                  "pending", "shown", "trump_wins", "rank_wins")
KNOBS += tuple(f"{place}_{feature}" for place in PLACES for feature in PLACE_FEATURES)
# the partnership family's knobs (four-hand-80), in the order of its kernels' knob rows
# (kernels/partnership/heuristic.py: P_*; tests/test_expert.py checks the order)
PARTNERSHIP_KNOBS = ("cash_first", "pull_defenders", "pull_window", "pull_min", "lead_ruff",
                     "ruff_low", "smear_losers", "smear_trump", "lead_score", "lead_trump_bid",
                     "lead_trump_def", "lead_trump_early", "lead_trump_len", "lead_master",
                     "lead_master_trump", "lead_counter", "lead_rank", "lead_len", "lead_out",
                     "lead_void_opp", "lead_void_partner", "lead_copies", "lead_singleton",
                     "lead_trump_out", "lead_trump_drawn", "infer", "lead_beaters",
                     "bid_partner")
_override: dict[str, dict[str, int]] = {}
# variants that play another variant's fitted knobs until their own are fitted: the tournament
# count of the Swabian game is that game with other card points (SPEC "Today's practice"); its
# gain over the heuristic is measured by a duel (docs/results.md, "Expert policy")
BORROWED = {"swabian-3-40-tournament": "swabian-3-40"}
# ... but its own bidding knobs where expert_play.json's "borrowed" section fits them
# (scripts/fit_bidding.py: the tournament count's card points change what a hand is worth)


@functools.lru_cache(maxsize=1)
def _model() -> dict:
    return json.loads(MODEL_FILE.read_text(encoding="utf-8"))


def knobs(variant: str, defaults: dict[str, int]) -> dict[str, int]:
    """The expert's knobs for ``variant``: the fitted ones of ``expert_play.json`` (or of
    :func:`override`), each knob it does not name at the heuristic's value (``defaults``: every
    knob of the variant's family by name, :data:`KNOBS` or :data:`PARTNERSHIP_KNOBS`)."""
    own: dict[str, int] = {}  # a borrowing variant's own bidding knobs
    if variant not in _override and variant not in _model()["variants"]:
        own = _model().get("borrowed", {}).get(variant, {}).get("knobs", {})
        variant = BORROWED.get(variant, variant)
    fitted = _override.get(variant)
    if fitted is None:
        fitted = _model()["variants"].get(variant, {}).get("knobs", {})
    fitted = {**fitted, **own}
    unknown = set(fitted) - set(defaults)
    if unknown:
        raise RulesError(f"expert_play.json: {variant}: unknown knobs {sorted(unknown)}; "
                         f"known: {', '.join(defaults)}")
    return {**defaults, **{k: int(v) for k, v in fitted.items()}}


def fitted_variants() -> list[str]:
    """The variants whose expert knobs are fitted (or set by :func:`override`, or borrowed
    from a fitted variant: :data:`BORROWED`)."""
    fitted = set(_model()["variants"]) | set(_override)
    return sorted(fitted | {v for v, source in BORROWED.items() if source in fitted})


def fitted(variant: str) -> bool:
    """Whether ``variant``'s expert knobs are fitted: the expert plays only those."""
    return variant in fitted_variants()


def override(variant: str, values: dict[str, int] | None) -> None:
    """Play ``variant``'s expert with ``values`` in this process (None: the fitted ones again):
    the fitting script's hook (``scripts/fit_expert.py``), which tries candidates by duels."""
    if values is None:
        _override.pop(variant, None)
    else:
        _override[variant] = dict(values)
