"""A variant compiled into numpy arrays, handed to the kernels as arguments.

Tables are never module globals: numba would freeze them into its on-disk cache, and a user's
``--rules`` file must reach the same compiled kernel as a built-in variant.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from binokel_sim import expert_play
from binokel_sim.cards import MAX_COPIES, N_RANKS, N_SUITS, N_TYPES, card_type
from binokel_sim.kernels import melds as km
from binokel_sim.variants import MAX_INSIDE, MAX_MELDS, Rules

# meld scope codes used by the kernels
SCOPE_FIXED, SCOPE_TRUMP, SCOPE_NON_TRUMP, SCOPE_PER_SUIT = 0, 1, 2, 3
SCOPE_CODES = {"around": SCOPE_FIXED, "cards": SCOPE_FIXED, "trump": SCOPE_TRUMP,
               "non_trump": SCOPE_NON_TRUMP, "per_suit": SCOPE_PER_SUIT}

MAX_PARENTS = MAX_INSIDE  # the loader allows no more
# columns of the meld table (int64, one row a meld)
COL_SCOPE = 0
COL_MASK = 1  # fixed: card types of one set; suit melds: the ranks' bits in suit 0 (shift 6*suit)
COL_COUNTED = 2  # how many sets the points table counts (the absorption limit for child melds)
COL_POINTS = 3  # MAX_COPIES + 1 columns: points for multiplicity 0..4
COL_PARENTS = COL_POINTS + MAX_COPIES + 1  # MAX_PARENTS columns of parent meld indices, -1 = none
N_COLS = COL_PARENTS + MAX_PARENTS
# The kernels pack every meld's count into one int64, COUNT_BITS bits a meld: the loader's
# MAX_MELDS fields must fit (sign bit spare), and a field holds a suit meld's count summed over
# the four suits (at most 4 * MAX_COPIES) without carrying into the next.
assert MAX_MELDS * km.COUNT_BITS <= 63
assert N_SUITS * MAX_COPIES < 1 << km.COUNT_BITS
# The meld-odds kernel adds a hand's four suit pattern indices in one uint64, 16 bits a suit, and
# finds fixed melds' sets with a guard bit above each count field (sets_min: counts <= 4 < 16).
assert (MAX_COPIES + 1) ** N_RANKS <= 1 << 16
assert MAX_COPIES < 1 << (km.COUNT_BITS - 1) and km.MAX_PARENTS == MAX_PARENTS


@dataclass(frozen=True)
class Tables:
    """Arrays a kernel needs for one variant.

    meld_table   int64 (n_melds, N_COLS), columns as the COL_* constants
    trump_need   int64 scalar: rank bits (suit 0) the hand must hold to name a suit; 0 = any suit
    deck         int64 (deck_size,): the card type of every physical card
    deck_counts  int64 (24,): copies of each card type
    card_points  int64 (24,): trick points of each card type
    max_total    int64: an upper bound on one hand's meld total (histogram width): every meld
                 at its highest entry, in every suit of its scope (absorption only lowers it)
    ladder       int64 (rungs, 2): the bidding ladder, [from, step] per rung (0 rungs: no bidding)
    kt           the tuple the meld kernels take (kernels/melds.py):
      meld_table        as above
      pattern_value     int64 (64,): a suit's 6-bit block -> its share of the pattern index
                        (sum over ranks r in the block of base**r, base = copies + 1)
      fixed_parents     int64 (k,): fixed melds that some suit meld sits inside (the state
                        gives each one the sets it counts: its reported count capped at counted)
      fixed_radix       int64 (k,): their place values in the fixed state index
      suit_points       int64 (patterns, 2, states): suit melds' points in one suit, case 1 =
                        trump suit, per fixed state
      suit_counts       int64 (patterns, 2, states): every meld's count in one suit, packed
                        5 bits a meld (kernels/melds.py, COUNT_BITS)
      suit_meld_points  int64 (patterns, 2, states, n_melds): per meld points in one suit
      card_value        uint64 (24,): what a card adds to a hand's four packed suit patterns
                        (the meld-odds kernel; kernels/melds.py, build_pattern_rows)
      pattern_rows      int64 (dense patterns, ROW_SUIT + 4 states): all a suit pattern adds
      pattern_held      uint8 (dense patterns,): the ranks a suit pattern holds
      fixed_inside      int64 (k, 1 + MAX_PARENTS): each fixed meld inside earlier fixed melds
                        (the only parents that absorb it), then those parents (-1 = none)
      window_points     int64 (windows, 2**WINDOW_BITS): the fixed melds' points of window w
                        (melds WINDOW_MELDS w ..) given its count fields
    """

    meld_table: np.ndarray
    trump_need: int
    deck: np.ndarray
    deck_counts: np.ndarray
    card_points: np.ndarray
    max_total: int
    ladder: np.ndarray
    kt: tuple

    @property
    def n_melds(self) -> int:
        return self.meld_table.shape[0]


def _suit_tables(table: np.ndarray, copies: int, ranks: tuple[int, ...]) -> tuple:
    base = copies + 1
    pattern_value = np.array([sum(base**r for r in range(N_RANKS) if block >> r & 1)
                              for block in range(64)], dtype=np.int64)
    # the fixed parents of suit melds (an around meld inside another is settled in score_hand)
    parents = sorted({int(p) for m in range(table.shape[0]) if table[m, COL_SCOPE] != SCOPE_FIXED
                      for p in table[m, COL_PARENTS:COL_PARENTS + MAX_PARENTS]
                      if p >= 0 and table[p, COL_SCOPE] == SCOPE_FIXED})
    radix, n_states = [], 1
    for p in parents:
        radix.append(n_states)
        n_states *= int(table[p, COL_COUNTED]) + 1
    fixed_parents = np.array(parents, dtype=np.int64)
    fixed_radix = np.array(radix, dtype=np.int64)
    n_patterns = base**N_RANKS
    suit_points = np.zeros((n_patterns, 2, n_states), dtype=np.int64)
    suit_counts = np.zeros((n_patterns, 2, n_states), dtype=np.int64)
    suit_meld_points = np.zeros((n_patterns, 2, n_states, table.shape[0]), dtype=np.int64)
    km.build_suit_tables(table=table, base=base, fixed_parents=fixed_parents,
                         fixed_radix=fixed_radix, suit_points=suit_points, suit_counts=suit_counts,
                         suit_meld_points=suit_meld_points)
    return (table, pattern_value, fixed_parents, fixed_radix, suit_points, suit_counts,
            suit_meld_points, *_pattern_tables(table, base, ranks, suit_points, suit_counts))


def _pattern_tables(table: np.ndarray, base: int, ranks: tuple[int, ...], suit_points,
                    suit_counts) -> tuple:
    """The meld-odds kernel's ``card_value, pattern_rows, pattern_held, fixed_inside,
    window_points`` (kernels/melds.py)."""
    n_dense = base ** len(ranks)
    rows = np.zeros((n_dense, km.ROW_SUIT + 4 * suit_points.shape[2]), dtype=np.int64)
    held = np.zeros(n_dense, dtype=np.uint8)
    card_value = np.zeros(N_TYPES, dtype=np.uint64)
    km.build_pattern_rows(table=table, base=base, ranks=np.array(ranks, dtype=np.int64),
                          suit_points=suit_points, suit_counts=suit_counts, rows=rows, held=held,
                          card_value=card_value)
    fixed = [m for m in range(table.shape[0]) if table[m, COL_SCOPE] == SCOPE_FIXED]
    inside = []
    for m in fixed:  # score_hand's rule: only fixed parents counted before m absorb it
        parents = [int(p) for p in table[m, COL_PARENTS:COL_PARENTS + MAX_PARENTS]
                   if 0 <= p < m and p in fixed]
        if parents:
            inside.append([m] + parents + [-1] * (MAX_PARENTS - len(parents)))
    fixed_inside = np.array(inside, dtype=np.int64).reshape(-1, 1 + MAX_PARENTS)
    n_windows = -(-table.shape[0] // km.WINDOW_MELDS)
    window_points = np.zeros((n_windows, 1 << km.WINDOW_BITS), dtype=np.int64)
    keys = np.arange(1 << km.WINDOW_BITS)
    for m in fixed:  # a fixed meld's field never exceeds MAX_COPIES (clipped keys never occur)
        w, i = divmod(m, km.WINDOW_MELDS)
        sets = np.minimum(keys >> (km.COUNT_BITS * i) & km.COUNT_FIELD, MAX_COPIES)
        window_points[w] += table[m, COL_POINTS + sets]
    return card_value, rows, held, fixed_inside, window_points


@functools.lru_cache(maxsize=32)
def compile_tables(rules: Rules) -> Tables:
    """Compile ``rules`` (cached per rules object: building the suit tables takes a moment)."""
    names = [m.name for m in rules.melds]
    table = np.full((len(rules.melds), N_COLS), -1, dtype=np.int64)
    max_total = 0
    for i, meld in enumerate(rules.melds):
        table[i, COL_SCOPE] = SCOPE_CODES[meld.scope]
        table[i, COL_MASK] = meld.type_mask
        table[i, COL_COUNTED] = meld.counted_sets
        points = list(meld.points) + [meld.points[-1]] * (MAX_COPIES + 1 - len(meld.points))
        table[i, COL_POINTS:COL_POINTS + MAX_COPIES + 1] = points
        for j, parent in enumerate(meld.inside):
            table[i, COL_PARENTS + j] = names.index(parent)
        n_suits = 1 if table[i, COL_SCOPE] in (SCOPE_FIXED, SCOPE_TRUMP) else N_SUITS
        max_total += n_suits * max(points)
    counts = rules.deck_counts()
    deck = np.repeat(np.arange(N_TYPES, dtype=np.int64), counts)
    card_points = np.array([rules.rank_points[t % N_RANKS] for t in range(N_TYPES)], dtype=np.int64)
    need = sum(1 << card_type(r, 0) for r in rules.trump_requires)
    ladder = np.array(rules.bid_ladder, dtype=np.int64).reshape(-1, 2)
    return Tables(table, need, deck, counts, card_points, max_total, ladder,
                  _suit_tables(table, rules.copies, rules.ranks))


def allowed_trumps(rules: Rules, counts: np.ndarray) -> list[bool]:
    """Whether a hand (counts per type) may name each suit as trump under ``rules``."""
    from binokel_sim.meld_rules import may_name

    return [may_name(rules, counts, s) for s in range(N_SUITS)]


# --- what the family kernels' own tables are built from (each family's family_tables) -----------

def declaration_rows(rules: Rules, trump: int) -> list[tuple[int, int, int, int, int, int]]:
    """Every declaration a player of a talon game might make with ``trump`` as trump, in the order
    the random policy counts them (docs/rules.md, "Declarations" and "Policies"): the melds in
    table order, within a meld the suits S H D C its scope allows (none for around/cards), within
    a suit the levels ascending. A row is ``(meld, level, card types of one set, points, counted
    per copy, the swap meld)``."""
    rows = []
    for m, meld in enumerate(rules.melds):
        if meld.scope in ("around", "cards"):
            masks = [meld.type_mask]
        else:
            suits = {"trump": [trump], "non_trump": [s for s in range(N_SUITS) if s != trump],
                     "per_suit": list(range(N_SUITS))}[meld.scope]
            masks = [meld.type_mask << (N_RANKS * s) for s in suits]
        levels = range(1, (rules.copies if meld.per_set else meld.counted_sets) + 1)
        for mask in masks:
            for level in levels:
                points = level * meld.per_set if meld.per_set else meld.points[level]
                rows.append((m, level, mask, points, int(meld.per_set > 0),
                             int(meld.name == rules.swap_meld)))
    return rows


def tune_rows(rules: Rules) -> np.ndarray:
    """The card play's knobs as the kernels read them (``kernels.policies.tune_row``): the
    heuristic's row (its fixed values), then the expert's (:mod:`binokel_sim.expert_play`)."""
    from binokel_sim.kernels.strict.heuristic import HEURISTIC_TUNE

    heuristic = dict(zip(expert_play.KNOBS, HEURISTIC_TUNE))
    expert = expert_play.knobs(rules.name, heuristic)
    row = list(HEURISTIC_TUNE)
    for i, name in enumerate(expert_play.KNOBS):
        row[i] = expert[name]
    return np.array(list(HEURISTIC_TUNE) + row, dtype=np.int64)
