"""Slow, obvious pure-Python twin of the talon-game kernel (``kernels/talon/deals.py``).

For tests: whole deals of the talon games (``two-hand-48``, ``three-hand-72``, ``four-hand-72``,
and any rules file with a talon) with the random policy on every seat, written the way
SPEC.md ("Common to all variants", "Variant two-hand-48", "Variants three-hand-72 and
four-hand-72") and docs/rules.md ("Talon games") state them. No bit tricks and no numba:

- a hand is a list of 24 lists, one per card type, holding the *served records* of the copies
  held (docs/rules.md "Which copy"): an integer packing, for every meld ``m`` of the table, the
  highest level the copy has served for ``m`` at bits ``2m .. 2m+1`` (0: never). Each list is kept
  sorted descending; the number of copies held of type ``t`` is ``len(hand[t])``;
- a trick is a list of card types in play order; the talon a list of card types in draw order,
  its last card the turned card.

The random choices are made by a ``pick(n)`` callable returning an integer in ``[0, n)``, called
only when there are at least two choices (card types, or "no declaration" plus the legal
declarations), exactly like the kernel's random policy. :func:`binokel_sim.reference.play.
stream_pick` makes such a callable from the deal's :class:`binokel_sim.reference.core.Stream`, which
continues after the shuffle, so a kernel deal and a reference deal with the same seed and block
must agree card for card and declaration for declaration.
"""

from __future__ import annotations

from typing import NamedTuple

from binokel_sim.cards import (
    N_SUITS,
    N_TYPES,
    SUITS,
    card_type,
    format_card,
    format_counts,
    type_rank,
    type_suit,
)
from binokel_sim.reference.core import Stream, block_streams, deal_hand, deck_cards
from binokel_sim.reference.play import Pick, legal_cards, stream_pick, trick_winner
from binokel_sim.variants import MeldSpec, Rules, per_rules

NO_SUIT = -1  # the suit of a declaration of an ``around`` or ``cards`` meld
LEVEL_BITS = 2  # served record: two bits a meld (levels 0..3)
LEVEL_MASK = (1 << LEVEL_BITS) - 1


class Declaration(NamedTuple):
    """One declaration choice (docs/rules.md "Declarations"): meld index in table order, suit
    (``NO_SUIT`` for around/cards melds), level (complete sets declared), and whether the
    declarer also swaps a declared card of ``rules.swap_meld`` for the turned card."""

    meld: int
    suit: int
    level: int
    swap: bool


# --- served records (docs/rules.md "Which copy") -----------------------------------------------

def served_level(record: int, meld: int) -> int:
    """The level a copy with this served record has served for meld index ``meld`` (0: never)."""
    return (record >> (LEVEL_BITS * meld)) & LEVEL_MASK


def with_level(record: int, meld: int, level: int) -> int:
    """The record with meld ``meld``'s level set to ``level``."""
    shift = LEVEL_BITS * meld
    return (record & ~(LEVEL_MASK << shift)) | (level << shift)


def fresh_hand(counts: list[int]) -> list[list[int]]:
    """Counts per card type -> a hand of copies, each a fresh copy (record 0)."""
    return [[0] * int(counts[t]) for t in range(N_TYPES)]


def hand_counts(hand: list[list[int]]) -> list[int]:
    """Copies held of each card type."""
    return [len(copies) for copies in hand]


def remove_copy(hand: list[list[int]], t: int) -> None:
    """Play (or swap away) a card of type ``t``: the first copy in order, i.e. the highest
    served record (docs/rules.md "Which copy")."""
    hand[t].pop(0)


def add_copy(hand: list[list[int]], t: int) -> None:
    """A drawn card (or the turned card taken by a swap) joins the hand as a fresh copy."""
    hand[t].append(0)
    hand[t].sort(reverse=True)


# --- declarations (docs/rules.md "Declarations", SPEC "Variant two-hand-48") -------------------

def meld_set_types(meld: MeldSpec, suit: int) -> list[int]:
    """The card types of one set of ``meld``: around/cards melds their ``type_mask``; a suit meld
    its ranks in ``suit``."""
    if meld.scope in ("around", "cards"):
        return [t for t in range(N_TYPES) if meld.type_mask >> t & 1]
    return [card_type(r, suit) for r in meld.ranks]


def meld_suits(meld: MeldSpec, trump: int) -> list[int]:
    """The suits a meld may be declared in, S H D C order: a trump meld only in trump, a
    non-trump meld in the three others, a per-suit meld in all four, around/cards melds in no
    suit (one entry, ``NO_SUIT``)."""
    if meld.scope in ("around", "cards"):
        return [NO_SUIT]
    if meld.scope == "trump":
        return [trump]
    if meld.scope == "non_trump":
        return [s for s in range(N_SUITS) if s != trump]
    return list(range(N_SUITS))  # per_suit


def meld_levels(rules: Rules, meld: MeldSpec) -> range:
    """Declarable levels, ascending: a table meld the levels its points table lists (1 ..
    ``counted_sets``), a meld counted per copy 1 .. ``copies``."""
    top = rules.copies if meld.per_set else meld.counted_sets
    return range(1, top + 1)


def parent_indices(rules: Rules, meld: MeldSpec) -> list[int]:
    """Table indices of the melds ``meld`` sits inside (its ``inside`` list: a marriage inside a
    quint)."""
    names = [m.name for m in rules.melds]
    return [names.index(parent) for parent in meld.inside]


@per_rules
def _parents(rules: Rules) -> tuple[list[int], ...]:
    """:func:`parent_indices` of every meld, in table order (the rules read once)."""
    return tuple(parent_indices(rules, meld) for meld in rules.melds)


@per_rules
def _choices(rules: Rules) -> tuple[list[tuple[int, int, list[int], range, bool]], ...]:
    """Per trump, the melds and suits :func:`legal_declarations` weighs, in its order: ``(meld
    index, suit, card types of one set, levels, whether it is the swap meld)``."""
    return tuple([(m, suit, meld_set_types(meld, suit), meld_levels(rules, meld),
                   meld.name == rules.swap_meld)
                  for m, meld in enumerate(rules.melds)
                  for suit in meld_suits(meld, trump)]
                 for trump in range(N_SUITS))


def may_serve(record: int, meld_index: int, meld: MeldSpec, level: int,
              parents: list[int]) -> bool:
    """Whether a copy may serve a declaration of ``meld`` at ``level``: a table meld needs a copy
    that has served it at a level below ``level`` (an upgrade reuses the cards), a meld counted per
    copy a copy that has never served it; and either a copy that has never served a meld it sits
    inside (``parents``, table indices: a quint's K+Q make no marriage once the quint is
    declared, SPEC "Variant two-hand-48")."""
    if any(served_level(record, p) for p in parents):
        return False
    served = served_level(record, meld_index)
    if meld.per_set:
        return served == 0
    return served < level


def serving_copies(copies: list[int], rules: Rules, meld_index: int, level: int) -> list[int]:
    """Indices (in the copies' order) of the copies that may serve the declaration."""
    meld = rules.melds[meld_index]
    parents = _parents(rules)[meld_index]
    return [i for i, record in enumerate(copies)
            if may_serve(record, meld_index, meld, level, parents)]


def is_legal(hand: list[list[int]], rules: Rules, meld_index: int, suit: int, level: int) -> bool:
    """A declaration is legal when every card type of one set has at least ``level`` copies that
    may serve it."""
    meld = rules.melds[meld_index]
    return _is_legal(hand, rules, meld_index, level, meld_set_types(meld, suit))


def _is_legal(hand: list[list[int]], rules: Rules, meld_index: int, level: int,
              types: list[int]) -> bool:
    """:func:`is_legal` given the card types of one set (a type with fewer than ``level`` copies
    in all has fewer that may serve)."""
    return all(len(hand[t]) >= level
               and len(serving_copies(hand[t], rules, meld_index, level)) >= level
               for t in types)


def declaration_points(meld: MeldSpec, level: int) -> int:
    """A table meld scores ``points[level]``; a meld counted per copy ``level * per_set``."""
    if meld.per_set:
        return level * meld.per_set
    return meld.points[level]


def swap_meld_index(rules: Rules) -> int:
    """Index of ``rules.swap_meld`` in the table, -1 without one."""
    for i, meld in enumerate(rules.melds):
        if meld.name == rules.swap_meld:
            return i
    return -1


def swap_card(rules: Rules, trump: int) -> int:
    """The card type a swap exchanges for the turned card: the swap meld's rank in trump (the
    trump 9 for the dix), -1 without a swap meld."""
    index = swap_meld_index(rules)
    if index < 0:
        return -1
    return card_type(rules.melds[index].ranks[0], trump)


def legal_declarations(rules: Rules, hand: list[list[int]], trump: int,
                       swap_possible: bool) -> list[Declaration | None]:
    """The random policy's ordered choice list after a won phase-1 trick (docs/rules.md
    "Policies"): index 0 is ``None`` (no declaration), then every legal declaration: melds in
    table order; within a meld the suits S H D C (see :func:`meld_suits`); within a suit the levels
    ascending. A declaration of ``rules.swap_meld`` made while ``swap_possible`` appears twice,
    first without the swap, then with it.

    ``hand``: the winner's copies (served records per card type, as in this module).
    ``swap_possible``: the talon's current last card is not the swap meld's card in trump.
    """
    choices: list[Declaration | None] = [None]
    for m, suit, types, levels, swap_meld in _choices(rules)[trump]:
        held = min([len(hand[t]) for t in types])
        for level in levels:
            if level > held:  # a level needs that many copies of each type, the higher ones too
                break
            if not _is_legal(hand, rules, m, level, types):
                continue
            choices.append(Declaration(m, suit, level, False))
            if swap_meld and swap_possible:
                choices.append(Declaration(m, suit, level, True))
    return choices


def apply_declaration(hand: list[list[int]], rules: Rules, decl: Declaration) -> None:
    """Mark the cards of a declaration: for every card type of one set, the first ``level``
    copies in order that may serve get meld ``m``'s level set to ``level`` (a table meld) or 1 (a
    meld counted per copy); each type's copies are re-sorted descending."""
    meld = rules.melds[decl.meld]
    mark = 1 if meld.per_set else decl.level
    for t in meld_set_types(meld, decl.suit):
        chosen = serving_copies(hand[t], rules, decl.meld, decl.level)[:decl.level]
        for i in chosen:
            hand[t][i] = with_level(hand[t][i], decl.meld, mark)
        hand[t].sort(reverse=True)


def declaration_record(rules: Rules, decl: Declaration) -> dict:
    """The record of a declaration: meld name, level, its cards (one set's types, each ``level``
    times, sorted like a hand), points and whether the turned card was swapped."""
    meld = rules.melds[decl.meld]
    counts = [0] * N_TYPES
    for t in meld_set_types(meld, decl.suit):
        counts[t] += decl.level
    return {"meld": meld.name, "level": decl.level, "cards": format_counts(counts),
            "points": declaration_points(meld, decl.level), "swap": decl.swap}


# --- play (SPEC "Variant two-hand-48": phase 1 free or strict, phase 2 strict) -----------------

def legal_types(rules: Rules, hand: list[list[int]], trick: list[int], trump: int,
                phase1: bool) -> list[int]:
    """The distinct legal card types, ascending: in phase 1 every type held (free play) unless
    ``rules.strict == "always"``; otherwise the must-head obligation."""
    counts = hand_counts(hand)
    if phase1 and rules.strict != "always":
        return [t for t in range(N_TYPES) if counts[t] > 0]
    return legal_cards(counts, trick, trump)


def choose_card(legal: list[int], pick: Pick) -> int:
    """Random policy: uniform among the distinct legal types, one draw when at least two."""
    if len(legal) >= 2:
        return legal[pick(len(legal))]
    return legal[0]


def play_trick(rules: Rules, hands: list[list[list[int]]], leader: int, trump: int,
               phase1: bool, pick: Pick) -> tuple[list[int], int]:
    """One trick, seats ``(leader + i) % players`` in turn: returns the cards in play order and the
    winning seat."""
    players = rules.players
    cards: list[int] = []
    for i in range(players):
        seat = (leader + i) % players
        card = choose_card(legal_types(rules, hands[seat], cards, trump, phase1), pick)
        remove_copy(hands[seat], card)
        cards.append(card)
    winner = (leader + trick_winner(cards, trump)) % players
    return cards, winner


def declare(rules: Rules, hand: list[list[int]], talon: list[int], trump: int,
            pick: Pick) -> Declaration | None:
    """The trick winner's declaration (random policy) and its effect on his hand and the talon.

    The swap (docs/rules.md "The dix and the swap"): after the declaration is marked, the first
    copy of the swap card leaves the hand, becomes the talon's last card, and the old last card
    (the turned card) joins the hand as a fresh copy."""
    card9 = swap_card(rules, trump)
    swap_possible = card9 >= 0 and talon[-1] != card9
    choices = legal_declarations(rules, hand, trump, swap_possible)
    if len(choices) < 2:
        return None
    decl = choices[pick(len(choices))]
    if decl is None:
        return None
    apply_declaration(hand, rules, decl)
    if decl.swap:
        remove_copy(hand, card9)
        turned = talon[-1]
        talon[-1] = card9
        add_copy(hand, turned)
    return decl


def draw_cards(rules: Rules, hands: list[list[list[int]]], talon: list[int],
               winner: int) -> list[int]:
    """After a phase-1 trick: the winner draws the talon's front card, then the others clockwise.
    Returns the cards drawn in that order."""
    drawn = []
    for i in range(rules.players):
        seat = (winner + i) % rules.players
        card = talon.pop(0)
        add_copy(hands[seat], card)
        drawn.append(card)
    return drawn


# --- whole deals --------------------------------------------------------------------------------

def play_deal(rules: Rules, hands: list[list[int]], talon: list[int], dealer: int,
              pick: Pick) -> dict:
    """One talon-game deal from the given hands (counts per card type, seat 0 first) and talon
    (card types in draw order, the last the turned card, whose suit is trump), random policy on
    every seat. Returns the record of docs/rules.md "Records" without ``deal``: ``variant``,
    ``dealer``, ``hands``, ``talon``, ``trump``, ``turned_dix``, ``tricks``, ``card_points``,
    ``meld_points``, ``scores`` and, with partnerships, ``pair_scores``.

    The first trick is led by the seat left of the dealer, later ones by the last winner. Phase 1
    (``talon // players`` tricks): after each trick its winner may declare, then everybody
    draws. Phase 2 (the remaining ``hand_size`` tricks): strict, no declarations, no draws; the
    last trick scores ``rules.last_trick``. A turned card of the ``turned_bonus`` rank scores
    ``turned_bonus`` for the dealer.
    """
    players = rules.players
    talon = [int(t) for t in talon]
    turned = talon[-1]
    trump = type_suit(turned)
    turned_dix = rules.turned_bonus_rank >= 0 and type_rank(turned) == rules.turned_bonus_rank
    copies = [fresh_hand(h) for h in hands]
    card_points = [0] * players
    meld_points = [0] * players
    if turned_dix:
        meld_points[dealer] += rules.turned_bonus
    record: dict = {
        "variant": rules.name,
        "dealer": dealer,
        "hands": [format_counts(h) for h in hands],
        "talon": [format_card(t) for t in talon],
        "trump": SUITS[trump],
        "turned_dix": turned_dix,
        "tricks": [],
    }
    phase1_tricks = rules.talon // players
    n_tricks = phase1_tricks + rules.hand_size
    leader = (dealer + 1) % players
    winner = leader
    for n in range(n_tricks):
        phase1 = n < phase1_tricks
        cards, winner = play_trick(rules, copies, leader, trump, phase1, pick)
        card_points[winner] += sum(rules.rank_points[type_rank(t)] for t in cards)
        declaration, draws = None, []
        if phase1:
            decl = declare(rules, copies[winner], talon, trump, pick)
            if decl is not None:
                declaration = declaration_record(rules, decl)
                meld_points[winner] += declaration["points"]
            draws = [format_card(t) for t in draw_cards(rules, copies, talon, winner)]
        record["tricks"].append({"leader": leader, "cards": [format_card(t) for t in cards],
                                 "winner": winner, "declaration": declaration, "draws": draws})
        leader = winner
    card_points[winner] += rules.last_trick
    scores = [card_points[s] + meld_points[s] for s in range(players)]
    record["card_points"] = card_points
    record["meld_points"] = meld_points
    record["scores"] = scores
    if rules.partnerships:
        record["pair_scores"] = [scores[0] + scores[2], scores[1] + scores[3]]
    return record


def deal_talon_game(rules: Rules, work: list[int], stream: Stream) -> tuple[list[list[int]], list[int]]:
    """The deal (docs/rules.md "The deal"): one partial Fisher-Yates over positions ``0 .. N-2`` of
    the block's carried permutation ``work``; seat ``s`` gets positions ``s*H .. s*H+H-1``, the
    talon is the rest in draw order. Returns the hands (counts) and a copy of the talon."""
    n = len(work)
    deal_hand(work, 0, n - 1, stream)
    size, players = rules.hand_size, rules.players
    hands = []
    for s in range(players):
        counts = [0] * N_TYPES
        for t in work[s * size:(s + 1) * size]:
            counts[t] += 1
        hands.append(counts)
    return hands, list(work[players * size:n])


def play_deals(rules: Rules, n_deals: int, seed: int, block_size: int, first_block: int = 0,
               first_deal: int = 0) -> list[dict]:
    """Twin of the talon kernel with the random policy on every seat: one record a deal
    (docs/rules.md "Records").

    Deal ``d`` (number ``first_deal + d``, dealer ``(first_deal + d) % players``) reads the stream
    of block ``first_block + d // block_size``, the deck permutation carried within a block; the
    stream continues from the shuffle into the random policy's draws.
    """
    records = []
    for d, stream, work in block_streams(deck_cards(rules), n_deals, seed, block_size, first_block):
        hands, talon = deal_talon_game(rules, work, stream)
        dealer = (first_deal + d) % rules.players
        record = play_deal(rules, hands, talon, dealer, stream_pick(stream))
        records.append({"deal": first_deal + d, **record})
    return records
