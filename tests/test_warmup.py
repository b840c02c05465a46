"""The compile notice (binokel_sim/compile_notice.py) and ``binokel-sim warm-up``."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from binokel_sim import compile_notice
from binokel_sim.variants import find_variant
from tests.conftest import assert_one_line_error, invoke, ok

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def notice_on(monkeypatch):
    """The notice as a user has it (the suite turns it off, tests/conftest.py)."""
    monkeypatch.setenv(compile_notice.ENV, "on")
    yield
    compile_notice.done()


def test_the_line_names_engine_variant_command_and_estimate(monkeypatch):
    seconds = compile_notice.COMPILE_SECONDS
    first = seconds[("partnership", "bid-odds", "")]  # the family's first group: what it shares
    others = [first + s for (f, _, p), s in seconds.items() if f == "partnership" and p]
    line = compile_notice.notice_line("duel", "partnership", "four-hand-80")
    upto = max(first + seconds[("partnership", "duel", "")], *others)
    assert line == (f"compiling the partnership engine (four-hand-80) for duel, once: up to "
                    f"about {upto} s")
    # the policies not known: the heuristic's groups, or another kind of seats' when more
    assert compile_notice.estimate("bid-odds", "partnership") == max(first, *others)
    # known: the default's groups only, or the family's first and the kind's largest group
    # (the heuristic proper on every seat: its own bid-odds group, in partnership only)
    assert compile_notice.estimate("bid-odds", "partnership", ("expert",)) == first
    assert compile_notice.estimate("bid-odds", "partnership", ("heuristic",)) == \
        first + seconds[("partnership", "bid-odds", "heuristic")]
    assert compile_notice.estimate("deal-odds", "talon", ("heuristic",)) == \
        seconds[("talon", "deal-odds", "")]
    assert compile_notice.estimate("duel", "partnership", ("heuristic", "random")) == \
        first + seconds[("partnership", "duel", "")]
    talon_first = seconds[("talon", "deal-odds", "")]
    search = max(s for (f, _, p), s in seconds.items() if f == "talon" and p == "sampling")
    assert compile_notice.estimate("duel", "talon", ("sampling", "heuristic")) == \
        compile_notice.estimate("play", "talon", ("heuristic+solver",)) == talon_first + search
    assert compile_notice.estimate("play", "talon", ("random",)) == \
        talon_first + seconds[("talon", "play", "random")]
    # a command without its own figure quotes its family's default groups together, or the
    # largest group of other policies when that is more
    family = sum(s for (f, _, p), s in seconds.items() if f == "widow" and not p)
    widow_first = seconds[("widow", "bid-odds", "")]
    others = [widow_first + s for (f, _, p), s in seconds.items() if f == "widow" and p]
    assert compile_notice.estimate("calibrate", "widow") == max(family, *others)
    # minutes from two on
    monkeypatch.setitem(seconds, ("talon", "play", "random"), 150)
    assert compile_notice.notice_line("play", "talon", "two-hand-48").endswith(
        f"once: up to about {round((talon_first + 150) / 60)} min")


def test_the_command_tells_the_line_its_policies(notice_on, monkeypatch):
    """The CLI passes --policy (or -a and -b) on: a sampling run's line quotes the search
    specialisation, a heuristic run's its own group."""
    seen = []
    expect = compile_notice.expect

    def spy(command, rules, write, policies=()):
        seen.append((command, policies))
        expect(command, rules, write, policies)

    monkeypatch.setattr(compile_notice, "expect", spy)
    invoke("duel", "-v", "two-hand-48", "-a", "sampling", "-b", "heuristic", "--deals", "0")
    invoke("play", "-v", "two-hand-48", "--policy", "random", "--deals", "0")
    invoke("bid-odds", "-v", "four-hand-80", "--deals", "0")  # no --policy: the default's
    assert seen == [("duel", ("sampling", "heuristic")), ("play", ("random",)),
                    ("bid-odds", ("expert",))]


def test_one_line_at_the_first_compilation_and_none_after(notice_on):
    written = []
    compile_notice.expect("deal-odds", find_variant("three-hand-72"), written.append)
    assert compile_notice.on_compile().startswith("compiling the talon engine (three-hand-72) "
                                                  "for deal-odds, once: up to about ")
    assert compile_notice.on_compile() is None  # callees, later kernels: no second line
    compile_notice.done()
    assert compile_notice.on_compile() is None  # no command running: nothing


def test_meld_odds_is_its_own_group(notice_on):
    compile_notice.expect("meld-odds", find_variant("two-hand-48"), print)
    assert compile_notice.on_compile().startswith("compiling the meld kernels (two-hand-48)")


def test_no_line_when_turned_off_or_muted(monkeypatch):
    monkeypatch.setenv(compile_notice.ENV, "off")
    compile_notice.expect("play", find_variant("two-hand-48"), print)
    assert compile_notice.on_compile() is None
    monkeypatch.setenv(compile_notice.ENV, "on")
    compile_notice.mute(True)
    try:
        compile_notice.expect("play", find_variant("two-hand-48"), print)
        assert compile_notice.on_compile() is None
    finally:
        compile_notice.mute(False)
        compile_notice.done()


KERNEL = """
import sys
from binokel_sim import compile_notice
from binokel_sim.kernels.options import njit
from binokel_sim.variants import find_variant

@njit
def twice(x):
    return 2 * x

compile_notice.expect("play", find_variant("two-hand-48"), lambda line: print(line,
                      file=sys.stderr))
print(twice(21))
"""


def test_a_cold_cache_says_so_and_a_warm_one_does_not(tmp_path):
    """Numba's own cache decides: a kernel of the project's options (cache=True) in a fresh
    NUMBA_CACHE_DIR prints the line on its first run and nothing on the second."""
    script = tmp_path / "kernel_file.py"
    script.write_text(textwrap.dedent(KERNEL))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT),
           compile_notice.ENV: "on"}
    runs = [subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                           text=True, timeout=300) for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr
        assert run.stdout == "42\n"
    cold, warm = (run.stderr.splitlines() for run in runs)
    assert [line for line in cold if line.startswith("compiling")] == [
        compile_notice.notice_line("play", "talon", "two-hand-48")]
    assert not [line for line in warm if "compiling" in line], warm
    assert list((tmp_path / "cache").rglob("*.nbi")), "the kernel was not cached"


def test_a_warm_command_prints_no_line(notice_on):
    """solve's kernels, once compiled (the first run), load from the cache: no line."""
    args = ("solve", "--hand", "AS TS KH QH JD 9C", "--other", "KS AH TD AD QC JC",
            "--trump", "H", "-f", "json")
    ok(*args)
    again = ok(*args)
    assert "compiling" not in again.stderr


def test_warm_up_lists_every_group():
    result = ok("warm-up", "--variant", "two-hand-48")
    lines = result.stderr.strip().splitlines()
    labels = [line.split(":")[0] for line in lines[:-1]]
    assert labels == ["meld-odds (meld, two-hand-48)", "deal-odds (talon, two-hand-48)",
                      "play (talon, two-hand-48)", "duel (talon, two-hand-48)",
                      "match (talon, two-hand-48)", "play (talon, two-hand-48, random)",
                      "duel (talon, two-hand-48, sampling)", "solve (solver, two-hand-48)"]
    assert all(line.endswith(("already compiled", " s")) for line in lines[:-1]), lines
    assert lines[-1].startswith("warm-up: ") and " of 8 groups compiled, " in lines[-1]
    assert result.stdout == ""


HAND_48 = "AS TS KS QS QS JS 9S KH QH AD JD AC"


def test_warm_up_runs_each_step_and_says_what_it_compiled(monkeypatch):
    """The steps run in this process, their output dropped; a step that compiles nothing
    (analyze needs no kernel) is reported as already compiled."""
    from binokel_sim.cli import warmup

    step = warmup.Step("meld", "analyze", "two-hand-48",
                       ("analyze", "--variant", "two-hand-48", "--hand", HAND_48, "-f", "json"))
    monkeypatch.setattr(warmup, "plan", lambda names, meld=True: [step, step])
    result = ok("warm-up", "--variant", "two-hand-48")
    assert result.stdout == ""
    assert result.stderr.splitlines()[:2] == ["analyze (meld, two-hand-48): already compiled"] * 2
    assert result.stderr.splitlines()[2].startswith("warm-up: 0 of 2 groups compiled, ")


def test_a_failing_step_is_one_error_line(monkeypatch):
    from binokel_sim.cli import warmup

    bad = warmup.Step("meld", "analyze", "two-hand-48",
                      ("analyze", "--variant", "two-hand-48", "--hand", "AS", "-f", "json"))
    monkeypatch.setattr(warmup, "plan", lambda names, meld=True: [bad])
    assert_one_line_error(invoke("warm-up"), "warm-up of analyze (meld, two-hand-48) failed")


def test_the_plan_covers_every_command_of_each_family():
    from binokel_sim.cli.warmup import ALL_VARIANTS, plan

    steps = plan(list(ALL_VARIANTS))
    assert [(s.family, s.command, s.policies) for s in steps] == [
        ("meld", "meld-odds", ""), ("partnership", "bid-odds", ""), ("partnership", "play", ""),
        ("partnership", "duel", ""), ("partnership", "match", ""),
        ("partnership", "bid-odds", "heuristic"), ("partnership", "bid-odds", "random"), ("partnership", "bid-odds", "sampling"),
        ("partnership", "play", "sampling"), ("partnership", "duel", "sampling"),
        ("partnership", "match", "sampling"), ("solver", "solve", ""), ("talon", "deal-odds", ""),
        ("talon", "play", ""), ("talon", "duel", ""), ("talon", "match", ""),
        ("talon", "play", "random"), ("talon", "duel", "sampling"), ("solver", "solve", ""),
        ("widow", "bid-odds", ""), ("widow", "play", ""), ("widow", "duel", ""),
        ("widow", "match", ""), ("widow", "play", "random"), ("widow", "duel", "sampling"),
        ("solver", "solve", ""), ("sixty_six", "deal-odds", ""), ("sixty_six", "play", ""), ("sixty_six", "duel", ""),
        ("sixty_six", "match", ""), ("sixty_six", "play", "sampling"),
        ("sixty_six", "duel", "sampling"), ("sixty_six", "match", "sampling"),
        ("sixty_six", "deal-odds", "sampling")]
    # every group has a compile time for the notice
    from binokel_sim.compile_notice import COMPILE_SECONDS

    assert {(s.family, s.command, s.policies) for s in steps} == set(COMPILE_SECONDS)
    assert [s.command for s in plan(["four-hand-80"], meld=False)][0] == "bid-odds"


def test_the_parts_split_the_plan_by_compile_time():
    """The suite warms up in two processes (tests/conftest.py): the parts hold every step once,
    each in the plan's order, a family's steps in one part (its random seats' steps too: they
    share the family's callees), and neither part holds more than the other's time plus its
    largest group."""
    from binokel_sim.cli.warmup import ALL_VARIANTS, part_of, plan
    from binokel_sim.compile_notice import COMPILE_SECONDS

    steps = plan(list(ALL_VARIANTS))
    parts = [part_of(steps, k, 2) for k in (1, 2)]
    assert sorted(map(steps.index, parts[0] + parts[1])) == list(range(len(steps)))
    for part in parts:
        assert [steps.index(s) for s in part] == sorted(steps.index(s) for s in part)

    def kind(step):
        return step.family

    kinds = [{kind(s) for s in part} for part in parts]
    assert not kinds[0] & kinds[1]
    cost = [sum(COMPILE_SECONDS[(s.family, s.command, s.policies)] for s in part)
            for part in parts]
    group = max(sum(COMPILE_SECONDS[(s.family, s.command, s.policies)] for s in steps
                    if kind(s) == k) for k in kinds[0] | kinds[1])
    assert abs(cost[0] - cost[1]) <= group, cost
    assert_one_line_error(invoke("warm-up", "--all", "--part", "3/2"), "--part must be K/N")


def test_warm_up_errors():
    assert_one_line_error(invoke("warm-up", "--all", "--variant", "two-hand-48"),
                          "--variant or --all")
    assert_one_line_error(invoke("warm-up", "--variant", "nine-hand-12"), "nine-hand-12")


def test_warm_up_help_fits_80_columns_with_examples():
    text = ok("warm-up", "--help").stdout
    assert all(len(line.rstrip()) <= 80 for line in text.splitlines()), text
    assert "…" not in text
    examples = [line.strip(" │") for line in text.splitlines() if "Example: " in line]
    assert examples == ["Example: binokel-sim warm-up",
                        "Example: binokel-sim warm-up --variant two-hand-48",
                        "Example: binokel-sim warm-up --all"], examples
