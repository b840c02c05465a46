"""Fit the expert policy's knobs (binokel_sim/expert_play.json) by duels against the heuristic.

For each variant: start from the starting knobs below, then coordinate search: in a seeded
random order each knob tries its value plus and minus its step, keeping a change that raises
``expert minus heuristic`` on ``--deals`` deals of stream ``--seed`` (every deal played once per
seating, so the comparison is paired and its noise small); when a sweep changes nothing the
steps halve, down to 1. The fitted knobs are then measured on fresh deals (stream
``--seed + 1``), and that gain with its 95% interval is what the file records, with the
command, the seeds and the date. Reproducible: the same arguments give the same file.

    python scripts/fit_expert.py --variant two-hand-48 --deals 20000 --seed 1
    python scripts/fit_expert.py --variant four-hand-80 --deals 100000 --seed 1 --trials 1200

With ``--trials N`` the sweeps are followed by N random trials (one to three knobs changed at
once, kept when the gain rises), which gets past the sweeps' local optima. The talon games'
place weights (``expert_play.PLACES``) are searched only when ``--start`` names one of them, as
the starts of ``scripts/distill_follow.py`` do (four-hand-72's).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import random
import sys
import time

import numpy as np

from binokel_sim import __version__, expert_play
from binokel_sim.contests import duel
from binokel_sim.engines import engine, partnership, talon, widow
from binokel_sim.kernels.strict.heuristic import HEURISTIC_TUNE
from binokel_sim.variants import find_variant

# where the search starts: the phase-1 scorer on (score 1), winning what a spare card wins
START = {"win_points": 1000, "win_meld": 40, "score": 1,
         "lead_big": -10, "lead_keep": -20, "lead_trump": -20, "lead_master": 5, "lead_rank": -1,
         "lead_ready": 2,
         "follow_win": 100, "follow_take": 1, "follow_ready": 5, "follow_big_wins": 5,
         "follow_big_loses": -20, "follow_keep": -10, "follow_trump": -10, "follow_rank": -1,
         "lead_pending": -10, "lead_shown": 5, "follow_pending": -10, "follow_shown": 5,
         "pull_margin": 0, "take_last": 1, "grab": 30, "team": 1,
         "strict_score": 1, "strict_lead_trump": -20, "strict_lead_master": 10,
         "strict_lead_pull": 30, "strict_lead_big": 0, "strict_lead_rank": -1,
         "strict_lead_length": 1, "strict_lead_out": 0, "strict_follow_win": 20,
         "strict_follow_take": 1, "strict_follow_safe": 20, "strict_follow_big_wins": 0,
         "strict_follow_big_loses": -20, "strict_follow_smear": 40, "strict_follow_trump": -10,
         "strict_follow_rank": -1, "follow_over": -50, "follow_smear": 10,
         "partner_rules": 0, "bury_aces_last": 0, "bury_void": 0, "bid_shift": 0}
# the followers' place weights (expert_play.PLACES): searched, from 0 in steps of 10, only when
# the start names one of them (scripts/distill_follow.py's starts do), else left at 0
PLACE_KNOBS = tuple(name for name in expert_play.KNOBS if name.startswith(expert_play.PLACES))
START |= dict.fromkeys(PLACE_KNOBS, 0)
STEP = ({name: max(1, abs(v) // 2) for name, v in START.items()} | dict.fromkeys(PLACE_KNOBS, 10)
        | {"grab": 10, "strict_lead_big": 5, "strict_lead_out": 2, "strict_follow_big_wins": 5})
FIXED = {"win_points", "win_meld", "score",  # not searched: they switch the scorer on
         "bury_aces_last", "bury_void",  # only a widow game's soloist buries
         "bid_shift"}  # and only a widow game's seat bids by the widow tables
SWITCHES: set[str] = set()  # knobs that are 0 or 1

# the partnership family (four-hand-80): its rules' switches, then the scored lead on, its
# weights a first guess (masters first, low cards next, trumps by the bidding side)
PARTNERSHIP_START = {"cash_first": 0, "pull_defenders": 0, "pull_window": 4, "pull_min": 2,
                     "lead_ruff": 1, "ruff_low": 1, "smear_losers": 0, "smear_trump": 0,
                     "lead_score": 1, "lead_trump_bid": -20, "lead_trump_def": -40,
                     "lead_trump_early": 10, "lead_trump_len": 3, "lead_master": 50,
                     "lead_master_trump": 30, "lead_counter": -10, "lead_rank": -2,
                     "lead_len": 0, "lead_out": 1, "lead_void_opp": -40,
                     "lead_void_partner": 15, "lead_copies": 0, "lead_singleton": 0,
                     "lead_trump_out": 0, "lead_trump_drawn": 0, "infer": 1, "lead_beaters": 0}
PARTNERSHIP_SWITCHES = {"cash_first", "pull_defenders", "lead_ruff", "ruff_low", "smear_losers",
                        "smear_trump", "infer"}
# the scored lead replaces rules L1-L3, so their knobs are not searched with it on
PARTNERSHIP_FIXED = {"lead_score", "cash_first", "pull_defenders", "pull_window", "pull_min",
                     "lead_ruff"}
PARTNERSHIP_STEP = {name: 1 if name in PARTNERSHIP_SWITCHES else max(5, abs(v) // 2)
                    for name, v in PARTNERSHIP_START.items()}


# the widow games: the heuristic's rules (its knob values), the soloist burying his side aces
# last and a side suit of at most 3 cards first; searched are those two burial knobs, the
# defenders as partners and the S-rules' two thresholds (the strict scorer and the phase-1 knobs
# are another family's: docs/rules.md "Expert policy")
WIDOW_SEARCHED = {"bury_aces_last": 1, "bury_void": 1, "team": 1, "pull_margin": 1,
                  "take_last": 5, "bid_shift": 20}
# knobs the search keeps inside a range: bid_shift (estimate points the expert adds before
# reading its bid limit) at most 100, where the whole games it wins stop rising (docs/rules.md)
BOUNDS = {"bid_shift": (0, 100)}
WIDOW_SWITCHES = {"bury_aces_last", "team"}


def widow_space() -> tuple[dict, dict, set, set]:
    start = dict(zip(expert_play.KNOBS, HEURISTIC_TUNE)) | {"bury_aces_last": 1, "bury_void": 3}
    return (start, dict(WIDOW_SEARCHED), set(start) - set(WIDOW_SEARCHED), WIDOW_SWITCHES)


def search_space(rules) -> tuple[dict, dict, set, set]:
    """``(start, steps, fixed, switches)`` of ``rules``' family: the talon games' knobs, the
    widow games' (:func:`widow_space`) or the partnership family's
    (kernels/partnership/heuristic.py)."""
    if engine(rules) is partnership:
        return PARTNERSHIP_START, PARTNERSHIP_STEP, PARTNERSHIP_FIXED, PARTNERSHIP_SWITCHES
    if engine(rules) is widow:
        return widow_space()
    return START, STEP, FIXED, SWITCHES


def gain(rules, knobs: dict, deals: int, seed: int, threads: int) -> tuple[float, float]:
    """Expert minus heuristic per deal with ``knobs``, and its 95% half-width."""
    expert_play.override(rules.name, knobs)
    talon.family_tables.cache_clear()
    widow.family_tables.cache_clear()
    diff = duel(rules, "expert", "heuristic", deals, seed, threads=threads)
    return float(diff.mean()), float(1.96 * diff.std(ddof=1) / math.sqrt(len(diff)))


def fit(variant: str, deals: int, seed: int, threads: int, sweeps: int,
        start: dict | None = None, trials: int = 0) -> dict:
    rules = find_variant(variant)
    rng = random.Random(seed)
    first, first_steps, fixed, switches = search_space(rules)
    if not set(PLACE_KNOBS) & set(start or {}):
        fixed = fixed | set(PLACE_KNOBS)
    knobs = dict(first, **(start or {}))
    steps = dict(first_steps)
    best, _ = gain(rules, knobs, deals, seed, threads)
    print(f"{variant}: start {best:+.2f}", file=sys.stderr, flush=True)
    for sweep in range(sweeps):
        changed = False
        names = [n for n in knobs if n not in fixed]
        rng.shuffle(names)
        for name in names:
            for sign in (1, -1):
                value = knobs[name] + sign * steps[name]
                if name in switches and value not in (0, 1):
                    continue
                low, high = BOUNDS.get(name, (value, value))
                if not low <= value <= high:
                    continue
                trial = dict(knobs, **{name: value})
                value, _ = gain(rules, trial, deals, seed, threads)
                if value > best + 0.05:
                    knobs, best, changed = trial, value, True
                    break
        print(f"{variant}: sweep {sweep + 1}: {best:+.2f} (steps {sorted(set(steps.values()))})",
              file=sys.stderr, flush=True)
        if not changed:
            if all(s == 1 for s in steps.values()):
                break
            steps = {n: max(1, s // 2) for n, s in steps.items()}
    # then random trials: one to three knobs at once, a switch flipped, a weight moved by a
    # random multiple; a trial is kept when it raises the gain (past local optima of the sweeps)
    names = [n for n in knobs if n not in fixed]
    for trial_number in range(trials):
        trial = dict(knobs)
        for name in rng.sample(names, rng.choice([1, 2, 3])):
            if name in switches:
                trial[name] = 1 - trial[name]
            else:
                trial[name] += rng.choice([-1, 1]) * rng.choice([1, 2, 5, 10, 20])
                low, high = BOUNDS.get(name, (trial[name], trial[name]))
                trial[name] = min(max(trial[name], low), high)
        value, _ = gain(rules, trial, deals, seed, threads)
        if value > best + 0.03:
            knobs, best = trial, value
            print(f"{variant}: trial {trial_number + 1}: {best:+.2f}", file=sys.stderr,
                  flush=True)
    measured, half = gain(rules, knobs, deals, seed + 1, threads)
    expert_play.override(variant, None)
    return {"knobs": knobs, "fitted_gain": round(best, 2),
            "measured": {"gain": round(measured, 2), "ci95": [round(measured - half, 2),
                                                             round(measured + half, 2)],
                         "deals": deals, "seed": seed + 1}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", required=True)
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--sweeps", type=int, default=40)
    parser.add_argument("--out", default=str(expert_play.MODEL_FILE))
    parser.add_argument("--start", default="{}",
                        help="JSON: knobs to start from instead of the script's START")
    parser.add_argument("--trials", type=int, default=0,
                        help="random trials after the sweeps (1-3 knobs changed at once)")
    args = parser.parse_args()
    try:
        with open(args.out, encoding="utf-8") as f:
            model = json.load(f)
    except FileNotFoundError:
        model = {"variants": {}}
    for variant in args.variant:
        started = time.time()
        entry = fit(variant, args.deals, args.seed, args.threads, args.sweeps,
                    json.loads(args.start), args.trials)
        entry["provenance"] = {
            "command": "python scripts/fit_expert.py " + " ".join(
                f"--variant {variant} --deals {args.deals} --seed {args.seed} "
                f"--sweeps {args.sweeps}".split())
            + (f" --trials {args.trials}" if args.trials else "")
            + (f" --start '{args.start}'" if args.start != "{}" else ""),
            "fit_seed": args.seed, "deals": args.deals, "version": __version__,
            "date": datetime.date.today().isoformat(),
            "seconds": round(time.time() - started, 1)}
        model["variants"][variant] = entry
        print(f"{variant}: {entry['measured']}", file=sys.stderr, flush=True)
        model["about"] = ("The expert policy's knobs per variant (binokel_sim/expert_play.py), "
                          "fitted by scripts/fit_expert.py; 'measured' is expert minus heuristic "
                          "on fresh deals (stream fit_seed + 1) with its 95% interval.")
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(model, f, indent=1, sort_keys=True)
            f.write("\n")


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
