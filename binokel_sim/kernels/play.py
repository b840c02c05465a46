"""Card play every family shares: suit blocks, a card's trick strength, the must-head helpers,
the cards that take a trick from a card (WINS_OVER), a hand's copies of a card type (count, take
one, give one) and the end of a game. Contract: SPEC.md "Common to all variants" (must-head
obligation, trick winner, game end).

Masks are int64 holding a 24-bit set of card types (bit ``suit * 6 + rank``, ranks in trick
order), so "a higher card of suit s" is "a higher bit inside s's six-bit block". Hands are bit
planes (uint32[4], thermometer code, see :mod:`binokel_sim.cards`); cards are removed in place.
"""

import numpy as np

from binokel_sim.constants import NO_TRUMP
from binokel_sim.kernels.bits import SUIT_MASK, above, either
from binokel_sim.kernels.deal import add_card
from binokel_sim.kernels.options import njit


@njit(inline="always")
def suit_block(suit):
    """The six card types of ``suit`` (int64 mask)."""
    return np.int64(SUIT_MASK) << (6 * suit)


@njit(inline="always")
def card_key(card, led_block, trump_block):
    """Trick strength of ``card`` given the led suit's and the trump suit's blocks: the card type
    plus 32 if it is of the led suit plus 64 if it is a trump. Within a suit the type order is
    the rank order, so a later card takes the trick exactly when its key is strictly greater
    (SPEC.md "Trick winner", line 37; identical cards: the first played wins, line 20)."""
    return (card + (((led_block >> card) & 1) << 5) + (((trump_block >> card) & 1) << 6))


@njit(inline="always")
def beaters(win_card):
    """The card types of ``win_card``'s suit that are strictly higher: the cards the must-head
    obligation may demand while ``win_card`` holds the trick."""
    return above(win_card) & suit_block(win_card // 6)


@njit(inline="always")
def legal_under(p0, led_block, trump_block, beat):
    """The must-head obligation (SPEC.md "Must-head obligation", lines 25-35) for a hand whose
    presence plane is ``p0``, following to a trick whose winning card so far has the higher
    cards ``beat`` in its suit (:func:`beaters`). Returns an int64 mask.

    Rules 1-3 choose the pool (the led cards, else the trumps, else the whole hand); the pool
    must beat the winning card if it can exactly when it lies in that card's suit: led trump
    (rule 1a: the winner is the highest trump), untrumped trick (1b: the highest led card),
    trumped trick after a void (2: the highest trump). A trumped side-suit trick (1c) and rule 3
    give pools outside that suit, so ``pool & beat`` is empty there and the whole pool stands.
    Branch-free: random play-outs would otherwise pay for mispredicted branches.
    """
    hand = np.int64(p0)
    follow = hand & led_block
    trumps = hand & trump_block
    pool = follow if follow else (trumps if trumps else hand)
    higher = pool & beat
    return higher if higher else pool


@njit(inline="always")
def remove_card(hands, seat, t):
    """Take one copy of card type ``t`` out of ``hands[seat]``. In a thermometer code the new
    plane k is the old plane k+1 on bit t (count - 1 >= k + 1), so no branch is needed."""
    bit = np.int64(1) << t
    keep = ~bit
    q0 = np.int64(hands[seat, 0])
    q1 = np.int64(hands[seat, 1])
    q2 = np.int64(hands[seat, 2])
    q3 = np.int64(hands[seat, 3])
    hands[seat, 0] = np.uint32((q0 & keep) | (q1 & bit))
    hands[seat, 1] = np.uint32((q1 & keep) | (q2 & bit))
    hands[seat, 2] = np.uint32((q2 & keep) | (q3 & bit))
    hands[seat, 3] = np.uint32(q3 & keep)


@njit(inline="always")
def copies_of(hands, seat, t):
    """Copies of card type ``t`` in ``hands[seat]``: the planes holding bit ``t``."""
    return (np.int64((hands[seat, 0] >> t) & 1) + np.int64((hands[seat, 1] >> t) & 1)
            + np.int64((hands[seat, 2] >> t) & 1) + np.int64((hands[seat, 3] >> t) & 1))


@njit(inline="always")
def give_card(hands, seat, t):
    """A fresh copy of ``t`` joins ``hands[seat]``; its record slot is already 0."""
    p0, p1, p2, p3 = add_card(hands[seat, 0], hands[seat, 1], hands[seat, 2], hands[seat, 3], t)
    hands[seat, 0] = p0
    hands[seat, 1] = p1
    hands[seat, 2] = p2
    hands[seat, 3] = p3


def _wins_over():
    """``WINS_OVER[trump * 24 + c]``: the card types that take a trick from ``c`` when ``c`` holds
    it and ``trump`` is trump: the higher cards of ``c``'s suit, and every trump if ``c`` is not
    one (a card that holds a trick is a trump or of the led suit, so nothing else can take it);
    with ``trump`` ``NO_TRUMP`` (a Durch) the higher cards of the suit only.
    128 entries, so that an index masked with 127 is always inside."""
    table = np.zeros(128, dtype=np.int64)
    for trump in range(NO_TRUMP + 1):
        for c in range(24):
            suit = c // 6
            higher = ((1 << (6 * suit + 6)) - 1) & ~((2 << c) - 1)
            ruffs = 0 if suit == trump or trump == NO_TRUMP else SUIT_MASK << (6 * trump)
            table[trump * 24 + c] = higher | ruffs
    return table


WINS_OVER = _wins_over()  # a constant of every compiled kernel: the card types are fixed (24)


@njit
def takes(trump, c):
    """The cards that would take the trick from ``c`` (:data:`WINS_OVER`)."""
    return WINS_OVER[(trump * 24 + c) & 127]


@njit
def must_head(held, led_block, trump_block, wins):
    """The must-head obligation (:func:`binokel_sim.kernels.play.legal_under`) with the trick
    followed as ``wins`` (:func:`takes` of the card holding it): the pool is the led suit, else
    the trumps, else the hand, and of the pool the cards that would take the trick when there
    are any. The pool meets ``wins`` exactly in the cards above the winning card in its suit, or
    in every trump when a trump pool meets an untrumped trick (every trump then takes it), so
    the cards are legal_under's."""
    follow = held & led_block
    trumps = held & trump_block
    pool = either(follow != 0, follow, either(trumps != 0, trumps, held))
    higher = pool & wins
    return either(higher != 0, higher, pool)


@njit
def game_over(totals, target):
    """The winning side after a deal (SPEC: checked after each deal; several over the target: the
    highest total; a tie at the top: another deal), or -1 while the game goes on."""
    best = -1
    top = np.int64(-(1 << 62))
    tied = False
    for q in range(totals.shape[0]):
        if totals[q] > top:
            top = totals[q]
            best = q
            tied = False
        elif totals[q] == top:
            tied = True
    if top < target or tied:
        return -1
    return best
