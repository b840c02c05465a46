"""The ``heuristic+solver`` policy's card in phase 2 of a two-player talon game (issue 11).

Once the talon is gone a player of two-hand-48 knows both hands: his own, and the other's as
every card he has not seen played or held (the turned trump went to the loser of the last phase-1
trick, in view of both). Phase 2 is then a game of perfect information, so the policy plays an
exactly best card (:mod:`binokel_sim.kernels.strict.solver`): the most card points for its side from
here, the last trick's bonus included, against best play of the other side. Phase 2 adds only
card points to a deal's score, so that is also the best for the deal's score. Phase 1 and the
declarations are the heuristic's (:mod:`binokel_sim.kernels.strict.heuristic`).

Several cards are often equally good; the policy then plays the lowest card type (suits S H D C,
ranks from the 9 up), so its choice is a function of the position alone (docs/rules.md,
"Policies"). A leader's card is :func:`~binokel_sim.kernels.strict.solver.best_lead`'s (the
lowest type of the best value, as every lead's value would give); a follower's value of each
legal reply is the trick's points to seat 0 plus :func:`solve` of the position after it (the last
trick's bonus instead when the hands are then empty), where a reply after the first needs only
:func:`~binokel_sim.kernels.strict.solver.solve_beyond`: its exact value only when it is better.
"""

import numpy as np

from binokel_sim.kernels.options import njit
from binokel_sim.kernels.bits import lowest_bit, popcount
from binokel_sim.kernels.strict.solver import (
    CTX_SIZE,
    TT_BITS,
    best_lead,
    solve,
    solve_beyond,
)
from binokel_sim.kernels.play import card_key, remove_card, suit_block


@njit
def solver_scratch(needed):
    """The policy's scratch, allocated once per block of deals: ``(ctx, table, hands)`` for the
    solver; the table is a one-entry stub unless ``needed`` (a seat plays the policy)."""
    bits = TT_BITS if needed else 0
    return (np.zeros(CTX_SIZE, dtype=np.int64), np.zeros((1 << bits, 2), dtype=np.int64),
            np.zeros((2, 4), dtype=np.uint32))


@njit
def solver_card(a0, a1, a2, a3, b0, b1, b2, b3, seat, legal, led, trump, card_points, last_trick,
                scratch):
    """The card ``seat`` (0 or 1) plays: ``a*``, ``b*`` the bit planes (int64) of seats 0 and 1
    now, the leader's card already out of his hand when ``seat`` follows; ``legal`` (int64 mask)
    the card types he may play; ``led`` the card led to this trick, -1 when he leads;
    ``card_points`` int64 (24,), ``last_trick`` the last trick's bonus; ``scratch`` from
    :func:`solver_scratch` (``True``). Returns the lowest card type of the best value."""
    if popcount(legal) == 1:
        return lowest_bit(legal)
    ctx, table, hands = scratch
    hands[0, 0], hands[0, 1], hands[0, 2], hands[0, 3] = a0, a1, a2, a3
    hands[1, 0], hands[1, 1], hands[1, 2], hands[1, 3] = b0, b1, b2, b3
    sign = np.int64(1) if seat == 0 else np.int64(-1)  # seat 1 minimises seat 0's points
    best = np.int64(0)
    pick = np.int64(-1)
    if led < 0:
        return best_lead(hands, trump, seat, card_points, last_trick, ctx, table, legal)[1]
    trump_block = suit_block(trump)
    led_block = suit_block(led // 6)
    key_led = card_key(led, led_block, trump_block)
    n_after = popcount(b0 if seat == 1 else a0) + popcount(b1 if seat == 1 else a1) \
        + popcount(b2 if seat == 1 else a2) + popcount(b3 if seat == 1 else a3) - 1
    cand = legal
    while cand:
        r = lowest_bit(cand)
        cand &= cand - 1
        winner = seat if card_key(r, led_block, trump_block) > key_led else 1 - seat
        trick = card_points[led] + card_points[r]
        if n_after == 0:
            value = trick + last_trick if winner == 0 else np.int64(0)
        else:
            remove_card(hands, seat, r)
            won = trick if winner == 0 else np.int64(0)
            if pick < 0:
                rest, _ = solve(hands, trump, winner, card_points, last_trick, ctx, table)
            else:  # only a better reply needs its exact value (the bound: as good as the best)
                rest = solve_beyond(hands, trump, winner, card_points, last_trick, ctx, table,
                                    sign * best - won, seat == 0)
            value = rest + won
            p0, p1, p2, p3 = (a0, a1, a2, a3) if seat == 0 else (b0, b1, b2, b3)
            hands[seat, 0], hands[seat, 1], hands[seat, 2], hands[seat, 3] = p0, p1, p2, p3
        if pick < 0 or sign * value > best:
            best = sign * value
            pick = r
    return pick
