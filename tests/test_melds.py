"""Meld counting: the bit-plane kernel against the obvious reference on random hands of every
variant and trump, and known-answer hands worked out by hand from the SPEC.md meld tables."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import TINY_RULES_FILES, VARIANT_NAMES, counts, kernel_melds
from hypothesis import given
from hypothesis import strategies as st

from binokel_sim.analysis import analyze_hand
from binokel_sim.hands import parse_hand
from binokel_sim.reference import core as core_twin
from binokel_sim.variants import find_variant, load_rules

SUITS = "SHDC"


def kernel_rows(rules, hand: np.ndarray, trump: int):
    return kernel_melds(rules, hand, trump)


def check_kernel_equals_reference(rules, hand):
    ref_hand = [int(x) for x in hand]
    result = analyze_hand(rules, hand)
    for trump in range(4):
        expected = core_twin.meld_table(rules, ref_hand, trump)
        rows, total = kernel_rows(rules, hand, trump)
        assert rows == expected, (rules.name, SUITS[trump], hand.tolist())
        assert total == sum(p for _, _, p in expected)
        entry = result["by_trump"][SUITS[trump]]
        assert [(m["name"], m["count"], m["points"]) for m in entry["melds"]] == expected
        assert entry["total"] == total


# --- kernel == reference --------------------------------------------------------------------------

@st.composite
def dealt_hands(draw):
    """A variant and a hand dealt from its deck (a random subset of the physical cards)."""
    rules = find_variant(draw(st.sampled_from(VARIANT_NAMES)))
    deck = [t for t in range(24) for _ in range(int(rules.deck_counts()[t]))]
    cards = draw(st.permutations(deck))[: rules.hand_size]
    hand = np.zeros(24, dtype=np.int64)
    for t in cards:
        hand[t] += 1
    return rules, hand


@st.composite
def any_hands(draw):
    """A variant and any multiset of its cards within the deck's copies (any size): reaches the
    high multiplicities (double runs, eight aces, triple binokel) a random deal almost never does."""
    rules = find_variant(draw(st.sampled_from(VARIANT_NAMES)))
    deck = rules.deck_counts()
    hand = np.array([draw(st.integers(0, int(deck[t]))) if deck[t] else 0 for t in range(24)],
                    dtype=np.int64)
    return rules, hand


@given(dealt_hands())
def test_kernel_equals_reference_on_dealt_hands(rules_and_hand):
    check_kernel_equals_reference(*rules_and_hand)


@given(any_hands())
def test_kernel_equals_reference_on_any_multiset(rules_and_hand):
    check_kernel_equals_reference(*rules_and_hand)


@st.composite
def tiny_hands(draw):
    """A made-up variant (tests/data) with chained and fixed parents, and any multiset of it."""
    rules = load_rules(draw(st.sampled_from(TINY_RULES_FILES)))
    deck = rules.deck_counts()
    hand = np.array([draw(st.integers(0, int(deck[t]))) if deck[t] else 0 for t in range(24)],
                    dtype=np.int64)
    return rules, hand


@given(tiny_hands())
def test_kernel_equals_reference_custom_rules(rules_and_hand):
    check_kernel_equals_reference(*rules_and_hand)


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_kernel_equals_reference_full_and_empty(name):
    r = find_variant(name)
    check_kernel_equals_reference(r, r.deck_counts())  # every card: every meld at its maximum
    check_kernel_equals_reference(r, np.zeros(24, dtype=np.int64))


# --- known answers ----------------------------------------------------------------------------------

def melds_of(name: str, text: str, trump: str) -> tuple[dict[str, tuple[int, int]], int]:
    """``{meld: (count, points)}`` and the total of a hand, from the kernel, checked against the
    reference and against analyze_hand."""
    r = find_variant(name)
    hand = counts(r, text)
    t = SUITS.index(trump)
    rows, total = kernel_melds(r, hand, t)
    got = {n: (c, p) for n, c, p in rows}
    ref = {n: (c, p) for n, c, p in core_twin.meld_table(r, [int(x) for x in hand], t)}
    assert got == ref
    entry = analyze_hand(r, hand)["by_trump"][trump]
    assert {m["name"]: (m["count"], m["points"]) for m in entry["melds"]} == got
    assert entry["total"] == total
    return got, total


def nonzero(melds):
    return {k: v for k, v in melds.items() if v != (0, 0)}


def test_four_hand_80_double_aces_around():
    # 2 aces of each suit: aces around twice = 100 (table x2). The twelve tens make nothing.
    hand = "AS AS AH AH AD AD AC AC TS TS TS TS TH TH TH TH TD TD TD TD"
    for trump in SUITS:
        melds, total = melds_of("four-hand-80", hand, trump)
        assert nonzero(melds) == {"aces_around": (2, 100)}
        assert total == 100


def test_four_hand_80_run_plus_extra_royal_marriage():
    # Spades: A T K K Q Q J -> one run (A T K Q J) = 15; K+Q twice, one inside the run, so
    # royal marriages = min(2, 2) - 1 run = 1 -> 4. Total 15 + 4 = 19.
    # Hearts, diamonds, clubs: tens and one ace, no meld (the ace of hearts makes no "around").
    hand = "AS TS KS KS QS QS JS AH TH TH TH TH TD TD TD TD TC TC TC TC"
    melds, total = melds_of("four-hand-80", hand, "S")
    assert nonzero(melds) == {"run": (1, 15), "royal_marriage": (1, 4)}
    assert total == 15 + 4
    # With hearts as trump the spade K+Q pairs are two common marriages: 2 x 2 = 4, no run.
    melds, total = melds_of("four-hand-80", hand, "H")
    assert nonzero(melds) == {"common_marriage": (2, 4)}
    assert total == 4


def test_four_hand_80_four_runs():
    # Four copies of A T K Q J of spades, spades trump: run x4 = 300 (table); all four royal
    # marriages sit inside runs: min(4, 4) - 4 = 0. QS without JD: no binokel.
    hand = " ".join(["AS TS KS QS JS"] * 4)
    melds, total = melds_of("four-hand-80", hand, "S")
    assert nonzero(melds) == {"run": (4, 300)}
    assert total == 300
    # Spades not trump: 4 common marriages, linear: 4 x 2 = 8.
    melds, total = melds_of("four-hand-80", hand, "D")
    assert nonzero(melds) == {"common_marriage": (4, 8)}
    assert total == 8


def test_four_hand_80_double_binokel():
    # 2 x QS + 2 x JD: binokel twice = 30 (table x2, not 2 x 4). No KS (no marriage), no AD
    # (aces around needs an ace of every suit), one jack of clubs (no jacks around).
    hand = "QS QS JD JD AS AS TS TS AH AH TH TH TD TD TD AC AC TC TC JC"
    for trump in SUITS:
        melds, total = melds_of("four-hand-80", hand, trump)
        assert nonzero(melds) == {"binokel": (2, 30)}
        assert total == 30


def test_four_hand_80_common_marriages_are_linear():
    # K+Q in hearts, diamonds and clubs, spades trump (aces and tens of spades, no KS/QS):
    # 3 common marriages x 2 = 6 (not a table value).
    hand = "KH QH KD QD KC QC AS AS AS AS TS TS TS TS TH TH TH TH TD TD"
    melds, total = melds_of("four-hand-80", hand, "S")
    assert nonzero(melds) == {"common_marriage": (3, 6)}
    assert total == 6
    # Hearts trump: royal marriage 4 + 2 common marriages (D, C) x 2 = 8.
    melds, total = melds_of("four-hand-80", hand, "H")
    assert nonzero(melds) == {"royal_marriage": (1, 4), "common_marriage": (2, 4)}
    assert total == 8


def test_four_hand_80_two_marriages_in_one_suit_count_twice():
    # KH KH QH QH + KD QD + KC QC, spades trump: min(2,2) + 1 + 1 = 4 common marriages = 8.
    hand = "KH KH QH QH KD QD KC QC AS AS AS AS TS TS TS TS TD TD TD TD"
    melds, total = melds_of("four-hand-80", hand, "S")
    assert nonzero(melds) == {"common_marriage": (4, 8)}
    assert total == 8


def test_two_hand_48_eight_aces_is_1000_not_1100():
    # two aces of every suit: eight aces = 1000, and the four aces inside it are not added (+100)
    hand = "AS AS AH AH AD AD AC AC TS TS TH TH"
    for trump in SUITS:
        melds, total = melds_of("two-hand-48", hand, trump)
        assert nonzero(melds) == {"aces_around": (2, 1000)}
        assert total == 1000


def test_two_hand_48_double_binokel_is_500_not_540():
    hand = "QS QS JD JD TH TH TC TC AH AH AC AC"
    melds, total = melds_of("two-hand-48", hand, "C")
    assert nonzero(melds) == {"binokel": (2, 500)}
    assert total == 500


def test_two_hand_48_quint_plus_second_trump_marriage():
    # Spades: A T K K Q Q J. Quint (A T K Q J) = 250; the second K+Q of spades is a trump
    # marriage (one marriage sits inside the quint): min(2, 2) - 1 = 1 -> 40. 250 + 40 = 290.
    # QS without JD: no binokel. Tens of H, D, C make nothing.
    hand = "AS TS KS KS QS QS JS TH TH TD TD TC"
    melds, total = melds_of("two-hand-48", hand, "S")
    assert nonzero(melds) == {"quint": (1, 250), "trump_marriage": (1, 40)}
    assert total == 250 + 40
    # Hearts trump: the quint still counts (any suit); the spare spade K+Q is a marriage, 20.
    melds, total = melds_of("two-hand-48", hand, "H")
    assert nonzero(melds) == {"quint": (1, 250), "marriage": (1, 20)}
    assert total == 250 + 20


def test_two_hand_48_two_quints_in_one_suit_score_once():
    # Static value: "a quint scores 250 once for each suit that holds one" and "one marriage of a
    # suit with a counted quint sits inside it": two spade quints = 250, and of the two spade
    # marriages one is inside the quint: trump marriages = min(2, 2) - 1 = 1 -> 40. 250 + 40.
    hand = "AS AS TS TS KS KS QS QS JS JS TH TD"
    melds, total = melds_of("two-hand-48", hand, "S")
    assert melds["quint"] == (1, 250)  # one quint counted, so one reported
    assert melds["trump_marriage"] == (1, 40)
    assert total == 250 + 40


def test_two_hand_48_quints_in_two_suits():
    # A quint in spades and one in hearts = 250 + 250; hearts trump: the heart marriage sits in the
    # heart quint, the spade marriage in the spade quint -> no marriages. QS without JD.
    hand = "AS TS KS QS JS AH TH KH QH JH TD TC"
    melds, total = melds_of("two-hand-48", hand, "H")
    assert nonzero(melds) == {"quint": (2, 500)}
    assert total == 500


def test_two_hand_48_dix_counted_per_copy():
    # Both 9s of spades: 2 dixes with spades trump = 2 x 10; the single 9H: 1 x 10 with hearts.
    hand = "9S 9S 9H TS TS TH TH TD TD TC TC AS"
    melds, total = melds_of("two-hand-48", hand, "S")
    assert nonzero(melds) == {"dix": (2, 20)} and total == 20
    melds, total = melds_of("two-hand-48", hand, "H")
    assert nonzero(melds) == {"dix": (1, 10)} and total == 10
    melds, total = melds_of("two-hand-48", hand, "D")
    assert nonzero(melds) == {} and total == 0


def test_two_hand_48_marriages_per_copy():
    # Spades trump: KH QH KH QH = 2 marriages = 40, KD QD = 20 -> 60 (no quint, no around).
    hand = "KH KH QH QH KD QD TS TS TC TC AC AC"
    melds, total = melds_of("two-hand-48", hand, "S")
    assert nonzero(melds) == {"marriage": (3, 60)}
    assert total == 60


def test_three_hand_auction_48_roundhouse():
    # K+Q in every suit: roundhouse = 240 in all (SPEC: it stands for kings around 80, queens
    # around 60 and its four marriages): no kings/queens around, no marriage, no trump marriage.
    # Aces of S and H only, no JD: nothing else; one ten of each suit: four tens score nothing.
    hand = "KS QS KH QH KD QD KC QC AS TS AH TH TD TD TC"
    for trump in SUITS:
        melds, total = melds_of("three-hand-auction-48", hand, trump)
        assert nonzero(melds) == {"roundhouse": (1, 240), "tens_around": (1, 0)}
        assert total == 240


def test_three_hand_auction_48_extra_marriage_outside_the_roundhouse():
    # A second K+Q of hearts is outside the roundhouse: a marriage (20) with spades trump, a trump
    # marriage (40) with hearts trump. 240 + 20 / 240 + 40.
    hand = "KS QS KH QH KH QH KD QD KC QC AS TS TD TD TC"
    melds, total = melds_of("three-hand-auction-48", hand, "S")
    assert melds["roundhouse"] == (1, 240) and melds["marriage"] == (1, 20)
    assert melds["trump_marriage"] == (0, 0)
    assert melds["kings_around"] == (0, 0) and melds["queens_around"] == (0, 0)
    assert total == 240 + 20
    melds, total = melds_of("three-hand-auction-48", hand, "H")
    assert melds["trump_marriage"] == (1, 40) and melds["marriage"] == (0, 0)
    assert total == 240 + 40


def test_three_hand_auction_48_eight_of_a_rank_is_1000():
    # "eight of any one rank = 1000": eight kings (no queen: no roundhouse). Seven tens, one of
    # them short in clubs: four tens, 0.
    hand = "KS KS KH KH KD KD KC KC TS TS TH TH TD TD TC"
    melds, total = melds_of("three-hand-auction-48", hand, "S")
    assert nonzero(melds) == {"kings_around": (2, 1000), "tens_around": (1, 0)}
    assert total == 1000


def test_four_hand_widow_48_eight_jacks_is_1000():
    # "eight of any one rank = 1000" (two-hand-48 would give 400): two jacks of every suit.
    # JD without QS: no binokel. 11-card hand: 8 jacks + 3 tens.
    hand = "JS JS JH JH JD JD JC JC TS TH TD"
    for trump in SUITS:
        melds, total = melds_of("four-hand-widow-48", hand, trump)
        assert nonzero(melds) == {"jacks_around": (2, 1000)}
        assert total == 1000
    melds, total = melds_of("two-hand-48", hand + " TC", "S")
    assert nonzero(melds) == {"jacks_around": (2, 400)} and total == 400


def test_three_hand_72_triple_binokel():
    # 3 x QS + 3 x JD = triple binokel 1500; no kings, no around.
    hand = "QS QS QS JD JD JD TH TH TH TC TC TC"
    melds, total = melds_of("three-hand-72", hand, "H")
    assert nonzero(melds) == {"binokel": (3, 1500)}
    assert total == 1500


def test_three_hand_72_triple_aces_scores_as_double():
    # three aces of every suit: a triple of aces around scores as its double, 1000
    hand = "AS AS AS AH AH AH AD AD AD AC AC AC"
    for name in ["three-hand-72", "four-hand-72"]:
        melds, total = melds_of(name, hand, "D")
        assert nonzero(melds) == {"aces_around": (3, 1000)}
        assert total == 1000


# --- analyze_hand: JSON shape, allowed trumps, best trump ----------------------------------------

def test_analyze_hand_shape():
    r = find_variant("four-hand-80")
    result = analyze_hand(r, parse_hand(r.example_hand, r))
    assert set(result) == {"variant", "hand", "by_trump", "best_trump"}
    assert result["variant"] == "four-hand-80"
    assert isinstance(result["hand"], list) and len(result["hand"]) == 20
    assert sorted(result["hand"]) == sorted(r.example_hand.split())
    assert list(result["by_trump"]) == ["S", "H", "D", "C"]
    for entry in result["by_trump"].values():
        assert set(entry) == {"total", "allowed", "melds"}
        assert type(entry["total"]) is int and type(entry["allowed"]) is bool
        assert [m["name"] for m in entry["melds"]] == list(r.meld_names)
        for m in entry["melds"]:
            assert set(m) == {"name", "count", "points"}
            assert type(m["count"]) is int and type(m["points"]) is int
        assert entry["total"] == sum(m["points"] for m in entry["melds"])


def test_analyze_hand_normalizes_the_hand():
    # any spelling in, canonical cards out: suits S H D C, ranks high to low within a suit
    r = find_variant("two-hand-48")
    result = analyze_hand(r, parse_hand("ac,10s as t♠ 9s QS qs js kh qh ad jd", r))
    assert result["hand"] == ["AS", "TS", "TS", "QS", "QS", "JS", "9S", "KH", "QH", "AD", "JD",
                              "AC"]


def test_four_hand_80_allowed_only_with_a_marriage():
    # K+Q in hearts, diamonds and clubs, none in spades (see the linear-marriage hand above).
    r = find_variant("four-hand-80")
    hand = counts(r, "KH QH KD QD KC QC AS AS AS AS TS TS TS TS TH TH TH TH TD TD")
    result = analyze_hand(r, hand)
    assert [result["by_trump"][s]["allowed"] for s in SUITS] == [False, True, True, True]
    # totals S 6, H/D/C 8 each: ties go to the first allowed suit in S H D C order
    assert [result["by_trump"][s]["total"] for s in SUITS] == [6, 8, 8, 8]
    assert result["best_trump"] == "H"


def test_best_trump_is_the_allowed_suit_with_the_highest_total():
    # Spades: A T K Q J (run, 15 with spades trump) but hearts has K+Q too.
    # Spades trump: run 15 (royal inside the run) + common marriage H 2 = 17.
    # Hearts trump: royal H 4 + common marriage S 2 = 6.
    r = find_variant("four-hand-80")
    hand = counts(r, "AS TS KS QS JS KH QH TH TH TH TH TD TD TD TD TC TC TC TC AC")
    result = analyze_hand(r, hand)
    assert [result["by_trump"][s]["allowed"] for s in SUITS] == [True, True, False, False]
    assert result["by_trump"]["S"]["total"] == 17
    assert result["by_trump"]["H"]["total"] == 6
    assert result["best_trump"] == "S"


def test_best_trump_none_when_no_suit_may_be_named():
    r = find_variant("four-hand-80")
    hand = counts(r, "AS AS AH AH AD AD AC AC TS TS TS TS TH TH TH TH TD TD TD TD")
    result = analyze_hand(r, hand)
    assert not any(result["by_trump"][s]["allowed"] for s in SUITS)
    assert result["best_trump"] is None


def test_talon_variant_may_name_every_suit():
    r = find_variant("two-hand-48")
    result = analyze_hand(r, counts(r, "AS TS KS QS QS JS 9S KH QH AD JD AC"))
    assert all(result["by_trump"][s]["allowed"] for s in SUITS)
    best = result["best_trump"]
    assert result["by_trump"][best]["total"] == max(result["by_trump"][s]["total"] for s in SUITS)
