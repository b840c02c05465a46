"""Sixty-six deals: the deal from the block's random stream, the play with a policy per seat
(the exchange, closing, marriages, the claim, the tricks and the draws), the record's arrays,
and the block driver. Contract: SPEC.md "Variant sixty-six"; the decisions it leaves open,
the policies and the random stream are in docs/rules.md, "Sixty-six".

The kernels take named bundles (``collections.namedtuple``, which numba types and caches), each
field documented here once.

``SixtySixTable``, the variant and the policies' knobs:

- ``deck`` int64 (24,): the deck's card types, ascending (each type once);
- ``card_points`` int64 (24,): the card points of every type (A 11, T 10, K 4, Q 3, J 2, 9 0);
- ``marriage``, ``trump_marriage``: a marriage's points outside trump and in trump (20, 40);
- ``exchange_rank``: the rank of the trump card exchanged for the turned trump (0: the nine);
- ``claim``: the count a correct claim needs (66); it scores 2 when the opponent's count is
  under half of it (and he has a trick);
- ``last_trick``: the last trick's points when the stock ran out unclosed (10);
- ``knobs``: a ``SixtySixKnobs``.

``SixtySixKnobs``, the policies' knobs (ints; the defaults are the shipped policies):

- ``random_exchange``, ``random_close``, ``random_announce``, ``random_claim``: the random
  policy's odds of saying yes to the exchange, to closing, to announcing a marriage it leads
  and to claiming, whenever it may: one in ``n`` (a draw in ``[0, n)`` is 0), 1 always and
  0 never (neither reads a random number); default 2, a fair coin;
- ``close_margin``: the heuristic closes when its count plus its sure trumps' points reach the
  claim plus this (default 0);
- ``take_at``: in open play the heuristic takes a led card worth this many points or more
  (default 10: an ace or a ten).

The run: :class:`binokel_sim.kernels.runs.Run`. ``seats`` int64 (2,): each seat's policy
(:data:`~binokel_sim.kernels.policies.POLICY_RANDOM`, ``POLICY_HEURISTIC`` or
``POLICY_SAMPLING``). ``samples``: the sampling seats' deals a decision (int64), or None when no
seat samples: numba then prunes the sampling code. A block's ``sampling.Finder`` holds the
sampling seats' working arrays and what the table knows (:mod:`.sampling`).

``SixtySixScratch``, a block's working arrays for the deal in play:

- ``hands`` int64 (2,): each seat's hand (a card-type mask);
- ``stock`` int64 (12,): the stock, top first (an exchange writes the nine into its last slot);
- ``tally`` int64 (3, 2): per seat the card points won, the marriages announced, the tricks won.

``SixtySixDeals``, the outputs, one row a deal (the record of docs/rules.md, "Sixty-six",
"Records", is built from them by :mod:`binokel_sim.records.sixty_six`):

- ``dealer`` int64 (n,): the dealer (deal number mod 2);
- ``hands`` int64 (n, 2): each seat's hand as dealt (a card-type mask);
- ``stock`` int64 (n, 12): the stock as dealt, top first, the turned trump last;
- ``n_tricks`` int64 (n,): the tricks played;
- ``leaders``, ``winners`` int64 (n, 12): each trick's leader and winner;
- ``cards`` int64 (n, 12, 2): each trick's cards, the leader's first;
- ``flags`` int64 (n, 12): each trick's lead flags (``EXCHANGED | CLOSED | ANNOUNCED``, the
  marriage's suit the led card's);
- ``claim`` int64 (n, 4): the claimant (-1: none), the index of the last finished trick, and
  for a claim on lead after announcing a marriage that turn's flags and the marriage's suit
  (0 and -1 for a claim after a trick won);
- ``points`` int64 (n, 2): each seat's count at the end;
- ``tricks_won`` int64 (n, 2): each seat's tricks;
- ``result`` int64 (n, 3): the seat that scores, its game points and the reason (``REASON_*``).

The draws are not stored: the stock in order, its last card replaced by the nine after an
exchange, two a trick until it is closed or exhausted (the records rebuild them).

The random stream of a deal (block ``first_block + d // block_size``, the deck permutation
carried over within a block): the shuffle (23 positions, ``deal.deal_sum``), then the random
seats' decisions in play order: the leader's exchange, close, card, announcement and claim,
the follower's card, the winner's claim; a sampling seat's samples where it decides
(:mod:`.sampling`). A decision with one option reads nothing.
"""

from collections import namedtuple

import numpy as np

from binokel_sim.kernels.deal import block_start, deal_sum
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.policies import POLICY_RANDOM, POLICY_SAMPLING, random_card
from binokel_sim.kernels.random import below_scalar
from binokel_sim.kernels.sixty_six.sampling import (
    CLOSE,
    EXCHANGE,
    FOLLOW,
    LEAD,
    MAX_CANDIDATES,
    Finder,
    Position,
    choose,
    excluded_by,
    partner,
)
from binokel_sim.kernels.sixty_six.heuristic import (
    heuristic_closes,
    heuristic_follow,
    heuristic_lead,
)
from binokel_sim.kernels.sixty_six.rules import (
    ANNOUNCED,
    CLOSED,
    EXCHANGED,
    HAND,
    STOCK,
    TRICKS,
    announces,
    bit,
    claim_outcome,
    count_of,
    legal_follow,
    may_close,
    may_exchange,
    takes,
    unclaimed_outcome,
)

SixtySixKnobs = namedtuple(
    "SixtySixKnobs",
    ["random_exchange", "random_close", "random_announce", "random_claim", "close_margin",
     "take_at"],
    defaults=(2, 2, 2, 2, 0, 10))
SixtySixTable = namedtuple(
    "SixtySixTable",
    ["deck", "card_points", "marriage", "trump_marriage", "exchange_rank", "claim", "last_trick",
     "knobs"])
SixtySixScratch = namedtuple("SixtySixScratch", ["hands", "stock", "tally"])
SixtySixDeals = namedtuple(
    "SixtySixDeals",
    ["dealer", "hands", "stock", "n_tricks", "leaders", "winners", "cards", "flags", "claim",
     "points", "tricks_won", "result"])


@njit
def new_deals(n):
    """Empty outputs for ``n`` deals (``SixtySixDeals``)."""
    return SixtySixDeals(
        np.zeros(n, dtype=np.int64), np.zeros((n, 2), dtype=np.int64),
        np.zeros((n, STOCK), dtype=np.int64), np.zeros(n, dtype=np.int64),
        np.full((n, TRICKS), -1, dtype=np.int64), np.full((n, TRICKS), -1, dtype=np.int64),
        np.full((n, TRICKS, 2), -1, dtype=np.int64), np.zeros((n, TRICKS), dtype=np.int64),
        np.zeros((n, 4), dtype=np.int64), np.zeros((n, 2), dtype=np.int64),
        np.zeros((n, 2), dtype=np.int64), np.zeros((n, 3), dtype=np.int64))


@njit(inline="always")
def one_in(n, s0, s1, s2, s3):
    """The random policy's yes: one chance in ``n`` (a draw in ``[0, n)`` is 0); ``n`` 1 is
    always yes and 0 never, without a draw. Returns ``(yes, s0, s1, s2, s3)``."""
    if n <= 1:
        return n == 1, s0, s1, s2, s3
    k, s0, s1, s2, s3 = below_scalar(n, s0, s1, s2, s3)
    return k == 0, s0, s1, s2, s3


@njit(inline="always")
def decides(chance, odds, answer, s0, s1, s2, s3):
    """A seat's yes or no: a random seat's (``chance``) one in ``odds``, else the heuristic's
    ``answer``. Returns ``(yes, s0, s1, s2, s3)``."""
    if chance:
        return one_in(odds, s0, s1, s2, s3)
    return answer, s0, s1, s2, s3


@njit(inline="always")
def lay_out_deal(work, dealer, hands, stock):
    """Read the shuffled deck (uint64 card types) off: the non-dealer's six cards, the dealer's
    six, the turned trump, which goes under the stock's other eleven (``stock`` top first)."""
    h = np.int64(0)
    for j in range(HAND):
        h |= bit(np.int64(work[j]))
    hands[1 - dealer] = h
    h = np.int64(0)
    for j in range(HAND, 2 * HAND):
        h |= bit(np.int64(work[j]))
    hands[dealer] = h
    for j in range(STOCK - 1):
        stock[j] = np.int64(work[2 * HAND + 1 + j])
    stock[STOCK - 1] = np.int64(work[2 * HAND])


@njit(inline="always")
def write_trick(out, d, k, leader, winner, led, follow, flags):
    """Trick ``k`` of deal ``d`` into ``out``."""
    out.leaders[d, k] = leader
    out.winners[d, k] = winner
    out.cards[d, k, 0] = led
    out.cards[d, k, 1] = follow
    out.flags[d, k] = flags


@njit(inline="always")
def write_end(out, d, n_tricks, tally, claim, result):
    """The end of deal ``d`` into ``out``: the counts and tricks won from ``tally``, the claim
    row ``claim`` and the ``result`` (``(seat, game points, reason)``)."""
    for seat in range(2):
        out.points[d, seat] = count_of(tally[0, seat], tally[1, seat], tally[2, seat])
        out.tricks_won[d, seat] = tally[2, seat]
    out.n_tricks[d] = n_tricks
    for i in range(4):
        out.claim[d, i] = claim[i]
    for i in range(3):
        out.result[d, i] = result[i]


@njit(inline="always")
def new_scratch():
    """An empty ``SixtySixScratch``."""
    return SixtySixScratch(np.zeros(2, dtype=np.int64), np.zeros(STOCK, dtype=np.int64),
                           np.zeros((3, 2), dtype=np.int64))


@njit(inline="always")
def new_finder():
    """An empty :class:`~binokel_sim.kernels.sixty_six.sampling.Finder` (a block's)."""
    return Finder(np.zeros(24, dtype=np.uint64), np.zeros((2, MAX_CANDIDATES), dtype=np.int64),
                  new_scratch(), new_scratch(), np.zeros(2, dtype=np.int64),
                  np.zeros(2, dtype=np.int64))


@njit(inline="always")
def position(seat, trump, leader, led, left, closed, closer, at_close, gone):
    """The deal's ``sampling.Position`` (int64 scalars)."""
    return Position(np.int64(seat), np.int64(trump), np.int64(leader), np.int64(led),
                    np.int64(left), np.int64(1 if closed else 0), np.int64(closer),
                    np.int64(at_close), np.int64(gone))


@njit
def play_deal(table, seats, scratch, dealer, out, d, rng, samples, finder):
    """Play deal ``d`` from ``scratch.hands`` and ``scratch.stock`` (``SixtySixScratch``, both
    consumed) with the policies of ``seats``, and write its row of ``out`` (``SixtySixDeals``).
    ``rng``: the random state ``(s0, s1, s2, s3)`` (uint64), returned as it is after the deal.
    ``samples``: the sampling seats' deals a decision, None when no seat samples (the sampling
    code is then not compiled in); ``finder``: their working arrays and what the table knows
    (``sampling.Finder``, kept only when ``samples`` is given)."""
    s0, s1, s2, s3 = rng
    if samples is not None:
        finder.shown[:] = 0
        finder.excluded[:] = 0
    knobs = table.knobs
    card_points = table.card_points
    hands, stock, tally = scratch.hands, scratch.stock, scratch.tally
    trump = stock[STOCK - 1] // 6
    nine = trump * 6 + table.exchange_rank
    tally[:, :] = 0
    won = tally[2]
    left = STOCK  # cards still in the stock
    closed = False
    closer = -1
    opponent_won_at_close = 0
    gone = np.int64(0)  # the cards of the finished tricks
    leader = 1 - dealer
    winner = leader
    claimant = -1
    claim_flags = 0
    claim_suit = -1
    k = 0
    while hands[leader] != 0:
        me = leader
        other = 1 - me
        chance = seats[me] == POLICY_RANDOM
        flags = 0
        hand = hands[me]
        # --- before the lead, in this order: the exchange, closing (docs/rules.md "Sixty-six")
        if may_exchange(hand, nine, won[me], left, closed):
            if samples is not None and seats[me] == POLICY_SAMPLING:
                choice, s0, s1, s2, s3 = choose(
                    table, samples, finder, position(me, trump, me, -1, left, closed, closer,
                                                     opponent_won_at_close, gone),
                    hands, stock, tally, np.int64(EXCHANGE), (s0, s1, s2, s3))
                yes = choice == 1
            else:
                yes, s0, s1, s2, s3 = decides(chance, knobs.random_exchange, True,
                                              s0, s1, s2, s3)
            if yes:
                if samples is not None:
                    finder.shown[me] |= bit(stock[STOCK - 1])
                hand = (hand & ~bit(nine)) | bit(stock[STOCK - 1])
                stock[STOCK - 1] = nine
                flags |= EXCHANGED
        if may_close(left, closed):
            if samples is not None and seats[me] == POLICY_SAMPLING:
                hands[me] = hand  # the exchange's card
                choice, s0, s1, s2, s3 = choose(
                    table, samples, finder, position(me, trump, me, -1, left, closed, closer,
                                                     opponent_won_at_close, gone),
                    hands, stock, tally, np.int64(CLOSE), (s0, s1, s2, s3))
                yes = choice == 1
            else:
                sure = not chance and heuristic_closes(
                    hand, gone, trump, count_of(tally[0, me], tally[1, me], won[me]), won[me],
                    card_points, table.claim + knobs.close_margin)
                yes, s0, s1, s2, s3 = decides(chance, knobs.random_close, sure, s0, s1, s2, s3)
            if yes:
                closed = True
                closer = me
                opponent_won_at_close = won[other]
                flags |= CLOSED
        strict = closed or left == 0
        # --- the lead, and the marriage it announces (a claim may follow)
        if samples is not None and seats[me] == POLICY_SAMPLING:
            hands[me] = hand
            led, s0, s1, s2, s3 = choose(
                table, samples, finder, position(me, trump, me, -1, left, closed, closer,
                                                 opponent_won_at_close, gone),
                hands, stock, tally, np.int64(LEAD), (s0, s1, s2, s3))
        elif chance:
            led, s0, s1, s2, s3 = random_card(hand, s0, s1, s2, s3)
        else:
            led = heuristic_lead(hand, gone, trump, strict)
        if announces(hand, led):
            yes, s0, s1, s2, s3 = decides(chance, knobs.random_announce, True, s0, s1, s2, s3)
            if yes:
                if samples is not None:
                    finder.shown[me] |= bit(partner(led))
                flags |= ANNOUNCED
                tally[1, me] += table.trump_marriage if led // 6 == trump else table.marriage
                if won[me] > 0:
                    reached = count_of(tally[0, me], tally[1, me], won[me]) >= table.claim
                    yes, s0, s1, s2, s3 = decides(chance, knobs.random_claim, reached,
                                                  s0, s1, s2, s3)
                    if yes:
                        claimant = me
                        claim_flags = flags
                        claim_suit = led // 6
                        break
        hands[me] = hand & ~bit(led)
        # --- the follow and the trick
        hand = hands[other]
        if samples is not None and seats[other] == POLICY_SAMPLING:
            follow, s0, s1, s2, s3 = choose(
                table, samples, finder, position(other, trump, me, led, left, closed, closer,
                                                 opponent_won_at_close, gone),
                hands, stock, tally, np.int64(FOLLOW), (s0, s1, s2, s3))
        elif seats[other] == POLICY_RANDOM:
            legal = legal_follow(hand, led, trump, strict)
            follow, s0, s1, s2, s3 = random_card(legal, s0, s1, s2, s3)
        else:
            follow = heuristic_follow(table, hand, led, trump, strict, tally[0, other],
                                      tally[1, other])
        if samples is not None and strict:
            finder.excluded[other] |= excluded_by(follow, led, trump)
        hands[other] = hand & ~bit(follow)
        winner = other if takes(follow, led, trump) else me
        gone |= bit(led) | bit(follow)
        tally[0, winner] += card_points[led] + card_points[follow]
        won[winner] += 1
        write_trick(out, d, k, me, winner, led, follow, flags)
        k += 1
        # --- the draws, the last trick's points, the winner's claim
        if not closed and left > 0:
            if samples is not None and left == 2:  # the face-up bottom card, drawn last
                finder.shown[1 - winner] |= bit(stock[STOCK - 1])
            hands[winner] |= bit(stock[STOCK - left])
            hands[1 - winner] |= bit(stock[STOCK - left + 1])
            left -= 2
        if hands[0] == 0 and hands[1] == 0 and not closed:
            tally[0, winner] += table.last_trick
        reached = count_of(tally[0, winner], tally[1, winner], won[winner]) >= table.claim
        yes, s0, s1, s2, s3 = decides(seats[winner] == POLICY_RANDOM, knobs.random_claim,
                                      reached, s0, s1, s2, s3)
        if yes:
            claimant = winner
            break
        leader = winner
    # --- the end: a claim, a failed close or the last trick
    if claimant >= 0:
        counts = np.empty(2, dtype=np.int64)
        for seat in range(2):
            counts[seat] = count_of(tally[0, seat], tally[1, seat], won[seat])
        result = claim_outcome(table.claim, claimant, counts, won)
    else:
        result = unclaimed_outcome(closer, opponent_won_at_close, winner)
    write_end(out, d, k, tally, (claimant, k - 1, claim_flags, claim_suit), result)
    return s0, s1, s2, s3


@njit
def sixty_six_block(table, run, seats, samples, out, block, start, stop):
    """Deals ``start .. stop - 1`` of the run, all from the stream of ``block``: the shuffle, the
    deal read off, the play (:func:`play_deal`)."""
    state, cards = block_start(table.deck, run.seed, block)
    work = cards.astype(np.uint64)  # deal_sum's deck: the state stays in registers
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    scratch = new_scratch()
    finder = new_finder()
    for d in range(start, stop):
        _, s0, s1, s2, s3 = deal_sum(work, work.shape[0] - 1, s0, s1, s2, s3)
        dealer = (run.first_deal + d) % 2
        lay_out_deal(work, dealer, scratch.hands, scratch.stock)
        out.dealer[d] = dealer
        out.hands[d, 0] = scratch.hands[0]
        out.hands[d, 1] = scratch.hands[1]
        for j in range(STOCK):
            out.stock[d, j] = scratch.stock[j]
        s0, s1, s2, s3 = play_deal(table, seats, scratch, dealer, out, d, (s0, s1, s2, s3),
                                   samples, finder)


@njit
def sixty_six_blocks(table, run, seats, samples, out, share):
    """Run ``run.n_items`` deals in blocks of ``run.block_size``: block ``b`` covers deals
    ``b * block_size ..`` and reads stream ``run.first_block + b``, writing only its deals' rows
    of ``out``, so the outputs do not depend on the threads. ``samples``: the sampling seats'
    deals a decision (int64), None when no seat samples (:func:`play_deal`). ``share``: this call's blocks,
    ``share[0] <= b < share[1]`` (one thread's share, ``binokel_sim.simulate.spread_blocks``)."""
    for b in range(share[0], share[1]):
        start = b * run.block_size
        sixty_six_block(table, run, seats, samples, out, run.first_block + b, start,
                        min(run.n_items, start + run.block_size))
