"""Slow, obvious pure-Python twin of the widow games' heuristic (``kernels/widow/deals.py``: the bid
limit, the demand, the card given back, burying, the trump; the card play is the talon
heuristic's strict play, :func:`binokel_sim.reference.talon_play.heuristic_card`).

Each decision is written as docs/rules.md ("Widow games", "Policies") states it, on hands as
counts per card type, with the meld of a hand computed afresh every time
(:func:`binokel_sim.reference.core.meld_total`); the kernel keeps melds it already knows and skips
the cards that cannot raise one, which must not change a single decision.
:mod:`binokel_sim.reference.widow` asks these functions for a heuristic seat's choices.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from binokel_sim.cards import (
    N_RANKS,
    N_SUITS,
    N_TYPES,
    RANK_9,
    RANK_A,
    RANK_J,
    RANK_K,
    RANK_Q,
    RANK_T,
    type_rank,
    type_suit,
)
from binokel_sim.constants import BETTEL_BID, CARDS_PER_TRUMP, DURCH_STEPS
from binokel_sim.reference.core import meld_total, meld_totals
from binokel_sim.reference.play import behind_partner
from binokel_sim.reference.play import legal_cards, trick_winner
from binokel_sim.reference.talon_play import (
    HEURISTIC_KNOBS,
    counter_types,
    expert_knobs,
    heuristic_card,
)
from binokel_sim.variants import Rules
from binokel_sim.widow_value import (
    NEVER,
    bid_estimate,
    bid_features,
    bid_table,
    estimate,
    features,
)
from binokel_sim.widow_value import concede_from as estimate_concede_from


def meld_of(rules: Rules, hand: list[int], trump: int | None) -> int:
    """The hand's meld with ``trump``, or the best over the four suits when ``trump`` is None."""
    if trump is None:
        return max(meld_totals(rules, hand))
    return meld_total(rules, hand, trump)


def bid_limit(rules: Rules, hand: list[int], shift: int = 0) -> int:
    """The highest bid of a heuristic seat (docs/rules.md "Policies"): its estimate before the
    Dabb (:func:`binokel_sim.widow_value.bid_estimate` of the hand's counts, the meld per trump
    computed afresh) looked up in :func:`binokel_sim.widow_value.bid_table` (clamped to it):
    the highest bid worth more than defending, ``NO_LIMIT`` when none is. An expert seat reads
    the table ``shift`` points of estimate higher (its knob ``bid_shift``)."""
    melds = meld_totals(rules, hand)
    estimate = bid_estimate(rules, bid_features(rules, hand, melds)) + shift
    low, limits = bid_table(rules)
    return int(limits[min(max(estimate - low, 0), len(limits) - 1)])


def concede_trump(rules: Rules, hand: list[int], buried: list[int]) -> int:
    """The trump a soloist who gives up names (docs/rules.md "Widow games", "Policies",
    *Abgehen*), from his ``hand`` after burying and his ``buried`` cards (copies per type)
    alone: per suit the copies of each rank he has not seen; the fewest of the scarcer of king
    and queen (the trump marriages the others can hold), then the fewest kings and queens, then
    the fewest aces, tens and unders (a Familie in trump), then the lower suit."""
    deck = rules.deck_counts()

    def key(suit: int) -> tuple[int, int, int, int]:
        unseen = {r: deck[suit * N_RANKS + r] - hand[suit * N_RANKS + r]
                  - buried[suit * N_RANKS + r] for r in range(N_RANKS)}
        k, q = unseen[RANK_K], unseen[RANK_Q]
        return min(k, q), k + q, unseen[RANK_A] + unseen[RANK_T] + unseen[RANK_J], suit

    return min(range(N_SUITS), key=key)


class Reserve(NamedTuple):
    """What holds an expert's call back besides its limit (docs/rules.md "Widow games",
    "Policies", *Bidding*): its knobs ``bid_open`` and ``bid_partner`` and its hand's best
    ``meld`` over the four suits before the Dabb."""

    open_margin: int
    partner_margin: int
    meld: int


def reserve(rules: Rules, hand: list[int], knobs: dict[str, int]) -> Reserve:
    """The :class:`Reserve` of a seat holding ``hand`` with the expert's ``knobs``."""
    return Reserve(knobs["bid_open"], knobs["bid_partner"], meld_of(rules, hand, None))


def willing(rules: Rules, limit: int, held: Reserve | None, seat: int, offer: int, first: bool,
            holder: int | None, still_in: list[bool]) -> bool:
    """Whether a seat bidding by its ``limit`` bids ``offer``: within the limit and, for an
    expert (``held``), not held back (:func:`holds_back`)."""
    return offer <= limit and not (held is not None and holds_back(
        rules, held, seat, offer, limit, first, holder, still_in))


def holds_back(rules: Rules, held: Reserve, seat: int, offer: int, limit: int, first: bool,
               holder: int | None, still_in: list[bool]) -> bool:
    """Whether the seat passes although ``offer`` is within its ``limit``: at its ``first`` call
    ("weg") when ``limit`` plus its meld falls short of ``offer`` plus ``bid_open``; in a partnership game with ``bid_partner`` > 0,
    when its partner holds the standing bid and no opponent is still in, or its limit is less
    than ``bid_partner`` points above the offer."""
    if first and limit + held.meld < offer + held.open_margin:
        return True
    return bool(rules.partnerships) and behind_partner(held.partner_margin, seat, offer, limit,
                                                       holder, still_in)



def suit_cards(hand: list[int], suit: int) -> int:
    """Cards of ``suit`` in the hand (copies counted)."""
    return sum(hand[t] for t in range(N_TYPES) if type_suit(t) == suit)


def demand(rules: Rules, hand: list[int]) -> int | None:
    """The card the heuristic soloist demands (his hand with the widow): of the card types of
    the deck he holds no copy of, the one that raises his best meld over the suits most, the
    lowest type on a tie; None when no card raises it, or when the rules have no demand."""
    if not rules.widow_demand:
        return None
    deck = rules.deck_counts()
    best, chosen = meld_of(rules, hand, None), None
    for t in range(N_TYPES):
        if deck[t] == 0 or hand[t] > 0:
            continue
        with_t = list(hand)
        with_t[t] += 1
        gain = meld_of(rules, with_t, None)
        if gain > best:
            best, chosen = gain, t
    return chosen


def cheapest_loss(rules: Rules, hand: list[int], candidates: list[int], order: list[int],
                  trump: int | None) -> int:
    """The card of ``candidates`` the heuristic parts with: in ``order``, the first whose loss
    leaves the meld (with ``trump``, or the best over the suits when None) as it is; when every
    one costs meld, the one that keeps it highest, the first in ``order`` on a tie."""
    whole = meld_of(rules, hand, trump)
    melds = {}
    for t in order:
        if t not in candidates:
            continue
        without = list(hand)
        without[t] -= 1
        melds[t] = meld_of(rules, without, trump)
        if melds[t] >= whole:
            return t
    return max(melds, key=lambda t: (melds[t], -order.index(t)))


def give_back_order(rules: Rules) -> list[int]:
    """The order for the card given back after a demand: the fewest card points first, then the
    lowest type."""
    return sorted(range(N_TYPES), key=lambda t: (rules.rank_points[type_rank(t)], t))


def bury_order(rules: Rules, trump: int, aces_last: bool = False) -> list[int]:
    """The order for burying: no trump before a trump, then (with ``aces_last``, the expert's
    knob ``bury_aces_last``) every other card before an ace, then the most card points, then
    the lowest type."""
    return sorted(range(N_TYPES), key=lambda t: (type_suit(t) == trump,
                                                 aces_last and type_rank(t) == RANK_A,
                                                 -rules.rank_points[type_rank(t)], t))


def give_back(rules: Rules, hand: list[int], demanded: int) -> int:
    """The card the soloist gives back: any type he holds but the demanded one, by
    :func:`cheapest_loss` on the best meld over the suits."""
    candidates = [t for t in range(N_TYPES) if hand[t] > 0 and t != demanded]
    return cheapest_loss(rules, hand, candidates, give_back_order(rules), None)


def trump(rules: Rules, hand: list[int]) -> int:
    """The suit the heuristic soloist names (before burying): the highest meld with it as trump
    plus ``CARDS_PER_TRUMP`` per card of it, the first suit (S H D C) on a tie."""
    values = [meld_total(rules, hand, s) + CARDS_PER_TRUMP * suit_cards(hand, s)
              for s in range(N_SUITS)]
    return values.index(max(values))


def void_first(hand: list[int], trump: int, limit: int, order: list[int]) -> list[int]:
    """The expert's knob ``bury_void`` (``limit`` > 0): the ten, king, queen, jack and nine of
    every side suit of which ``hand`` holds 1 to ``limit`` cards come first (a suit without a held
    ace before one with, then the fewest cards, then the lower suit), then ``order``."""
    def length(s: int) -> int:
        return sum(hand[s * N_RANKS + r] for r in range(N_RANKS))

    suits = sorted((s for s in range(N_SUITS) if s != trump and 0 < length(s) <= limit),
                   key=lambda s: (hand[s * N_RANKS + RANK_A] > 0, length(s), s))
    first = [s * N_RANKS + r for s in suits for r in (RANK_T, RANK_K, RANK_Q, RANK_J, RANK_9)]
    return first + [t for t in order if t not in first]


def burial(rules: Rules, hand: list[int], trump_suit: int, aces_last: bool = False,
           void: int = 0) -> int:
    """One card the soloist buries: any type he holds, by :func:`cheapest_loss` on the meld with
    the trump he named (in :func:`bury_order`'s order; with ``void`` > 0, :func:`void_first`'s)."""
    candidates = [t for t in range(N_TYPES) if hand[t] > 0]
    order = bury_order(rules, trump_suit, aces_last)
    if void > 0:
        order = void_first(hand, trump_suit, void, order)
    return cheapest_loss(rules, hand, candidates, order, trump_suit)


def card(rules: Rules, hand: list[int], trick: list[int], leader: int, played: list[int],
         trump_suit: int, expert: bool = False, soloist: int = -1) -> int:
    """The card a heuristic seat plays to ``trick`` (led by ``leader``; ``played`` counts the
    cards of the deal's tricks so far): the talon heuristic's strict play (S1-S3); with
    ``expert`` with the expert's knobs, by which a defender (not ``soloist``) may count the other
    defender as his partner (knob ``team``)."""
    seat_index = len(trick)
    seat = (leader + seat_index) % rules.players
    legal = set(legal_cards(hand, trick, trump_suit))
    led = type_suit(trick[0]) if trick else -1
    taking = trick_winner(trick, trump_suit) if trick else -1
    win_card = trick[taking] if trick else -1
    win_seat = (leader + taking) % rules.players if trick else leader
    knobs = expert_knobs(rules) if expert else HEURISTIC_KNOBS
    team = bool(knobs["team"]) and soloist >= 0 and seat != soloist and win_seat != soloist
    partner_wins = seat_index > 0 and ((bool(rules.partnerships) and win_seat == seat ^ 2)
                                       or team)
    counters = counter_types(rules)
    points = sum(rules.rank_points[type_rank(t)] for t in trick)
    return heuristic_card(legal, hand, played, rules.copies, False, seat_index, led, win_card,
                          partner_wins, seat_index == rules.players - 1, points, 0, trump_suit,
                          counters, knobs)


def concede_from(rules: Rules, hand: list[int], trump: int, meld: int, buried: list[int]) -> int:
    """The smallest bid at which the heuristic (or sampling) soloist holding ``hand`` after
    burying ``buried``, with ``trump`` and his ``meld``, gives up before the first lead
    (Abgehen, docs/rules.md): the first bid at which playing is expected to score less than
    giving up, by his estimate of the side's total (:mod:`binokel_sim.widow_value`); ``NEVER``
    where the rules have no Abgehen."""
    if not rules.widow_concede:
        return NEVER
    return estimate_concede_from(rules, meld, features(rules, hand, trump, buried))


def sure_durch(rules: Rules, hand: list[int], others: list[int], leads: bool) -> bool:
    """Whether the soloist holding ``hand`` (after burying) takes every trick without trump
    whatever the others, holding ``others`` between them, do (docs/rules.md, "Policies",
    Durch). Suit by suit: he leads his cards from the highest, so each of them wins while it
    ranks at or above every card the others still hold of the suit (the first played wins a
    tie), and the suit is exhausted for them after as many leads as they hold cards of it; if
    they may lead the first trick (``leads`` false), he must also beat the highest card of every
    suit they hold, strictly."""
    for suit in range(N_SUITS):
        mine = sorted((type_rank(t) for t in range(N_TYPES) if type_suit(t) == suit
                       for _ in range(hand[t])), reverse=True)
        theirs = [type_rank(t) for t in range(N_TYPES) if type_suit(t) == suit
                  for _ in range(others[t])]
        if not theirs:
            continue
        highest = max(theirs)
        if any(rank < highest for rank in mine[:len(theirs)]):
            return False
        if not leads and (not mine or mine[0] <= highest):
            return False
    return True


def durch_card(legal: list[int]) -> int:
    """The Durch soloist's card: the highest-ranked legal card type, of the lowest suit on a
    tie."""
    return min(legal, key=lambda t: (-type_rank(t), type_suit(t)))


def durch_steps(hand: list[int], others: list[int], leads: bool) -> int:
    """How far ``hand`` (after burying) is from a sure Durch against ``others``, the cards the
    other seats hold between them, his partner's among them (0: :func:`sure_durch`;
    docs/rules.md "Policies", *Durch*): per suit they hold, the tricks he would lose leading it
    from the top (``min(n, m)`` less his cards at or above their highest, none below 0) and,
    where he does not lead the first trick, 1 when he cannot head a first lead of the suit."""
    steps = 0
    for suit in range(N_SUITS):
        mine = [hand[t] for t in range(N_TYPES) if type_suit(t) == suit]
        theirs = [others[t] for t in range(N_TYPES) if type_suit(t) == suit]
        n, m = sum(mine), sum(theirs)
        if m == 0:
            continue
        top_out = max(r for r in range(len(theirs)) if theirs[r])
        steps += max(0, min(n, m) - sum(mine[top_out:]))
        if not leads and (n == 0 or max(r for r in range(len(mine)) if mine[r]) <= top_out):
            steps += 1
    return steps


def declares_durch(rules: Rules, hand: list[int], others: list[int], leads: bool, meld: int,
                   trump: int, buried: list[int], worlds: int = 0,
                   odds: Callable[[int], tuple[int, int]] | None = None) -> bool:
    """Whether the soloist declares Durch where the rules allow it: a sure Durch
    (:func:`sure_durch`) when counting is worth less than the Durch's 1000 (1500 open): his
    estimate of the total from counting (:func:`binokel_sim.widow_value.estimate`) plus the
    bonus for every trick (``rules.all_tricks_bonus``), which a hand that sure would take
    counting too. With ``worlds`` > 0 (the expert's knob ``durch_worlds``) a hand at most
    :data:`~binokel_sim.constants.DURCH_STEPS` steps from sure (:func:`durch_steps`) is played
    out: ``odds(worlds)`` gives ``(wins, tried)``, and he declares when the Durch's expected
    score, ``(2 wins / tried - 1)`` times its value, beats counting."""
    if not rules.widow_durch:
        return False
    counting = estimate(rules, meld, features(rules, hand, trump, buried)) + rules.all_tricks_bonus
    steps = durch_steps(hand, others, leads)
    if steps == 0:
        return counting < rules.durch_score
    if worlds == 0 or steps > DURCH_STEPS or odds is None:
        return False
    wins, tried = odds(worlds)
    return (2 * wins - tried) * rules.durch_score > tried * counting


def sure_bettel(rules: Rules, hand: list[int], others: list[int], leads: bool) -> bool:
    """Whether the soloist holding ``hand`` takes no trick without trump whatever the others,
    holding ``others`` between them, do (docs/rules.md, "Policies", Bettel): in every suit he
    holds, none of his cards ranks above the lowest card they hold of it, so he can never head a
    card of theirs; if he leads the first trick (``leads``), every card of his ranks strictly
    below all of theirs in its suit, and they hold the suit, so his lead is headed."""
    for suit in range(N_SUITS):
        mine = [type_rank(t) for t in range(N_TYPES) if type_suit(t) == suit and hand[t]]
        theirs = [type_rank(t) for t in range(N_TYPES) if type_suit(t) == suit and others[t]]
        if not mine:
            continue
        if leads and (not theirs or max(mine) >= min(theirs)):
            return False
        if theirs and max(mine) > min(theirs):
            return False
    return True


def bettel_card(legal: list[int]) -> int:
    """The Bettel soloist's card: the lowest-ranked legal card type, of the lowest suit on a
    tie."""
    return min(legal, key=lambda t: (type_rank(t), type_suit(t)))


def bettel_steps(hand: list[int], others: list[int], leads: bool) -> int:
    """How far ``hand`` (after burying) is from a sure Bettel against ``others``, the cards
    the other seats hold between them (0: :func:`sure_bettel`; docs/rules.md "Policies",
    *Bettel*): per suit he holds, his cards ranking above the lowest card they hold of it and,
    where he leads the first trick, also those ranking equal to it, or all of them where they
    hold none of the suit."""
    steps = 0
    for suit in range(N_SUITS):
        theirs = [r for r in range(N_RANKS) if others[suit * N_RANKS + r]]
        low = min(theirs) if theirs else N_RANKS
        for r in range(N_RANKS):
            risky = r > low or (leads and (r == low or not theirs))
            steps += hand[suit * N_RANKS + r] if risky else 0
    return steps


def declares_bettel(rules: Rules, hand: list[int], others: list[int], leads: bool, meld: int,
                    trump: int, buried: list[int], bid: int, worlds: int = 0,
                    odds: Callable[[int], tuple[int, int]] | None = None) -> bool:
    """Whether the soloist declares Bettel where the rules allow it, at a bid of at most 300
    and only when his estimate of counting (:func:`binokel_sim.widow_value.estimate`) falls
    short of the bid: a sure Bettel (:func:`sure_bettel`), or, with ``worlds`` > 0 (the
    expert's knob ``durch_worlds``), a hand at most ``DURCH_STEPS`` steps from sure
    (:func:`bettel_steps`) whose play-outs ``odds(worlds)``, ``(wins, tried)``, give the
    Bettel (made +bid, failed -2 bid) a higher expected score than giving up (-bid; -2 bid
    where the rules have no Abgehen)."""
    if not (rules.widow_bettel and bid <= BETTEL_BID
            and estimate(rules, meld, features(rules, hand, trump, buried)) < bid):
        return False
    if sure_bettel(rules, hand, others, leads):
        return True
    if worlds == 0 or odds is None or bettel_steps(hand, others, leads) > DURCH_STEPS:
        return False
    wins, tried = odds(worlds)
    give_up = bid if rules.widow_concede else 2 * bid
    return (3 * wins - 2 * tried) * bid > -give_up * tried
