"""Card notation (SPEC.md "Common to all variants": how a card and a hand are written), hand
checks against a variant, and the bit-plane representation of a hand."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from binokel_sim import cards
from binokel_sim.cards import CardError
from binokel_sim.hands import parse_hand
from binokel_sim.variants import find_variant

ALL_CARD_STRINGS = [r + s for s in "SHDC" for r in "9JQKTA"]


# --- single cards -------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ALL_CARD_STRINGS)
def test_format_parse_round_trip(text):
    t = cards.parse_card(text)
    assert 0 <= t < cards.N_TYPES
    assert cards.format_card(t) == text


def test_every_card_type_has_its_own_text():
    assert sorted(cards.parse_card(c) for c in ALL_CARD_STRINGS) == list(range(cards.N_TYPES))
    for t in range(cards.N_TYPES):
        assert cards.parse_card(cards.format_card(t)) == t


def test_card_type_numbering_is_suit_major_rank_minor():
    # The module contract: type = suit * 6 + rank, suits S H D C, ranks 9 J Q K T A.
    assert cards.parse_card("9S") == 0
    assert cards.parse_card("AS") == 5
    assert cards.parse_card("9H") == 6
    assert cards.parse_card("AC") == 23
    assert cards.type_rank(cards.parse_card("QD")) == cards.RANK_Q
    assert cards.type_suit(cards.parse_card("QD")) == cards.SUIT_D


@pytest.mark.parametrize("suit,symbol", [("S", "♠"), ("H", "♥"), ("D", "♦"), ("C", "♣")])
def test_ten_spellings_and_suit_symbols_are_equivalent(suit, symbol):
    spellings = [f"10{suit}", f"T{suit}", f"t{suit.lower()}", f"10{suit.lower()}", f"T{symbol}",
                 f"10{symbol}", f"t{symbol}"]
    assert {cards.parse_card(s) for s in spellings} == {cards.parse_card(f"T{suit}")}


@pytest.mark.parametrize("text", ALL_CARD_STRINGS)
def test_case_does_not_matter(text):
    assert cards.parse_card(text.lower()) == cards.parse_card(text)


@pytest.mark.parametrize("token", ["XS", "AX", "1S", "11S", "A", "", "AAS", "QQ", "S", "10", "♠A"])
def test_unknown_card_names_the_token(token):
    with pytest.raises(CardError) as info:
        cards.parse_card(token)
    assert "unknown card" in str(info.value)
    assert repr(token) in str(info.value)


@pytest.mark.parametrize("token", ["X", "1", "11", "B", "AA", "0"])
def test_unknown_rank_names_the_token(token):
    with pytest.raises(CardError) as info:
        cards.parse_rank(token)
    assert "unknown rank" in str(info.value)
    assert repr(token) in str(info.value)


def test_unknown_suit_names_the_token():
    with pytest.raises(CardError, match="unknown suit 'X'"):
        cards.parse_suit("X")


def test_parse_cards_separators_and_bad_token_in_a_hand():
    assert cards.parse_cards("AS, TS,KS  QS") == cards.parse_cards(["AS", "10S", "ks", "Q♠"])
    assert cards.parse_cards("AS AS") == [cards.parse_card("AS")] * 2
    assert cards.parse_cards("") == []
    with pytest.raises(CardError, match="'ZZ'"):
        cards.parse_cards("AS TS ZZ QS")


@given(st.lists(st.integers(0, 4), min_size=24, max_size=24))
def test_format_counts_round_trip(counts):
    text = " ".join(cards.format_counts(counts))
    assert cards.counts_of(cards.parse_cards(text)).tolist() == counts


def test_format_counts_order_is_suit_then_rank_high_to_low():
    c = cards.counts_of(cards.parse_cards("9C JD AS 9S AH TS AS"))
    assert cards.format_counts(c) == ["AS", "AS", "TS", "9S", "AH", "JD", "9C"]


# --- bit planes --------------------------------------------------------------------------------

@given(st.lists(st.integers(0, cards.MAX_COPIES), min_size=24, max_size=24))
def test_counts_planes_round_trip(counts):
    planes = cards.counts_to_planes(counts)
    assert planes.dtype == np.uint32 and planes.shape == (cards.N_PLANES,)
    assert cards.planes_to_counts(planes).tolist() == counts
    # thermometer code: plane k holds exactly the types held more than k times, so the planes nest
    for k in range(cards.N_PLANES):
        assert int(planes[k]) == sum(1 << t for t in range(24) if counts[t] > k)
    for k in range(1, cards.N_PLANES):
        assert int(planes[k]) & ~int(planes[k - 1]) == 0


# --- hands checked against a variant ------------------------------------------------------------

def test_parse_hand_accepts_the_example_hands():
    for name in ["four-hand-80", "two-hand-48", "three-hand-auction-48", "four-hand-widow-48"]:
        r = find_variant(name)
        c = parse_hand(r.example_hand, r)
        assert c.sum() == r.hand_size


def test_parse_hand_card_not_in_the_deck():
    r = find_variant("four-hand-80")
    hand = "9S " + " ".join(["AH"] * 4 + ["TH"] * 4 + ["KH"] * 4 + ["QH"] * 4 + ["JH"] * 3)
    with pytest.raises(CardError) as info:
        parse_hand(hand, r)
    assert "9S" in str(info.value) and "four-hand-80" in str(info.value)


def test_parse_hand_too_many_copies_four_hand_80():
    r = find_variant("four-hand-80")
    hand = " ".join(["AS"] * 5 + ["TH"] * 4 + ["KH"] * 4 + ["QH"] * 4 + ["JH"] * 3)
    with pytest.raises(CardError) as info:
        parse_hand(hand, r)
    msg = str(info.value)
    assert "AS" in msg and "5" in msg and "4" in msg


def test_parse_hand_too_many_copies_two_hand_48():
    r = find_variant("two-hand-48")
    hand = "AS AS AS TH TH KH KH QH QH JH JH 9H"
    with pytest.raises(CardError) as info:
        parse_hand(hand, r)
    msg = str(info.value)
    assert "AS" in msg and "3" in msg and "2" in msg


def test_parse_hand_wrong_size_names_the_count():
    r = find_variant("four-hand-80")
    hand = " ".join(["AS"] * 4 + ["TH"] * 4 + ["KH"] * 4 + ["QH"] * 4 + ["JH"] * 4 + ["JD"])
    with pytest.raises(CardError) as info:
        parse_hand(hand, r)
    assert "21" in str(info.value) and "20" in str(info.value)
    # an explicit size, and size=-1 to skip the check
    assert parse_hand("AS AS", r, size=2).sum() == 2
    assert parse_hand("AS AS", r, size=-1).sum() == 2
    with pytest.raises(CardError, match="3"):
        parse_hand("AS AS AS", r, size=2)


def test_parse_hand_returns_counts():
    r = find_variant("two-hand-48")
    c = parse_hand("AS TS KS QS QS JS 9S KH QH AD JD AC", r)
    assert c.dtype == np.int64 and c.shape == (24,)
    assert c[cards.parse_card("QS")] == 2 and c.sum() == 12


def test_suit_symbols_with_an_emoji_selector():
    # "A♠️" as phones type it: the spade followed by U+FE0F
    assert cards.parse_card("A\u2660\ufe0f") == cards.parse_card("AS")
