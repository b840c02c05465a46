"""Generated bad input for the ``binokel-sim`` command line: hypothesis strategies over command
lines, rules files and the files commands read (hands files, ``batch``'s kept rows), and the
checks every answer must pass. ``tests/test_fuzz_cli.py`` runs a few hundred cases in the suite;
``scripts/fuzz_cli.py`` runs thousands, with Ctrl-C at random moments.

What a refusal must look like (the project's standard, README "Commands"): exit code 1 (a
domain error) or 2 (a usage error), exactly one line on stderr starting with ``error:``, nothing
on stdout, no traceback, and no file left behind.

Every generated command line carries one *poison*, an input that must be refused before any work
starts (a number written with other digits than 0-9, an unknown seat, a rules file nested a
thousand deep, ...), among a few other options with values good or bad; so every case is a
refusal, and none runs a simulation.
"""

from __future__ import annotations

import os
import re
import string
from dataclasses import dataclass, field
from pathlib import Path

import typer
from hypothesis import strategies as st

from binokel_sim.cli import app
from binokel_sim.variants import builtin_names, builtin_toml

# --- what the command line offers ------------------------------------------------------------------

# options that start slow or outside work once the input is checked (a cluster, every engine, a
# server), or that end the command early (help): never added as an extra
NOT_EXTRA = {"--help", "--workers", "--scheduler", "--all", "--resume", "--host", "--port"}
SEATS = {"0", "1", "2", "3", "me", "left", "partner", "right", "other", "opponent"}


@dataclass(frozen=True)
class Option:
    name: str  # the long name (--deals)
    kind: str  # "int", "float", "flag", "choice", "path", "text"
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Command:
    name: str
    options: tuple[Option, ...]

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)

    def has(self, name: str) -> bool:
        return self.option(name) is not None


def commands() -> dict[str, Command]:
    """Every command and its options, read from the app (a new option is fuzzed at once)."""
    group = typer.main.get_command(app)
    found = {}
    for name, cmd in group.commands.items():
        options = []
        for p in cmd.params:
            long = next((o for o in p.opts if o.startswith("--")), None)
            if long is None or long == "--help":
                continue
            type_name = type(p.type).__name__
            if getattr(p, "is_flag", False):
                kind = "flag"
            elif "Int" in type_name:
                kind = "int"
            elif "Float" in type_name:
                kind = "float"
            elif getattr(p.type, "choices", None):
                kind = "choice"
            elif "Path" in type_name:
                kind = "path"
            else:
                kind = "text"
            options.append(Option(long, kind, tuple(getattr(p.type, "choices", None) or ())))
        found[name] = Command(name, tuple(options))
    return found


COMMANDS = commands()

# --- text -------------------------------------------------------------------------------------------

# any character a command line can carry (no NUL, no lone surrogate)
CHARACTERS = st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")
ANY_TEXT = st.text(CHARACTERS, max_size=40)
NON_ASCII_DIGITS = st.characters(whitelist_categories=("Nd", "No"), max_codepoint=0x1FFFF).filter(
    lambda c: c not in string.digits)


def _not_a_number(text: str) -> bool:
    from binokel_sim.numbers import read_float, read_int

    return read_int(text) is None and read_float(text) is None


@st.composite
def bad_numbers(draw) -> str:
    """Text that is no number written with 0-9: other digits ('²', '٣', '１'), a mix, words,
    nan and inf, too many digits, signs alone, spaces inside, empty."""
    kind = draw(st.sampled_from(["unicode", "mixed", "word", "special", "long", "spaced",
                                 "any"]))
    if kind == "unicode":
        text = draw(st.text(NON_ASCII_DIGITS, min_size=1, max_size=4))
    elif kind == "mixed":
        text = draw(st.from_regex(r"[0-9]{0,3}", fullmatch=True)) + draw(NON_ASCII_DIGITS) + \
            draw(st.from_regex(r"[0-9]{0,3}", fullmatch=True))
    elif kind == "word":
        text = draw(st.sampled_from(["x", "ten", "1O", "l0", "0x10", "1,000", "1.5.2", "--",
                                     "+", "-", "e5", "1e", "½", "Ⅻ", "五"]))
    elif kind == "special":
        text = draw(st.sampled_from(["nan", "NaN", "inf", "-inf", "infinity", "1e999",
                                     "0x1p3", "1j", ""]))
    elif kind == "long":
        text = "9" * draw(st.integers(31, 5000))
    elif kind == "spaced":
        text = draw(st.sampled_from(["1 0", "1\t0", "1\u00a00", "1\u20030", "\u30001"]))
    else:
        text = draw(ANY_TEXT)
    return text if _not_a_number(text) else text + "²"


@st.composite
def bad_seats(draw) -> str:
    """Text that names no seat (by number or name)."""
    text = draw(st.one_of(bad_numbers(), ANY_TEXT, st.sampled_from(
        ["4", "9", "-1", "+1", "01 ", "lef", "partners", "²", "¹", "٢"])))
    return text if text.strip().lower() not in SEATS and text.strip() else text + "?"


# --- rules files ------------------------------------------------------------------------------------

def toml_string(text: str) -> str:
    """``text`` as a TOML basic string."""
    out = []
    for c in text:
        if c in '"\\':
            out.append("\\" + c)
        elif ord(c) < 0x20 or c == "\x7f":
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{toml_string(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


SCALARS = st.one_of(st.booleans(), st.integers(-(2**63), 2**63 - 1),
                    st.floats(allow_nan=False, allow_infinity=False), ANY_TEXT)
KEYS = st.one_of(st.sampled_from(["name", "deck", "deal", "melds", "ranks", "copies", "players",
                                  "hand_size", "points", "trump", "play", "bidding", "ladder"]),
                 ANY_TEXT)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=4)), max_leaves=12)


@st.composite
def deep_nesting(draw) -> str:
    depth = draw(st.integers(5, 3000))
    key = draw(st.sampled_from(["x", "name", "melds", "deck"]))
    if draw(st.booleans()):
        return f"{key} = " + "[" * depth + "]" * depth + "\n"
    return f"{key} = " + "{a = " * depth + "1" + "}" * depth + "\n"


@st.composite
def random_document(draw) -> str:
    data = draw(st.dictionaries(KEYS, VALUES, max_size=6))
    return "".join(f"{toml_string(k)} = {toml_value(v)}\n" for k, v in data.items())


@st.composite
def mutated_variant(draw) -> str:
    """A built-in variant's file with one to three edits: a number or a string replaced, a line
    dropped, doubled or cut short, garbage put in, digits swapped for other digits."""
    text = builtin_toml(draw(st.sampled_from(builtin_names())))
    for _ in range(draw(st.integers(1, 3))):
        lines = text.splitlines()
        i = draw(st.integers(0, len(lines) - 1))
        edit = draw(st.sampled_from(["number", "string", "drop", "double", "cut", "garbage",
                                     "digits"]))
        line = lines[i]
        if edit == "number" and re.search(r"\d+", line):
            replacement = str(draw(st.one_of(st.integers(-10, 60), st.integers(-(2**70), 2**70))))
            line = re.sub(r"\d+", replacement, line, count=1)
        elif edit == "string" and '"' in line:
            line = re.sub(r'"[^"]*"', toml_string(draw(ANY_TEXT)).replace("\\", "\\\\"), line,
                          count=1)
        elif edit == "drop":
            line = ""
        elif edit == "double":
            line = line + "\n" + line
        elif edit == "cut":
            line = line[:draw(st.integers(0, len(line)))]
        elif edit == "garbage":
            line = draw(ANY_TEXT)
        elif edit == "digits":
            line = re.sub(r"\d", lambda _: draw(NON_ASCII_DIGITS), line)
        lines[i] = line
        text = "\n".join(lines) + "\n"
    return text


def bad_rules_files():
    """The contents of rules files no command can take: bytes that are not UTF-8 text, TOML that
    does not parse or nests deeply, documents of the wrong keys."""
    return st.one_of(
        deep_nesting().map(str.encode),
        random_document().map(str.encode),
        st.binary(max_size=200).filter(lambda b: not _utf8(b)),
        st.sampled_from([b"", b"\xef\xbb\xbf", b"[", b"name = ", b'name = "x"\n' * 2]),
    )


def any_rules_files():
    """Rules files that may or may not be good (edited built-in files among them)."""
    return st.one_of(bad_rules_files(), mutated_variant().map(str.encode))


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


# --- hands files ------------------------------------------------------------------------------------

CARD = st.builds(lambda r, s: r + s, st.sampled_from(list("9JQKTA") + ["10", "X", "1", "²"]),
                 st.sampled_from(list("SHDC♠♥♦♣") + ["X", ""]))
HAND_TEXT = st.one_of(st.lists(CARD, max_size=25).map(" ".join), ANY_TEXT)


@st.composite
def hands_files(draw) -> tuple[str, bytes]:
    """``(suffix, content)`` of a hands file: text lines, CSV (any header, any cells, or broken),
    Parquet (any columns and types) or bytes that are no text."""
    kind = draw(st.sampled_from(["txt", "csv", "parquet", "bytes"]))
    if kind == "txt":
        lines = draw(st.lists(st.one_of(HAND_TEXT, st.just("# a comment"), st.just("")),
                              max_size=5))
        return ".txt", "\n".join(lines).encode()
    if kind == "csv":
        header = draw(st.lists(st.one_of(st.sampled_from(["hand", "turned", "seat"]), ANY_TEXT),
                               min_size=1, max_size=4))
        rows = draw(st.lists(st.lists(HAND_TEXT, min_size=0, max_size=5), max_size=4))
        text = ",".join(header) + "\n" + "\n".join(",".join(r) for r in rows)
        return ".csv", text.encode()
    if kind == "parquet":
        import io

        import polars as pl

        names = draw(st.lists(st.one_of(st.sampled_from(["hand", "turned", "seat"]), ANY_TEXT),
                              min_size=1, max_size=3, unique=True))
        n = draw(st.integers(0, 3))
        columns = {}
        for name in names:
            column = draw(st.sampled_from(["text", "int", "null", "list"]))
            if column == "text":
                columns[name] = pl.Series(name, draw(st.lists(HAND_TEXT, min_size=n, max_size=n)),
                                          dtype=pl.String)
            elif column == "int":
                columns[name] = pl.Series(name, draw(st.lists(st.integers(-5, 5), min_size=n,
                                                              max_size=n)), dtype=pl.Int64)
            elif column == "null":
                columns[name] = pl.Series(name, [None] * n, dtype=pl.String)
            else:
                columns[name] = pl.Series(name, [["AS"]] * n, dtype=pl.List(pl.String))
        buffer = io.BytesIO()
        pl.DataFrame(columns).write_parquet(buffer)
        return ".parquet", buffer.getvalue()
    return draw(st.sampled_from([".txt", ".csv", ".parquet"])), draw(st.binary(max_size=100))


# --- command lines ----------------------------------------------------------------------------------

@dataclass
class Case:
    """One generated run: the arguments, the environment, and the files to make first."""

    args: list[str]
    env: dict[str, str] = field(default_factory=dict)
    files: dict[str, bytes] = field(default_factory=dict)
    poison: str = ""


def _extra_value(draw, command: Command, option: Option) -> list[str]:
    """An extra option's value: mostly a good one (so that the poison, not a bad extra, is often
    what is refused), sometimes not."""
    good = draw(st.integers(0, 3)) > 0
    if option.kind == "flag":
        return [option.name]
    if option.kind == "int":
        value = draw(st.integers(1, 60).map(str) if good else st.one_of(
            st.integers(-3, 0).map(str), bad_numbers()))
    elif option.kind == "float":
        value = draw(st.floats(0.001, 2).map(repr) if good else bad_numbers())
    elif option.kind == "choice":
        value = draw(st.sampled_from(option.choices) if good else ANY_TEXT)
    elif option.kind == "path":
        value = draw(st.sampled_from(["missing/x.csv", "o.csv", "o.jsonl", "o.json",
                                      "o.parquet", "dir", "-", "nothing.toml", "x" * 300]))
    else:
        value = draw(st.sampled_from(
            ["S", "h", "auto", "heuristic", "random", "expert", "sampling", "left", "1", "2",
             "2:AS", "1:H", "dealer", "elder", "AS AS", "9H", "50 pass", "four-hand-80",
             "two-hand-48", "swabian-3-40", "full", "off", "1/2"]) if good else ANY_TEXT)
    return [option.name, value]


POISONS = ("number", "choice", "unknown option", "extra argument", "missing value", "seat",
           "rules", "hand", "variant", "out", "hands file", "auction", "cap")


def _poisons(command: Command) -> list[str]:
    """The poisons ``command`` can be given."""
    has = command.has
    kinds = {o.kind for o in command.options}
    usable = ["unknown option", "extra argument", "missing value"]
    usable += ["number"] if kinds & {"int", "float"} else []
    usable += ["choice"] if "choice" in kinds else []
    usable += ["seat"] if has("--known") else []
    usable += ["rules"] if has("--rules") else []
    usable += ["hand"] if has("--hand") else []
    usable += ["variant"] if has("--variant") else []
    usable += ["out"] if has("--out") and command.name not in ("bench",) else []
    usable += ["hands file"] if has("--hands-file") else []
    usable += ["auction"] if has("--auction") else []
    usable += ["cap"] if has("--deals") and command.name not in ("bench",) else []
    return usable


@st.composite
def refused_command_lines(draw, names: tuple[str, ...] | None = None) -> Case:
    """A command line with one poison and up to three extra options: it must be refused."""
    command = COMMANDS[draw(st.sampled_from(sorted(names or COMMANDS)))]
    poison = draw(st.sampled_from(_poisons(command)))
    case = Case([command.name], poison=poison)
    extras = [o for o in command.options if o.name not in NOT_EXTRA]
    used = set()
    if poison in ("rules",):
        used.add("--variant")  # --rules with --variant is refused too, but for another reason
    for option in draw(st.lists(st.sampled_from(extras), max_size=3, unique=True)) \
            if extras else []:
        if option.name in used:
            continue
        used.add(option.name)
        case.args += _extra_value(draw, command, option)
    tail: list[str] = []
    if poison == "number":
        option = draw(st.sampled_from([o for o in command.options if o.kind in ("int", "float")]))
        tail = [option.name, draw(bad_numbers())]
    elif poison == "choice":
        option = draw(st.sampled_from([o for o in command.options if o.kind == "choice"]))
        tail = [option.name, draw(ANY_TEXT.filter(lambda t: t not in option.choices))]
    elif poison == "unknown option":
        tail = ["--" + draw(st.text(string.ascii_lowercase + "-", min_size=1, max_size=12).filter(
            lambda t: not command.has("--" + t) and t not in ("help", "h")))]
    elif poison == "extra argument":
        tail = [draw(ANY_TEXT.filter(lambda t: not t.startswith("-") and t != ""))]
    elif poison == "missing value":
        valued = [o for o in command.options if o.kind != "flag"]
        if not valued:
            tail = ["--" + "no-such-option"]
        else:
            tail = [draw(st.sampled_from(valued)).name]
    elif poison == "seat":
        which = draw(st.sampled_from(["--known", "--void"]
                                     + (["--dealer"] if command.has("--dealer") else [])))
        seat = draw(bad_seats())
        if which == "--known":
            tail = [which, f"{seat}:AS"]
        elif which == "--void":
            tail = [which, f"{seat}:S"]
        else:
            tail = ["--auction", "50", which, seat]
    elif poison == "rules":
        case.files["rules.toml"] = draw(bad_rules_files())
        tail = ["--rules", "rules.toml"]
    elif poison == "hand":  # cards, and one that is none
        tail = ["--hand", draw(HAND_TEXT) + draw(st.sampled_from([" XX", " 1S", " A²", ",Z"]))]
    elif poison == "variant":
        tail = ["--variant", draw(ANY_TEXT.filter(lambda t: not _variant_known(t)))]
    elif poison == "out":
        target = {"report": "missing/dir", "calibrate": "missing/dir", "play": "missing/x.jsonl",
                  "deal-odds": "missing/x.json"}.get(command.name, "missing/x.csv")
        other = "-" if command.name in ("report", "calibrate") else "x.xyz"  # no such suffix
        tail = ["--out", draw(st.sampled_from([target, other]))]
    elif poison == "hands file":
        tail = ["--hands-file", draw(st.sampled_from(["none.txt", "none.csv", "dir/"]))]
    elif poison == "auction":
        calls = draw(st.one_of(ANY_TEXT, bad_numbers(), st.sampled_from(
            ["pass pass pass pass", "49", "50 50", "٥٠", "50 pass 51 pass pass pass 55"])))
        tail = ["--auction", calls if calls.strip() else "x", "--dealer", "right"]
    elif poison == "cap":
        case.env["BINOKEL_SIM_MAX_DEALS"] = draw(st.one_of(bad_numbers(), st.sampled_from(
            ["0", "-5"]))).strip() or "x"
    # a poison's own option given twice would take the last value: drop an extra that repeats it
    names = {t for t in tail if t.startswith("--")}
    args, i = [case.args[0]], 1
    while i < len(case.args):
        if case.args[i] in names:
            i += 1 if (COMMANDS[command.name].option(case.args[i]) or Option("", "flag")).kind \
                == "flag" else 2
            continue
        args.append(case.args[i])
        i += 1
    case.args = args + tail
    return case


def _variant_known(name: str) -> bool:
    from binokel_sim.errors import RulesError
    from binokel_sim.variants import find_variant

    try:
        find_variant(name)
    except RulesError:
        return False
    return True


# --- running a case and what its answer must be ------------------------------------------------------

def make_files(case: Case, folder: Path) -> set[str]:
    for name, content in case.files.items():
        (folder / name).write_bytes(content)
    return set(os.listdir(folder))


def refusal_problems(exit_code: int, stdout: str, stderr: str, before: set[str],
                     after: set[str]) -> list[str]:
    """What is wrong with a refusal's answer (empty: nothing)."""
    problems = []
    if exit_code not in (1, 2):
        problems.append(f"exit code {exit_code}, not 1 or 2")
    lines = stderr.strip("\n").splitlines()
    if len(lines) != 1 or not lines[0].startswith("error: "):
        problems.append(f"stderr is not one 'error:' line: {stderr[:500]!r}")
    if "Traceback" in stdout + stderr:
        problems.append("a traceback")
    if stdout:
        problems.append(f"stdout: {stdout[:200]!r}")
    if after != before:
        problems.append(f"files left: {sorted(after - before)}")
    return problems


def answer_problems(exit_code: int, stdout: str, stderr: str, before: set[str],
                    after: set[str]) -> list[str]:
    """What is wrong with the answer to input that may be good: a refusal as above, or exit 0
    with only warning, note, wrote and compiling (a cold kernel cache) lines on stderr."""
    if exit_code != 0:
        return refusal_problems(exit_code, stdout, stderr, before, after)
    bad = [line for line in stderr.splitlines()
           if not line.startswith(("warning: ", "note: ", "wrote ", "compiling "))]
    problems = [f"stderr line {line[:200]!r}" for line in bad]
    if "Traceback" in stdout + stderr:
        problems.append("a traceback")
    return problems
