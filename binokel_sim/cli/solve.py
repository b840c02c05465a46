"""``solve``: the exact endgame of a two-player talon game once the talon is gone."""

from typing import Annotated

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
from binokel_sim.cli.render import table as render_table


@command()
def solve(
    hand: Annotated[str, typer.Option(
        "--hand", help="Seat 0's cards after the talon, e.g. \"AS TS KS QS\".")],
    other: Annotated[str, typer.Option(
        "--other", help="Seat 1's cards, as many as --hand.")],
    trump: Annotated[str, typer.Option(
        "--trump", "-t", help="The trump suit: S, H, D or C (or Laub, Herz, Schellen, Eichel).")],
    leader: Annotated[int, typer.Option(
        "--leader", help="Who leads next: 0 (--hand) or 1 (--other).")] = 0,
    variant: VariantOpt = "two-hand-48",
    rules_file: RulesOpt = None,
    fmt: OddsFormatOpt = OddsFormat.table,
    cards: CardsOpt = CardNotation.french,
) -> None:
    """The exact endgame of a two-player talon game (phase 2 of two-hand-48): once the talon is
    gone both hands are known and play is strict, so best play of both sides can be computed.
    Reports the card points each seat secures from here (the last trick's 10 included), every
    best card for the seat to lead, and what each of its leads is worth.

    Example: binokel-sim solve --hand "AS KH QH 9C" --other "KS AH AD JC" -t H
    Example: binokel-sim solve --hand "LA HK HO E9" --other "LK HA SA EU" -t Herz
    """
    from binokel_sim.analysis import provenance
    from binokel_sim.cards import shown_document
    from binokel_sim.solver import solve_endgame

    with domain_errors():
        rules = resolve_rules(variant, rules_file)
        result = shown_document(solve_endgame(rules, hand, other, trump, leader),
                                shown_cards(cards))
        record = provenance(rules, **source(rules_file), **cards_provenance(cards))
    if fmt is OddsFormat.json:
        print_json({"provenance": record, **result})
        return
    _print_solution(result)


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
