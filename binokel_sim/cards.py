"""Card notation, card types and bit masks (pure Python).

A *card type* is one (rank, suit) pair; the decks hold several identical copies of each type.
Card types are numbered ``suit * 6 + rank`` with suits ``S H D C`` (0..3) and ranks
``9 J Q K T A`` (0..5, the trick-taking order, low to high), so every suit occupies six
consecutive bits and "a higher card of this suit" is simply "a higher bit of this suit's block".

A *hand* in the kernels is a bit-plane stack (``Planes``): plane ``k`` is a 24-bit mask of the card
types held at least ``k + 1`` times (a "thermometer" code). The multiplicity of any meld, which is
the minimum count over a set of card types, is then the number of planes containing that set's
whole mask. See docs/architecture.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from binokel_sim.errors import CardError  # noqa: F401  (re-exported)

# --- layered constants -----------------------------------------------------------------------
SUITS = "SHDC"
RANKS = "9JQKTA"
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
N_SUITS = 4
N_RANKS = 6
N_TYPES = N_SUITS * N_RANKS  # 24 card types
MAX_COPIES = 4  # the largest deck (80 cards) holds four copies of each type
N_PLANES = MAX_COPIES

Mask = int  # a 24-bit set of card types, as a plain int (bit = card type index)

RANK_9, RANK_J, RANK_Q, RANK_K, RANK_T, RANK_A = range(N_RANKS)
SUIT_S, SUIT_H, SUIT_D, SUIT_C = range(N_SUITS)
SUIT_MASK = 0b111111  # the six card types of suit 0; shift by 6*suit for another suit
ALL_TYPES: Mask = (1 << N_TYPES) - 1


def card_type(rank: int, suit: int) -> int:
    return suit * N_RANKS + rank


def type_rank(t: int) -> int:
    return t % N_RANKS


def type_suit(t: int) -> int:
    return t // N_RANKS


def suit_block(suit: int) -> Mask:
    return SUIT_MASK << (N_RANKS * suit)


def format_card(t: int) -> str:
    return RANKS[type_rank(t)] + SUITS[type_suit(t)]


# (type, name) by suit S H D C, then rank high to low: the order hands are shown in
_DISPLAY_ORDER = [(card_type(r, s), RANKS[r] + SUITS[s]) for s in range(N_SUITS)
                  for r in reversed(range(N_RANKS))]


def parse_rank(token: str) -> int:
    """A rank letter (``9 J Q K T A``, ``10`` for ten), case-insensitive."""
    r = token.strip().upper()
    if r == "10":
        r = "T"
    if len(r) != 1 or r not in RANKS:
        raise CardError(f"unknown rank {token!r} (ranks are 9 J Q K T/10 A)")
    return RANKS.index(r)


def _bare(token: str) -> str:
    """The token without spaces and the emoji/text variation selectors phones add to ♠♥♦♣."""
    return token.strip().replace("\ufe0f", "").replace("\ufe0e", "")


def parse_suit(token: str) -> int:
    bare = _bare(token)
    s = SUIT_SYMBOLS.get(bare, bare.upper())
    if len(s) != 1 or s not in SUITS:
        raise CardError(f"unknown suit {token!r} (suits are S H D C or ♠ ♥ ♦ ♣)")
    return SUITS.index(s)


def parse_trump(text: str) -> int:
    """A trump suit as an option gives it (``S``, ``h``, ``♦``)."""
    try:
        return parse_suit(text)
    except CardError:
        raise CardError(f"unknown trump suit {text!r} (use S, H, D or C)") from None


def parse_card(token: str) -> int:
    """One card such as ``AS``, ``10h``, ``T♦`` -> card type index."""
    tok = _bare(token)
    if len(tok) < 2:
        raise CardError(f"unknown card {token!r}")
    rank_part, suit_part = tok[:-1], tok[-1]
    try:
        return card_type(parse_rank(rank_part), parse_suit(suit_part))
    except CardError:
        raise CardError(f"unknown card {token!r} (write rank + suit, e.g. AS, 10H, QS)") from None


def split_tokens(text: str) -> list[str]:
    return [tok for tok in text.replace(",", " ").split() if tok]


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Cards separated by spaces or commas (or an iterable of tokens) -> card type indices."""
    tokens = split_tokens(text) if isinstance(text, str) else [str(t) for t in text]
    return [parse_card(tok) for tok in tokens]


def counts_of(types: Iterable[int]) -> np.ndarray:
    """Card type indices -> counts per card type, int64 array of shape (24,)."""
    counts = np.zeros(N_TYPES, dtype=np.int64)
    for t in types:
        counts[t] += 1
    return counts


def format_counts(counts: Sequence[int]) -> list[str]:
    """Counts per type -> card strings, sorted by suit (S H D C) then rank high to low."""
    return [name for t, name in _DISPLAY_ORDER for _ in range(int(counts[t]))]


# --- bit planes (the kernel representation of a hand) ----------------------------------------

def suit_lengths(counts: Sequence[int]) -> list[int]:
    """Cards held of each suit (copies counted) of a hand given as copies per card type."""
    return [sum(counts[s * N_RANKS + r] for r in range(N_RANKS)) for s in range(N_SUITS)]


def counts_to_planes(counts: Sequence[int]) -> np.ndarray:
    """Counts per type (24,) -> bit planes, uint32 array of shape (4,)."""
    planes = np.zeros(N_PLANES, dtype=np.uint32)
    for t in range(N_TYPES):
        for k in range(int(counts[t])):
            planes[k] |= np.uint32(1 << t)
    return planes


def planes_to_counts(planes) -> np.ndarray:
    """Bit planes uint32 (..., 4) -> counts per type int64 (..., 24), for any leading shape."""
    planes = np.asarray(planes)
    bits = (planes[..., None].astype(np.int64) >> np.arange(N_TYPES)) & 1
    return bits.sum(axis=-2)
