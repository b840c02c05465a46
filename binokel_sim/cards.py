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

import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

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


# --- the two notations ------------------------------------------------------------------------
#
# Cards are read in either notation and shown in the one a command's ``--cards`` chose
# (docs/commands.md, "Card notation"). French-suited, rank first: ``AS`` ``10H`` ``QS`` (also
# ``O``/``U`` for Ober/Unter: ``OS`` is ``QS``). German-suited, suit first as Schafkopf players
# write it: Eichel, Laub (Grün), Herz, Schellen, and Ass, Zehn, König, Ober, Unter, Neun:
# ``EA`` ``HZ`` ``LO`` ``SU``, or the words ``Laub-Ober``. The suits map Eichel = clubs,
# Laub = spades, Herz = hearts, Schellen = diamonds, so the binokel (QS + JD) is Laub-Ober +
# Schellen-Unter, as on a German-suited Binokel pack. The two forms never collide: a French
# token starts with a rank, a German one with a suit letter, and no letter is both.


@dataclass(frozen=True)
class Notation:
    """How cards and suits are shown: ``suits`` the names of suits S H D C (trump fields,
    column heads), ``suit_letters`` their letters inside a card, ``ranks`` the letters of ranks
    9 J Q K T A, ``suit_first`` whether a card is suit + rank."""

    name: str
    suits: tuple[str, str, str, str]
    suit_letters: str
    ranks: str
    suit_first: bool

    def card(self, t: int) -> str:
        rank, suit = self.ranks[type_rank(t)], self.suit_letters[type_suit(t)]
        return suit + rank if self.suit_first else rank + suit


FRENCH = Notation("french", ("S", "H", "D", "C"), SUITS, RANKS, False)
GERMAN = Notation("german", ("Laub", "Herz", "Schellen", "Eichel"), "LHSE", "9UOKZA", True)
NOTATIONS = {n.name: n for n in (FRENCH, GERMAN)}
_NOTATION: ContextVar[Notation] = ContextVar("card_notation", default=FRENCH)

# what a card or a suit is read from, beyond the shown forms (upper case, umlauts folded)
_FRENCH_RANKS = {"9": RANK_9, "J": RANK_J, "Q": RANK_Q, "K": RANK_K, "T": RANK_T, "10": RANK_T,
                 "A": RANK_A, "O": RANK_Q, "U": RANK_J}
_GERMAN_RANKS = {"9": RANK_9, "U": RANK_J, "O": RANK_Q, "K": RANK_K, "Z": RANK_T, "10": RANK_T,
                 "A": RANK_A}
_GERMAN_LETTERS = {"E": SUIT_C, "L": SUIT_S, "G": SUIT_S, "H": SUIT_H, "S": SUIT_D}
_SUIT_WORDS = {"EICHEL": SUIT_C, "EICHELN": SUIT_C, "KREUZ": SUIT_C, "CLUBS": SUIT_C,
               "LAUB": SUIT_S, "GRUEN": SUIT_S, "GRUN": SUIT_S, "GRAS": SUIT_S, "BLATT": SUIT_S,
               "PIK": SUIT_S, "SPADES": SUIT_S, "HERZ": SUIT_H, "HEARTS": SUIT_H,
               "SCHELLEN": SUIT_D, "SCHELLE": SUIT_D, "SCH": SUIT_D, "KARO": SUIT_D,
               "DIAMONDS": SUIT_D}
_RANK_WORDS = {"ASS": RANK_A, "SAU": RANK_A, "DAUS": RANK_A, "ZEHN": RANK_T, "ZEHNER": RANK_T,
               "KOENIG": RANK_K, "KONIG": RANK_K, "OBER": RANK_Q, "UNTER": RANK_J,
               "NEUN": RANK_9, "NEUNER": RANK_9}
CARD_FORMS = ("cards are rank + suit: AS 10H QS, O/U for Ober/Unter; or German suit + rank: "
              "EA HZ LO SU, Laub-Ober")
SUIT_FORMS = "S H D C, ♠ ♥ ♦ ♣, or Eichel Laub/Grün Herz Schellen"


@contextmanager
def card_notation(name: str) -> Iterator[Notation]:
    """Show cards and suits in notation ``name`` (``french``, ``german``) inside the block."""
    if name not in NOTATIONS:
        raise CardError(f"unknown card notation {name!r} (use {' or '.join(NOTATIONS)})")
    token = _NOTATION.set(NOTATIONS[name])
    try:
        yield NOTATIONS[name]
    finally:
        _NOTATION.reset(token)


def notation() -> Notation:
    """The notation cards are shown in here (French unless a ``card_notation`` block says)."""
    return _NOTATION.get()


def format_card(t: int) -> str:
    """Card type ``t`` as the current notation writes it (``AS``; German ``LA``)."""
    return _NOTATION.get().card(t)


def format_suit(suit: int) -> str:
    """Suit ``suit`` (0..3) as the current notation names it (``S``; German ``Laub``)."""
    return _NOTATION.get().suits[suit]


# keys whose value (a letter S H D C) names a suit in a result document
SUIT_KEYS = frozenset({"trump", "best_trump", "recommended_trump", "suit"})
_FRENCH_NAMES = {FRENCH.card(t): t for t in range(N_TYPES)}


def shown_document(doc, shown: Notation):
    """A JSON-ready result (dicts, lists, strings, numbers) with its French card and suit names
    written in ``shown``: every string made only of card names (``"AS"``, ``"AS TS KS"``), a
    suit letter under a key of :data:`SUIT_KEYS`, and the keys of a dict keyed by suit letters
    (``by_trump``). The engines and the result builders speak French; a command's ``--cards``
    changes only what it shows."""
    if shown is FRENCH:
        return doc
    return _shown(doc, shown, False)


def _shown(value, shown: Notation, suit: bool):
    if isinstance(value, str):
        if suit and value in SUITS and len(value) == 1:
            return shown.suits[SUITS.index(value)]
        tokens = value.split(" ")
        if value and all(tok in _FRENCH_NAMES for tok in tokens):
            return " ".join(shown.card(_FRENCH_NAMES[tok]) for tok in tokens)
        return value
    if isinstance(value, dict):
        by_suit = bool(value) and all(isinstance(k, str) and len(k) == 1 and k in SUITS
                                      for k in value)
        return {(shown.suits[SUITS.index(k)] if by_suit else k):
                _shown(v, shown, k in SUIT_KEYS) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_shown(v, shown, suit) for v in value]
    if hasattr(value, "with_columns"):  # a polars frame of rows
        return shown_frame(value, shown)
    return value


def shown_frame(df, shown: Notation):
    """A polars frame's string columns written in ``shown``, as :func:`shown_document` does
    (a column named in :data:`SUIT_KEYS` holds suit letters)."""
    import polars as pl

    if shown is FRENCH:
        return df
    columns = []
    for name, dtype in df.schema.items():
        if dtype == pl.String:
            values = df[name].unique().drop_nulls().to_list()
            mapping = {v: _shown(v, shown, name in SUIT_KEYS) for v in values}
            columns.append(pl.col(name).replace(mapping))
    return df.with_columns(columns) if columns else df


def parse_rank(token: str) -> int:
    """A rank letter (``9 J Q K T A``, ``10`` for ten, ``O``/``U`` for Ober/Unter),
    case-insensitive."""
    r = token.strip().upper()
    if r not in _FRENCH_RANKS:
        raise CardError(f"unknown rank {token!r} (ranks are 9 J/U Q/O K T/10 A)")
    return _FRENCH_RANKS[r]


def _bare(token: str) -> str:
    """The token without spaces and the emoji/text variation selectors phones add to ♠♥♦♣."""
    return token.strip().replace("\ufe0f", "").replace("\ufe0e", "")


def _fold(word: str) -> str:
    """Upper case with umlauts written out (``Grün`` -> ``GRUEN``, ``König`` -> ``KOENIG``)."""
    return (word.upper().replace("Ü", "UE").replace("Ö", "OE").replace("Ä", "AE")
            .replace("ẞ", "SS"))


def parse_suit(token: str) -> int:
    """A suit: ``S H D C``, ``♠ ♥ ♦ ♣``, or a German or English suit word (``Schellen``,
    ``Laub``, ``Grün``, ``Eichel``, ``Herz``, ``clubs``) or the German letters ``E L G`` (``S``
    alone is spades: write Schellen as ``Sch`` or the word)."""
    bare = _bare(token)
    s = SUIT_SYMBOLS.get(bare, bare.upper())
    if len(s) == 1 and s in SUITS:
        return SUITS.index(s)
    if len(s) == 1 and s in "ELG":
        return _GERMAN_LETTERS[s]
    word = _fold(bare)
    if word in _SUIT_WORDS:
        return _SUIT_WORDS[word]
    raise CardError(f"unknown suit {token!r} (suits are {SUIT_FORMS})")


def parse_trump(text: str) -> int:
    """A trump suit as an option gives it (``S``, ``h``, ``♦``, ``Schellen``)."""
    try:
        return parse_suit(text)
    except CardError:
        raise CardError(f"unknown trump suit {text!r} (use {SUIT_FORMS})") from None


def _parse_words(tok: str) -> int | None:
    """``Laub-Ober``, ``Herz-Ass``, ``Schellen_Unter``: a German suit word and rank word."""
    parts = [p for p in re.split(r"[-_]", _fold(tok)) if p]
    if len(parts) == 2 and parts[0] in _SUIT_WORDS and parts[1] in _RANK_WORDS:
        return card_type(_RANK_WORDS[parts[1]], _SUIT_WORDS[parts[0]])
    return None


def parse_card(token: str) -> int:
    """One card in either notation -> card type index: ``AS``, ``10h``, ``T♦``, ``OS`` (Ober of
    spades = ``QS``), German ``LO`` (Laub-Ober = ``QS``), ``HZ`` (Herz-Zehn), ``Schellen-Unter``."""
    tok = _bare(token)
    up = tok.upper()
    if len(tok) >= 2:
        rank_part, suit_part = up[:-1], SUIT_SYMBOLS.get(tok[-1], up[-1])
        if rank_part in _FRENCH_RANKS and suit_part in SUITS:
            return card_type(_FRENCH_RANKS[rank_part], SUITS.index(suit_part))
        if up[0] in _GERMAN_LETTERS and up[1:] in _GERMAN_RANKS:
            return card_type(_GERMAN_RANKS[up[1:]], _GERMAN_LETTERS[up[0]])
        worded = _parse_words(tok)
        if worded is not None:
            return worded
    raise CardError(f"unknown card {token!r} ({CARD_FORMS})")


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


# card types in the order hands are shown: suits S H D C, then rank high to low
DISPLAY_ORDER = tuple(card_type(r, s) for s in range(N_SUITS) for r in reversed(range(N_RANKS)))


def format_counts(counts: Sequence[int]) -> list[str]:
    """Counts per type -> card strings, sorted by suit (S H D C) then rank high to low."""
    shown = _NOTATION.get()
    return [shown.card(t) for t in DISPLAY_ORDER for _ in range(int(counts[t]))]


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
