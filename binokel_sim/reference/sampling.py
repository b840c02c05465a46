"""Twin of :mod:`binokel_sim.kernels.partnership.sampling`: the sampling policy of four-hand-80 and the play
loop that keeps what the table knows, written out plainly (hands as lists of 24 counts, tricks as
lists of card types, knowledge as sets).

The sampler is :func:`binokel_sim.reference.sampler.sample_counts`, the random policy
:func:`binokel_sim.reference.play.stream_pick`, both reading one
:class:`~binokel_sim.reference.core.Stream` in the order the kernel reads its state, and the
play-outs are :func:`binokel_sim.reference.play.heuristic_card` on every seat; so a kernel deal
and its twin agree card for card.
"""

from __future__ import annotations

from binokel_sim.cards import N_TYPES, type_rank, type_suit
from binokel_sim.meld_rules import shown_cards
from binokel_sim.reference import endgame
from binokel_sim.reference.core import Stream, inferring
from binokel_sim.reference.play import (
    Trick,
    bid_samples,
    expert_knobs,
    heuristic_card,
    legal_cards,
    playout_deals,
    stream_pick,
    trick_winner,
)
from binokel_sim.reference.sampler import sample_counts
from binokel_sim.variants import Rules

RANDOM, HEURISTIC, SAMPLING, EXPERT = "random", "heuristic", "sampling", "expert"


def suit_cards(suit: int) -> set[int]:
    return {t for t in range(N_TYPES) if type_suit(t) == suit}


def excluded_after(card: int, trick: list[int], trump: int) -> set[int]:
    """The card types a player who followed ``trick`` (the cards before his, at least one) with
    ``card`` cannot hold any more, by SPEC.md "Must-head obligation": not following shows a void
    in the led suit, neither following nor trumping a void in trump too; a card of the suit the
    rule made him play (the led suit, or trump when void) that does not head the trick while the
    trick is held in that suit shows he holds none of its cards above the holding card."""
    led = type_suit(trick[0])
    suit = type_suit(card)
    out: set[int] = set()
    if suit != led:
        out |= suit_cards(led)
        if suit != trump:
            out |= suit_cards(trump)
    pool = led if suit == led else (trump if suit == trump else None)
    holding = trick[trick_winner(trick, trump)]
    heads = type_suit(holding) == suit and type_rank(card) > type_rank(holding)
    if pool is not None and type_suit(holding) == pool and not heads:
        out |= {t for t in suit_cards(pool) if type_rank(t) > type_rank(holding)}
    return out


def _points(rules: Rules, cards: list[int]) -> int:
    return sum(rules.rank_points[type_rank(t)] for t in cards)


def _unseen(hands: list[list[int]], seat: int) -> set[int]:
    return {t for s in range(4) if s != seat for t in range(N_TYPES) if hands[s][t]}


def _shows_voids(voids: set, seat: int, card: int, led: int, trump: int) -> None:
    if type_suit(card) != led:
        voids.add((seat, led))
        if type_suit(card) != trump:
            voids.add((seat, trump))


def holding(cards: list[int], leader: int, trump: int) -> tuple[int, int, int]:
    """``(card holding the trick, its seat, led suit)`` of a trick led by ``leader`` holding
    ``cards``; ``(0, leader, 0)`` before the lead (the heuristic ignores them then)."""
    if not cards:
        return 0, leader, 0
    w = trick_winner(cards, trump)
    return cards[w], (leader + w) % 4, type_suit(cards[0])


def heuristic_rest(rules: Rules, hands: list[list[int]], leader: int, trick: list[int], k: int,
                   n_tricks: int, trump: int, bidder: int, voids: set,
                   knobs: dict[str, int] | None = None) -> list[int]:
    """Play trick ``k`` (``trick`` its cards so far, led by ``leader``) and every later trick with
    the heuristic on every seat (with ``knobs``: the expert's, :func:`~binokel_sim.reference.
    play.expert_knobs`); ``hands``, ``voids`` consumed. Play points of the pairs from trick ``k``
    on, the last trick's bonus included. The expert's knowledge of who may hold what (its knob
    ``infer``) starts from nothing at trick ``k``'s first card played here."""
    points, leader = heuristic_until(rules, hands, leader, trick, k, n_tricks, n_tricks, trump,
                                     bidder, voids, knobs)
    points[leader % 2] += rules.last_trick
    return points


def heuristic_until(rules: Rules, hands: list[list[int]], leader: int, trick: list[int], k: int,
                    stop: int, n_tricks: int, trump: int, bidder: int, voids: set,
                    knobs: dict[str, int] | None = None) -> tuple[list[int], int]:
    """:func:`heuristic_rest`'s tricks ``k .. stop - 1`` only, no bonus: the pairs' play points
    and the seat to lead trick ``stop``."""
    counters = {t for t in range(N_TYPES) if rules.rank_points[type_rank(t)] > 0}
    points = [0, 0]
    excluded: list[set[int]] = [set() for _ in range(4)]
    for j in range(k, stop):
        cards = list(trick) if j == k else []
        for i in range(len(cards), 4):
            seat = (leader + i) % 4
            legal = legal_cards(hands[seat], cards, trump)
            win_card, win_seat, led = holding(cards, leader, trump)
            card = heuristic_card(hands[seat], legal, _unseen(hands, seat), voids, seat, i, led,
                                  win_card, win_seat, j, n_tricks, trump, bidder, counters,
                                  knobs, excluded)
            if cards:
                excluded[seat] |= excluded_after(card, cards, trump)
                _shows_voids(voids, seat, card, led, trump)
            hands[seat][card] -= 1
            cards.append(card)
        leader = (leader + trick_winner(cards, trump)) % 4
        points[leader % 2] += _points(rules, cards)
    return points, leader


def heuristic_playout_deals(rules: Rules, n_deals: int, seed: int, block_size: int,
                            first_block: int = 0) -> list[tuple[int, int, int]]:
    """Twin of ``kernels.partnership.tricks.playout_blocks`` with the heuristic on every seat (seat 0 leads
    and is the bidder): :func:`binokel_sim.reference.play.playout_deals` played by
    :func:`heuristic_rest`."""
    return playout_deals(rules, n_deals, seed, block_size, first_block,
                         play=lambda hands, trump: tuple(heuristic_rest(
                             rules, hands, 0, [], 0, rules.hand_size, trump, 0, set())))


def heuristic_bid_samples(rules: Rules, counts: list[int], n_samples: int, seed: int,
                          trumps: list[int], block_size: int, first_block: int = 0,
                          knobs: dict[str, int] | None = None
                          ) -> list[list[tuple[int, int, int]]]:
    """Twin of ``kernels.partnership.deals.bid_sample_blocks`` with the heuristic on every seat (seat 0,
    the bid winner, leads; with ``knobs`` the expert): :func:`binokel_sim.reference.play.
    bid_samples` played by :func:`heuristic_rest`."""
    return bid_samples(rules, counts, n_samples, seed, trumps, block_size, first_block,
                       play=lambda hands, trump: tuple(heuristic_rest(
                           rules, hands, 0, [], 0, rules.hand_size, trump, 0, set(), knobs)))


def sampling_card(rules: Rules, hands: list[list[int]], seat: int, legal: list[int], leader: int,
                  trick: list[int], k: int, n_tricks: int, trump: int, bidder: int, voids: set,
                  excluded: list[set], played: list[int], shown: list[list[int]],
                  played_by: list[list[int]], n_samples: int, stream: Stream,
                  exact: int = 0) -> int:
    """The sampling policy's card: ``n_samples`` deals of the cards ``seat`` cannot see, each
    other seat getting the cards it showed in meld and has not played since and as many more
    as it holds, only of types not in its ``excluded`` set (the sampler's twin, the same
    stream);
    per deal every legal type played and the deal finished by :func:`heuristic_rest`, or with
    ``exact`` above 0 by the heuristic until ``exact`` tricks are left and then by plain minimax
    (:func:`binokel_sim.reference.endgame.value`; within the last ``exact`` tricks every card
    is valued so, :func:`~binokel_sim.reference.endgame.move_values`); the type with the
    highest total of the seat's side's points, the lowest type on a tie."""
    if len(legal) == 1:
        return legal[0]
    deck = rules.deck_counts()
    others = [(seat + 1 + g) % 4 for g in range(3)]
    held = [[max(shown[s][t] - played_by[s][t], 0) for t in range(N_TYPES)] for s in range(4)]
    pool = [int(deck[t]) - played[t] - hands[seat][t] - sum(held[s][t] for s in others)
            for t in range(N_TYPES)]
    allowed = [sum(1 << t for t in range(N_TYPES) if t not in excluded[s]) for s in others]
    capacity = [sum(hands[s]) - sum(held[s]) for s in others]
    totals = dict.fromkeys(legal, 0)
    card_points = [rules.rank_points[type_rank(t)] for t in range(N_TYPES)]
    ours = {s for s in range(4) if s % 2 == seat % 2}
    memo: dict = {}
    for _ in range(n_samples):
        split = sample_counts(pool, allowed, capacity, stream, memo)
        sample = [list(h) for h in hands]
        for g, s in enumerate(others):
            sample[s] = [split[g][t] + held[s][t] for t in range(N_TYPES)]
        if exact and n_tricks - k <= exact:
            values = endgame.move_values(sample, leader, list(trick), trump, card_points,
                                         rules.last_trick, ours)
            for card in legal:
                totals[card] += values[card]
            continue
        for card in sorted(legal):
            copy = [list(h) for h in sample]
            cards = list(trick)
            rest_voids = set(voids)
            if cards:
                _shows_voids(rest_voids, seat, card, type_suit(cards[0]), trump)
            copy[seat][card] -= 1
            if not exact:
                points = heuristic_rest(rules, copy, leader, cards + [card], k, n_tricks, trump,
                                        bidder, rest_voids)
                totals[card] += points[seat % 2]
                continue
            stop = max(k + 1, n_tricks - exact)
            points, lead = heuristic_until(rules, copy, leader, cards + [card], k, stop,
                                           n_tricks, trump, bidder, rest_voids)
            totals[card] += points[seat % 2] + endgame.value(
                copy, lead, [], trump, card_points, rules.last_trick, ours)
    return min(legal, key=lambda c: (-totals[c], c))


def play_known(rules: Rules, hands: list[list[int]], leader: int, trump: int,
               policies: list[str], n_samples: int, stream: Stream, inference: str = "full",
               exact: int = 0) -> tuple[tuple[int, int], list[Trick]]:
    """Twin of ``kernels.partnership.sampling.play_known``: every trick, each seat its policy
    (:data:`RANDOM`, :data:`HEURISTIC`, :data:`EXPERT`, :data:`SAMPLING`), the bid winner
    ``leader`` leading the
    first; ``hands`` consumed. Every seat shows its melds
    (:func:`binokel_sim.meld_rules.shown_cards`) before the first trick; a sampling seat's deals
    respect the excluded types as ``inference`` says (:func:`inferring`). Returns the pairs'
    play points and the tricks."""
    pick = stream_pick(stream)
    counters = {t for t in range(N_TYPES) if rules.rank_points[type_rank(t)] > 0}
    expert = expert_knobs(rules)
    bidder = leader
    n_tricks = sum(hands[leader])
    voids: set = set()
    excluded: list[set] = [set() for _ in range(4)]
    played = [0] * N_TYPES
    shown = [shown_cards(rules, hands[s], trump) for s in range(4)]
    played_by = [[0] * N_TYPES for _ in range(4)]
    points = [0, 0]
    tricks = []
    for k in range(n_tricks):
        cards: list[int] = []
        for i in range(4):
            seat = (leader + i) % 4
            legal = legal_cards(hands[seat], cards, trump)
            win_card, win_seat, led = holding(cards, leader, trump)
            if policies[seat] == RANDOM:
                card = legal[pick(len(legal))] if len(legal) > 1 else legal[0]
            elif policies[seat] in (HEURISTIC, EXPERT):
                card = heuristic_card(hands[seat], legal, _unseen(hands, seat), voids, seat, i,
                                      led, win_card, win_seat, k, n_tricks, trump, bidder,
                                      counters, expert if policies[seat] == EXPERT else None,
                                      excluded)
            else:
                seen = excluded if inferring(inference, seat, bidder) else [set()] * 4
                card = sampling_card(rules, hands, seat, legal, leader, cards, k, n_tricks,
                                     trump, bidder, voids, seen, played, shown, played_by,
                                     n_samples, stream, exact)
            if cards:
                excluded[seat] |= excluded_after(card, cards, trump)
                _shows_voids(voids, seat, card, led, trump)
            hands[seat][card] -= 1
            played[card] += 1
            played_by[seat][card] += 1
            cards.append(card)
        winner = (leader + trick_winner(cards, trump)) % 4
        points[winner % 2] += _points(rules, cards)
        tricks.append(Trick(leader, cards, winner))
        leader = winner
    points[leader % 2] += rules.last_trick
    return (points[0], points[1]), tricks
