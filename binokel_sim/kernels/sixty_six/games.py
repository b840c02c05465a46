"""Sixty-six's contests and samples over the deal loop of :mod:`.deals`: the paired duel (every
deal played twice, the seats' policies swapped), whole games to a target (``match``) and the
samples of one hand (``deal-odds``). Each block driver takes named bundles:

``Game``, a match's game (ints):

- ``policy_a``, ``policy_b``: the two policies (kernel ids);
- ``target``: the game points that win a game (7);
- ``max_deals``: a game still open after this many deals is unfinished.

``Sample``, one hand's samples:

- ``hand`` int64: seat 0's hand (a card-type mask);
- ``turned``: the turned trump (a card type);
- ``dealer``: the dealer's seat (0: seat 0 deals, the other seat leads);
- ``unseen`` int64 (17,): the other cards (the other seat's six and the stock's other eleven),
  ascending.

Random streams: block ``first_block + i // block_size`` for item ``i``, the permutation carried
within a block (the deck for duels and games, ``unseen`` for samples). A duel's deal: the shuffle,
then the play with A on seat 0, then the play with A on seat 1, from the stream as it goes on. A
game: deal after deal (dealer ``number % 2`` first, alternating), each a shuffle and a play; A
sits on seat ``(number // 2) % 2``. A sample: the shuffle of ``unseen`` (16 positions), the
other seat's hand its first six, the stock the next eleven then the turned trump, the play.
"""

from collections import namedtuple

import numpy as np

from binokel_sim.kernels.deal import block_start, deal_sum
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.sixty_six.deals import (
    lay_out_deal,
    new_deals,
    new_finder,
    new_scratch,
    play_deal,
)
from binokel_sim.kernels.sixty_six.rules import HAND, STOCK, bit

Game = namedtuple("Game", ["policy_a", "policy_b", "target", "max_deals"])
Sample = namedtuple("Sample", ["hand", "turned", "dealer", "unseen"])


@njit
def replay_from(scratch, hands, stock):
    """Put the dealt ``hands`` and ``stock`` back into ``scratch`` (a play consumes them)."""
    scratch.hands[0] = hands[0]
    scratch.hands[1] = hands[1]
    for j in range(STOCK):
        scratch.stock[j] = stock[j]


@njit
def duel_block(table, run, policies, samples, diff_out, block, start, stop):
    """Deals ``start .. stop - 1`` of a paired duel from the stream of ``block``."""
    state, cards = block_start(table.deck, run.seed, block)
    work = cards.astype(np.uint64)
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    scratch = new_scratch()
    finder = new_finder()
    hands = np.zeros(2, dtype=np.int64)
    stock = np.zeros(STOCK, dtype=np.int64)
    one = new_deals(np.int64(1))
    seats = np.zeros(2, dtype=np.int64)
    for d in range(start, stop):
        _, s0, s1, s2, s3 = deal_sum(work, work.shape[0] - 1, s0, s1, s2, s3)
        dealer = (run.first_deal + d) % 2
        lay_out_deal(work, dealer, hands, stock)
        total = 0
        for a_seat in range(2):
            seats[a_seat] = policies[0]
            seats[1 - a_seat] = policies[1]
            replay_from(scratch, hands, stock)
            s0, s1, s2, s3 = play_deal(table, seats, scratch, dealer, one, np.int64(0),
                                       (s0, s1, s2, s3), samples, finder)
            points = one.result[0, 1]
            total += points if one.result[0, 0] == a_seat else -points
        diff_out[d] = total / 2.0


@njit
def sixty_six_duel_blocks(table, run, policies, samples, diff_out, share):
    """A paired duel of ``policies`` (int64 (2,): A's and B's kernel ids) over ``run.n_items``
    deals: per deal, A's game points minus B's, averaged over the two seatings, into
    ``diff_out`` float64 (n,). ``share``: this call's blocks (``simulate.spread_blocks``)."""
    for b in range(share[0], share[1]):
        start = b * run.block_size
        duel_block(table, run, policies, samples, diff_out, run.first_block + b, start,
                   min(run.n_items, start + run.block_size))


@njit
def match_block(table, run, game, samples, games_out, block, start, stop):
    """Games ``start .. stop - 1`` from the stream of ``block``."""
    state, cards = block_start(table.deck, run.seed, block)
    work = cards.astype(np.uint64)
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    scratch = new_scratch()
    finder = new_finder()
    one = new_deals(np.int64(1))
    seats = np.zeros(2, dtype=np.int64)
    for g in range(start, stop):
        number = run.first_deal + g
        a_seat = (number // 2) % 2
        seats[a_seat] = game.policy_a
        seats[1 - a_seat] = game.policy_b
        totals = np.zeros(2, dtype=np.int64)  # A's, B's
        deals = 0
        won = -1
        while deals < game.max_deals:
            _, s0, s1, s2, s3 = deal_sum(work, work.shape[0] - 1, s0, s1, s2, s3)
            dealer = (number + deals) % 2
            lay_out_deal(work, dealer, scratch.hands, scratch.stock)
            s0, s1, s2, s3 = play_deal(table, seats, scratch, dealer, one, np.int64(0),
                                       (s0, s1, s2, s3), samples, finder)
            deals += 1
            side = 0 if one.result[0, 0] == a_seat else 1
            totals[side] += one.result[0, 1]
            if totals[side] >= game.target:
                won = 1 if side == 0 else 0
                break
        games_out[g, 0] = won
        games_out[g, 1] = deals
        games_out[g, 2] = totals[0]
        games_out[g, 3] = totals[1]


@njit
def sixty_six_match_blocks(table, run, game, samples, games_out, share):
    """``run.n_items`` whole games of ``game`` (``Game``); ``games_out`` int64 (n, 4): A won
    (1/0, -1 unfinished), the deals played, A's game points, B's."""
    for b in range(share[0], share[1]):
        start = b * run.block_size
        match_block(table, run, game, samples, games_out, run.first_block + b, start,
                    min(run.n_items, start + run.block_size))


@njit
def sample_block(table, run, sample, seats, samples, out, block, start, stop):
    """Samples ``start .. stop - 1`` from the stream of ``block``."""
    state, cards = block_start(sample.unseen, run.seed, block)
    work = cards.astype(np.uint64)
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    scratch = new_scratch()
    finder = new_finder()
    for d in range(start, stop):
        _, s0, s1, s2, s3 = deal_sum(work, work.shape[0] - 1, s0, s1, s2, s3)
        other = np.int64(0)
        for j in range(HAND):
            other |= bit(np.int64(work[j]))
        scratch.hands[0] = sample.hand
        scratch.hands[1] = other
        for j in range(STOCK - 1):
            scratch.stock[j] = np.int64(work[HAND + j])
        scratch.stock[STOCK - 1] = sample.turned
        out.dealer[d] = sample.dealer
        out.hands[d, 0] = scratch.hands[0]
        out.hands[d, 1] = scratch.hands[1]
        for j in range(STOCK):
            out.stock[d, j] = scratch.stock[j]
        s0, s1, s2, s3 = play_deal(table, seats, scratch, sample.dealer, out, d,
                                   (s0, s1, s2, s3), samples, finder)


@njit
def sixty_six_sample_blocks(table, run, sample, seats, samples, out, share):
    """``run.n_items`` deals around one hand (``Sample``: seat 0's hand, the turned trump, the
    dealer, the unseen cards), played with ``seats``' policies, into ``out``
    (``SixtySixDeals``, the whole records)."""
    for b in range(share[0], share[1]):
        start = b * run.block_size
        sample_block(table, run, sample, seats, samples, out, run.first_block + b, start,
                     min(run.n_items, start + run.block_size))
