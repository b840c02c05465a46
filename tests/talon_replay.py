"""An independent replay checker for the deal records of the talon games (two-hand-48,
three-hand-72, four-hand-72).

Written from the rules alone (``docs/SPEC.md``: "Common to all variants", "Variant
two-hand-48", "Variants three-hand-72 and four-hand-72"; ``docs/rules.md``: "Talon games"), so that
it catches the engine's mistakes: it imports nothing of the engine (no kernels, no
``reference.play``, no ``talon_games``), only the card notation and the rules data.

``replay_talon(rules, record)`` replays one record trick by trick and raises ``AssertionError``
naming the deal, the trick and the problem at the first violation.

Conventions read from docs/rules.md, "Declarations":
- every card copy keeps, per meld of the table, the highest level it has served (0: never); a copy
  that takes part in a declaration of meld ``m`` at level ``L`` has served ``m`` at level ``L``
  (for a meld counted per copy too: two marriages declared at once served "marriage" at level 2);
- a player's copies of one card type are ordered by their served record packed two bits a meld
  (meld ``m`` at bits ``2m``), highest first; a card played or swapped away is the first copy in
  that order; a declaration takes, for every card type of one set, the first ``L`` copies in that
  order that may serve; a drawn card (and the turned card taken by a swap) is a fresh copy;
- a meld inside others (its ``inside`` list) is no new combination once one of them is declared
  (SPEC "Variant two-hand-48", as in Bezique): a copy that has served a meld of that list may not
  serve it (a quint's K+Q make no marriage once the quint is declared; a marriage's K+Q may still
  serve a later quint).
"""

from __future__ import annotations

from collections import Counter
from operator import attrgetter
from typing import Any

from binokel_sim.cards import format_card
from binokel_sim.variants import MeldSpec, Rules, per_rules

from replay_rules import (
    RecordCheck,
    deck_copies,
    hand_order,
    in_hand_order,
    legal_types,
    rank_of,
    suit_of,
    trick_winner_index,
)

SUITS = "SHDC"
N_SUITS = 4
N_RANKS = 6
N_TYPES = 24

RECORD_KEYS = ["deal", "variant", "dealer", "hands", "talon", "trump", "turned_dix", "tricks",
               "card_points", "meld_points", "scores"]
TRICK_KEYS = ["leader", "cards", "winner", "declaration", "draws"]
TRICK_KEY_SET = set(TRICK_KEYS)
DECLARATION_KEYS = ["meld", "level", "cards", "points", "swap"]
DECLARATION_KEY_SET = set(DECLARATION_KEYS)


def _type(rank: int, suit: int) -> int:
    return suit * N_RANKS + rank


# --- the rules, written out from SPEC.md --------------------------------------------------------

def meld_set_types(meld: MeldSpec, trump: int) -> list[tuple[int | None, list[int]]]:
    """Every possible single set of ``meld``: (suit or None, the card types of one set)."""
    if meld.scope == "around":
        return [(None, [_type(r, s) for s in range(N_SUITS) for r in meld.ranks])]
    if meld.scope == "cards":
        return [(None, [t for t in range(N_TYPES) if (meld.type_mask >> t) & 1])]
    if meld.scope == "trump":
        suits = [trump]
    elif meld.scope == "non_trump":
        suits = [s for s in range(N_SUITS) if s != trump]
    elif meld.scope == "per_suit":
        suits = list(range(N_SUITS))
    else:  # pragma: no cover - the loader allows no other scope
        raise AssertionError(f"meld {meld.name}: unknown scope {meld.scope!r}")
    return [(s, [_type(r, s) for r in meld.ranks]) for s in suits]


@per_rules
def _meld_sets(rules: Rules) -> dict[tuple[int, int], list[tuple[int | None, list[int]]]]:
    """:func:`meld_set_types` of every meld of the table (by index) with every trump."""
    return {(m, trump): meld_set_types(meld, trump)
            for m, meld in enumerate(rules.melds) for trump in range(N_SUITS)}


def meld_sets(rules: Rules, m: int, trump: int) -> list[tuple[int | None, list[int]]]:
    """``meld_set_types`` of the table's meld ``m``, worked out once per rules and
    trump."""
    return _meld_sets(rules)[(m, trump)]


def max_level(rules: Rules, meld: MeldSpec) -> int:
    """docs/rules.md: a table meld at the levels its points table lists (1..counted_sets); a meld
    counted per copy up to the copies held (at most the deck's copies)."""
    return rules.copies if meld.per_set else meld.counted_sets


def meld_points(meld: MeldSpec, level: int) -> int:
    return level * meld.per_set if meld.per_set else meld.points[level]


# --- the replay ---------------------------------------------------------------------------------

class _Copy:
    """One card copy in a hand: the highest level it has served per meld of the table
    (0: never), and its order key, that record packed two bits a meld (meld ``m`` at
    bits ``2m``)."""

    __slots__ = ("served", "key")

    def __init__(self, n_melds: int):
        self.served = [0] * n_melds
        self.key = 0

    def serve(self, m: int, level: int) -> None:
        self.served[m] = level
        self.key = sum(lev << (2 * k) for k, lev in enumerate(self.served))


_BY_KEY = attrgetter("key")


class _Replay(RecordCheck):
    def trick_label(self, trick: int) -> str:
        phase = 1 if trick < self.n_phase1 else 2
        return f"tricks[{trick}] (trick {trick + 1}, phase {phase})"

    # -- the hands: copies with their served records --------------------------------------------
    # self.hands[seat]: the copies of each card type; self.held[seat]: the types it holds
    # a copy of; self.n_held[seat]: the number of copies (both kept up to date by give and
    # take)
    def ordered(self, seat: int, t: int) -> list[_Copy]:
        """The seat's copies of type ``t``, highest served record first (the copy convention)."""
        copies = self.hands[seat].setdefault(t, [])
        copies.sort(key=_BY_KEY, reverse=True)
        return copies

    def give(self, seat: int, t: int) -> None:
        self.hands[seat].setdefault(t, []).append(_Copy(self.n_melds))
        self.held[seat].add(t)
        self.n_held[seat] += 1

    def take(self, seat: int, t: int) -> None:
        """Remove the first copy in the convention's order (a card played or swapped away)."""
        copies = self.ordered(seat, t)
        copies.pop(0)
        if not copies:
            self.held[seat].discard(t)
        self.n_held[seat] -= 1

    # -- the checks -----------------------------------------------------------------------------
    def run(self) -> None:
        rules, rec = self.rules, self.record
        self.n_phase1 = 0
        if not isinstance(rec, dict):
            self.fail(f"a record must be a JSON object, got {type(rec).__name__}")
        self.check(rules.talon > 0 and rules.trump_chosen_by == "turned_card",
                   f"variant {rules.name} is not a talon game (talon {rules.talon}, trump "
                   f"{rules.trump_chosen_by})")
        self.check(rules.talon % rules.players == 0,
                   f"variant {rules.name}: a talon of {rules.talon} does not split into rounds of "
                   f"{rules.players} draws")
        expected_keys = RECORD_KEYS + (["pair_scores"] if rules.partnerships else [])
        missing = [k for k in expected_keys if k not in rec]
        self.check(not missing, f"record lacks the key(s) {', '.join(missing)}")
        unknown = [k for k in rec if k not in expected_keys]
        self.check(not unknown, f"record has unexpected key(s) {', '.join(map(str, unknown))}")
        self.check(list(rec) == expected_keys,
                   f"record keys are in the order {list(rec)}, expected {expected_keys}")
        deal = self.integer(rec["deal"], "deal")
        self.check(deal >= 0, f"deal number {deal} is negative")
        self.check(rec["variant"] == rules.name,
                   f"variant is {rec['variant']!r}, the rules are {rules.name!r}")
        players = rules.players
        self.players = players
        self.n_phase1 = rules.talon // players
        dealer = self.integer(rec["dealer"], "dealer")
        self.check(0 <= dealer < players, f"dealer {dealer} is not a seat 0..{players - 1}")

        # the deal: hands + talon = the deck; hand size; hands sorted like a hand
        hands_rec = rec["hands"]
        self.check(isinstance(hands_rec, list) and len(hands_rec) == players,
                   f"hands must be a list of {players} hands")
        dealt = [self.cards(h, f"hands[{s}]") for s, h in enumerate(hands_rec)]
        for s, h in enumerate(dealt):
            self.check(len(h) == rules.hand_size,
                       lambda: f"hands[{s}] has {len(h)} cards, the hand size is "
                               f"{rules.hand_size}")
            self.check(in_hand_order(h),
                       lambda: f"hands[{s}] is not sorted S H D C, high to low: "
                               f"{hands_rec[s]}")
        talon = self.cards(rec["talon"], "talon")
        self.check(len(talon) == rules.talon,
                   f"talon has {len(talon)} cards, the variant's talon is {rules.talon}")
        total = Counter(t for h in dealt for t in h) + Counter(talon)
        deck = deck_copies(rules)
        for t in range(N_TYPES):
            self.check(total[t] == deck[t],
                       lambda: f"hands and talon hold {total[t]} x {format_card(t)}, "
                               f"the deck has {deck[t]}")

        # trump and the turned dix
        turned = talon[-1]
        trump = suit_of(turned)
        self.trump = trump
        self.check(rec["trump"] == SUITS[trump],
                   f"trump is {rec['trump']!r}, the turned card {format_card(turned)} makes it "
                   f"{SUITS[trump]!r}")
        dix = rules.turned_bonus_rank >= 0 and rank_of(turned) == rules.turned_bonus_rank
        self.check(isinstance(rec["turned_dix"], bool),
                   f"turned_dix must be true/false, got {rec['turned_dix']!r}")
        self.check(rec["turned_dix"] == dix,
                   f"turned_dix is {rec['turned_dix']}, but the turned card is "
                   f"{format_card(turned)}")

        self.hands: list[dict[int, list[_Copy]]] = [{} for _ in range(players)]
        self.held: list[set[int]] = [set() for _ in range(players)]
        self.n_held = [0] * players
        self.n_melds = len(rules.melds)
        for s, h in enumerate(dealt):
            for t in h:
                self.give(s, t)
        self.talon = list(talon)  # the talon still to draw; a swap changes its last card
        self.next_draw = 0

        tricks = rec["tricks"]
        n_tricks = self.n_phase1 + rules.hand_size
        self.check(isinstance(tricks, list), "tricks must be a list")
        self.check(len(tricks) == n_tricks,
                   f"{len(tricks)} tricks, expected {n_tricks} ({self.n_phase1} in phase 1 while "
                   f"the talon lasts, then {rules.hand_size} in phase 2)")
        won_points = [0] * players
        declared = [0] * players
        leader = (dealer + 1) % players
        for i, trick in enumerate(tricks):
            winner, cards = self.trick(i, trick, leader)
            won_points[winner] += sum(rules.rank_points[rank_of(t)] for t in cards)
            if trick["declaration"] is not None:
                declared[winner] += trick["declaration"]["points"]
            leader = winner
        last_winner = leader

        for s in range(players):
            self.check(self.n_held[s] == 0,
                       f"seat {s} still holds {self.n_held[s]} card(s) after the last trick")
        self.check(self.next_draw == len(self.talon),
                   f"{len(self.talon) - self.next_draw} talon card(s) were never drawn")

        # the totals
        card_points = list(won_points)
        card_points[last_winner] += rules.last_trick
        deck_total = 4 * rules.copies * sum(rules.rank_points[r] for r in rules.ranks) \
            + rules.last_trick
        self.check(sum(card_points) == deck_total,
                   f"replayed card points add up to {sum(card_points)}, not {deck_total}")
        got = self.per_seat("card_points")
        self.check(got == card_points,
                   f"card_points are {got}, the replay gives {card_points} (cards of the tricks "
                   f"won + {rules.last_trick} for the last trick to seat {last_winner})")
        self.check(sum(got) == deck_total, f"card_points add up to {sum(got)}, not {deck_total}")
        melds = list(declared)
        if dix:
            melds[dealer] += rules.turned_bonus
        got = self.per_seat("meld_points")
        self.check(got == melds,
                   f"meld_points are {got}, the replay gives {melds} (declarations"
                   + (f" + {rules.turned_bonus} for the dealer's turned dix)" if dix else ")"))
        scores = [c + m for c, m in zip(card_points, melds)]
        got = self.per_seat("scores")
        self.check(got == scores, f"scores are {got}, card_points + meld_points give {scores}")
        if rules.partnerships:
            pairs = [sum(scores[s] for s in team) for team in rules.partnerships]
            got = rec["pair_scores"]
            self.check(got == pairs,
                       f"pair_scores are {got!r}, the seats' scores give {pairs} "
                       f"(pairs {', '.join('+'.join(map(str, t)) for t in rules.partnerships)})")

    def trick(self, i: int, trick: Any, leader: int) -> tuple[int, list[int]]:
        """Check trick ``i`` and play it; returns (winner, its cards)."""
        rules, players, trump = self.rules, self.players, self.trump
        phase1 = i < self.n_phase1
        self.check(isinstance(trick, dict), lambda: f"a trick must be an object, got {trick!r}", i)
        if trick.keys() != TRICK_KEY_SET:
            missing = [k for k in TRICK_KEYS if k not in trick]
            self.check(not missing, f"trick lacks the key(s) {', '.join(missing)}", i)
            unknown = [k for k in trick if k not in TRICK_KEYS]
            self.check(not unknown, f"trick has unexpected key(s) {', '.join(map(str, unknown))}",
                       i)

        got_leader = self.integer(trick["leader"], "leader", i)
        if got_leader != leader:
            if i == 0:
                self.fail(f"the first trick is led by seat {got_leader}, but the dealer is seat "
                          f"{self.record['dealer']}, so seat {leader} (dealer + 1) leads", i)
            self.fail(f"led by seat {got_leader}, but the previous trick's winner is seat "
                      f"{leader}", i)
        cards = self.cards(trick["cards"], "cards", i)
        self.check(len(cards) == players,
                   lambda: f"{len(cards)} cards played, expected one per player "
                           f"({players})", i)
        size = rules.hand_size if phase1 else rules.hand_size - (i - self.n_phase1)
        for s, n in enumerate(self.n_held):
            if n != size:
                self.fail(f"seat {s} holds {n} cards before the trick, expected "
                          f"{size}", i)

        strict = not phase1 or rules.strict == "always"
        for k, t in enumerate(cards):
            seat = (leader + k) % players
            held = self.held[seat]
            if t not in held:
                self.fail(f"seat {seat} plays {format_card(t)}, which it does not hold (it holds "
                          f"{self._show(seat)})", i)
            if strict and k:  # the leader may lead anything he holds
                legal = legal_types(held, cards[:k], trump)
                if t not in legal:
                    self.fail(f"seat {seat} plays {format_card(t)} to "
                              f"{' '.join(map(format_card, cards[:k]))} (trump {SUITS[trump]}), "
                              f"which breaks the must-head obligation: legal are "
                              f"{' '.join(format_card(u) for u in sorted(legal, key=hand_order))}",
                              i)
            self.take(seat, t)

        winner = (leader + trick_winner_index(cards, trump)) % players
        got_winner = self.integer(trick["winner"], "winner", i)
        self.check(got_winner == winner,
                   lambda: f"winner is seat {got_winner}, but "
                           f"{' '.join(map(format_card, cards))} led by seat {leader} with trump "
                           f"{SUITS[trump]} goes to seat {winner}", i)

        decl = trick["declaration"]
        if decl is not None:
            self.check(phase1, "a declaration in phase 2 (declarations are made only while the "
                               "talon lasts)", i)
            self.declaration(i, decl, winner)

        draws = self.cards(trick["draws"], "draws", i)
        if not phase1:
            self.check(not draws,
                       lambda: f"draws {trick['draws']} in phase 2 (the talon is gone)", i)
            return winner, cards
        self.check(len(draws) == players,
                   lambda: f"{len(draws)} cards drawn, expected one per player "
                           f"({players})", i)
        for k, t in enumerate(draws):
            seat = (winner + k) % players
            expected = self.talon[self.next_draw]
            if t != expected:
                self.fail(f"seat {seat} (draw {k + 1}, winner first then clockwise) draws "
                          f"{format_card(t)}, but the talon's next card is {format_card(expected)}"
                          + (" (the last talon card)"
                             if self.next_draw == len(self.talon) - 1 else ""), i)
            self.next_draw += 1
            self.give(seat, t)
        if i == self.n_phase1 - 1:
            self.check(self.next_draw == len(self.talon),
                       "the talon is not empty after the last phase-1 trick", i)
        return winner, cards

    def _show(self, seat: int) -> str:
        types = sorted((t for t, c in self.hands[seat].items() for _ in c), key=hand_order)
        return " ".join(map(format_card, types)) or "nothing"

    def declaration(self, i: int, decl: Any, seat: int) -> None:
        rules = self.rules
        self.check(isinstance(decl, dict), lambda: f"a declaration must be an object or null, got "
                                           f"{decl!r}", i)
        if decl.keys() != DECLARATION_KEY_SET:
            missing = [k for k in DECLARATION_KEYS if k not in decl]
            self.check(not missing, f"declaration lacks the key(s) {', '.join(missing)}", i)
            unknown = [k for k in decl if k not in DECLARATION_KEYS]
            self.check(not unknown, f"declaration has unexpected key(s) "
                                    f"{', '.join(map(str, unknown))}", i)
        name = decl["meld"]
        names = [m.name for m in rules.melds]
        self.check(name in names,
                   lambda: f"declaration of an unknown meld {name!r} (the table has "
                           f"{', '.join(names)})", i)
        m = names.index(name)
        meld = rules.melds[m]
        level = self.integer(decl["level"], "declaration level", i)
        top = max_level(rules, meld)
        self.check(1 <= level <= top,
                   lambda: f"declaration of {name} at level {level}: declarable "
                           f"levels are 1..{top}", i)
        cards = self.cards(decl["cards"], "declaration cards", i)
        self.check(in_hand_order(cards),
                   lambda: f"declaration cards {decl['cards']} are not sorted S H D C, "
                           f"high to low", i)

        # the cards must be exactly `level` sets of the meld, in a suit its scope allows
        given = Counter(cards)
        match = [(suit, types) for suit, types in meld_sets(rules, m, self.trump)
                 if given == Counter({t: level for t in types})]
        if not match:
            where = {"trump": f" in trump {SUITS[self.trump]}",
                     "non_trump": f" in one non-trump suit (trump {SUITS[self.trump]})",
                     "per_suit": " in one suit"}.get(meld.scope, "")
            self.fail(f"declaration cards {' '.join(map(format_card, cards))} are not {level} "
                      f"set(s) of {name}{where}", i)
        suit, types = match[0]

        # points
        points = self.integer(decl["points"], "declaration points", i)
        want = meld_points(meld, level)
        self.check(points == want,
                   lambda: f"{name} at level {level} scores {want}, the record says "
                           f"{points}", i)

        # held now (after the trick) and allowed to serve at this level
        for t in types:
            copies = self.ordered(seat, t)
            self.check(len(copies) >= level,
                       lambda: f"seat {seat} declares {name} at level {level} with {level} x "
                               f"{format_card(t)}, but holds {len(copies)} (it holds "
                               f"{self._show(seat)})", i)
            if meld.per_set:
                usable = [c for c in copies if c.served[m] == 0]
                rule = "never served it (a meld counted per copy)"
            else:
                usable = [c for c in copies if c.served[m] < level]
                rule = ("never served it" if level == 1
                        else f"served it only below level {level} (an upgrade)")
            self.check(len(usable) >= level,
                       lambda: f"seat {seat} declares {name} at level {level}, but only "
                               f"{len(usable)} of its {len(copies)} x {format_card(t)} may "
                               f"serve: a card never serves two melds of the same kind; a copy "
                               f"must have {rule} (served levels "
                               f"{[c.served[m] for c in copies]})", i)
            # SPEC: a meld inside one already declared is not a new combination
            for parent in meld.inside:
                p = names.index(parent)
                fresh = [c for c in usable if c.served[p] == 0]
                self.check(len(fresh) >= level,
                           lambda: f"seat {seat} declares {name} at level {level}, but only "
                                   f"{len(fresh)} of its {len(copies)} x {format_card(t)} may "
                                   f"serve: {name} lies inside {parent}, and a copy that served "
                                   f"a declared {parent} makes no {name} (served {parent} levels "
                                   f"{[c.served[p] for c in copies]})", i)
                usable = fresh
            for c in usable[:level]:
                c.serve(m, level)

        # the swap of a declared trump 9 for the turned card
        swap = decl["swap"]
        self.check(isinstance(swap, bool),
                   lambda: f"declaration swap must be true/false, got {swap!r}", i)
        if swap:
            self.check(bool(rules.swap_meld) and name == rules.swap_meld,
                       f"a swap with a declaration of {name}: only a declared "
                       f"{rules.swap_meld or '(no swap meld)'} may be swapped for the turned card",
                       i)
            (nine,) = types  # the swap meld is a trump meld of one rank
            last = self.talon[-1]
            self.check(last != nine,
                       f"a swap while the talon's last card is {format_card(last)} itself (the "
                       f"turned card was a {format_card(nine)} or one was swapped in already)", i)
            self.take(seat, nine)
            self.give(seat, last)
            self.talon[-1] = nine


def replay_talon(rules: Rules, record: dict) -> None:
    """Replay one talon-game deal record against ``rules``; ``AssertionError`` on the first
    violation, naming the deal, the trick and the problem."""
    _Replay(rules, record).run()
