"""--known SEAT:CARDS and --void SEAT:SUIT: parsing, checks, and impossible combinations."""

from __future__ import annotations

import numpy as np
import pytest

from binokel_sim.cards import CardError, parse_card
from binokel_sim.constraints import ALL_TYPES, check_possible, parse_knowledge
from binokel_sim.hands import parse_hand
from binokel_sim.variants import find_variant

R80 = find_variant("four-hand-80")
OWN = parse_hand(R80.example_hand, R80)


def pool(rules, own):
    return rules.deck_counts() - own


def test_seats_by_number_or_name():
    k = parse_knowledge(R80, OWN, ['partner:"AS"', "1:TH TH", "right:JD"], ["2:h", "left:C"])
    assert k.known[2, parse_card("AS")] == 1 and k.known[1, parse_card("TH")] == 2
    assert k.known[3, parse_card("JD")] == 1 and k.known[0].sum() == 0
    assert k.allowed[2] == ALL_TYPES & ~(0b111111 << 6)
    assert k.allowed[1] == ALL_TYPES & ~(0b111111 << 18)
    assert k.describe() == {"known": {"1": "TH TH", "2": "AS", "3": "JD"},
                            "void": {"1": "C", "2": "H"}}
    assert parse_knowledge(R80, OWN, [], []).empty


def test_three_and_two_player_seat_names():
    r3 = find_variant("three-hand-auction-48")
    own3 = parse_hand(r3.example_hand, r3)
    assert parse_knowledge(r3, own3, [], ["right:S"]).allowed[2] != ALL_TYPES
    r2 = find_variant("two-hand-48")
    own2 = parse_hand(r2.example_hand, r2)
    assert parse_knowledge(r2, own2, [], ["other:S"]).allowed[1] != ALL_TYPES
    with pytest.raises(CardError, match="unknown seat 'partner'"):
        parse_knowledge(r3, own3, [], ["partner:S"])


@pytest.mark.parametrize("known, void, needle", [
    (["partner AS"], [], "write SEAT:CARDS"),
    (["4:AS"], [], "unknown seat '4'"),
    (["0:AS"], [], "unknown seat '0'"),
    (["2:XX"], [], "unknown card"),
    (["2:9S"], [], "9S is not in the four-hand-80 deck"),
    ([], ["2:Q"], "unknown suit"),
    (["2:" + " ".join(["AS"] * 4)], [], "more copies of AS"),
    (["2:AH"], ["2:H"], "void in its suit"),
])
def test_bad_constraints_are_one_clear_error(known, void, needle):
    with pytest.raises(CardError, match=needle):
        parse_knowledge(R80, OWN, known, void)


def test_a_seat_void_in_everything_left_is_impossible():
    k = parse_knowledge(R80, OWN, [], ["1:S", "1:H", "1:D", "1:C"])
    with pytest.raises(CardError, match="no deal fits"):
        check_possible(k, pool(R80, OWN), [20, 20, 20])
    # two seats void in the same three suits cannot both take 20 cards of the fourth suit
    k = parse_knowledge(R80, OWN, [], ["1:S H D", "3:S,H,D"])
    with pytest.raises(CardError, match="no deal fits"):
        check_possible(k, pool(R80, OWN), [20, 20, 20])
    check_possible(parse_knowledge(R80, OWN, ["2:AS"], ["1:S"]), pool(R80, OWN), [20, 20, 20])


def test_a_widow_is_dealt_too():
    r3 = find_variant("three-hand-auction-48")
    own3 = parse_hand(r3.example_hand, r3)
    k = parse_knowledge(r3, own3, [], ["1:S", "2:S"])
    spades_left = int(pool(r3, own3)[:6].sum())
    if spades_left <= r3.widow:  # every spade may lie in the widow
        check_possible(k, pool(r3, own3), [r3.hand_size] * 2, r3.widow)
    else:
        with pytest.raises(CardError):
            check_possible(k, pool(r3, own3), [r3.hand_size] * 2, r3.widow)
    assert np.asarray(pool(r3, own3)).sum() == 2 * r3.hand_size + r3.widow
