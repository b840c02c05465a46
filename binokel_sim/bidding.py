"""The bidding ladder and the documented bidding heuristic used by ``play``.

Contract: SPEC.md, four-hand-80 "Bidding": bids 50, 51, ..., 59, then 60, 65, 70, ... (the
variant's ``bidding.ladder``); a pass is final; if the first three players pass, the dealer plays
at the minimum.
"""

from __future__ import annotations

import numpy as np

from binokel_sim.constants import NO_BID
from binokel_sim.errors import SimulationError
from binokel_sim.numbers import read_int
from binokel_sim.variants import Rules

BIG = np.iinfo(np.int64).max  # no upper bound on a limit


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


def auction_bounds(rules: Rules, bidder: int, calls, margin: int = 0
                   ) -> tuple[np.ndarray, np.ndarray]:
    """What an auction told about each hand's heuristic bid limit, by seat counted from
    ``bidder`` (0 the bidder, 1 left, 2 partner, 3 right): ``(lo, hi)`` int64 (4,). ``calls`` are
    ``(seat, bid)`` in order (absolute seats, a pass ``NO_BID``). A seat's limit is at least
    the highest bid it made (it bids the next rung while that is within its limit) and below
    the offer it passed at; a seat that never called (the dealer when the first three pass) is
    not bounded. ``margin``: every seat's knob ``bid_partner`` (the expert's; 0 the plain
    ladder, ``kernels.auction.behind_partner``): behind its partner's standing bid a seat that
    raised holds a limit at least ``margin`` above the offer; one that passed while an
    opponent was in, a limit below that; one that passed once both opponents were out told
    nothing. A raise of the partner once both opponents were out is impossible with a margin
    (a :class:`SimulationError`)."""
    lo = np.full(4, NO_BID, dtype=np.int64)
    hi = np.full(4, BIG, dtype=np.int64)
    current = None
    holder = None
    still_in = [True] * 4
    for seat, bid in calls:
        seat = int(seat)
        k = (seat - bidder) % 4
        offer = next_bid(rules, current)
        behind = margin > 0 and holder is not None and holder != seat and holder % 2 == seat % 2
        opponents_in = any(still_in[o] for o in range(4) if o % 2 != seat % 2)
        if bid == NO_BID:
            still_in[seat] = False
            if not behind:
                hi[k] = offer - 1
            elif opponents_in:
                hi[k] = min(hi[k], offer + margin - 1)
        else:
            if behind and not opponents_in:
                raise SimulationError(f"--auction: seat {k} raises its partner's bid after both "
                                      f"opponents passed, which the expert never does")
            lo[k] = max(lo[k], int(bid), offer + margin if behind else int(bid))
            current, holder = int(bid), seat
    return lo, hi


def parse_auction(rules: Rules, text: str, dealer: int) -> list[tuple[int, int]]:
    """The calls of ``bid-odds --auction`` as ``(seat, bid)`` (seats counted from the hand's seat
    0: 1 left, 2 partner (four players) or right (three), 3 right; a pass ``NO_BID``). ``text``
    is the calls so far in order, from the dealer's left: bids as numbers, passes as ``pass``
    (or ``p``, ``-``, or the Swabian ``weg``). Checked: each bid is on the ladder and above the
    last, a seat that passed calls no more, the auction has not ended (all but one passed), and
    under ``all_pass = "vorhand_opens"`` the first call is a bid. A jump bid (above the next
    rung) is accepted: the bidding policies never jump, so it reads only as a lower bound on
    that seat's limit (:func:`auction_bounds`, ``kernels.widow.deals.fits_auction``)."""
    players = rules.players
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise SimulationError("--auction: no calls given (bids as numbers, passes as 'pass', "
                              "from the dealer's left)")
    calls: list[tuple[int, int]] = []
    passed: set[int] = set()
    current = None
    seat = (dealer + 1) % players
    for i, token in enumerate(tokens, start=1):
        while seat in passed:
            seat = (seat + 1) % players
        if len(passed) == players - 1:
            raise SimulationError(f"--auction: call {i} ({token!r}) comes after the auction "
                                  f"ended ({players - 1} passes)")
        word = token.lower()
        if word in ("pass", "p", "-", "weg"):
            if i == 1 and rules.all_pass == "vorhand_opens":
                raise SimulationError(f"--auction: call 1 is a pass, but in {rules.name} "
                                      f"Vorhand (the dealer's left) must open "
                                      f"(all_pass = \"vorhand_opens\")")
            calls.append((seat, NO_BID))
            passed.add(seat)
        else:
            bid = read_int(word, signed=False)
            if bid is None:
                raise SimulationError(f"--auction: call {i} is {token!r}, not a bid or 'pass' "
                                      f"(bids are written with the digits 0-9)")
            lowest = next_bid(rules, current)
            if bid < lowest or next_bid(rules, bid - 1) != bid:
                raise SimulationError(f"--auction: call {i} bids {bid}; the next legal bid is "
                                      f"{lowest} or a higher rung of the ladder")
            calls.append((seat, bid))
            current = bid
        seat = (seat + 1) % players
    return calls
