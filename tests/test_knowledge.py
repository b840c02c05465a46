"""Inference from the cards played (kernels/knowledge.py), on hand-made tricks and as a property
of the must-head rule itself: a card the rule allows never rules out a card the hand holds."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from binokel_sim.cards import parse_card
from binokel_sim.kernels.knowledge import excluded_by, sample_view, view_pool
from binokel_sim.kernels.play import beaters, legal_under, suit_block

S, H, D, C = range(4)


def t(name: str) -> int:
    return parse_card(name)


def mask(*names: str) -> int:
    return sum(1 << t(n) for n in set(names))


def after(card: str, led: int, trump: int, winner: str) -> int:
    return int(excluded_by(t(card), suit_block(led), suit_block(trump), beaters(t(winner))))


@pytest.mark.parametrize("card, led, trump, winner, excluded", [
    ("9H", H, S, "KH", mask("TH", "AH")),          # followed, did not head: no TH, AH
    ("AH", H, S, "KH", 0),                         # headed the trick
    ("9S", H, S, "KH", suit_block(H)),             # trumped: void in hearts
    ("QS", H, S, "KS", suit_block(H) | mask("TS", "AS")),  # under-trumped a trumped trick
    ("9H", H, S, "KS", 0),                         # followed a trumped trick: no inference
    ("9D", H, S, "KH", suit_block(H) | suit_block(S)),  # neither: void in hearts and trump
    ("JS", S, S, "QS", mask("KS", "TS", "AS")),    # led trump, followed low
    ("KH", H, S, "KH", mask("TH", "AH")),          # an equal card does not head
])
def test_hand_made_tricks(card, led, trump, winner, excluded):
    assert after(card, led, trump, winner) == excluded


def test_the_leader_reveals_nothing():
    assert excluded_by(t("9H"), suit_block(H), suit_block(S), 0) == 0


@settings(max_examples=300, deadline=None)
@given(st.integers(1, (1 << 24) - 1), st.integers(0, 3), st.integers(0, 3), st.integers(0, 23))
def test_a_legal_card_never_excludes_a_card_the_hand_holds(hand, led, trump, win_card):
    led_block, trump_block = suit_block(led), suit_block(trump)
    beat = beaters(win_card)
    legal = int(legal_under(np.uint32(hand), led_block, trump_block, beat))
    for c in range(24):
        if legal >> c & 1:
            assert hand & int(excluded_by(c, led_block, trump_block, beat)) == 0


def test_a_seat_view_keeps_shown_cards_and_inferences():
    # four-hand-80: viewer 0 holds 20 cards; seat 2 showed two kings of hearts; seat 1 is void in
    # spades
    from binokel_sim.tables import compile_tables
    from binokel_sim.variants import find_variant

    rules = find_variant("four-hand-80")
    deck = np.bincount(compile_tables(rules).deck, minlength=24).astype(np.int64)
    rng = np.random.default_rng(3)
    order = rng.permutation(np.repeat(np.arange(24), deck))
    hands = [np.bincount(order[20 * s:20 * s + 20], minlength=24) for s in range(4)]
    own = hands[0]
    played = np.zeros(24, dtype=np.int64)
    shown = np.zeros((4, 24), dtype=np.int64)
    kh = t("KH")
    shown[2, kh] = min(2, hands[2][kh])
    pool = np.zeros(24, dtype=np.int64)
    assert view_pool(deck, own, played, shown, 0, 4, pool)
    assert pool.sum() == 60 - shown.sum()
    allowed = np.full(4, (1 << 24) - 1, dtype=np.int64)
    allowed[1] &= ~suit_block(S)  # the table believes seat 1 is void in spades
    sizes = np.full(4, 20, dtype=np.int64)
    ways = np.zeros((25, 21, 21, 21))
    state = np.array([1, 2, 3, 4], dtype=np.uint64)
    out = np.zeros((5, 24), dtype=np.int64)
    counts = np.zeros((4, 24), dtype=np.int64)
    for _ in range(50):
        assert sample_view(pool, shown, allowed, sizes, 0, 4, 0, ways, state, out, counts)
        assert [out[s].sum() for s in (1, 2, 3)] == [20, 20, 20]
        assert out[2, kh] >= shown[2, kh]
        assert (out[1:4].sum(axis=0) + own == deck).all()
        assert out[1, :6].sum() == 0
        for s in (1, 2, 3):
            assert all(out[s, c] == 0 or allowed[s] >> c & 1 for c in range(24))
