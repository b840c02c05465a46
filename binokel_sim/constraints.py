"""What the user knows about the other hands: ``--known SEAT:CARDS`` and ``--void SEAT:SUIT``.

Seats are counted from the hand's seat (0, the bid winner or the one asking) in playing order:
``1`` left, ``2`` partner (across; in a three-player game ``2`` is the right-hand player), ``3``
right, or those names. A :class:`Knowledge` says, per seat, the cards it is known to hold and the
card types it may hold; the bid-odds and deal-odds samples then deal the unseen cards with the
unbiased constrained sampler (:mod:`binokel_sim.kernels.sampler`), as bridge dealers' predeal and
shape constraints do. An impossible combination (more copies than the deck has left, a seat given
more cards than it holds, a known card in a suit the seat is void in, no deal consistent with it
all) is one clear error before any work.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from binokel_sim.cards import (
    ALL_TYPES,
    N_TYPES,
    SUIT_MASK,
    SUITS,
    format_counts,
    parse_cards,
    parse_suit,
)
from binokel_sim.errors import CardError
from binokel_sim.numbers import read_int
from binokel_sim.variants import Rules


def seat_names(players: int) -> dict[str, int]:
    """The names a seat may go by, besides its number (counted from seat 0 in playing order)."""
    if players == 4:
        return {"left": 1, "partner": 2, "right": 3}
    if players == 3:
        return {"left": 1, "right": 2}
    return {"other": 1, "opponent": 1}


@dataclass(frozen=True)
class Knowledge:
    """Per seat (row 0 is the hand's own seat, always empty): ``known`` int64 (players, 24), the
    cards the seat is known to hold; ``allowed`` int64 (players,), the card types it may hold."""

    known: np.ndarray
    allowed: np.ndarray

    @property
    def empty(self) -> bool:
        return not self.known.any() and bool((self.allowed == ALL_TYPES).all())

    def describe(self) -> dict:
        """The constraints as the provenance records them: ``{"known": {seat: cards},
        "void": {seat: suits}}`` (seats by number)."""
        known = {str(s): " ".join(format_counts(self.known[s]))
                 for s in range(len(self.allowed)) if self.known[s].any()}
        void = {str(s): "".join(SUITS[u] for u in range(4)
                                if not self.allowed[s] >> (6 * u) & SUIT_MASK)
                for s in range(len(self.allowed)) if self.allowed[s] != ALL_TYPES}
        return {"known": known, "void": void}

    def provenance(self) -> dict:
        """Provenance fields for a result made under these constraints: ``known`` and ``void``
        as the options would write them (``"2:AS AS; 3:KH"``, ``"1:H"``), none when nothing
        is known."""
        if self.empty:
            return {}
        described = self.describe()
        return {key: "; ".join(f"{seat}:{text}" for seat, text in described[key].items())
                for key in ("known", "void") if described[key]}


def parse_seat(text: str, players: int, option: str, own: bool = False) -> int:
    """A seat by number or name, counted from the hand's seat 0; ``own`` also accepts the hand's
    seat itself (``0`` or ``me``), for options that may name it (``--dealer``)."""
    names = {"me": 0, **seat_names(players)} if own else seat_names(players)
    first = 0 if own else 1
    key = text.strip().lower()
    if key in names:
        return names[key]
    number = read_int(key, signed=False)  # ASCII digits only (binokel_sim.numbers)
    if number is not None and first <= number < players:
        return number
    choices = ", ".join([str(i) for i in range(first, players)] + list(names))
    raise CardError(f"{option}: unknown seat {text!r} (seats are counted from the hand's seat 0: "
                    f"{choices})")


def _split(text: str, option: str) -> tuple[str, str]:
    seat, sep, rest = text.partition(":")
    if not sep or not seat.strip() or not rest.strip():
        what, example = ("CARDS", 'partner:"AS AS"') if option == "--known" else ("SUIT", "2:H")
        raise CardError(f"{option} {text!r}: write SEAT:{what}, e.g. {option} {example}")
    return seat, rest.strip().strip("\"'")  # partner:"AS AS" reaches us quoted from some shells


def parse_knowledge(rules: Rules, own: np.ndarray, known_texts: list[str],
                    void_texts: list[str]) -> Knowledge:
    """The options' constraints, checked against the deck, the hand ``own`` (counts per type) and
    the hand size: a seat known to hold more cards than a hand has, more copies of a card than
    the deck has left, or a known card in a suit it is void in is an error."""
    players = rules.players
    known = np.zeros((players, N_TYPES), dtype=np.int64)
    allowed = np.full(players, ALL_TYPES, dtype=np.int64)
    for text in known_texts:
        seat_text, cards = _split(text, "--known")
        seat = parse_seat(seat_text, players, "--known")
        for t in parse_cards(cards):
            known[seat, t] += 1
    for text in void_texts:
        seat_text, suits = _split(text, "--void")
        seat = parse_seat(seat_text, players, "--void")
        for token in suits.replace(",", " ").split():
            allowed[seat] &= ~(SUIT_MASK << (6 * parse_suit(token)))
    deck = rules.deck_counts()
    missing = [t for t in range(N_TYPES) if known[:, t].any() and deck[t] == 0]
    if missing:
        name = format_counts(np.eye(N_TYPES, dtype=np.int64)[missing[0]])[0]
        raise CardError(f"--known: {name} is not in the {rules.name} deck")
    left = deck - own - known.sum(axis=0)
    if (left < 0).any():
        t = int(np.flatnonzero(left < 0)[0])
        name = format_counts(np.eye(N_TYPES, dtype=np.int64)[t])[0]
        raise CardError(f"--known: more copies of {name} than the deck has besides the hand "
                        f"({int(rules.deck_counts()[t] - own[t])})")
    for s in range(1, players):
        if known[s].sum() > rules.hand_size:
            raise CardError(f"--known: seat {s} is given {known[s].sum()} cards but holds "
                            f"{rules.hand_size}")
        clash = [t for t in range(N_TYPES) if known[s, t] and not allowed[s] >> t & 1]
        if clash:
            name = format_counts(np.eye(N_TYPES, dtype=np.int64)[clash[0]])[0]
            raise CardError(f"seat {s} is said to hold {name} and to be void in its suit")
    return Knowledge(known, allowed)


@dataclass(frozen=True)
class SamplerInputs:
    """What the constrained sampler (:mod:`binokel_sim.kernels.sampler`) reads for one
    :class:`Knowledge`: ``pool`` int64 (24,), the unseen cards left after the known ones;
    ``known`` int64 (4, 24), the known cards per seat (row 0 the hand's own seat, empty);
    ``allowed`` and ``capacity`` int64 (4,), per group (the other seats in order, then a hidden
    talon or widow) the types it may hold and the cards it still receives; ``groups``; ``ways``,
    the sampler's ``count_ways`` table; ``deals``, the number of consistent deals (0: none)."""

    pool: np.ndarray
    known: np.ndarray
    allowed: np.ndarray
    capacity: np.ndarray
    groups: int
    ways: np.ndarray
    deals: float

    @classmethod
    def nothing_known(cls) -> "SamplerInputs":
        """Placeholders for a run with nothing known (``groups`` 0: the plain shuffle)."""
        z = np.zeros(4, dtype=np.int64)
        return cls(np.zeros(N_TYPES, dtype=np.int64), np.zeros((4, N_TYPES), dtype=np.int64), z,
                   z, 0, np.zeros((1, 1, 1, 1)), 0.0)


def sampler_inputs(knowledge: Knowledge, pool: np.ndarray, capacities: list[int],
                   extra: int = 0) -> SamplerInputs:
    """The sampler's inputs for dealing ``pool`` (counts per type of the cards the hand does not
    hold) to the other seats (``capacities[s - 1]`` cards each, known cards included) and
    ``extra`` cards to nobody (a talon or widow), consistent with ``knowledge``."""
    from binokel_sim.kernels.sampler import count_ways

    groups = len(capacities) + (1 if extra else 0)
    masks = np.zeros(4, dtype=np.int64)
    capacity = np.zeros(4, dtype=np.int64)
    for i, size in enumerate(capacities):
        masks[i] = knowledge.allowed[i + 1]
        capacity[i] = size - knowledge.known[i + 1].sum()
    if extra:
        masks[len(capacities)] = ALL_TYPES
        capacity[len(capacities)] = extra
    known = np.zeros((4, N_TYPES), dtype=np.int64)
    known[:len(knowledge.allowed)] = knowledge.known
    rest = np.asarray(pool, dtype=np.int64) - known[1:].sum(axis=0)
    ways = np.zeros((N_TYPES + 1, capacity[0] + 1, capacity[1] + 1, capacity[2] + 1))
    deals = count_ways(pool=rest, allowed=masks, capacity=capacity, n_groups=groups, ways=ways) if (rest >= 0).all() else 0.0
    return SamplerInputs(rest, known, masks, capacity, groups, ways, float(deals))


def inputs_for(rules: Rules, seen: np.ndarray, knowledge: "Knowledge | None",
               hidden: int = 0) -> SamplerInputs:
    """The sampler's inputs for a run around the cards ``seen`` (counts per type: the hand, and a
    turned card): the other seats get ``rules.hand_size`` cards each and ``hidden`` cards go to
    nobody (a talon). Checked (:func:`check_possible`); placeholders (``groups`` 0: the plain
    shuffle) when nothing is known."""
    if knowledge is None or knowledge.empty:
        return SamplerInputs.nothing_known()
    pool = rules.deck_counts() - np.asarray(seen, dtype=np.int64)
    return check_possible(knowledge, pool, [rules.hand_size] * (rules.players - 1), hidden)


def check_possible(knowledge: Knowledge, pool: np.ndarray, capacities: list[int],
                   extra: int = 0) -> SamplerInputs:
    """Fail with one line unless some deal gives every other seat ``capacities[s - 1]`` cards
    (its known cards included) and ``extra`` cards to nobody (a talon or widow) out of ``pool``
    (counts per type of the cards the hand does not hold), consistent with ``knowledge``; the
    sampler's inputs (:func:`sampler_inputs`) when there is one."""
    inputs = sampler_inputs(knowledge, pool, capacities, extra)
    if inputs.deals <= 0:
        raise CardError("no deal fits the --known and --void constraints together (e.g. a seat "
                        "void in every suit the remaining cards are in)")
    return inputs


def hand_sampler_inputs(rules: Rules, counts: np.ndarray, knowledge: "Knowledge | None"
                        ) -> SamplerInputs:
    """The constrained sampler's inputs for ``knowledge`` over the cards the hand ``counts`` does
    not hold, the other seats' hands and a widow (checked: an impossible combination is a
    :class:`CardError`), or placeholders (``groups`` 0: shuffle as usual) when nothing is
    known: what the partnership and widow families' ``sampler_inputs`` return."""
    return inputs_for(rules, counts, knowledge, hidden=rules.widow)
