"""The expert's bidding in the widow games (issue 52; docs/rules.md "Widow games", "Policies",
*Expert bidding*): "weg" at the first call with a hand that holds nothing, never raising the
partner's standing bid once both opponents have passed, and raising it while they are in only
when clearly stronger. The kernel's rule against its twin's on every combination of its inputs,
and what the auctions show. (Deal for deal the expert's auctions against the twin's:
tests/test_widow.py, the fitted expert and the trial knobs.)
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from binokel_sim import expert_play
from binokel_sim.engines import widow
from binokel_sim.kernels.widow.deals import I_CALLS, holds_back
from binokel_sim.reference import widow_policy
from binokel_sim.variants import find_variant


def raises(rules, played) -> tuple[int, int]:
    """Deals in which a seat raised its partner's standing bid: in all, and once both
    opponents had passed."""
    any_raise = after_out = 0
    for d in range(played.info.shape[0]):
        active, holder, raised, raised_out = [True] * rules.players, -1, False, False
        for k in range(int(played.info[d, I_CALLS])):
            seat, value = int(played.bid_seats[d, k]), int(played.bid_values[d, k])
            if value < 0:
                active[seat] = False
                continue
            if holder >= 0 and holder % 2 == seat % 2:
                raised = True
                raised_out |= not any(active[o] for o in range(rules.players)
                                      if o % 2 != seat % 2)
            holder = seat
        any_raise += raised
        after_out += raised_out
    return any_raise, after_out


@pytest.mark.parametrize("name", ["kreuz-4-40", "four-hand-widow-48"])
def test_no_partner_raise_once_the_opponents_are_out(name):
    """1,500 expert deals: no seat raises its partner once both opponents have passed; the
    heuristic's plain ladder does (the old bidding), so the check can fail."""
    rules = find_variant(name)
    expert = raises(rules, widow.run_play(rules, 1500, 3, "expert"))
    plain = raises(rules, widow.run_play(rules, 1500, 3, "heuristic"))
    assert expert[1] == 0
    assert plain[1] > 100
    assert 0 < expert[0] < plain[0]  # a clearly stronger hand still takes over while they bid


def test_weak_swabian_hands_say_weg():
    """2,000 swabian-3-40 deals: hands whose best meld before the Dabb is at most 40 bid in at
    most 20% of cases under the expert, against more than half under the heuristic's ladder."""
    from binokel_sim.kernels.melds import score_hand

    rules = find_variant("swabian-3-40")
    kt = widow.family_tables(rules).kt
    shares = []
    for policy in ("expert", "heuristic"):
        played = widow.run_play(rules, 2000, 5, policy)
        bid = np.zeros((2000, rules.players), dtype=bool)
        for d in range(2000):
            for k in range(int(played.info[d, I_CALLS])):
                if played.bid_values[d, k] >= 0:
                    bid[d, played.bid_seats[d, k]] = True
        totals = np.empty(4, np.int64)
        weak = np.zeros_like(bid)
        for d in range(2000):
            for s in range(rules.players):
                score_hand(*played.hands[d, s], kt, totals)
                weak[d, s] = totals.max() <= 40
        shares.append(bid[weak].mean())
    assert shares[0] <= 0.20 < 0.5 < shares[1]


def test_holds_back_kernel_equals_twin():
    """Every combination of first call or not, the holder (none, the seat, its partner, an
    opponent), which opponents are still in, the knobs and the limit against the offer."""
    four = find_variant("kreuz-4-40")
    three = find_variant("swabian-3-40")
    checked = 0
    for rules in (four, three):
        players = rules.players
        for first, holder, ins, open_margin, partner, limit, meld in itertools.product(
                (True, False), (-1, 0, 1, 2), itertools.product((True, False), repeat=players),
                (0, 60, 130), (0, 1, 30), (200, 230, 260), (0, 40, 100)):
            seat, offer = 0, 210
            if limit < offer:
                continue
            active = np.array(ins, dtype=np.bool_)
            kernel = holds_back(seat, offer, limit, first, holder, active,
                                bool(rules.partnerships), open_margin, partner, meld)
            twin = widow_policy.holds_back(
                rules, widow_policy.Reserve(open_margin, partner, meld), seat, offer, limit,
                first, None if holder < 0 else holder, list(ins))
            assert kernel == twin, (rules.name, first, holder, ins, open_margin, partner, limit)
            checked += 1
    assert checked > 1000


def test_the_fitted_bidding_knobs_are_the_experts():
    """The widow games' expert carries the fitted bidding knobs (scripts/fit_bidding.py): a
    weg margin in the Swabian game, holding back behind the partner in the partnership ones."""
    swabian = expert_play.knobs("swabian-3-40", dict.fromkeys(expert_play.KNOBS, 0))
    assert swabian["bid_open"] > 0
    for name in ("kreuz-4-40", "four-hand-widow-48"):
        assert expert_play.knobs(name, dict.fromkeys(expert_play.KNOBS, 0))["bid_partner"] > 0
