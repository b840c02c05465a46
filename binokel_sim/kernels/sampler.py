"""Dealing the unseen cards consistently with what is known, without bias (issue 11).

A seat's knowledge of another seat is a mask of the card types that seat may still hold (voids
and must-head inferences remove types) and the cards it is known to hold (shown melds, ``--known``
options), which are placed first. The rest of the unseen cards (the *pool*, counts per type) must
be spread over the other seats (and the hidden talon, widow or buried cards: up to four *groups*) so
that group ``g`` gets exactly ``capacity[g]`` cards, all of types in ``allowed[g]``.

A random deal conditioned on that knowledge is uniform over the consistent assignments of the
*physical* cards (copies of a type are different cards: two aces of spades can go to two seats in
two ways). :func:`count_ways` counts them by dynamic programming over the card types: ``ways[t,
r0, r1, r2]`` is the number of ways to place the copies of types ``t..23`` when groups 0, 1, 2
still need ``r0, r1, r2`` cards and group 3 the rest; a type with ``k`` copies split ``(a0, a1,
a2, a3)`` contributes the multinomial ``k! / (a0! a1! a2! a3!)``. :func:`sample_counts` then draws each type's
split with probability proportional to its ways, type by type: an exact constrained shuffle (no
rejection, so it costs the same however strong the knowledge). The counts are float64 (up to
about 10^27 for 60 cards over three seats; relative rounding 1e-16, far below any sampling error);
``tests/test_sampler.py`` checks uniformity against enumeration on small cases.
"""

from collections import namedtuple

import numpy as np

from binokel_sim.kernels.bits import N_TYPES
from binokel_sim.kernels.deal import add_card, deal_sum
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.random import xoshiro_step

MAX_GROUPS = 4  # three other seats and the hidden talon, widow or buried cards
_FACT = np.array([1.0, 1.0, 2.0, 6.0, 24.0])  # k! for k <= 4


@njit
def _split_ways(k, a0, a1, a2, a3):
    """Ways to send ``k`` distinct copies ``a0, a1, a2, a3`` to the four groups (a multinomial)."""
    return _FACT[k] / (_FACT[a0] * _FACT[a1] * _FACT[a2] * _FACT[a3])


@njit
def count_ways(pool, allowed, capacity, n_groups, ways):
    """Fill ``ways`` and return the number of consistent deals (0: the knowledge contradicts
    itself).

    ``pool`` int64 (24,): copies of each type to place; ``allowed`` int64 (4,): per group the mask
    of types it may hold; ``capacity`` int64 (4,): cards each group receives; ``n_groups`` (1..4):
    groups in use (the others' capacities must be 0). ``ways`` float64 (25, capacity[0] + 1,
    capacity[1] + 1, capacity[2] + 1) or larger: ``ways[t, r0, r1, r2]`` counts the placements of
    types ``t..23`` when groups 0, 1, 2 still need ``r0, r1, r2`` cards and group 3 the rest.
    """
    return count_bounded(pool, allowed, capacity, n_groups, ways, None)


@njit
def sample_counts(pool, allowed, capacity, n_groups, ways, state, out):
    """Draw one consistent deal: ``out[g, t]`` (int64 (4, 24)) copies of type ``t`` for group
    ``g``, uniform over the physical assignments. ``ways`` must hold :func:`count_ways` of the
    same arguments (non-zero); ``state`` is the block's random stream (uint64[4], advanced: one
    53-bit uniform per type with copies to place)."""
    sample_bounded(pool, allowed, capacity, n_groups, ways, state, out, None)


# --- a lower bound on two groups together, with one card of slack (the widow games) -------------
#
# In the widow games the widow is shown, so a seat that is not the soloist knows that the
# soloist's hand and his buried cards hold between them at least ``lower[t]`` of the unseen
# copies of each type ``t`` (the widow's cards and the demanded card he has not played), but for
# one card: the card he gave back for the demanded one, which the seats other than the holder
# did not see, may be one of them. And the soloist held no copy of the demanded type, so his
# hand and buried cards hold at most the one copy handed over. ``bound`` is ``(lower int64
# (24,), par int64 (7,))`` with ``par`` = (the soloist's group, the buried group, the holder's
# group, the types the card given back may be, the types the holder is known to hold or has
# played, 1 when that one card of slack is open, else 0, the demanded type or -1). A deal is
# consistent when every type meets its bound (the demanded type exactly: no more than
# ``max(lower, 0)``), or when exactly one type ``t`` falls one short, the slack is open, ``t``
# may be the card given back and the holder holds a copy of it (or is known to / has played
# one). The count keeps two layers of ``ways`` (``ways[f * 25 + t]``, ``f`` = 1 while the slack
# is still open).

(BOUND_SOLOIST, BOUND_BURIED, BOUND_HOLDER, BOUND_GIVEN, BOUND_HELD, BOUND_SLACK,
 BOUND_DEMAND) = range(7)
N_BOUND = 7


@njit(_nrt=False)
def _pick(g, a0, a1, a2, a3):
    """The copies group ``g`` takes of a split (0 for ``g < 0``)."""
    if g == 0:
        return a0
    if g == 1:
        return a1
    if g == 2:
        return a2
    if g == 3:
        return a3
    return 0


Slack = namedtuple("Slack", ["soloist", "buried", "holder", "given", "held", "demand"])
"""The entries of the bound's ``par`` that :func:`_layer` reads, as integers (``BOUND_*``): a
call given an array counts a reference to it on entry and exit, which in the sampler's innermost
loops cost the widow games' sampling policy a tenth of its speed (docs/performance.md,
"Sampling speed")."""


@njit
def _slack(par):
    """The :class:`Slack` of the bound's ``par``."""
    return Slack(par[BOUND_SOLOIST], par[BOUND_BURIED], par[BOUND_HOLDER], par[BOUND_GIVEN],
                 par[BOUND_HELD], par[BOUND_DEMAND])


@njit(_nrt=False)
def _layer(slack, low, t, f, a0, a1, a2, a3):
    """The layer after type ``t`` is split ``a0..a3`` in layer ``f`` (``low`` the bound's
    ``lower[t]``, ``slack`` its :class:`Slack`): ``f`` when the soloist's and the buried groups
    meet ``low`` (and hold no more than that of the demanded type), 0 when they fall one short
    and the slack is open and may be spent on ``t``, -1 when the split is not consistent (a type
    with no copy to place is split ``0, 0, 0, 0``)."""
    got = _pick(slack.soloist, a0, a1, a2, a3) + _pick(slack.buried, a0, a1, a2, a3)
    if t == slack.demand and got > max(low, 0):
        return -1
    if got >= low:
        return f
    if (f == 1 and got == low - 1 and (slack.given >> t) & 1
            and (_pick(slack.holder, a0, a1, a2, a3) > 0 or (slack.held >> t) & 1)):
        return 0
    return -1


@njit(_nrt=False)
def count_bounded(pool, allowed, capacity, n_groups, ways, bound):
    """:func:`count_ways` under ``bound`` (None: no bound; ``ways`` then as there, else float64
    (50, ...): two layers)."""
    layers = 1
    if bound is not None:
        layers = 1 + bound[1][BOUND_SLACK]
        lower, slack = bound[0], _slack(bound[1])
    c0 = capacity[0]
    c1 = capacity[1] if n_groups > 1 else 0
    c2 = capacity[2] if n_groups > 2 else 0
    for f in range(layers):
        for r0 in range(c0 + 1):
            for r1 in range(c1 + 1):
                for r2 in range(c2 + 1):
                    ways[f * (N_TYPES + 1) + N_TYPES, r0, r1, r2] = 0.0
        ways[f * (N_TYPES + 1) + N_TYPES, 0, 0, 0] = 1.0
    remaining = 0  # cards of types t..23
    for t in range(N_TYPES - 1, -1, -1):
        k = pool[t]
        remaining += k
        ok0 = (allowed[0] >> t) & 1
        ok1 = ((allowed[1] >> t) & 1) if n_groups > 1 else 0
        ok2 = ((allowed[2] >> t) & 1) if n_groups > 2 else 0
        ok3 = ((allowed[3] >> t) & 1) if n_groups > 3 else 0
        for f in range(layers):
            for r0 in range(c0 + 1):
                for r1 in range(c1 + 1):
                    for r2 in range(c2 + 1):
                        r3 = remaining - r0 - r1 - r2
                        total = 0.0
                        if r3 >= 0 and (n_groups > 3 or r3 == 0):
                            for a0 in range(min(k, r0) + 1):
                                if a0 > 0 and ok0 == 0:
                                    break
                                for a1 in range(min(k - a0, r1) + 1):
                                    if a1 > 0 and ok1 == 0:
                                        break
                                    for a2 in range(min(k - a0 - a1, r2) + 1):
                                        if a2 > 0 and ok2 == 0:
                                            break
                                        a3 = k - a0 - a1 - a2
                                        if a3 > r3 or (a3 > 0 and ok3 == 0):
                                            continue
                                        g = f
                                        if bound is not None:
                                            g = _layer(slack, lower[t], t, f, a0, a1, a2, a3)
                                            if g < 0:
                                                continue
                                        w = ways[g * (N_TYPES + 1) + t + 1, r0 - a0, r1 - a1,
                                                 r2 - a2]
                                        if w > 0.0:
                                            total += _split_ways(k, a0, a1, a2, a3) * w
                        ways[f * (N_TYPES + 1) + t, r0, r1, r2] = total
    placed = 0
    for g in range(n_groups):
        placed += capacity[g]
    if remaining != placed:
        return 0.0
    return ways[(layers - 1) * (N_TYPES + 1), c0, c1, c2]


@njit(_nrt=False)
def sample_bounded(pool, allowed, capacity, n_groups, ways, state, out, bound):
    """:func:`sample_counts` under ``bound`` (None: none); ``ways`` holds
    :func:`count_bounded` of the same arguments."""
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    r0 = capacity[0]
    r1 = capacity[1] if n_groups > 1 else 0
    r2 = capacity[2] if n_groups > 2 else 0
    f = 0
    if bound is not None:
        f = bound[1][BOUND_SLACK]
        lower, slack = bound[0], _slack(bound[1])
    remaining = 0
    for t in range(N_TYPES):
        remaining += pool[t]
    for t in range(N_TYPES):
        k = pool[t]
        for g in range(MAX_GROUPS):
            out[g, t] = 0
        if k == 0:
            if bound is not None:  # as the count did: an empty type may spend the slack
                f = _layer(slack, lower[t], t, f, 0, 0, 0, 0)
            continue
        ok0 = (allowed[0] >> t) & 1
        ok1 = ((allowed[1] >> t) & 1) if n_groups > 1 else 0
        ok2 = ((allowed[2] >> t) & 1) if n_groups > 2 else 0
        ok3 = ((allowed[3] >> t) & 1) if n_groups > 3 else 0
        r3 = remaining - r0 - r1 - r2
        x, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
        u = (np.float64(x >> np.uint64(11)) * (1.0 / 9007199254740992.0)
             * ways[f * (N_TYPES + 1) + t, r0, r1, r2])
        b0 = b1 = b2 = -1
        bf = f
        done = False
        for a0 in range(min(k, r0) + 1):
            if a0 > 0 and ok0 == 0:
                break
            for a1 in range(min(k - a0, r1) + 1):
                if a1 > 0 and ok1 == 0:
                    break
                for a2 in range(min(k - a0 - a1, r2) + 1):
                    if a2 > 0 and ok2 == 0:
                        break
                    a3 = k - a0 - a1 - a2
                    if a3 > r3 or (a3 > 0 and ok3 == 0):
                        continue
                    g = f
                    if bound is not None:
                        g = _layer(slack, lower[t], t, f, a0, a1, a2, a3)
                        if g < 0:
                            continue
                    w = ways[g * (N_TYPES + 1) + t + 1, r0 - a0, r1 - a1, r2 - a2]
                    if w > 0.0:
                        b0, b1, b2, bf = a0, a1, a2, g
                        u -= _split_ways(k, a0, a1, a2, a3) * w
                        if u < 0.0:
                            done = True
                            break
                if done:
                    break
            if done:
                break
        # rounding may leave u a hair above 0 after the last option: that option is b0, b1, b2
        out[0, t] = b0
        out[1, t] = b1
        out[2, t] = b2
        out[3, t] = k - b0 - b1 - b2
        r0 -= b0
        r1 -= b1
        r2 -= b2
        f = bf
        remaining -= k
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3


@njit
def group_planes(known, split, row, group):
    """The planes (four int64) of a hand holding ``known[row, t] + split[group, t]`` copies of
    each card type ``t``: a seat's known cards and its group's share of a sample
    (:func:`sample_counts`)."""
    q0 = q1 = q2 = q3 = np.int64(0)
    for t in range(split.shape[1]):
        for _ in range(known[row, t] + split[group, t]):
            q0, q1, q2, q3 = add_card(q0, q1, q2, q3, np.int64(t))
    return q0, q1, q2, q3


@njit
def constrained_deal(known, n_players, s0, s1, s2, s3, sampled, st, split, hands, hidden):
    """A sample's deal under what the user knows (the talon and widow engines' samples): ``known``
    is ``(seat 0's planes, 1, pool, known cards per seat (4, 24), allowed, capacity, ways)``
    (:mod:`binokel_sim.constraints`). :func:`sample_counts` gives seats 1..P-1 their cards
    besides the known ones and the hidden cards (a talon without its turned card, or a widow:
    group P-1) theirs; their order is then a uniform shuffle of those
    (:func:`~binokel_sim.kernels.deal.deal_sum` over them). Writes ``hands`` rows 1..P-1 and
    ``hidden[:k]`` (``k`` the hidden cards; ``sampled`` uint64 holds at least ``k``, ``st`` the
    state, ``split`` int64 (4, 24)); returns the state."""
    pool, kc, allowed, capacity, ways = known[2], known[3], known[4], known[5], known[6]
    st[0], st[1], st[2], st[3] = s0, s1, s2, s3
    sample_counts(pool, allowed, capacity, n_players, ways, st, split)
    s0, s1, s2, s3 = st[0], st[1], st[2], st[3]
    for seat in range(1, n_players):
        q0, q1, q2, q3 = group_planes(kc, split, seat, seat - 1)
        hands[seat, 0] = q0
        hands[seat, 1] = q1
        hands[seat, 2] = q2
        hands[seat, 3] = q3
    k = 0
    for t in range(24):
        for _ in range(split[n_players - 1, t]):
            sampled[k] = np.uint64(t)
            k += 1
    _, s0, s1, s2, s3 = deal_sum(sampled[:k], k, s0, s1, s2, s3)
    for j in range(k):
        hidden[j] = np.int64(sampled[j])
    return s0, s1, s2, s3


@njit
def unconstrained(planes):
    """A sample's ``known`` tuple (:func:`constrained_deal`) with nothing known beyond seat 0's
    hand ``planes``: the deal is the plain shuffle."""
    z = np.zeros(4, dtype=np.int64)
    return (planes, np.int64(0), np.zeros(24, dtype=np.int64), np.zeros((4, 24), dtype=np.int64),
            z, z, np.zeros((1, 1, 1, 1)))
