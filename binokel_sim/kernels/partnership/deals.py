"""Whole deals of four-hand-80: deal, auction, trump, meld, play-out and scoring, in four
block drivers: ``play_blocks`` (full records), ``duel_blocks`` (the same deals played
twice with the partnerships' policies swapped), ``match_blocks`` (whole games) and
``bid_sample_blocks`` (one known hand, the other 60 cards at random, under what the user knows
or given the auction, every trump candidate on the same samples).

Every driver gives block ``b`` the stream ``seed_stream(seed, first_block + b)`` and its own copy
of the deck, and writes only its own rows, so results never depend on the thread count.
Contract: SPEC.md, four-hand-80 (bidding, trump, automatic loss, scoring).

The drivers' contracts are named bundles (issue 51), each field documented here once:

- :data:`PartnershipTable` (``engines.partnership.family_tables``): ``deck`` int64 (80,), the
  card types (``Tables.deck``); ``kt``, the meld kernels' tuple (``Tables.kt``); ``trump_need``
  (``Tables.trump_need``: what naming a trump needs); the bidding model ``ladder``
  (``Tables.ladder``), ``play_w`` (``pair_value.weights``) and ``bid_table``
  (``pair_value.limit_table``); ``card_points`` int64 (24,) and ``last_trick``; ``min_meld`` and
  ``min_play`` (the scoring thresholds); ``tune`` int64 (2, N_PTUNE), the heuristic's and the
  expert's knob rows (:func:`~binokel_sim.kernels.partnership.tricks.seat_knobs`).
- :data:`Seats`: ``policies`` int64, the policy id per seat (4,) for ``play_blocks`` and the bid
  samples, ``[A, B]`` (2,) for the duel and the match; ``n_samples``, the sampling policy's deals
  per decision; ``infer``, what its deals respect
  (:data:`~binokel_sim.kernels.knowledge.INFERENCE`); ``exact`` int64, beside each entry of
  ``policies``, the tricks left from which that sampling policy's play-outs are solved exactly
  (0: played out by the heuristic to the end); ``show_rows``, the meld sets shown
  (``games.show_rows``), None when no seat samples (:func:`sampler_of`).
- the run, :class:`~binokel_sim.kernels.runs.Run` (``n_items`` is read from the outputs' rows).
- :data:`DealRecords` (``play_blocks``' output rows): ``hands`` uint32 (n, 4, 4) as dealt;
  ``info`` int64 (n, 10): dealer, bidder, bid, trump (-1 none), number of calls, number of
  tricks played, play of 0+2, play of 1+3, score of 0+2, score of 1+3; ``melds`` int64
  (n, 4, 4) every seat's meld per trump; the calls ``bid_seats``, ``bid_values`` int64
  (n, max_calls); the tricks ``trick_cards`` int64 (n, 20, 4), ``trick_leaders``,
  ``trick_winners`` int64 (n, 20).
- the bid samples' :data:`BidHand` (``planes`` uint32 (4,), the bid winner's hand; ``unseen``
  int64 (60,), the other cards; ``trumps`` int64 (k,), the trumps studied), :data:`Known`
  (what the user knows: ``on``, False when nothing is known; ``pool``, ``known``, ``allowed``,
  ``capacity``, ``ways`` as the constrained sampler reads them, :func:`known_deal`),
  :data:`Auction` (``on``, False without calls; ``lo``, ``hi`` int64 (4,) by seat: the bid
  limits the calls showed; ``max_draws``) and :data:`BidOut` (int64 (n, k) ``pair_meld``,
  ``pair_play``, ``opp_meld``; int64 (n,) ``draws``). Both are None for the plain odds (which
  compile neither the constrained sampler nor the bid limits), or both given, their ``on`` read
  as the samples are dealt: one compiled driver serves ``--known``, ``--void`` and ``--auction``
  in any mix (an argument None or not compiled a copy of the whole bid loop for each mix, some
  10 s each).
- :data:`Contract`: a deal's ``bidder``, ``bid`` and ``trump`` (-1: the bid winner may name none).
"""

from collections import namedtuple

import numpy as np
from numba import types
from numba.extending import overload

from binokel_sim.kernels.auction import NO_BID, auction, bid_limit, limit_of
from binokel_sim.kernels.deal import block_start, deal_seats
from binokel_sim.kernels.knowledge import INFER_FULL
from binokel_sim.kernels.melds import score_hand
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.partnership.heuristic import P_BID_PARTNER
from binokel_sim.kernels.partnership.sampling import (
    Sampler,
    play_known,
    sampling_active,
    sampling_scratch,
)
from binokel_sim.kernels.partnership.tricks import (
    N_SEATS,
    PLAY_EXPERT,
    PLAY_HEURISTIC,
    PlayTable,
    Tricks,
    counter_mask,
    play_mode,
    playout,
    playout_fast,
    playout_pair_expert,
    playout_pair_heuristic,
    score_deal,
    seat_knobs,
)
from binokel_sim.kernels.sampler import group_planes, sample_counts

PartnershipTable = namedtuple("PartnershipTable", [
    "deck", "kt", "trump_need", "ladder", "play_w", "bid_table", "card_points", "last_trick",
    "min_meld", "min_play", "tune"])
Seats = namedtuple("Seats", ["policies", "n_samples", "infer", "exact", "show_rows"])
DealRecords = namedtuple("DealRecords", [
    "hands", "info", "melds", "bid_seats", "bid_values", "trick_cards", "trick_leaders",
    "trick_winners"])
BidHand = namedtuple("BidHand", ["planes", "unseen", "trumps"])
Known = namedtuple("Known", ["on", "pool", "known", "allowed", "capacity", "ways"])
Auction = namedtuple("Auction", ["on", "lo", "hi", "max_draws"])
BidOut = namedtuple("BidOut", ["pair_meld", "pair_play", "opp_meld", "draws"])
Contract = namedtuple("Contract", ["bidder", "bid", "trump"])


@njit
def bid_and_name(hands, dealer, table, melds, limits, trumps, calls, margins):
    """The auction and the trump: returns ``(bidder, bid, trump, n_calls)``.

    Reads the table's meld tuple, ``trump_need`` and bidding model (``ladder``, ``play_w``,
    ``bid_table``). Writes ``melds`` (int64 (4, 4)): each seat's meld total with each suit as
    trump, per seat the heuristic's ``limits`` and preferred ``trumps`` (int64 (4,)), and the
    calls to ``calls`` (``(bid_seats, bid_values)``). ``margins`` int64 (4,): each seat's knob
    ``bid_partner`` (:func:`partner_margins`; the auction's ``behind_partner``). The bid winner
    names his preferred suit; one who may name none (the dealer forced to play) names -1.
    """
    for seat in range(N_SEATS):
        limit, trump = bid_limit(hands[seat, 0], hands[seat, 1], hands[seat, 2], hands[seat, 3],
                                 table.kt, table.trump_need, melds[seat], table.play_w,
                                 table.bid_table)
        limits[seat] = limit
        trumps[seat] = trump
    bidder, bid, n_calls = auction(limits, dealer, table.ladder, calls[0], calls[1], margins)
    return bidder, bid, trumps[bidder], n_calls


@njit(inline="always")
def partner_margins(knobs, out):
    """Each seat's knob ``bid_partner`` from its knob row (``knobs`` int64 (4, N_PTUNE)) into
    ``out`` int64 (4,) (the expert's fitted value, the heuristic's 0); returns ``out``."""
    for seat in range(N_SEATS):
        out[seat] = knobs[seat, P_BID_PARTNER]
    return out


@njit(inline="always")
def pair_melds(melds, bidder, trump):
    """``(bidding pair's meld, opponents' meld)`` with ``trump`` as trump; ``(0, 0)`` when the bid
    winner names no trump (``trump == -1``)."""
    if trump < 0:
        return 0, 0
    return (melds[bidder, trump] + melds[bidder ^ 2, trump],
            melds[(bidder + 1) & 3, trump] + melds[(bidder + 3) & 3, trump])


@njit
def sampler_of(deck, n_samples, infer, exact, active):
    """The sampling policy's inputs for one block
    (:data:`~binokel_sim.kernels.partnership.sampling.Sampler`), the ``sampler`` argument of
    :func:`play_and_score` and :func:`play_scores`: ``n_samples``, ``infer`` (what its deals
    respect, :data:`~binokel_sim.kernels.knowledge.INFERENCE`), ``exact`` int64 (4,) (per seat
    the tricks left solved exactly, :func:`~binokel_sim.kernels.partnership.sampling.rollout`;
    :func:`seated` of the drivers' ``Seats.exact``), the deck's
    counts per type, its scratch and trick arrays. ``active``: some seat plays the policy (otherwise ``n_samples`` is
    0 and the scratch a stub, and every play goes the fast way).

    The drivers' ``show_rows`` (:data:`Seats`) is None when no seat
    samples: every ``show_rows is not None`` test is then decided when numba compiles, and the
    sampling loop is left out of that compiled driver (it compiles, and is cached, only for
    the runs that sample)."""
    hand = deck.shape[0] // N_SEATS
    counts = np.zeros(24, dtype=np.int64)
    for c in deck:
        counts[c] += 1
    return Sampler(n_samples if active else 0, np.int64(infer), exact, counts,
                   sampling_scratch(hand, active, exact),
                   Tricks(np.empty((hand, N_SEATS), dtype=np.int64),
                          np.empty(hand, dtype=np.int64), np.empty(hand, dtype=np.int64)))


@njit
def seated(exact, a_first):
    """Per seat the tricks left solved exactly (:func:`sampler_of`'s ``exact``): ``exact`` as
    the drivers' :data:`Seats` give it, one per seat (4,), or ``[A, B]`` (2,) with A on seats
    0 and 2 when ``a_first``, else on 1 and 3."""
    if exact.shape[0] == N_SEATS:
        return exact.copy()
    a, b = (exact[0], exact[1]) if a_first else (exact[1], exact[0])
    return np.array([a, b, a, b], dtype=np.int64)


@njit
def reseated(sampler, exact):
    """``sampler`` with ``exact`` (int64 (4,)) per seat: the other seating of a duel's or a
    match's deal shares the scratch."""
    return Sampler(sampler.n_samples, sampler.infer, exact, sampler.deck_counts,
                   sampler.scratch, sampler.tricks)


@njit
def check_shown(active, show_rows):
    """A seat samples but the driver was given no ``show_rows``: an error, not the fast play."""
    if show_rows is None and active:
        raise ValueError("a seat plays the sampling policy: show_rows (games.show_rows) is None")


@njit
def play_and_score(hands, contract, melds, seat_policies, play, state, table, tricks, sampler,
                   show_rows):
    """Play the deal (unless it is lost before play) and score it.

    Returns ``(n_tricks, play of 0+2, play of 1+3, score of 0+2, score of 1+3)``. A bid winner
    without a marriage in trump (``contract.trump == -1``) or whose pair melds under the table's
    ``min_meld`` loses the bid at once: no trick is played and the opponents score 0. ``hands``
    is consumed; ``play`` is the play-outs' :data:`~binokel_sim.kernels.partnership.tricks.
    PlayTable` (each seat's knob row), ``tricks`` the deal's
    :data:`~binokel_sim.kernels.partnership.tricks.Tricks` records. With a seat on the sampling
    policy (``sampler.n_samples > 0``, :func:`sampler_of`; ``show_rows`` not None) the deal is
    played by
    :func:`~binokel_sim.kernels.partnership.sampling.play_known`.
    """
    bidder, bid, trump = contract
    pair = bidder & 1
    has_marriage = trump >= 0
    pair_meld, opp_meld = pair_melds(melds, bidder, trump)
    n_tricks = 0
    points = np.zeros(2, dtype=np.int64)
    if has_marriage and pair_meld >= table.min_meld:
        if show_rows is not None and sampler.n_samples > 0:
            points[0], points[1] = play_known(hands.reshape(hands.size), bidder, trump,
                                              seat_policies, sampler, state, show_rows, play,
                                              tricks)
        else:
            points[0], points[1] = playout(hands, bidder, trump, seat_policies, play.knobs,
                                           state, play.card_points, play.last_trick,
                                           tricks.cards, tricks.leaders, tricks.winners)
        n_tricks = tricks.cards.shape[0]
    own, other = score_deal(pair_meld, opp_meld, has_marriage, bid, points[pair],
                            points[1 - pair], table.min_meld, table.min_play)
    score0 = own if pair == 0 else other
    score1 = other if pair == 0 else own
    return n_tricks, points[0], points[1], score0, score1


@njit(inline="always")
def copy_planes(hands, flat):
    """``hands`` (uint32 (4, 4)) into ``flat`` (uint32 (16,))."""
    for q in range(N_SEATS * 4):
        flat[q] = hands[q >> 2, q & 3]


@njit
def play_scores(flat, contract, melds, seat_policies, mode, heuristic_seats, state, play, table,
                sampler, show_rows):
    """:func:`play_and_score` without trick records, the hands as flat planes (uint32 (16,),
    consumed) and the policies as :func:`~binokel_sim.kernels.partnership.tricks.play_mode`'s
    ``(mode, heuristic_seats)`` of ``seat_policies``: the same play, the same stream. Returns
    ``(score of 0+2, score of 1+3)``."""
    bidder, bid, trump = contract
    pair = bidder & 1
    has_marriage = trump >= 0
    pair_meld, opp_meld = pair_melds(melds, bidder, trump)
    play0 = 0
    play1 = 0
    if has_marriage and pair_meld >= table.min_meld:
        if show_rows is not None and sampler.n_samples > 0:
            play0, play1 = play_known(flat, bidder, trump, seat_policies, sampler, state,
                                      show_rows, play,
                                      sampler.tricks)
        else:
            play0, play1, stream = playout_fast(mode, flat, bidder, trump, heuristic_seats,
                                                (state[0], state[1], state[2], state[3]), play)
            state[0], state[1], state[2], state[3] = stream
    own, other = score_deal(pair_meld, opp_meld, has_marriage, bid, play1 if pair else play0,
                            play0 if pair else play1, table.min_meld, table.min_play)
    return (other, own) if pair else (own, other)


@njit
def _scratch():
    """One block's working arrays for whole deals: hands, melds per trump, bid limits,
    preferred trumps and the calls of an auction."""
    return (np.empty((N_SEATS, 4), dtype=np.uint32), np.empty((N_SEATS, 4), dtype=np.int64),
            np.empty(N_SEATS, dtype=np.int64), np.empty(N_SEATS, dtype=np.int64),
            np.empty(64, dtype=np.int64), np.empty(64, dtype=np.int64))


@njit
def play_blocks(table, seats, run, out, share):
    """Simulate ``out.hands.shape[0]`` whole deals and record them (:data:`DealRecords`).

    Deal ``d`` (global number ``run.first_deal + d``, dealer ``(run.first_deal + d) % 4``) reads
    the stream of block ``run.first_block + d // run.block_size``: the deal (seats 0-2 by partial
    shuffles, seat 3 the rest), then the random policy's draws in the play. ``seats.policies``:
    the policy per seat (4,); ``seats.n_samples`` and ``seats.show_rows`` are read only when a
    seat samples. ``share``: this call's blocks, ``share[0] <= b < share[1]`` (one thread's
    share, ``binokel_sim.simulate.spread_blocks``).
    """
    n_deals = out.hands.shape[0]
    deck = table.deck
    hand = deck.shape[0] // N_SEATS
    seat_policies = seats.policies
    show_rows = seats.show_rows
    active = sampling_active(seat_policies)
    check_shown(active, show_rows)
    play = PlayTable(table.card_points, table.last_trick, counter_mask(table.card_points),
                     seat_knobs(seat_policies, table.tune))
    margins = partner_margins(play.knobs, np.empty(N_SEATS, dtype=np.int64))
    block_size = run.block_size
    for b in range(share[0], share[1]):
        state, work = block_start(deck, run.seed, run.first_block + b)
        sampler = sampler_of(deck, seats.n_samples, INFER_FULL, seated(seats.exact, True),
                             active)
        hands = np.empty((N_SEATS, 4), dtype=np.uint32)
        limits = np.empty(N_SEATS, dtype=np.int64)
        trumps = np.empty(N_SEATS, dtype=np.int64)
        for d in range(b * block_size, min(n_deals, (b + 1) * block_size)):
            dealer = (run.first_deal + d) % N_SEATS
            deal_seats(work, 0, hand, state, hands)
            out.hands[d] = hands
            out.bid_values[d, :] = NO_BID
            out.bid_seats[d, :] = -1
            bidder, bid, trump, n_calls = bid_and_name(hands, dealer, table, out.melds[d], limits,
                                                       trumps, (out.bid_seats[d],
                                                                out.bid_values[d]), margins)
            n_tricks, play0, play1, score0, score1 = play_and_score(
                hands, Contract(bidder, bid, trump), out.melds[d], seat_policies, play, state,
                table, Tricks(out.trick_cards[d], out.trick_leaders[d], out.trick_winners[d]),
                sampler, show_rows)
            info = out.info[d]
            info[0] = dealer
            info[1] = bidder
            info[2] = bid
            info[3] = trump
            info[4] = n_calls
            info[5] = n_tricks
            info[6] = play0
            info[7] = play1
            info[8] = score0
            info[9] = score1


@njit
def duel_blocks(table, seats, run, diff_out, share):
    """Play every deal twice, A (``seats.policies[0]``) on seats 0+2 and B
    (``seats.policies[1]``) on 1+3, then swapped, with the same deal, and the same auction and
    trump where both sides bid alike (the same knob ``bid_partner``; else each seating has its
    own auction: the expert holds back behind its partner, the heuristic does not).

    Writes ``diff_out`` int64 (n,): (A's score - B's score) summed over the two plays, so the
    per-deal difference A minus B is ``diff_out / 2``. Deal ``d`` reads the stream of block
    ``run.first_block + d // run.block_size``; its dealer is ``(run.first_deal + d) % 4``, as in
    :func:`play_blocks`.
    ``share``: this call's blocks, ``share[0] <= b < share[1]`` (one thread's share,
    ``binokel_sim.simulate.spread_blocks``).
    """
    n_deals = diff_out.shape[0]
    deck = table.deck
    hand = deck.shape[0] // N_SEATS
    policy_a = seats.policies[0]
    policy_b = seats.policies[1]
    show_rows = seats.show_rows
    a_first = np.array([policy_a, policy_b, policy_a, policy_b], dtype=np.int64)
    b_first = np.array([policy_b, policy_a, policy_b, policy_a], dtype=np.int64)
    mode_a, seats_a = play_mode(a_first)
    mode_b, seats_b = play_mode(b_first)
    counters = counter_mask(table.card_points)
    play_a = PlayTable(table.card_points, table.last_trick, counters,
                       seat_knobs(a_first, table.tune))
    play_b = PlayTable(table.card_points, table.last_trick, counters,
                       seat_knobs(b_first, table.tune))
    margins_a = partner_margins(play_a.knobs, np.empty(N_SEATS, dtype=np.int64))
    margins_b = partner_margins(play_b.knobs, np.empty(N_SEATS, dtype=np.int64))
    same_auction = margins_a[0] == margins_a[1]  # both sides bid alike: one auction serves
    active = sampling_active(a_first)
    check_shown(active, show_rows)
    block_size = run.block_size
    for b in range(share[0], share[1]):
        state, work = block_start(deck, run.seed, run.first_block + b)
        (hands, melds, limits, trumps, calls_seats, calls_values) = _scratch()
        flat = np.empty(N_SEATS * 4, dtype=np.uint32)
        sampler = sampler_of(deck, seats.n_samples, seats.infer, seated(seats.exact, True),
                             active)
        sampler_b = reseated(sampler, seated(seats.exact, False))
        for d in range(b * block_size, min(n_deals, (b + 1) * block_size)):
            deal_seats(work, 0, hand, state, hands)
            dealer = (run.first_deal + d) % N_SEATS
            bidder, bid, trump, _ = bid_and_name(hands, dealer, table, melds, limits, trumps,
                                                 (calls_seats, calls_values), margins_a)
            copy_planes(hands, flat)
            s0, s1 = play_scores(flat, Contract(bidder, bid, trump), melds, a_first, mode_a,
                                 seats_a, state, play_a, table, sampler, show_rows)
            if not same_auction:  # the sides bid apart: B's seating has its own auction
                bidder, bid, trump, _ = bid_and_name(hands, dealer, table, melds, limits,
                                                     trumps, (calls_seats, calls_values),
                                                     margins_b)
            copy_planes(hands, flat)
            t0, t1 = play_scores(flat, Contract(bidder, bid, trump), melds, b_first, mode_b,
                                 seats_b, state, play_b, table, sampler_b, show_rows)
            diff_out[d] = (s0 - s1) + (t1 - t0)


@njit(inline="always")
def known_deal(known, split, state, dealt):
    """The other seats' cards under what the user knows (``--known``, ``--void``): the unseen
    cards dealt by the constrained sampler (:func:`~binokel_sim.kernels.sampler.sample_counts`)
    instead of a shuffle. ``known`` (:data:`Known`): the cards left to deal after the known ones,
    the known cards per seat (int64 (4, 24)), per seat 1..3 the types it may hold and the cards
    it still receives, and the sampler's ``count_ways`` table; ``split`` a scratch (4, 24).
    Seats 1..3 of ``dealt`` get their known cards plus the drawn ones."""
    sample_counts(known.pool, known.allowed, known.capacity, np.int64(N_SEATS - 1), known.ways,
                  state, split)
    for seat in range(1, N_SEATS):
        p0, p1, p2, p3 = group_planes(known.known, split, seat, seat - 1)
        dealt[4 * seat] = p0
        dealt[4 * seat + 1] = p1
        dealt[4 * seat + 2] = p2
        dealt[4 * seat + 3] = p3


@njit(inline="always")
def seat_fits(dealt, seat, melds, table, auction_known):
    """Whether ``seat``'s heuristic bid limit (:func:`~binokel_sim.kernels.auction.bid_limit`,
    from its melds per trump in ``melds`` and the table's bidding model) lies in
    ``[lo[seat], hi[seat]]`` (:data:`Auction`): it would have made the calls it made. The
    heuristic auction is a function of the limits alone, so samples whose seats 1..3 all fit
    repeat the auction."""
    limit, _ = limit_of(dealt[4 * seat], dealt[4 * seat + 1], dealt[4 * seat + 2],
                        dealt[4 * seat + 3], melds[seat], table.trump_need, table.play_w,
                        table.bid_table)
    return auction_known.lo[seat] <= limit <= auction_known.hi[seat]


@njit
def next_sample(known, split, auction_known, max_draws, work, state, dealt, hands, table,
                melds):
    """The next bid sample into ``dealt`` (flat planes, seat 0 already the bid winner's hand;
    ``hands`` is ``dealt`` as (4, 4)) and seats 1..3's melds per trump into ``melds``: a shuffle
    of the unseen cards to seats 1, 2, 3, or, ``known.on``, the constrained sampler
    (:func:`known_deal`, ``split`` its scratch). With ``auction_known.on`` (:data:`Auction`) the
    sample is dealt again until every seat fits the auction (:func:`seat_fits`; a seat that does
    not ends the try before the next is scored). Returns the deals made, ``max_draws + 1`` when
    none fitted (the caller reports the auction as too unlikely). Both None (decided when numba
    compiles): the plain odds, which compile neither the constrained sampler nor the bid
    limits."""
    km = (table.kt[0], table.kt[1], table.kt[2], table.kt[3], table.kt[4])  # what score_hand reads
    draws = 0
    while True:
        if known is not None and known.on:
            known_deal(known, split, state, dealt)
        else:
            deal_seats(work, 1, work.shape[0] // (N_SEATS - 1), state, hands)
        draws += 1
        fits = True
        for seat in range(1, N_SEATS):
            score_hand(dealt[4 * seat], dealt[4 * seat + 1], dealt[4 * seat + 2],
                       dealt[4 * seat + 3], km, melds[seat])
            if (auction_known is not None and auction_known.on
                    and not seat_fits(dealt, seat, melds, table, auction_known)):
                fits = False
                break
        if fits:
            return draws
        if draws >= max_draws:
            return max_draws + 1


@njit(inline="always")
def sample_melds(melds, trumps, d, out):
    """Sample ``d``'s melds of both pairs, per trump studied."""
    for j in range(trumps.shape[0]):
        t = trumps[j]
        out.pair_meld[d, j] = melds[0, t] + melds[2, t]
        out.opp_meld[d, j] = melds[1, t] + melds[3, t]


@njit
def bid_block(bid_hand, table, seats, mode, heuristic_seats, play, run, b, known, auction_known,
              out, sampler, show_rows, rows, general):
    """The samples of block ``b`` of :func:`bid_sample_blocks`' ``run`` (stream
    ``(run.seed, run.first_block + b)`` and its copy of the unseen cards), played in ``mode`` (:func:`~binokel_sim.kernels.partnership.tricks.
    play_mode`).

    With the random policy on some seat a sample's trumps are played one after another, each
    reading the stream where the previous left it. The heuristic reads no random numbers, so
    with the heuristic on every seat the stream holds only the deals: two samples are dealt,
    then their play-outs (every trump of both) go two at a time
    (:func:`~binokel_sim.kernels.partnership.tricks.playout_pair_heuristic`, or, ``rows`` not
    None, :func:`~binokel_sim.kernels.partnership.tricks.playout_pair_expert`, each seat by its
    knob row). The same numbers either way.
    With ``known.on`` the samples come from the constrained sampler, and with ``auction_known.on``
    only samples that fit the auction are kept (:func:`next_sample`); ``out.draws[d]`` is the
    deals sample ``d`` took, and a sample that found none within the limit ends the block (the
    caller reports it). With a seat on the sampling policy (``sampler``, :func:`sampler_of`)
    every play-out is :func:`~binokel_sim.kernels.partnership.sampling.play_known`'s, one trump
    after another. ``show_rows`` is ``seats.show_rows`` as an argument of its own: numba decides
    ``show_rows is not None`` when it compiles only for an argument (a field read is a run-time
    test, and ``play_known`` would be compiled for None). ``general`` None (every seat plays the
    heuristic or the expert, none samples) compiles the paired play-outs only, ``rows`` None (the heuristic proper) the
    heuristic's pair only.
    """
    unseen = bid_hand.unseen
    trumps = bid_hand.trumps
    start = b * run.block_size
    stop = min(out.pair_meld.shape[0], start + run.block_size)
    seat_policies = seats.policies
    draws_out = out.draws
    pair_play = out.pair_play
    hand = unseen.shape[0] // (N_SEATS - 1)
    n_trumps = trumps.shape[0]
    max_draws = draw_limit(auction_known)
    split = np.empty((4, 24), dtype=np.int64)
    km = (table.kt[0], table.kt[1], table.kt[2], table.kt[3], table.kt[4])
    state, work = block_start(unseen, run.seed, run.first_block + b)
    dealt = np.empty((2, N_SEATS * 4), dtype=np.uint32)  # two samples as dealt
    hands_0 = dealt[0].reshape((N_SEATS, 4))
    hands_1 = dealt[1].reshape((N_SEATS, 4))
    flat_a = np.empty(N_SEATS * 4, dtype=np.uint32)
    flat_b = np.empty(N_SEATS * 4, dtype=np.uint32)
    melds = np.empty((2, N_SEATS, 4), dtype=np.int64)
    for q in range(4):
        dealt[0, q] = bid_hand.planes[q]
        dealt[1, q] = bid_hand.planes[q]
    # the bid winner's melds: the same in every sample
    score_hand(dealt[0, 0], dealt[0, 1], dealt[0, 2], dealt[0, 3], km, melds[0, 0])
    for t in range(4):
        melds[1, 0, t] = melds[0, 0, t]
    # the bid winner leads: a variable, not the literal 0, so that the play-outs compile for
    # int64 once for every caller (a literal argument compiles a copy of its own)
    lead = np.int64(0)
    d = start
    if general is None or ((mode == PLAY_HEURISTIC or mode == PLAY_EXPERT)
                           and (show_rows is None or sampler.n_samples == 0)):
        while d < stop:
            n_samples = min(2, stop - d)
            draws_out[d] = next_sample(known, split, auction_known, max_draws, work, state,
                                       dealt[0], hands_0, table, melds[0])
            if draws_out[d] > max_draws:
                return  # no sample fitted the auction: the caller reports it
            if n_samples == 2:
                draws_out[d + 1] = next_sample(known, split, auction_known, max_draws, work,
                                               state, dealt[1], hands_1, table, melds[1])
                if draws_out[d + 1] > max_draws:
                    return
            jobs = n_samples * n_trumps  # job x: sample x // n_trumps, trump x % n_trumps
            x = 0
            while x < jobs:
                sa, ja = x // n_trumps, x % n_trumps
                for q in range(N_SEATS * 4):
                    flat_a[q] = dealt[sa, q]
                if x + 1 < jobs:
                    sb, jb = (x + 1) // n_trumps, (x + 1) % n_trumps
                    for q in range(N_SEATS * 4):
                        flat_b[q] = dealt[sb, q]
                    a0, b0 = pair_play_out(rows, flat_a, lead, trumps[ja], flat_b, lead,
                                           trumps[jb], hand, play)
                    pair_play[d + sa, ja] = a0
                    pair_play[d + sb, jb] = b0
                else:  # the last job alone: paired with itself (the heuristic draws nothing,
                    # so each deal of a pair plays as it would alone), which leaves the
                    # one-deal play-out out of this specialisation
                    for q in range(N_SEATS * 4):
                        flat_b[q] = flat_a[q]  # the pair consumes both deals' cards
                    a0, _ = pair_play_out(rows, flat_a, lead, trumps[ja], flat_b, lead,
                                          trumps[ja], hand, play)
                    pair_play[d + sa, ja] = a0
                x += 2
            for sa in range(n_samples):
                sample_melds(melds[sa], trumps, d + sa, out)
            d += n_samples
    if general is None:
        return
    while d < stop:
        draws_out[d] = next_sample(known, split, auction_known, max_draws, work, state,
                                   dealt[0], hands_0, table, melds[0])
        if draws_out[d] > max_draws:
            return
        stream = (state[0], state[1], state[2], state[3])
        for j in range(n_trumps):
            for q in range(N_SEATS * 4):
                flat_a[q] = dealt[0, q]
            if show_rows is not None and sampler.n_samples > 0:
                state[0], state[1], state[2], state[3] = stream
                play0, _ = play_known(flat_a, lead, trumps[j], seat_policies, sampler, state,
                                      show_rows, play,
                                      sampler.tricks)
                stream = (state[0], state[1], state[2], state[3])
            else:
                play0, _, stream = playout_fast(mode, flat_a, lead, trumps[j], heuristic_seats,
                                                stream, play)
            pair_play[d, j] = play0
        state[0], state[1], state[2], state[3] = stream
        sample_melds(melds[0], trumps, d, out)
        d += 1


@njit
def draw_limit(auction_known):
    """The deals one sample may take: the auction's ``max_draws``, or 1 with no auction (a plain
    sample is always the first deal)."""
    if auction_known is None or not auction_known.on:
        return 1
    return auction_known.max_draws


def pair_play_out(rows, fa, la, ta, fb, lb, tb, n_tricks, play):
    """Two deals' play-outs, paired: the heuristic's (its knobs as constants) when ``rows`` is
    None (every seat plays the heuristic proper), else each seat by its knob row (the expert's
    pair). Returns the play of 0+2 in each deal. Chosen by ``rows``' type when numba compiles
    (:func:`_pair_play_out`): each caller's specialisation holds one pair loop."""
    raise NotImplementedError("pair_play_out runs in compiled code only")


@overload(pair_play_out)
def _pair_play_out(rows, fa, la, ta, fb, lb, tb, n_tricks, play):
    """:func:`pair_play_out` by the type of ``rows`` (a run-time ``is None`` test on an int64
    would leave both pair loops in the compiled caller)."""
    if isinstance(rows, types.NoneType):
        def heuristic_pair(rows, fa, la, ta, fb, lb, tb, n_tricks, play):
            a0, b0, _, _ = playout_pair_heuristic(fa, la, ta, fb, lb, tb, n_tricks, play)
            return a0, b0
        return heuristic_pair

    def expert_pair(rows, fa, la, ta, fb, lb, tb, n_tricks, play):
        a0, b0, _, _ = playout_pair_expert(fa, la, ta, fb, lb, tb, n_tricks, play)
        return a0, b0
    return expert_pair


@njit
def bid_sample_blocks(table, seats, run, bid_hand, known, auction_known, out, general, rows,
                      share):
    """Samples for the bid odds of one hand, held by seat 0, the bid winner, who leads.

    ``bid_hand`` (:data:`BidHand`): its planes and the other cards, dealt at random to seats 1,
    2 and 3 in every sample; each sample is played out once per trump in ``bid_hand.trumps`` on
    the same deal. Writes (:data:`BidOut`, int64 (n, k)): ``pair_meld`` (seats 0+2),
    ``pair_play`` (counters of 0+2, last trick included) and ``opp_meld`` (seats 1+3); the
    opponents' play is ``total card points - pair_play``. Sample ``d`` reads the stream of block
    ``run.first_block + d // run.block_size``: the deal, then the random policy's draws, trump by
    trump.

    With ``known.on`` (:data:`Known`, None for the plain odds) the other seats' cards are drawn
    by the constrained sampler instead (what the user knows: :func:`known_deal`). With
    ``auction_known.on`` (:data:`Auction`, None with ``known``) a sample is dealt again until
    seats 1..3's heuristic bid limits (the table's bidding model) lie in ``[lo, hi]`` (what
    their calls told), at most ``max_draws`` times, and ``out.draws`` gets each sample's draws
    (1 without an auction). ``general`` is None when every seat plays the heuristic or the
    expert (no sampling seat): only the paired play-outs are compiled into that specialisation,
    and ``rows`` None (the heuristic proper on every seat) or int64 (each seat by its knob row)
    picks which (the default bid odds compile fastest). ``share``: this call's blocks,
    ``share[0] <= b < share[1]`` (one thread's share, ``binokel_sim.simulate.spread_blocks``).
    """
    seat_policies = seats.policies
    unseen = bid_hand.unseen
    mode, heuristic_seats = play_mode(seat_policies)
    play = PlayTable(table.card_points, table.last_trick, counter_mask(table.card_points),
                     seat_knobs(seat_policies, table.tune))
    active = sampling_active(seat_policies)
    check_shown(active, seats.show_rows)
    deck = np.empty(unseen.shape[0] + unseen.shape[0] // (N_SEATS - 1), dtype=np.int64)
    deck[:unseen.shape[0]] = unseen
    k = unseen.shape[0]
    for t in range(24):  # the deck: the unseen cards and the bid winner's
        for plane in range(4):
            if (bid_hand.planes[plane] >> t) & 1:
                deck[k] = t
                k += 1
    for b in range(share[0], share[1]):
        sampler = sampler_of(deck, seats.n_samples, INFER_FULL, seated(seats.exact, True),
                             active)
        bid_block(bid_hand, table, seats, mode, heuristic_seats, play, run, b, known,
                  auction_known, out, sampler, seats.show_rows, rows, general)


@njit
def partnership_game_over(totals, bidder, target):
    """SPEC four-hand-80 "game": the first pair at ``target`` or more after a deal wins; both at
    ``target``+ → the bidding pair (``bidder & 1``) wins. -1 while the game goes on."""
    over0 = totals[0] >= target
    over1 = totals[1] >= target
    if over0 and over1:
        return bidder & 1
    if over0:
        return 0
    if over1:
        return 1
    return -1


@njit
def match_blocks(table, seats, target, max_deals, run, games_out, share):
    """Whole games of four-hand-80 to ``target``: game ``g`` (number ``run.first_deal + g``)
    puts A (``seats.policies[0]``) on pair ``(number // 4) % 2`` (seats 0+2 or 1+3) and B
    (``seats.policies[1]``) on the other; its first dealer is seat ``number % 4`` and the deal
    rotates clockwise. Game ``g`` reads the stream of block
    ``run.first_block + g // run.block_size``. Writes ``games_out`` int64 (n, 4): A won (1/0;
    -1 when ``max_deals`` deals did not end the game), deals played, A's final total, B's final
    total. ``share``: this call's blocks, ``share[0] <= b < share[1]`` (one thread's share,
    ``binokel_sim.simulate.spread_blocks``)."""
    n_games = games_out.shape[0]
    deck = table.deck
    hand = deck.shape[0] // N_SEATS
    policy_a = seats.policies[0]
    policy_b = seats.policies[1]
    show_rows = seats.show_rows
    counters = counter_mask(table.card_points)
    active = sampling_active(np.array([policy_a, policy_b, policy_a, policy_b], dtype=np.int64))
    check_shown(active, show_rows)
    block_size = run.block_size
    for b in range(share[0], share[1]):
        state, work = block_start(deck, run.seed, run.first_block + b)
        (hands, melds, limits, trumps, calls_seats, calls_values) = _scratch()
        flat = np.empty(N_SEATS * 4, dtype=np.uint32)
        seat_policies = np.empty(N_SEATS, dtype=np.int64)
        sampler_a = sampler_of(deck, seats.n_samples, INFER_FULL, seated(seats.exact, True),
                               active)
        sampler_b = reseated(sampler_a, seated(seats.exact, False))
        totals = np.zeros(2, dtype=np.int64)
        margins = np.empty(N_SEATS, dtype=np.int64)
        for g in range(b * block_size, min(n_games, (b + 1) * block_size)):
            number = run.first_deal + g
            side_a = (number // N_SEATS) % 2
            for seat in range(N_SEATS):
                seat_policies[seat] = policy_a if seat % 2 == side_a else policy_b
            mode, heuristic_seats = play_mode(seat_policies)
            play = PlayTable(table.card_points, table.last_trick, counters,
                             seat_knobs(seat_policies, table.tune))
            partner_margins(play.knobs, margins)
            totals[:] = 0
            winner = -1
            deals = 0
            while winner < 0 and deals < max_deals:
                dealer = (number + deals) % N_SEATS
                deal_seats(work, 0, hand, state, hands)
                bidder, bid, trump, _ = bid_and_name(hands, dealer, table, melds, limits, trumps,
                                                     (calls_seats, calls_values), margins)
                copy_planes(hands, flat)
                score0, score1 = play_scores(flat, Contract(bidder, bid, trump), melds,
                                             seat_policies, mode, heuristic_seats, state, play,
                                             table, sampler_a if side_a == 0 else sampler_b,
                                             show_rows)
                totals[0] += score0
                totals[1] += score1
                deals += 1
                winner = partnership_game_over(totals, bidder, target)
            games_out[g, 0] = -1 if winner < 0 else (1 if winner == side_a else 0)
            games_out[g, 1] = deals
            games_out[g, 2] = totals[side_a]
            games_out[g, 3] = totals[1 - side_a]


@njit(inline="always")
def _histogram(values, n):
    """``(low, counts)`` of ``values[:n]`` as :meth:`binokel_sim.stats.Hist.of` makes them: the
    lowest value and the count of every value from it to the highest; ``(0, empty)`` for none."""
    if n == 0:
        return 0, np.zeros(0, dtype=np.int64)
    low = values[0]
    high = values[0]
    for i in range(1, n):
        low = min(low, values[i])
        high = max(high, values[i])
    counts = np.zeros(high - low + 1, dtype=np.int64)
    for i in range(n):
        counts[values[i] - low] += 1
    return low, counts


@njit
def bid_tally_column(pair_meld, pair_play, opp_meld, opp_play, j, married, min_meld, min_play):
    """One trump's (column ``j`` of the (samples, trumps) arrays) integer statistics for
    :func:`binokel_sim.odds.partnership.bid_tally`, with its scoring
    (:func:`binokel_sim.odds.partnership.deal_scores`): the histogram ``(low,
    counts)`` of the totals (play + meld) of the samples
    that make some bid (``married``, pair meld at least ``min_meld`` and play at least
    ``min_play``), the histogram of the opponents' scores (play, plus meld when it reaches
    ``min_meld``, when the play reaches ``min_play`` and the deal is played; else 0), the sums
    and sums of squares of the pair's meld and play, and the samples with pair meld at least
    ``min_meld``. Returns ``(made_low, made_counts, opp_low, opp_counts, meld, meld_sq, play,
    play_sq, meld_ok)``."""
    n = pair_meld.shape[0]
    made = np.empty(n, dtype=np.int64)
    opp = np.empty(n, dtype=np.int64)
    n_made = 0
    meld_sum = 0
    meld_sq = 0
    play_sum = 0
    play_sq = 0
    meld_ok = 0
    for i in range(n):
        meld = pair_meld[i, j]
        play = pair_play[i, j]
        meld_sum += meld
        meld_sq += meld * meld
        play_sum += play
        play_sq += play * play
        meld_enough = meld >= min_meld
        meld_ok += meld_enough
        played = married and meld_enough
        if played and play >= min_play:
            made[n_made] = play + meld
            n_made += 1
        o_meld = opp_meld[i, j]
        o_play = opp_play[i, j]
        score = 0
        if played and o_play >= min_play:
            score = o_play + (o_meld if o_meld >= min_meld else 0)
        opp[i] = score
    made_low, made_counts = _histogram(made, n_made)
    opp_low, opp_counts = _histogram(opp, n)
    return (made_low, made_counts, opp_low, opp_counts, meld_sum, meld_sq, play_sum, play_sq,
            meld_ok)
