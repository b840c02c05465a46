"""The widow games (three-hand-auction-48, four-hand-widow-48): deal, auction, the soloist's
widow, demand, burying and trump, every seat's meld, strict play and the deal's score; and the
exact widow analysis of one hand. Contract: SPEC.md "Variant three-hand-auction-48" and
"four-hand-widow-48"; the decisions it leaves open are in docs/rules.md, "Widow games".

The variant arrives as one tuple ``tw`` (:func:`binokel_sim.widow_games.compile_widow`):

- ``cfg`` int64 (N_CFG,): the ``CFG_*`` numbers below;
- ``ladder`` int64 (rungs, 2): the bidding ladder;
- ``card_points`` int64 (24,);
- ``completions`` int64 (24, k): per card type, the other cards of each meld set it completes
  (-1 padded; :func:`binokel_sim.widow_games.completions`);
- ``prefer`` int64 (2, 4, 24): the heuristic's order for parting with cards
  (:func:`binokel_sim.widow_games.preferences`).

The meld kernels' tuple ``kt`` (:mod:`binokel_sim.kernels.melds`) travels beside it as its own
argument (numba's parallel loops take no tuple nested in a tuple).

Sides: with partnerships a seat's side is ``seat % 2``, else the seat itself. Decisions are made
by each seat's policy (ids of :mod:`binokel_sim.kernels.policies`); the random policy reads one
bounded draw per decision with at least two options, in the order of docs/rules.md ("The random
stream of a deal").
"""

import numpy as np
from numba import prange

from binokel_sim.constants import ACE_VALUE, ALL_TRICKS_BONUS, CARDS_PER_TRUMP, WIDOW_GAIN
from binokel_sim.kernels.auction import NO_BID, next_bid
from binokel_sim.kernels.deal import add_card, block_start, deal_planes, lay_out
from binokel_sim.kernels.melds import score_hand
from binokel_sim.kernels.options import njit, njit_parallel
from binokel_sim.kernels.policies import POLICY_RANDOM, lowest_bit, nth_bit, popcount, random_card
from binokel_sim.kernels.random import below_scalar
from binokel_sim.kernels.talon import game_over
from binokel_sim.kernels.strict_tricks import play_strict_tricks
from binokel_sim.kernels.talon_policy import count_in
from binokel_sim.kernels.tricks import remove_card, suit_block

CFG_PLAYERS, CFG_HAND, CFG_WIDOW, CFG_LAST_TRICK, CFG_PAIRS, CFG_COPIES, CFG_DECK = range(7)
N_CFG = 7
ACES = 0x820820  # the aces of the four suits (rank 5 in every six-bit block)
# info columns of a played deal
I_SOLOIST, I_BID, I_CALLS, I_TRUMP, I_DEMAND, I_FROM, I_GIVEN, I_BONUS, I_MADE = range(9)
N_INFO = 9


@njit(inline="always")
def side_of(seat, pairs):
    return seat % 2 if pairs else seat


@njit(inline="always")
def give(hands, seat, t):
    """One more copy of ``t`` in ``hands[seat]``."""
    p0, p1, p2, p3 = add_card(hands[seat, 0], hands[seat, 1], hands[seat, 2], hands[seat, 3], t)
    hands[seat, 0] = p0
    hands[seat, 1] = p1
    hands[seat, 2] = p2
    hands[seat, 3] = p3


@njit(inline="always")
def best_meld(p0, p1, p2, p3, kt, totals):
    """The hand's best meld over the four trumps (``totals`` int64 (4,) scratch: per trump)."""
    score_hand(p0, p1, p2, p3, kt, totals)
    return max(max(totals[0], totals[1]), max(totals[2], totals[3]))


@njit(inline="always")
def bid_limit(p0, p1, p2, p3, kt, totals):
    """The heuristic's highest bid: the best over the suits of meld + WIDOW_GAIN +
    CARDS_PER_TRUMP * cards of the suit + ACE_VALUE * aces (docs/rules.md, "Policies")."""
    score_hand(p0, p1, p2, p3, kt, totals)
    aces = (popcount(np.int64(p0) & ACES) + popcount(np.int64(p1) & ACES)
            + popcount(np.int64(p2) & ACES) + popcount(np.int64(p3) & ACES))
    best = np.int64(-1)
    for s in range(4):
        value = (totals[s] + CARDS_PER_TRUMP * count_in(p0, p1, p2, p3, suit_block(s)))
        best = max(best, value)
    return best + WIDOW_GAIN + ACE_VALUE * aces


@njit
def widow_auction(hands, dealer, seat_policies, tw, kt, totals, bid_seats, bid_values, s0, s1, s2,
                  s3):
    """The auction (docs/rules.md, "The auction"): returns ``(soloist, bid, n_calls, s0..s3)``
    and writes the calls to ``bid_seats`` / ``bid_values`` (a pass is ``NO_BID``). A heuristic
    seat bids the smallest bid above the current one while it is within its :func:`bid_limit`;
    a random seat passes or bids that smallest bid with probability 1/2 each."""
    cfg, ladder = tw[0], tw[1]
    n_players = cfg[CFG_PLAYERS]
    limits = np.empty(n_players, dtype=np.int64)
    for seat in range(n_players):
        limits[seat] = 0
        if seat_policies[seat] != POLICY_RANDOM:
            limits[seat] = bid_limit(hands[seat, 0], hands[seat, 1], hands[seat, 2],
                                     hands[seat, 3], kt, totals)
    active = np.ones(n_players, dtype=np.bool_)
    n_active = n_players
    current = NO_BID
    holder = -1
    seat = (dealer + 1) % n_players
    n_calls = 0
    while n_active > 1:
        if active[seat]:
            offer = next_bid(ladder, current)
            if seat_policies[seat] == POLICY_RANDOM:
                k, s0, s1, s2, s3 = below_scalar(2, s0, s1, s2, s3)
                call = offer if k == 1 else NO_BID
            else:
                call = offer if offer <= limits[seat] else NO_BID
            if call == NO_BID:
                active[seat] = False
                n_active -= 1
            else:
                current = call
                holder = seat
            bid_seats[n_calls] = seat
            bid_values[n_calls] = call
            n_calls += 1
        seat = (seat + 1) % n_players
    if holder < 0:
        return dealer, ladder[0, 0], n_calls, s0, s1, s2, s3
    return holder, current, n_calls, s0, s1, s2, s3


@njit(inline="always")
def meld_without(hands, seat, t, kt, totals, trump):
    """The seat's meld with one copy of ``t`` taken out: with ``trump``, or the best over the
    suits when ``trump < 0`` (thermometer removal: plane k takes plane k+1's bit)."""
    bit = np.int64(1) << t
    keep = ~bit
    q0 = np.int64(hands[seat, 0])
    q1 = np.int64(hands[seat, 1])
    q2 = np.int64(hands[seat, 2])
    q3 = np.int64(hands[seat, 3])
    score_hand(np.uint32((q0 & keep) | (q1 & bit)), np.uint32((q1 & keep) | (q2 & bit)),
               np.uint32((q2 & keep) | (q3 & bit)), np.uint32(q3 & keep), kt, totals)
    if trump >= 0:
        return totals[trump]
    return max(max(totals[0], totals[1]), max(totals[2], totals[3]))


@njit
def cheapest_loss(hands, seat, candidates, kt, totals, trump, prefer):
    """The card of ``candidates`` the heuristic parts with (docs/rules.md, "Policies"): in the
    order of preference ``prefer`` (int64 (24,), :func:`binokel_sim.widow_games.preferences`),
    the first whose loss leaves the seat's meld as it is (with ``trump``, or the best over the
    suits when ``trump < 0``); when every card costs meld, the one whose loss keeps it highest
    (the first in preference on a tie)."""
    score_hand(hands[seat, 0], hands[seat, 1], hands[seat, 2], hands[seat, 3], kt, totals)
    whole = (totals[trump] if trump >= 0
             else max(max(totals[0], totals[1]), max(totals[2], totals[3])))
    best = -1
    best_meld = np.int64(-1)
    for i in range(prefer.shape[0]):
        t = prefer[i]
        if not (candidates >> t) & 1:
            continue
        meld = meld_without(hands, seat, t, kt, totals, trump)
        if meld > best_meld:
            best = t
            best_meld = meld
            if meld >= whole:
                break
    return best


@njit
def handle_widow(hands, widow, soloist, seat_policies, tw, kt, totals, buried, s0, s1, s2, s3):
    """The soloist takes the widow (``widow`` int64 (W,) card types), may demand a card, buries
    ``W`` cards (written to ``buried``) and names trump (docs/rules.md, "The widow, the demand,
    burying and trump"). Returns ``(trump, demand, from, given, s0..s3)`` (-1: no demand)."""
    cfg = tw[0]
    n_players = cfg[CFG_PLAYERS]
    n_widow = cfg[CFG_WIDOW]
    for j in range(n_widow):
        give(hands, soloist, widow[j])
    missing = cfg[CFG_DECK] & ~np.int64(hands[soloist, 0])
    random = seat_policies[soloist] == POLICY_RANDOM
    demand = -1
    if random:
        n = 1 + popcount(missing)
        if n >= 2:
            k, s0, s1, s2, s3 = below_scalar(n, s0, s1, s2, s3)
            if k > 0:
                demand = nth_bit(missing, k - 1)
    elif missing:
        base = best_meld(hands[soloist, 0], hands[soloist, 1], hands[soloist, 2],
                         hands[soloist, 3], kt, totals)
        todo = missing
        held = np.int64(hands[soloist, 0])
        needs = tw[3]
        while todo:
            t = lowest_bit(todo)
            todo &= todo - 1
            useful = False  # one copy of t raises the meld only by completing a set
            for j in range(needs.shape[1]):
                need = needs[t, j]
                useful |= need >= 0 and (held & need) == need
            if not useful:
                continue
            p0, p1, p2, p3 = add_card(hands[soloist, 0], hands[soloist, 1], hands[soloist, 2],
                                      hands[soloist, 3], t)
            gain = best_meld(p0, p1, p2, p3, kt, totals)
            if gain > base:
                base = gain
                demand = t
    holder = -1
    given = -1
    if demand >= 0:
        for j in range(1, n_players):
            seat = (soloist + j) % n_players
            if (hands[seat, 0] >> demand) & 1:
                holder = seat
                break
        remove_card(hands, holder, demand)
        give(hands, soloist, demand)
        choices = np.int64(hands[soloist, 0]) & ~(np.int64(1) << demand)
        if random:
            given, s0, s1, s2, s3 = random_card(choices, s0, s1, s2, s3)
        else:
            given = cheapest_loss(hands, soloist, choices, kt, totals, -1, tw[4][0, 0])
        remove_card(hands, soloist, given)
        give(hands, holder, given)
    trump = 0
    if not random:  # the heuristic names its trump first and buries for it
        score_hand(hands[soloist, 0], hands[soloist, 1], hands[soloist, 2], hands[soloist, 3],
                   kt, totals)
        best = np.int64(-1)
        for s in range(4):
            value = totals[s] + CARDS_PER_TRUMP * count_in(
                hands[soloist, 0], hands[soloist, 1], hands[soloist, 2], hands[soloist, 3],
                suit_block(s))
            if value > best:
                best = value
                trump = s
    for j in range(n_widow):
        held = np.int64(hands[soloist, 0])
        if random:
            t, s0, s1, s2, s3 = random_card(held, s0, s1, s2, s3)
        else:
            t = cheapest_loss(hands, soloist, held, kt, totals, trump, tw[4][1, trump])
        remove_card(hands, soloist, t)
        buried[j] = t
    if random:
        trump, s0, s1, s2, s3 = below_scalar(4, s0, s1, s2, s3)
    return trump, demand, holder, given, s0, s1, s2, s3


@njit
def deal_widow(work, cfg, state, hands, widow):
    """Shuffle ``work`` (the block's carried deck) by one partial Fisher-Yates over positions
    0..N-2; seat ``s`` takes positions ``s*H..s*H+H-1`` into ``hands[s]``, ``widow`` (int64 (W,))
    the positions ``P*H..N-1``."""
    deal_planes(work, 0, work.shape[0] - 1, state)
    lay_out(work, 0, cfg[CFG_HAND], hands, widow)


@njit
def deal_around(work, known, cfg, state, hands, widow):
    """The deal around a known hand: seat 0 holds ``known`` (uint32 (4,)); ``work`` (the unseen
    cards) is shuffled over positions 0..n-2, seats 1..P-1 take consecutive hands and the widow
    the rest."""
    deal_planes(work, 0, work.shape[0] - 1, state)
    hands[0, :] = known
    lay_out(work, 1, cfg[CFG_HAND], hands, widow)


@njit
def play_widow(hands, leader, trump, seat_policies, tw, card_pts, won, trick_cards,
               trick_leaders, trick_winners, s0, s1, s2, s3):
    """Play every trick, strict (must head), ``leader`` first. Adds the card points of the
    tricks (the last trick's bonus included) to ``card_pts`` (int64 (P,)) and counts the tricks
    won per seat in ``won`` (int64 (P,)); writes the tricks
    (:func:`binokel_sim.kernels.strict_tricks.play_strict_tricks`). Returns ``s0..s3``."""
    cfg, card_points = tw[0], tw[2]
    counters = np.int64(0)
    for t in range(24):
        if card_points[t] > 0:
            counters |= np.int64(1) << t
    zero = np.uint32(0)
    winner, s0, s1, s2, s3 = play_strict_tricks(
        hands, leader, 0, cfg[CFG_HAND], trump, seat_policies, cfg[CFG_COPIES],
        cfg[CFG_PAIRS] != 0, card_points, counters, zero, zero, zero, zero, card_pts, won,
        trick_cards, trick_leaders, trick_winners, s0, s1, s2, s3)
    card_pts[winner] += cfg[CFG_LAST_TRICK]
    return s0, s1, s2, s3


@njit
def score_widow(melds, card_pts, won, soloist, bid, cfg, scores):
    """Score a played deal (docs/rules.md, "Play and scoring"): writes ``scores`` (int64 (P,),
    every seat its side's score) and returns ``(bonus, made, soloist side total)``."""
    n_players = cfg[CFG_PLAYERS]
    pairs = cfg[CFG_PAIRS] != 0
    n_sides = 2 if pairs else n_players
    meld = np.zeros(n_sides, dtype=np.int64)
    cards = np.zeros(n_sides, dtype=np.int64)
    tricks = np.zeros(n_sides, dtype=np.int64)
    for seat in range(n_players):
        q = side_of(seat, pairs)
        meld[q] += melds[seat]
        cards[q] += card_pts[seat]
        tricks[q] += won[seat]
    bonus = 0
    total = np.zeros(n_sides, dtype=np.int64)
    for q in range(n_sides):
        total[q] = cards[q] + (meld[q] if tricks[q] > 0 else 0)
        if tricks[q] == cfg[CFG_HAND]:
            bonus = ALL_TRICKS_BONUS
            total[q] += bonus
    solo = side_of(soloist, pairs)
    made = total[solo] >= bid
    for seat in range(n_players):
        q = side_of(seat, pairs)
        scores[seat] = total[q] if q != solo or made else -2 * bid
    return bonus, made, total[solo]


@njit
def melds_with(hands, trump, kt, totals, melds):
    """Every seat's meld with ``trump`` (int64 (P,))."""
    for seat in range(hands.shape[0]):
        score_hand(hands[seat, 0], hands[seat, 1], hands[seat, 2], hands[seat, 3], kt, totals)
        melds[seat] = totals[trump]


@njit
def widow_deal(hands, widow, dealer, seat_policies, state, tw, kt, totals, info, bid_seats,
               bid_values, buried, melds, card_pts, scores, trick_cards, trick_leaders,
               trick_winners):
    """One deal after the shuffle: auction, widow, melds, play, score. Writes ``info`` int64
    (N_INFO,) (soloist, bid, calls, trump, demand, from, given, bonus, made), the calls, the
    buried cards (int64 (W,)), ``melds``, ``card_pts`` and ``scores`` (int64 (P,)) and the
    tricks. ``hands`` is consumed; ``state`` is read as docs/rules.md says."""
    cfg = tw[0]
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    soloist, bid, n_calls, s0, s1, s2, s3 = widow_auction(hands, dealer, seat_policies, tw, kt,
                                                          totals, bid_seats, bid_values,
                                                          s0, s1, s2, s3)
    trump, demand, holder, given, s0, s1, s2, s3 = handle_widow(
        hands, widow, soloist, seat_policies, tw, kt, totals, buried, s0, s1, s2, s3)
    melds_with(hands, trump, kt, totals, melds)
    card_pts[:] = 0
    won = np.zeros(cfg[CFG_PLAYERS], dtype=np.int64)
    for j in range(buried.shape[0]):
        card_pts[soloist] += tw[2][buried[j]]
    s0, s1, s2, s3 = play_widow(hands, soloist, trump, seat_policies, tw, card_pts, won,
                                trick_cards, trick_leaders, trick_winners, s0, s1, s2, s3)
    bonus, made, _ = score_widow(melds, card_pts, won, soloist, bid, cfg, scores)
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    info[I_SOLOIST] = soloist
    info[I_BID] = bid
    info[I_CALLS] = n_calls
    info[I_TRUMP] = trump
    info[I_DEMAND] = demand
    info[I_FROM] = holder
    info[I_GIVEN] = given
    info[I_BONUS] = bonus
    info[I_MADE] = made


@njit
def _scratch(tw, max_calls):
    cfg = tw[0]
    n_players = cfg[CFG_PLAYERS]
    hand = cfg[CFG_HAND]
    return (np.empty((n_players, 4), dtype=np.uint32), np.empty(cfg[CFG_WIDOW], dtype=np.int64),
            np.empty(4, dtype=np.int64), np.empty(N_INFO, dtype=np.int64),
            np.empty(max_calls, dtype=np.int64), np.empty(max_calls, dtype=np.int64),
            np.empty(cfg[CFG_WIDOW], dtype=np.int64), np.empty(n_players, dtype=np.int64),
            np.empty(n_players, dtype=np.int64), np.empty(n_players, dtype=np.int64),
            np.empty((hand, n_players), dtype=np.int64), np.empty(hand, dtype=np.int64),
            np.empty(hand, dtype=np.int64))


@njit_parallel
def widow_play_blocks(deck, tw, kt, seat_policies, seed, first_block, block_size, first_deal,
                      hands_out, widow_out, info, bid_seats, bid_values, buried, melds, card_pts,
                      scores, trick_cards, trick_leaders, trick_winners):
    """Deal and play ``hands_out.shape[0]`` deals and record them. Deal ``d`` (number
    ``first_deal + d``, dealer ``(first_deal + d) % P``) reads the stream of block
    ``first_block + d // block_size``. Writes per deal: ``hands_out`` uint32 (n, P, 4) and
    ``widow_out`` int64 (n, W) as dealt, and the outputs of :func:`widow_deal` with a leading
    deal axis."""
    n_deals = hands_out.shape[0]
    n_blocks = (n_deals + block_size - 1) // block_size
    cfg = tw[0]
    n_players = cfg[CFG_PLAYERS]
    for b in prange(n_blocks):
        state, work = block_start(deck, seed, first_block + b)
        hands = np.empty((n_players, 4), dtype=np.uint32)
        totals = np.empty(4, dtype=np.int64)
        for d in range(b * block_size, min(n_deals, (b + 1) * block_size)):
            deal_widow(work, cfg, state, hands, widow_out[d])
            hands_out[d] = hands
            bid_seats[d, :] = -1
            bid_values[d, :] = NO_BID
            widow_deal(hands, widow_out[d], (first_deal + d) % n_players, seat_policies, state,
                       tw, kt, totals, info[d], bid_seats[d], bid_values[d], buried[d], melds[d],
                       card_pts[d], scores[d], trick_cards[d], trick_leaders[d],
                       trick_winners[d])


@njit_parallel
def widow_duel_blocks(deck, tw, kt, n_sides, policy_a, policy_b, max_calls, seed, first_block,
                      block_size, first_deal, diff_out):
    """Every deal played ``n_sides`` times from the same cards, A's policy on side ``r`` in play
    ``r`` and B's on the others (auction included). Writes ``diff_out`` float64 (n,): A's side
    score minus the mean of the B sides, averaged over the plays."""
    n_deals = diff_out.shape[0]
    n_blocks = (n_deals + block_size - 1) // block_size
    cfg = tw[0]
    n_players = cfg[CFG_PLAYERS]
    pairs = cfg[CFG_PAIRS] != 0
    for b in prange(n_blocks):
        state, work = block_start(deck, seed, first_block + b)
        (hands, widow, totals, info, calls_s, calls_v, buried, melds, card_pts, scores,
         trick_cards, trick_leaders, trick_winners) = _scratch(tw, max_calls)
        dealt = np.empty_like(hands)
        seats = np.empty(n_players, dtype=np.int64)
        for d in range(b * block_size, min(n_deals, (b + 1) * block_size)):
            deal_widow(work, cfg, state, dealt, widow)
            total = 0.0
            for r in range(n_sides):
                for seat in range(n_players):
                    seats[seat] = policy_a if side_of(seat, pairs) == r else policy_b
                hands[:, :] = dealt
                widow_deal(hands, widow, (first_deal + d) % n_players, seats, state, tw, kt, totals,
                           info, calls_s, calls_v, buried, melds, card_pts, scores, trick_cards,
                           trick_leaders, trick_winners)
                a_score = 0
                others = 0
                for seat in range(n_players):
                    q = side_of(seat, pairs)
                    # every seat carries its side's score: count each side once (its first seat)
                    if seat == q:
                        if q == r:
                            a_score += scores[seat]
                        else:
                            others += scores[seat]
                total += a_score - others / (n_sides - 1)
            diff_out[d] = total / n_sides


@njit_parallel
def widow_match_blocks(deck, tw, kt, n_sides, policy_a, policy_b, max_calls, target, max_deals,
                       seed, first_block, block_size, first_game, games_out):
    """Whole games to ``target`` as :func:`binokel_sim.kernels.talon.talon_match_blocks`: A on
    side ``(number // P) % n_sides``, first dealer ``number % P``; writes ``games_out`` int64
    (n, 4): A won (1/0, -1 unfinished), deals, A's final total, the B sides' summed totals."""
    n_games = games_out.shape[0]
    n_blocks = (n_games + block_size - 1) // block_size
    cfg = tw[0]
    n_players = cfg[CFG_PLAYERS]
    pairs = cfg[CFG_PAIRS] != 0
    for b in prange(n_blocks):
        state, work = block_start(deck, seed, first_block + b)
        (hands, widow, totals, info, calls_s, calls_v, buried, melds, card_pts, scores,
         trick_cards, trick_leaders, trick_winners) = _scratch(tw, max_calls)
        seats = np.empty(n_players, dtype=np.int64)
        sides = np.empty(n_sides, dtype=np.int64)
        for g in range(b * block_size, min(n_games, (b + 1) * block_size)):
            number = first_game + g
            side_a = (number // n_players) % n_sides
            for seat in range(n_players):
                seats[seat] = policy_a if side_of(seat, pairs) == side_a else policy_b
            sides[:] = 0
            winner = -1
            deals = 0
            while winner < 0 and deals < max_deals:
                deal_widow(work, cfg, state, hands, widow)
                widow_deal(hands, widow, (number + deals) % n_players, seats, state, tw, kt, totals,
                           info, calls_s, calls_v, buried, melds, card_pts, scores, trick_cards,
                           trick_leaders, trick_winners)
                for q in range(n_sides):
                    sides[q] += scores[q]  # seat q belongs to side q (its first seat)
                deals += 1
                winner = game_over(sides, target)
            games_out[g, 0] = -1 if winner < 0 else (1 if winner == side_a else 0)
            games_out[g, 1] = deals
            games_out[g, 2] = sides[side_a]
            games_out[g, 3] = sides.sum() - sides[side_a]


@njit_parallel
def widow_sample_blocks(unseen, known, tw, kt, seat_policies, seed, first_block, block_size, out):
    """Samples for the bid odds of one hand: seat 0 is the soloist with ``known`` (uint32 (4,))
    before the widow; the ``unseen`` cards are dealt to seats 1.. and the widow
    (:func:`deal_around`); seat 0 takes the widow, demands, buries, names trump and leads; the
    deal is played out. Writes ``out`` int64 (n, 5): the soloist side's total (meld if it took a
    trick + card points + bonus), the trump, the soloist's meld after the widow, the bonus (1 if
    the soloist's side took every trick), the side's card points. Sample ``d`` reads the stream of
    block ``first_block + d // block_size``: the deal, the widow decisions, the play."""
    n = out.shape[0]
    n_blocks = (n + block_size - 1) // block_size
    cfg = tw[0]
    n_players = cfg[CFG_PLAYERS]
    pairs = cfg[CFG_PAIRS] != 0
    for b in prange(n_blocks):
        state, work = block_start(unseen, seed, first_block + b)
        (hands, widow, totals, info, calls_s, calls_v, buried, melds, card_pts, scores,
         trick_cards, trick_leaders, trick_winners) = _scratch(tw, 1)
        won = np.empty(n_players, dtype=np.int64)
        for d in range(b * block_size, min(n, (b + 1) * block_size)):
            deal_around(work, known, cfg, state, hands, widow)
            s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
            trump, _, _, _, s0, s1, s2, s3 = handle_widow(hands, widow, 0, seat_policies, tw,
                                                          kt, totals, buried, s0, s1, s2, s3)
            melds_with(hands, trump, kt, totals, melds)
            card_pts[:] = 0
            won[:] = 0
            for j in range(buried.shape[0]):
                card_pts[0] += tw[2][buried[j]]
            s0, s1, s2, s3 = play_widow(hands, 0, trump, seat_policies, tw, card_pts, won,
                                        trick_cards, trick_leaders, trick_winners, s0, s1, s2, s3)
            state[0], state[1], state[2], state[3] = s0, s1, s2, s3
            bonus, _, total = score_widow(melds, card_pts, won, 0, 0, cfg, scores)
            side_cards = 0
            side_tricks = 0
            for seat in range(n_players):
                if side_of(seat, pairs) == 0:
                    side_cards += card_pts[seat]
                    side_tricks += won[seat]
            out[d, 0] = total
            out[d, 1] = trump
            out[d, 2] = melds[0]
            out[d, 3] = 1 if side_tricks == cfg[CFG_HAND] else 0
            out[d, 4] = side_cards


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


@njit_parallel
def widow_playout_blocks(deck, tw, kt, seat_policies, max_calls, seed, first_block, block_size,
                         first_deal, scores_out):
    """Deal and play ``scores_out.shape[0]`` deals without recording them (the benchmark of whole
    deals): the same streams and deals as :func:`widow_play_blocks`; writes only ``scores_out``
    int64 (n, P)."""
    n_deals = scores_out.shape[0]
    n_blocks = (n_deals + block_size - 1) // block_size
    cfg = tw[0]
    n_players = cfg[CFG_PLAYERS]
    for b in prange(n_blocks):
        state, work = block_start(deck, seed, first_block + b)
        (hands, widow, totals, info, calls_s, calls_v, buried, melds, card_pts, scores,
         trick_cards, trick_leaders, trick_winners) = _scratch(tw, max_calls)
        for d in range(b * block_size, min(n_deals, (b + 1) * block_size)):
            deal_widow(work, cfg, state, hands, widow)
            widow_deal(hands, widow, (first_deal + d) % n_players, seat_policies, state, tw, kt,
                       totals, info, calls_s, calls_v, buried, melds, card_pts, scores_out[d],
                       trick_cards, trick_leaders, trick_winners)
