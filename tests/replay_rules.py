"""The rules every replay checker reads the same way, written from SPEC.md alone ("Common to all
variants": the must-head obligation and the trick winner) and shared by ``talon_replay.py`` and
``widow_replay.py``, with the record validators both use (:class:`RecordCheck`). Nothing here
imports the engine, its twins or the kernels: only the card notation and the rules data."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from binokel_sim.cards import CardError, format_card, parse_card
from binokel_sim.variants import Rules

N_RANKS = 6


def suit_of(t: int) -> int:
    return t // N_RANKS


def rank_of(t: int) -> int:
    return t % N_RANKS


def hand_order(t: int) -> tuple[int, int]:
    """Records list cards S H D C, high to low within a suit."""
    return (suit_of(t), -rank_of(t))


def legal_types(held: set[int], played: list[int], trump: int) -> set[int]:
    """SPEC "Must-head obligation": the card types of ``held`` that may be played to a trick
    holding ``played`` (in play order; empty: the player leads, anything goes)."""
    if not played:
        return set(held)
    led = suit_of(played[0])
    trumps_in_trick = [rank_of(t) for t in played if suit_of(t) == trump]
    led_held = {t for t in held if suit_of(t) == led}
    if led_held:
        if led == trump:  # 1. a trump higher than the highest trump in the trick, else any trump
            top = max(trumps_in_trick)
            return {t for t in led_held if rank_of(t) > top} or led_held
        if not trumps_in_trick:  # 1. a led card higher than the highest led card, else any
            top = max(rank_of(t) for t in played if suit_of(t) == led)
            return {t for t in led_held if rank_of(t) > top} or led_held
        return led_held  # 1. the trick has been trumped: any card of the led suit
    trumps_held = {t for t in held if suit_of(t) == trump}
    if trumps_held:  # 2. void in the led suit: a higher trump if able, else any trump
        if not trumps_in_trick:
            return trumps_held
        top = max(trumps_in_trick)
        return {t for t in trumps_held if rank_of(t) > top} or trumps_held
    return set(held)  # 3. any card


def trick_winner_index(cards: list[int], trump: int) -> int:
    """SPEC "Trick winner": the highest trump, else the highest card of the led suit; of
    identical cards the one played first. Returns the position in play order."""
    led = suit_of(cards[0])
    pool = [i for i, t in enumerate(cards) if suit_of(t) == trump]
    if not pool:
        pool = [i for i, t in enumerate(cards) if suit_of(t) == led]
    return max(pool, key=lambda i: (rank_of(cards[i]), -i))


# Card names already checked under a rules object (by id; the object is kept alive in
# _RULES_KEPT): the checks of RecordCheck.card are a pure function of the two, and a replay
# reads each name hundreds of times.
_VALID_CARDS: dict[tuple[int, str], int] = {}
_RULES_KEPT: dict[int, Rules] = {}


class RecordCheck:
    """The validators both replays share: one failure message naming the deal (and the trick),
    integers, card names written as the records write them and in the variant's deck, per-seat
    lists. A replay subclasses it and may say more about a trick in :meth:`trick_label`."""

    def __init__(self, rules: Rules, record: Any):
        self.rules = rules
        self.record = record
        deal = record.get("deal") if isinstance(record, dict) else None
        self.where = f"deal {deal!r}"

    def trick_label(self, trick: int) -> str:
        return f"tricks[{trick}] (trick {trick + 1})"

    def fail(self, problem: str, trick: int | None = None) -> None:
        if trick is None:
            raise AssertionError(f"{self.where}: {problem}")
        raise AssertionError(f"{self.where}: {self.trick_label(trick)}: {problem}")

    def check(self, ok: bool, problem: str | Callable[[], str], trick: int | None = None
              ) -> None:
        """Fail with ``problem`` unless ``ok``; a message that costs something to write (a hand
        listed) comes as a function, called only when the check fails."""
        if not ok:
            self.fail(problem() if callable(problem) else problem, trick)

    def integer(self, value: Any, what: str, trick: int | None = None) -> int:
        self.check(isinstance(value, int) and not isinstance(value, bool),
                   f"{what} must be an integer, got {value!r}", trick)
        return value

    def card(self, token: Any, what: str, trick: int | None = None) -> int:
        known = _VALID_CARDS.get((id(self.rules), token)) if isinstance(token, str) else None
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
                   f"{what}: card {token!r} is not in the {self.rules.name} deck", trick)
        _RULES_KEPT[id(self.rules)] = self.rules  # keeps the id from naming other rules later
        _VALID_CARDS[(id(self.rules), token)] = t
        return t

    def cards(self, tokens: Any, what: str, trick: int | None = None) -> list[int]:
        self.check(isinstance(tokens, list), lambda: f"{what} must be a list of cards, got {tokens!r}",
                   trick)
        return [self.card(tok, what, trick) for tok in tokens]

    def per_seat(self, key: str) -> list[int]:
        values = self.record[key]
        self.check(isinstance(values, list) and len(values) == self.rules.players,
                   f"{key} must be a list of {self.rules.players} integers, got {values!r}")
        return [self.integer(v, f"{key}[{i}]") for i, v in enumerate(values)]
