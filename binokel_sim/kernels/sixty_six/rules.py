"""Sixty-six's rules on card masks: who takes a trick, the legal cards in open and strict play,
marriages, the trump nine's exchange, closing, a seat's count and how a deal ends.
Contract: SPEC.md "Variant sixty-six"; the decisions it leaves open are in docs/rules.md,
"Sixty-six".

The deck holds one copy of each of the 24 card types, so a hand is one int64 mask (bit
``suit * 6 + rank``, ranks ``9 J Q K T A`` in trick order), not bit planes. The functions take
scalars; the variant's numbers come from the table of :mod:`binokel_sim.kernels.sixty_six.deals`.
"""

import numpy as np

from binokel_sim.cards import RANK_K, RANK_Q
from binokel_sim.kernels.bits import RANK0
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.play import beaters, card_key, legal_under, suit_block

HAND = 6  # cards dealt to each seat
STOCK = 12  # the stock as dealt, the turned trump its last card
TRICKS = 12  # tricks in a deal played to the end without closing
# a lead's flags: the leader exchanged the trump nine, closed the stock, announced a marriage
# (a trick's "exchange", "close" and "marriage" in the record; a marriage claim's turn)
EXCHANGED = 1
CLOSED = 2
ANNOUNCED = 4
# how a deal ends: the record's result "reason", REASONS[code]
REASON_CLAIM, REASON_WRONG_CLAIM, REASON_FAILED_CLOSE, REASON_LAST_TRICK = range(4)
REASONS = ("claim", "wrong_claim", "failed_close", "last_trick")


@njit(inline="always")
def bit(card):
    """The mask of one card type."""
    return np.int64(1) << card


@njit(inline="always")
def takes(card, led, trump):
    """Whether ``card``, played to the lead ``led``, takes the trick: a higher card of the led
    suit, or a trump on a lead of another suit (the higher card of the led suit wins unless
    trumped)."""
    led_block = suit_block(led // 6)
    trump_block = suit_block(trump)
    return card_key(card, led_block, trump_block) > card_key(led, led_block, trump_block)


@njit(inline="always")
def winning_cards(cards, led, trump):
    """The cards of ``cards`` that take the trick from the lead ``led``: the higher cards of its
    suit, and every trump when ``led`` is not one."""
    ruffs = suit_block(trump) if led // 6 != trump else np.int64(0)
    return cards & (beaters(led) | ruffs)


@njit(inline="always")
def legal_follow(hand, led, trump, strict):
    """The cards ``hand`` may play to the lead ``led``: any card while the stock is open; in
    strict play (closed or exhausted) a card of the led suit that beats it, else one of the led
    suit, else a trump, else any card (with two players ``play.legal_under``'s must-head rule)."""
    if not strict:
        return hand
    return legal_under(hand, suit_block(led // 6), suit_block(trump), beaters(led))


@njit(inline="always")
def marriage_kings(hand):
    """The kings of the suits in which ``hand`` holds king and queen (the queen's bit moved one
    rank up meets the king's)."""
    return hand & (hand << 1) & (np.int64(RANK0) << RANK_K)


@njit(inline="always")
def marriage_cards(hand):
    """The kings and queens of ``hand``'s marriages."""
    kings = marriage_kings(hand)
    return kings | (kings >> 1)


@njit(inline="always")
def announces(hand, card):
    """Whether leading ``card`` from ``hand`` may announce a marriage: a king or queen whose
    partner is held."""
    rank = card % 6
    kings = marriage_kings(hand)
    return (rank == RANK_Q or rank == RANK_K) and ((kings >> (card // 6 * 6 + RANK_K)) & 1) != 0


@njit(inline="always")
def may_exchange(hand, nine, won, left, closed):
    """Whether the leader may exchange the trump nine ``nine`` for the turned trump: he holds
    it, has won a trick, and the stock is open and holds more than two cards."""
    return ((hand >> nine) & 1) != 0 and won > 0 and left > 2 and not closed


@njit(inline="always")
def may_close(left, closed):
    """Whether the leader may close the stock: it is open and not exhausted."""
    return not closed and left > 0


@njit(inline="always")
def count_of(card_points, marriages, won):
    """A seat's count: the card points it won, and its announced marriages once it has won a
    trick."""
    return card_points + (marriages if won > 0 else 0)


@njit(inline="always")
def claim_outcome(claim, claimant, counts, won):
    """``(seat, game points, reason)`` of a claim by ``claimant`` with the seats' ``counts`` and
    tricks ``won``: correct at ``claim`` or more (3 if the opponent has no trick, 2 if his count
    is under half the claim, else 1), else wrong (the opponent scores 2, 3 if the claimant has no
    trick)."""
    other = 1 - claimant
    if counts[claimant] >= claim:
        points = 3 if won[other] == 0 else (2 if counts[other] < claim // 2 else 1)
        return claimant, points, REASON_CLAIM
    return other, 3 if won[claimant] == 0 else 2, REASON_WRONG_CLAIM


@njit(inline="always")
def unclaimed_outcome(closer, opponent_won_at_close, last_winner):
    """``(seat, game points, reason)`` of a deal nobody claimed: the closer failed (his opponent
    scores 2, 3 if the opponent had no trick when it was closed), else the last trick's winner
    scores 1."""
    if closer >= 0:
        return 1 - closer, 3 if opponent_won_at_close == 0 else 2, REASON_FAILED_CLOSE
    return last_winner, 1, REASON_LAST_TRICK
