"""The heuristic card player of the talon games
(:func:`binokel_sim.kernels.talon.deals.talon_blocks`), which plays every widow trick too.

It sees only what its seat may know: its own hand, the cards played so far, the trick on the
table. Its rules are documented in
docs/rules.md ("Talon heuristic") and in :func:`heuristic_talon_card`. Masks are int64 sets of
card types (bit ``suit * 6 + rank``); the bit helpers are shared with the four-hand-80 heuristic
(:mod:`binokel_sim.kernels.bits`).
"""

from collections import namedtuple

import numpy as np

from binokel_sim.kernels.bits import (
    RANK0,
    SUIT_MASK,
    above,
    cheapest,
    count_in,
    dominated,
    highest_rank,
    lowest_bit,
    lowest_rank,
    popcount,
)
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.policies import N_TUNE

RANK_9, RANK_J, RANK_Q, RANK_K, RANK_T, RANK_A = range(6)
BINOKEL = (np.int64(1) << RANK_Q) | (np.int64(1) << (2 * 6 + RANK_J))  # QS + JD (SPEC "Common")
WIN_FOR_MELD = 40  # a pending declaration worth this much is worth winning a trick for
WIN_FOR_POINTS = 10  # as is an ace or a ten on the table
BIG = (RANK0 << RANK_T) | (RANK0 << RANK_A)  # aces and tens: the cards worth saving

Place = namedtuple("Place", ["position", "led", "win_card", "partner_wins", "last",
                             "trick_points"])
"""A seat's place in the trick, as the heuristic reads it: ``position`` (int64, 0 leads), ``led``
the led suit and ``win_card`` the card holding the trick (int64, -1 when leading),
``partner_wins`` (bool) its partner holds the trick, ``last`` (bool) it plays last,
``trick_points`` (int64) the points on the table."""

Meld = namedtuple("Meld", ["ready", "pending", "shown"])
"""What a trick won would let the seat declare (phase 1; zeros in strict tricks), int64 each:
``ready`` the best declaration it could then make, ``pending`` the card types of the
declarations it may make now, ``shown`` the types of which a copy has served in one."""

# The knobs of the talon heuristic: a policy's row of ``N_TUNE`` int64 in a ``tune`` array (the
# heuristic's row holds HEURISTIC_TUNE, the expert policy's its fitted values,
# binokel_sim/expert_play.json; docs/rules.md "Expert policy").
T_WIN_POINTS = 0  # phase 1: win a trick holding this many points (the heuristic: WIN_FOR_POINTS)
T_WIN_MELD = 1  # phase 1: win when a declaration of this much waits (WIN_FOR_MELD)
T_SCORE = 2  # phase 1: 1 = choose by the weights below (:func:`scored_card`), not rules E1-E3
# the weights of a led card: an ace or ten, a card the heuristic keeps, a trump, a master (no
# unseen card of its suit above it), its rank (0 = nine .. 5 = ace), a master trump's per ten
# points of the declaration waiting
L_BIG, L_KEEP, L_TRUMP, L_MASTER, L_RANK, L_READY = 3, 4, 5, 6, 7, 8
# the weights of a card following an opponent's: a card that takes the trick, per point on the
# table it takes, per ten points of the declaration the win lets it make, an ace or ten that
# wins, an ace or ten that loses, a kept card, a trump, its rank
F_WIN, F_TAKE, F_READY, F_BIG_WINS, F_BIG_LOSES, F_KEEP, F_TRUMP, F_RANK = range(9, 17)
# a card of a declaration it may make now (pending), a card type of which a copy has served in a
# declaration (shown): leading, following
L_PENDING, L_SHOWN, F_PENDING, F_SHOWN = range(17, 21)
# strict tricks (phase 2, the widow games): S1 pulls trumps holding this many more than are
# unseen (the heuristic: 0); S3 playing last takes a trick holding at least this many points
# (1); S3 not last takes a trick holding at least this many points with a card that is no
# master (the heuristic never: NEVER); a family's own strict-trick knob (the heuristic: 0; the
# widow games': their defenders as partners, kernels/widow/knobs.py S_TEAM)
S_PULL, S_TAKE_LAST, S_GRAB, S_FAMILY = range(21, 25)
NEVER = 1 << 40
# strict tricks by weights (:func:`strict_scored_card`), with ``X_SCORE`` 1. Leading: a trump, a
# master, a master trump while the seat holds at least as many trumps as are unseen, an ace or
# ten, the rank, per card the seat holds of the suit, per unseen card of the suit. Following:
# a card that takes the trick, per point on the table it takes, a taking master, an ace or ten
# that takes, one that does not, one given to the partner's trick, a trump, the rank
X_SCORE = 25
X_L_TRUMP, X_L_MASTER, X_L_PULL, X_L_BIG, X_L_RANK, X_L_LENGTH, X_L_OUT = range(26, 33)
X_F_WIN, X_F_TAKE, X_F_SAFE, X_F_BIG_WINS, X_F_BIG_LOSES, X_F_SMEAR, X_F_TRUMP, X_F_RANK = \
    range(33, 41)
# phase 1, the partner holding the trick (four-hand-72): a card that takes it from him, an ace or
# ten given to his trick (with the scorer; without it, rule E3)
F_OVER, F_SMEAR = 41, 42
F_E3 = 43  # 1 = rule E3 (the heuristic's throw) when the partner holds the trick, not the weights
# the knobs of a family's own decisions, FAMILY_KNOBS .. FAMILY_KNOBS + 5 (the heuristic: 0; the
# widow games': burying and bidding, kernels/widow/knobs.py)
FAMILY_KNOBS = 44
# phase 1, following: per place in the trick (second, third and last under an opponent's card,
# third and last under the partner's: binokel_sim/expert_play.py PLACES) a row of weights added
# to the follow scores: a card that takes the trick, per point it takes, per ten points ready, an
# ace or ten that takes it, one that does not, a kept card, a trump, the rank, pending, shown, a
# trump that takes it, the rank of a card that takes it (expert_play.PLACE_FEATURES)
PL_FOLLOW = 50  # the first place's row
PL_WIN, PL_TAKE, PL_READY, PL_BIG_WINS, PL_BIG_LOSES, PL_KEEP, PL_TRUMP, PL_RANK, PL_PENDING, \
    PL_SHOWN, PL_TRUMP_WINS, PL_RANK_WINS = range(12)
N_PLACE = 12  # weights a place
HEURISTIC_TUNE = ((WIN_FOR_POINTS, WIN_FOR_MELD) + (0,) * (S_PULL - 2)  # no scorer
                  + (0, 1, NEVER, 0) + (0,) * (N_TUNE - X_SCORE))
# the same knobs as an int64 array, which heuristic_talon_card reads itself when given tune
# None: a global array is a constant of the compiled code, so LLVM folds its values there
HEURISTIC_KNOBS = np.array(HEURISTIC_TUNE, dtype=np.int64)


@njit
def meld_cards(trump_block):
    """Cards the heuristic keeps while the talon lasts: the binokel's, kings and queens (marriages,
    kings and queens around), aces (aces around), and every trump but the nine (the trump quint
    and the strength for phase 2). The trump nine is declared or swapped, not kept."""
    return (BINOKEL | (RANK0 << RANK_K) | (RANK0 << RANK_Q) | (RANK0 << RANK_A)
            | (trump_block & ~(RANK0 << RANK_9)))


@njit
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


@njit
def beats(legal, win_card, led, trump_block):
    """The cards of ``legal`` that would take the trick from ``win_card`` (``led`` suit led)."""
    if (trump_block >> win_card) & 1:
        return legal & trump_block & above(win_card)
    return legal & (trump_block | ((np.int64(SUIT_MASK) << (6 * led)) & above(win_card)))


@njit(_nrt=False)
def scored_card(legal, unseen, keep, position, led, win_card, partner_wins, trick_points, ready,
                trump_block, tune, row, pending, shown, last):
    """The expert's phase-1 card (knob ``T_SCORE``): the legal card type of the highest weighted
    score (the lowest type on a tie), the weights ``L_*`` when leading and ``F_*`` when
    following an opponent's card, ``F_OVER`` and ``F_SMEAR`` in place of the winning and
    losing terms when the partner holds the trick, and when following the weights of the seat's
    place in the trick (``PL_*``, ``last``: it plays last) added (``unseen``: the types some copy
    of which the seat has not seen; ``keep``: the heuristic's kept cards)."""
    masters = ~dominated(unseen)
    wins = beats(legal, win_card, led, trump_block) if position > 0 else np.int64(0)
    # a follower's weights, once a call: the follow_* knobs (follow_over and follow_smear for
    # the winning and losing terms under the partner's card) plus its place's (PL_*)
    place = 2 if last else (0 if position == 1 else 1)  # second, third, last
    if partner_wins:
        place = 4 if last else 3  # third, last under the partner's card
    at = row + PL_FOLLOW + place * N_PLACE
    taking = (tune[at + PL_WIN] + tune[at + PL_TAKE] * trick_points
              + tune[at + PL_READY] * (ready // 10))
    if partner_wins:
        taking += tune[row + F_OVER]
        big_wins = tune[at + PL_BIG_WINS]
        big_loses = tune[row + F_SMEAR] + tune[at + PL_BIG_LOSES]
    else:
        taking += (tune[row + F_WIN] + tune[row + F_TAKE] * trick_points
                   + tune[row + F_READY] * (ready // 10))
        big_wins = tune[row + F_BIG_WINS] + tune[at + PL_BIG_WINS]
        big_loses = tune[row + F_BIG_LOSES] + tune[at + PL_BIG_LOSES]
    w_keep = tune[row + F_KEEP] + tune[at + PL_KEEP]
    w_trump = tune[row + F_TRUMP] + tune[at + PL_TRUMP]
    w_rank = tune[row + F_RANK] + tune[at + PL_RANK]
    w_pending = tune[row + F_PENDING] + tune[at + PL_PENDING]
    w_shown = tune[row + F_SHOWN] + tune[at + PL_SHOWN]
    best = np.int64(-1)
    top = np.int64(-(1 << 62))
    todo = legal
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        big = (BIG >> c) & 1
        kept = (keep >> c) & 1
        trump = (trump_block >> c) & 1
        rank = c % 6
        meld = (pending >> c) & 1
        served = (shown >> c) & 1
        if position == 0:
            master = (masters >> c) & 1
            score = (tune[row + L_BIG] * big + tune[row + L_KEEP] * kept
                     + tune[row + L_TRUMP] * trump + tune[row + L_MASTER] * master
                     + tune[row + L_RANK] * rank
                     + tune[row + L_READY] * (master & trump) * (ready // 10)
                     + tune[row + L_PENDING] * meld + tune[row + L_SHOWN] * served)
        else:
            win = (wins >> c) & 1
            score = (win * (taking + big_wins * big + tune[at + PL_TRUMP_WINS] * trump
                            + tune[at + PL_RANK_WINS] * rank)
                     + (1 - win) * big_loses * big + w_keep * kept + w_trump * trump
                     + w_rank * rank + w_pending * meld + w_shown * served)
        if score > top:
            top = score
            best = c
    return best


@njit
def strict_scored_card(legal, h0, h1, h2, h3, unseen, position, led, win_card, partner_wins,
                       trick_points, trump_block, tune, row):
    """The expert's card in a strict trick (knob ``X_SCORE``): the legal card type of the
    highest weighted score (the lowest type on a tie), the weights ``X_L_*`` when leading and
    ``X_F_*`` when following; ``legal`` is already narrowed by the must-head obligation."""
    masters = ~dominated(unseen)
    wins = beats(legal, win_card, led, trump_block) if position > 0 else np.int64(0)
    trumps_held = count_in(h0, h1, h2, h3, trump_block)
    pull = trumps_held >= popcount(unseen & trump_block)
    best = np.int64(-1)
    top = np.int64(-(1 << 62))
    todo = legal
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        big = (BIG >> c) & 1
        trump = (trump_block >> c) & 1
        master = (masters >> c) & 1
        rank = c % 6
        if position == 0:
            suit = np.int64(SUIT_MASK) << (6 * (c // 6))
            score = (tune[row + X_L_TRUMP] * trump + tune[row + X_L_MASTER] * master
                     + tune[row + X_L_PULL] * (master & trump) * pull
                     + tune[row + X_L_BIG] * big + tune[row + X_L_RANK] * rank
                     + tune[row + X_L_LENGTH] * count_in(h0, h1, h2, h3, suit)
                     + tune[row + X_L_OUT] * popcount(unseen & suit))
        else:
            win = (wins >> c) & 1
            score = (win * (tune[row + X_F_WIN] + tune[row + X_F_TAKE] * trick_points
                            + tune[row + X_F_SAFE] * master + tune[row + X_F_BIG_WINS] * big)
                     + (1 - win) * big * (tune[row + X_F_BIG_LOSES]
                                          + tune[row + X_F_SMEAR] * partner_wins)
                     + tune[row + X_F_TRUMP] * trump + tune[row + X_F_RANK] * rank)
        if score > top:
            top = score
            best = c
    return best


@njit(_nrt=False)
def heuristic_talon_card(legal, hand, played, copies, early, place, meld, trump, counters, tune,
                         row):
    """The card the heuristic plays out of ``legal`` (int64 mask). Arguments: ``hand`` the seat's
    planes ``(h0, h1, h2, h3)``; ``played`` the planes of the cards played so far
    ``(g0, g1, g2, g3)``; ``copies`` copies of a card in the deck; ``early`` phase 1 (the talon
    lasts); ``place`` the seat's place in the trick (:class:`Place`); ``meld`` what a won trick
    would let it declare (:class:`Meld`; zeros in strict tricks); ``trump``; ``counters`` card
    types worth points; the knobs ``tune`` from ``row`` on: a policy's row of the table's knobs
    (int64 array), or with ``tune`` None the heuristic's own, :data:`HEURISTIC_KNOBS` from 0
    (the sampling policy's play-outs, where every seat plays the heuristic proper).

    A called kernel, not inlined: numba's inliner took some 60 CPU s for each copy of this body
    it put into a caller, lowering compiles the same code in a few seconds
    (docs/performance.md, "Compile cost"). With ``tune`` None numba prunes the choice of knobs
    by the argument's type, so that version reads the global array itself, whose values LLVM
    folds into the code: the rules' switches and weights are constants there. Passed as an
    argument, the same array is read at run time, which halves the speed of the play-outs
    (docs/performance.md, "Sampling speed").

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
    knobs = HEURISTIC_KNOBS if tune is None else tune  # numba prunes by tune's type
    at = np.int64(0) if tune is None else row
    h0, h1, h2, h3 = hand
    g0, g1, g2, g3 = played
    position, led, win_card, partner_wins, last, trick_points = place
    ready, pending, shown = meld
    trump_block = np.int64(SUIT_MASK) << (6 * trump)
    if early:
        keep = meld_cards(trump_block) | BIG
        if knobs[at + T_SCORE] != 0 and not (partner_wins and knobs[at + F_E3] != 0):
            return scored_card(legal, unseen_of(h0, h1, h2, h3, g0, g1, g2, g3, copies),
                               keep, position, led, win_card, np.int64(partner_wins),
                               trick_points, ready, trump_block, knobs, at, pending, shown,
                               last)
        if position == 0:  # E1
            spare = legal & ~keep & ~trump_block
            if spare:
                return lowest_rank(spare)
            return cheapest(legal, trump_block, counters)
        spare = legal & ~keep
        if not partner_wins:  # E2
            beat = beats(legal, win_card, led, trump_block)
            if beat and (trick_points >= knobs[at + T_WIN_POINTS]
                         or ready >= knobs[at + T_WIN_MELD]):
                cheap_beat = beat & ~keep
                if cheap_beat:
                    return lowest_rank(cheap_beat)
                return cheapest(beat, trump_block, counters)
        if spare:  # E2, E3: throw
            return cheapest(spare, trump_block, counters)
        return cheapest(legal & ~BIG if legal & ~BIG else legal, trump_block, counters)

    unseen = unseen_of(h0, h1, h2, h3, g0, g1, g2, g3, copies)
    if knobs[at + X_SCORE] != 0:
        return strict_scored_card(legal, h0, h1, h2, h3, unseen, position, led, win_card,
                                  np.int64(partner_wins), trick_points, trump_block, knobs, at)
    if position == 0:  # S1
        my_trumps = legal & trump_block
        top = my_trumps & ~dominated(unseen)
        if (top and unseen & trump_block
                and count_in(h0, h1, h2, h3, trump_block)
                >= popcount(unseen & trump_block) + knobs[at + S_PULL]):
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
            if trick_points >= knobs[at + S_TAKE_LAST] or not (legal & ~beat):
                return cheapest(beat, trump_block, counters)
        else:
            safe_beat = beat & ~dominated(unseen)
            if safe_beat:
                return cheapest(safe_beat, trump_block, counters)
            if trick_points >= knobs[at + S_GRAB]:
                return cheapest(beat, trump_block, counters)
    return cheapest(legal, trump_block, counters)
