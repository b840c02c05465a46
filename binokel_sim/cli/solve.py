"""``solve``: the exact endgame from a position, every hand known: a ``play`` record cut at a
card (any strict-trick game), or the two hands of a two-player talon game once the talon is
gone."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from binokel_sim.cli.base import (
    CardNotation,
    CardsOpt,
    OddsFormat,
    OddsFormatOpt,
    RulesOpt,
    VariantOpt,
    cards_provenance,
    command,
    domain_errors,
    out,
    print_json,
    resolve_rules,
    shown_cards,
    source,
)
from binokel_sim.cli.render import Column, integer
from binokel_sim.errors import SimulationError
from binokel_sim.families import check_supports
from binokel_sim.cli.render import table as render_table


@command()
def solve(
    position: Annotated[Optional[Path], typer.Option(
        "--position", metavar="FILE",
        help="A play record (play --format json) cut at a card: the deal, trump and the "
             "tricks so far (docs/commands.md, \"Positions\").")] = None,
    after: Annotated[Optional[int], typer.Option(
        "--after", metavar="N", help="With --position: cut the record after its first N "
                                     "tricks (a whole played deal, solved from trick N + 1).")
    ] = None,
    hand: Annotated[Optional[str], typer.Option(
        "--hand", help="Two-hand form: seat 0's cards after the talon, e.g. \"AS TS KS QS\".")
    ] = None,
    other: Annotated[Optional[str], typer.Option(
        "--other", help="Two-hand form: seat 1's cards, as many as --hand.")] = None,
    trump: Annotated[Optional[str], typer.Option(
        "--trump", "-t", help="Two-hand form: the trump suit, S, H, D or C (or Laub, Herz, "
                              "Schellen, Eichel).")] = None,
    leader: Annotated[int, typer.Option(
        "--leader", help="Two-hand form: who leads next, 0 (--hand) or 1 (--other).")] = 0,
    variant: VariantOpt = "two-hand-48",
    rules_file: RulesOpt = None,
    fmt: OddsFormatOpt = OddsFormat.table,
    cards: CardsOpt = CardNotation.french,
) -> None:
    """The exact endgame, every hand known: what the side of the seat to play takes from here
    with best play of both sides (card points, the last trick's bonus included; tricks for a
    Durch or a Bettel), every best card, and what each card it may play is worth. This is the
    double-dummy value, not advice: a player sees only his own hand.

    A position is a play record cut at a card (--position; four-hand-80, the widow games, and
    the talon games once the talon is gone; up to 10 tricks of four seats, 13 of three), or a
    two-player talon game's two hands once the talon is gone (--hand, --other, --trump).

    Example: binokel-sim solve --hand "AS KH QH 9C" --other "KS AH AD JC" -t H
    Example: binokel-sim solve --hand "LA HK HO E9" --other "LK HA SA EU" -t Herz
    Example: binokel-sim play -v kreuz-4-40 -n 1 -o deal.json
    Example: binokel-sim solve -v kreuz-4-40 --position deal.json --after 4
    """
    from binokel_sim.analysis import provenance
    from binokel_sim.cards import shown_document

    with domain_errors():
        rules = resolve_rules(variant, rules_file)
        if position is not None:
            if hand is not None or other is not None or trump is not None:
                raise SimulationError("give --position, or --hand, --other and --trump, not both")
            from binokel_sim.endgame import solve_position
            from binokel_sim.positions import load_record, read_position

            check_supports(rules, "solve")
            result = solve_position(rules, read_position(rules, cut(load_record(position),
                                                                    after)))
        else:
            if after is not None:
                raise SimulationError("--after cuts a --position record; the two-hand form has "
                                      "no tricks")
            missing = [name for name, value in (("--hand", hand), ("--other", other),
                                                ("--trump", trump)) if value is None]
            if missing:
                raise SimulationError(f"give --position FILE, or the two-hand form's "
                                      f"{', '.join(missing)}")
            from binokel_sim.solver import solve_endgame

            result = solve_endgame(rules, hand, other, trump, leader)
        result = shown_document(result, shown_cards(cards))
        record = provenance(rules, **source(rules_file), **cards_provenance(cards))
    if fmt is OddsFormat.json:
        print_json({"provenance": record, **result})
        return
    if position is not None:
        _print_position(result)
    else:
        _print_solution(result)


def cut(record: dict, after: int | None) -> dict:
    """``record`` with its first ``after`` tricks only (all of them when None)."""
    if after is None:
        return record
    tricks = record.get("tricks")
    n = len(tricks) if isinstance(tricks, list) else 0
    if not 0 <= after < n:
        raise SimulationError(f"--after {after}: the record has {n} tricks; cut it after 0 to "
                              f"{max(n - 1, 0)}")
    return {**record, "tricks": tricks[:after]}


def _print_position(result: dict) -> None:
    def say(text: str) -> None:
        out.print(text, highlight=False)

    n = result["tricks_left"]
    trump = f"trump {result['trump']}" if result["trump"] else f"a {result['contract'].title()}"
    say(f"{result['variant']}, {trump}, {n} trick{'s' if n > 1 else ''} to play after "
        f"{result['tricks_done']}, seat {result['seat']} to play"
        + (f" to {' '.join(result['table'])}" if result["table"] else ""))
    for seat, hand in enumerate(result["hands"]):
        say(f"seat {seat}: {' '.join(hand) if hand else '-'}")
    seats = " and ".join(str(s) for s in result["side"])
    one = len(result["side"]) == 1
    whose = ("seat " if one else "seats ") + seats
    takes = "takes" if one else "take"
    say(f"With best play of both, every hand known: {whose} {takes} "
        f"{result['value']} of {result['total']} {result['unit']}"
        + (" (the last trick's bonus included)." if result["unit"] == "card points" else "."))
    if result["made"] is not None:
        say(f"The {result['contract'].title()} is {'made' if result['made'] else 'lost'} "
            f"with best play.")
    best = set(result["best"])
    rows = [{"card": m["card"], "value": m["value"], "best": "best" if m["card"] in best else ""}
            for m in result["moves"]]
    out.print(render_table(rows, [
        Column("card", f"seat {result['seat']} plays", numeric=False),
        Column("value", f"{whose} {takes}", integer),
        Column("best", "", numeric=False),
    ]))
    say(f"{len(best)} best card{'s' if len(best) > 1 else ''}; {result['nodes']:,} positions "
        f"searched")


def _print_solution(result: dict) -> None:
    lead, follow = result["leader"], 1 - result["leader"]
    n = result["tricks"]

    def say(text: str) -> None:
        out.print(text, highlight=False)

    say(f"{result['variant']}, trump {result['trump']}, {n} trick{'s' if n > 1 else ''} to play, "
        f"seat {lead} leads")
    say(f"seat 0 (--hand):  {' '.join(result['hand'])}")
    say(f"seat 1 (--other): {' '.join(result['other'])}")
    say(f"With best play of both: seat 0 takes {result['points']} card points, seat 1 takes "
        f"{result['opponent_points']}")
    say(f"({result['total_points']} in play, the last trick's {result['last_trick']} included).")
    best = set(result["best_cards"])
    rows = [{"card": row["card"], "own": row["points" if lead == 0 else "opponent_points"],
             "other": row["opponent_points" if lead == 0 else "points"],
             "best": "best" if row["card"] in best else ""} for row in result["leads"]]
    out.print(render_table(rows, [
        Column("card", f"seat {lead} leads", numeric=False),
        Column("own", f"seat {lead} takes", integer),
        Column("other", f"seat {follow} takes", integer),
        Column("best", "", numeric=False),
    ]))
    say(f"{len(best)} best card{'s' if len(best) > 1 else ''} to lead; "
        f"{result['nodes']:,} positions searched")
