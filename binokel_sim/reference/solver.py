"""Slow, obvious twin of the endgame solver (:mod:`binokel_sim.kernels.strict.solver`): plain minimax
over every legal card of both players, no pruning, no table, no bit tricks.

A hand is a list of 24 counts (copies held of each card type). Legality and the trick winner are
:func:`binokel_sim.reference.play.legal_cards` and :func:`~binokel_sim.reference.play.trick_winner`,
written the way SPEC.md states "Must-head obligation" and "Trick winner"; copies of a card type
are one move (``legal_cards`` lists each type once). Seat 0 maximises its card points from here
(the last trick's bonus included), seat 1 minimises them.
"""

from __future__ import annotations

from collections.abc import Callable

from binokel_sim.cards import N_TYPES, type_rank
from binokel_sim.reference.play import legal_cards, trick_winner
from binokel_sim.variants import Rules

# what a position after a trick is worth to seat 0: (hands, leader, trump, rules) -> points
Value = Callable[[list[list[int]], int, int, Rules], int]


def card_points(rules: Rules, t: int) -> int:
    return rules.rank_points[type_rank(t)]


def value(hands: list[list[int]], leader: int, trump: int, rules: Rules) -> int:
    """Card points seat 0 wins from this trick start with best play of both sides."""
    values = lead_values(hands, leader, trump, rules).values()
    return max(values) if leader == 0 else min(values)


def lead_values(hands: list[list[int]], leader: int, trump: int, rules: Rules,
                rest: Value | None = None) -> dict[int, int]:
    """For every card type ``leader`` may lead: the points seat 0 wins from here after it.
    ``rest`` values the positions after this trick (default :func:`value`)."""
    follower = 1 - leader
    result = {}
    for card in legal_cards(hands[leader], [], trump):
        after = [list(h) for h in hands]
        after[leader][card] -= 1
        outcomes = reply_values(after, leader, card, trump, rules, rest).values()
        # the follower answers in his own interest: seat 1 minimises seat 0's points
        result[card] = min(outcomes) if follower == 1 else max(outcomes)
    return result


def reply_values(hands: list[list[int]], leader: int, card: int, trump: int, rules: Rules,
                 rest: Value | None = None) -> dict[int, int]:
    """For every card type the follower may play to ``card`` (``leader``'s lead, already out of
    his hand in ``hands``): the points seat 0 wins from this trick on. ``rest`` values the
    positions after the trick (default :func:`value`)."""
    rest = value if rest is None else rest
    follower = 1 - leader
    last = sum(hands[follower]) == 1
    result = {}
    for reply in legal_cards(hands[follower], [card], trump):
        winner = leader if trick_winner([card, reply], trump) == 0 else follower
        points = card_points(rules, card) + card_points(rules, reply)
        if last:
            points += rules.last_trick
        after = [list(h) for h in hands]
        after[follower][reply] -= 1
        later = 0 if last else rest(after, winner, trump, rules)
        result[reply] = (points if winner == 0 else 0) + later
    return result


def policy_card(hands: list[list[int]], seat: int, led: int | None, trump: int, rules: Rules,
                rest: Value | None = None) -> int:
    """The ``heuristic+solver`` policy's phase-2 card for ``seat`` (docs/rules.md, "Policies"):
    of the cards with the best value for its side (seat 0 the most points for seat 0, seat 1
    the fewest), the lowest card type. ``led`` is the card led to this trick (already out of the
    leader's hand), None when ``seat`` leads."""
    if led is None:
        values = lead_values(hands, seat, trump, rules, rest)
    else:
        values = reply_values(hands, 1 - seat, led, trump, rules, rest)
    best = max(values.values()) if seat == 0 else min(values.values())
    return min(t for t, v in values.items() if v == best)


def solve(hands: list[list[int]], leader: int, trump: int, rules: Rules) -> dict:
    """``points`` (seat 0), ``opponent_points``, ``best_cards`` (card types, ascending) and
    ``lead_values`` (card type -> seat 0's points) of a position: two hands of equal size as
    counts per card type."""
    values = lead_values(hands, leader, trump, rules)
    best = max(values.values()) if leader == 0 else min(values.values())
    total = sum(card_points(rules, t) * (hands[0][t] + hands[1][t]) for t in range(N_TYPES))
    total += rules.last_trick
    return {"points": best, "opponent_points": total - best,
            "best_cards": sorted(t for t, v in values.items() if v == best),
            "lead_values": values}
