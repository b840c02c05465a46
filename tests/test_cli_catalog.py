"""``binokel-sim variants``: what each variant can do (aliases, commands) at 80 columns, its rules
file with ``--show``, and which commands take which variants (``families.check_supports``)."""

from __future__ import annotations

import io
import json
import re
from importlib import resources

import pytest
from rich.console import Console

from binokel_sim.cli import app
from binokel_sim.cli.catalog import _table
from binokel_sim.families import (
    SUPPORTS,
    check_supports,
    engine_family,
    supported_commands,
    supported_variants,
)
from binokel_sim.simulate import SimulationError
from binokel_sim.variants import all_variants, builtin_toml, find_variant, load_rules

from conftest import VARIANT_NAMES, assert_one_line_error, ok, runner

TALON_GAMES = ["four-hand-72", "three-hand-72", "two-hand-48"]
DEAL_ODDS_GAMES = TALON_GAMES + ["sixty-six"]  # the games without an auction
AUCTION_GAMES = ["four-hand-80", "four-hand-widow-48", "kreuz-4-40", "swabian-3-40",
                 "swabian-3-40-tournament", "three-hand-auction-48"]
# every command of the app: a new command must say which variants it takes
EVERY_COMMAND = ["variants", "analyze", "meld-odds", "bid-odds", "deal-odds", "batch", "report",
                 "duel", "match", "play", "calibrate", "solve", "bench", "warm-up", "serve"]
ALIASES = {"two-hand-48": ["binokel-2"], "four-hand-80": ["binokel-80", "double-deck-pinochle"],
           "three-hand-auction-48": ["binokel-3-48", "binokel-3-auction"],
           "four-hand-widow-48": ["binokel-4-48", "binokel-4-widow"],
           "three-hand-72": ["binokel-3-72"], "four-hand-72": ["binokel-4-72"],
           "swabian-3-40": ["binokel", "swabian", "binokel-3"],
           "kreuz-4-40": ["kreuzbinokel", "kreuz", "binokel-4"],
           "sixty-six": ["sechsundsechzig", "66"],
           "swabian-3-40-tournament": ["binokel-tournament", "swabian-tournament"]}


# --- which commands take which variants ------------------------------------------------------------

def test_the_table_names_every_command_of_the_app():
    registered = {c.name or c.callback.__name__.replace("_", "-") for c in
                  app.registered_commands}
    assert set(SUPPORTS) == set(EVERY_COMMAND) == registered


@pytest.mark.parametrize("command,names", [
    ("bid-odds", AUCTION_GAMES), ("deal-odds", DEAL_ODDS_GAMES),
    ("play", VARIANT_NAMES), ("duel", VARIANT_NAMES), ("match", VARIANT_NAMES),
    ("analyze", VARIANT_NAMES), ("meld-odds", VARIANT_NAMES), ("variants", VARIANT_NAMES),
    ("bench", VARIANT_NAMES), ("calibrate", AUCTION_GAMES),
    ("solve", ["four-hand-72", "four-hand-80", "four-hand-widow-48", "kreuz-4-40",
               "swabian-3-40", "swabian-3-40-tournament", "three-hand-72",
               "three-hand-auction-48", "two-hand-48"]),
])
def test_supported_variants(command, names):
    assert sorted(supported_variants(command)) == sorted(names)


def test_supported_commands_follow_the_engine_family(rules):
    commands = supported_commands(rules)
    assert ("bid-odds" in commands) == (rules.name in AUCTION_GAMES)
    assert ("deal-odds" in commands) == (rules.name in DEAL_ODDS_GAMES)
    assert {"variants", "analyze", "meld-odds", "duel", "match", "play", "bench"} <= set(commands)
    assert list(commands) == [c for c in EVERY_COMMAND if c in commands]  # CLI order


@pytest.mark.parametrize("name", TALON_GAMES)
def test_bid_odds_refuses_a_talon_game_and_says_where_to_go(name):
    with pytest.raises(SimulationError) as info:
        check_supports(find_variant(name), "bid-odds")
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"variant {name} has no auction: bid-odds supports ")
    for other in AUCTION_GAMES:
        assert other in message
    assert message.endswith("use deal-odds")


@pytest.mark.parametrize("name", AUCTION_GAMES)
def test_deal_odds_refuses_an_auction_game(name):
    with pytest.raises(SimulationError, match=f"variant {name} has no talon: deal-odds supports "):
        check_supports(find_variant(name), "deal-odds")


def test_check_supports_passes_what_is_supported(rules):
    for command in supported_commands(rules):
        check_supports(rules, command)  # no error


def test_check_supports_reads_the_rules_data_not_the_name(tmp_path):
    # a house-rules file with a talon is a talon game whatever it is called
    text = builtin_toml("two-hand-48").replace('name = "two-hand-48"', 'name = "my-house"')
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    house = load_rules(path)
    assert engine_family(house) == "talon"
    check_supports(house, "deal-odds")
    with pytest.raises(SimulationError, match="variant my-house has no auction"):
        check_supports(house, "bid-odds")


def test_an_unknown_command_is_a_programming_error():
    with pytest.raises(ValueError, match="unknown command 'bid_odds'"):
        check_supports(find_variant("four-hand-80"), "bid_odds")


# --- the table at 80 columns -------------------------------------------------------------------------

def assert_fits(text: str, width: int = 80) -> None:
    lines = text.splitlines()
    assert lines, "no output"
    too_wide = [line for line in lines if len(line.rstrip()) > width]
    assert not too_wide, too_wide
    assert "…" not in text  # rich marks a cut cell with an ellipsis


def render(width: int) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None, legacy_windows=False)
    console.print(_table(all_variants()))
    return console.file.getvalue()


def header_and_rows(text: str) -> tuple[list[str], list[list[str]]]:
    """The header lines and the body rows (cells split on two or more spaces) of a table drawn
    with simple rules: the header is above the rule of ``─``, the body below it."""
    lines = text.splitlines()
    rule = next(i for i, line in enumerate(lines) if line.strip() and set(line.strip()) == {"─"})
    top = next(i for i in range(rule - 1, -1, -1) if not lines[i].strip()) + 1
    body = []
    for line in lines[rule + 1:]:
        if not line.strip():
            break
        body.append(re.split(r"\s{2,}", line.strip()))
    return lines[top:rule], body


HEADERS = ["variant / aliases", "players", "deck", "hand", "widow/talon", "commands"]


def test_table_fits_80_columns_with_whole_headers_and_names():
    text = render(80)
    assert_fits(text)
    header, body = header_and_rows(text)
    assert len(header) == 1 and re.split(r"\s{2,}", header[0].strip()) == HEADERS, header
    names = [row[0] for row in body]
    for name, aliases in ALIASES.items():
        assert name in names and all(alias in names for alias in aliases), (name, names)
        i = names.index(name)
        assert names[i + 1:i + 1 + len(aliases)] == aliases  # under the name


def test_table_rows_say_players_deck_hand_and_widow_or_talon():
    text = render(80)
    rows = {row[0]: row[1:] for row in header_and_rows(text)[1]
            if len(row) > 1 and row[0] in VARIANT_NAMES}  # not the alias lines beside commands
    assert set(rows) == set(VARIANT_NAMES)
    assert rows["four-hand-80"] == ["4", "80", "20", "-", "bid-odds"]
    assert rows["two-hand-48"] == ["2", "48", "12", "talon 24", "deal-odds"]
    assert rows["three-hand-auction-48"] == ["3", "48", "15", "widow 3", "bid-odds"]
    assert rows["three-hand-72"] == ["3", "72", "12", "talon 36", "deal-odds"]
    assert ("every variant: variants, analyze, meld-odds, batch, report, duel, match, play, bench, "
            "warm-up"
            in " ".join(text.split()))
    assert "binokel" in text and "quint" not in text  # the meld list is in --show and json


def test_table_never_cuts_on_a_narrow_terminal():
    assert "…" not in render(50)  # folded, not cut


def test_variants_command_at_80_columns():
    result = runner.invoke(app, ["variants"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert_fits(result.stdout)
    header, _ = header_and_rows(result.stdout)
    assert re.split(r"\s{2,}", header[0].strip()) == HEADERS
    assert "three-hand-auction-48" in result.stdout and "double-deck-pinochle" in result.stdout


def test_variants_help_at_80_columns_has_an_example():
    result = runner.invoke(app, ["variants", "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert_fits(result.stdout)
    assert "Example: binokel-sim variants --show two-hand-48" in result.stdout
    assert "--show" in result.stdout


# --- json ---------------------------------------------------------------------------------------------

def test_json_has_aliases_engine_and_commands():
    rows = json.loads(ok("variants", "--format", "json").stdout)
    assert isinstance(rows, list) and len(rows) == len(VARIANT_NAMES)
    by = {r["variant"]: r for r in rows}
    for name, aliases in ALIASES.items():
        assert by[name]["aliases"] == aliases
        assert by[name]["commands"] == list(supported_commands(find_variant(name)))
    assert by["two-hand-48"]["engine"] == "talon" and "deal-odds" in by["two-hand-48"]["commands"]
    assert "bid-odds" not in by["two-hand-48"]["commands"]
    assert by["four-hand-80"]["engine"] == "partnership"
    assert by["four-hand-widow-48"]["engine"] == "widow"
    assert "quint" in by["two-hand-48"]["melds"]


# --- --show ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("asked,file", [("two-hand-48", "two-hand-48"), ("binokel", "swabian-3-40"),
                                        ("Double-Deck-Pinochle", "four-hand-80"),
                                        ("three-hand-72", "three-hand-72")])
def test_show_prints_the_builtin_file_exactly(asked, file):
    want = resources.files("binokel_sim.variants").joinpath(f"{file}.toml").read_text("utf-8")
    assert ok("variants", "--show", asked).stdout == want
    assert "[deck]" in want  # what rich markup would have eaten


def test_show_round_trip_through_a_house_rules_file(tmp_path):
    house = tmp_path / "house.toml"
    house.write_text(ok("variants", "--show", "two-hand-48").stdout, encoding="utf-8")
    assert load_rules(house) == find_variant("two-hand-48")
    direct = ok("analyze", "--variant", "two-hand-48", "--format", "json").stdout
    via_file = ok("analyze", "--rules", str(house), "--format", "json").stdout
    assert json.loads(via_file)["by_trump"] == json.loads(direct)["by_trump"]


def test_show_an_unknown_variant_is_one_line_and_exit_1():
    result = runner.invoke(app, ["variants", "--show", "five-hand-100"])
    assert_one_line_error(result, "five-hand-100", "two-hand-48")
    assert result.stdout == ""
