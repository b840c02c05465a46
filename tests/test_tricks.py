"""Trick play: legal cards, trick winner, play-outs, scoring and the play-out driver, each kernel
against its pure-Python twin in :mod:`binokel_sim.reference.play` (SPEC.md, "Must-head
obligation", "Trick winner", "Variant four-hand-80")."""

from __future__ import annotations

from collections import Counter

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from binokel_sim import expert_play
from binokel_sim.cards import (
    N_TYPES,
    counts_of,
    counts_to_planes,
    parse_card,
    parse_cards,
)
from binokel_sim.engines.partnership import family_tables
from binokel_sim.kernels.bits import kth_bit, nth_bit
from binokel_sim.kernels.partnership.heuristic import (
    CEILING,
    HEURISTIC_PTUNE,
    N_PTUNE,
    heuristic_card,
)
from binokel_sim.kernels.partnership.tricks import (
    PLAY_EXPERT,
    PLAY_RANDOM,
    PlayTable,
    counter_mask,
    legal_mask,
    play_mode,
    playout,
    playout_blocks,
    playout_fast,
    playout_pair_expert,
    playout_pair_heuristic,
    playout_pair_random,
    score_deal,
    seat_knobs,
    trick_winner,
)
from binokel_sim.kernels.policies import POLICY_EXPERT, POLICY_HEURISTIC, POLICY_RANDOM
from binokel_sim.kernels.random import seed_stream
from binokel_sim.reference import play as ref
from binokel_sim.reference import sampling as sampling_twin
from binokel_sim.reference.core import Stream
from binokel_sim.simulate import spread_blocks
from binokel_sim.tables import compile_tables
from binokel_sim.variants import find_variant

RULES = find_variant("four-hand-80")
TABLES = compile_tables(RULES)
DECK = [int(t) for t in TABLES.deck]
HAND = RULES.hand_size
TOTAL = RULES.total_card_points  # 48 counters + 2 for the last trick
EXAMPLES = settings(max_examples=200, deadline=None)
S, H, D, C = range(4)
TUNE = family_tables(RULES).tune
HEURISTIC_ROWS = np.array([HEURISTIC_PTUNE] * 4, dtype=np.int64)


def play_table(knobs: np.ndarray) -> PlayTable:
    """The play-outs' table with each seat's knob rows ``knobs``, as the drivers build it."""
    return PlayTable(TABLES.card_points, np.int64(RULES.last_trick),
                     counter_mask(TABLES.card_points), knobs)


def knobs_of(policies) -> np.ndarray:
    """Each seat's knob row for ``policies``, as the drivers build it."""
    return seat_knobs(np.array(policies, dtype=np.int64), TUNE)


def types_of(mask: int) -> list[int]:
    return [t for t in range(N_TYPES) if (int(mask) >> t) & 1]


def kernel_legal(hand: list[int], trick: list[int], trump: int) -> list[int]:
    p0 = counts_to_planes(counts_of(hand))[0]
    cards = np.array(trick + [0] * (4 - len(trick)), dtype=np.int64)
    led = trick[0] // 6 if trick else 0
    return types_of(legal_mask(p0, led, trump, cards, len(trick)))


# --- legal cards -----------------------------------------------------------------------------

@pytest.mark.parametrize("trump, trick, hand, expected", [
    # 1. holding the led suit; led trump: a higher trump if able, else any trump
    (S, "KS", "AS JS TH", "AS"),
    (S, "AS", "KS JS TH", "JS KS"),
    (S, "KS TS", "AS QS", "AS"),
    # untrumped side suit: a higher led card if able, else any led card
    (S, "KH", "AH JH QS", "AH"),
    (S, "AH", "KH JH QS", "JH KH"),
    (S, "QH KH", "TH JH", "TH"),
    # trumped trick: any led card, even one above the led card
    (S, "KH JS", "AH JH QS", "JH AH"),
    # 2. void in led, holding trump: any trump if none played, else a higher one if able
    (S, "KH", "JS AS QD", "JS AS"),
    (S, "KH QS", "JS AS QD", "AS"),
    (S, "KH AS", "JS QS QD", "JS QS"),
    # 3. neither led suit nor trump
    (S, "KH", "JD QC", "JD QC"),
    # an equal card never heads: AH on AH is no better than KH; TS on TS no better than JS
    (S, "AH", "AH KH", "KH AH"),
    (S, "KH TS", "TS JS", "JS TS"),
    # leading: anything
    (S, "", "AS JH QD", "AS JH QD"),
])
def test_legal_known_answers(trump, trick, hand, expected):
    trick_types, hand_types = parse_cards(trick), parse_cards(hand)
    want = sorted(parse_cards(expected))
    assert kernel_legal(hand_types, trick_types, trump) == want
    assert ref.legal_cards(list(counts_of(hand_types)), trick_types, trump) == want


@st.composite
def positions(draw):
    """A trick of 0..3 cards and a hand of 1..20 cards from one shuffled 80-card deck; trump is
    the led suit, the second card's suit (a trumped trick), or any suit; optionally a trick card
    is replaced by a copy of the first (identical cards)."""
    cards = draw(st.permutations(DECK))
    n_played = draw(st.integers(0, 3))
    size = draw(st.integers(1, HAND))
    trick = list(cards[:n_played])
    hand = list(cards[n_played:n_played + size])
    if n_played >= 2 and draw(st.booleans()):
        trick[draw(st.integers(1, n_played - 1))] = trick[0]
    mode = draw(st.sampled_from(["led", "second", "any"]))
    if mode == "led" and trick:
        trump = trick[0] // 6
    elif mode == "second" and n_played >= 2:
        trump = trick[1] // 6
    else:
        trump = draw(st.integers(0, 3))
    return trick, hand, trump


@EXAMPLES
@given(positions())
def test_legal_mask_equals_reference(position):
    trick, hand, trump = position
    want = ref.legal_cards(list(counts_of(hand)), trick, trump)
    assert kernel_legal(hand, trick, trump) == want
    assert want and set(want) <= set(hand)


@pytest.mark.parametrize("trump, trick, winner", [
    (S, "AH AH", 0), (S, "KH AH AH", 1), (S, "AH JS", 1), (S, "AH KD", 0),
    (S, "JS AS AS", 1), (S, "KH JS QS QS", 2), (S, "TH AD AC KH", 0), (H, "JS AS TH AH", 3),
])
def test_trick_winner_known_answers(trump, trick, winner):
    cards = parse_cards(trick)
    assert trick_winner(np.array(cards, dtype=np.int64), len(cards), trump) == winner
    assert ref.trick_winner(cards, trump) == winner


@EXAMPLES
@given(st.lists(st.sampled_from(sorted(set(DECK))), min_size=1, max_size=4),
       st.integers(0, 3), st.booleans())
def test_trick_winner_equals_reference(trick, trump, led_trump):
    if led_trump:
        trump = trick[0] // 6
    assert trick_winner(np.array(trick, dtype=np.int64), len(trick), trump) == \
        ref.trick_winner(trick, trump)


# --- play-outs -------------------------------------------------------------------------------

@st.composite
def deals(draw):
    cards = draw(st.permutations(DECK))
    hands = [list(counts_of(cards[HAND * s:HAND * (s + 1)])) for s in range(4)]
    leader, trump = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    return hands, leader, trump, draw(st.integers(0, 2**63 - 1))


def kernel_playout(hands, leader, trump, policies, seed):
    planes = np.array([counts_to_planes(h) for h in hands], dtype=np.uint32)
    state = np.empty(4, dtype=np.uint64)
    seed_stream(state, seed, 0)
    cards = np.full((HAND, 4), -1, dtype=np.int64)
    leaders = np.full(HAND, -1, dtype=np.int64)
    winners = np.full(HAND, -1, dtype=np.int64)
    points = playout(planes, leader, trump, np.array(policies, dtype=np.int64),
                     knobs_of(policies), state, TABLES.card_points, RULES.last_trick, cards,
                     leaders, winners)
    assert not planes.any(), "every card leaves the hands"
    return tuple(int(p) for p in points), cards, leaders, winners


def check_playout(hands, leader, trump, points, cards, leaders, winners):
    """Invariants of any play-out, re-checked with the reference rules."""
    assert sum(points) == TOTAL
    left = [list(h) for h in hands]
    won = [0, 0]
    assert leaders[0] == leader
    for k in range(HAND):
        if k:
            assert leaders[k] == winners[k - 1]
        trick = []
        for i in range(4):
            seat = (leaders[k] + i) % 4
            card = int(cards[k, i])
            assert card in ref.legal_cards(left[seat], trick, trump), (k, i, card)
            left[seat][card] -= 1
            trick.append(card)
        assert winners[k] == (leaders[k] + ref.trick_winner(trick, trump)) % 4
        won[winners[k] % 2] += int(sum(TABLES.card_points[trick]))
    won[winners[-1] % 2] += RULES.last_trick
    assert all(c == 0 for h in left for c in h), "every card played exactly once, by its holder"
    assert Counter(cards.ravel().tolist()) == Counter(DECK)
    assert tuple(won) == points


@EXAMPLES
@given(deals())
def test_random_playout_equals_reference(deal):
    hands, leader, trump, seed = deal
    points, cards, leaders, winners = kernel_playout(hands, leader, trump, [POLICY_RANDOM] * 4,
                                                     seed)
    check_playout(hands, leader, trump, points, cards, leaders, winners)
    ref_points, tricks = ref.play_out([list(h) for h in hands], leader, trump, RULES,
                                      ref.stream_pick(Stream(seed, 0)))
    assert ref_points == points
    assert [t.cards for t in tricks] == cards.tolist()
    assert [t.leader for t in tricks] == leaders.tolist()
    assert [t.winner for t in tricks] == winners.tolist()


@EXAMPLES
@given(deals(), st.lists(st.sampled_from([POLICY_RANDOM, POLICY_HEURISTIC]), min_size=4,
                         max_size=4))
def test_mixed_playout_is_legal(deal, policies):
    hands, leader, trump, seed = deal
    check_playout(hands, leader, trump, *kernel_playout(hands, leader, trump, policies, seed))


def test_heuristic_is_deterministic_and_reads_no_random_numbers():
    hands = [list(counts_of(DECK[HAND * s:HAND * (s + 1)])) for s in range(4)]
    a = kernel_playout(hands, 1, H, [POLICY_HEURISTIC] * 4, 1)
    b = kernel_playout(hands, 1, H, [POLICY_HEURISTIC] * 4, 2)
    assert a[0] == b[0] and (a[1] == b[1]).all()


@EXAMPLES
@given(deals(), st.lists(st.sampled_from([POLICY_RANDOM, POLICY_HEURISTIC, POLICY_EXPERT]),
                         min_size=4, max_size=4))
def test_fast_playout_equals_recorded(deal, policies):
    """The play-out without records (specialised per policy mix: the heuristic proper with its
    knobs as constants, an expert through the knob rows) plays the same deal as the recorded
    one: the same points, the same stream left behind."""
    hands, leader, trump, seed = deal
    planes = np.array([counts_to_planes(h) for h in hands], dtype=np.uint32)
    state = np.empty(4, dtype=np.uint64)
    seed_stream(state, seed, 0)
    mode, seats = play_mode(np.array(policies, dtype=np.int64))
    flat = planes.reshape(16).copy()
    a, b, stream = playout_fast(mode, flat, leader, trump, seats, tuple(state),
                                play_table(knobs_of(policies)))
    cards = np.empty((HAND, 4), dtype=np.int64)
    lead = np.empty(HAND, dtype=np.int64)
    won = np.empty(HAND, dtype=np.int64)
    points = playout(planes, leader, trump, np.array(policies, dtype=np.int64),
                     knobs_of(policies), state, TABLES.card_points, RULES.last_trick, cards, lead,
                     won)
    assert (int(a), int(b)) == tuple(int(p) for p in points)
    assert [int(x) for x in stream] == [int(x) for x in state]
    assert not flat.any()


@settings(max_examples=50, deadline=None)
@given(deals(), deals(), st.sampled_from([[POLICY_RANDOM] * 4, [POLICY_HEURISTIC] * 4,
                                           [POLICY_EXPERT, POLICY_HEURISTIC] * 2]))
def test_paired_playouts_equal_two_playouts(deal_a, deal_b, policies):
    """Two play-outs interleaved card by card give what each gives alone, through the three
    specialised pairs the drivers run (random or the heuristic proper on every seat, or no
    random seat and an expert: the bid odds' pairs; other mixes are never paired), so the test
    compiles no other copy of the pair loop."""
    mode, seats = play_mode(np.array(policies, dtype=np.int64))
    flats, states, alone = [], [], []
    for hands, leader, trump, seed in (deal_a, deal_b):
        flat = np.array([counts_to_planes(h) for h in hands], dtype=np.uint32).reshape(16)
        state = np.empty(4, dtype=np.uint64)
        seed_stream(state, seed, 0)
        flats.append(flat)
        states.append(state)
        a, b, stream = playout_fast(mode, flat.copy(), leader, trump, seats, tuple(state),
                                    play_table(knobs_of(policies)))
        alone.append((a, b, *stream))
    (_, la, ta, _), (_, lb, tb, _) = deal_a, deal_b
    if mode == PLAY_RANDOM:
        a0, b0, a1, b1, sa, sb = playout_pair_random(
            flats[0], la, ta, tuple(states[0]), flats[1], lb, tb, tuple(states[1]), HAND,
            play_table(HEURISTIC_ROWS))
        got = (a0, b0, a1, b1, *sa, *sb)
    elif mode == PLAY_EXPERT:
        got = playout_pair_expert(flats[0], la, ta, flats[1], lb, tb, HAND,
                                  play_table(knobs_of(policies)))
    else:
        got = playout_pair_heuristic(flats[0], la, ta, flats[1], lb, tb, HAND,
                                     play_table(HEURISTIC_ROWS))
    a0, b0, a1, b1 = (int(x) for x in got[:4])
    assert (a0, a1) == (int(alone[0][0]), int(alone[0][1]))
    assert (b0, b1) == (int(alone[1][0]), int(alone[1][1]))
    if mode == PLAY_RANDOM:  # each stream moved on as it does alone
        assert [int(x) for x in got[4:8]] == [int(x) for x in alone[0][2:]]
        assert [int(x) for x in got[8:]] == [int(x) for x in alone[1][2:]]


@numba.njit
def both_kth_bits(mask, k):
    return kth_bit(mask, k), nth_bit(mask, k)


@EXAMPLES
@given(st.integers(1, 2**24 - 1), st.data())
def test_kth_bit_equals_nth_bit(mask, data):
    k = data.draw(st.integers(0, bin(mask).count("1") - 1))
    want = [i for i in range(24) if mask >> i & 1][k]
    assert both_kth_bits(np.int64(mask), np.int64(k)) == (want, want)


# --- the heuristic's rules on hand-made positions ----------------------------------------------

def heuristic(hand, legal, unseen, seat, position, led, win, win_seat, trump=S, voids=0,
              trick_index=5, bidder=0):
    planes = counts_to_planes(counts_of(parse_cards(hand)))
    legal_bits = sum(1 << t for t in set(parse_cards(legal)))
    unseen_bits = sum(1 << t for t in set(parse_cards(unseen)))
    counters = sum(1 << t for t in range(N_TYPES) if TABLES.card_points[t] > 0)
    win_card = parse_card(win) if win else -1
    return heuristic_card(legal_bits, planes, unseen_bits, voids, seat, position, led, win_card,
                          win_seat, trick_index, HAND, trump, bidder, counters, HEURISTIC_ROWS)


def test_heuristic_smears_a_counter_on_partners_trick():
    # seat 3 plays last, partner (seat 1) holds the trick: smear the cheapest side counter (KD)
    got = heuristic("JD KD AD TC", "JD KD AD TC", "QH", seat=3, position=3, led=H, win="AH",
                    win_seat=1)
    assert got == parse_card("KD")


def test_heuristic_does_not_waste_a_high_card_that_cannot_win():
    # must follow hearts under an opponent's AH: the low JH, not the counter KH
    got = heuristic("KH JH AD", "KH JH", "AH QH", seat=1, position=1, led=H, win="AH",
                    win_seat=0)
    assert got == parse_card("JH")


def test_heuristic_last_player_wins_cheaply():
    # opponent winning with KH, we play last: the cheapest card that beats it (TH, not AH)
    got = heuristic("AH TH JD", "AH TH", "QD", seat=3, position=3, led=H, win="KH", win_seat=2)
    assert got == parse_card("TH")


def test_heuristic_bidding_side_pulls_trumps():
    # seat 2 (partner of the bidder, seat 0) leads early with two trumps, the top one a master
    got = heuristic("AS JS AH JD", "AS JS AH JD", "KS TS QH", seat=2, position=0, led=-1,
                    win=None, win_seat=-1)
    assert got == parse_card("AS")
    # the opponents do not pull trumps: they cash the side ace instead
    got = heuristic("AS JS AH JD", "AS JS AH JD", "KS TS QH", seat=1, position=0, led=-1,
                    win=None, win_seat=-1)
    assert got == parse_card("AH")


def test_heuristic_keeps_its_last_trump_and_leads_low():
    # a single trump is kept; no side master (TD is beaten by an unseen AD): lead the low JD
    got = heuristic("AS TD JD", "AS TD JD", "AD KS", seat=0, position=0, led=-1, win=None,
                    win_seat=-1)
    assert got == parse_card("JD")


def test_heuristic_avoids_cashing_into_a_known_void():
    # opponent seat 2 has shown out of hearts (bit 4*2 + H) and trumps are out: AH is not led
    got = heuristic("AH JD", "AH JD", "KS QH", seat=1, position=0, led=-1, win=None,
                    win_seat=-1, voids=1 << (4 * 2 + H))
    assert got == parse_card("JD")


@st.composite
def positions_to_play(draw):
    """A position the heuristic may meet: a deck dealt out, some cards played (so the seat's own
    hand, the unseen cards and some shown voids are consistent), the seat's place in a trick,
    the card holding it (a trump or of the led suit) and the legal cards."""
    cards = draw(st.permutations(DECK))
    size = draw(st.integers(1, HAND))
    own = cards[:size]
    others = cards[size:size + draw(st.integers(0, 3 * size))]
    trump = draw(st.integers(0, 3))
    position = draw(st.integers(0, 3))
    seat = draw(st.integers(0, 3))
    voids = {(s, u) for s in range(4) for u in range(4) if s != seat and draw(st.booleans())
             and draw(st.booleans())}
    # what the table knows besides: per other seat and suit the top card types it cannot hold
    ceilings = {(s, u): draw(st.integers(0, 6)) for s in range(4) for u in range(4)
                if s != seat and draw(st.booleans())}
    hand = list(counts_of(own))
    if position == 0:
        led, win, win_seat, legal = -1, -1, -1, sorted(set(own))
    else:
        win = draw(st.sampled_from(sorted(set(others) or {0})))
        led = win // 6 if draw(st.booleans()) or win // 6 != trump else draw(st.integers(0, 3))
        win_seat = (seat - draw(st.integers(1, position))) % 4
        trick = [led * 6] if led != win // 6 else []
        legal = ref.legal_cards(hand, trick + [win], trump)
    return (hand, legal, set(others), voids, ceilings, seat, position, led, win, win_seat,
            draw(st.integers(0, HAND - 1)), trump, draw(st.integers(0, 3)))


SWITCHES = {"cash_first", "pull_defenders", "lead_ruff", "ruff_low", "smear_losers",
            "smear_trump", "lead_score", "infer"}


@st.composite
def knob_rows(draw):
    """Knobs by name: the heuristic's, or any values in the ranges the fit searches (switches
    0/1, the pull window 0..8 eighths, the trumps to pull 0..5, the scorers' weights)."""
    if draw(st.booleans()):
        return dict(ref.HEURISTIC_KNOBS)
    knobs = {}
    for name in expert_play.PARTNERSHIP_KNOBS:
        if name in SWITCHES:
            knobs[name] = draw(st.integers(0, 1))
        elif name == "pull_window":
            knobs[name] = draw(st.integers(0, 8))
        elif name == "pull_min":
            knobs[name] = draw(st.integers(0, 5))
        else:
            knobs[name] = draw(st.integers(-60, 60))
    return knobs


def test_knob_names_follow_the_kernel_order():
    """The names of expert_play.json's knobs, the twin's and the kernel's rows agree."""
    assert len(expert_play.PARTNERSHIP_KNOBS) == N_PTUNE
    assert tuple(ref.HEURISTIC_KNOBS) == expert_play.PARTNERSHIP_KNOBS
    assert tuple(ref.HEURISTIC_KNOBS.values()) == HEURISTIC_PTUNE
    assert TUNE.shape == (2, N_PTUNE) and tuple(TUNE[0]) == HEURISTIC_PTUNE


@settings(max_examples=500, deadline=None)
@given(positions_to_play(), knob_rows())
def test_heuristic_equals_reference(position, knobs):
    """The heuristic (branch-free: every rule's cards worked out, selects choose) plays the card
    its rules, written out one after another in the twin, choose; with the heuristic's knobs
    or any others (the expert's rules and scorers)."""
    (hand, legal, unseen, voids, ceilings, seat, pos, led, win, win_seat, trick_index, trump,
     bidder) = position
    counters = {t for t in range(N_TYPES) if TABLES.card_points[t] > 0}
    # the twin's view of the ceilings: per seat the card types it cannot hold
    excluded = [{6 * u + r for (q, u), k in ceilings.items() if q == s for r in range(6 - k, 6)}
                for s in range(4)]
    want = ref.heuristic_card(hand, legal, unseen, voids, seat, pos, led, win, win_seat,
                              trick_index, HAND, trump, bidder, counters, knobs, excluded)
    rows = np.array([[knobs[n] for n in expert_play.PARTNERSHIP_KNOBS]] * 4, dtype=np.int64)
    packed = sum(1 << (4 * s + u) for s, u in voids) + sum(
        k << (CEILING + 3 * (4 * s + u)) for (s, u), k in ceilings.items())
    packed = np.array([packed], dtype=np.uint64).view(np.int64)[0]  # the top bits: the sign's
    got = heuristic_card(sum(1 << t for t in legal),
                         np.array(counts_to_planes(np.array(hand)), dtype=np.uint32),
                         sum(1 << t for t in unseen), packed,
                         seat, pos, led, win, win_seat, trick_index, HAND, trump, bidder,
                         sum(1 << t for t in counters), rows)
    assert got == want
    assert got in legal


# --- the play-out driver ---------------------------------------------------------------------

def run_blocks(n, policies, seed=7, first_block=0, block_size=256):
    play = np.empty((n, 2), dtype=np.int64)
    trumps = np.empty(n, dtype=np.int64)
    pairs = (-(-n // block_size) + 1) // 2  # the kernel plays its blocks in pairs
    spread_blocks(playout_blocks, pairs, TABLES.deck, TABLES.card_points, RULES.last_trick,
                  TABLES.kt, TABLES.trump_need, np.array(policies, dtype=np.int64), TUNE, seed,
                  first_block, block_size, play, trumps)
    return play, trumps


@EXAMPLES
@given(st.integers(0, 2**63 - 1), st.integers(0, 1000), st.integers(1, 4), st.integers(1, 9))
def test_playout_blocks_equal_reference(seed, first_block, block_size, n):
    play, trumps = run_blocks(n, [POLICY_RANDOM] * 4, seed, first_block, block_size)
    want = ref.playout_deals(RULES, n, seed, block_size, first_block)
    assert [(int(a), int(b), int(t)) for (a, b), t in zip(play, trumps)] == want


@EXAMPLES
@given(st.integers(0, 2**63 - 1), st.integers(0, 1000), st.integers(1, 4), st.integers(1, 9))
def test_heuristic_playout_blocks_equal_reference(seed, first_block, block_size, n):
    """Whole heuristic deals (the kernel plays them two at a time) against the twin's, which
    plays each alone with :func:`binokel_sim.reference.play.heuristic_card`."""
    play, trumps = run_blocks(n, [POLICY_HEURISTIC] * 4, seed, first_block, block_size)
    want = sampling_twin.heuristic_playout_deals(RULES, n, seed, block_size, first_block)
    assert [(int(a), int(b), int(t)) for (a, b), t in zip(play, trumps)] == want


def test_playout_blocks_same_for_one_and_two_threads(two_threads):
    policies = [POLICY_HEURISTIC, POLICY_RANDOM, POLICY_HEURISTIC, POLICY_RANDOM]
    numba.set_num_threads(1)
    one = run_blocks(3000, policies, block_size=128)
    numba.set_num_threads(two_threads)
    two = run_blocks(3000, policies, block_size=128)
    assert (one[0] == two[0]).all() and (one[1] == two[1]).all()
    assert (one[0].sum(axis=1) == TOTAL).all()


def test_playout_blocks_split_into_block_ranges():
    whole = run_blocks(1000, [POLICY_RANDOM] * 4, block_size=100)
    head = run_blocks(300, [POLICY_RANDOM] * 4, block_size=100)
    tail = run_blocks(700, [POLICY_RANDOM] * 4, first_block=3, block_size=100)
    assert (np.vstack([head[0], tail[0]]) == whole[0]).all()
    assert (np.concatenate([head[1], tail[1]]) == whole[1]).all()


def test_heuristic_beats_random():
    """The heuristic pair's mean play exceeds the random pair's by several points, whichever side
    it sits on (per-deal standard deviation ~8, so the standard error over 20000 deals is ~0.06
    and a 5-point margin is far beyond chance; measured margins are over 10 points)."""
    h, r = POLICY_HEURISTIC, POLICY_RANDOM
    bidders, _ = run_blocks(20_000, [h, r, h, r], seed=11)
    defenders, _ = run_blocks(20_000, [r, h, r, h], seed=11)
    baseline, _ = run_blocks(20_000, [r, r, r, r], seed=11)
    baseline_edge = (baseline[:, 0] - baseline[:, 1]).mean()  # seat 0 leads and names trump
    assert bidders[:, 0].mean() - bidders[:, 1].mean() >= 5 + baseline_edge
    assert defenders[:, 1].mean() - defenders[:, 0].mean() >= 5
    assert bidders[:, 0].mean() >= baseline[:, 0].mean() + 3


# --- scoring ---------------------------------------------------------------------------------

@pytest.mark.parametrize("args, expected", [
    # made: 25 play + 30 meld = 55 >= 50; opponents' meld 10 is under 20 and does not count
    ((30, 10, True, 50, 25, 25), (55, 25)),
    # set: 55 < 60 -> -60; opponents 25 + meld 24
    ((30, 24, True, 60, 25, 25), (-60, 49)),
    # exactly the bid, with play exactly 20: made
    ((30, 0, True, 50, 20, 30), (50, 30)),
    # bidding pair's play 19: its meld does not count -> 19 < 50 -> set; opponents 31 + 20
    ((40, 20, True, 50, 19, 31), (-50, 51)),
    # automatic loss: no marriage in trump (whatever the play)
    ((100, 40, False, 70, 40, 10), (-70, 0)),
    # automatic loss: pair meld 19 < 20
    ((19, 40, True, 50, 40, 10), (-50, 0)),
    # opponents under 20 in play score nothing, meld or not
    ((60, 50, True, 65, 32, 18), (92, 0)),
])
def test_score_deal_spec_cases(args, expected):
    assert score_deal(*args) == expected
    assert ref.score_deal(*args) == expected


@EXAMPLES
@given(st.integers(0, 400), st.integers(0, 400), st.booleans(), st.integers(50, 200),
       st.integers(0, 50), st.integers(0, 40), st.integers(0, 40))
def test_score_deal_equals_reference(meld, opp_meld, marriage, bid, play, min_meld, min_play):
    args = (meld, opp_meld, marriage, bid, play, TOTAL - play, min_meld, min_play)
    assert score_deal(*args) == ref.score_deal(*args)
