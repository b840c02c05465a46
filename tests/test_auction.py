"""Bidding: the ladder, the auction and the bidding heuristic's limit, each kernel against the SPEC
text and its pure-Python twin in :mod:`binokel_sim.reference.play` (SPEC.md, four-hand-80
"Bidding" and "Trump")."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from binokel_sim import bidding, pair_value
from binokel_sim.cards import counts_of, counts_to_planes, parse_cards
from binokel_sim.kernels.auction import NO_BID, auction, bid_limit, next_bid
from binokel_sim.reference import play as ref
from binokel_sim.reference.core import meld_total
from binokel_sim.tables import compile_tables
from binokel_sim.variants import find_variant

from conftest import counts

RULES = find_variant("four-hand-80")
TABLES = compile_tables(RULES)
DECK = [int(t) for t in TABLES.deck]
HAND = RULES.hand_size
# SPEC.md, four-hand-80 "Bidding": 50, 51, ..., 59, then 60, 65, 70, ... (written out, not derived)
SPEC_LADDER = list(range(50, 60)) + list(range(60, 401, 5))
S, H, D, C = range(4)


# --- the ladder --------------------------------------------------------------------------------

def test_ladder_is_the_spec_ladder():
    assert bidding.ladder(RULES, 400) == SPEC_LADDER
    assert bidding.ladder(RULES, 64) == list(range(50, 61))
    assert bidding.ladder(RULES, 49) == []
    assert bidding.minimum_bid(RULES) == 50
    assert ref.legal_bids(RULES.bid_ladder, 400) == SPEC_LADDER


@pytest.mark.parametrize("current", [-1] + list(range(50, 396)))
def test_next_bid_is_the_next_rung(current):
    want = SPEC_LADDER[0] if current < 0 else min(b for b in SPEC_LADDER if b > current)
    assert next_bid(TABLES.ladder, current) == want
    assert ref.next_bid(RULES.bid_ladder, current) == want
    assert bidding.next_bid(RULES, None if current < 0 else current) == want


def test_next_bid_known_answers():
    ladder = TABLES.ladder
    assert [next_bid(ladder, x) for x in (NO_BID, 50, 58, 59, 60, 61, 64, 65, 99, 100)] == \
        [50, 51, 59, 60, 65, 65, 65, 70, 100, 105]


# --- the auction -------------------------------------------------------------------------------

def kernel_auction(limits, dealer, max_calls=96, margins=(0, 0, 0, 0)):
    seats = np.full(max_calls, -7, dtype=np.int64)
    values = np.full(max_calls, -7, dtype=np.int64)
    bidder, bid, n = auction(np.array(limits, dtype=np.int64), dealer, TABLES.ladder, seats,
                             values, np.array(margins, dtype=np.int64))
    calls = [(int(s), None if v == NO_BID else int(v))
             for s, v in zip(seats[:min(n, max_calls)], values[:min(n, max_calls)])]
    return int(bidder), int(bid), int(n), calls


@pytest.mark.parametrize("limits, dealer, bidder, bid, calls", [
    # everybody too weak: the first three pass, the dealer plays at 50 without a call
    ([-1, -1, -1, -1], 0, 0, 50, [(1, None), (2, None), (3, None)]),
    # ... even when the dealer would have bid higher: he gets no call
    ([49, 10, 100, -1], 2, 2, 50, [(3, None), (0, None), (1, None)]),
    # one bidder: he takes it at the minimum, whoever passes after him
    ([-1, 70, -1, -1], 0, 1, 50, [(1, 50), (2, None), (3, None), (0, None)]),
    ([-1, -1, -1, 80], 0, 3, 50, [(1, None), (2, None), (3, 50), (0, None)]),
    # the dealer outbids a single earlier bidder
    ([52, 50, -1, -1], 0, 0, 51, [(1, 50), (2, None), (3, None), (0, 51), (1, None)]),
    # equal limits: the bids climb one step each until the limit; whoever reaches it first holds
    ([55, 55, 55, 55], 0, 2, 55,
     [(1, 50), (2, 51), (3, 52), (0, 53), (1, 54), (2, 55), (3, None), (0, None), (1, None)]),
    # across the 59 -> 60 -> 65 rungs
    ([-1, 61, 65, -1], 0, 2, 65,
     [(1, 50), (2, 51), (3, None), (0, None), (1, 52), (2, 53), (1, 54), (2, 55), (1, 56),
      (2, 57), (1, 58), (2, 59), (1, 60), (2, 65), (1, None)]),
])
def test_auction_known_answers(limits, dealer, bidder, bid, calls):
    assert kernel_auction(limits, dealer) == (bidder, bid, len(calls), calls)
    assert ref.auction(limits, dealer, RULES) == (bidder, bid, calls)


# limits around the ladder's interesting places, with repeats for ties
LIMITS = st.one_of(st.just(NO_BID), st.integers(0, 49), st.sampled_from([50, 51, 55, 59, 60, 64,
                                                                          65, 66, 70]),
                   st.integers(50, 160))


@given(st.lists(LIMITS, min_size=4, max_size=4), st.integers(0, 3))
def test_auction_equals_reference(limits, dealer):
    bidder, bid, calls = ref.auction(limits, dealer, RULES)
    assert kernel_auction(limits, dealer) == (bidder, bid, len(calls), calls)
    # what any auction must satisfy (SPEC.md "Bidding")
    assert calls[0][0] == (dealer + 1) % 4
    made = [v for _, v in calls if v is not None]
    assert made == sorted(set(made)) and all(v in SPEC_LADDER for v in made)
    assert sum(v is None for _, v in calls) == 3  # one player remains
    for i, (seat, _) in enumerate(calls):
        assert (seat, None) not in calls[:i], "a pass is final"
        if i:
            assert seat != calls[i - 1][0], "turns go round the players still in"
    passed = {s for s, v in calls if v is None}
    if made:
        assert (bidder, bid) == [c for c in calls if c[1] is not None][-1]
        assert bid <= limits[bidder] and bidder not in passed
    else:
        assert (bidder, bid) == (dealer, 50) and len(calls) == 3


@given(st.lists(LIMITS, min_size=4, max_size=4), st.integers(0, 3),
       st.lists(st.sampled_from([0, 1, 3, 5, 10]), min_size=4, max_size=4))
def test_auction_behind_the_partner_equals_reference(limits, dealer, margins):
    """With each seat's knob ``bid_partner`` (the expert's, docs/rules.md *Expert bidding*):
    kernel and twin alike, and no seat with a margin raises its partner once both opponents
    have passed, nor while they are in without a limit that far above its bid."""
    bidder, bid, calls = ref.auction(limits, dealer, RULES, margins)
    assert kernel_auction(limits, dealer, margins=margins) == (bidder, bid, len(calls), calls)
    still_in, holder, current = [True] * 4, None, None
    for seat, value in calls:
        if value is None:
            still_in[seat] = False
            continue
        if holder is not None and holder % 2 == seat % 2 and margins[seat] > 0:
            assert any(still_in[o] for o in range(4) if o % 2 != seat % 2)
            assert limits[seat] >= value + margins[seat]
        holder, current = seat, value


def test_the_partner_margin_changes_auctions():
    """The known cases: partners 0 and 2 with room to raise each other while the opponents
    pass. The plain ladder climbs to 55 against the partner; with a margin of 10 seat 2 (limit
    56) lets him hold 50; with 1 it takes over while seat 3 is still in, and seat 0 then lets
    it hold 51, both opponents being out."""
    plain = kernel_auction([55, -1, 56, -1], 3)
    held = kernel_auction([55, -1, 56, -1], 3, margins=(10, 10, 10, 10))
    once = kernel_auction([55, -1, 56, -1], 3, margins=(1, 1, 1, 1))
    assert plain[:2] == (2, 55) and held[:2] == (0, 50) and once[:2] == (2, 51)
    assert held[3] == [(0, 50), (1, None), (2, None), (3, None)]
    assert once[3] == [(0, 50), (1, None), (2, 51), (3, None), (0, None)]


@given(st.lists(LIMITS, min_size=4, max_size=4), st.integers(0, 3), st.integers(0, 5))
def test_auction_short_call_buffer(limits, dealer, max_calls):
    """The calls stop at the buffer's length; the count and the result do not."""
    full = kernel_auction(limits, dealer)
    short = kernel_auction(limits, dealer, max_calls)
    assert short[:3] == full[:3]
    assert short[3] == full[3][:max_calls]


# --- the bid limit -----------------------------------------------------------------------------

def kernel_limit(hand_counts):
    planes = counts_to_planes(hand_counts)
    totals = np.full(4, -99, dtype=np.int64)
    limit, trump = bid_limit(planes[0], planes[1], planes[2], planes[3], TABLES.kt,
                             TABLES.trump_need, totals, pair_value.weights(RULES),
                             pair_value.limit_table(RULES))
    return int(limit), int(trump), [int(x) for x in totals]


def test_bid_limit_example_hand():
    # trump S: aces around 10 + kings around 8 + run 15 + one royal marriage outside the run 4
    # + common marriages H, D 4 + binokel twice 30 = 71; H: 10 + 8 + royal 4 + common S twice,
    # D once 6 + 30 = 58; D: 58. C has no queen: not a candidate. Eight spades (two aces, a
    # ten), five aces and three tens in all, no void: the play estimate (the fitted weights, in
    # points) and the table's limit at meld 71; S beats H and D on meld and on spades.
    hand = counts(RULES, RULES.example_hand)
    limit, trump, totals = kernel_limit(hand)
    assert totals[:3] == [71, 58, 58]
    assert pair_value.features(list(hand), S) == [8, 5, 3, 3, 0]
    w = pair_value.weights(RULES)
    play = (int(w[0]) + 8 * int(w[1]) + 5 * int(w[2]) + 3 * int(w[3]) + 3 * int(w[4])) // 1024
    assert play == pair_value.play_estimate(RULES, [8, 5, 3, 3, 0])
    assert (limit, trump) == (int(pair_value.limit_table(RULES)[71, play]), S)
    assert ref.bid_limit(RULES, list(hand)) == (limit, S)
    # the hand is worth far more than the minimum: it bids on (the model: about 71 + 16 partner
    # meld + 30 play)
    assert limit >= 90


def test_bid_limit_without_marriage():
    hand = counts(RULES, "KS KS KS KS KH KH KH KH KD KD KD KD KC KC KC KC AS AH AD AC")
    assert kernel_limit(hand)[:2] == (NO_BID, -1)
    assert ref.bid_limit(RULES, list(hand)) == (NO_BID, -1)


def test_bid_limit_tie_takes_the_first_suit():
    # marriages in H and C only, mirror images: equal values, H (suit 1) comes first
    hand = counts(RULES, "KH QH AH TH JH KC QC AC TC JC JS JS TS TS JD JD TD TD AS AD")
    limit, trump, totals = kernel_limit(hand)
    assert totals[H] == totals[C] and trump == H
    assert ref.bid_limit(RULES, list(hand)) == (limit, H)


@st.composite
def hands(draw):
    """20 cards from the 80-card deck, sometimes from a deck without the kings or queens of some
    suits (hands with few or no marriages)."""
    missing = draw(st.sets(st.sampled_from([(r, s) for r in "KQ" for s in "SHDC"]), max_size=8))
    gone = {parse_cards([r + s])[0] for r, s in missing}
    pool = [t for t in DECK if t not in gone]
    cards = draw(st.permutations(pool))
    return counts_of(cards[:HAND])


@given(hands())
def test_bid_limit_equals_reference(hand):
    limit, trump, totals = kernel_limit(hand)
    assert totals == [meld_total(RULES, list(hand), s) for s in range(4)]
    assert (limit, trump) == ref.bid_limit(RULES, list(hand))
    married = [s for s in range(4) if hand[s * 6 + 3] > 0 and hand[s * 6 + 2] > 0]
    assert (trump in married) if married else (limit, trump) == (NO_BID, -1)


# --- a ladder whose step does not land on the next rung's start (house rules) ------------------

def test_ladder_never_jumps_over_the_next_rung():
    # [[50, 4], [60, 5]]: 50, 54, 58, then 60 (the next rung's start), 65, 70
    import dataclasses

    from binokel_sim.variants import find_variant

    rules = dataclasses.replace(find_variant("four-hand-80"), bid_ladder=((50, 4), (60, 5)))
    expected = [50, 54, 58, 60, 65, 70]
    assert bidding.ladder(rules, 70) == expected
    ladder_arr = np.array(rules.bid_ladder, dtype=np.int64)
    bid, seen = -1, []
    for _ in expected:
        bid = next_bid(ladder_arr, bid)
        seen.append(int(bid))
    assert seen == expected
    assert [ref.next_bid(rules.bid_ladder, b) for b in [-1] + expected[:-1]] == expected
