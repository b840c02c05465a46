"""Generated bad input on every command (issue 54): command lines, rules files, hands files and
``batch``'s kept rows from the strategies of ``tests/cli_fuzz.py``, each answered in one line
with exit code 1 or 2, nothing on stdout, no traceback and no file left; input that may be good
gets an answer or that refusal. A few hundred cases, all in this process and refused before any
simulation runs (``scripts/fuzz_cli.py`` runs thousands, and Ctrl-C at random moments)."""

from __future__ import annotations

import os
import re
import string
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import cli_fuzz
from conftest import HAND_80, runner
from binokel_sim.cli import app
from binokel_sim.numbers import MAX_DIGITS, read_float, read_int

# the same cases on every run (scripts/fuzz_cli.py draws new ones)
FUZZ = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])


def fuzz(examples: int) -> settings:
    return settings(FUZZ, max_examples=examples)


@contextmanager
def folder(tmp_path_factory):
    """A fresh empty working folder for one case."""
    path = tmp_path_factory.mktemp("case")
    here = os.getcwd()
    os.chdir(path)
    try:
        yield path
    finally:
        os.chdir(here)


def run(case: cli_fuzz.Case, path: Path):
    before = cli_fuzz.make_files(case, path)
    result = runner.invoke(app, case.args, env=case.env or None)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        (case, result.exception)
    return result, before, set(os.listdir(path))


# --- the number reader ------------------------------------------------------------------------------

@fuzz(200)
@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=12))
def test_read_int_takes_ascii_digits_only(text):
    ascii_number = re.fullmatch(r"[ \t\r\n]*[+-]?[0-9]+(_[0-9]+)*[ \t\r\n]*", text) is not None
    value = read_int(text)
    assert (value is not None) == ascii_number
    if value is not None:
        assert value == int(text)


@pytest.mark.parametrize("text", ["²", "¹", "٣", "１２", "1²", "nan", "inf", "1e5", " ", "",
                                  "1 0", "0x10", "+", "1_", "_1", "9" * (MAX_DIGITS + 1)])
def test_read_int_refuses(text):
    assert read_int(text) is None


@pytest.mark.parametrize(("text", "value"), [("0", 0), ("42", 42), ("-7", -7), ("+3", 3),
                                             (" 12\n", 12), ("1_000", 1000)])
def test_read_int_reads(text, value):
    assert read_int(text) == value


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "1e999", "٣.5", "0x1p3", "1.5.2", ""])
def test_read_float_refuses(text):
    assert read_float(text) is None


def test_read_float_reads():
    assert [read_float(t) for t in ("0.5", ".5", "2", "1e-3", "-1.5E2")] == \
        [0.5, 0.5, 2.0, 0.001, -150.0]


# --- command lines ----------------------------------------------------------------------------------

@fuzz(250)
@given(case=cli_fuzz.refused_command_lines())
@example(case=cli_fuzz.Case(["deal-odds", "--known", "²:AS"]))
@example(case=cli_fuzz.Case(["deal-odds", "--void", "¹:S"]))
@example(case=cli_fuzz.Case(["bid-odds", "--auction", "50", "--dealer", "²"]))
@example(case=cli_fuzz.Case(["warm-up", "--part", "1/²"]))
@example(case=cli_fuzz.Case(["meld-odds", "--deals", "٣"]))
@example(case=cli_fuzz.Case(["bench", "--all", "--scale", "nan"]))
def test_every_generated_bad_command_line_is_refused_in_one_line(case, tmp_path_factory):
    with folder(tmp_path_factory) as path:
        result, before, after = run(case, path)
    assert cli_fuzz.refusal_problems(result.exit_code, result.stdout, result.stderr, before,
                                     after) == [], case


def test_every_command_and_poison_is_generated():
    """The strategy reaches every command, and every poison some command can take."""
    assert set(cli_fuzz.COMMANDS) >= {"bid-odds", "deal-odds", "batch", "report", "duel",
                                      "match", "play", "calibrate", "meld-odds", "analyze",
                                      "solve", "bench", "warm-up", "serve", "variants"}
    reachable = {p for c in cli_fuzz.COMMANDS.values() for p in cli_fuzz._poisons(c)}
    assert reachable == set(cli_fuzz.POISONS)


# --- rules files ------------------------------------------------------------------------------------

RULES_COMMANDS = ["analyze", "meld-odds", "bid-odds", "deal-odds", "duel", "match", "play",
                  "batch", "report", "calibrate", "solve", "bench"]


@pytest.mark.parametrize("command", RULES_COMMANDS)
def test_a_rules_file_nested_a_thousand_deep_is_one_line(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deep.toml").write_text("x = " + "[" * 1000 + "]" * 1000 + "\n")
    (tmp_path / "hands.txt").write_text(HAND_80 + "\n")
    extra = {"batch": ["--hands-file", "hands.txt"], "report": ["--out", "r"],
             "solve": ["--hand", "AS", "--other", "KS", "--trump", "S"]}.get(command, [])
    result = runner.invoke(app, [command, "--rules", "deep.toml", *extra])
    problems = cli_fuzz.refusal_problems(result.exit_code, result.stdout, result.stderr,
                                         {"deep.toml", "hands.txt"}, set(os.listdir(tmp_path)))
    assert problems == [], result.stderr
    assert "nested too deeply" in result.stderr


@fuzz(60)
@given(content=cli_fuzz.bad_rules_files(), command=st.sampled_from(RULES_COMMANDS))
def test_bad_rules_files_are_refused_by_every_command(content, command, tmp_path_factory):
    case = cli_fuzz.Case([command, "--rules", "rules.toml"], files={"rules.toml": content})
    with folder(tmp_path_factory) as path:
        result, before, after = run(case, path)
    assert cli_fuzz.refusal_problems(result.exit_code, result.stdout, result.stderr, before,
                                     after) == [], content[:300]


@fuzz(60)
@given(content=cli_fuzz.any_rules_files())
def test_any_rules_file_is_taken_or_refused_in_one_line(content, tmp_path_factory):
    """Edited built-in files among them: analyze either answers or says what is wrong."""
    case = cli_fuzz.Case(["analyze", "--rules", "rules.toml"], files={"rules.toml": content})
    with folder(tmp_path_factory) as path:
        result, before, after = run(case, path)
    assert cli_fuzz.answer_problems(result.exit_code, result.stdout, result.stderr, before,
                                    after) == [], content[:300]


# --- hands files ------------------------------------------------------------------------------------

@fuzz(60)
@given(file=cli_fuzz.hands_files(), strict=st.booleans(),
       variant=st.sampled_from(["four-hand-80", "two-hand-48"]))
def test_any_hands_file_is_read_or_refused_in_one_line(file, strict, variant, tmp_path_factory):
    suffix, content = file
    name = "hands" + suffix
    args = ["analyze", "--hands-file", name, "-v", variant] + (["--strict"] if strict else [])
    case = cli_fuzz.Case(args, files={name: content})
    with folder(tmp_path_factory) as path:
        result, before, after = run(case, path)
    assert cli_fuzz.answer_problems(result.exit_code, result.stdout, result.stderr, before,
                                    after) == [], (suffix, content[:300])


# --- batch's kept rows ------------------------------------------------------------------------------

HANDS_3 = "\n".join([HAND_80, "AS XX", HAND_80]) + "\n"
BATCH = ["batch", "--hands-file", "hands.txt", "--deals", "20", "--seed", "5"]


@pytest.fixture(scope="module")
def kept_rows(tmp_path_factory):
    """A batch stopped after its first two rows (the kept file) and the whole batch's file."""
    import binokel_sim.batch as batch

    path = tmp_path_factory.mktemp("kept")
    (path / "hands.txt").write_text(HANDS_3)
    here = os.getcwd()
    os.chdir(path)
    try:
        whole = runner.invoke(app, [*BATCH, "--out", "whole.csv"])
        assert whole.exit_code == 0, whole.stderr
        real, calls = batch.summarize_hand, []

        def stop_at_third(*args, **kwargs):
            calls.append(1)
            if len(calls) == 3:
                raise KeyboardInterrupt
            return real(*args, **kwargs)

        batch.summarize_hand = stop_at_third
        try:
            stopped = runner.invoke(app, [*BATCH, "--out", "o.csv"])
        finally:
            batch.summarize_hand = real
        assert stopped.exit_code == 130 and "2 of 3 hands are kept" in stopped.stderr
        return (path / "o.csv.partial.jsonl").read_text(), (path / "whole.csv").read_text()
    finally:
        os.chdir(here)


JSON_JUNK = st.one_of(st.sampled_from(["", "{", "[]", "null", "1", '"row"', '{"row": 0}',
                                       '{"row": "0"}', '{"row": 99}', "[" * 3000]),
                      cli_fuzz.ANY_TEXT)


@fuzz(30)
@given(data=st.data())
def test_kept_rows_edited_or_cut_resume_right_or_are_refused(kept_rows, data, tmp_path_factory):
    partial, whole = kept_rows
    lines = partial.splitlines()
    edit = data.draw(st.sampled_from(["cut", "replace", "insert", "header", "truncate line"]))
    i = data.draw(st.integers(0 if edit == "header" else 1, len(lines) - 1))
    if edit == "cut":
        text = partial[:data.draw(st.integers(0, len(partial)))]
    elif edit == "truncate line":
        lines[i] = lines[i][:data.draw(st.integers(0, len(lines[i])))]
        text = "\n".join(lines) + "\n"
    elif edit == "header":
        lines[0] = data.draw(JSON_JUNK)
        text = "\n".join(lines) + "\n"
    else:
        junk = data.draw(JSON_JUNK)
        lines = lines[:i] + [junk] + lines[i + (edit == "replace"):]
        text = "\n".join(lines) + "\n"
    case = cli_fuzz.Case([*BATCH, "--out", "o.csv", "--resume"],
                         files={"hands.txt": HANDS_3.encode(),
                                "o.csv.partial.jsonl": text.encode()})
    with folder(tmp_path_factory) as path:
        result, before, after = run(case, path)
        if result.exit_code == 0:
            assert (path / "o.csv").read_text() == whole, text
            assert after == (before - {"o.csv.partial.jsonl"}) | {"o.csv"}
        else:
            assert cli_fuzz.refusal_problems(result.exit_code, result.stdout, result.stderr,
                                             before, after) == [], text
            assert "o.csv.partial.jsonl" in result.stderr


# --- what a case must answer, tested ----------------------------------------------------------------

def test_refusal_problems_sees_each_fault():
    ok = cli_fuzz.refusal_problems(1, "", "error: x\n", {"a"}, {"a"})
    assert ok == []
    assert cli_fuzz.refusal_problems(0, "", "error: x\n", set(), set())
    assert cli_fuzz.refusal_problems(1, "", "warning: w\nerror: x\n", set(), set())
    assert cli_fuzz.refusal_problems(1, "", "Traceback (most recent call last):\n", set(), set())
    assert cli_fuzz.refusal_problems(2, "table", "error: x\n", set(), set())
    assert cli_fuzz.refusal_problems(1, "", "error: x\n", set(), {"o.csv"})
    assert cli_fuzz.answer_problems(0, "", "warning: w\nwrote o.csv\n", set(), {"o.csv"}) == []
    assert cli_fuzz.answer_problems(0, "", "Traceback\n", set(), set())


@fuzz(100)
@given(text=cli_fuzz.bad_numbers(), digit=cli_fuzz.NON_ASCII_DIGITS)
def test_bad_numbers_are_no_numbers(text, digit):
    assert read_int(text) is None and read_float(text) is None
    assert digit not in string.digits and read_int(digit) is None


# --- Ctrl-C, at any moment -------------------------------------------------------------------------

def test_a_keyboard_interrupt_inside_a_c_call_is_ctrl_c(monkeypatch):
    """Python reports Ctrl-C that arrives inside numba's dispatcher as ``SystemError: ...
    returned a result with an exception set`` caused by the KeyboardInterrupt (issue 54: a
    traceback and exit 1 from calibrate); inside a command's checks or outside them, it is the
    one Ctrl-C line and exit 130."""
    import binokel_sim.cli.odds as odds

    def dispatcher_interrupted(*args, **kwargs):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as exc:
            raise SystemError("CPUDispatcher(<function placeholders>) returned a result with "
                              "an exception set") from exc

    monkeypatch.setattr(odds, "resolve_rules", dispatcher_interrupted)
    result = runner.invoke(app, ["deal-odds"])
    assert result.exit_code == 130
    assert result.stderr == "stopped by Ctrl-C; nothing was written\n"
    monkeypatch.undo()
    monkeypatch.setattr(odds, "_print_deal_odds", dispatcher_interrupted)  # after domain_errors
    result = runner.invoke(app, ["deal-odds", "--deals", "200"])
    assert result.exit_code == 130
    assert result.stderr.splitlines()[-1] == "stopped by Ctrl-C; nothing was written"
    assert len([line for line in result.stderr.splitlines() if "Ctrl-C" in line]) == 1


def test_an_error_that_is_not_ctrl_c_stays_an_error():
    from binokel_sim.cli.base import interrupted

    try:
        try:
            raise ValueError("x")
        except ValueError as inner:
            raise SystemError("y") from inner
    except SystemError as exc:
        assert not interrupted(exc)
    assert interrupted(KeyboardInterrupt())


SIGINT_IN_DISPATCH = """
import os, signal, sys, threading, time
from binokel_sim.cli.base import App, domain_errors
from binokel_sim.kernels.runs import placeholders
import typer

placeholders()  # compiled (or loaded) before the signal
ready = threading.Event()

def one_ctrl_c():
    ready.wait()
    time.sleep(0.05)
    os.kill(os.getpid(), signal.SIGINT)

threading.Thread(target=one_ctrl_c, daemon=True).start()
try:
    with domain_errors():
        ready.set()
        while True:
            placeholders()
except typer.Exit as exc:
    sys.exit(exc.exit_code)
"""


def test_a_real_sigint_while_numba_dispatches_is_one_line_and_exit_130():
    """A real Ctrl-C landing in numba's dispatcher (the loop spends its time there): one line,
    exit 130, no traceback."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-c", SIGINT_IN_DISPATCH], capture_output=True,
                          text=True, env=env, timeout=600)
    assert done.returncode == 130, done.stderr
    assert done.stderr == "stopped by Ctrl-C; nothing was written\n"


def test_a_batch_stopped_before_its_first_row_names_no_file(tmp_path, monkeypatch):
    import binokel_sim.batch as batch

    monkeypatch.chdir(tmp_path)
    (tmp_path / "hands.txt").write_text(HAND_80 + "\n")

    def at_once(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(batch, "summarize_hand", at_once)
    result = runner.invoke(app, ["batch", "--hands-file", "hands.txt", "-n", "20",
                                 "--out", "o.csv"])
    assert result.exit_code == 130
    assert result.stderr == "stopped by Ctrl-C; nothing was written\n"
    assert os.listdir(tmp_path) == ["hands.txt"]



# --- the longest run ---------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["bid-odds", "--deals", "100000000000"],
    ["deal-odds", "--deals", "100000000000"],
    ["duel", "--deals", "100000000000"],
    ["match", "--games", "100000000000"],
    ["report", "--deals", "100000000000", "--out", "r"],
    ["batch", "--hands-file", "hands.txt", "--deals", "100000000000", "--out", "o.csv"],
    ["play", "--deals", "100000000000", "--out", "o.jsonl"],
    ["calibrate", "--deals", "20000", "--samples", "100000000"],
    ["bid-odds", "--policy", "sampling", "--deals", "1000000"],
])
def test_a_run_of_more_than_a_day_is_refused_with_what_fits(args, tmp_path, monkeypatch):
    """The documented maximum (100,000,000,000 deals) took weeks in bid-odds, duel, match, report
    and batch (issue 54): a run estimated at more than a day here is refused before it starts,
    naming the largest count that fits."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "hands.txt").write_text(HAND_80 + "\n")
    result = runner.invoke(app, args)
    assert cli_fuzz.refusal_problems(result.exit_code, result.stdout, result.stderr,
                                     {"hands.txt"}, set(os.listdir(tmp_path))) == []
    line = result.stderr.strip()
    assert "this run would take about" in line and "the longest run taken is a day" in line
    option = "--games" if "--games" in args else "--deals"
    fits = int(re.search(rf"use {option} ([0-9,]+) or fewer", line).group(1).replace(",", ""))
    assert 1 <= fits < 100_000_000_000


def test_a_run_of_more_than_an_hour_says_so_first(monkeypatch):
    """As if the engine were this slow: the estimate is said before the run, which then runs."""
    from binokel_sim import run_time

    monkeypatch.setattr(run_time, "ODDS_SAMPLES_PER_S", 0.25)  # 4 s a sample: 2 hours on 2
    result = runner.invoke(app, ["bid-odds", "--deals", "3600", "--threads", "2"])
    assert result.exit_code == 0, result.stderr
    assert "note: this run will take about 2 hours on 2 threads here (--deals 3,600); " \
           "Ctrl-C stops it" in result.stderr
    assert "p_make" in result.stdout


def test_estimates():
    from binokel_sim.run_time import Work, check_duration, duration, round_down

    assert check_duration(Work(1000, "--deals", 1.0), threads=1) is None  # 17 minutes
    assert check_duration(Work(7200, "--deals", 1.0), threads=2) is None  # an hour exactly
    assert check_duration(Work(7202, "--deals", 1.0), threads=2) == (
        "this run will take about 60 minutes on 2 threads here (--deals 7,202); Ctrl-C stops it")
    with pytest.raises(ValueError, match="use --deals 86,000 or fewer"):
        check_duration(Work(200_000, "--deals", 1.0), threads=1)
    assert "the cluster shares it out" in check_duration(Work(200_000, "--deals", 1.0), 1,
                                                         cluster=True)
    assert [duration(s) for s in (30, 90, 3 * 3600, 3 * 86400)] == \
        ["about 30 seconds", "about 1.5 minutes", "about 3 hours", "about 3 days"]
    assert round_down(17_280_000_000) == 17_000_000_000 and round_down(86) == 86
