"""The engine families and which commands serve them: the light module every layer may import.

Four engine families (docs/architecture.md, "Engine families"), chosen from a variant's rules
data, never from its name:

- ``partnership``: every card dealt, an auction, trump named by the bid winner (four-hand-80);
  drivers in :mod:`binokel_sim.engines.partnership`, kernels in ``kernels/partnership/``;
- ``talon``: a talon and a turned trump (two-hand-48, three-hand-72, four-hand-72); drivers in
  :mod:`binokel_sim.engines.talon`, kernels in ``kernels/talon/``;
- ``widow``: a widow taken by the soloist (three-hand-auction-48, four-hand-widow-48); drivers
  in :mod:`binokel_sim.engines.widow`, kernels in ``kernels/widow/``;
- ``sixty_six``: a claim at 66, a stock that may be closed, marriages announced on lead
  (sixty-six); drivers in :mod:`binokel_sim.engines.sixty_six`, kernels in
  ``kernels/sixty_six/``.

It imports nothing heavy (the CLI reads :data:`SUPPORTS` without numpy or numba), and of this
package only the notation and rules layer.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING

from binokel_sim.errors import SimulationError

if TYPE_CHECKING:
    from binokel_sim.variants import Rules

PARTNERSHIP, TALON, WIDOW, SIXTY_SIX = "partnership", "talon", "widow", "sixty_six"


def engine_family(rules: Rules) -> str:
    """The family of the engine that plays ``rules``: a claim → sixty_six (its stock is a talon
    too, so the claim is asked first), a talon → talon, a widow → widow, else the partnership
    bidding game."""
    if rules.claim:
        return SIXTY_SIX
    if rules.talon:
        return TALON
    if rules.widow:
        return WIDOW
    return PARTNERSHIP


def family_module(package: str, family: str | Rules) -> ModuleType:
    """The module of an engine family in ``package``: family ``f``'s module is ``package.f``, the
    registry of every package that differs by family (engines, records, odds, bench, report,
    cli.bid_odds, documents.bid_odds; docs/architecture.md, "The layers"), and the only way
    another module reaches it. ``family``: the rules the family plays (:func:`engine_family`),
    or a name of :data:`FAMILIES` (a study of one family's game)."""
    name = family if isinstance(family, str) else engine_family(family)
    if name not in FAMILIES:
        raise ValueError(f"no engine family {name!r}; the families: {', '.join(FAMILIES)}")
    return import_module(f"{package}.{name}")


def sides(rules: Rules) -> int:
    """How many sides play: the partnerships, else every seat."""
    return len(rules.partnerships) if rules.partnerships else rules.players


# --- which commands a variant supports ------------------------------------------------------------
# One table, by engine family (read from the rules data, so a user's --rules file gets the same
# answer as the built-in variant it resembles). `binokel-sim variants` shows it; the commands ask
# `check_supports` before any work.

FAMILIES = (PARTNERSHIP, TALON, WIDOW, SIXTY_SIX)
SUPPORTS: dict[str, tuple[str, ...]] = {  # command -> the engine families it serves, in CLI order
    "variants": FAMILIES,
    "analyze": FAMILIES,
    "meld-odds": FAMILIES,
    "bid-odds": (PARTNERSHIP, WIDOW),
    "deal-odds": (TALON, SIXTY_SIX),
    "batch": FAMILIES,
    "report": FAMILIES,
    "duel": FAMILIES,
    "match": FAMILIES,
    "play": FAMILIES,
    "calibrate": (PARTNERSHIP, WIDOW),
    "solve": (PARTNERSHIP, TALON, WIDOW),
    "bench": FAMILIES,
    "warm-up": FAMILIES,
    "serve": FAMILIES,  # the page asks each variant what its family answers
}
# a command that needs more of a variant than its family: (test of the rules, what fails it)
_REQUIRES = {
}
# why a family lacks a command, and where to go instead (for the error message)
_UNSUPPORTED = {
    "bid-odds": ("has no auction", "for a talon game's hand use deal-odds"),
    "deal-odds": ("has no talon", "for an auction game's hand use bid-odds"),
    "calibrate": ("has no auction", "calibrate studies the bid odds"),
    "solve": ("has no talon", "the endgame solver plays a two-hand talon game's phase 2"),
}
# where a family's reason differs from the command's
_FAMILY_UNSUPPORTED = {
    (SIXTY_SIX, "solve"): ("is a sixty-six game (a stock that may be closed, a claim)",
                           "the endgame solver plays strict tricks"),
}


def odds_command(rules: Rules) -> str:
    """The command that answers what one hand of ``rules`` is worth: ``deal-odds`` where the
    family has it (the talon games), else ``bid-odds``."""
    return "deal-odds" if supports(rules, "deal-odds") else "bid-odds"


def supports(rules: Rules, command: str) -> bool:
    """Whether ``command`` takes ``rules``: its engine family, and what the command needs more."""
    if engine_family(rules) not in _families(command):
        return False
    test = _REQUIRES.get(command)
    return test is None or test[0](rules)


def supported_commands(rules: Rules) -> tuple[str, ...]:
    """The ``binokel-sim`` commands that take ``rules``, in the order of :data:`SUPPORTS`."""
    return tuple(command for command in SUPPORTS if supports(rules, command))


def variant_record(rules: Rules) -> dict:
    """One variant as ``variants --format json`` (and the page's ``/api/variants``) gives it: the
    rules' summary plus aliases, engine family and commands."""
    return {**rules.summary(), "aliases": list(rules.aliases), "engine": engine_family(rules),
            "commands": list(supported_commands(rules))}


def supported_variants(command: str) -> list[str]:
    """The built-in variants ``command`` takes (names, in the order of ``variants``)."""
    from binokel_sim.variants import all_variants

    return [rules.name for rules in all_variants() if supports(rules, command)]


def check_supports(rules: Rules, command: str) -> None:
    """Raise :class:`~binokel_sim.errors.SimulationError` (one line, naming the variants the
    command takes) when ``command`` does not serve ``rules``."""
    if supports(rules, command):
        return
    if engine_family(rules) in _families(command):
        why, instead = _REQUIRES[command][1], ""
    else:
        why, instead = _FAMILY_UNSUPPORTED.get((engine_family(rules), command)) or \
            _UNSUPPORTED.get(command, (f"is a {engine_family(rules)} game", ""))
    message = (f"variant {rules.name} {why}: {command} supports "
               f"{', '.join(supported_variants(command))}")
    raise SimulationError(f"{message}; {instead}" if instead else message)


def _families(command: str) -> tuple[str, ...]:
    try:
        return SUPPORTS[command]
    except KeyError:
        raise ValueError(f"unknown command {command!r}; known: {', '.join(SUPPORTS)}") from None
