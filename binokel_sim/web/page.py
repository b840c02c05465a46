"""The page's HTML, rendered on the server with Jinja2 (templates in ``templates/``): the form and
the hand's meld table (:func:`render_page`, from the URL's query), a run's answer
(:func:`render_answer`: the answer in one sentence, the bid curve (:mod:`.curve`), then folded
the CLI's tables and the same figures as ``report``, drawn by
:func:`binokel_sim.report.drawing.render`), and the API's page (:func:`render_api`). Players'
words, not field names: :mod:`.words`."""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup, escape

from binokel_sim.errors import DOMAIN_ERRORS
from binokel_sim.web import words
from binokel_sim.web.curve import bid_curve
from binokel_sim.web.questions import (
    DEFAULT_DEALS,
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
                  "name": words.card_word(RANKS[r] + suit),
                  "copies": int(deck[card_type(r, s)]),
                  "held": int(counts[card_type(r, s)]) if counts is not None else 0}
                 for r in reversed(range(len(RANKS))) if deck[card_type(r, s)]]
        rows.append({"suit": suit, "symbol": "♠♥♦♣"[s], "red": suit in "HD", "cards": cards})
    return rows


def render_page(query, limits: Limits) -> tuple[str, str | None]:
    """The page for the URL's ``query``: the form filled from it, the hand's card grid and meld
    table, and the CLI's one-line message for a bad parameter (at the top; returned too, for the
    status, else None). With a hand in the query and no error, the page starts the run when it
    loads (so a link reproduces the answer)."""
    from binokel_sim.analysis import analyze_hand
    from binokel_sim.families import odds_command
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
    if error is None:  # every other parameter, checked as a run would check it (no work)
        try:
            question(command, params, limits)
        except DOMAIN_ERRORS as exc:
            error = str(exc)
    return TEMPLATES.get_template("page.html").render(
        variants=[r.name for r in all_variants()], rules=rules,
        own_options=_own_options(rules, command), command=command, params=params, hand=hand_text,
        grid=_grid(rules, counts),
        melds=melds, error=error, autorun=error is None and "hand" in params,
        default_deals=DEFAULT_DEALS, dealer_seats=_dealer_seats(rules), limits=limits,
        seats=_other_seats(rules), lowest_bid=_lowest_bid(rules, command),
        policies=_policies(rules),
        known="; ".join(params.get("known", [])), void="; ".join(params.get("void", []))), error


def _own_options(rules, command: str) -> tuple[str, ...]:
    """The options of its own ``command`` (the hand's odds) reads in ``rules``, one field each on
    the form: its document's ``own_options`` (``deal-odds``' turned card and seat, the bidding
    family's trump, auction or dealer)."""
    from binokel_sim.documents import deal_odds
    from binokel_sim.documents.bid_odds import family_view

    return (deal_odds if command == "deal-odds" else family_view(rules)).own_options(rules)


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


def _lowest_bid(rules, command: str) -> int | None:
    """The variant's lowest bid (None where ``command`` is not ``bid-odds``)."""
    from binokel_sim.bidding import minimum_bid

    return minimum_bid(rules) if command == "bid-odds" else None


def _other_seats(rules) -> list[str]:
    """The names of the other seats in ``rules`` (``--known`` and ``--void`` take them), one
    name a seat."""
    from binokel_sim.constraints import seat_names

    first: dict[int, str] = {}
    for name, seat in seat_names(rules.players).items():
        first.setdefault(seat, name)
    return list(first.values())


def render_answer(done: Answer) -> str:
    """The HTML of a finished run, inserted into the page: the answer in one sentence, the bid
    curve, then folded the tables (the bids worth a look, every bid) and the figures."""
    from binokel_sim.odds.summary import interesting_bids

    asked, document = done.question, done.document
    rows = document.get("rows", [])
    ladder = interesting_bids(rows) if rows else []
    trumps = list(document.get("by_trump", {})) or [None]
    if asked.command == "bid-odds":
        verdict = words.bid_verdict(document)
        curve = bid_curve(rows, trumps, verdict["trump"], verdict["bid"],
                          document["provenance"].get("bid"))
    else:
        verdict, curve = words.deal_verdict(document), None
    return TEMPLATES.get_template(f"{asked.command}.html").render(
        q=asked, q_string=asked.query, doc=document, rows=[r for r in rows if r["bid"] in ladder],
        all_rows=rows, trumps=trumps, figures=done.figures, verdict=verdict, curve=curve,
        concede=bool(getattr(asked.rules, "widow_concede", False)))


def render_api(document: dict) -> str:
    """The API's page for people: each route, what it answers and its parameters, from the
    OpenAPI ``document``."""
    from binokel_sim.web.openapi import parameter_rows

    return TEMPLATES.get_template("api.html").render(api=document,
                                                     routes=parameter_rows(document))


def error_html(message: str) -> str:
    return TEMPLATES.get_template("error.html").render(error=message)


def _ticks(text: str) -> Markup:
    """Text with its ``code`` spans (between backticks, as OpenAPI's Markdown writes them) as
    HTML ``<code>``, the rest escaped."""
    parts = str(text).split("`")
    return Markup("".join(str(escape(part)) if i % 2 == 0 else f"<code>{escape(part)}</code>"
                          for i, part in enumerate(parts)))


def percent(value: Any, decimals: int = 1) -> str:
    return "–" if value is None else f"{100 * value:.{decimals}f}%"


TEMPLATES.filters["percent"] = percent
TEMPLATES.filters["ticks"] = _ticks
TEMPLATES.filters["whole_percent"] = words.whole_percent
TEMPLATES.filters["signed"] = words.signed
TEMPLATES.filters["meld_word"] = words.meld_word
TEMPLATES.filters["suit_word"] = words.suit_word
TEMPLATES.globals["SEAT_WORDS"] = words.SEAT_WORDS
TEMPLATES.globals["POLICY_WORDS"] = words.POLICY_WORDS
TEMPLATES.globals["SUIT_SYMBOLS"] = words.SUIT_SYMBOLS
