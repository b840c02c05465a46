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
    lowest_bit,
    masters,
    popcount,
    suit_blocks,
)
from binokel_sim.kernels.options import njit

# The knobs (one row per seat in ``knobs``, int64 (4, N_PTUNE)): the expert plays these rules
# with its fitted values (binokel_sim/expert_play.json), the heuristic with HEURISTIC_PTUNE,
# which are the rules as the docstring of heuristic_card states them.
P_CASH_FIRST = 0  # L2 before L1: cash side masters before pulling trumps (0: pull first)
P_PULL_DEFENDERS = 1  # the defenders pull trumps too (0: only the bidding side)
P_PULL_WINDOW = 2  # pull in trick k while 8k < window * n_tricks (4: the first half)
P_PULL_MIN = 3  # the trumps a leader holds to pull (2: keeps one for the last trick)
P_LEAD_RUFF = 4  # L3 prefers a suit the partner has shown out of (1: as the heuristic)
P_RUFF_LOW = 5  # F2 before last: any trump is a safe beat of a side suit the next seat follows
P_SMEAR_LOSERS = 6  # F1 smears a counter an unseen card beats before a master
P_SMEAR_TRUMP = 7  # F1 smears a trump counter an unseen trump beats too (after side counters)
P_LEAD_SCORE = 8  # lead the card of the best score (weights W_*) instead of rules L1-L3
# the lead scorer's weights, per feature of a candidate card (see scored_lead)
W_TRUMP_BID = 9
W_TRUMP_DEF = 10
W_TRUMP_EARLY = 11
W_TRUMP_LEN = 12
W_MASTER = 13
W_MASTER_TRUMP = 14
W_COUNTER = 15
W_RANK = 16
W_LEN = 17
W_OUT = 18
W_VOID_OPP = 19
W_VOID_PARTNER = 20
W_COPIES = 21
W_SINGLETON = 22
W_TRUMP_OUT = 23
W_TRUMP_DRAWN = 24
# 1 = the seat reads what the table knows of each hand (:func:`may_hold`): its follows count as
# safe a card no card the next seat may hold beats, its scored lead a master one that no card an
# opponent may hold beats (0: no unseen card, whoever holds it)
P_INFER = 25
W_BEATERS = 26  # the scored lead: per card type above the card in its suit an opponent may hold
# the auction (kernels/auction.py behind_partner): never raise the partner's standing bid once
# both opponents have passed, before that only with a limit this many points above the offer
# (0: the plain ladder, raising anyone)
P_BID_PARTNER = 27
N_PTUNE = 28
HEURISTIC_PTUNE = (0, 0, 4, 2, 1, 0, 0, 0, 0) + (0,) * (N_PTUNE - 9)

# What the table knows of each hand beyond the voids, kept in the same int64 as the voids (bits
# 0..15): for seat ``s`` and suit ``u`` the 3 bits at ``CEILING + 3 * (4 * s + u)`` count the
# suit's top card types the seat can no longer hold (6: none of the suit). Every card a follower
# plays excludes an upper part of one or two suits (:func:`~binokel_sim.kernels.knowledge.
# excluded_by`: the led suit or trump, from the cards that would have headed the trick or the
# whole suit), so a count per suit holds all of it.
CEILING = 16


def _ceiling_masks():
    """Per 12-bit code of one seat's four counts (3 bits a suit, suit 0 lowest) the card types
    they exclude: :func:`may_hold` looks them up instead of building them suit by suit."""
    masks = np.zeros(1 << 12, dtype=np.int64)
    for code in range(1 << 12):
        for suit in range(4):
            k = min((code >> (3 * suit)) & 7, 6)
            for rank in range(6 - k, 6):
                masks[code] |= 1 << (6 * suit + rank)
    return masks


CEILING_MASKS = _ceiling_masks()


@njit
def heuristic_card(legal, hand, unseen, voids, seat, position, led, win_card, win_seat,
                   trick_index, n_tricks, trump, bidder, counters, knobs):
    """Policy 1: a deterministic card player that uses only what its seat can know.

    Arguments (int64 unless said): ``legal`` the legal card types; ``hand`` uint32[4] the seat's
    own bit planes; ``unseen`` the card types still held by the other three players taken
    together (= deck minus own hand minus cards played: public knowledge plus own hand, never
    who holds what); ``voids`` bit ``4*seat + suit`` set when that seat has shown out of that
    suit (failed to follow it; a seat that neither followed nor trumped is void in trump too),
    and from bit :data:`CEILING` on what else its plays excluded (read with ``P_INFER``);
    ``seat`` the seat to play and ``position`` its place in the trick (0 = leads); ``led`` the
    led suit (-1 when leading); ``win_card`` / ``win_seat`` the card winning the trick so far and
    its seat (-1 when leading); ``trick_index`` 0..n_tricks-1; ``trump`` the trump suit;
    ``bidder`` the bid winner's seat (his partnership is the bidding side); ``counters`` the
    card types worth points (from the variant's card points); ``knobs`` int64 (4, N_PTUNE):
    each seat's knob row (:data:`HEURISTIC_PTUNE` plays the rules below; the expert's fitted
    values change them as the ``P_*`` constants say).

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
    return heuristic_pick(legal, (hand[0], hand[1], hand[2], hand[3]), unseen, voids, seat,
                          position, led, win_card, win_seat, trick_index, n_tricks, trump,
                          bidder, counters, knobs)


@njit
def heuristic_pick(legal, planes, unseen, voids, seat, position, led, win_card, win_seat,
                   trick_index, n_tricks, trump, bidder, counters, knobs):
    """:func:`heuristic_card` with the hand as a tuple of its four plane scalars ``planes`` (no
    array): :func:`heuristic_lead` or :func:`heuristic_follow`."""
    h0, h1, h2, h3 = planes
    if position == 0:
        return heuristic_lead(legal, h0, h1, h2, h3, unseen, voids, seat, trick_index, n_tricks,
                              trump, bidder, counters, knobs, False)
    trump_block = np.int64(SUIT_MASK) << (6 * trump)
    higher = above(win_card)
    # the cards that would take the lead from win_card
    wins = either(win_card // 6 == trump, trump_block & higher,
                  trump_block | ((np.int64(SUIT_MASK) << (6 * led)) & higher))
    return heuristic_follow(legal, unseen, voids, seat, position, led, win_card, win_seat, wins,
                            trump, counters, knobs, False)


@njit(inline="always")
def bit_of(x, i):
    """Bit ``i`` of ``x`` as a bool."""
    return ((x >> i) & 1) != 0


@njit(inline="always")
def knob(knobs, seat, i, plain):
    """Knob ``i`` of ``seat``: its row's (``knobs``), or with ``plain`` (every seat plays the
    heuristic proper: a constant of the compiled play-out) the heuristic's constant, which
    lets the compiler fold the rule switches away."""
    return HEURISTIC_PTUNE[i] if plain else knobs[seat, i]


@njit(inline="always")
def note_follow(voids, seat, c, follows, led, trump, beat):
    """``voids`` with what a follower's card ``c`` tells of ``seat`` beyond his voids (bits
    0..15, which the caller keeps), :func:`~binokel_sim.kernels.knowledge.excluded_by`'s rule as
    a count (:data:`CEILING`): a card of the suit the obligation made him play (the led suit if
    he ``follows``, else trump) that does not head the trick (``beat``: the cards that would
    have) means none of that suit's heading cards."""
    suit = either(follows, led, trump)
    headed = ((beat >> c) & 1) != 0
    return raise_ceiling(voids, seat, suit,
                         either(headed, np.int64(0),
                                popcount(beat & (np.int64(SUIT_MASK) << (6 * suit)))))


@njit(inline="always")
def raise_ceiling(voids, seat, suit, k):
    """``voids`` with ``seat``'s count of excluded top types of ``suit`` at least ``k``."""
    at = CEILING + 3 * (4 * seat + suit)
    old = (voids >> at) & 7
    return voids ^ ((old ^ max(old, np.int64(k))) << at)


@njit(inline="always")
def may_hold(voids, seat, unseen):
    """The card types of ``unseen`` that ``seat`` may hold as far as the table knows: none of a
    suit it has shown out of, and of each suit not its top types counted in ``voids``
    (:data:`CEILING`, looked up in :data:`CEILING_MASKS`)."""
    return unseen & ~(CEILING_MASKS[(voids >> (CEILING + 12 * seat)) & 0xFFF]
                      | suit_blocks((voids >> (4 * seat)) & 0xF))


@njit(inline="always")
def heuristic_lead(legal, h0, h1, h2, h3, unseen, voids, seat, trick_index, n_tricks, trump,
                   bidder, counters, knobs, plain):
    """Rules L1-L3 of :func:`heuristic_card` (the seat leads; ``legal`` is its hand), without a
    branch: every rule's cards are worked out, and selects pick the rule that applies. L1 and L2
    play the highest rank of a set of masters, everything else the cheapest card of a set. The
    seat's knobs (``P_CASH_FIRST``, ``P_PULL_*``, ``P_LEAD_RUFF``) move L1's conditions, put L2
    first and switch L3's preference. With ``P_LEAD_SCORE`` :func:`scored_lead` leads instead (the
    one branch: every lead of that seat takes it)."""
    if knob(knobs, seat, P_LEAD_SCORE, plain) != 0:
        return scored_lead(legal, h0, h1, h2, h3, unseen, voids, seat, trick_index, n_tricks,
                           trump, bidder, counters, knobs)
    trump_block = np.int64(SUIT_MASK) << (6 * trump)
    partner = seat ^ 2
    opp_a = (seat + 1) & 3
    opp_b = (seat + 3) & 3
    trumps_unseen = (unseen & trump_block) != 0
    opp_trump_void = bit_of(voids, 4 * opp_a + trump) & bit_of(voids, 4 * opp_b + trump)
    # the trumps held: every plane's trump bits (planes are nested: copy q is in plane q)
    held = suit_count(h0, h1, h2, h3, trump_block)
    # L1: the bidding side (and with P_PULL_DEFENDERS the defenders) pulls trumps early
    puller = ((seat & 1) == (bidder & 1)) | (knob(knobs, seat, P_PULL_DEFENDERS, plain) != 0)
    early = 8 * trick_index < knob(knobs, seat, P_PULL_WINDOW, plain) * n_tricks
    pull = (puller & early & (held >= knob(knobs, seat, P_PULL_MIN, plain)) & (held > 0)
            & trumps_unseen
            & (not opp_trump_void))
    my_trumps = legal & trump_block
    top = masters(my_trumps, unseen)
    # L2: side-suit masters, not in a suit an opponent has shown out of while trumps are out
    side = legal & ~trump_block
    shown = ((voids >> (4 * opp_a)) | (voids >> (4 * opp_b))) & 0xF
    cash = masters(side, unseen) & ~either(trumps_unseen, suit_blocks(shown), np.int64(0))
    pull &= not ((knob(knobs, seat, P_CASH_FIRST, plain) != 0) & (cash != 0))
    # L3: the cheapest side card, in a suit the partner has shown out of while he may trump
    partner_suits = (voids >> (4 * partner)) & 0xF & ~(np.int64(1) << trump)
    no_ruff = bit_of(voids, 4 * partner + trump) | (knob(knobs, seat, P_LEAD_RUFF, plain) == 0)
    ruff = either(no_ruff, np.int64(0), side & suit_blocks(partner_suits))
    low = either(ruff != 0, ruff, either(side != 0, side, legal))
    high = either(pull, top, cash)
    use_high = either(pull, top != 0, cash != 0)
    cheap = either(pull, my_trumps, low)
    return either(use_high, high_rank_card(high), cheapest_card(cheap, trump_block, counters))


@njit(inline="always")
def suit_count(h0, h1, h2, h3, block):
    """Cards of the hand (planes ``h0..h3``) among the card types ``block``."""
    return (popcount(np.int64(h0) & block) + popcount(np.int64(h1) & block)
            + popcount(np.int64(h2) & block) + popcount(np.int64(h3) & block))


# called, not inlined: one compiled function for every play-out specialisation
@njit(_nrt=False)
def scored_lead(legal, h0, h1, h2, h3, unseen, voids, seat, trick_index, n_tricks, trump,
                bidder, counters, knobs):
    """The expert's lead with ``P_LEAD_SCORE``: the legal card of the highest score, the lowest
    card type on a tie. A card's score is the sum of the seat's weights (``W_*``) of its
    features: a trump led by the bidding side (``W_TRUMP_BID``) or a defender
    (``W_TRUMP_DEF``), a trump in the first half of the play (``W_TRUMP_EARLY``), per trump
    held (``W_TRUMP_LEN``, trumps only), a master (no unseen card of its suit is higher:
    ``W_MASTER_TRUMP`` for a trump, ``W_MASTER`` else), a counter (``W_COUNTER``), per rank
    (``W_RANK``), per card held of its suit (``W_LEN``), per unseen card type of its suit
    (``W_OUT``), a side suit an opponent has shown out of while trumps are unseen
    (``W_VOID_OPP``), a side suit the partner has shown out of while he may trump
    (``W_VOID_PARTNER``), a side suit of one card held (``W_SINGLETON``), per further copy held
    (``W_COPIES``), and for a trump per unseen trump type (``W_TRUMP_OUT``, on top of
    ``W_OUT``) and while no opponent may hold a trump (``W_TRUMP_DRAWN``: none is unseen, or
    both have shown out of trump), and per card type above it in its suit an opponent may hold
    (``W_BEATERS``). With ``P_INFER`` "may hold" is :func:`may_hold`'s: a master is a card no
    card an opponent may hold beats, and the void features need the void seat able to trump."""
    trump_block = np.int64(SUIT_MASK) << (6 * trump)
    k = knobs[seat]
    # what depends on the suit only (suit_score), from what every suit shares, worked out once
    partner = seat ^ 2
    opp_a = (seat + 1) & 3
    opp_b = (seat + 3) & 3
    void_a = (voids >> (4 * opp_a)) & 0xF
    void_b = (voids >> (4 * opp_b)) & 0xF
    void_p = (voids >> (4 * partner)) & 0xF
    if k[P_INFER] != 0:  # who may hold what (may_hold)
        may_a = may_hold(voids, opp_a, unseen)
        may_b = may_hold(voids, opp_b, unseen)
        threats = may_a | may_b
        drawn = (threats & trump_block) == 0
        opp_shown = (either((may_a & trump_block) != 0, void_a, np.int64(0))
                     | either((may_b & trump_block) != 0, void_b, np.int64(0)))
        partner_shown = either((may_hold(voids, partner, unseen) & trump_block) != 0, void_p,
                               np.int64(0))
    else:
        threats = unseen
        trumps_unseen = (unseen & trump_block) != 0
        drawn = (not trumps_unseen) | (bit_of(voids, 4 * opp_a + trump)
                                       & bit_of(voids, 4 * opp_b + trump))
        opp_shown = either(trumps_unseen, void_a | void_b, np.int64(0))
        partner_shown = either(bit_of(voids, 4 * partner + trump), np.int64(0), void_p)
    trump_part = (either((seat & 1) == (bidder & 1), k[W_TRUMP_BID], k[W_TRUMP_DEF])
                  + either(2 * trick_index < n_tricks, k[W_TRUMP_EARLY], np.int64(0))
                  + either(drawn, k[W_TRUMP_DRAWN], np.int64(0)))
    b0 = suit_score(0, h0, h1, h2, h3, unseen, trump, trump_part, opp_shown, partner_shown, k)
    b1 = suit_score(1, h0, h1, h2, h3, unseen, trump, trump_part, opp_shown, partner_shown, k)
    b2 = suit_score(2, h0, h1, h2, h3, unseen, trump, trump_part, opp_shown, partner_shown, k)
    b3 = suit_score(3, h0, h1, h2, h3, unseen, trump, trump_part, opp_shown, partner_shown, k)
    beaten = dominated(threats)
    w_master = k[W_MASTER]
    w_master_trump = k[W_MASTER_TRUMP]
    w_counter = k[W_COUNTER]
    w_rank = k[W_RANK]
    w_copies = k[W_COPIES]
    w_beaters = k[W_BEATERS]
    g1 = np.int64(h1)
    g2 = np.int64(h2)
    g3 = np.int64(h3)
    best = -1
    best_score = np.int64(-(1 << 40))
    m = legal
    while m != 0:
        c = lowest_bit(m)
        m &= m - 1
        suit = c // 6
        score = either(suit < 2, either(suit == 0, b0, b1), either(suit == 2, b2, b3))
        master = either(bit_of(trump_block, c), w_master_trump, w_master)
        score += either(bit_of(beaten, c), np.int64(0), master)
        score += either(bit_of(counters, c), w_counter, np.int64(0))
        copies = ((g1 >> c) & 1) + ((g2 >> c) & 1) + ((g3 >> c) & 1)
        score += w_rank * (c - 6 * suit) + w_copies * copies
        score += w_beaters * popcount(threats & above(c) & (np.int64(SUIT_MASK) << (6 * suit)))
        better = score > best_score
        best = either(better, c, best)
        best_score = either(better, score, best_score)
    return best


@njit(inline="always")
def suit_score(suit, h0, h1, h2, h3, unseen, trump, trump_part, opp_shown, partner_shown, k):
    """The part of :func:`scored_lead`'s score that a card owes to its suit ``suit``, without a
    branch. ``k``: the seat's knob row; ``trump_part``: the trump's features that do not depend
    on its cards (``W_TRUMP_BID`` or ``W_TRUMP_DEF``, ``W_TRUMP_EARLY``, ``W_TRUMP_DRAWN``);
    ``opp_shown`` / ``partner_shown``: the suits (four bits) that earn ``W_VOID_OPP`` /
    ``W_VOID_PARTNER``."""
    block = np.int64(SUIT_MASK) << (6 * suit)
    length = suit_count(h0, h1, h2, h3, block)
    out = popcount(unseen & block)
    side = (either(bit_of(opp_shown, suit), k[W_VOID_OPP], np.int64(0))
            + either(bit_of(partner_shown, suit), k[W_VOID_PARTNER], np.int64(0))
            + either(length == 1, k[W_SINGLETON], np.int64(0)))
    trump_score = trump_part + k[W_TRUMP_OUT] * out + k[W_TRUMP_LEN] * length
    return k[W_LEN] * length + k[W_OUT] * out + either(suit == trump, trump_score, side)


@njit(inline="always")
def heuristic_follow(legal, unseen, voids, seat, position, led, win_card, win_seat, wins, trump,
                     counters, knobs, plain):
    """Rules F1-F3 of :func:`heuristic_card` (``position`` 1..3), without a branch. ``wins``: the
    cards that would take the trick from ``win_card`` (its suit's higher cards, and every trump
    when it is no trump: ``legal & wins`` are the cards that beat it). Each rule plays the
    cheapest card of a set (F1's smear, the cheapest non-trump counter, is that set's cheapest
    card), so selects pick the set and one :func:`~binokel_sim.kernels.bits.cheapest_card` plays.
    The seat's knobs (``P_SMEAR_LOSERS``, ``P_RUFF_LOW``, ``P_SMEAR_TRUMP``) move F1's and F2's
    sets; with ``P_INFER`` "safe" asks what the next seat may hold (:func:`may_hold`)."""
    trump_block = np.int64(SUIT_MASK) << (6 * trump)
    trumps_unseen = (unseen & trump_block) != 0
    last = position == 3
    beat = legal & wins
    beaten = dominated(unseen)  # the card types an unseen card of their suit beats
    # The only opponent still to play is the next seat (at position 1 the partner plays last).
    # May he trump a side-suit card? Shown out of the led suit, not shown out of trump. With
    # P_INFER: whether a card he may hold (may_hold) beats ours, and whether he may hold trumps
    # but no card of the led suit.
    next_seat = (seat + 1) & 3
    infer = knob(knobs, seat, P_INFER, plain) != 0
    next_may = may_hold(voids, next_seat, unseen)
    next_may_ruff = either(infer,
                           ((next_may & (np.int64(SUIT_MASK) << (6 * led))) == 0)
                           & ((next_may & trump_block) != 0),
                           trumps_unseen & bit_of(voids, 4 * next_seat + led)
                           & (not bit_of(voids, 4 * next_seat + trump)))
    threatened = either(infer, dominated(next_may), beaten)  # what he may beat
    # F1: partner holds the trick safely: smear a side counter, else the cheapest card (with
    # P_SMEAR_LOSERS: a counter an unseen card beats first, keeping the masters; with
    # P_SMEAR_TRUMP and no side counter: a trump counter an unseen trump beats)
    win_is_trump = bit_of(trump_block, win_card)
    safe = last | ((not bit_of(threatened, win_card)) & (win_is_trump | (not next_may_ruff)))
    smear = legal & counters & ~trump_block
    trump_losers = legal & counters & trump_block & beaten
    smear = either((knob(knobs, seat, P_SMEAR_TRUMP, plain) != 0) & (smear == 0), trump_losers,
                   smear)
    losers = smear & beaten
    smear = either((knob(knobs, seat, P_SMEAR_LOSERS, plain) != 0) & (losers != 0), losers,
                   smear)
    f1 = (win_seat == (seat ^ 2)) & safe
    # F2: beat it, last cheaply, else only with a safe master (with P_RUFF_LOW: any trump on a
    # side suit the next seat has not shown out of)
    low_ruff = either((knob(knobs, seat, P_RUFF_LOW, plain) != 0) & (led != trump)
                      & (not next_may_ruff),
                      beat & trump_block, np.int64(0))
    safe_beat = ((beat & ~threatened) | low_ruff) & either(next_may_ruff, trump_block,
                                                             np.int64(-1))
    f2 = either(last, beat, either(safe_beat != 0, safe_beat, legal))
    # F3: the cheapest legal card
    chosen = either(f1, either(smear != 0, smear, legal), either(beat != 0, f2, legal))
    return cheapest_card(chosen, trump_block, counters)
