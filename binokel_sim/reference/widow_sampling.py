"""Twin of the widow games' sampling policy (``kernels/widow/knowledge.py`` and
``kernels/strict/tricks.py``, ``strict_sampling_card``), written out plainly: what the table knows as a
record of public facts (shown melds, the shown widow, the demand, every trick), each seat's view
of it derived afresh at every decision, the sampler's twin
(:func:`binokel_sim.reference.sampler.sample_counts` with its :class:`Bound`) and play-outs by
the heuristic (:func:`binokel_sim.reference.widow_policy.card`) scored by
:func:`binokel_sim.reference.widow_score.score_deal`. Imports no kernel.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from binokel_sim.cards import N_TYPES, type_rank
from binokel_sim.meld_rules import shown_cards
from binokel_sim.reference import widow_policy as policy
from binokel_sim.reference.core import Stream, inferring
from binokel_sim.reference.play import legal_cards, trick_winner
from binokel_sim.reference.sampler import Bound, sample_counts, ways_from
from binokel_sim.reference.sampling import excluded_after
from binokel_sim.reference.widow_score import Trick, score_deal, side_of, trick_card_points
from binokel_sim.variants import Rules

ALL = (1 << N_TYPES) - 1


@dataclass
class Table:
    """A widow deal as the table sees it once trump is named, plus the two private facts the
    view of a seat may use (the soloist's buried cards, the card given back)."""

    rules: Rules
    soloist: int
    bid: int
    trump: int
    melds: list[int]
    widow: list[int]  # counts per type, shown to everybody
    demand: tuple[int, int, int] | None  # (card, holder, given): card and holder public
    buried: list[int]  # counts per type: the soloist's secret
    shown: list[list[int]]  # per seat, the meld cards shown (counts per type)
    excluded: list[set] = field(default_factory=list)  # per seat, types it cannot hold
    played_by: list[list[int]] = field(default_factory=list)
    tricks: list = field(default_factory=list)  # the finished tricks (widow_score.Trick)
    inference: str = "full"  # what a sampling seat's deals respect of ``excluded`` (inferring)


def start_table(rules: Rules, cards: list[list[int]], soloist: int, bid: int, trump: int,
                melds: list[int], widow: list[int], demand, buried: list[int],
                inference: str = "full") -> Table:
    """The table as the first trick starts: ``cards`` the hands after the exchange and the
    burying. Every seat shows its melds; the seats after the soloist and before the holder
    (clockwise) showed by not answering that they hold no copy of the demanded card."""
    players = rules.players
    table = Table(rules, soloist, bid, trump, list(melds), list(widow), demand, list(buried),
                  [shown_cards(rules, cards[s], trump) for s in range(players)],
                  [set() for _ in range(players)], [[0] * N_TYPES for _ in range(players)],
                  inference=inference)
    if demand is not None:
        card, holder, _ = demand
        seat = (soloist + 1) % players
        while seat != holder:
            table.excluded[seat].add(card)
            seat = (seat + 1) % players
    return table


def note_card(table: Table, seat: int, card: int, trick: list[int]) -> None:
    """``seat`` played ``card`` to ``trick`` (the cards before it)."""
    if trick:
        table.excluded[seat] |= excluded_after(card, trick, table.trump)
    table.played_by[seat][card] += 1


def view(table: Table, seat: int, hands: list[list[int]]):
    """What ``seat`` cannot see, for the sampler: ``(others, held, pool, allowed, capacity,
    bound)``: the other seats from its left; per seat the copies it is known to hold (its shown
    cards not played since; for the soloist also the card he gave back, in the holder's hand
    until the holder plays that type); per type the unseen copies to place; per group (the
    other seats, then the buried cards unless ``seat`` is the soloist) the types it may hold and
    its cards not known; and the sampler's :class:`Bound` (None for the soloist). Reads of the
    other hands only their sizes."""
    rules, players = table.rules, table.rules.players
    others = [(seat + g) % players for g in range(1, players)]
    held = [[max(table.shown[s][t] - table.played_by[s][t], 0) for t in range(N_TYPES)]
            for s in range(players)]
    if table.demand is not None and seat == table.soloist:
        _, holder, given = table.demand
        if table.played_by[holder][given] == 0:
            held[holder][given] = max(held[holder][given], 1)
    played = [sum(table.played_by[s][t] for s in range(players)) for t in range(N_TYPES)]
    deck = rules.deck_counts()  # a type the deck lacks has no copy to place
    pool = [int(deck[t]) - hands[seat][t] - played[t] - sum(held[s][t] for s in others)
            for t in range(N_TYPES)]
    excluded = (table.excluded if inferring(table.inference, seat, table.soloist)
                else [set()] * players)  # the ablation: the play's inferences ignored
    allowed = [ALL & ~sum(1 << t for t in excluded[s]) for s in others]
    capacity = [sum(hands[s]) - sum(held[s]) for s in others]
    if seat == table.soloist:
        pool = [pool[t] - table.buried[t] for t in range(N_TYPES)]
        if min(pool) < 0:
            raise ValueError("sampling policy: the known cards do not add up")
        return others, held, pool, allowed, capacity, None
    if min(pool) < 0:
        raise ValueError("sampling policy: the known cards do not add up")
    solo = table.soloist
    # the soloist's hand and buried cards hold the widow and the demanded card, less what he
    # has played of them; the holder knows the card he got back may be one of them
    lower = []
    for t in range(N_TYPES):
        shown_widow = table.widow[t] + (table.demand is not None and table.demand[0] == t)
        mine = table.demand is not None and seat == table.demand[1] and table.demand[2] == t
        lower.append(max(shown_widow - table.played_by[solo][t], 0) - held[solo][t] - mine)
    holder, given, known_held, slack = -1, 0, 0, False
    if table.demand is not None and seat != table.demand[1]:
        card, h, _ = table.demand
        holder = others.index(h)
        given = ALL & ~(1 << card)
        known_held = sum(1 << t for t in range(N_TYPES)
                         if held[h][t] > 0 or table.played_by[h][t] > 0)
        slack = True
    demanded = table.demand[0] if table.demand is not None else -1  # he held none before
    bound = Bound(lower, others.index(solo), len(others), holder, given, known_held, slack,
                  demanded)
    return (others, held, pool, allowed + [ALL], capacity + [sum(table.buried)], bound)


def sampling_card(table: Table, hands: list[list[int]], seat: int, trick: list[int], leader: int,
                  played: list[int], n_samples: int, stream: Stream) -> int:
    """The sampling seat's card: ``n_samples`` consistent deals of what it cannot see
    (:func:`view`), every legal type played on each and the deal finished by the heuristic; the
    type with the best total of :func:`side_value`, the lowest on a tie. A single legal type is
    played without sampling."""
    rules = table.rules
    legal = sorted(legal_cards(hands[seat], trick, table.trump))
    if len(legal) == 1:
        return legal[0]
    others, held, pool, allowed, capacity, bound = view(table, seat, hands)
    memo: dict = {}
    start = bool(bound and bound.slack)
    if sum(pool) != sum(capacity) or ways_from(0, tuple(capacity), pool, allowed, memo, bound,
                                               start) == 0:
        raise ValueError("sampling policy: no deal fits what the table knows")
    totals = dict.fromkeys(legal, 0)
    for _ in range(n_samples):
        split = sample_counts(pool, allowed, capacity, stream, memo, bound)
        sample = [list(h) for h in hands]
        for g, s in enumerate(others):
            sample[s] = [split[g][t] + held[s][t] for t in range(N_TYPES)]
        buried = split[len(others)] if seat != table.soloist else table.buried
        buried_points = sum(buried[t] * rules.rank_points[type_rank(t)] for t in range(N_TYPES))
        for card in legal:
            totals[card] += side_value(table, play_out([list(h) for h in sample], table, seat,
                                                       card, trick, leader, played),
                                       seat, buried_points)
    return max(legal, key=lambda t: (totals[t], -t))


def play_out(hands: list[list[int]], table: Table, seat: int, card: int, trick: list[int],
             leader: int, played: list[int]) -> list:
    """Every trick of the deal when ``seat`` plays ``card`` to ``trick`` and every seat then
    plays the heuristic: the table's finished tricks and the rest."""
    rules, trump = table.rules, table.trump
    players = rules.players
    tricks = list(table.tricks)
    cards = list(trick) + [card]
    hands[seat][card] -= 1
    played = list(played)
    while True:
        while len(cards) < players:
            s = (leader + len(cards)) % players
            c = policy.card(rules, hands[s], cards, leader, played, trump)
            hands[s][c] -= 1
            cards.append(c)
        for c in cards:
            played[c] += 1
        winner = (leader + trick_winner(cards, trump)) % players
        tricks.append(Trick(leader, cards, winner))
        if len(tricks) == rules.hand_size:
            return tricks
        leader, cards = winner, []


def side_value(table: Table, tricks: list, seat: int, buried_points: int) -> int:
    """The deal's score (:func:`~binokel_sim.reference.widow_score.score_deal`, the buried
    cards' ``buried_points`` to the soloist) of ``seat``'s side times the number of other sides,
    less the other sides' scores."""
    rules = table.rules
    points = trick_card_points(rules, tricks)
    points[table.soloist] += buried_points
    scores = score_deal(rules, table.soloist, table.bid, table.melds, points, tricks).side_scores
    own = side_of(rules, seat)
    return (len(scores) - 1) * scores[own] - sum(v for i, v in enumerate(scores) if i != own)
