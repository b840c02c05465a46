"""The partnership family's heuristic card player (policy 1 of four-hand-80, SPEC.md "Variant
four-hand-80"): :func:`heuristic_card` and its branch-free parts, played by
:mod:`binokel_sim.kernels.partnership.tricks` and the sampling policy's play-outs.
All masks are int64 holding a 24-bit set of card types (bit ``suit * 6 + rank``).
"""

import numpy as np

from binokel_sim.kernels.bits import (
    SUIT_MASK,
    above,
    cheapest_card,
    dominated,
    either,
    high_rank_card,
    masters,
    popcount,
    suit_blocks,
)
from binokel_sim.kernels.options import njit



@njit
def heuristic_card(legal, hand, unseen, voids, seat, position, led, win_card, win_seat,
                   trick_index, n_tricks, trump, bidder, counters):
    """Policy 1: a deterministic card player that uses only what its seat can know.

    Arguments (int64 unless said): ``legal`` the legal card types; ``hand`` uint32[4] the seat's
    own bit planes; ``unseen`` the card types still held by the other three players taken
    together (= deck minus own hand minus cards played: public knowledge plus own hand, never
    who holds what); ``voids`` bit ``4*seat + suit`` set when that seat has shown out of that
    suit (failed to follow it; a seat that neither followed nor trumped is void in trump too);
    ``seat`` the seat to play and ``position`` its place in the trick (0 = leads); ``led`` the
    led suit (-1 when leading); ``win_card`` / ``win_seat`` the card winning the trick so far and
    its seat (-1 when leading); ``trick_index`` 0..n_tricks-1; ``trump`` the trump suit;
    ``bidder`` the bid winner's seat (his partnership is the bidding side); ``counters`` the
    card types worth points (from the variant's card points).

    Returns the card type to play. Rules, in order:

    Leading
      L1. Pull trumps: a bidding-side leader in the first half of the play who holds at least
          two trumps (so one can be kept for the last trick), while trumps are unseen and not
          both opponents have shown out of trump, leads his highest trump if no unseen trump
          beats it, else his cheapest trump.
      L2. Cash side-suit winners: lead the highest-ranked non-trump master (no unseen card of its
          suit is higher: aces first) in a suit no opponent has shown out of, unless no trump
          is unseen (then any suit is safe).
      L3. Otherwise lead the cheapest non-trump card (a non-counter of the lowest rank),
          preferring a suit the partner has shown out of while he may still trump; lead a trump
          only when nothing else is left (keeps a trump for the last trick).

    Following (the obligation has already narrowed ``legal``)
      F1. Partner winning and the trick is safe (we play last, or partner's card is a master
          and the opponent still to play cannot trump it: he has not shown out of the led suit,
          has shown out of trump, or no trump is unseen): smear the cheapest non-trump counter
          (K before 10 before A); with none, play the cheapest card.
      F2. Opponent winning (or partner's card at risk) and we can beat it: playing last, take
          the trick with the cheapest beating card; otherwise beat only with a card that is
          safe (a master in its suit that the remaining opponent cannot trump), the cheapest
          such. Never throw a high card that cannot hold the trick.
      F3. Otherwise, we cannot (safely) win: play the cheapest legal card (non-counters and
          non-trumps first, the lowest rank).
    """
    return heuristic_pick(legal, hand[0], hand[1], hand[2], hand[3], unseen, voids, seat,
                          position, led, win_card, win_seat, trick_index, n_tricks, trump,
                          bidder, counters)


@njit
def heuristic_pick(legal, h0, h1, h2, h3, unseen, voids, seat, position, led, win_card, win_seat,
                   trick_index, n_tricks, trump, bidder, counters):
    """:func:`heuristic_card` with the hand as its four plane scalars ``h0..h3`` (no array):
    :func:`heuristic_lead` or :func:`heuristic_follow`."""
    if position == 0:
        return heuristic_lead(legal, h0, h1, h2, h3, unseen, voids, seat, trick_index, n_tricks,
                              trump, bidder, counters)
    trump_block = np.int64(SUIT_MASK) << (6 * trump)
    higher = above(win_card)
    # the cards that would take the lead from win_card
    wins = either(win_card // 6 == trump, trump_block & higher,
                  trump_block | ((np.int64(SUIT_MASK) << (6 * led)) & higher))
    return heuristic_follow(legal, unseen, voids, seat, position, led, win_card, win_seat, wins,
                            trump, counters)


@njit(inline="always")
def bit_of(x, i):
    """Bit ``i`` of ``x`` as a bool."""
    return ((x >> i) & 1) != 0


@njit(inline="always")
def heuristic_lead(legal, h0, h1, h2, h3, unseen, voids, seat, trick_index, n_tricks, trump,
                   bidder, counters):
    """Rules L1-L3 of :func:`heuristic_card` (the seat leads; ``legal`` is its hand), without a
    branch: every rule's cards are worked out, and selects pick the rule that applies. L1 and L2
    play the highest rank of a set of masters, everything else the cheapest card of a set."""
    trump_block = np.int64(SUIT_MASK) << (6 * trump)
    partner = seat ^ 2
    opp_a = (seat + 1) & 3
    opp_b = (seat + 3) & 3
    trumps_unseen = (unseen & trump_block) != 0
    opp_trump_void = bit_of(voids, 4 * opp_a + trump) & bit_of(voids, 4 * opp_b + trump)
    # two trumps or more: two trump types, or two copies of one (plane 1; planes are nested)
    two_trumps = (popcount(np.int64(h0) & trump_block) >= 2) | ((np.int64(h1) & trump_block) != 0)
    # L1: the bidding side pulls trumps early with two or more
    pull = (((seat & 1) == (bidder & 1)) & (2 * trick_index < n_tricks) & two_trumps
            & trumps_unseen & (not opp_trump_void))
    my_trumps = legal & trump_block
    top = masters(my_trumps, unseen)
    # L2: side-suit masters, not in a suit an opponent has shown out of while trumps are out
    side = legal & ~trump_block
    shown = ((voids >> (4 * opp_a)) | (voids >> (4 * opp_b))) & 0xF
    cash = masters(side, unseen) & ~either(trumps_unseen, suit_blocks(shown), np.int64(0))
    # L3: the cheapest side card, in a suit the partner has shown out of while he may trump
    partner_suits = (voids >> (4 * partner)) & 0xF & ~(np.int64(1) << trump)
    ruff = either(bit_of(voids, 4 * partner + trump), np.int64(0),
                  side & suit_blocks(partner_suits))
    low = either(ruff != 0, ruff, either(side != 0, side, legal))
    high = either(pull, top, cash)
    use_high = either(pull, top != 0, cash != 0)
    cheap = either(pull, my_trumps, low)
    return either(use_high, high_rank_card(high), cheapest_card(cheap, trump_block, counters))


@njit(inline="always")
def heuristic_follow(legal, unseen, voids, seat, position, led, win_card, win_seat, wins, trump,
                     counters):
    """Rules F1-F3 of :func:`heuristic_card` (``position`` 1..3), without a branch. ``wins``: the
    cards that would take the trick from ``win_card`` (its suit's higher cards, and every trump
    when it is no trump: ``legal & wins`` are the cards that beat it). Each rule plays the
    cheapest card of a set (F1's smear, the cheapest non-trump counter, is that set's cheapest
    card), so selects pick the set and one :func:`~binokel_sim.kernels.bits.cheapest_card` plays."""
    trump_block = np.int64(SUIT_MASK) << (6 * trump)
    trumps_unseen = (unseen & trump_block) != 0
    last = position == 3
    beat = legal & wins
    beaten = dominated(unseen)  # the card types an unseen card of their suit beats
    # The only opponent still to play is the next seat (at position 1 the partner plays last).
    # May he trump a side-suit card? Shown out of the led suit, not shown out of trump.
    next_seat = (seat + 1) & 3
    next_may_ruff = (trumps_unseen & bit_of(voids, 4 * next_seat + led)
                     & (not bit_of(voids, 4 * next_seat + trump)))
    # F1: partner holds the trick safely: smear a side counter, else the cheapest card
    win_is_trump = bit_of(trump_block, win_card)
    safe = last | ((not bit_of(beaten, win_card)) & (win_is_trump | (not next_may_ruff)))
    smear = legal & counters & ~trump_block
    f1 = (win_seat == (seat ^ 2)) & safe
    # F2: beat it, last cheaply, else only with a safe master
    safe_beat = beat & ~beaten & either(next_may_ruff, trump_block, np.int64(-1))
    f2 = either(last, beat, either(safe_beat != 0, safe_beat, legal))
    # F3: the cheapest legal card
    chosen = either(f1, either(smear != 0, smear, legal), either(beat != 0, f2, legal))
    return cheapest_card(chosen, trump_block, counters)
