"""The constrained sampler (kernels/sampler.py): exact counts, deal for deal equal to its twin,
never a card where knowledge forbids it, and uniform over the consistent deals (chi-square
against brute-force enumeration on small cases)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from binokel_sim.kernels.sampler import count_bounded, count_ways, sample_bounded, sample_counts
from binokel_sim.reference import sampler as twin
from binokel_sim.reference.core import Stream

ALL = (1 << 24) - 1
SUIT = 0b111111


def kernel_args(pool, allowed, capacity):
    n = len(capacity)
    a = np.zeros(4, dtype=np.int64)
    c = np.zeros(4, dtype=np.int64)
    a[:n] = allowed
    c[:n] = capacity
    ways = np.zeros((25, c[0] + 1, c[1] + 1, c[2] + 1), dtype=np.float64)
    return np.asarray(pool, dtype=np.int64), a, c, n, ways


def kernel_samples(pool, allowed, capacity, n, seed=1, block=0):
    p, a, c, seats, ways = kernel_args(pool, allowed, capacity)
    total = count_ways(p, a, c, seats, ways)
    assert total > 0
    state = np.zeros(4, dtype=np.uint64)
    s = Stream(seed, block).s
    state[:] = s
    out = np.zeros((4, 24), dtype=np.int64)
    draws = []
    for _ in range(n):
        sample_counts(p, a, c, seats, ways, state, out)
        draws.append(tuple(tuple(int(x) for x in out[s]) for s in range(seats)))
    return draws


@st.composite
def knowledge(draw, max_cards=16):
    seats = draw(st.integers(1, 4))
    pool = [0] * 24
    for _ in range(draw(st.integers(0, max_cards))):
        t = draw(st.integers(0, 23))
        if pool[t] < 4:
            pool[t] += 1
    total = sum(pool)
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=seats - 1, max_size=seats - 1)))
    capacity = [b - a for a, b in zip([0, *cuts], [*cuts, total])]
    # each seat may hold everything but a few suits / top cards (voids, must-head inferences)
    allowed = [ALL & ~draw(st.integers(0, ALL)) if draw(st.booleans()) else ALL
               for _ in range(seats)]
    return pool, allowed, capacity


@settings(max_examples=60, deadline=None)
@given(knowledge())
def test_counts_equal_the_exact_twin(k):
    pool, allowed, capacity = k
    p, a, c, n, ways = kernel_args(pool, allowed, capacity)
    exact = twin.count_ways(pool, allowed, capacity)
    assert count_ways(p, a, c, n, ways) == pytest.approx(exact, rel=1e-12, abs=0)


@settings(max_examples=40, deadline=None)
@given(knowledge(), st.integers(0, 2**32))
def test_samples_equal_the_twin_deal_for_deal(k, seed):
    pool, allowed, capacity = k
    if twin.count_ways(pool, allowed, capacity) == 0:
        return
    got = kernel_samples(pool, allowed, capacity, 5, seed)
    stream = Stream(seed, 0)
    for draw in got:
        want = twin.sample_counts(pool, allowed, capacity, stream)
        assert draw == tuple(tuple(row) for row in want)


@settings(max_examples=40, deadline=None)
@given(knowledge(max_cards=60))
def test_never_a_card_a_seat_may_not_hold(k):
    pool, allowed, capacity = k
    p, a, c, n, ways = kernel_args(pool, allowed, capacity)
    if count_ways(p, a, c, n, ways) == 0:
        return
    for draw in kernel_samples(pool, allowed, capacity, 20):
        counts = np.array(draw)
        assert (counts.sum(axis=0) == np.array(pool)).all()  # every copy placed once
        assert list(counts.sum(axis=1)) == capacity
        for s, row in enumerate(counts):
            for t in range(24):
                assert row[t] == 0 or allowed[s] >> t & 1


def test_contradictory_knowledge_has_no_deal():
    # two aces of spades (type 5) left, and neither seat may hold one
    pool = [0] * 24
    pool[5] = 2
    p, a, c, n, ways = kernel_args(pool, [ALL & ~(1 << 5)] * 2, [1, 1])
    assert count_ways(p, a, c, n, ways) == 0
    # capacities that do not add up to the pool
    p, a, c, n, ways = kernel_args(pool, [ALL, ALL], [2, 1])
    assert count_ways(p, a, c, n, ways) == 0


@pytest.mark.parametrize("case", list(twin.PLAIN_CASES.values()), ids=list(twin.PLAIN_CASES))
def test_uniform_over_the_consistent_deals(case):
    pool, allowed, capacity = case
    exact = twin.enumerate_deals(pool, allowed, capacity)
    assert sum(exact.values()) == twin.count_ways(pool, allowed, capacity)
    n = 20_000
    draws = kernel_samples(pool, allowed, capacity, n, seed=12345)
    seen: dict = {}
    for d in draws:
        seen[d] = seen.get(d, 0) + 1
    assert set(seen) <= set(exact)  # never a deal the knowledge rules out
    keys = sorted(exact)
    total = sum(exact.values())
    observed = [seen.get(key, 0) for key in keys]
    expected = [n * exact[key] / total for key in keys]
    assert chisquare(observed, expected).pvalue > 0.001


# --- the widow games' bound: two groups together hold at least lower[t], one card of slack -----

def kernel_bound(bound):
    return (np.asarray(bound.lower, dtype=np.int64),
            np.array([bound.soloist, bound.buried, bound.holder, bound.given, bound.held,
                      int(bound.slack), bound.demand], dtype=np.int64))


def bounded_samples(pool, allowed, capacity, bound, n, seed=1):
    p, a, c, groups, _ = kernel_args(pool, allowed, capacity)
    ways = np.zeros((50, c[0] + 1, c[1] + 1, c[2] + 1), dtype=np.float64)
    kb = kernel_bound(bound)
    total = count_bounded(p, a, c, groups, ways, kb)
    if total == 0:
        return total, []
    state = np.zeros(4, dtype=np.uint64)
    state[:] = Stream(seed, 0).s
    out = np.zeros((4, 24), dtype=np.int64)
    draws = []
    for _ in range(n):
        sample_bounded(p, a, c, groups, ways, state, out, kb)
        draws.append(tuple(tuple(int(x) for x in out[s]) for s in range(groups)))
    return total, draws


@st.composite
def bounded_knowledge(draw):
    pool, allowed, capacity = draw(knowledge(max_cards=12))
    groups = len(capacity)
    soloist = draw(st.integers(0, groups - 1))
    buried = draw(st.integers(0, groups - 1))
    holder = draw(st.sampled_from([-1] + [g for g in range(groups) if g not in (soloist,
                                                                                  buried)]))
    # some types ask one copy more than is left to place (every copy of it seen: only the slack
    # can meet it), most of the rest nothing
    lower = [draw(st.integers(-1, pool[t] + 1)) if pool[t] or draw(st.booleans()) else 0
             for t in range(24)]
    given = ALL & ~draw(st.integers(0, ALL))
    held = draw(st.integers(0, ALL))
    slack = holder >= 0 and draw(st.booleans())
    demand = draw(st.integers(-1, 23))
    return pool, allowed, capacity, twin.Bound(lower, soloist, buried, holder, given, held, slack,
                                               demand)


@settings(max_examples=60, deadline=None)
@given(bounded_knowledge(), st.integers(0, 2**32))
def test_bounded_counts_and_samples_equal_the_twin(k, seed):
    pool, allowed, capacity, bound = k
    exact = twin.count_ways(pool, allowed, capacity, bound)
    total, got = bounded_samples(pool, allowed, capacity, bound, 5, seed)
    assert total == pytest.approx(exact, rel=1e-12, abs=0)
    stream = Stream(seed, 0)
    memo: dict = {}
    for draw in got:
        want = twin.sample_counts(pool, allowed, capacity, stream, memo, bound)
        assert draw == tuple(tuple(row) for row in want)
        assert twin.consistent([list(row) for row in draw], bound)


def test_no_bound_is_the_plain_sampler():
    # a bound that asks nothing counts and draws as count_ways / sample_counts do
    pool = [1, 0, 1, 0, 0, 2] + [1, 1, 0, 1, 0, 1] + [1, 0, 0, 0, 0, 1] + [0] * 6
    allowed, capacity = [ALL & ~SUIT, ALL, ALL & ~0b111000], [3, 4, 3]
    free = twin.Bound([0] * 24, 0, 1, 2, ALL, 0, True)
    total, draws = bounded_samples(pool, allowed, capacity, free, 50, seed=9)
    assert total == twin.count_ways(pool, allowed, capacity)
    assert draws == kernel_samples(pool, allowed, capacity, 50, seed=9)


@pytest.mark.parametrize("case", list(twin.BOUNDED_CASES.values()),
                         ids=list(twin.BOUNDED_CASES))
def test_bounded_sampler_is_uniform_over_the_consistent_deals(case):
    pool, allowed, capacity, bound = case
    exact = twin.enumerate_deals(pool, allowed, capacity, bound)
    assert exact and sum(exact.values()) == twin.count_ways(pool, allowed, capacity, bound)
    n = 20_000
    _, draws = bounded_samples(pool, allowed, capacity, bound, n, seed=777)
    seen: dict = {}
    for d in draws:
        seen[d] = seen.get(d, 0) + 1
    assert set(seen) <= set(exact)
    keys = sorted(exact)
    total = sum(exact.values())
    observed = [seen.get(key, 0) for key in keys]
    expected = [n * exact[key] / total for key in keys]
    assert chisquare(observed, expected).pvalue > 0.001
