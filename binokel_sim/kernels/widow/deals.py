"""The widow games (three-hand-auction-48, four-hand-widow-48): deal, auction, the soloist's
widow, demand, burying and trump, every seat's meld, strict play and the deal's score; and the
exact widow analysis of one hand. Contract: SPEC.md "Variant three-hand-auction-48" and
"four-hand-widow-48"; the decisions it leaves open are in docs/rules.md, "Widow games".

The variant arrives as one :class:`WidowTable` (:func:`binokel_sim.engines.widow.family_tables`):

- ``cfg`` int64 (N_CFG,): the ``CFG_*`` numbers below;
- ``ladder`` int64 (rungs, 2): the bidding ladder;
- ``card_points`` int64 (24,);
- ``completions`` int64 (24, k): per card type, the other cards of each meld set it completes
  (-1 padded; :func:`binokel_sim.engines.widow.completions`);
- ``prefer`` int64 (3, 4, 24): the orders for parting with cards: the card given back, the
  heuristic's burial and the expert's with its knob ``bury_aces_last``
  (:func:`binokel_sim.engines.widow.preferences`);
- ``show_rows``: the meld sets a player shows (the sampling policy's knowledge);
- ``value`` int64 (8,): the soloist's estimate after the Dabb, :func:`binokel_sim.widow_value.
  weights` (Abgehen);
- ``bid_w`` int64 (7,) and ``bid_limits`` int64 (k,): a bidding seat's estimate before the Dabb
  and the highest bid per estimate (:func:`binokel_sim.widow_value.bid_weights`,
  :func:`~binokel_sim.widow_value.bid_table`);
- ``thresholds`` int64 (k,): per estimate after the Dabb, the bid from which the soloist gives
  up (:func:`binokel_sim.widow_value.concede_table`);
- ``kt``: the meld kernels' tables (:mod:`binokel_sim.kernels.melds`).

A run's other bundles: :class:`~binokel_sim.kernels.runs.Run` (which items of which streams),
:class:`WidowGame` (the contest and the sampling policy's numbers) and :class:`WidowOuts` (the
drivers' output arrays; ``binokel_sim.engines.widow.outputs`` fills those a run does not write).

After the Dabb a heuristic or sampling soloist may declare Durch or Bettel (where the rules
have them: :mod:`binokel_sim.kernels.widow.declare`) or give up (Abgehen).

Sides: with partnerships a seat's side is ``seat % 2``, else the seat itself. Decisions are made
by each seat's policy (ids of :mod:`binokel_sim.kernels.policies`); the random policy reads one
bounded draw per decision with at least two options, in the order of docs/rules.md ("The random
stream of a deal").
"""

from collections import namedtuple

import numpy as np

from binokel_sim.constants import BETTEL_BID, CARDS_PER_TRUMP, DURCH_STEPS, NO_TRUMP
from binokel_sim.kernels.auction import NO_BID, behind_partner, next_bid
from binokel_sim.kernels.bits import (
    ACES,
    ALL_TYPES,
    SUIT_MASK,
    TENS,
    count_in,
    kth_bit,
    lowest_bit,
    popcount,
)
from binokel_sim.kernels.deal import add_card, block_start, deal_sum
from binokel_sim.kernels.melds import score_hand
from binokel_sim.kernels.modes import (
    MODE_DUEL,
    MODE_MATCH,
    MODE_PLAY,
    MODE_PLAYOUT,
    MODE_SAMPLE,
)
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.play import game_over, give_card, remove_card, suit_block
from binokel_sim.kernels.policies import (
    N_TUNE,
    POLICY_BOTTOM,
    POLICY_HEURISTIC,
    POLICY_RANDOM,
    POLICY_SAMPLING,
    POLICY_TOP,
    random_pick,
    tune_row,
)
from binokel_sim.kernels.random import below_scalar
from binokel_sim.kernels.sampler import constrained_deal, count_ways
from binokel_sim.kernels.strict.sampling import strict_knowledge
from binokel_sim.kernels.strict.tricks import (
    StrictTable,
    TrickRecord,
    counter_cards,
    play_strict,
)
from binokel_sim.kernels.widow.declare import (
    DurchScratch,
    bettel_steps,
    concede_trump,
    durch_playouts,
    durch_steps,
    sure_bettel,
    type_count,
)
from binokel_sim.kernels.widow.knobs import W_BID, W_BURY, W_DURCH, W_OPEN, W_PARTNER, W_VOID
from binokel_sim.kernels.widow.knowledge import (
    DealScoring,
    WidowTeam,
    widow_knowledge_start,
    widow_part,
)
from binokel_sim.kernels.widow.score import (
    concede_payout,
    score_bettel,
    score_conceded,
    score_durch,
    score_sides,
    side_of,
)
from binokel_sim.widow_value import NEVER, SCALE

CFG_PLAYERS, CFG_HAND, CFG_WIDOW, CFG_LAST_TRICK, CFG_PAIRS, CFG_COPIES, CFG_DECK = range(7)
# CFG_DEMAND: 1 when the soloist may demand a card ([widow] demand); CFG_LEADER: who leads the
# first trick, 0 the soloist, 1 the player left of the dealer (play.first_leader "non_dealer")
CFG_DEMAND, CFG_LEADER = 7, 8
# CFG_CONCEDE: 1 when the soloist may give up before the first lead ([widow] concede, Abgehen);
# CFG_CONCEDE_BONUS: what each opposing side then adds to its meld ([widow] concede_bonus)
CFG_CONCEDE, CFG_CONCEDE_BONUS = 9, 10
# CFG_TABLE_LOW: the estimate of the first row of the bid limits (WidowTable.bid_limits) and of
# the concede thresholds (WidowTable.thresholds) (widow_value.estimate_range)
CFG_TABLE_LOW = 11
CFG_DURCH = 12  # 1 when the soloist may declare Durch ([widow] durch)
CFG_SWEEP = 13  # what a side taking every trick adds ([widow] all_tricks_bonus)
CFG_BETTEL = 14  # 1 when the soloist may declare Bettel ([widow] bettel)
CFG_HALF_BID = 15  # 1 when a concession pays half the bid ([widow] concede_payout = "half_bid")
CFG_ROUND_TO = 16  # a side's card points rounded to a multiple of this, half up ([points] round_to)
CFG_VORHAND_OPENS = 17  # 1 when Vorhand may not pass at his first call ([bidding] all_pass)
CFG_DURCH_SCORE = 18  # what a Durch scores made, minus it failed (1500 open: [widow] durch_open)
CFG_REDEAL = 19  # 1 when a deal nobody bid on is void ([bidding] all_pass = "redeal")
CFG_SKAT = 20  # 1 when the calls go Skat-style ([bidding] order = "skat"; skat_auction)
CFG_TUNE = 21  # the card play's knobs: the heuristic's row, then the expert's (tune_row)
N_CFG = CFG_TUNE + 2 * N_TUNE
# info columns of a played deal
I_SOLOIST, I_BID, I_CALLS, I_TRUMP, I_DEMAND, I_FROM, I_GIVEN, I_BONUS, I_MADE = range(9)
I_CONCEDED = 9
I_DURCH = 10  # the soloist declared Durch (I_TRUMP is then -1: no trump)
I_BETTEL = 11  # the soloist declared Bettel (I_TRUMP is then -1)
# nobody bid and the rules void such a deal (all_pass = "redeal"): it is played as the dealer's at
# the minimum, as without the option, and then scores nothing (its record shows no contract)
I_REDEALT = 12
N_INFO = 13

WidowTable = namedtuple("WidowTable", ["cfg", "ladder", "card_points", "completions", "prefer",
                                       "show_rows", "value", "bid_w", "bid_limits", "thresholds",
                                       "kt"])
"""The variant's tables (the module docstring lists the fields)."""

WidowGame = namedtuple("WidowGame", ["n_sides", "policy_a", "policy_b", "target", "max_deals",
                                     "infer", "n_samples", "max_calls"])
"""A run's contest and the sampling policy's numbers, int64 each: the ``n_sides`` sides, A's and
B's policies ``policy_a`` / ``policy_b``, a game's ``target`` and most deals ``max_deals`` (the
first five for duels and games, 0 elsewhere); ``infer`` what the sampling policy's deals respect
(:data:`~binokel_sim.kernels.knowledge.INFERENCE`), ``n_samples`` its deals per card decision;
``max_calls`` the room for the calls of an unrecorded auction."""

GivenAuction = namedtuple("GivenAuction", ["on", "seats", "values", "max_draws"])
"""The calls so far a bid-odds sample repeats (``bid-odds --auction``): ``on`` int64 (0: no
auction, every sample is one deal), ``seats`` and ``values`` int64 (k,) the calls in order (seats
counted from the hand's seat 0, a pass ``NO_BID``), ``max_draws`` the deals tried for one sample
(:func:`fits_auction`)."""

WidowOuts = namedtuple("WidowOuts", [
    "hands", "widow", "info", "bid_seats", "bid_values", "buried", "melds", "card_points",
    "scores", "trick_cards", "trick_leaders", "trick_winners", "diff", "games", "samples"])
"""The drivers' output arrays, item-major (n items; P seats, W widow cards, H tricks): a
recorded deal's ``hands`` uint32 (n, P, 4) and ``widow`` int64 (n, W) as dealt, ``info`` int64
(n, N_INFO) (the ``I_*`` columns), the calls ``bid_seats`` / ``bid_values`` (n, calls),
``buried`` (n, W), ``melds``, ``card_points`` and ``scores`` (n, P) (a play-out's scores too),
the tricks ``trick_cards`` (n, H, P), ``trick_leaders`` and ``trick_winners`` (n, H); a duel's
``diff`` float64 (n,); a game's ``games`` int64 (n, 4); a sample's ``samples`` int64 (n, 9). A
run writes its mode's; the others are placeholders (``binokel_sim.engines.widow.outputs``)."""

AuctionScratch = namedtuple("AuctionScratch", ["totals", "limits", "active", "bid_totals"])
"""The auction's scratch: ``totals`` int64 (4,) a hand's meld per trump, ``limits`` int64 (P,)
and ``active`` bool (P,), ``bid_totals`` int64 (P, 4): each seat's meld per trump as its bid limit
scored it."""


@njit(inline="always")
def best_meld(p0, p1, p2, p3, kt, totals):
    """The hand's best meld over the four trumps (``totals`` int64 (4,) scratch: per trump)."""
    score_hand(p0, p1, p2, p3, kt, totals)
    return max(max(totals[0], totals[1]), max(totals[2], totals[3]))


@njit(inline="always")
def hand_points(p0, p1, p2, p3, card_points):
    """The card points of the hand with planes ``p0..p3``."""
    out = np.int64(0)
    for t in range(24):
        copies = (((np.int64(p0) >> t) & 1) + ((np.int64(p1) >> t) & 1)
                  + ((np.int64(p2) >> t) & 1) + ((np.int64(p3) >> t) & 1))
        out += copies * card_points[t]
    return out


@njit(inline="always")
def table_row(table, low, estimate):
    """The row of a per-estimate table (``widow_value.bid_table``, ``concede_table``) whose
    first row is the estimate ``low``: the estimate clamped to the table."""
    return table[min(max(estimate - low, 0), table.shape[0] - 1)]


@njit(inline="always")
def bid_limit(p0, p1, p2, p3, kt, totals, card_points, bid_w, bid_low, bid_limits, shift):
    """The heuristic's highest bid (docs/rules.md, "Policies"; :mod:`binokel_sim.widow_value`):
    the hand's estimate before the Dabb (``bid_w``, the integer weights of
    ``widow_value.bid_weights``) plus ``shift`` (the expert's knob ``bid_shift``, else 0) looked
    up in ``bid_limits`` (``widow_value.bid_table``, the estimate ``bid_low`` first, clamped).
    Leaves the hand's meld per trump in ``totals``."""
    score_hand(p0, p1, p2, p3, kt, totals)
    trump = 0
    best = np.int64(-1)
    for s in range(4):
        value = totals[s] + CARDS_PER_TRUMP * count_in(p0, p1, p2, p3, suit_block(s))
        if value > best:
            best = value
            trump = s
    block = suit_block(trump)
    total = (bid_w[0] + bid_w[1] * max(max(totals[0], totals[1]), max(totals[2], totals[3]))
             + bid_w[2] * count_in(p0, p1, p2, p3, block)
             + bid_w[3] * count_in(p0, p1, p2, p3, ACES)
             + bid_w[4] * count_in(p0, p1, p2, p3, TENS)
             + bid_w[5] * hand_points(p0, p1, p2, p3, card_points)
             + bid_w[6] * count_in(p0, p1, p2, p3, block & (ACES | TENS)))
    return table_row(bid_limits, bid_low, total // SCALE + shift)


@njit(inline="always")
def concede_from(p0, p1, p2, p3, trump, meld, buried_points, card_points, value, low,
                 thresholds):
    """The smallest bid at which the soloist with planes ``p0..p3`` (after burying), ``trump``,
    his ``meld`` and ``buried_points`` gives up (:mod:`binokel_sim.widow_value`): his
    :func:`dabb_estimate` looked up in ``thresholds`` (``widow_value.concede_table``, the
    estimate ``low`` first, clamped)."""
    return table_row(thresholds, low, dabb_estimate(p0, p1, p2, p3, trump, meld, buried_points,
                                                    card_points, value))


@njit(inline="always")
def dabb_estimate(p0, p1, p2, p3, trump, meld, buried_points, card_points, value):
    """The soloist's estimate of his side's total after the Dabb in whole points (floored), his
    planes ``p0..p3`` after burying, ``trump``, his ``meld`` and ``buried_points``
    (:func:`binokel_sim.widow_value.estimate`, whose ``weights`` are ``value``)."""
    block = suit_block(trump)
    voids = 0
    for s in range(4):
        if s != trump and (np.int64(p0) & suit_block(s)) == 0:
            voids += 1
    total = (meld * SCALE + value[0] + value[1] * count_in(p0, p1, p2, p3, block)
             + value[2] * count_in(p0, p1, p2, p3, ACES) + value[3] * count_in(p0, p1, p2, p3, TENS)
             + value[4] * hand_points(p0, p1, p2, p3, card_points) + value[5] * buried_points
             + value[6] * count_in(p0, p1, p2, p3, block & (ACES | TENS)) + value[7] * voids)
    return total // SCALE


@njit(inline="always")
def holds_back(seat, offer, limit, first, holder, active, pairs, open_margin, partner_margin,
               meld):
    """Whether a seat passes although ``offer`` is within its ``limit`` (docs/rules.md "Widow
    games", "Policies", *Bidding*): at its ``first`` call ("weg") when its limit plus its best
    ``meld`` before the Dabb falls short of the offer plus ``open_margin`` (0: never); with
    ``pairs`` and ``partner_margin`` > 0, when its partner is the ``holder`` of the standing bid
    and either no opponent is still in (``active``) or its limit is less than
    ``partner_margin`` points above the offer."""
    if first and limit + meld < offer + open_margin:
        return True
    return pairs and behind_partner(seat, offer, limit, holder, active, partner_margin)


@njit(inline="always")
def seat_limits(hands, policies, table, scratch, first):
    """Every seat active, and the bid limit (:func:`bid_limit`, the expert's read with its knob
    ``bid_shift``) of each seat from ``first`` on that bids by one (not random) into
    ``scratch.limits`` (0 for the others), its hand's meld per trump into
    ``scratch.bid_totals``. ``scratch``: :class:`AuctionScratch`."""
    cfg, totals = table.cfg, scratch.totals
    for seat in range(hands.shape[0]):
        scratch.limits[seat] = 0
        scratch.active[seat] = True
        if seat >= first and policies[seat] != POLICY_RANDOM:
            scratch.limits[seat] = bid_limit(
                hands[seat, 0], hands[seat, 1], hands[seat, 2], hands[seat, 3], table.kt, totals,
                table.card_points, table.bid_w, cfg[CFG_TABLE_LOW], table.bid_limits,
                cfg[tune_row(policies[seat], CFG_TUNE) + W_BID])
            for s in range(4):
                scratch.bid_totals[seat, s] = totals[s]


@njit(inline="always")
def willing(seat, policy, offer, first, holder, table, scratch):
    """Whether a seat bidding by its limit (:func:`seat_limits`) bids ``offer``: within its limit
    and not held back (:func:`holds_back`, with its ``policy``'s knobs ``bid_open`` and
    ``bid_partner``; ``first``: its first call; ``holder``: who holds the standing bid)."""
    cfg, limit, totals = table.cfg, scratch.limits[seat], scratch.bid_totals
    knobs = tune_row(policy, CFG_TUNE)
    return offer <= limit and not holds_back(
        seat, offer, limit, first, holder, scratch.active, cfg[CFG_PAIRS] != 0,
        cfg[knobs + W_OPEN], cfg[knobs + W_PARTNER],
        max(max(totals[seat, 0], totals[seat, 1]), max(totals[seat, 2], totals[seat, 3])))


@njit(inline="always")
def auction_start(hands, policies, smart, table, scratch):
    """Every seat in the auction, with its bid limit (:func:`seat_limits`), or none when every
    seat is random (``smart`` None: numba then compiles no bid_limit)."""
    if smart is None:
        for seat in range(hands.shape[0]):
            scratch.limits[seat] = 0
            scratch.active[seat] = True
    else:
        seat_limits(hands, policies, table, scratch, 0)


@njit(inline="always")
def auction_call(seat, policies, offer, holder, forced, smart, table, scratch, calls, row,
                 n_calls, stream):
    """One call of ``seat`` at ``offer`` in :func:`skat_auction`, written as call ``n_calls``
    of row ``row`` of ``calls`` ``(bid_seats, bid_values)``: ``(True when it bids or holds
    ``offer``, s0..s3)``. A random seat draws one of 2, any other asks :func:`willing` (its
    first call: none of it among the calls so far); ``forced`` makes a pass the offer (the
    draw or the question still made)."""
    s0, s1, s2, s3 = stream
    bid_seats, bid_values = calls
    if smart is None or policies[seat] == POLICY_RANDOM:
        k, s0, s1, s2, s3 = below_scalar(2, s0, s1, s2, s3)
        yes = k == 1
    else:
        first = True
        for j in range(n_calls):
            first &= bid_seats[row, j] != seat
        yes = willing(seat, policies[seat], offer, first, holder, table, scratch)
    yes |= forced
    bid_seats[row, n_calls] = seat
    bid_values[row, n_calls] = offer if yes else NO_BID
    return yes, s0, s1, s2, s3


@njit
def skat_auction(hands, dealer, policies, smart, table, scratch, calls, row, stream):
    """The auction under ``[bidding] order = "skat"`` (docs/rules.md "Widow games", "The
    auction"), as :func:`run_auction` returns it: Vorhand (the dealer's left) listens; each
    other seat in turn, the dealer last, says bids to the one still listening, who holds each
    (a call of the same value) or passes, and the survivor listens to the next; a seat that
    passes is out. When nobody said a bid, Vorhand calls last: the minimum or pass (never a
    pass under ``all_pass = "vorhand_opens"``)."""
    s0, s1, s2, s3 = stream
    ladder, cfg, active = table.ladder, table.cfg, scratch.active
    n_players = hands.shape[0]
    auction_start(hands, policies, smart, table, scratch)
    current = NO_BID
    holder = -1
    n_calls = 0
    vorhand = dealer + 1 if dealer + 1 < n_players else 0
    hearer = vorhand
    for i in range(1, n_players):
        sayer = vorhand + i if vorhand + i < n_players else vorhand + i - n_players
        while True:
            offer = next_bid(ladder, current)
            says, s0, s1, s2, s3 = auction_call(sayer, policies, offer, holder, False, smart,
                                                table, scratch, calls, row, n_calls,
                                                (s0, s1, s2, s3))
            n_calls += 1
            if not says:
                active[sayer] = False
                break
            current = offer
            holder = sayer
            holds, s0, s1, s2, s3 = auction_call(hearer, policies, offer, holder, False, smart,
                                                 table, scratch, calls, row, n_calls,
                                                 (s0, s1, s2, s3))
            n_calls += 1
            if not holds:
                active[hearer] = False
                hearer = sayer
                break
            holder = hearer
    if holder < 0:  # nobody said a bid: Vorhand, still listening, calls the minimum or passes
        offer = ladder[0, 0]
        opens, s0, s1, s2, s3 = auction_call(hearer, policies, offer, -1,
                                             cfg[CFG_VORHAND_OPENS] != 0, smart, table, scratch,
                                             calls, row, n_calls, (s0, s1, s2, s3))
        n_calls += 1
        if not opens:
            return -1, offer, n_calls, s0, s1, s2, s3
        return hearer, offer, n_calls, s0, s1, s2, s3
    return holder, current, n_calls, s0, s1, s2, s3


@njit  # called, not inlined: the deal loop calls it twice
def run_auction(hands, dealer, policies, smart, table, scratch, calls, row, stream):
    """The auction (docs/rules.md, "The auction"): returns ``(soloist, bid, n_calls, s0..s3)``,
    the soloist -1 when nobody bid (the caller seats the dealer at the minimum, and voids the
    deal where the rules redeal), and writes the calls to row ``row`` of ``calls``, ``(bid_seats, bid_values)`` (a pass is
    ``NO_BID``). A heuristic seat bids the smallest bid above the current one while it is
    within its :func:`bid_limit` (its hand's meld per trump is kept in
    ``scratch.bid_totals[seat]``); a random seat passes or bids that smallest bid with
    probability 1/2 each, reading ``stream`` ``(s0, s1, s2, s3)``; an expert seat reads its
    limit with its knob ``bid_shift`` and also calls as :func:`holds_back` says with its knobs
    ``bid_open`` and ``bid_partner`` (``table.cfg``: the variant's numbers, the knob rows
    among them). ``scratch``: :class:`AuctionScratch`. Under ``order = "skat"``:
    :func:`skat_auction`."""
    if table.cfg[CFG_SKAT] != 0:
        return skat_auction(hands, dealer, policies, smart, table, scratch, calls, row, stream)
    s0, s1, s2, s3 = stream
    bid_seats, bid_values = calls
    ladder, cfg, active = table.ladder, table.cfg, scratch.active
    n_players = hands.shape[0]
    auction_start(hands, policies, smart, table, scratch)
    n_active = n_players
    current = NO_BID
    holder = -1
    seat = dealer + 1 if dealer + 1 < n_players else 0
    n_calls = 0
    while n_active > 1:
        if active[seat]:
            offer = next_bid(ladder, current)
            if smart is None or policies[seat] == POLICY_RANDOM:
                k, s0, s1, s2, s3 = below_scalar(2, s0, s1, s2, s3)
                call = offer if k == 1 else NO_BID
            else:
                call = offer if willing(seat, policies[seat], offer, n_calls < n_players, holder,
                                        table, scratch) else NO_BID
            if call == NO_BID and n_calls == 0 and cfg[CFG_VORHAND_OPENS] != 0:
                call = offer  # Vorhand opens at the minimum (all_pass = "vorhand_opens")
            if call == NO_BID:
                active[seat] = False
                n_active -= 1
            else:
                current = call
                holder = seat
            bid_seats[row, n_calls] = seat
            bid_values[row, n_calls] = call
            n_calls += 1
        seat = seat + 1 if seat + 1 < n_players else 0
    if holder < 0:
        return -1, ladder[0, 0], n_calls, s0, s1, s2, s3
    return holder, current, n_calls, s0, s1, s2, s3


@njit
def widow_auction(hands, dealer, seat_policies, table, bid_seats, bid_values, stream):
    """The auction of :func:`run_auction` on its own (for tests): returns ``(soloist, bid,
    n_calls, s0..s3)`` and writes the calls to ``bid_seats`` / ``bid_values``."""
    n_players = hands.shape[0]
    scratch = AuctionScratch(np.empty(4, dtype=np.int64), np.empty(n_players, dtype=np.int64),
                             np.empty(n_players, dtype=np.bool_),
                             np.empty((n_players, 4), dtype=np.int64))
    soloist, bid, n_calls, s0, s1, s2, s3 = run_auction(
        hands, dealer, seat_policies, np.int64(1), table, scratch,
        (bid_seats.reshape((1, bid_seats.shape[0])),
         bid_values.reshape((1, bid_values.shape[0]))), np.int64(0), stream)
    return (dealer if soloist < 0 else soloist), bid, n_calls, s0, s1, s2, s3


@njit
def fits_auction(hands, policies, table, scratch, given):
    """Whether the other seats' hands ``hands[1..]`` would have made their calls of ``given``
    (:class:`GivenAuction`) under their ``policies``, as :func:`run_auction` makes them: at each
    call, a seat with a bid limit passes where the offer is above its limit or
    :func:`holds_back` holds it back, and bids the offer otherwise (a jump above the offer reads
    as willing at the offer and a limit at least the jump; Vorhand's opening at the minimum
    under ``all_pass = "vorhand_opens"`` tells nothing). Under ``order = "skat"`` a call right
    after a bid said is the listener's answer: a hold (the same value) where the seat is
    willing at that value, else a pass; a seat's first call is its first in the auction.
    Seat 0's calls are the hand's own, and a random seat's calls say nothing of its hand:
    neither is checked. ``scratch``: :class:`AuctionScratch`."""
    cfg, ladder, limits, active = table.cfg, table.ladder, scratch.limits, scratch.active
    n_players = hands.shape[0]
    seat_limits(hands, policies, table, scratch, 1)  # seat 0's calls are the hand's own
    current = NO_BID
    holder = -1
    skat = cfg[CFG_SKAT] != 0
    # Skat-style: Vorhand listens first (the seat before the first sayer); a call right after a
    # bid said is the listener's hold (the same value) or pass
    n_given = given.seats.shape[0]
    vorhand = n_players - 1 if n_given == 0 or given.seats[0] == 0 else given.seats[0] - 1
    holding = False
    for k in range(n_given):
        seat = given.seats[k]
        value = given.values[k]
        if seat > 0 and policies[seat] != POLICY_RANDOM:
            offer = current if holding else next_bid(ladder, current)
            first = k < n_players
            if skat:
                first = True
                for j in range(k):
                    first &= given.seats[j] != seat
            bids = willing(seat, policies[seat], offer, first, holder, table, scratch)
            opens = seat == vorhand if skat else k == 0  # Vorhand's first call
            forced = (opens and current == NO_BID and cfg[CFG_VORHAND_OPENS] != 0
                      and value == offer)
            if value == NO_BID:
                if bids:
                    return False
            elif not forced and not (bids and limits[seat] >= value):
                return False
        if value == NO_BID:
            active[seat] = False
        else:
            current = value
            holder = seat
        holding = skat and not holding and value != NO_BID
    return True


@njit(inline="always")
def meld_without(h0, h1, h2, h3, t, kt, totals, trump):
    """The meld of the hand with planes ``h0..h3`` with one copy of ``t`` taken out: with
    ``trump``, or the best over the suits when ``trump < 0`` (thermometer removal: plane k takes
    plane k+1's bit); ``totals`` holds every trump's."""
    bit = np.int64(1) << t
    keep = ~bit
    q0 = np.int64(h0)
    q1 = np.int64(h1)
    q2 = np.int64(h2)
    q3 = np.int64(h3)
    score_hand(np.uint32((q0 & keep) | (q1 & bit)), np.uint32((q1 & keep) | (q2 & bit)),
               np.uint32((q2 & keep) | (q3 & bit)), np.uint32(q3 & keep), kt, totals)
    if trump >= 0:
        return totals[trump]
    return max(max(totals[0], totals[1]), max(totals[2], totals[3]))


@njit(inline="always")
def void_order(h0, h1, h2, h3, trump, limit, order, out):
    """The expert's burial order with its knob ``bury_void`` (``limit`` > 0) into ``out``
    int64 (24,): first the ten, king, queen, jack and nine of each side suit of at most ``limit``
    cards he holds, a suit without a held ace before one with, then the fewest cards, then the
    lower suit; then ``order`` (his ``bury_aces_last`` order) without those."""
    keys = np.empty(4, dtype=np.int64)
    for s in range(4):
        n = count_in(h0, h1, h2, h3, np.int64(SUIT_MASK) << (6 * s))
        ace = (np.int64(h0) >> (6 * s + 5)) & 1
        keys[s] = 1000 + s if s == trump or n == 0 or n > limit else 100 * ace + 4 * n + s
    pos = 0
    listed = np.int64(0)
    for _ in range(4):
        best = 0
        for s in range(1, 4):
            if keys[s] < keys[best]:
                best = s
        if keys[best] >= 1000:
            break
        keys[best] = 2000
        for r in (4, 3, 2, 1, 0):
            out[pos] = best * 6 + r
            listed |= np.int64(1) << (best * 6 + r)
            pos += 1
    for i in range(order.shape[0]):
        if not (listed >> order[i]) & 1:
            out[pos] = order[i]
            pos += 1


@njit(_nrt=False)  # called, not inlined: the deal loop calls it twice
def cheapest_loss(h0, h1, h2, h3, w0, w1, w2, w3, candidates, prefer, kind, trump, kt, totals):
    """The card of ``candidates`` the soloist parts with (docs/rules.md, "Policies"): in the
    order of preference ``prefer[kind, max(trump, 0)]`` (:func:`binokel_sim.engines.widow.
    preferences`), the first whose loss leaves the seat's meld as it is (with ``trump``, or the
    best over the suits when ``trump < 0``); when every card costs meld, the one whose loss
    keeps it highest (the first in preference on a tie). ``w0..w3`` are the hand's meld per
    trump (known already, so the hand is not scored again). Returns ``(card, meld without it,
    that hand's meld per trump)``."""
    whole = w0 if trump == 0 else (w1 if trump == 1 else (w2 if trump == 2 else w3))
    if trump < 0:
        whole = max(max(w0, w1), max(w2, w3))
    best = -1
    best_meld = np.int64(-1)
    b0, b1, b2, b3 = w0, w1, w2, w3
    row = max(trump, 0)
    for i in range(prefer.shape[2]):
        t = prefer[kind, row, i]
        if not (candidates >> t) & 1:
            continue
        meld = meld_without(h0, h1, h2, h3, t, kt, totals, trump)
        if meld > best_meld:
            best = t
            best_meld = meld
            b0, b1, b2, b3 = totals[0], totals[1], totals[2], totals[3]
            if meld >= whole:
                break
    return best, best_meld, b0, b1, b2, b3


@njit
def score_widow(melds, card_pts, won, soloist, bid, cfg, scores):
    """:func:`score_sides` on its own (for tests): writes ``scores`` (int64 (P,)) and returns
    ``(bonus, made, soloist side total)``."""
    return score_sides(melds, card_pts, won, soloist, bid, cfg[CFG_PLAYERS], cfg[CFG_HAND],
                       cfg[CFG_PAIRS] != 0, cfg[CFG_SWEEP], cfg[CFG_ROUND_TO], scores,
                       np.empty((4, 4), dtype=np.int64))


# --- the block driver ----------------------------------------------------------------------------
#
# As the talon engine: one block driver runs the blocks of every widow run (one compile of the
# deal loop per kind of seats instead of one per run), with placeholder arrays (one type per
# field) for the outputs a run does not write (kernels.runs.placeholders,
# binokel_sim.engines.widow.outputs). The deal is written out in the driver itself: a driver
# calling a per-block kernel made numba optimise and generate the whole loop's machine code
# twice per kind of seats (a caller's machine code links its callees' and is built again).


@njit
def widow_blocks(smart, search, mode, deck, table, seat_policies, run, known, calls, game, outs,
                 share):
    """The items of blocks ``share[0] <= b < share[1]`` (one thread's share,
    ``binokel_sim.simulate.spread_blocks``) of the :class:`~binokel_sim.kernels.runs.Run` ``run``
    (block ``b``: items ``b * run.block_size ..`` up to ``run.n_items``, reading stream
    ``run.first_block + b``; item ``d`` is number ``run.first_deal + d``, a sample's
    ``first_deal`` its dealer), writing only their slots of ``outs``: what each driver does per
    item (``mode``: a recorded deal, an unrecorded deal, a bid-odds sample,
    a deal played once per seating, a whole game), with the deal written out here once.
    ``smart`` and ``search`` (None or int64: all seats random (None, None), the heuristic or
    the expert with random seats or not (1, None), a search policy at some seat (1, 1)) decide
    what is compiled: numba prunes every branch that asks ``smart is None`` or ``search is
    None``. ``deck`` the
    deck dealt (a sample's unseen cards), ``table`` the :class:`WidowTable`, ``seat_policies``
    the seats' policies outside duels and games, ``known`` a sample's known hand and what the
    user knows (:func:`~binokel_sim.kernels.sampler.constrained_deal`), ``calls`` the
    :class:`GivenAuction` a sample repeats (dealt again until :func:`fits_auction`; its draws
    in the sample's last column, ``calls.max_draws + 1`` when none fitted), ``game`` the
    :class:`WidowGame`, ``outs`` the :class:`WidowOuts` (the sampling policy's knowledge:
    :mod:`binokel_sim.kernels.widow.knowledge`).

    A deal (docs/rules.md "Widow games"): the shuffle, the auction (no auction in a sample: seat
    0 is the soloist), the soloist's widow, demand, give-back, burying and trump, every seat's
    meld with that trump, strict play, the score. The random stream: the shuffle, then the
    random policy's draws in the order of "The random stream of a deal".

    Written for speed: no array is bound or allocated inside the deal loop, and the heuristic
    scores a hand (``score_hand``) only when the meld it needs is not known already: a seat's
    meld per trump from its bid limit while its hand is unchanged, the soloist's from the
    previous decision (the demand's, the give-back's, the last burial's).
    """
    for b in range(share[0], share[1]):
        cfg, card_points, needs, prefer = (table.cfg, table.card_points, table.completions,
                                            table.prefer)
        kt = table.kt
        estimate = table.value  # the soloist's estimate after the Dabb (Abgehen)
        thresholds = table.thresholds  # per estimate after the Dabb, the bid he gives up from
        n_sides, policy_a, policy_b, target, max_deals = (
            game.n_sides, game.policy_a, game.policy_b, game.target, game.max_deals)
        seed, block, first_deal = run.seed, run.first_block + b, run.first_deal
        start = b * run.block_size
        stop = min(run.n_items, start + run.block_size)
        hands_out, widow_out, info_out = outs.hands, outs.widow, outs.info
        bid_seats, bid_values, buried_out = outs.bid_seats, outs.bid_values, outs.buried
        melds_out, card_pts_out, scores_out = outs.melds, outs.card_points, outs.scores
        trick_cards, trick_leaders, trick_winners = (outs.trick_cards, outs.trick_leaders,
                                                     outs.trick_winners)
        diff_out, games_out, samples_out = outs.diff, outs.games, outs.samples
        n_players = cfg[CFG_PLAYERS]
        hand = cfg[CFG_HAND]
        n_widow = cfg[CFG_WIDOW]
        pairs = cfg[CFG_PAIRS] != 0
        copies = cfg[CFG_COPIES]
        deck_mask = cfg[CFG_DECK]
        # the card types not in the deck (the nines of a 40-card deck) count as played from the
        # start: the heuristic and the sampling policy must not wait for cards that do not exist
        absent = ALL_TYPES & ~deck_mask
        a0 = absent if copies > 0 else np.int64(0)
        a1 = absent if copies > 1 else np.int64(0)
        a2 = absent if copies > 2 else np.int64(0)
        a3 = absent if copies > 3 else np.int64(0)
        record = mode == MODE_PLAY
        sample = mode == MODE_SAMPLE
        counters = counter_cards(card_points)
        state, cards = block_start(deck, seed, block)
        work = cards.astype(np.uint64)  # deal_sum's deck: the state stays in registers all along
        n_work = work.shape[0]
        s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
        hands = np.zeros((n_players, 4), dtype=np.uint32)
        dealt = np.zeros((n_players, 4), dtype=np.uint32)
        widow = np.empty(n_widow, dtype=np.int64)
        totals = np.empty(4, dtype=np.int64)
        limits = np.empty(n_players, dtype=np.int64)
        active = np.empty(n_players, dtype=np.bool_)
        bid_totals = np.zeros((n_players, 4), dtype=np.int64)
        policies = np.empty(n_players, dtype=np.int64)
        play_pol = np.empty(n_players, dtype=np.int64)  # the seats' card play (a Durch's differs)
        durch_scratch = DurchScratch(np.zeros((n_players, 4), dtype=np.uint32),
                                     np.empty(n_work, dtype=np.int64))
        buried = np.empty(n_widow, dtype=np.int64)
        voided = np.empty((3, 4, 24), dtype=np.int64)  # the expert's burial order with bury_void
        melds = np.zeros(n_players, dtype=np.int64)
        card_pts = np.zeros(n_players, dtype=np.int64)
        points = card_pts.reshape((n_players, 1))  # the same card points, as play_strict adds them
        won = np.zeros(n_players, dtype=np.int64)
        scores = np.zeros(n_players, dtype=np.int64)
        sums = np.zeros((4, 4), dtype=np.int64)
        side_totals = np.zeros(max(n_sides, 1), dtype=np.int64)
        calls_seats = np.empty((1, game.max_calls), dtype=np.int64)
        calls_values = np.empty((1, game.max_calls), dtype=np.int64)
        scratch = AuctionScratch(totals, limits, active, bid_totals)
        sampled = np.empty(n_widow, dtype=np.uint64)  # a constrained sample's widow
        st = np.empty(4, dtype=np.uint64)  # and its random state, as the sampler reads it
        split = np.empty((4, 24), dtype=np.int64)
        if mode == MODE_DUEL or mode == MODE_MATCH:
            sampling_seats = policy_a == POLICY_SAMPLING or policy_b == POLICY_SAMPLING
        else:
            sampling_seats = False
            for seat in range(seat_policies.shape[0]):
                sampling_seats |= seat_policies[seat] == POLICY_SAMPLING
        learning = sampling_seats and search is not None
        knows = strict_knowledge(n_players, hand, game.n_samples, game.infer, learning, False,
                                 widow_part(n_players, learning, points, won),  # no race,
                                 False)  # play-outs to the end (the deal's score: docs/rules.md)
        flat = hands.reshape(n_players * 4)  # the hands' planes, seat-major (shown_of's form)
        if mode != MODE_DUEL and mode != MODE_MATCH:
            for seat in range(n_players):
                policies[seat] = seat_policies[seat]
        for d in range(start, stop):
            number = first_deal + d
            deals = 0
            draws = 1
            side_a = 0
            if mode == MODE_MATCH:
                side_a = (number // n_players) % n_sides
                for seat in range(n_players):
                    policies[seat] = policy_a if side_of(seat, pairs) == side_a else policy_b
                side_totals[:] = 0
            play = 0
            total = 0.0
            while True:
                # --- the deal (docs/rules.md "The deal"; a sample: seat 0 holds the known hand) --
                if mode != MODE_DUEL or play == 0:
                    first_seat = 1 if sample else 0
                    if sample:
                        for q in range(4):
                            hands[0, q] = known[0][q]
                    draws = 0
                    while True:  # a sample given the auction: dealt again until it fits
                        if sample and known[1]:
                            # what the user knows (--known, --void): the constrained sampler deals
                            # the other seats and the widow
                            s0, s1, s2, s3 = constrained_deal(known, n_players, s0, s1, s2, s3,
                                                              sampled, st, split, hands, widow)
                        else:
                            _, s0, s1, s2, s3 = deal_sum(work, n_work - 1, s0, s1, s2, s3)
                            pos = 0
                            for seat in range(first_seat, n_players):
                                q0 = q1 = q2 = q3 = np.uint32(0)
                                for j in range(pos, pos + hand):
                                    q0, q1, q2, q3 = add_card(q0, q1, q2, q3, np.int64(work[j]))
                                hands[seat, 0] = q0
                                hands[seat, 1] = q1
                                hands[seat, 2] = q2
                                hands[seat, 3] = q3
                                pos += hand
                            for j in range(n_widow):
                                widow[j] = np.int64(work[pos + j])
                        draws += 1
                        if not sample or calls.on == 0 or smart is None or fits_auction(
                                hands, policies, table, scratch, calls):
                            break
                        if draws >= calls.max_draws:
                            draws = calls.max_draws + 1  # none fitted: the caller refuses
                            break
                    if record:
                        for seat in range(n_players):
                            for q in range(4):
                                hands_out[d, seat, q] = hands[seat, q]
                        for j in range(n_widow):
                            widow_out[d, j] = widow[j]
                    if mode == MODE_DUEL:
                        for seat in range(n_players):
                            for q in range(4):
                                dealt[seat, q] = hands[seat, q]
                if mode == MODE_DUEL:
                    if play > 0:
                        for seat in range(n_players):
                            for q in range(4):
                                hands[seat, q] = dealt[seat, q]
                    for seat in range(n_players):
                        policies[seat] = policy_a if side_of(seat, pairs) == play else policy_b
                if mode == MODE_MATCH:
                    dealer = (number + deals) % n_players
                elif sample:  # a sample's dealer is given: first_deal (seat 0 the soloist)
                    dealer = first_deal
                else:
                    dealer = number % n_players
                # --- the auction -----------------------------------------------------------------
                if sample:
                    soloist, bid, n_calls = 0, 0, 0
                elif record:
                    for j in range(bid_seats.shape[1]):
                        bid_seats[d, j] = -1
                        bid_values[d, j] = NO_BID
                    soloist, bid, n_calls, s0, s1, s2, s3 = run_auction(
                        hands, dealer, policies, smart, table, scratch, (bid_seats, bid_values), d,
                        (s0, s1, s2, s3))
                else:
                    soloist, bid, n_calls, s0, s1, s2, s3 = run_auction(
                        hands, dealer, policies, smart, table, scratch, (calls_seats, calls_values),
                        np.int64(0), (s0, s1, s2, s3))
                # nobody bid: the dealer plays at the minimum; where the rules redeal, the deal is
                # played so and then voided (it scores nothing; I_REDEALT)
                void = soloist < 0 and cfg[CFG_REDEAL] != 0
                if soloist < 0:
                    soloist = dealer
                # --- the widow, the demand, burying and trump ------------------------------------
                for j in range(n_widow):
                    give_card(hands, soloist, widow[j])
                h0, h1, h2, h3 = hands[soloist, 0], hands[soloist, 1], hands[soloist, 2], \
                    hands[soloist, 3]
                # the types he may demand: those of the deck he holds no copy of (none without
                # the demand)
                missing = deck_mask & ~np.int64(h0) if cfg[CFG_DEMAND] != 0 else np.int64(0)
                random_soloist = policies[soloist] == POLICY_RANDOM
                demand = -1
                # the heuristic soloist's meld per trump, once known
                w0 = w1 = w2 = w3 = np.int64(0)
                known_melds = False
                if smart is None or random_soloist:
                    n = 1 + popcount(missing)
                    if n >= 2:
                        k, s0, s1, s2, s3 = below_scalar(n, s0, s1, s2, s3)
                        if k > 0:
                            demand = kth_bit(missing, k - 1)
                elif missing:
                    score_hand(h0, h1, h2, h3, kt, totals)
                    w0, w1, w2, w3 = totals[0], totals[1], totals[2], totals[3]
                    known_melds = True
                    base = max(max(w0, w1), max(w2, w3))
                    todo = missing
                    held = np.int64(h0)
                    while todo:
                        t = lowest_bit(todo)
                        todo &= todo - 1
                        useful = False  # one copy of t raises the meld only by completing a set
                        for j in range(needs.shape[1]):
                            need = needs[t, j]
                            useful |= need >= 0 and (held & need) == need
                        if not useful:
                            continue
                        p0, p1, p2, p3 = add_card(h0, h1, h2, h3, t)
                        score_hand(p0, p1, p2, p3, kt, totals)
                        gain = max(max(totals[0], totals[1]), max(totals[2], totals[3]))
                        if gain > base:
                            base = gain
                            demand = t
                            w0, w1, w2, w3 = totals[0], totals[1], totals[2], totals[3]
                holder = -1
                given = -1
                if demand >= 0:
                    for j in range(1, n_players):
                        seat = soloist + j
                        if seat >= n_players:
                            seat -= n_players
                        if (hands[seat, 0] >> demand) & 1:
                            holder = seat
                            break
                    remove_card(hands, holder, demand)
                    give_card(hands, soloist, demand)
                    choices = np.int64(hands[soloist, 0]) & ~(np.int64(1) << demand)
                    if smart is None or random_soloist:
                        given, s0, s1, s2, s3 = random_pick(choices, s0, s1, s2, s3)
                    else:
                        given, _, w0, w1, w2, w3 = cheapest_loss(
                            hands[soloist, 0], hands[soloist, 1], hands[soloist, 2],
                            hands[soloist, 3], w0, w1, w2, w3, choices, prefer, np.int64(0),
                            np.int64(-1), kt, totals)
                    remove_card(hands, soloist, given)
                    give_card(hands, holder, given)
                trump = np.int64(0)
                # the heuristic names trump, then buries
                if smart is not None and not random_soloist:
                    if not known_melds:  # no demand was possible (every type held, or no demand)
                        score_hand(hands[soloist, 0], hands[soloist, 1], hands[soloist, 2],
                                   hands[soloist, 3], kt, totals)
                        w0, w1, w2, w3 = totals[0], totals[1], totals[2], totals[3]
                    best = np.int64(-1)
                    for s in range(4):
                        value = (w0 if s == 0 else (w1 if s == 1 else (w2 if s == 2 else w3))) + \
                            CARDS_PER_TRUMP * count_in(hands[soloist, 0], hands[soloist, 1],
                                                       hands[soloist, 2], hands[soloist, 3],
                                                       suit_block(s))
                        if value > best:
                            best = value
                            trump = s
                for j in range(n_widow):
                    held = np.int64(hands[soloist, 0])
                    if smart is None or random_soloist:
                        t, s0, s1, s2, s3 = random_pick(held, s0, s1, s2, s3)
                    else:
                        at = tune_row(policies[soloist], CFG_TUNE)
                        kind = 1 + np.int64(cfg[at + W_BURY] != 0)
                        order = prefer
                        if cfg[at + W_VOID] > 0:
                            void_order(hands[soloist, 0], hands[soloist, 1], hands[soloist, 2],
                                       hands[soloist, 3], trump, cfg[at + W_VOID],
                                       prefer[kind, trump], voided[kind, trump])
                            order = voided
                        t, _, w0, w1, w2, w3 = cheapest_loss(
                            hands[soloist, 0], hands[soloist, 1], hands[soloist, 2],
                            hands[soloist, 3], w0, w1, w2, w3, held, order, kind, trump, kt,
                            totals)
                    remove_card(hands, soloist, t)
                    buried[j] = t
                if smart is None or random_soloist:
                    trump, s0, s1, s2, s3 = below_scalar(4, s0, s1, s2, s3)
                # --- every seat's meld with that trump -------------------------------------------
                for seat in range(n_players):
                    if smart is not None and seat == soloist and not random_soloist:
                        melds[seat] = w0 if trump == 0 else (w1 if trump == 1 else (
                            w2 if trump == 2 else w3))
                    elif smart is not None and not sample and seat != soloist and seat != holder \
                            and policies[seat] != POLICY_RANDOM:
                        melds[seat] = bid_totals[seat, trump]  # the hand its bid limit scored
                    else:
                        score_hand(hands[seat, 0], hands[seat, 1], hands[seat, 2], hands[seat, 3],
                                   kt, totals)
                        melds[seat] = totals[trump]
                # --- Abgehen: a heuristic or sampling soloist gives up when his estimate says so --
                buried_points = np.int64(0)
                for j in range(n_widow):
                    buried_points += card_points[buried[j]]
                concede_at = NEVER
                durch = False
                bettel = False
                sure_misere = False  # a sure Bettel (a sample's bettel column)
                if smart is not None and not random_soloist and (cfg[CFG_CONCEDE] != 0
                                                                 or cfg[CFG_DURCH] != 0
                                                                 or cfg[CFG_BETTEL] != 0):
                    guess = dabb_estimate(hands[soloist, 0], hands[soloist, 1], hands[soloist, 2],
                                          hands[soloist, 3], trump, melds[soloist], buried_points,
                                          card_points, estimate)
                    leads = cfg[CFG_LEADER] == 0 or (dealer + 1) % n_players == soloist
                    # a Durch or Bettel near sure is played out (the expert's knob durch_worlds)
                    # from the first lead, with the deal's table and no trick recorded
                    opener = soloist if leads else (dealer + 1) % n_players
                    worlds = cfg[tune_row(policies[soloist], CFG_TUNE) + W_DURCH]
                    strict = StrictTable(copies, pairs, card_points, counters,
                                         cfg[CFG_LAST_TRICK], cfg, CFG_TUNE,
                                         WidowTeam(np.int64(soloist)))
                    off = TrickRecord(False, d, trick_cards, trick_leaders, trick_winners)
                    # Durch: a sure one worth more than counting (which would take every trick
                    # too), or one near sure whose play-outs say it pays more (the expert's knob)
                    if cfg[CFG_DURCH] != 0:
                        steps = durch_steps(hands, soloist, n_players, leads)
                        counting = guess + cfg[CFG_SWEEP]
                        worth = cfg[CFG_DURCH_SCORE]
                        if steps == 0:
                            durch = counting < worth
                        elif steps <= DURCH_STEPS and worlds > 0:
                            wins, tried = durch_playouts(
                                hands, soloist, opener, worlds, False, strict, (a0, a1, a2, a3),
                                (points, won), off, (s0, s1, s2, s3), durch_scratch, play_pol)
                            durch = (2 * wins - tried) * worth > tried * counting
                    # Bettel: where counting is expected to fall short of the bid, a sure one,
                    # or one near sure whose play-outs beat giving up (the expert's knob)
                    if cfg[CFG_BETTEL] != 0 and not durch:
                        sure_misere = sure_bettel(hands, soloist, n_players, leads)
                        short = not sample and bid <= BETTEL_BID and guess < bid
                        bettel = sure_misere and short
                        if (short and not sure_misere and worlds > 0 and bettel_steps(
                                hands, soloist, n_players, leads) <= DURCH_STEPS):
                            wins, tried = durch_playouts(
                                hands, soloist, opener, worlds, True, strict, (a0, a1, a2, a3),
                                (points, won), off, (s0, s1, s2, s3), durch_scratch, play_pol)
                            # made +bid, failed -2 bid, against giving up (-bid; -2 bid where
                            # the rules have no Abgehen)
                            give_up = bid if cfg[CFG_CONCEDE] != 0 else 2 * bid
                            bettel = (3 * wins - 2 * tried) * bid > -give_up * tried
                    if cfg[CFG_CONCEDE] != 0 and not durch and not bettel:
                        concede_at = table_row(thresholds, cfg[CFG_TABLE_LOW], guess)
                if durch or bettel:  # no trump, and no meld counts
                    trump = NO_TRUMP
                    for seat in range(n_players):
                        melds[seat] = 0
                conceded = not sample and bid >= concede_at
                if conceded and smart is not None and not random_soloist:
                    # he names the trump that leaves the others the fewest trump marriages
                    trump = concede_trump(hands, soloist, buried, copies, deck_mask)
                    for seat in range(n_players):
                        score_hand(hands[seat, 0], hands[seat, 1], hands[seat, 2],
                                   hands[seat, 3], kt, totals)
                        melds[seat] = totals[trump]
                # --- play and score --------------------------------------------------------------
                for seat in range(n_players):
                    card_pts[seat] = 0
                    won[seat] = 0
                if conceded:  # no play: minus the bid, the others their meld and the bonus
                    payout = concede_payout(cfg[CFG_CONCEDE_BONUS], cfg[CFG_HALF_BID] != 0, bid,
                                            table.ladder)
                    bonus, made, solo_total = score_conceded(
                        melds, soloist, bid, n_players, pairs, payout, scores, sums)
                    if record:
                        for k in range(hand):
                            trick_leaders[d, k] = -1
                            trick_winners[d, k] = -1
                            for seat in range(n_players):
                                trick_cards[d, k, seat] = -1
                else:
                    # the seats' cards: in a Durch the soloist plays his top card and a sampling
                    # seat the heuristic's (the play-outs score card points, not one trick)
                    for seat in range(n_players):
                        play_pol[seat] = policies[seat]
                        if durch and seat == soloist:
                            play_pol[seat] = POLICY_TOP
                        elif bettel and seat == soloist:
                            play_pol[seat] = POLICY_BOTTOM
                        elif (durch or bettel) and policies[seat] == POLICY_SAMPLING:
                            play_pol[seat] = POLICY_HEURISTIC
                    if search is not None and learning and not durch and not bettel:
                        widow_knowledge_start(knows, flat, soloist, holder, demand, given, widow,
                                              buried, bid, trump, melds, table.show_rows,
                                              card_points,
                                              DealScoring(hand, cfg[CFG_SWEEP],
                                                          cfg[CFG_ROUND_TO]))
                    # the first lead: the soloist, or the player left of the dealer
                    leader = soloist if cfg[CFG_LEADER] == 0 else (dealer + 1) % n_players
                    # the played cards' planes start as the absent types, int64 as the talon loop's:
                    # one type for them (a uint32 start made numba compile the heuristic and the
                    # sampling card for two more types)
                    winner, s0, s1, s2, s3 = play_strict(
                        hands, leader, 0, hand, trump, play_pol, smart, search,
                        StrictTable(copies, pairs, card_points, counters, cfg[CFG_LAST_TRICK], cfg,
                                    CFG_TUNE, WidowTeam(np.int64(soloist))),
                        (a0, a1, a2, a3), (points, won),
                        TrickRecord(record, d, trick_cards, trick_leaders, trick_winners),
                        (s0, s1, s2, s3), None, knows)
                    card_pts[winner] += cfg[CFG_LAST_TRICK]
                    card_pts[soloist] += buried_points  # after the play (the tricks' points first)
                    if durch:
                        bonus, made, solo_total = score_durch(won, soloist, n_players, hand, pairs,
                                                              cfg[CFG_DURCH_SCORE], scores)
                    elif bettel:
                        bonus, made, solo_total = score_bettel(won, soloist, n_players, bid, pairs,
                                                               scores)
                    else:
                        bonus, made, solo_total = score_sides(
                            melds, card_pts, won, soloist, bid, n_players, hand, pairs,
                            cfg[CFG_SWEEP], cfg[CFG_ROUND_TO], scores, sums)
                if void:  # all passed and the rules redeal: nothing counts
                    bonus, made, solo_total = 0, False, 0
                    for seat in range(n_players):
                        scores[seat] = 0
                # --- what the item keeps ---------------------------------------------------------
                named = -1 if trump == NO_TRUMP else trump  # what the records call the trump
                if record:
                    info_out[d, I_SOLOIST] = soloist
                    info_out[d, I_BID] = bid
                    info_out[d, I_CALLS] = n_calls
                    info_out[d, I_TRUMP] = named
                    info_out[d, I_DEMAND] = demand
                    info_out[d, I_FROM] = holder
                    info_out[d, I_GIVEN] = given
                    info_out[d, I_BONUS] = bonus
                    info_out[d, I_MADE] = made
                    info_out[d, I_CONCEDED] = conceded
                    info_out[d, I_DURCH] = durch
                    info_out[d, I_BETTEL] = bettel
                    info_out[d, I_REDEALT] = void
                    for j in range(n_widow):
                        buried_out[d, j] = buried[j]
                    for seat in range(n_players):
                        melds_out[d, seat] = melds[seat]
                        card_pts_out[d, seat] = card_pts[seat]
                        scores_out[d, seat] = scores[seat]
                    break
                if mode == MODE_PLAYOUT:
                    for seat in range(n_players):
                        scores_out[d, seat] = scores[seat]
                    break
                if sample:
                    side_cards = 0
                    side_tricks = 0
                    for seat in range(n_players):
                        if side_of(seat, pairs) == 0:
                            side_cards += card_pts[seat]
                            side_tricks += won[seat]
                    samples_out[d, 0] = solo_total
                    samples_out[d, 1] = named
                    samples_out[d, 2] = melds[0]
                    samples_out[d, 3] = 1 if side_tricks == hand else 0
                    samples_out[d, 4] = side_cards
                    samples_out[d, 5] = concede_at
                    samples_out[d, 6] = scores[1]  # seat 1 defends (each alone, or in the pair 1+3)
                    samples_out[d, 7] = durch
                    samples_out[d, 8] = sure_misere
                    samples_out[d, 9] = draws
                    break
                if mode == MODE_DUEL:
                    a_score = 0
                    others = 0
                    for seat in range(n_players):
                        q = side_of(seat, pairs)
                        # every seat carries its side's score: count each side once (its first seat)
                        if seat == q:
                            if q == play:
                                a_score += scores[seat]
                            else:
                                others += scores[seat]
                    total += a_score - others / (n_sides - 1)
                    play += 1
                    if play == n_sides:
                        diff_out[d] = total / n_sides
                        break
                else:  # MODE_MATCH
                    for q in range(n_sides):
                        side_totals[q] += scores[q]  # seat q belongs to side q (its first seat)
                    deals += 1
                    over = game_over(side_totals, target)
                    if over >= 0 or deals >= max_deals:
                        games_out[d, 0] = -1 if over < 0 else (1 if over == side_a else 0)
                        games_out[d, 1] = deals
                        games_out[d, 2] = side_totals[side_a]
                        games_out[d, 3] = side_totals.sum() - side_totals[side_a]
                        break





@njit
def widow_exact(p0, p1, p2, p3, unseen, n_widow, kt, totals, hist):
    """The exact widow analysis of one hand (planes ``p0..p3``): every ``n_widow``-card subset
    of the physical ``unseen`` cards (int64 card types) is one equally likely widow; adds 1 to
    ``hist[v]`` (int64) for each, ``v`` the best meld of hand + widow over the four trumps.
    Returns the number of widows weighed."""
    n = unseen.shape[0]
    idx = np.arange(n_widow)
    count = 0
    while True:
        q0, q1, q2, q3 = p0, p1, p2, p3
        for j in range(n_widow):
            q0, q1, q2, q3 = add_card(q0, q1, q2, q3, unseen[idx[j]])
        hist[best_meld(q0, q1, q2, q3, kt, totals)] += 1
        count += 1
        # the next subset in lexicographic order
        j = n_widow - 1
        while j >= 0 and idx[j] == n - n_widow + j:
            j -= 1
        if j < 0:
            return count
        idx[j] += 1
        for i in range(j + 1, n_widow):
            idx[i] = idx[i - 1] + 1


@njit
def widow_exact_known(p0, p1, p2, p3, rest, n_widow, allowed, capacity, kt, totals, hist, ways):
    """The exact widow analysis of one hand (planes ``p0..p3``) under what the user knows: every
    multiset ``W`` of ``n_widow`` cards from ``rest`` (int64 (24,): the unseen cards not known to
    be elsewhere) is weighed by the deals it leaves, ``prod_t C(rest[t], W[t])`` physical widows
    times the consistent deals of ``rest - W`` to the other seats
    (:func:`~binokel_sim.kernels.sampler.count_ways` over ``allowed`` and ``capacity``, int64
    (4,) in its group layout, ``ways`` its table); adds the weight to ``hist[v]`` (float64), ``v``
    the best meld of hand + ``W`` over the four trumps. Returns the number of physical widows
    that some consistent deal leaves (float64)."""
    types = np.empty(24, dtype=np.int64)
    m = 0
    for t in range(24):
        if rest[t] > 0:
            types[m] = t
            m += 1
    if m == 0:
        return 0.0
    idx = np.zeros(n_widow, dtype=np.int64)  # a non-decreasing index list: one multiset
    left = rest.copy()
    widows = 0.0
    while True:
        for j in range(24):
            left[j] = rest[j]
        fits = True
        mult = 1.0
        for j in range(n_widow):
            t = types[idx[j]]
            # C(rest, w) built one copy at a time: C(n, w) = C(n, w - 1) * (n - w + 1) / w
            w = rest[t] - left[t] + 1
            if left[t] == 0:
                fits = False
                break
            mult = mult * left[t] / w
            left[t] -= 1
        if fits:
            seats = count_ways(left, allowed, capacity, np.int64(4), ways)
            if seats > 0.0:
                q0, q1, q2, q3 = p0, p1, p2, p3
                for j in range(n_widow):
                    q0, q1, q2, q3 = add_card(q0, q1, q2, q3, types[idx[j]])
                hist[best_meld(q0, q1, q2, q3, kt, totals)] += mult * seats
                widows += mult
        # the next multiset: the next non-decreasing index list
        j = n_widow - 1
        while j >= 0 and idx[j] == m - 1:
            j -= 1
        if j < 0:
            return widows
        idx[j] += 1
        for i in range(j + 1, n_widow):
            idx[i] = idx[j]
