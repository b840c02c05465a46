"""Positions: a ``play`` record cut at a decision, read as what each seat holds now.

The project's position notation is the record ``play --format json`` writes (docs/commands.md,
"Positions"), cut where the decision is: the deal as dealt (``hands``; the Dabb and what was
buried where the game has them), the trump, and the tricks so far (``{"leader", "cards"}``, the
cards in play order; the last one may be a trick in play, fewer cards than seats). Outcome
fields (winners, points, scores) are not read. Each engine family's module defines
:data:`FAMILY_API`: ``position(rules, record)``, the :class:`Position` of a record of its game;
:func:`read_position` reaches it through the family registry.

The shared part is here: :func:`load_record` (a file of one record: a JSON object, a JSON array
of one, or one JSON line) and :func:`play_tricks` (the tricks replayed from the hands under the
must-head obligation, every card checked: held, and legal).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from binokel_sim.cards import SUITS, format_card, parse_card, parse_suit
from binokel_sim.errors import CardError, SimulationError
from binokel_sim.families import family_module

if TYPE_CHECKING:
    from binokel_sim.variants import Rules

FAMILY_API = ("position",)
CONTRACTS = ("points", "durch", "bettel")  # what the soloist's side plays for


@dataclass(frozen=True)
class Position:
    """Strict play from a decision, every hand known.

    ``hands`` the cards each seat holds now (counts per card type, one (24,) array a seat);
    ``leader`` led the trick in play, to which ``table`` holds the cards played so far (in play
    order; empty at a trick's start); ``trump`` a suit 0..3, or ``NO_TRUMP`` (a Durch or a
    Bettel); ``sides`` the side of each seat (partners share one); ``contract`` one of
    :data:`CONTRACTS` (a Durch is made by taking every trick, a Bettel by taking none);
    ``soloist`` the seat who plays it, or None; ``won`` the tricks each seat has taken, the
    tricks played before the one in play."""

    variant: str
    hands: tuple[np.ndarray, ...]
    leader: int
    table: tuple[int, ...]
    trump: int
    sides: tuple[int, ...]
    contract: str
    soloist: int | None
    won: tuple[int, ...]

    @property
    def tricks_done(self) -> int:
        """The tricks played before the one in play."""
        return sum(self.won)

    @property
    def seat(self) -> int:
        """The seat to play."""
        return (self.leader + len(self.table)) % len(self.hands)

    @property
    def tricks_left(self) -> int:
        """The tricks still to play, the one in play included."""
        return int(self.hands[self.seat].sum())


def read_position(rules: Rules, record: dict) -> Position:
    """The :class:`Position` of a record of ``rules``'s game (its family's ``position``)."""
    if record.get("variant", rules.name) != rules.name:
        raise SimulationError(f"the record is a {record['variant']} deal, not {rules.name}: "
                              f"give --variant {record['variant']}")
    return family_module(__name__, rules).position(rules, record)


def load_record(path: str | Path) -> dict:
    """The one record in the file at ``path``: a JSON object, a JSON array of one object, or
    a file of one JSON line."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise SimulationError(f"cannot read the position {path}: {exc.strerror or exc}") from None
    lines = [line for line in text.splitlines() if line.strip()]
    try:
        data = json.loads(text) if len(lines) != 1 else json.loads(lines[0])
    except json.JSONDecodeError as exc:
        raise SimulationError(f"{path} is not a JSON record: {exc.msg} (line {exc.lineno})") \
            from None
    if isinstance(data, list):
        if len(data) != 1:
            raise SimulationError(f"{path} holds {len(data)} records; a position is one")
        data = data[0]
    if not isinstance(data, dict):
        raise SimulationError(f"{path} is not a record (a JSON object with the deal)")
    return data


def field(record: dict, name: str):
    """The record's field ``name``, or one clear error."""
    if name not in record:
        raise SimulationError(f"the record has no {name!r}")
    return record[name]


def cards_of(value, what: str) -> list[int]:
    """A list of card names as card types."""
    if not isinstance(value, list):
        raise SimulationError(f"{what} is not a list of cards")
    try:
        return [parse_card(str(name)) for name in value]
    except CardError as exc:
        raise CardError(f"{what}: {exc}") from None


def dealt_hands(rules: Rules, record: dict) -> list[np.ndarray]:
    """The record's ``hands`` as counts, one a seat, each of the variant's hand size."""
    hands = field(record, "hands")
    if not isinstance(hands, list) or len(hands) != rules.players:
        raise SimulationError(f"the record's hands are not {rules.players} hands")
    out = []
    for seat, hand in enumerate(hands):
        cards = cards_of(hand, f"seat {seat}'s hand")
        if len(cards) != rules.hand_size:
            raise CardError(f"seat {seat}'s hand has {len(cards)} cards; a {rules.name} hand "
                            f"has {rules.hand_size}")
        out.append(np.bincount(np.array(cards, dtype=np.int64), minlength=24))
    deck = rules.deck_counts()
    total = np.sum(out, axis=0)
    for t in np.flatnonzero(total > deck):
        raise CardError(f"{int(total[t])} copies of {format_card(int(t))} dealt, but the "
                        f"{rules.name} deck has {int(deck[t])}")
    return out


def trump_of(record: dict) -> int:
    """The record's trump suit."""
    trump = field(record, "trump")
    if trump is None:
        raise SimulationError("the record names no trump (the deal was not played)")
    suit = parse_suit(str(trump))
    if not 0 <= suit < len(SUITS):
        raise CardError(f"unknown trump suit {trump!r}")
    return suit


def take(hand: np.ndarray, card: int, what: str) -> None:
    """Take ``card`` out of ``hand``, or one clear error naming ``what`` does it."""
    if hand[card] <= 0:
        raise CardError(f"{what}: {format_card(card)} is not in the hand")
    hand[card] -= 1


def play_tricks(hands: list[np.ndarray], tricks, trump: int, first_leader: int, before: int = 0
                ) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """Replay ``tricks`` (the record's, in order) from ``hands`` (consumed), each card checked
    against the must-head obligation (SPEC.md "Must-head obligation"; ``kernels.strict.tricks``'
    rule) and each trick's winner found (SPEC.md "Trick winner"). Returns ``(leader, table,
    won)``: the trick in play (a trick of fewer cards than seats, or the next one, led by the
    last winner) and the tricks each seat has taken. ``before``: the deal's tricks before
    ``tricks[0]`` (for the messages' trick numbers)."""
    from binokel_sim.kernels.play import WINS_OVER, suit_block
    from binokel_sim.kernels.strict.tricks import must_head

    n_seats = len(hands)
    if not isinstance(tricks, list):
        raise SimulationError("the record's tricks are not a list")
    leader = first_leader
    won = [0] * n_seats
    for k, trick in enumerate(tricks, start=before):
        if not isinstance(trick, dict):
            raise SimulationError(f"trick {k + 1} is not an object with leader and cards")
        if trick.get("leader", leader) != leader:
            raise SimulationError(f"trick {k + 1} is led by seat {trick['leader']}, but seat "
                                  f"{leader} leads it")
        cards = cards_of(field(trick, "cards"), f"trick {k + 1}")
        if not cards or len(cards) > n_seats or (len(cards) < n_seats
                                                 and k < before + len(tricks) - 1):
            raise SimulationError(f"trick {k + 1} has {len(cards)} cards; a trick has "
                                  f"{n_seats} (only the last may be in play)")
        for i, card in enumerate(cards):
            seat = (leader + i) % n_seats
            held = sum(1 << t for t in range(24) if hands[seat][t] > 0)
            if i > 0:
                win_card, _ = trick_winner(cards[:i], leader, trump, n_seats)
                legal = int(must_head(np.int64(held), suit_block(cards[0] // 6),
                                      suit_block(trump), WINS_OVER[trump * 24 + win_card]))
                if not (legal >> card) & 1:
                    raise CardError(f"trick {k + 1}: seat {seat} may not play "
                                    f"{format_card(card)} (must follow, head and trump)")
            take(hands[seat], card, f"trick {k + 1}, seat {seat}")
        if len(cards) < n_seats:
            return leader, tuple(cards), tuple(won)
        leader = trick_winner(cards, leader, trump, n_seats)[1]
        won[leader] += 1
    return leader, (), tuple(won)


def trick_winner(cards: list[int] | tuple[int, ...], leader: int, trump: int, n_seats: int
                 ) -> tuple[int, int]:
    """``(card, seat)`` holding the trick ``cards`` led by ``leader`` (SPEC.md "Trick winner":
    the kernels' ``WINS_OVER``, a later card takes it only by beating it)."""
    from binokel_sim.kernels.play import WINS_OVER

    win, seat = cards[0], leader
    for i, card in enumerate(cards[1:], start=1):
        if (WINS_OVER[trump * 24 + win] >> card) & 1:
            win, seat = card, (leader + i) % n_seats
    return win, seat


def first_leader(rules: Rules, record: dict, holder: str) -> int:
    """Who leads the first trick: the record's first trick says so when it is there, else the
    rules (``bid_winner``: the record's ``holder`` field, the bidder or the soloist; else the
    dealer's left)."""
    tricks = record.get("tricks")
    if isinstance(tricks, list) and tricks and isinstance(tricks[0], dict) \
            and isinstance(tricks[0].get("leader"), int):
        leader = tricks[0]["leader"]
    elif rules.first_leader == "bid_winner":
        leader = field(record, holder)
    else:
        leader = (field(record, "dealer") + 1) % rules.players
    if not isinstance(leader, int) or not 0 <= leader < rules.players:
        raise SimulationError(f"the record's first leader {leader!r} is not a seat")
    return leader


def sides_of(rules: Rules, soloist: int | None) -> tuple[int, ...]:
    """The side of each seat: the rules' partnerships, else the soloist (side 1) against the
    others (side 0), else every seat for himself."""
    if rules.partnerships:
        side = [0] * rules.players
        for k, pair in enumerate(rules.partnerships):
            for seat in pair:
                side[seat] = k
        return tuple(side)
    if soloist is not None:
        return tuple(int(seat == soloist) for seat in range(rules.players))
    return tuple(range(rules.players))
