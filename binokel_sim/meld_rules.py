"""Meld sets read straight from the rules (pure Python, no bit tricks): the per-suit logic that
the exact engine (:mod:`binokel_sim.exact`), the kernels' pure-Python twin
(:mod:`binokel_sim.reference.core`) and ``analyze`` (:func:`binokel_sim.analysis.analyze_hand`, one
hand needs no compiled kernel) build on; tests hold it to the meld kernel on random hands. Contract: SPEC.md meld tables and "Counting"; scopes and
``inside`` as in docs/rules.md ("Meld scopes", "Melds inside melds").
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import product

from binokel_sim.cards import N_SUITS, N_TYPES, card_type
from binokel_sim.variants import MeldSpec, Rules, per_rules

FIXED_SCOPES = ("around", "cards")


def _meld_types(meld: MeldSpec, suit: int) -> list[int]:
    """Card types of one set of a meld (a suit meld: in ``suit``)."""
    if meld.scope in FIXED_SCOPES:
        return [t for t in range(N_TYPES) if meld.type_mask >> t & 1]
    return [card_type(r, suit) for r in meld.ranks]


@per_rules
def _set_types(rules: Rules) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per meld in table order, per suit, the card types of one set (:func:`_meld_types`; a fixed
    meld's are the same in every suit)."""
    return tuple(tuple(tuple(_meld_types(m, s)) for s in range(N_SUITS)) for m in rules.melds)


@per_rules
def _by_name(rules: Rules) -> dict[str, MeldSpec]:
    return {m.name: m for m in rules.melds}


def fixed_multiplicities(rules: Rules, counts: list[int]) -> dict[str, int]:
    """Complete sets of every fixed meld (scope around/cards): the smallest count over its cards,
    before any meld inside another is taken away."""
    types = _set_types(rules)
    return {m.name: min([counts[t] for t in types[i][0]])
            for i, m in enumerate(rules.melds) if m.scope in FIXED_SCOPES}


def fixed_counted(rules: Rules, multiplicity: dict[str, int]) -> dict[str, int]:
    """The count each fixed meld reports, from its multiplicity: an ``around`` meld inside other
    ``around`` melds counts 0 when its multiplicity is at most the largest number of sets a parent
    counts (the parent stands for it: kings around inside a roundhouse), else its multiplicity (it
    scores its own entry: eight kings). Fixed melds missing from ``multiplicity`` are skipped (a
    meld given must come with its parents)."""
    by_name = _by_name(rules)
    out: dict[str, int] = {}
    for meld in rules.melds:
        if meld.name not in multiplicity or meld.scope not in FIXED_SCOPES:
            continue
        sets = multiplicity[meld.name]
        if meld.inside:
            parent_kept = max(min(out[p], by_name[p].counted_sets) for p in meld.inside)
            if sets <= parent_kept:
                sets = 0
        out[meld.name] = sets
    return out


def fixed_sets(rules: Rules, counts: list[int]) -> dict[str, int]:
    """The count every fixed meld (scope around/cards) reports for a hand (counts per type): its
    complete sets, 0 for an ``around`` meld its parent stands for (:func:`fixed_counted`)."""
    return fixed_counted(rules, fixed_multiplicities(rules, counts))


def suit_sets(rules: Rules, rank_count, is_trump: bool, fixed_kept: dict[str, int]) -> dict[str, int]:
    """Sets of every suit meld in one suit, given ``rank_count(rank)`` for that suit, whether the
    suit is trump, and the sets each fixed meld counts (what a meld inside it loses).

    A meld outside its scope (a trump meld in a plain suit, a non-trump meld in trump) has 0 sets;
    a meld inside others loses the largest number of sets one of them counts (a K+Q inside both a
    quint and a roundhouse is absorbed once), never going below 0; a suit counts at most the sets
    its table counts (``counted_sets``: two quints of one suit are one quint).
    """
    return _suit_sets(rules, lambda i: min(rank_count(r) for r in rules.melds[i].ranks),
                      is_trump, fixed_kept)


@per_rules
def _suit_melds(rules: Rules) -> tuple[tuple[int, str, bool, bool, tuple[str, ...], int], ...]:
    """Every suit meld in table order as ``(index, name, in scope in trump, in scope in a plain
    suit, inside, counted_sets)``."""
    return tuple((i, m.name, m.scope in ("per_suit", "trump"), m.scope in ("per_suit", "non_trump"),
                  m.inside, m.counted_sets)
                 for i, m in enumerate(rules.melds) if m.scope not in FIXED_SCOPES)


def _suit_sets(rules: Rules, smallest: Callable[[int], int], is_trump: bool,
               fixed_kept: dict[str, int]) -> dict[str, int]:
    """:func:`suit_sets`, given ``smallest(i)``: the smallest count over the cards of meld ``i``
    (table order) in the suit, asked only of the melds in scope."""
    kept = dict(fixed_kept)
    sets_of: dict[str, int] = {}
    for i, name, in_trump, in_plain, inside, counted_sets in _suit_melds(rules):
        in_scope = in_trump if is_trump else in_plain
        sets = smallest(i) if in_scope else 0
        if in_scope:
            sets = max(0, sets - (max([kept[parent] for parent in inside]) if inside else 0))
        # past the sets its table counts a suit meld scores nothing more, and reports no more
        # (two quints of one suit are one quint, "a quint scores 250 once for each suit")
        sets_of[name] = kept[name] = min(sets, counted_sets)
    return sets_of


def meld_table(rules: Rules, counts: list[int], trump: int) -> list[tuple[str, int, int]]:
    """``(name, count, points)`` of every meld in table order, read straight from the contract:

    a meld's sets are the smallest count over its cards; a suit meld is counted in each suit of its
    scope and added up; a suit meld inside others loses, in each suit, the largest number of sets
    one of them counts; an around meld inside around melds counts 0 when a parent counts at least
    as many sets, else its own sets; the points table is read at the number of sets (the last entry
    past the table's end).
    """
    fixed, fixed_kept = _fixed_part(rules, counts)
    per_suit = [_sets_in_suit(rules, counts, s, s == trump, fixed_kept) for s in range(N_SUITS)]
    return _rows(rules, fixed, per_suit)


def meld_tables(rules: Rules, counts: list[int]) -> list[list[tuple[str, int, int]]]:
    """:func:`meld_table` with each suit as trump, S H D C. A suit's sets depend on the trump
    only through whether the suit is trump, so each suit is counted twice (as trump, as a plain
    suit), not four times."""
    fixed, fixed_kept = _fixed_part(rules, counts)
    as_trump, as_plain = ([_sets_in_suit(rules, counts, s, is_trump, fixed_kept)
                           for s in range(N_SUITS)] for is_trump in (True, False))
    return [_rows(rules, fixed, [as_trump[s] if s == trump else as_plain[s]
                                 for s in range(N_SUITS)])
            for trump in range(N_SUITS)]


def _fixed_part(rules: Rules, counts: list[int]) -> tuple[dict[str, int], dict[str, int]]:
    """What the fixed melds count (:func:`fixed_sets`) and what of it a meld inside them loses
    (at most the sets their tables count)."""
    fixed = fixed_sets(rules, counts)
    fixed_kept = {m.name: min(fixed[m.name], m.counted_sets) for m in rules.melds if m.name in fixed}
    return fixed, fixed_kept


def _sets_in_suit(rules: Rules, counts: list[int], suit: int, is_trump: bool,
                  fixed_kept: dict[str, int]) -> dict[str, int]:
    """:func:`suit_sets` of a hand (counts per type) in ``suit``."""
    types = _set_types(rules)
    return _suit_sets(rules, lambda i: min([counts[t] for t in types[i][suit]]), is_trump,
                      fixed_kept)


def _rows(rules: Rules, fixed: dict[str, int], per_suit: list[dict[str, int]]
          ) -> list[tuple[str, int, int]]:
    """:func:`meld_table`'s rows from the fixed melds' counts and the suit melds' sets per suit."""
    rows = []
    for meld in rules.melds:
        if meld.name in fixed:
            sets = fixed[meld.name]
            rows.append((meld.name, sets, meld.points[sets]))
        else:
            sets_by_suit = [per_suit[s][meld.name] for s in range(N_SUITS)]
            rows.append((meld.name, sum(sets_by_suit),
                         sum([meld.points[k] for k in sets_by_suit])))
    return rows


def count_points(rules: Rules, meld: MeldSpec, count: int) -> int | None:
    """What holding ``meld`` ``count`` times scores, as :func:`meld_table` reports it.

    A fixed meld reads its points table at ``count`` (past its end, the last entry); a trump meld
    lies in one suit, so likewise. A suit meld of several suits (``non_trump``, ``per_suit``)
    adds each suit's entry, each suit counting at most ``counted_sets``: its value is the same for
    every way the sets may fall across the suits when its table scores per set (every built-in
    variant), and ``None`` when a house table makes it depend on the way (say 250 for one quint
    but 1000 for two of one suit: two quints then score 500 or 1000).
    """
    points = meld.points
    if meld.scope in FIXED_SCOPES or meld.scope == "trump":
        return int(points[min(count, len(points) - 1)])
    n_suits = N_SUITS - 1 if meld.scope == "non_trump" else N_SUITS
    top = min(meld.counted_sets, len(points) - 1)
    values = {sum(points[k] for k in split)
              for split in product(range(top + 1), repeat=n_suits) if sum(split) == count}
    return int(values.pop()) if len(values) == 1 else None


def may_name(rules: Rules, counts: list[int], suit: int) -> bool:
    """Whether a hand (counts per type) may name ``suit`` as trump (holds ``trump_requires``)."""
    return all(counts[card_type(r, suit)] > 0 for r in rules.trump_requires)


def shown_cards(rules: Rules, counts: list[int], trump: int) -> list[int]:
    """Copies of each card type a hand shows with its melds, ``trump`` named (docs/rules.md,
    "Sampling policy and inference"): every meld in its scope that the hand holds shows its
    cards, one copy per set up to the sets the table counts; a card serving several melds is
    shown as often as the one needing most copies of it (a king of a run and of kings around is
    one king)."""
    shown = [0] * N_TYPES
    for meld in rules.melds:
        if meld.scope in FIXED_SCOPES:
            suits = [0]
        else:
            suits = [s for s in range(N_SUITS)
                     if meld.scope == "per_suit" or (meld.scope == "trump") == (s == trump)]
        for suit in suits:
            types = _meld_types(meld, suit)
            sets = min(min(counts[t] for t in types), meld.counted_sets)
            for t in types:
                shown[t] = max(shown[t], sets)
    return shown
