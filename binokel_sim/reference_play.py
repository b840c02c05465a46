"""Slow, obvious pure-Python twins of the trick kernels (:mod:`binokel_sim.kernels.tricks`).

For tests and the baseline of ``benchmarks/bench_playout.py``. No bit tricks and no numba: a hand
is a list of 24 counts (copies held of each card type), a trick is a list of card types in play
order, and every rule is written the way SPEC.md states it ("Must-head obligation", "Trick
winner", "Scoring a played deal"). Only the random policy has a twin (the heuristic is checked
for legality, not replayed).

The random choices are made by a ``pick(n)`` callable returning an integer in ``[0, n)``; the
play-out picks the ``k``-th of the distinct legal card types in ascending type order and calls
``pick`` only when at least two types are legal, exactly like the kernel's random policy.
:func:`stream_pick` makes such a callable from a :class:`binokel_sim.reference.Stream`, which
reproduces the kernel's ``below(state, n)`` draws, so a kernel play-out and a reference play-out
fed the same stream must agree card for card.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from binokel_sim.cards import N_SUITS, N_TYPES, type_rank, type_suit
from binokel_sim.reference import Stream, deal_hand, may_name, meld_total
from binokel_sim.variants import Rules

Pick = Callable[[int], int]


def legal_cards(hand: list[int], trick: list[int], trump: int) -> list[int]:
    """The card types (ascending, each once) the hand may play to ``trick`` under the must-head
    obligation (SPEC.md "Must-head obligation"). An empty trick: any card."""
    held = [t for t in range(N_TYPES) if hand[t] > 0]
    if not trick:
        return held
    led = type_suit(trick[0])
    my_led = [t for t in held if type_suit(t) == led]
    my_trumps = [t for t in held if type_suit(t) == trump]
    trumps_in_trick = [type_rank(t) for t in trick if type_suit(t) == trump]
    led_in_trick = [type_rank(t) for t in trick if type_suit(t) == led]

    if my_led:  # 1. holding the led suit
        if led == trump:
            higher = [t for t in my_led if type_rank(t) > max(trumps_in_trick)]
            return higher or my_led
        if not trumps_in_trick:
            higher = [t for t in my_led if type_rank(t) > max(led_in_trick)]
            return higher or my_led
        return my_led  # the trick has been trumped
    if my_trumps:  # 2. void in the led suit, holding trump
        if not trumps_in_trick:
            return my_trumps
        higher = [t for t in my_trumps if type_rank(t) > max(trumps_in_trick)]
        return higher or my_trumps
    return held  # 3. anything


def trick_winner(trick: list[int], trump: int) -> int:
    """Index in play order of the winning card: the highest trump; if none, the highest card of
    the led suit; ties go to the card played first (SPEC.md "Trick winner")."""
    led = type_suit(trick[0])
    trumps = [i for i, t in enumerate(trick) if type_suit(t) == trump]
    contenders = trumps if trumps else [i for i, t in enumerate(trick) if type_suit(t) == led]
    best = max(type_rank(trick[i]) for i in contenders)
    return min(i for i in contenders if type_rank(trick[i]) == best)


class Trick(NamedTuple):
    leader: int  # seat that led
    cards: list[int]  # card types in play order (seat leader, leader+1, ...)
    winner: int  # seat that won


def stream_pick(stream: Stream) -> Pick:
    """``pick(n)`` drawing like the kernel's ``below(state, n)``: 32 high bits, Lemire's
    multiply-shift with rejection."""
    return lambda n: stream.bounded(stream.next_u64() >> 32, n)


def play_out(hands: list[list[int]], leader: int, trump: int, rules: Rules,
             pick: Pick) -> tuple[tuple[int, int], list[Trick]]:
    """Play every trick with the random policy on all seats.

    ``hands``: four hands as counts per card type (consumed). Returns the play points of the
    pairs (seats 0+2, seats 1+3), counters plus ``rules.last_trick`` for the last trick, and the
    tricks.
    """
    points = [0, 0]
    tricks = []
    n_tricks = sum(hands[leader])
    for _ in range(n_tricks):
        cards = []
        for i in range(4):
            seat = (leader + i) % 4
            legal = legal_cards(hands[seat], cards, trump)
            card = legal[pick(len(legal))] if len(legal) > 1 else legal[0]
            hands[seat][card] -= 1
            cards.append(card)
        winner = (leader + trick_winner(cards, trump)) % 4
        points[winner % 2] += sum(rules.rank_points[type_rank(t)] for t in cards)
        tricks.append(Trick(leader, cards, winner))
        leader = winner
    points[tricks[-1].winner % 2] += rules.last_trick
    return (points[0], points[1]), tricks


def score_deal(bidder_pair_meld: int, opp_meld: int, bidder_has_marriage_in_trump: bool, bid: int,
               play_bidder: int, play_opp: int, min_meld: int = 20,
               min_play: int = 20) -> tuple[int, int]:
    """(bidding pair's score, opponents' score) per SPEC.md "Scoring a played deal"."""
    if not bidder_has_marriage_in_trump or bidder_pair_meld < min_meld:
        return -bid, 0  # automatic loss before any trick is played
    meld_counts = play_bidder >= min_play and bidder_pair_meld >= min_meld
    total = play_bidder + (bidder_pair_meld if meld_counts else 0)
    bidder_score = total if total >= bid else -bid
    if play_opp >= min_play:
        opp_score = play_opp + (opp_meld if opp_meld >= min_meld else 0)
    else:
        opp_score = 0
    return bidder_score, opp_score


def benchmark_trump(rules: Rules, counts: list[int]) -> int:
    """The suit with the best meld total among the suits the hand may name (the lowest on a tie),
    else suit 0: the trump of the play-out driver's benchmark convention."""
    best, best_total = 0, -1
    for suit in range(N_SUITS):
        if may_name(rules, counts, suit):
            total = meld_total(rules, counts, suit)
            if total > best_total:
                best, best_total = suit, total
    return best


def playout_deals(rules: Rules, n_deals: int, seed: int, block_size: int,
                  first_block: int = 0) -> list[tuple[int, int, int]]:
    """Twin of ``kernels.tricks.playout_blocks`` with the random policy on every seat:
    ``(play of 0+2, play of 1+3, trump)`` per deal. Block streams and the carried deck
    permutation as in the kernel; seats 0-2 are dealt by partial shuffles, seat 3 takes the rest;
    seat 0 leads."""
    deck = [t for t in range(N_TYPES) for _ in range(int(rules.deck_counts()[t]))]
    size = rules.hand_size
    results = []
    for d in range(n_deals):
        if d % block_size == 0:
            stream = Stream(seed, first_block + d // block_size)
            work = list(deck)
        hands = [deal_hand(work, seat * size, size, stream) for seat in range(3)]
        last = [0] * N_TYPES
        for t in work[3 * size:]:
            last[t] += 1
        hands.append(last)
        trump = benchmark_trump(rules, hands[0])
        (play0, play1), _ = play_out(hands, 0, trump, rules, stream_pick(stream))
        results.append((play0, play1, trump))
    return results
