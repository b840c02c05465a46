"""The page's HTML, rendered on the server with Jinja2 (templates in ``templates/``): the form and
the hand's meld table (:func:`render_page`, from the URL's query), and a run's answer
(:func:`render_answer`: the same figures as ``report``, drawn by
:func:`binokel_sim.report.drawing.render`, and the CLI's tables)."""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

from binokel_sim.errors import DOMAIN_ERRORS
from binokel_sim.web.questions import (
    PAGE_DEALS,
    Limits,
    Question,
    params_of,
    question,
)

TEMPLATES = Environment(loader=PackageLoader("binokel_sim.web"),
                        autoescape=select_autoescape(default=True), trim_blocks=True,
                        lstrip_blocks=True)


@dataclass
class Answer:
    """A finished run: its question, the library's result, the CLI's document and the figures
    as ``(title, description, PNG in base64)``."""

    question: Question
    result: dict
    document: dict
    figures: list[tuple[str, str, str]]


def answer(asked: Question, progress) -> Answer:
    """Run ``asked`` (``progress`` is the drivers' callback) and draw its figures."""
    result, document = asked.run(progress)
    return Answer(asked, result, document, _figures(asked, result))


def _figures(asked: Question, result: dict) -> list[tuple[str, str, str]]:
    from binokel_sim.report.drawing import render
    from binokel_sim.report.figures import hand_figures
    from binokel_sim.report.model import HandReport

    hand = HandReport(hand=result["hand"], seed=asked.seed, odds=result, turned=asked.turned,
                      seat=asked.seat)
    return [(f.title, f.description, base64.b64encode(render(f)).decode("ascii"))
            for f in hand_figures(asked.rules, hand, asked.deals, asked.policy)]


def variants_document() -> list[dict]:
    """``binokel-sim variants --format json``."""
    from binokel_sim.families import variant_record
    from binokel_sim.variants import all_variants

    return [variant_record(r) for r in all_variants()]


def _grid(rules, counts) -> list[dict]:
    """The card grid: one row per suit, the deck's ranks high to low, each card with the copies
    the deck holds and the hand holds."""
    from binokel_sim.cards import RANKS, SUITS, card_type

    deck = rules.deck_counts()
    rows = []
    for s, suit in enumerate(SUITS):
        cards = [{"code": RANKS[r] + suit, "rank": "10" if RANKS[r] == "T" else RANKS[r],
                  "copies": int(deck[card_type(r, s)]),
                  "held": int(counts[card_type(r, s)]) if counts is not None else 0}
                 for r in reversed(range(len(RANKS))) if deck[card_type(r, s)]]
        rows.append({"suit": suit, "symbol": "♠♥♦♣"[s], "red": suit in "HD", "cards": cards})
    return rows


def render_page(query, limits: Limits) -> str:
    """The page for the URL's ``query``: the form filled from it, the hand's card grid and meld
    table, and the CLI's one-line message for a bad parameter. With a hand in the query and no
    error, the page starts the run when it loads (so a link reproduces the answer)."""
    from binokel_sim.analysis import analyze_hand
    from binokel_sim.families import engine_family, odds_command
    from binokel_sim.hands import parse_hand
    from binokel_sim.variants import all_variants, find_variant

    error = None
    try:
        params = params_of(query)
    except DOMAIN_ERRORS as exc:
        params, error = {}, str(exc)
    try:
        rules = find_variant(params.get("variant", "four-hand-80"))
    except DOMAIN_ERRORS as exc:
        error, rules = error or str(exc), find_variant("four-hand-80")
        params = {}
    hand_text = params.get("hand", rules.example_hand)
    counts, melds = None, None
    try:
        counts = parse_hand(hand_text, rules)
        melds = analyze_hand(rules, counts)
    except DOMAIN_ERRORS as exc:
        error = error or str(exc)  # the grid is filled from the text by the page's script
    command = odds_command(rules)
    family = engine_family(rules)
    if error is None:  # every other parameter, checked as a run would check it (no work)
        try:
            question(command, params, limits)
        except DOMAIN_ERRORS as exc:
            error = str(exc)
    return TEMPLATES.get_template("page.html").render(
        variants=[r.name for r in all_variants()], rules=rules, family=family,
        command=command, params=params, hand=hand_text, grid=_grid(rules, counts),
        melds=melds, error=error, autorun=error is None and "hand" in params,
        default_deals=PAGE_DEALS, dealer_seats=_dealer_seats(rules), limits=limits,
        policies=_policies(rules),
        known="; ".join(params.get("known", [])), void="; ".join(params.get("void", [])))


def _policies(rules) -> list[str]:
    """The policies that play ``rules`` (the search policies where their engine takes it)."""
    from binokel_sim.engines.policies import expert_plays, sampling_plays, solver_plays

    return [*(["expert"] if expert_plays(rules) else []), "heuristic", "random",
            *(["heuristic+solver"] if solver_plays(rules) else []),
            *(["sampling"] if sampling_plays(rules) else [])]


def _dealer_seats(rules) -> list[str]:
    """The names ``dealer`` takes in ``rules`` (``me`` and the other seats')."""
    from binokel_sim.constraints import seat_names

    first: dict[int, str] = {}
    for name, seat in seat_names(rules.players).items():
        first.setdefault(seat, name)
    return ["me", *first.values()]


def render_answer(done: Answer) -> str:
    """The HTML of a finished run, inserted into the page."""
    from binokel_sim.odds.summary import interesting_bids

    asked, document = done.question, done.document
    rows = document.get("rows", [])
    ladder = interesting_bids(rows) if rows else []
    return TEMPLATES.get_template(f"{asked.command}.html").render(
        q=asked, q_string=asked.query, doc=document, rows=[r for r in rows if r["bid"] in ladder],
        trumps=list(document.get("by_trump", {})), figures=done.figures,
        concede=bool(getattr(asked.rules, "widow_concede", False)))


def error_html(message: str) -> str:
    return TEMPLATES.get_template("error.html").render(error=message)


def percent(value: Any, decimals: int = 1) -> str:
    return "–" if value is None else f"{100 * value:.{decimals}f}%"


TEMPLATES.filters["percent"] = percent
