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
    that seat's limit (:func:`auction_bounds`, ``kernels.widow.deals.fits_auction``). Under
    ``order = "skat"``: :func:`parse_skat_auction`."""
    players = rules.players
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise SimulationError("--auction: no calls given (bids as numbers, passes as 'pass', "
                              "from the dealer's left)")
    if rules.bid_order == "skat":
        return parse_skat_auction(rules, tokens, dealer)
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
        if word in HOLDS:
            raise SimulationError(f"--auction: call {i} is {token!r}, but in {rules.name} the "
                                  f"calls go round the table: a call bids or passes")
        if word in PASSES:
            if i == 1 and rules.all_pass == "vorhand_opens":
                raise SimulationError(f"--auction: call 1 is a pass, but in {rules.name} "
                                      f"Vorhand (the dealer's left) must open "
                                      f"(all_pass = \"vorhand_opens\")")
            calls.append((seat, NO_BID))
            passed.add(seat)
        else:
            bid = read_bid(rules, token, i, current)
            calls.append((seat, bid))
            current = bid
        seat = (seat + 1) % players
    return calls


PASSES = ("pass", "p", "-", "weg")
HOLDS = ("hold", "ja", "yes")  # Skat-style: the listener keeps the bid said at its value


def read_bid(rules: Rules, token: str, i: int, current: int | None) -> int:
    """Call ``i`` of ``--auction`` read as a bid above ``current`` on the ladder (a jump to a
    higher rung allowed), or one clear error."""
    bid = read_int(token.lower(), signed=False)
    if bid is None:
        raise SimulationError(f"--auction: call {i} is {token!r}, not a bid or 'pass' "
                              f"(bids are written with the digits 0-9)")
    lowest = next_bid(rules, current)
    if bid < lowest or next_bid(rules, bid - 1) != bid:
        raise SimulationError(f"--auction: call {i} bids {bid}; the next legal bid is "
                              f"{lowest} or a higher rung of the ladder")
    return bid


def parse_skat_auction(rules: Rules, tokens: list[str], dealer: int) -> list[tuple[int, int]]:
    """:func:`parse_auction` under ``order = "skat"`` (docs/rules.md "Widow games", "The
    auction"): Vorhand (the dealer's left) listens, the next seat says bids to him and he
    answers each with ``hold`` (or ``ja``, or the same number: kept as a call of that value) or
    ``pass``; the survivor listens to the next seat, the dealer saying last; when nobody said a
    bid, Vorhand calls last (a bid or, but under ``all_pass = "vorhand_opens"``, a pass).
    Checked: whose call each one is, that a say is a bid on the ladder above the last (a jump
    allowed) or a pass, that an answer is a hold or a pass, and that the auction has not
    ended."""
    players = rules.players
    vorhand = (dealer + 1) % players
    sayers = [(vorhand + k) % players for k in range(1, players)]
    calls: list[tuple[int, int]] = []
    current: int | None = None
    hearer, next_sayer, expect = vorhand, 0, "say"
    for i, token in enumerate(tokens, start=1):
        word = token.lower()
        if expect == "ended":
            raise SimulationError(f"--auction: call {i} ({token!r}) comes after the auction "
                                  f"ended")
        if expect == "hold":
            if word in PASSES:
                calls.append((hearer, NO_BID))
                hearer, next_sayer, expect = sayers[next_sayer], next_sayer + 1, "say"
            elif word in HOLDS or read_int(word, signed=False) == current:
                calls.append((hearer, int(current)))
                expect = "say"
            else:
                raise SimulationError(f"--auction: call {i} is {token!r}, but it is seat "
                                      f"{hearer}'s answer to {current}: 'hold' (or {current}) "
                                      f"or 'pass' (order = \"skat\")")
        elif expect == "final":
            if word in HOLDS:
                raise SimulationError(f"--auction: call {i} is {token!r}, but nobody said a "
                                      f"bid to hold: Vorhand (seat {vorhand}) bids or passes")
            if word in PASSES:
                if rules.all_pass == "vorhand_opens":
                    raise SimulationError(f"--auction: call {i} is a pass, but in {rules.name} "
                                          f"Vorhand (the dealer's left) must open when nobody "
                                          f"said a bid (all_pass = \"vorhand_opens\")")
                calls.append((vorhand, NO_BID))
            else:
                calls.append((vorhand, read_bid(rules, token, i, None)))
            expect = "ended"
            continue
        else:  # a say by the next seat to the one listening
            sayer = sayers[next_sayer]
            if word in HOLDS:
                raise SimulationError(f"--auction: call {i} is {token!r}, but it is seat "
                                      f"{sayer}'s turn to say a bid to seat {hearer} (or pass) "
                                      f"(order = \"skat\")")
            if word in PASSES:
                calls.append((sayer, NO_BID))
                next_sayer += 1
            else:
                current = read_bid(rules, token, i, current)
                calls.append((sayer, current))
                expect = "hold"
        if expect == "say" and next_sayer == len(sayers):
            expect = "ended" if current is not None else "final"
    return calls
