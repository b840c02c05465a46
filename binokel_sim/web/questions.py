"""What the page and the API ask, read from a request's parameters and checked before any work:
``analyze``, ``bid-odds`` and ``deal-odds`` with the CLI's option names (``samples_per_move``
for ``--samples-per-move``; ``known`` and ``void`` repeat, or hold several entries separated
by ``;``). A bad parameter is the CLI's one-line message (a
:class:`~binokel_sim.errors.BinokelError` of :data:`~binokel_sim.errors.DOMAIN_ERRORS`).

:func:`question` returns a :class:`Question`: the checked inputs, and ``run(progress)`` which
computes the same ``(result, document)`` as the CLI (:mod:`binokel_sim.documents`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from binokel_sim.compile_notice import SEARCH_POLICIES
from binokel_sim.errors import SimulationError

COMMANDS = ("bid-odds", "deal-odds")
DEFAULT_DEALS = 200_000  # without ``deals``: the CLI's default, so the API answers as the CLI
# what a parameter not given means, per command: the CLI's defaults (tests/test_web_api.py holds
# them to the CLI's own option definitions, which /openapi.json shows)
DEFAULTS = {
    "bid-odds": {"variant": "four-hand-80", "deals": DEFAULT_DEALS, "seed": 1, "trump": "auto"},
    "deal-odds": {"variant": "two-hand-48", "deals": DEFAULT_DEALS, "seed": 1, "seat": "elder"},
}
# every parameter a question reads; another one is an error (never silently ignored)
PARAMETERS = {"variant", "hand", "deals", "seed", "policy", "trump", "known", "void", "auction",
              "dealer", "samples_per_move", "turned", "seat", "bid"}


@dataclass(frozen=True)
class Limits:
    """The server's bounds on one run: deals with a fast policy, and with one that searches
    (``sampling``, ``heuristic+solver``: milliseconds a card), and the seconds it may take
    (a run that compiles its engine first counts from its first progress)."""

    max_deals: int = 1_000_000
    max_sampling_deals: int = 1_000
    max_seconds: float = 300.0


@dataclass
class Question:
    """A checked question: ``command`` on ``rules`` for ``counts``; ``run(progress)`` answers it
    with ``(result, document)``."""

    command: str
    rules: Any
    counts: Any
    deals: int
    seed: int
    policy: str
    run: Callable[[Callable[[int, int], None] | None], tuple[dict, dict]]
    turned: str | None = None
    seat: str | None = None
    query: str = ""  # the parameters as a URL query (the answer's link to its JSON)
    warnings: tuple[str, ...] = ()  # the CLI's warning lines about the options


def params_of(query: Mapping[str, Any], empty: bool = True,
              skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """A request's parameters (a starlette ``QueryParams`` or ``FormData``, or a plain dict of
    strings or lists) as ``{name: str}`` with ``known`` and ``void`` as lists, but for those
    named in ``skip`` (read by the caller). With ``empty`` (the page's form) an empty value is
    an option not given; without it (the API) it is an error, so that ``hand=`` never means
    the example hand."""
    getlist = getattr(query, "getlist", None)
    out: dict[str, Any] = {}
    for name in dict.fromkeys(k for k in query.keys() if k not in skip):
        values = getlist(name) if getlist else query[name]
        values = [values] if isinstance(values, str) else list(values)
        if not empty and any(v is None or not str(v).strip() for v in values):
            raise SimulationError(f"parameter {name!r} is empty")
        values = [v.strip() for v in values if v is not None and str(v).strip()]
        if name not in PARAMETERS:
            raise SimulationError(f"unknown parameter {name!r} (known: "
                                  f"{', '.join(sorted(PARAMETERS))})")
        if name in ("known", "void"):
            out[name] = [part.strip() for v in values for part in v.split(";") if part.strip()]
        elif values:
            if len(values) > 1:
                raise SimulationError(f"parameter {name!r} given {len(values)} times")
            out[name] = values[0]
    return out


def rules_of(params: dict[str, Any], command: str = "bid-odds"):
    """The variant the parameters name (the command's default when none)."""
    from binokel_sim.variants import find_variant

    return find_variant(params.get("variant", DEFAULTS[command]["variant"]))


def _integer(params: dict[str, Any], name: str, default: int | None) -> int | None:
    """The parameter ``name`` as a whole number read as the CLI reads one
    (:func:`binokel_sim.numbers.read_int`: ASCII digits only, where ``int()`` alone also reads
    ``'٣'``); ``default`` when it is not given."""
    from binokel_sim.numbers import WHOLE_NUMBER, read_int

    text = params.get(name)
    if text is None:
        return default
    number = read_int(text)
    if number is None:
        raise SimulationError(f"--{name.replace('_', '-')}: {text!r} is not {WHOLE_NUMBER}")
    return number


def analyze(params: dict[str, Any]) -> dict:
    """``analyze --format json`` of the parameters' hand (the variant's example hand when none
    is given): the melds with each suit as trump."""
    from binokel_sim.analysis import analyze_hand
    from binokel_sim.hands import parse_hand

    extra = set(params) - {"variant", "hand"}
    if extra:
        raise SimulationError(f"analyze reads only variant and hand, not "
                              f"{', '.join(sorted(extra))}")
    rules = rules_of(params)
    return analyze_hand(rules, parse_hand(params.get("hand", rules.example_hand), rules))


def question(command: str, params: dict[str, Any], limits: Limits,
             threads: int | None = None) -> Question:
    """``bid-odds`` or ``deal-odds`` of the parameters, checked as the CLI checks them (and the
    deals against ``limits``) before any work."""
    from binokel_sim.engines.policies import check_samples_per_move, default_policy
    from binokel_sim.families import check_supports
    from binokel_sim.hands import parse_hand
    from binokel_sim.simulate import check_run

    if command not in COMMANDS:
        raise SimulationError(f"unknown question {command!r} (use {' or '.join(COMMANDS)})")
    rules = rules_of(params, command)
    check_supports(rules, command)
    hand = params.get("hand")
    counts = parse_hand(hand if hand is not None else rules.example_hand, rules)
    defaults = DEFAULTS[command]
    deals = _integer(params, "deals", defaults["deals"])
    seed = _integer(params, "seed", defaults["seed"])
    check_run(deals, seed)
    policy = params.get("policy") or default_policy(rules)
    searching = policy in SEARCH_POLICIES
    limit = limits.max_sampling_deals if searching else limits.max_deals
    if deals > limit:
        raise SimulationError(f"--deals {deals:,} is above this server's limit of {limit:,}"
                              + (f" with the {policy} policy" if searching else ""))
    samples_per_move = _integer(params, "samples_per_move", None)
    if samples_per_move is not None:
        check_samples_per_move(samples_per_move)
        if policy != "sampling":
            raise SimulationError("--samples-per-move is read only by the sampling policy")
    known, void = params.get("known", []), params.get("void", [])
    options = dict(deals=deals, seed=seed, policy=policy, threads=threads,
                   samples_per_move=samples_per_move, origin={})
    if command == "bid-odds":
        asked = _bid_odds(rules, counts, params, options, known, void)
    else:
        asked = _deal_odds(rules, counts, params, options, known, void, hand is not None)
    asked.query = urlencode([(k, v) for k, vs in params.items()
                             for v in (vs if isinstance(vs, list) else [vs])])
    return asked


def _refuse(params: dict[str, Any], names: tuple[str, ...], command: str, rules) -> None:
    given = [n for n in names if n in params]
    if given:
        raise SimulationError(f"{command} in {rules.name} does not read "
                              f"{', '.join(given)}")


def _bid_odds(rules, counts, params, options, known, void) -> Question:
    from binokel_sim.documents.bid_odds import family_view, knowledge_of

    _refuse(params, ("turned", "seat"), "bid-odds", rules)
    view = family_view(rules)
    checked = view.check(rules, counts, trump=params.get("trump", DEFAULTS["bid-odds"]["trump"]),
                         auction=params.get("auction"), dealer=params.get("dealer"),
                         bid=_integer(params, "bid", None))
    knowledge = knowledge_of(rules, counts, known, void)
    policy = options["policy"]
    _check_policy(rules, policy)

    def run(progress):
        return view.document(rules, counts, checked, knowledge=knowledge, progress=progress,
                             **options)

    return Question("bid-odds", rules, counts, options["deals"], options["seed"], policy, run,
                    warnings=checked.warnings)


def _deal_odds(rules, counts, params, options, known, void, hand_given: bool) -> Question:
    from binokel_sim.cards import format_card
    from binokel_sim.documents.deal_odds import check, document

    _refuse(params, ("trump", "auction", "dealer", "bid"), "deal-odds", rules)
    seat = params.get("seat", DEFAULTS["deal-odds"]["seat"])
    turned_type, knowledge = check(rules, counts, turned=params.get("turned"),
                                   hand_given=hand_given, seat=seat, known=known, void=void)
    _check_policy(rules, options["policy"])

    def run(progress):
        return document(rules, counts, turned_type, seat, knowledge=knowledge,
                        progress=progress, **options)

    shown = format_card(turned_type)
    return Question("deal-odds", rules, counts, options["deals"], options["seed"],
                    options["policy"], run, turned=shown, seat=seat)


def _check_policy(rules, policy: str) -> None:
    from binokel_sim.engines.policies import policy_id

    policy_id(policy, rules)
