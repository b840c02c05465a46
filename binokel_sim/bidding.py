"""The bidding ladder and the documented bidding heuristic used by ``play``.

Contract: SPEC.md, four-hand-80 "Bidding": bids 50, 51, ..., 59, then 60, 65, 70, ... (the
variant's ``bidding.ladder``); a pass is final; if the first three players pass, the dealer plays
at the minimum.
"""

from __future__ import annotations

from binokel_sim.variants import Rules


def minimum_bid(rules: Rules) -> int:
    if not rules.bid_ladder:
        raise ValueError(f"variant {rules.name} has no bidding ladder")
    return rules.bid_ladder[0][0]


def next_bid(rules: Rules, current: int | None) -> int:
    """The smallest legal bid above ``current`` (the minimum when nobody has bid)."""
    if current is None:
        return minimum_bid(rules)
    candidate = current + 1
    # round up to the grid of the rung the candidate stands on (its start, then its step), but
    # never past the start of the next rung, which is always a legal bid
    rungs = rules.bid_ladder
    for i in range(len(rungs) - 1, -1, -1):
        start, rung_step = rungs[i]
        if candidate >= start:
            offset = (candidate - start) % rung_step
            bid = candidate if offset == 0 else candidate + rung_step - offset
            return min(bid, rungs[i + 1][0]) if i + 1 < len(rungs) else bid
    return candidate


def ladder(rules: Rules, up_to: int) -> list[int]:
    """Every legal bid from the minimum up to ``up_to`` inclusive."""
    bids, bid = [], minimum_bid(rules)
    while bid <= up_to:
        bids.append(bid)
        bid = next_bid(rules, bid)
    return bids
