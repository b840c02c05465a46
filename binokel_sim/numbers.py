"""Numbers read from text: every option, environment variable, rules-file value and call of an
auction that is a number written out goes through :func:`read_int` (or :func:`read_float`).

Python's own readers are too lenient to be the boundary: ``int()`` accepts any Unicode decimal
digit (``int("٣") == 3``), underscores and surrounding whitespace, and ``str.isdigit()`` accepts
characters ``int()`` refuses (``"²".isdigit()`` is true, ``int("²")`` raises), so testing with
one and converting with the other fails on input that passes the test. Here a number is written
with the ASCII digits 0-9 only: an optional sign, digits (``_`` may group them, as in Python),
for a float an optional fraction and exponent; a finite value; at most :data:`MAX_DIGITS` digits
(``int()`` refuses more than 4,300 with an error of its own).
"""

from __future__ import annotations

import math
import re

MAX_DIGITS = 30  # far above any count, seed (below 2**63: 19 digits) or port; far below int()'s

_INT = re.compile(r"[+-]?[0-9]+(?:_[0-9]+)*")
_UNSIGNED = re.compile(r"[0-9]+(?:_[0-9]+)*")
_FLOAT = re.compile(r"[+-]?(?:[0-9]+(?:_[0-9]+)*(?:\.(?:[0-9]+(?:_[0-9]+)*)?)?|\.[0-9]+(?:_[0-9]+)*)"
                    r"(?:[eE][+-]?[0-9]+)?")
_SPACE = " \t\r\n"  # the surrounding whitespace taken away: ASCII only, as the digits


def read_int(text: str, signed: bool = True) -> int | None:
    """``text`` as an integer when it is one written with ASCII digits (``signed``: a leading
    ``+`` or ``-`` allowed), else None. Surrounding ASCII whitespace is ignored."""
    if not isinstance(text, str):
        return None
    bare = text.strip(_SPACE)
    pattern = _INT if signed else _UNSIGNED
    if pattern.fullmatch(bare) is None or _digits(bare) > MAX_DIGITS:
        return None
    return int(bare)


def read_float(text: str) -> float | None:
    """``text`` as a finite float when it is one written with ASCII digits (``1``, ``0.5``,
    ``.5``, ``2e-3``), else None (``nan``, ``inf`` and other spellings ``float()`` accepts
    included)."""
    if not isinstance(text, str):
        return None
    bare = text.strip(_SPACE)
    if _FLOAT.fullmatch(bare) is None or _digits(bare) > MAX_DIGITS:
        return None
    value = float(bare)
    return value if math.isfinite(value) else None


def is_int(text: str, signed: bool = True) -> bool:
    """Whether :func:`read_int` reads ``text`` as an integer."""
    return read_int(text, signed) is not None


def _digits(text: str) -> int:
    return sum(c.isdigit() for c in text)


WHOLE_NUMBER = "a whole number written with the digits 0-9"
NUMBER = "a number written with the digits 0-9"
