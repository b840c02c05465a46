"""The rules every replay checker reads the same way, written from SPEC.md alone ("Common to all
variants": the must-head obligation and the trick winner) and shared by ``talon_replay.py`` and
``widow_replay.py``, with the record validators both use (:class:`RecordCheck`). Nothing here
imports the engine, its twins or the kernels: only the card notation and the rules data."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from binokel_sim.cards import CardError, format_card, parse_card
from binokel_sim.variants import Rules, per_rules

N_RANKS = 6
N_TYPES = 24


def suit_of(t: int) -> int:
    return t // N_RANKS


def rank_of(t: int) -> int:
    return t % N_RANKS


def hand_order(t: int) -> tuple[int, int]:
    """Records list cards S H D C, high to low within a suit."""
    return (suit_of(t), -rank_of(t))


# suit_of, rank_of and hand_order of every card type, looked up in the loops over cards
_SUIT = tuple(suit_of(t) for t in range(N_TYPES))
_RANK = tuple(rank_of(t) for t in range(N_TYPES))
_HAND_ORDER = tuple(hand_order(t) for t in range(N_TYPES))


def in_hand_order(types: list[int]) -> bool:
    """Whether the card types ``types`` are listed as records list cards (:func:`hand_order`)."""
    return types == sorted(types, key=_HAND_ORDER.__getitem__)


def legal_types(held: set[int], played: list[int], trump: int) -> set[int]:
    """SPEC "Must-head obligation": the card types of ``held`` that may be played to a trick
    holding ``played`` (in play order; empty: the player leads, anything goes)."""
    if not played:
        return set(held)
    suit, rank = _SUIT, _RANK
    led = suit[played[0]]
    trumps_in_trick = [rank[t] for t in played if suit[t] == trump]
    led_held = {t for t in held if suit[t] == led}
    if led_held:
        if led == trump:  # 1. a trump higher than the highest trump in the trick, else any trump
            top = max(trumps_in_trick)
            return {t for t in led_held if rank[t] > top} or led_held
        if not trumps_in_trick:  # 1. a led card higher than the highest led card, else any
            top = max(rank[t] for t in played if suit[t] == led)
            return {t for t in led_held if rank[t] > top} or led_held
        return led_held  # 1. the trick has been trumped: any card of the led suit
    trumps_held = {t for t in held if suit[t] == trump}
    if trumps_held:  # 2. void in the led suit: a higher trump if able, else any trump
        if not trumps_in_trick:
            return trumps_held
        top = max(trumps_in_trick)
        return {t for t in trumps_held if rank[t] > top} or trumps_held
    return set(held)  # 3. any card


def trick_winner_index(cards: list[int], trump: int) -> int:
    """SPEC "Trick winner": the highest trump, else the highest card of the led suit; of
    identical cards the one played first. Returns the position in play order."""
    suit, rank = _SUIT, _RANK
    led = suit[cards[0]]
    pool = [i for i, t in enumerate(cards) if suit[t] == trump]
    if not pool:
        pool = [i for i, t in enumerate(cards) if suit[t] == led]
    return max(pool, key=lambda i: (rank[cards[i]], -i))


@per_rules
def _valid_cards(rules: Rules) -> dict[str, int]:
    """The card names already checked under ``rules`` (filled by :meth:`RecordCheck.card`): its
    checks are a pure function of the two, and a replay reads each name hundreds of times."""
    return {}


@per_rules
def deck_copies(rules: Rules) -> list[int]:
    """The copies of each card type in the variant's deck (``rules.deck_counts()``)."""
    return [int(n) for n in rules.deck_counts()]


class RecordCheck:
    """The validators both replays share: one failure message naming the deal (and the trick),
    integers, card names written as the records write them and in the variant's deck, per-seat
    lists. A replay subclasses it and may say more about a trick in :meth:`trick_label`."""

    def __init__(self, rules: Rules, record: Any):
        self.rules = rules
        self.record = record
        deal = record.get("deal") if isinstance(record, dict) else None
        self.where = f"deal {deal!r}"
        self.valid_cards = _valid_cards(rules)

    def trick_label(self, trick: int) -> str:
        return f"tricks[{trick}] (trick {trick + 1})"

    def fail(self, problem: str, trick: int | None = None) -> None:
        if trick is None:
            raise AssertionError(f"{self.where}: {problem}")
        raise AssertionError(f"{self.where}: {self.trick_label(trick)}: {problem}")

    def check(self, ok: bool, problem: str | Callable[[], str], trick: int | None = None
              ) -> None:
        """Fail with ``problem`` unless ``ok``; a message that costs something to write (a hand
        listed, a value shown) comes as a function, called only when the check fails."""
        if not ok:
            self.fail(problem() if callable(problem) else problem, trick)

    def integer(self, value: Any, what: str, trick: int | None = None) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(f"{what} must be an integer, got {value!r}", trick)
        return value

    def card(self, token: Any, what: str, trick: int | None = None) -> int:
        known = self.valid_cards.get(token) if isinstance(token, str) else None
        if known is not None:  # this token passed every check below under these rules
            return known
        self.check(isinstance(token, str), lambda: f"{what}: card {token!r} is not a string", trick)
        try:
            t = parse_card(token)
        except CardError:
            self.fail(f"{what}: unknown card {token!r}", trick)
        self.check(format_card(t) == token,
                   lambda: f"{what}: card {token!r} is not written rank+suit as "
                           f"{format_card(t)!r}", trick)
        self.check(rank_of(t) in self.rules.ranks,
                   lambda: f"{what}: card {token!r} is not in the {self.rules.name} deck", trick)
        self.valid_cards[token] = t
        return t

    def cards(self, tokens: Any, what: str, trick: int | None = None) -> list[int]:
        self.check(isinstance(tokens, list),
                   lambda: f"{what} must be a list of cards, got {tokens!r}", trick)
        valid = self.valid_cards  # a name checked before under these rules, else None
        types = [valid.get(tok) if tok.__class__ is str else None for tok in tokens]
        if None in types:  # a name read for the first time, or no name: checked by card
            types = [self.card(tok, what, trick) for tok in tokens]
        return types

    def per_seat(self, key: str) -> list[int]:
        values = self.record[key]
        self.check(isinstance(values, list) and len(values) == self.rules.players,
                   lambda: f"{key} must be a list of {self.rules.players} integers, got {values!r}")
        return [self.integer(v, f"{key}[{i}]") for i, v in enumerate(values)]
