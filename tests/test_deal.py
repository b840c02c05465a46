"""Dealing: the kernel equals the pure-Python reference deal for deal, every card is dealt once
per copy, known cards are respected, and results depend on the seed only (not the thread count)."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from conftest import VARIANT_NAMES
from hypothesis import given, settings
from hypothesis import strategies as st

from binokel_sim import simulate
from binokel_sim.cards import N_PLANES, planes_to_counts
from binokel_sim.hands import parse_hand
from binokel_sim.kernels.deal import deal_blocks
from binokel_sim.kernels.random import bounded16
from binokel_sim.reference import core as core_twin
from binokel_sim.simulate import SimulationError, spread_blocks
from binokel_sim.variants import find_variant


def full_sizes(rules) -> list[int]:
    """Every seat's hand, then the rest of the deck (widow and talon) as one more 'hand'."""
    rest = rules.deck_size - rules.players * rules.hand_size
    return [rules.hand_size] * rules.players + ([rest] if rest else [])


def deck_list(rules, known=None) -> list[int]:
    counts = rules.deck_counts() if known is None else rules.deck_counts() - known
    return [t for t in range(24) for _ in range(int(counts[t]))]


def kernel_deal(deck: list[int], sizes: list[int], n_deals: int, seed: int, block_size: int,
                first_block: int = 0) -> np.ndarray:
    out = np.empty((n_deals, len(sizes), N_PLANES), dtype=np.uint32)
    spread_blocks(deal_blocks, -(-n_deals // block_size), np.array(deck, dtype=np.int64),
                  np.array(sizes, dtype=np.int64), seed, first_block, block_size, out)
    return out


def as_counts(planes: np.ndarray) -> list[list[list[int]]]:
    """(deals, hands, 4) planes -> counts per hand, like reference.core.deal_deals."""
    return [[planes_to_counts(h).tolist() for h in deal] for deal in planes]


# --- kernel == reference ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_kernel_deal_equals_reference_small_blocks(name):
    # block size 7 with 30 deals: five blocks, the last one partial; every seat plus the rest
    r = find_variant(name)
    deck, sizes = deck_list(r), full_sizes(r)
    got = as_counts(kernel_deal(deck, sizes, 30, seed=12345, block_size=7))
    assert got == core_twin.deal_deals(deck, sizes, 30, seed=12345, block_size=7)


@settings(max_examples=25)
@given(name=st.sampled_from(VARIANT_NAMES), seed=st.integers(0, 2**63 - 1),
       block_size=st.integers(1, 9), n_deals=st.integers(1, 20), first_block=st.integers(0, 5),
       n_hands=st.integers(1, 4))
def test_kernel_deal_equals_reference_hypothesis(name, seed, block_size, n_deals, first_block,
                                                 n_hands):
    r = find_variant(name)
    deck = deck_list(r)
    sizes = [r.hand_size] * min(n_hands, r.players)
    got = as_counts(kernel_deal(deck, sizes, n_deals, seed, block_size, first_block))
    assert got == core_twin.deal_deals(deck, sizes, n_deals, seed, block_size, first_block)


@pytest.mark.parametrize("name", ["four-hand-80", "two-hand-48", "three-hand-72"])
def test_public_deal_equals_reference(name):
    # simulate.deal: default hand sizes (one hand per seat), block simulate.BLOCK_SIZE
    r = find_variant(name)
    got = simulate.deal(r, 40, seed=7)
    assert got.shape == (40, r.players, N_PLANES) and got.dtype == np.uint32
    expected = core_twin.deal_deals(deck_list(r), [r.hand_size] * r.players, 40, 7,
                                    simulate.BLOCK_SIZE)
    assert as_counts(got) == expected


def test_public_deal_around_known_cards_equals_reference():
    r = find_variant("four-hand-80")
    known = parse_hand(r.example_hand, r)
    sizes = [r.hand_size] * 3
    got = simulate.deal(r, 25, seed=99, hand_sizes=sizes, known=known)
    expected = core_twin.deal_deals(deck_list(r, known), sizes, 25, 99, simulate.BLOCK_SIZE)
    assert as_counts(got) == expected


@pytest.mark.parametrize("bound", [1, 2, 3, 7, 48, 61, 80, 96, 1000, 65535, 65536])
@pytest.mark.parametrize("x16", [0, 1, 2, 17, 4096, 40000, 65535])
def test_bounded16_equals_reference_rejections_included(bound, x16):
    # x16 = 0 is rejected for every bound that does not divide 2**16: a fresh draw from the stream
    ref = core_twin.Stream(2024, 3)
    state = [np.uint64(x) for x in ref.s]
    got, *after = bounded16(np.uint64(x16), np.uint64(bound), *state)
    assert int(got) == ref.bounded16(x16, bound) and 0 <= int(got) < bound
    assert [int(x) for x in after] == ref.s  # the same outputs consumed


# --- invariants --------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_every_card_dealt_once_per_copy(name):
    r = find_variant(name)
    sizes = full_sizes(r)
    planes = simulate.deal(r, 500, seed=2024, hand_sizes=sizes)
    deck = r.deck_counts()
    for deal in planes:
        hands = [planes_to_counts(h) for h in deal]
        assert [int(h.sum()) for h in hands] == sizes
        assert (sum(hands) == deck).all()


@pytest.mark.parametrize("name", ["four-hand-80", "two-hand-48", "three-hand-auction-48",
                                  "four-hand-72"])
def test_known_cards_never_dealt_beyond_the_remaining_copies(name):
    r = find_variant(name)
    deck = r.deck_counts()
    # my hand: the first hand of a reference deal, so it is a legal hand of the variant
    mine = np.array(core_twin.deal_deals(deck_list(r), [r.hand_size], 1, 5, 1)[0][0])
    others = [r.hand_size] * (r.players - 1)
    rest = r.deck_size - r.players * r.hand_size
    sizes = others + ([rest] if rest else [])
    planes = simulate.deal(r, 300, seed=31, hand_sizes=sizes, known=mine)
    for deal in planes:
        hands = [planes_to_counts(h) for h in deal]
        for h in hands:
            assert (h + mine <= deck).all()
        # everything not known is dealt exactly once per remaining copy
        assert (sum(hands) == deck - mine).all()


def test_deal_around_a_hand_holding_all_copies():
    # I hold all four aces of spades: nobody else may get one
    r = find_variant("four-hand-80")
    known = parse_hand("AS AS AS AS", r, size=-1)
    planes = simulate.deal(r, 200, seed=1, hand_sizes=[20, 20, 20], known=known)
    assert all(planes_to_counts(h)[5] == 0 for deal in planes for h in deal)


def test_too_many_known_copies_is_an_error():
    r = find_variant("two-hand-48")
    known = np.zeros(24, dtype=np.int64)
    known[5] = 3  # three aces of spades in a 2-copy deck
    with pytest.raises(SimulationError):
        simulate.deal(r, 10, seed=1, known=known)


def test_hands_larger_than_the_deck_is_an_error():
    r = find_variant("two-hand-48")
    with pytest.raises(SimulationError, match="49"):
        simulate.deal(r, 10, seed=1, hand_sizes=[25, 24])


@pytest.mark.parametrize("deals,seed", [(0, 1), (-5, 1), (10, -1), (10, 2**63)])
def test_bad_run_arguments(deals, seed):
    with pytest.raises(SimulationError):
        simulate.deal(find_variant("two-hand-48"), deals, seed=seed)


def test_same_seed_same_arrays_other_seed_other_arrays():
    r = find_variant("four-hand-80")
    a = simulate.deal(r, 1000, seed=42)
    b = simulate.deal(r, 1000, seed=42)
    c = simulate.deal(r, 1000, seed=43)
    assert a.tobytes() == b.tobytes()
    assert not np.array_equal(a, c)
    # a shorter run is a prefix of a longer one with the same seed
    assert np.array_equal(simulate.deal(r, 100, seed=42), a[:100])


def test_deals_differ_within_a_run():
    # the permutation is carried from deal to deal inside a block: hands must not repeat
    r = find_variant("two-hand-48")
    planes = simulate.deal(r, 2000, seed=8)
    distinct = {p.tobytes() for p in planes}
    assert len(distinct) > 1990


def test_one_thread_equals_two_threads_kernel(two_threads):
    r = find_variant("two-hand-48")
    deck, sizes = deck_list(r), full_sizes(r)
    numba.set_num_threads(1)
    one = kernel_deal(deck, sizes, 5003, seed=77, block_size=7)
    numba.set_num_threads(two_threads)
    two = kernel_deal(deck, sizes, 5003, seed=77, block_size=7)
    assert one.tobytes() == two.tobytes()


def test_one_thread_equals_two_threads_public(two_threads):
    r = find_variant("four-hand-80")
    n = 2 * simulate.BLOCK_SIZE + 11  # three blocks
    one = simulate.deal(r, n, seed=5, threads=1)
    two = simulate.deal(r, n, seed=5, threads=two_threads)
    assert one.tobytes() == two.tobytes()


def test_threads_out_of_range():
    r = find_variant("two-hand-48")
    with pytest.raises(SimulationError):
        simulate.deal(r, 10, seed=1, threads=0)
    with pytest.raises(SimulationError):
        simulate.deal(r, 10, seed=1, threads=numba.config.NUMBA_NUM_THREADS + 1)


def test_deal_is_uniform_chi_square():
    # The number of aces of spades in the first two-hand-48 hand is hypergeometric:
    # P(k) = C(2, k) C(46, 12 - k) / C(48, 12). 60000 deals, chi-square with 2 degrees of freedom.
    from math import comb

    from scipy.stats import chisquare

    r = find_variant("two-hand-48")
    n = 60000
    planes = simulate.deal(r, n, seed=3, hand_sizes=[12])
    aces = ((planes[:, 0, :] >> 5) & 1).sum(axis=1)  # plane k holds the types held > k times
    observed = np.bincount(aces, minlength=3)
    expected = np.array([comb(2, k) * comb(46, 12 - k) / comb(48, 12) for k in range(3)]) * n
    assert abs(expected.sum() - n) < 1e-6
    assert chisquare(observed, expected).pvalue > 1e-4


@pytest.mark.parametrize("sizes", [[-1, 30], [12, -12, 24]])
def test_negative_hand_size_is_an_error(sizes):
    # the public driver validates before the kernel runs (the kernel would deal nonsense)
    with pytest.raises(SimulationError):
        simulate.deal(find_variant("two-hand-48"), 3, seed=1, hand_sizes=sizes)
