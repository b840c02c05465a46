"""Distil the sampling policy's phase-1 follows into the talon expert's place weights (issue 28).

The talon games' expert scores a follower's cards with the ``follow_*`` weights plus the weights
of its place in the trick (``second_*``, ``third_*``, ``last_*``, ``third_partner_*``,
``last_partner_*``; docs/rules.md "Expert policy"). This script finds a starting point for
``scripts/fit_expert.py`` from what the sampling policy plays:

1. plays ``--deals`` deals with the sampling policy on every seat (``--samples`` a decision,
   stream ``--seed``), and replays them through the twin (``reference/talon_play.py``), which
   gives at each phase-1 follow with two or more card types the features the kernel's scorer
   reads (``kernels/strict/heuristic.py:scored_card``) for every legal card, and the card the
   sampling seat played;
2. per place named in ``--places``, fits a conditional logit (the card played against the
   others, L-BFGS with a small ridge, deals ``d % 5 != 0``), prints its agreement with the
   sampling card on the held-out deals next to the expert's of ``--base`` (the shipped knobs by
   default), and turns the weights, times ``--scale`` and rounded, into the place's knobs: what
   they must add to the base's ``follow_*`` knobs (``follow_over`` and ``follow_smear`` under
   the partner's card) to give the fitted weights;
3. prints the base's knobs of the variant with those place knobs as JSON, for
   ``fit_expert.py --start``.

What it found for four-hand-72 (docs/rules.md): the sampling seat second in the trick, under an
opponent's card with its partner still to play, often lets the trick go (it wins about half the
tricks it could; the expert won every one) and then throws an ace or ten for the partner to
take; a start with those second-hand weights played +61 against the heuristic (the expert
before them +52) and the fit took it to +85. The shipped start extends the knobs of commit
dfd6341::

    git show dfd6341:binokel_sim/expert_play.json > /tmp/base.json
    python scripts/distill_follow.py --variant four-hand-72 --deals 4000 --seed 5 \\
        --samples 128 --places second --scale 20 --base /tmp/base.json
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time

import numpy as np
from scipy.optimize import minimize

from binokel_sim import expert_play
from binokel_sim.cards import planes_to_counts, type_rank
from binokel_sim.engines import talon as talon_games
from binokel_sim.errors import RulesError
from binokel_sim.reference import talon_play as tp
from binokel_sim.reference.play import trick_winner
from binokel_sim.variants import find_variant


def follows(rules, deals: int, seed: int, samples: int, knobs: dict[str, int]) -> list[dict]:
    """The sampling policy's phase-1 follows with a choice: per follow its place, the legal
    cards' features (:func:`features`), the index of the card played and of the card the expert
    with ``knobs`` would have played."""
    played = talon_games.run_play(rules, deals, seed, "sampling", samples_per_move=samples)
    out = []
    for d in range(deals):
        talon = [int(x) for x in played.talon[d]]
        hands = [[int(n) for n in h] for h in planes_to_counts(played.hands[d])]
        deal = tp.new_deal(rules, hands, talon, d % rules.players)
        for k in range(deal.phase1):
            for i in range(rules.players):
                card = int(played.trick_cards[d, k, i])
                legal = sorted(deal.legal())
                if i > 0 and len(legal) >= 2:
                    place, rows = features(deal, legal, knobs["win_points"])
                    out.append({"deal": d, "place": place, "x": rows,
                                "played": legal.index(card),
                                "expert": legal.index(tp.heuristic_choice(deal, expert=True))})
                tp.play_card(deal, card)
            tp.end_trick(deal, tp.heuristic_declare)
            if deal.leader != played.trick_winners[d, k]:
                raise SystemExit(f"deal {d}, trick {k}: the twin's winner differs")
    return out


def features(deal, legal: list[int], win_points: int) -> tuple[str, np.ndarray]:
    """The follower's place and, per legal card, the features its place weights multiply
    (``expert_play.PLACE_FEATURES``), as the kernel computes them: ``ready`` and ``pending``
    only when some legal card takes the trick and the table holds fewer than ``win_points``
    (the expert's knob)."""
    rules, seat, trump = deal.rules, deal.seat(), deal.trump
    i = len(deal.trick)
    led = deal.trick[0] // 6
    win = deal.trick[trick_winner(deal.trick, trump)]
    win_seat = (deal.leader + trick_winner(deal.trick, trump)) % rules.players
    partner = bool(rules.partnerships) and win_seat == seat ^ 2
    wins = tp._beats(set(legal), win, led, trump)
    points = sum(rules.rank_points[type_rank(t)] for t in deal.trick)
    ready, pending = 0, set()
    if wins and points < win_points:
        ready, pending = tp.waiting(rules, deal.hands[seat], trump)
    keep = tp._keep(trump)
    rows = []
    for c in legal:
        w = int(c in wins)
        big = int(type_rank(c) >= tp.RANK_T)
        trumps = int(c // 6 == trump)
        rank = type_rank(c)
        rows.append([w, w * points, w * (ready // 10), w * big, (1 - w) * big, int(c in keep),
                     trumps, rank, int(c in pending), int(tp.served_count(deal, seat, c) > 0),
                     w * trumps, w * rank])
    return tp.place_of(i, partner, i == rules.players - 1), np.array(rows, dtype=float)


def logit(data: list[dict], ridge: float) -> np.ndarray:
    """The conditional logit's weights: the card played against the other legal cards."""
    n = len(expert_play.PLACE_FEATURES)

    def loss(w):
        total, grad = 0.0, np.zeros(n)
        for row in data:
            s = row["x"] @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            total -= np.log(p[row["played"]])
            grad -= row["x"][row["played"]] - p @ row["x"]
        return total / len(data) + ridge * w @ w, grad / len(data) + 2 * ridge * w

    return minimize(loss, np.zeros(n), jac=True, method="L-BFGS-B").x


def base_weights(knobs: dict[str, int], partner: bool) -> dict[str, int]:
    """What the shipped ``follow_*`` knobs already give each place feature."""
    base = dict.fromkeys(expert_play.PLACE_FEATURES, 0)
    base |= {"keep": knobs["follow_keep"], "trump": knobs["follow_trump"],
             "rank": knobs["follow_rank"], "pending": knobs["follow_pending"],
             "shown": knobs["follow_shown"]}
    if partner:
        return base | {"win": knobs["follow_over"], "big_loses": knobs["follow_smear"]}
    return base | {"win": knobs["follow_win"], "take": knobs["follow_take"],
                   "ready": knobs["follow_ready"], "big_wins": knobs["follow_big_wins"],
                   "big_loses": knobs["follow_big_loses"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="four-hand-72")
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--samples", type=int, default=128)
    parser.add_argument("--places", default="second",
                        help="comma-separated places to fit: " + ", ".join(expert_play.PLACES))
    parser.add_argument("--scale", type=float, default=20.0,
                        help="knob points per logit unit")
    parser.add_argument("--ridge", type=float, default=1e-3)
    parser.add_argument("--base", default=str(expert_play.MODEL_FILE),
                        help="an expert_play.json whose knobs of the variant the start extends")
    args = parser.parse_args()
    try:
        rules = find_variant(args.variant)
    except RulesError as e:
        raise SystemExit(str(e)) from None
    places = args.places.split(",")
    unknown = set(places) - set(expert_play.PLACES)
    if unknown:
        raise SystemExit(f"unknown places {sorted(unknown)}; known: "
                         + ", ".join(expert_play.PLACES))
    try:
        with open(args.base, encoding="utf-8") as f:
            fitted = json.load(f).get("variants", {}).get(rules.name, {}).get("knobs")
    except (OSError, ValueError) as e:
        raise SystemExit(f"cannot read --base {args.base}: {e}") from None
    if fitted is None:
        raise SystemExit(f"{args.base}: no expert knobs for {rules.name}")
    knobs = tp.HEURISTIC_KNOBS | fitted
    started = time.time()
    expert_play.override(rules.name, knobs)  # the base's expert, for the agreement printed
    try:
        data = follows(rules, args.deals, args.seed, args.samples, knobs)
    finally:
        expert_play.override(rules.name, None)
    print(f"{len(data):,} follows in {time.time() - started:.0f} s", file=sys.stderr)
    by_place = collections.defaultdict(list)
    for row in data:
        by_place[row["place"]].append(row)
    start = dict(fitted)
    if any(place.endswith("_partner") for place in places):
        start["partner_rules"] = 0  # the scorer, not rule E3, under the partner's card
    for place in places:
        rows = by_place[place]
        if not rows:
            raise SystemExit(f"{rules.name} has no follows in the place {place}")
        train = [r for r in rows if r["deal"] % 5]
        held = [r for r in rows if r["deal"] % 5 == 0]
        weights = np.round(logit(train, args.ridge) * args.scale)
        agree = np.mean([int(np.argmax(r["x"] @ weights)) == r["played"] for r in held])
        shipped = np.mean([r["expert"] == r["played"] for r in held])
        print(f"{place}: {len(rows):,} follows; held-out agreement with sampling: fitted "
              f"{agree:.3f}, the base's expert {shipped:.3f}; weights "
              f"{dict(zip(expert_play.PLACE_FEATURES, weights.astype(int).tolist()))}",
              file=sys.stderr)
        base = base_weights(knobs, place.endswith("_partner"))
        for name, w in zip(expert_play.PLACE_FEATURES, weights):
            start[f"{place}_{name}"] = int(w) - base[name]
    print(json.dumps(start, sort_keys=True))


if __name__ == "__main__":
    main()
