"""Sixty-six's heuristic player (policy 1): a simple, deterministic player that reads no random
numbers (docs/rules.md, "Sixty-six", "Policies"). It

- exchanges the trump nine whenever it may, and announces every marriage it leads;
- claims exactly when its count reaches the claim (66);
- closes the stock when it has won a trick and its count plus its sure trumps' points reach the
  claim plus ``close_margin``;
- leads a marriage's queen while it holds a marriage (the trump marriage first, else the lowest
  suit); otherwise in strict play its highest master (a trump first), in open play its lowest
  card (a side suit's first);
- follows by taking the trick with its cheapest winning card in strict play always, in open
  play when the led card is worth ``take_at`` or more or the trick would bring it to the claim;
  otherwise it throws its lowest card (a side suit's first), keeping its marriages.

"Lowest" and "highest" are by rank (the card points rise with the rank), the lowest suit on a
tie. ``gone``: the cards of the finished tricks; what else the seat may know (the turned trump,
its own draws) it does not use.
"""

import numpy as np

from binokel_sim.kernels.bits import (
    ALL_TYPES,
    above,
    highest_rank,
    lowest_bit,
    lowest_rank,
    masters,
)
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.play import beaters, suit_block
from binokel_sim.kernels.sixty_six.rules import (
    legal_follow,
    marriage_cards,
    marriage_kings,
    winning_cards,
)


@njit(inline="always")
def low_card(pool, trump):
    """The lowest card of ``pool`` outside trump, else its lowest trump."""
    side = pool & ~suit_block(trump)
    return lowest_rank(side if side else pool)


@njit(inline="always")
def cheapest_winner(winners, led):
    """The cheapest of ``winners`` (cards that take the lead ``led``): the lowest higher card of
    the led suit, else the lowest trump."""
    same = winners & beaters(led)
    return lowest_rank(same if same else winners)


@njit(inline="always")
def sure_points(hand, gone, trump, card_points):
    """The card points of the trumps in ``hand`` that no other trump can beat: every higher trump
    is in ``hand`` or gone."""
    trump_block = suit_block(trump)
    outside = trump_block & ~hand & ~gone
    total = np.int64(0)
    todo = hand & trump_block
    while todo:
        t = lowest_bit(todo)
        todo &= todo - 1
        if (above(t) & outside) == 0:
            total += card_points[t]
    return total


@njit(inline="always")
def heuristic_closes(hand, gone, trump, count, won, card_points, enough):
    """Whether the heuristic closes the stock: it has won a trick and its ``count`` plus its
    sure trumps' points reach ``enough`` (the claim plus the knob ``close_margin``)."""
    return won > 0 and count + sure_points(hand, gone, trump, card_points) >= enough


@njit(inline="always")
def heuristic_lead(hand, gone, trump, strict):
    """The heuristic's lead (module docstring): a marriage's queen (announced by the caller),
    else in strict play its highest master trump or master, else its lowest card."""
    kings = marriage_kings(hand)
    if kings:
        trump_king = kings & suit_block(trump)
        return lowest_bit(trump_king if trump_king else kings) - 1
    if strict:
        best = masters(hand, ALL_TYPES & ~hand & ~gone)
        trumps = best & suit_block(trump)
        if trumps:
            return highest_rank(trumps)
        if best:
            return highest_rank(best)
    return low_card(hand, trump)


@njit(inline="always")
def heuristic_follow(table, hand, led, trump, strict, points_won, marriages):
    """The heuristic's card to the lead ``led`` (module docstring). ``table``: the
    ``SixtySixTable`` (card points, the claim, the knob ``take_at``); ``points_won`` and
    ``marriages``: the seat's card points and announced marriages so far (a trick won makes
    them count)."""
    card_points = table.card_points
    legal = legal_follow(hand, led, trump, strict)
    winners = winning_cards(legal, led, trump)
    if winners:
        w = cheapest_winner(winners, led)
        reaches = points_won + card_points[led] + card_points[w] + marriages >= table.claim
        if strict or card_points[led] >= table.knobs.take_at or reaches:
            return w
    keep = legal & ~marriage_cards(hand)
    return low_card(keep if keep else legal, trump)
