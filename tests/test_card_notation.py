"""The players' own notation (issue 52, item 3): Ober and Unter, German suits read everywhere a
card or a suit is read, and ``--cards german`` showing them in tables and records, with the
mapping Eichel = clubs, Laub = spades, Herz = hearts, Schellen = diamonds (the binokel, QS + JD,
is Laub-Ober + Schellen-Unter)."""

from __future__ import annotations

import io
import json

import polars as pl
import pytest

from binokel_sim import cards
from binokel_sim.cards import FRENCH, GERMAN, CardError

from conftest import assert_one_line_error, invoke, ok

FRENCH_NAMES = [FRENCH.card(t) for t in range(cards.N_TYPES)]
GERMAN_NAMES = [GERMAN.card(t) for t in range(cards.N_TYPES)]


# --- reading -------------------------------------------------------------------------------------

def test_the_german_name_of_every_card_reads_as_that_card():
    assert [cards.parse_card(name) for name in GERMAN_NAMES] == list(range(cards.N_TYPES))
    assert [cards.parse_card(name.lower()) for name in GERMAN_NAMES] == list(range(cards.N_TYPES))


@pytest.mark.parametrize("german,french", [
    ("LO", "QS"), ("SU", "JD"), ("EA", "AC"), ("HZ", "TH"), ("H10", "TH"), ("GK", "KS"),
    ("S9", "9D"), ("E10", "TC"), ("Laub-Ober", "QS"), ("Schellen-Unter", "JD"),
    ("Grün-König", "KS"), ("gruen-koenig", "KS"), ("Eichel-Sau", "AC"), ("Herz_Zehn", "TH"),
    ("OH", "QH"), ("UH", "JH"), ("OS", "QS"), ("U♦", "JD"), ("o♣", "QC"),
])
def test_ober_unter_and_german_suits_read_as_the_french_card(german, french):
    assert cards.parse_card(german) == cards.parse_card(french)


def test_the_binokel_is_laub_ober_and_schellen_unter():
    assert cards.parse_cards("LO SU") == cards.parse_cards("QS JD")


def test_no_token_means_two_cards():
    """A French token starts with a rank, a German one with a suit letter, and no letter is
    both: every spelling of either form reads as the one card it names."""
    ranks = {"9": 0, "J": 1, "U": 1, "Q": 2, "O": 2, "K": 3, "T": 4, "10": 4, "A": 5}
    german_ranks = {"9": 0, "U": 1, "O": 2, "K": 3, "Z": 4, "10": 4, "A": 5}
    german_suits = {"L": 0, "G": 0, "H": 1, "S": 2, "E": 3}
    read = {}
    for r, rank in ranks.items():
        for s, suit in zip("SHDC", range(4)):
            read.setdefault(r + s, set()).add(cards.card_type(rank, suit))
    for s, suit in german_suits.items():
        for r, rank in german_ranks.items():
            read.setdefault(s + r, set()).add(cards.card_type(rank, suit))
    assert all(len(types) == 1 for types in read.values())
    assert all(cards.parse_card(token) == next(iter(types)) for token, types in read.items())


def test_the_issues_hand_reads():
    """`--hand "AH TH KH OH UH ..."` gave `error: unknown card 'OH'`."""
    hand = "AH TH KH OH UH AS TS KS OS US OD UD"
    assert ok("analyze", "-v", "binokel", "--hand", hand, "-f", "json").stdout == \
        ok("analyze", "-v", "binokel", "--hand", hand.replace("O", "Q").replace("U", "J"),
           "-f", "json").stdout


@pytest.mark.parametrize("token,suit", [
    ("Eichel", 3), ("E", 3), ("Laub", 0), ("L", 0), ("Grün", 0), ("G", 0), ("Herz", 1),
    ("Schellen", 2), ("Sch", 2), ("S", 0), ("♦", 2), ("clubs", 3),
])
def test_suits_read_in_both_notations(token, suit):
    """``S`` alone stays spades (the French letter); Schellen is ``Sch`` or the word."""
    assert cards.parse_suit(token) == suit


@pytest.mark.parametrize("token", ["XS", "SX", "LQ", "HJ", "Laub-Dame", "EZZ", "Z", "Herz-"])
def test_unknown_card_says_both_forms(token):
    with pytest.raises(CardError) as info:
        cards.parse_card(token)
    assert repr(token) in str(info.value)
    assert "Ober" in str(info.value) and "German" in str(info.value)


def test_an_unknown_card_on_the_command_line_is_one_line():
    assert_one_line_error(invoke("analyze", "-v", "binokel", "--hand", "AS XX"),
                          "unknown card 'XX'", "German")
    usage = invoke("analyze", "--cards", "klingon")  # a usage error: one line, exit code 2
    assert usage.exit_code == 2 and usage.stderr.count("\n") == 1
    assert usage.stderr.startswith("error:") and "'klingon' is not one of" in usage.stderr


# --- showing ---------------------------------------------------------------------------------

def test_card_notation_is_scoped():
    counts = cards.counts_of(cards.parse_cards("AS QS JD TC 9H"))
    with cards.card_notation("german"):
        assert cards.format_counts(counts) == ["LA", "LO", "H9", "SU", "EZ"]
        assert [cards.format_suit(s) for s in range(4)] == ["Laub", "Herz", "Schellen", "Eichel"]
    assert cards.format_counts(counts) == ["AS", "QS", "9H", "JD", "TC"]
    with pytest.raises(CardError, match="unknown card notation"):
        with cards.card_notation("klingon"):
            pass


def test_shown_document_names_cards_and_suits_only():
    doc = {"hand": ["AS", "QS"], "by_trump": {"S": {"total": 3}, "C": {"total": 1}},
           "best_trump": "S", "trump": None, "events": [{"hand": "AS JD", "trump": "D"}],
           "policy": "expert", "meld": "S", "rows": pl.DataFrame({"trump": ["H"], "card": ["TH"]})}
    shown = cards.shown_document(doc, GERMAN)
    assert shown["hand"] == ["LA", "LO"] and list(shown["by_trump"]) == ["Laub", "Eichel"]
    assert shown["best_trump"] == "Laub" and shown["trump"] is None
    assert shown["events"] == [{"hand": "LA SU", "trump": "Schellen"}]
    assert shown["policy"] == "expert" and shown["meld"] == "S"  # not a suit field
    assert shown["rows"].to_dicts() == [{"trump": "Herz", "card": "HZ"}]
    assert cards.shown_document(doc, FRENCH) is doc


# --- the commands ----------------------------------------------------------------------------

def _french(value):
    """A German record or document read back into French names (cards and suits)."""
    if isinstance(value, str):
        if value in ("Laub", "Herz", "Schellen", "Eichel"):
            return "SHDC"[cards.parse_suit(value)]
        tokens = value.split(" ")
        if all(tok in GERMAN_NAMES for tok in tokens):
            return " ".join(FRENCH.card(cards.parse_card(tok)) for tok in tokens)
        return value
    if isinstance(value, dict):
        return {_french(k) if k in ("Laub", "Herz", "Schellen", "Eichel") else k: _french(v)
                for k, v in value.items()}
    if isinstance(value, list):
        return [_french(v) for v in value]
    return value


@pytest.mark.parametrize("variant", ["swabian-3-40", "four-hand-80", "two-hand-48", "sixty-six"])
def test_play_records_in_german_are_the_french_records(variant):
    args = ("play", "-v", variant, "-n", "4", "--seed", "3", "--policy", "heuristic")
    french = [json.loads(line) for line in ok(*args).stdout.splitlines()]
    german = [json.loads(line) for line in ok(*args, "--cards", "german").stdout.splitlines()]
    assert german != french
    assert [_french(r) for r in german] == french
    # every suit field names its suit the German way (a French letter left would read as
    # another suit: S is Schellen there)
    suits = list(_suit_fields(german))
    assert suits and set(suits) <= {"Laub", "Herz", "Schellen", "Eichel", None}


def _suit_fields(value):
    """The values under the keys ``trump`` and ``suit`` anywhere in ``value``."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k in ("trump", "suit"):
                yield v
            else:
                yield from _suit_fields(v)
    elif isinstance(value, list):
        for v in value:
            yield from _suit_fields(v)


def test_play_parquet_and_text_in_german(tmp_path):
    """polars pulls the Parquet frames on its own thread: they are German all the same."""
    out = tmp_path / "deals.parquet"
    ok("play", "-v", "kreuz-4-40", "-n", "3", "--cards", "german", "-o", str(out))
    lines = ok("play", "-v", "kreuz-4-40", "-n", "3", "--cards", "german").stdout.splitlines()
    assert pl.read_parquet(out).to_dicts() == [json.loads(line) for line in lines]
    text = ok("play", "-v", "kreuz-4-40", "-n", "1", "--cards", "german", "-f", "text").stdout
    assert "cards german" in text and "Eichel: " in text and "Laub: " in text
    assert " S: " not in text


def test_analyze_shows_german_suits_and_cards():
    hand = "EA EZ EK EO EU EA EZ EK EO HA LO SU"
    table = ok("analyze", "-v", "binokel", "--hand", hand, "--cards", "german").stdout
    assert "trump Eichel" in table and "best trump: Eichel (230 meld)" in table
    assert "LO HA SU EA" in table
    german = json.loads(ok("analyze", "-v", "binokel", "--hand", hand, "--cards", "german",
                           "-f", "json").stdout)
    french = json.loads(ok("analyze", "-v", "binokel", "--hand", hand, "-f", "json").stdout)
    assert _french(german) == french
    rows = ok("analyze", "-v", "binokel", "--hand", hand, "--cards", "german", "-f", "csv").stdout
    frame = pl.read_csv(io.StringIO(rows))
    assert set(frame["trump"]) == {"Laub", "Herz", "Schellen", "Eichel"}
    assert set(frame["cards"]) == {"german"}


def test_bid_odds_and_solve_in_german():
    args = ("bid-odds", "-v", "kreuz-4-40", "-n", "100", "-f", "json")
    german = json.loads(ok(*args, "--cards", "german").stdout)
    french = json.loads(ok(*args).stdout)
    assert german["provenance"].pop("cards") == "german"
    assert _french(german) == french
    solve = ("solve", "--hand", "LA HK HO E9", "--other", "LK HA SA EU", "-t", "Herz", "-f", "json")
    german = json.loads(ok(*solve, "--cards", "german").stdout)
    french = json.loads(ok(*solve).stdout)
    assert german["best_cards"] == ["HO", "E9"] and french["best_cards"] == ["QH", "9C"]
    german["provenance"].pop("cards")
    assert _french(german) == french
