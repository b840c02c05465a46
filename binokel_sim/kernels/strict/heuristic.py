"""The heuristic card player of the talon games
(:func:`binokel_sim.kernels.talon.deals.play_talon`), which plays every widow trick too.

It sees only what its seat may know: its own hand, the cards played so far, the trick on the
table. Its rules are documented in
docs/rules.md ("Talon heuristic") and in :func:`heuristic_talon_card`. Masks are int64 sets of
card types (bit ``suit * 6 + rank``); the bit helpers are shared with the four-hand-80 heuristic
(:mod:`binokel_sim.kernels.bits`).
"""

import numpy as np

from binokel_sim.kernels.options import njit
from binokel_sim.kernels.bits import (
    RANK0,
    SUIT_MASK,
    above,
    cheapest,
    count_in,
    dominated,
    highest_rank,
    lowest_rank,
    popcount,
)

RANK_9, RANK_J, RANK_Q, RANK_K, RANK_T, RANK_A = range(6)
BINOKEL = (np.int64(1) << RANK_Q) | (np.int64(1) << (2 * 6 + RANK_J))  # QS + JD (SPEC "Common")
WIN_FOR_MELD = 40  # a pending declaration worth this much is worth winning a trick for
WIN_FOR_POINTS = 10  # as is an ace or a ten on the table
BIG = (RANK0 << RANK_T) | (RANK0 << RANK_A)  # aces and tens: the cards worth saving


@njit(inline="always")
def meld_cards(trump_block):
    """Cards the heuristic keeps while the talon lasts: the binokel's, kings and queens (marriages,
    kings and queens around), aces (aces around), and every trump but the nine (the trump quint
    and the strength for phase 2). The trump nine is declared or swapped, not kept."""
    return (BINOKEL | (RANK0 << RANK_K) | (RANK0 << RANK_Q) | (RANK0 << RANK_A)
            | (trump_block & ~(RANK0 << RANK_9)))


@njit(inline="always")
def unseen_of(h0, h1, h2, h3, g0, g1, g2, g3, copies):
    """Card types some copy of which the seat has not seen: neither in its hand nor played
    (``h0..h3`` the hand's planes, ``g0..g3`` the played cards' planes, ``copies`` the deck's
    copies per type, 1 to 4). In thermometer codes "hand + played >= c" is the union over
    ``i + j = c`` of "hand >= i and played >= j" (plane ``i - 1``; ">= 0" is every type)."""
    h0, h1, h2, h3 = np.int64(h0), np.int64(h1), np.int64(h2), np.int64(h3)
    g0, g1, g2, g3 = np.int64(g0), np.int64(g1), np.int64(g2), np.int64(g3)
    if copies == 1:
        seen = h0 | g0
    elif copies == 2:
        seen = h1 | g1 | (h0 & g0)
    elif copies == 3:
        seen = h2 | g2 | (h1 & g0) | (h0 & g1)
    else:
        seen = h3 | g3 | (h2 & g0) | (h1 & g1) | (h0 & g2)
    return np.int64((1 << 24) - 1) & ~seen


@njit(inline="always")
def beats(legal, win_card, led, trump_block):
    """The cards of ``legal`` that would take the trick from ``win_card`` (``led`` suit led)."""
    if (trump_block >> win_card) & 1:
        return legal & trump_block & above(win_card)
    return legal & (trump_block | ((np.int64(SUIT_MASK) << (6 * led)) & above(win_card)))


@njit
def heuristic_talon_card(legal, h0, h1, h2, h3, g0, g1, g2, g3, copies, early, position, led, win_card,
                         partner_wins, last, trick_points, ready, trump, counters):
    """The card the heuristic plays out of ``legal`` (int64 mask). Arguments: ``h0..h3`` the seat's
    planes; ``g0..g3`` the planes of the cards played so far; ``copies`` copies of a
    card in the deck; ``early`` phase 1 (the talon lasts); ``position`` the seat's place in the
    trick (0 leads); ``led`` the led suit and ``win_card`` the card holding the trick (-1 when
    leading); ``partner_wins`` the partner holds the trick; ``last`` the seat plays last;
    ``trick_points`` the points on the table; ``ready`` the best declaration it could make after
    winning this trick (phase 1); ``trump``; ``counters`` card types worth points.

    Phase 1 (free play)
      E1. Lead the cheapest card that serves no meld (a non-trump nine or jack first), keeping
          the meld cards (:func:`meld_cards`), aces and tens; with only such cards, the cheapest
          non-trump card, a trump last.
      E2. Following an opponent's card: win it when the table holds an ace or a ten or a
          declaration of at least 40 is waiting, with the cheapest winning card (a card that
          serves no meld if there is one); otherwise throw the cheapest card that serves no meld
          and is no ace or ten.
      E3. The partner holds the trick: throw as in E2.
    Phase 2 (strict; the obligation has already narrowed ``legal``)
      S1. Leading: pull trumps with the highest trump while it is a master (no unseen trump is
          higher) and the seat holds at least as many trumps as are unseen; else cash a side-suit
          master (aces first); else the cheapest side card.
      S2. The partner holds the trick safely (we play last, or his card is a master): smear a
          counter that cannot win anything else (the cheapest non-trump counter), else the
          cheapest card.
      S3. Otherwise, playing last, take the trick with the cheapest winning card if the table has
          points; not last, win only with a master; else play the cheapest card.
    """
    trump_block = np.int64(SUIT_MASK) << (6 * trump)
    if early:
        keep = meld_cards(trump_block) | BIG
        if position == 0:  # E1
            spare = legal & ~keep & ~trump_block
            if spare:
                return lowest_rank(spare)
            return cheapest(legal, trump_block, counters)
        spare = legal & ~keep
        if not partner_wins:  # E2
            beat = beats(legal, win_card, led, trump_block)
            if beat and (trick_points >= WIN_FOR_POINTS or ready >= WIN_FOR_MELD):
                cheap_beat = beat & ~keep
                if cheap_beat:
                    return lowest_rank(cheap_beat)
                return cheapest(beat, trump_block, counters)
        if spare:  # E2, E3: throw
            return cheapest(spare, trump_block, counters)
        return cheapest(legal & ~BIG if legal & ~BIG else legal, trump_block, counters)

    unseen = unseen_of(h0, h1, h2, h3, g0, g1, g2, g3, copies)
    if position == 0:  # S1
        my_trumps = legal & trump_block
        top = my_trumps & ~dominated(unseen)
        if (top and unseen & trump_block
                and count_in(h0, h1, h2, h3, trump_block) >= popcount(unseen & trump_block)):
            return highest_rank(top)
        side = legal & ~trump_block
        cash = side & ~dominated(unseen)
        if cash:
            return highest_rank(cash)
        if side:
            return cheapest(side, trump_block, counters)
        return cheapest(legal, trump_block, counters)
    beat = beats(legal, win_card, led, trump_block)
    if partner_wins:  # S2
        safe = last or ((np.int64(1) << win_card) & ~dominated(unseen)) != 0
        if safe:
            smear = legal & counters & ~trump_block & ~beat
            if smear:
                return lowest_rank(smear)
            return cheapest(legal, trump_block, counters)
    if beat:  # S3
        if last:
            if trick_points > 0 or not (legal & ~beat):
                return cheapest(beat, trump_block, counters)
        else:
            safe_beat = beat & ~dominated(unseen)
            if safe_beat:
                return cheapest(safe_beat, trump_block, counters)
    return cheapest(legal, trump_block, counters)
