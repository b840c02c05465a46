"""Rule sets as data: the built-in variants (TOML files beside this module) and their loader.

``find_variant(name)`` returns the immutable :class:`Rules` of a built-in variant (or alias);
``load_rules(path)`` reads a user's own file in the same format (house rules). Every key is
checked; a bad key or value raises :class:`RulesError` naming it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from binokel_sim.constants import DURCH_OPEN_SCORE, DURCH_SCORE
from binokel_sim.errors import RulesError  # noqa: F401  (re-exported)

from binokel_sim.cards import (
    N_RANKS,
    N_TYPES,
    RANKS,
    CardError,
    card_type,
    format_card,
    parse_card,
    parse_rank,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

SCOPES = ("around", "cards", "trump", "non_trump", "per_suit")
TRUMP_CHOOSERS = ("bid_winner", "turned_card")
STRICT_MODES = ("always", "after_talon")
LEADERS = ("bid_winner", "soloist", "non_dealer")  # "soloist": the widow games' bid winner
CONCEDE_PAYOUTS = ("bonus", "half_bid")  # [widow] concede_payout (SPEC "Today's practice")
# [bidding] all_pass: SPEC's rule (if the first three pass, the dealer plays at the minimum), then
# the turn-4 house options of the widow games (Vorhand may not pass at his first call; the deal is
# void and the next dealer deals)
ALL_PASS = ("dealer_at_minimum", "vorhand_opens", "redeal")
# [bidding] order: calls round the table (SPEC's auction), or Skat-style (turn 4 house option:
# the seat after Vorhand says bids to Vorhand, who holds or passes, then the next seat to the
# survivor, the dealer last)
BID_ORDERS = ("round", "skat")
MAX_INSIDE = 4  # parent slots in the kernels' meld table (tables.MAX_PARENTS)
MAX_MELDS = 12  # the kernels pack one 5-bit count per meld into an int64


@dataclass(frozen=True)
class MeldSpec:
    """One meld of a variant's table.

    ``scope``: ``around`` (one card of each rank in ``ranks`` in every suit), ``cards`` (the fixed
    ``cards``), ``trump`` (``ranks`` in the trump suit), ``non_trump`` (``ranks`` in one non-trump
    suit, counted in each and added up) or ``per_suit`` (``ranks`` in any one suit, counted in each
    suit and added up). ``points[k]`` is the score for multiplicity ``k`` (``points[0] == 0``; the
    list has ``copies + 1`` entries: a multiplicity past the table scores as the last entry).
    ``counted_sets`` is how many sets the table counts (past it, more sets add nothing).
    ``inside`` names earlier melds this one sits inside (docs/rules.md, "Melds inside melds"): a
    suit meld loses, in each suit, the largest number of sets a parent counts (a royal marriage
    inside a run; a marriage inside a quint, a roundhouse or both loses one set); an ``around``
    meld inside ``around`` melds is not counted at all (count 0) when its multiplicity is at most
    the largest number of sets a parent counts, and scores its own entry when it is higher (kings
    around inside a roundhouse: four kings are part of it, eight kings score 1000).
    ``per_set`` is the value of one set for a meld counted per copy (marriages, dix), 0 for a meld
    scored by its points table; in the talon games it decides which levels may be declared
    (docs/rules.md, "Declarations").
    """

    name: str
    scope: str
    type_mask: int  # around/cards: the card types of one set; trump/non_trump/per_suit: ranks in suit 0
    ranks: tuple[int, ...]
    points: tuple[int, ...]
    counted_sets: int
    inside: tuple[str, ...]
    per_set: int = 0


@dataclass(frozen=True)
class Rules:
    """One variant, validated. Built only by :func:`rules_from_dict`."""

    name: str
    aliases: tuple[str, ...]
    description: str
    source: str
    ranks: tuple[int, ...]
    copies: int
    players: int
    partnerships: tuple[tuple[int, ...], ...]
    hand_size: int
    widow: int
    talon: int
    trump_chosen_by: str
    trump_requires: tuple[int, ...]
    rank_points: tuple[int, ...]
    last_trick: int
    strict: str
    first_leader: str
    bid_ladder: tuple[tuple[int, int], ...]
    min_meld: int
    min_play: int
    game_target: int
    melds: tuple[MeldSpec, ...]
    example_hand: str
    turned_bonus_rank: int = -1  # a turned card of this rank scores turned_bonus for the dealer
    turned_bonus: int = 0
    swap_meld: str = ""  # a declared card of this meld may be exchanged for the turned card
    example_turned: str = ""  # the turned card `deal-odds` uses without --turned
    widow_demand: bool = True  # [widow] demand: the soloist may demand a card (widow games)
    widow_concede: bool = True  # [widow] concede: the soloist may give up (Abgehen) before play
    concede_bonus: int = 30  # [widow] concede_bonus: what each opposing side adds to its meld
    # [widow] concede_payout: after Abgehen each opposing side adds concede_bonus ("bonus") or
    # half the bid, rounded up to the ladder's step ("half_bid")
    concede_payout: str = "bonus"
    # [points] round_to (widow games): each side's card points rounded to a multiple of it, half
    # up, before its total is compared with the bid; 1: not rounded
    round_to: int = 1
    # [bidding] all_pass: when nobody bids, the dealer plays at the minimum
    # ("dealer_at_minimum"), Vorhand may not pass at his first call ("vorhand_opens"), or the
    # deal is void and scores nothing ("redeal")
    all_pass: str = "dealer_at_minimum"
    # [bidding] order: "round" (calls round the table) or "skat" (Geben - Hoeren - Sagen:
    # docs/rules.md "Widow games", "The auction")
    bid_order: str = "round"
    widow_durch: bool = False  # [widow] durch: the soloist may declare Durch (all tricks, +-1000)
    # [widow] durch_open: the soloist may lay his hand open for the Durch (Durch offen, +-1500)
    durch_open: bool = False
    all_tricks_bonus: int = 1000  # [widow] all_tricks_bonus: a side taking every trick adds it
    widow_bettel: bool = False  # [widow] bettel: the soloist may declare Bettel (no trick)
    claim: int = 0  # [game] claim (sixty-six): a seat with this count may claim the deal; 0: none
    stock_close: bool = False  # [play] close (sixty-six): the leader may close the stock
    trump_exchange: int = -1  # [trump] exchange (sixty-six): this trump rank takes the turned card

    @property
    def deck_size(self) -> int:
        return 4 * len(self.ranks) * self.copies

    def deck_counts(self) -> np.ndarray:
        """Copies of each of the 24 card types in this deck, int64 shape (24,)."""
        counts = np.zeros(N_TYPES, dtype=np.int64)
        for suit in range(4):
            for rank in self.ranks:
                counts[card_type(rank, suit)] = self.copies
        return counts

    @property
    def meld_names(self) -> tuple[str, ...]:
        return tuple(m.name for m in self.melds)

    @property
    def durch_score(self) -> int:
        """What a Durch scores made (minus it when failed): 1500 open (``durch_open``: the
        soloist always lays an open Durch down, decision 39), else 1000."""
        return DURCH_OPEN_SCORE if self.durch_open else DURCH_SCORE

    @property
    def total_card_points(self) -> int:
        return 4 * self.copies * sum(self.rank_points[r] for r in self.ranks) + self.last_trick

    def summary(self) -> dict[str, Any]:
        return {
            "variant": self.name,
            "players": self.players,
            "deck": self.deck_size,
            "copies": self.copies,
            "hand": self.hand_size,
            "widow": self.widow,
            "talon": self.talon,
            "trump": self.trump_chosen_by,
            "melds": ", ".join(self.meld_names),
        }


# --- validation helpers: each names the key it rejects ---------------------------------------

_KNOWN_KEYS = {
    "": {"name", "aliases", "description", "source", "example_hand", "example_turned", "deck",
         "deal", "trump", "points", "play", "bidding", "game", "widow", "melds"},
    "deck": {"ranks", "copies"},
    "deal": {"players", "partnerships", "hand_size", "widow", "talon"},
    "trump": {"chosen_by", "requires", "turned_bonus", "swap_meld", "exchange"},
    "points": {"ranks", "last_trick", "round_to"},
    "play": {"strict", "first_leader", "strict_phase1", "close"},
    "bidding": {"ladder", "all_pass", "order", "min_meld", "min_play"},
    "game": {"target", "claim"},
    "widow": {"demand", "concede", "concede_bonus", "concede_payout", "durch", "durch_open",
              "all_tricks_bonus",
              "bettel"},
    "melds": {"name", "scope", "ranks", "cards", "points", "per_set", "inside"},
}


T = TypeVar("T")


def per_rules(build: Callable[[Rules], T]) -> Callable[[Rules], T]:
    """``build(rules)`` computed once per :class:`Rules` object and kept: for tables that depend
    on the rules only. Kept by the object's identity (the object is held, so its id is not
    reused): hashing a Rules walks every field, which costs more than most of these tables."""
    kept: dict[int, tuple[Rules, T]] = {}

    @wraps(build)
    def cached(rules: Rules) -> T:
        entry = kept.get(id(rules))
        if entry is None or entry[0] is not rules:
            entry = kept[id(rules)] = (rules, build(rules))
        return entry[1]

    return cached


def _check_keys(table: dict, section: str, where: str) -> None:
    for key in table:
        if key not in _KNOWN_KEYS[section]:
            raise RulesError(f"{where}: unknown key {_shown(key)}")


MAX_NUMBER = 1_000_000  # no count, bid or score in any Binokel game comes near this
MAX_FILE_BYTES = 1_000_000  # a rules file is a few KB; a larger file is not one
MAX_DEPTH = 4  # the top table, [[melds]], a meld, its cards: as deep as a rules file nests
SHOWN = 60  # characters of a bad value an error message quotes


def _shown(value: Any) -> str:
    """A bad value as an error message quotes it: its repr, cut to :data:`SHOWN` characters."""
    text = repr(value)
    return text if len(text) <= SHOWN else text[:SHOWN - 3] + "..."


def _depth(data: Any) -> int:
    """How deep lists and tables nest in ``data`` (a scalar 0), walked without recursion."""
    deepest, todo = 0, [(data, 0)]
    while todo:
        value, level = todo.pop()
        children = value.values() if isinstance(value, dict) else \
            value if isinstance(value, list) else ()
        if isinstance(value, (dict, list)):
            deepest = max(deepest, level + 1)
            if level + 1 > MAX_DEPTH:
                break
        todo.extend((child, level + 1) for child in children)
    return deepest


def _check_number(value: Any, where: str) -> None:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
        raise RulesError(f"{where}: {value} is out of range (at most {MAX_NUMBER:,})")


def _get(table: dict, key: str, kind: type | tuple, where: str, default: Any = ...) -> Any:
    if key not in table:
        if default is ...:
            raise RulesError(f"{where}.{key}: missing")
        return default
    value = table[key]
    if isinstance(value, bool) and kind is int or not isinstance(value, kind):
        raise RulesError(f"{where}.{key}: expected {_kind_name(kind)}, got {_shown(value)}")
    _check_number(value, f"{where}.{key}")
    for i, item in enumerate(value if isinstance(value, list) else []):
        for j, number in enumerate(item if isinstance(item, list) else [item]):
            _check_number(number, f"{where}.{key}[{i}]" + (f"[{j}]" if isinstance(item, list)
                                                           else ""))
    return value


def _kind_name(kind: type | tuple) -> str:
    names = {int: "an integer", str: "a string", list: "a list", dict: "a table", bool: "true/false"}
    if isinstance(kind, tuple):
        return " or ".join(names[k] for k in kind)
    return names[kind]


def _int_at_least(table: dict, key: str, where: str, low: int, default: Any = ...) -> int:
    value = _get(table, key, int, where, default)
    if value < low:
        raise RulesError(f"{where}.{key}: must be at least {low}, got {value}")
    return value


def _choice(table: dict, key: str, choices: tuple[str, ...], where: str, default: Any = ...) -> str:
    value = _get(table, key, str, where, default)
    if value not in choices:
        raise RulesError(f"{where}.{key}: {_shown(value)} is not one of {', '.join(choices)}")
    return value


def _rank_list(values: Any, where: str) -> tuple[int, ...]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise RulesError(f"{where}: expected a list of rank letters, got {_shown(values)}")
    try:
        ranks = tuple(parse_rank(v) for v in values)
    except CardError as exc:
        raise RulesError(f"{where}: {exc}") from None
    if len(set(ranks)) != len(ranks):
        raise RulesError(f"{where}: a rank is listed twice")
    return ranks


def _section(data: dict, key: str, required: bool = True) -> dict:
    if key not in data:
        if required:
            raise RulesError(f"[{key}]: missing section")
        return {}
    value = data[key]
    if not isinstance(value, dict):
        raise RulesError(f"[{key}]: expected a table, got {_shown(value)}")
    _check_keys(value, key, key)
    return value


def _meld(entry: Any, index: int, deck_ranks: tuple[int, ...], copies: int) -> MeldSpec:
    where = f"melds[{index}]"
    if not isinstance(entry, dict):
        raise RulesError(f"{where}: expected a table")
    _check_keys(entry, "melds", where)
    name = _get(entry, "name", str, where)
    where = f"melds[{index}] ({name})"
    scope = _choice(entry, "scope", SCOPES, where)
    if scope == "cards":
        if "ranks" in entry:
            raise RulesError(f"{where}.ranks: a meld of scope 'cards' lists 'cards', not 'ranks'")
        cards = _get(entry, "cards", list, where)
        try:
            types = [parse_card(str(c)) for c in cards]
        except CardError as exc:
            raise RulesError(f"{where}.cards: {exc}") from None
        if not types or len(set(types)) != len(types):
            raise RulesError(f"{where}.cards: needs distinct cards")
        ranks = tuple(sorted({t % N_RANKS for t in types}))
        mask = sum(1 << t for t in types)
    else:
        if "cards" in entry:
            raise RulesError(f"{where}.cards: only a meld of scope 'cards' lists cards")
        ranks = _rank_list(entry.get("ranks"), f"{where}.ranks")
        if not ranks:
            raise RulesError(f"{where}.ranks: empty")
        suits = range(4) if scope == "around" else range(1)
        mask = sum(1 << card_type(r, s) for r in ranks for s in suits)
    missing = [RANKS[r] for r in ranks if r not in deck_ranks]
    if missing:
        raise RulesError(f"{where}: rank {missing[0]} is not in the deck")

    has_points, has_per_set = "points" in entry, "per_set" in entry
    if has_points == has_per_set:
        raise RulesError(f"{where}: give exactly one of 'points' (a table) or 'per_set'")
    per_set = 0
    if has_points:
        table = _get(entry, "points", list, where)
        if not table or not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0
                                for p in table):
            raise RulesError(f"{where}.points: expected a list of non-negative integers")
        if len(table) > copies:
            raise RulesError(f"{where}.points: {len(table)} entries but the deck has only "
                             f"{copies} copies of each card")
        counted = len(table)
        points = (0,) + tuple(table[min(k, counted) - 1] for k in range(1, copies + 1))
    else:
        per_set = _int_at_least(entry, "per_set", where, 0)
        counted = copies
        points = tuple(per_set * k for k in range(copies + 1))
    inside = _get(entry, "inside", list, where, [])
    if not all(isinstance(n, str) for n in inside):
        raise RulesError(f"{where}.inside: expected a list of meld names")
    if len(inside) > MAX_INSIDE:
        raise RulesError(f"{where}.inside: a meld can sit inside at most {MAX_INSIDE} others")
    return MeldSpec(name, scope, mask, ranks, points, counted, tuple(inside), per_set)


def _check_inside(melds: list[MeldSpec]) -> None:
    """A meld may sit inside an earlier meld of the table only (kernels evaluate in order): a suit
    meld inside an ``around`` meld or an earlier suit meld, an ``around`` meld inside an earlier
    ``around`` meld; a ``cards`` meld inside none."""
    seen: dict[str, MeldSpec] = {}
    for m in melds:
        if m.name in seen:
            raise RulesError(f"melds: the name {m.name!r} is used twice")
        for parent_name in m.inside:
            parent = seen.get(parent_name)
            if parent is None:
                raise RulesError(f"melds ({m.name}).inside: {parent_name!r} is not a meld listed "
                                 f"before it")
            if m.scope == "cards":
                raise RulesError(f"melds ({m.name}).inside: a meld of scope 'cards' cannot sit "
                                 f"inside another")
            if m.scope == "around":
                if parent.scope != "around":
                    raise RulesError(f"melds ({m.name}).inside: an 'around' meld can sit only "
                                     f"inside another 'around' meld, not {parent_name!r} "
                                     f"(scope {parent.scope!r})")
                continue
            if parent.scope == "cards":
                raise RulesError(f"melds ({m.name}).inside: {parent_name!r} has scope 'cards'")
            if parent.scope == "trump" and m.scope != "trump":
                raise RulesError(f"melds ({m.name}).inside: a {m.scope} meld cannot sit inside "
                                 f"the trump meld {parent_name!r}")
        seen[m.name] = m


def rules_from_dict(data: dict, origin: str = "rules") -> Rules:
    """Validate a parsed rules document into :class:`Rules`; errors name the key."""
    try:
        return _rules_from_dict(data)
    except RulesError as exc:
        raise RulesError(f"{origin}: {exc}") from None


def _rules_from_dict(data: dict) -> Rules:
    _check_keys(data, "", "top level")
    name = _get(data, "name", str, "top level")
    aliases = _get(data, "aliases", list, "top level", [])
    deck = _section(data, "deck")
    ranks = _rank_list(deck.get("ranks"), "deck.ranks")
    if not ranks:
        raise RulesError("deck.ranks: empty")
    ranks = tuple(sorted(ranks))
    copies = _int_at_least(deck, "copies", "deck", 1)
    if copies > 4:
        raise RulesError(f"deck.copies: at most 4 copies of a card are supported, got {copies}")
    deck_size = 4 * len(ranks) * copies

    deal = _section(data, "deal")
    players = _int_at_least(deal, "players", "deal", 2)
    hand_size = _int_at_least(deal, "hand_size", "deal", 1)
    widow = _int_at_least(deal, "widow", "deal", 0, 0)
    talon = _int_at_least(deal, "talon", "deal", 0, 0)
    widow_family = bool(widow) and not talon  # the widow engine's games (families.engine_family)
    if players * hand_size + widow + talon != deck_size:
        raise RulesError(f"deal: {players} hands of {hand_size} + widow {widow} + talon {talon} "
                         f"do not make the {deck_size}-card deck")
    partners = _get(deal, "partnerships", list, "deal", [])
    if not all(isinstance(team, list) and all(isinstance(s, int) and not isinstance(s, bool)
                                              for s in team) for team in partners):
        raise RulesError(f"deal.partnerships: expected a list of seat lists such as [[0, 2], "
                         f"[1, 3]], got {_shown(partners)}")
    seats = sorted(s for team in partners for s in team)
    if partners and seats != list(range(players)):
        raise RulesError("deal.partnerships: every seat must be in exactly one partnership")

    trump = _section(data, "trump")
    chosen_by = _choice(trump, "chosen_by", TRUMP_CHOOSERS, "trump")
    requires = _rank_list(trump.get("requires", []), "trump.requires")
    for r in requires:
        if r not in ranks:
            raise RulesError(f"trump.requires: rank {RANKS[r]} is not in the deck")

    points = _section(data, "points")
    rank_table = _get(points, "ranks", dict, "points")
    rank_points = [0] * N_RANKS
    for key, value in rank_table.items():
        try:
            r = parse_rank(key)
        except CardError as exc:
            raise RulesError(f"points.ranks: {exc}") from None
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise RulesError(f"points.ranks.{_shown(key)}: expected a non-negative integer, got "
                             f"{_shown(value)}")
        _check_number(value, f"points.ranks.{key}")
        rank_points[r] = value
    last_trick = _int_at_least(points, "last_trick", "points", 0, 0)
    round_to = _int_at_least(points, "round_to", "points", 1, 1)
    if round_to > 1 and not widow_family:
        raise RulesError("points.round_to: only the widow games round card points (this "
                         "variant's engine counts them exactly); remove it")

    play = _section(data, "play")
    strict = _choice(play, "strict", STRICT_MODES, "play", "always")
    if _get(play, "strict_phase1", bool, "play", False):
        strict = "always"
    # who may lead first depends on the engine family: in the talon engine the non-dealer (SPEC,
    # two-hand-48), in the partnership engine the bid winner, in the widow engine the soloist
    # (the bid winner, SPEC's "soloist") or the player left of the dealer (SPEC, "House
    # variants"); a file asking for another first lead is refused, never ignored
    # (docs/rules.md, decision 28)
    played_leader = "non_dealer" if talon else "bid_winner"
    asked = _choice(play, "first_leader", LEADERS, "play", played_leader)
    first_leader = "bid_winner" if asked == "soloist" else asked
    if first_leader != played_leader and not widow_family:
        family = "talon" if talon else "partnership"
        who = "the non-dealer" if talon else "the bid winner"
        raise RulesError(f"play.first_leader: in the {family} engine {who} leads the first "
                         f"trick ({played_leader!r}); {asked!r} is not played")
    widow_rules = _section(data, "widow", required=False)
    if widow_rules and not widow:
        raise RulesError("widow: only a game with a widow (deal.widow above 0) has these rules")
    demand = _get(widow_rules, "demand", bool, "widow", True)
    concede = _get(widow_rules, "concede", bool, "widow", bool(widow))
    concede_bonus = _int_at_least(widow_rules, "concede_bonus", "widow", 0, 30)
    if "concede_bonus" in widow_rules and not concede:
        raise RulesError("widow.concede_bonus: only a game with Abgehen (widow.concede = true) "
                         "has a concede bonus; remove it or set concede = true")
    concede_payout = _choice(widow_rules, "concede_payout", CONCEDE_PAYOUTS, "widow", "bonus")
    if "concede_payout" in widow_rules and not concede:
        raise RulesError("widow.concede_payout: only a game with Abgehen (widow.concede = true) "
                         "pays for a concession; remove it or set concede = true")
    if concede_payout == "half_bid" and "concede_bonus" in widow_rules:
        raise RulesError("widow.concede_bonus: with concede_payout = \"half_bid\" the opponents "
                         "score half the bid, not the bonus; remove one of the two")
    durch = _get(widow_rules, "durch", bool, "widow", False)
    durch_open = _get(widow_rules, "durch_open", bool, "widow", False)
    if durch_open and not durch:
        raise RulesError("widow.durch_open: only a game with Durch (widow.durch = true) has an "
                         "open Durch; remove it or set durch = true")
    all_tricks_bonus = _int_at_least(widow_rules, "all_tricks_bonus", "widow", 0, 1000)
    bettel = _get(widow_rules, "bettel", bool, "widow", False)

    bidding = _section(data, "bidding", required=False)
    ladder_raw = _get(bidding, "ladder", list, "bidding", [])
    ladder = []
    for i, step in enumerate(ladder_raw):
        if (not isinstance(step, list) or len(step) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in step)):
            raise RulesError(f"bidding.ladder[{i}]: expected [from, step] with positive integers")
        if ladder and step[0] <= ladder[-1][0]:
            raise RulesError(f"bidding.ladder[{i}]: must start above the previous rung")
        ladder.append((step[0], step[1]))
    all_pass = _choice(bidding, "all_pass", ALL_PASS, "bidding", ALL_PASS[0])
    if all_pass != ALL_PASS[0] and not widow_family:
        raise RulesError(f"bidding.all_pass: {all_pass!r} is played by the widow games only; "
                         f"this variant's auction plays {ALL_PASS[0]!r}")
    bid_order = _choice(bidding, "order", BID_ORDERS, "bidding", BID_ORDERS[0])
    if bid_order != BID_ORDERS[0] and not widow_family:
        raise RulesError(f"bidding.order: {bid_order!r} is played by the widow games only; "
                         f"this variant's auction plays {BID_ORDERS[0]!r}")
    min_meld = _int_at_least(bidding, "min_meld", "bidding", 0, 0)
    min_play = _int_at_least(bidding, "min_play", "bidding", 0, 0)
    game = _section(data, "game", required=False)
    target = _int_at_least(game, "target", "game", 1, 1000)
    claim, close, exchange = _claim_game(game, play, trump, ranks, talon, chosen_by)

    melds_raw = _get(data, "melds", list, "top level")
    if not melds_raw:
        raise RulesError("melds: the table is empty")
    if len(melds_raw) > MAX_MELDS:
        raise RulesError(f"melds: at most {MAX_MELDS} melds are supported, got {len(melds_raw)}")
    melds = [_meld(entry, i, ranks, copies) for i, entry in enumerate(melds_raw)]
    _check_inside(melds)

    bonus_rank, bonus, swap_meld = _turned_card(trump, chosen_by, ranks, melds)
    example = _get(data, "example_hand", str, "top level", "")
    if example:
        _check_example(example, ranks, copies, hand_size)
    example_turned = _get(data, "example_turned", str, "top level", "")
    if example_turned:
        if chosen_by != "turned_card":
            raise RulesError("example_turned: only for chosen_by = 'turned_card'")
        _check_example(f"{example} {example_turned}", ranks, copies, hand_size + 1)
    return Rules(
        name=name, aliases=tuple(str(a) for a in aliases),
        description=_get(data, "description", str, "top level", ""),
        source=_get(data, "source", str, "top level", ""),
        ranks=ranks, copies=copies, players=players,
        partnerships=tuple(tuple(team) for team in partners), hand_size=hand_size,
        widow=widow, talon=talon, trump_chosen_by=chosen_by, trump_requires=requires,
        rank_points=tuple(rank_points), last_trick=last_trick, round_to=round_to, strict=strict,
        first_leader=first_leader, bid_ladder=tuple(ladder), all_pass=all_pass,
        bid_order=bid_order,
        min_meld=min_meld,
        min_play=min_play, game_target=target, melds=tuple(melds),
        example_hand=example, turned_bonus_rank=bonus_rank, turned_bonus=bonus,
        swap_meld=swap_meld, example_turned=example_turned, widow_demand=demand,
        widow_concede=concede, concede_bonus=concede_bonus, concede_payout=concede_payout,
        widow_durch=durch, durch_open=durch_open,
        all_tricks_bonus=all_tricks_bonus, widow_bettel=bettel, claim=claim, stock_close=close,
        trump_exchange=exchange,
    )


def _claim_game(game: dict, play: dict, trump: dict, ranks: tuple[int, ...], talon: int,
                chosen_by: str) -> tuple[int, bool, int]:
    """Sixty-six's keys: ``[game] claim = 66`` (a seat with that count may claim, ending the
    deal), ``[play] close = true`` (the leader may close the stock) and ``[trump] exchange =
    "9"`` (the trump of that rank may be exchanged for the turned card). Closing and the
    exchange only in a game with a claim; a claim only with a stock (a talon) and a turned
    trump. Returns ``(claim, close, exchange rank)``, 0, False and -1 when not given."""
    claim = _int_at_least(game, "claim", "game", 1) if "claim" in game else 0
    close = _get(play, "close", bool, "play", False)
    exchange = -1
    if "exchange" in trump:
        (exchange,) = _rank_list([_get(trump, "exchange", str, "trump")], "trump.exchange")
        if exchange not in ranks:
            raise RulesError(f"trump.exchange: rank {RANKS[exchange]} is not in the deck")
    if not claim:
        for key, table in (("close", play), ("exchange", trump)):
            if key in table:
                where = "play" if table is play else "trump"
                raise RulesError(f"{where}.{key}: only in a game with a claim ([game] claim, "
                                 f"sixty-six)")
    elif not talon or chosen_by != "turned_card":
        raise RulesError("game.claim: only in a game with a stock (deal.talon) and a turned "
                         "trump")
    return claim, close, exchange


def _turned_card(trump: dict, chosen_by: str, ranks: tuple[int, ...],
                 melds: list[MeldSpec]) -> tuple[int, int, str]:
    """``[trump] turned_bonus = ["9", 10]`` and ``swap_meld = "dix"``: only with a turned trump.
    The swap meld must be a trump meld of one rank (the card exchanged for the turned card)."""
    bonus_rank, bonus, swap_meld = -1, 0, ""
    given = [key for key in ("turned_bonus", "swap_meld") if key in trump]
    if given and chosen_by != "turned_card":
        raise RulesError(f"trump.{given[0]}: only for chosen_by = 'turned_card'")
    if "turned_bonus" in trump:
        value = _get(trump, "turned_bonus", list, "trump")
        if (len(value) != 2 or not isinstance(value[0], str) or isinstance(value[1], bool)
                or not isinstance(value[1], int) or value[1] < 0):
            raise RulesError(f"trump.turned_bonus: expected [rank, points] such as [\"9\", 10], "
                             f"got {_shown(value)}")
        (bonus_rank,) = _rank_list([value[0]], "trump.turned_bonus")
        if bonus_rank not in ranks:
            raise RulesError(f"trump.turned_bonus: rank {RANKS[bonus_rank]} is not in the deck")
        bonus = value[1]
    if "swap_meld" in trump:
        swap_meld = _get(trump, "swap_meld", str, "trump")
        meld = next((m for m in melds if m.name == swap_meld), None)
        if meld is None or meld.scope != "trump" or len(meld.ranks) != 1:
            raise RulesError(f"trump.swap_meld: {swap_meld!r} is not a trump meld of one rank in "
                             f"the meld table")
    return bonus_rank, bonus, swap_meld


def _check_example(text: str, ranks: tuple[int, ...], copies: int, hand_size: int) -> None:
    """The example hand (with the example turned card, when there is one) must be legal for the
    variant's deck (it is what commands use without --hand)."""
    try:
        types = [parse_card(tok) for tok in text.replace(",", " ").split()]
    except CardError as exc:
        raise RulesError(f"example_hand: {exc}") from None
    if len(types) != hand_size:
        raise RulesError(f"example_hand: {len(types)} cards, but deal.hand_size is {hand_size}")
    for t in set(types):
        if t % N_RANKS not in ranks or types.count(t) > copies:
            raise RulesError(f"example_hand: {types.count(t)} x {format_card(t)} is not possible "
                             f"with this deck")


def load_rules(path: str | Path) -> Rules:
    """Read and validate a rules file (TOML, the format of the built-in variants)."""
    p = Path(path)
    try:
        with open(p, "rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise RulesError(f"cannot read rules file {str(p)!r}: {exc.strerror or exc}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise RulesError(f"{p.name}: larger than a rules file can be ({MAX_FILE_BYTES:,} bytes "
                         f"at most; the built-in ones are a few KB)")
    try:
        text = raw.decode("utf-8-sig")  # a byte-order mark is not part of the TOML
    except UnicodeDecodeError:
        raise RulesError(f"{p.name}: not a UTF-8 text file") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{p.name}: not valid TOML: {exc}") from None
    except RecursionError:  # tomllib reads nested arrays and tables by recursion
        raise RulesError(f"{p.name}: values nested too deeply for a rules file (at most "
                         f"{MAX_DEPTH} levels)") from None
    if _depth(data) > MAX_DEPTH:
        raise RulesError(f"{p.name}: values nested more than {MAX_DEPTH} levels deep; a rules "
                         f"file nests at most {MAX_DEPTH} ([[melds]], a meld, its cards)")
    return rules_from_dict(data, origin=p.name)


def builtin_names() -> list[str]:
    files = resources.files(__name__)
    return sorted(f.name[: -len(".toml")] for f in files.iterdir() if f.name.endswith(".toml"))


_CACHE: dict[str, Rules] = {}


def check_names(variants: dict[str, Rules]) -> None:
    """Every name and alias of the built-in variants names one variant: a second variant with
    the same alias would silently lose it to the first."""
    owner: dict[str, str] = {}
    for vname, rules in variants.items():
        for key in (vname, *(a.lower() for a in rules.aliases)):
            if key in owner and owner[key] != vname:
                raise RulesError(f"{vname}.toml: the name {key!r} is taken by {owner[key]}")
            owner[key] = vname


def find_variant(name: str) -> Rules:
    """A built-in variant by name or alias; an unknown name raises RulesError listing the names."""
    key = name.strip().lower()
    if not _CACHE:
        loaded = {}
        for vname in builtin_names():
            text = resources.files(__name__).joinpath(f"{vname}.toml").read_text(encoding="utf-8")
            loaded[vname] = rules_from_dict(tomllib.loads(text), origin=f"{vname}.toml")
        check_names(loaded)
        _CACHE.update(loaded)
    if key in _CACHE:
        return _CACHE[key]
    for rules in _CACHE.values():
        if key in rules.aliases:
            return rules
    raise RulesError(f"unknown variant {_shown(name)}; known: {', '.join(sorted(_CACHE))}")


def all_variants() -> list[Rules]:
    return [find_variant(n) for n in builtin_names()]


def builtin_toml(name: str) -> str:
    """The TOML text of a built-in variant (name or alias) exactly as shipped: the place to start
    house rules from (``binokel-sim variants --show NAME > house.toml``, then ``--rules``)."""
    rules = find_variant(name)
    stem = next(vname for vname, cached in _CACHE.items() if cached is rules)
    return resources.files(__name__).joinpath(f"{stem}.toml").read_text(encoding="utf-8")
