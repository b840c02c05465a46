"""``variants``: the built-in variants and what each can do."""

import json
import sys
from typing import TYPE_CHECKING, Annotated, Optional

import typer
from rich.table import Table
from rich.text import Text

from binokel_sim.cli import render
from binokel_sim.cli.base import OddsFormat, command, domain_errors, out
from binokel_sim.families import supported_commands, variant_record

if TYPE_CHECKING:
    from binokel_sim.variants import Rules


@command()
def variants(
    fmt: Annotated[OddsFormat, typer.Option("--format", "-f", metavar="FORMAT",
                                            help="table or json.")] = OddsFormat.table,
    show: Annotated[Optional[str], typer.Option(
        "--show", metavar="NAME",
        help="Print a variant's rules file, to start house rules from.")] = None,
) -> None:
    """List the built-in variants and the commands each one supports. The table shows aliases,
    players, deck, hand size and widow or talon; --format json adds the trump rule and the meld
    table; --show prints a variant's rules file.

    Example: binokel-sim variants --format json
    Example: binokel-sim variants --show two-hand-48 > house.toml
    Example: binokel-sim analyze --rules house.toml
    """
    from binokel_sim.variants import all_variants, builtin_toml

    if show is not None:
        with domain_errors():
            text = builtin_toml(show)
        sys.stdout.write(text)  # verbatim: rich would take [deck] for markup
        return
    rows = all_variants()
    if fmt is OddsFormat.json:
        print(json.dumps([variant_record(r) for r in rows], indent=2))
        return
    out.print(_table(rows))


def _table(rows: "list[Rules]") -> Table:
    """The variants as a table that fits 80 columns (:func:`render.table`): aliases under each
    name, the commands every variant supports in the caption and in each row only the others (the
    meld tables are in --show and json)."""
    every = [c for c in supported_commands(rows[0])
             if all(c in supported_commands(r) for r in rows)]
    cells = [{"variant": r, "players": r.players, "deck": r.deck_size, "hand": r.hand_size,
              "rest": f"talon {r.talon}" if r.talon else f"widow {r.widow}" if r.widow else None,
              "commands": "\n".join(c for c in supported_commands(r) if c not in every) or None}
             for r in rows]
    table = render.table(cells, [
        render.Column("variant", "variant / aliases", _name_and_aliases, numeric=False),
        render.Column("players", "players"), render.Column("deck", "deck"),
        render.Column("hand", "hand"), render.Column("rest", "widow/talon", numeric=False),
        render.Column("commands", "commands", numeric=False),
    ], title="Built-in variants")
    table.caption, table.caption_justify = f"every variant: {', '.join(every)}", "left"
    return table


def _name_and_aliases(rules: "Rules") -> Text:
    cell = Text(rules.name)
    for alias in rules.aliases:
        cell.append(f"\n  {alias}", style="dim")
    return cell
