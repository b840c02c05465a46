"""Generated bad input on the ``binokel-sim`` command line, thousands of cases (issue 54).

    python scripts/fuzz_cli.py --cases 3000 --ctrl-c 40 --seed 1

Runs the strategies of ``tests/cli_fuzz.py`` (the suite's ``tests/test_fuzz_cli.py`` runs a few
hundred of the same) in this process through typer's test runner, each in a fresh empty folder:

- command lines of every command with one poison among other options: refused;
- bad rules files on every command that takes ``--rules``: refused;
- any rules file (edited built-in files among them) on ``analyze``: answered or refused;
- edited built-in rules files on tiny runs of every simulating command: answered or refused;
- hands files (text, CSV, Parquet, bytes) on ``analyze``: answered or refused;

and then ``--ctrl-c`` real runs of ``binokel-sim`` in child processes, each sent SIGINT (Ctrl-C)
at a random moment: exit 130 with one line and no half-written file, or done (exit 0) when the
run ended first; a ``batch`` stopped with rows kept is resumed with ``--resume`` and must give
the file of an uninterrupted run.

A refusal must be one ``error:`` line on stderr with exit code 1 or 2, nothing on stdout, no
traceback and no file left. Prints what came out of each part and every failing case (hypothesis
shrinks each to a smallest one); exit code 1 if any failed.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import cli_fuzz  # noqa: E402  (tests/cli_fuzz.py: the strategies and the checks)
from hypothesis import HealthCheck, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from binokel_sim.cli import app  # noqa: E402

RUNNER = CliRunner()
HAND_80 = "AS AS TS KS KS QS QS JS AH TH KH QH AD KD QD JD JD AC TC KC"
RULES_COMMANDS = ["analyze", "meld-odds", "bid-odds", "deal-odds", "duel", "match", "play",
                  "batch", "report", "calibrate", "solve", "bench"]


class Part:
    """One kind of generated case: how many ran, how each ended, what failed."""

    def __init__(self, name: str):
        self.name = name
        self.outcomes: Counter = Counter()
        self.failures: list[str] = []

    def run(self, case: cli_fuzz.Case, may_pass: bool) -> list[str]:
        with tempfile.TemporaryDirectory() as tmp:
            here = os.getcwd()
            os.chdir(tmp)
            try:
                before = cli_fuzz.make_files(case, Path(tmp))
                result = RUNNER.invoke(app, case.args, env=case.env or None)
                after = set(os.listdir(tmp))
            finally:
                os.chdir(here)
        crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
        check = cli_fuzz.answer_problems if may_pass else cli_fuzz.refusal_problems
        problems = check(result.exit_code, result.stdout, result.stderr, before, after)
        if crashed:
            problems.append(f"raised {result.exception!r}")
        self.outcomes[_outcome(result.exit_code)] += 1
        return problems

    def report(self) -> str:
        total = sum(self.outcomes.values())
        ways = ", ".join(f"{n:,} {what}" for what, n in sorted(self.outcomes.items()))
        return f"{self.name}: {total:,} cases: {ways}; {len(self.failures)} failing"


def _outcome(code: int) -> str:
    return {0: "answered (exit 0)", 1: "refused in one line (exit 1)",
            2: "refused in one line (exit 2)", 130: "stopped by Ctrl-C (exit 130)"}.get(
        code, f"exit {code}")


def generated(part: Part, strategy, examples: int, seed_value: int, may_pass: bool) -> None:
    """Run ``examples`` cases of ``strategy``; a failing one is shrunk and kept in the part."""
    @seed(seed_value)
    @settings(max_examples=examples, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck))
    @given(case=strategy)
    def check(case):
        problems = part.run(case, may_pass)
        assert not problems, (case, problems)

    try:
        check()
    except Exception as exc:  # a failing case (hypothesis may group or call it flaky)
        part.failures.append(f"{type(exc).__name__}: {str(exc)[:3000]}")


def rules_case(command: str, content: bytes) -> cli_fuzz.Case:
    extra = {"batch": ["--hands-file", "hands.txt"], "report": ["--out", "r"],
             "solve": ["--hand", "AS", "--other", "KS", "--trump", "S"]}.get(command, [])
    return cli_fuzz.Case([command, "--rules", "rules.toml", *extra],
                         files={"rules.toml": content, "hands.txt": (HAND_80 + "\n").encode()})


# tiny runs of the simulating commands, for rules files that may be good (edited built-in ones)
TINY_RUNS = [["meld-odds", "-n", "2000"], ["bid-odds", "-n", "50"], ["deal-odds", "-n", "50"],
             ["duel", "-n", "20", "-a", "random", "-b", "heuristic"], ["play", "-n", "2"],
             ["match", "--games", "2", "-a", "random", "-b", "random"],
             ["batch", "--hands-file", "hands.txt", "-n", "20"], ["analyze"]]


def tiny_run_case(run: list[str], content: bytes) -> cli_fuzz.Case:
    return cli_fuzz.Case([*run, "--rules", "rules.toml"],
                         files={"rules.toml": content, "hands.txt": (HAND_80 + "\n").encode()})


def hands_case(file: tuple[str, bytes], strict: bool, variant: str) -> cli_fuzz.Case:
    suffix, content = file
    name = "hands" + suffix
    return cli_fuzz.Case(["analyze", "--hands-file", name, "-v", variant]
                         + (["--strict"] if strict else []), files={name: content})


# --- Ctrl-C at random moments -------------------------------------------------------------------------

# runs of a few seconds each on two cores (kernels compiled): a Ctrl-C lands in start-up, the
# checks, compiling or loading, the simulation, or the writing
CTRL_C_RUNS = [
    ["meld-odds", "-n", "50000000", "--out", "o.parquet"],
    ["bid-odds", "-n", "400000", "--out", "o.csv"],
    ["bid-odds", "-v", "swabian-3-40", "-n", "200000", "--out", "o.json"],
    ["deal-odds", "-n", "400000", "--out", "o.json"],
    ["duel", "-n", "200000", "--out", "o.jsonl"],
    ["match", "--games", "20000", "--out", "o.csv"],
    ["play", "-n", "300000", "--policy", "random", "--out", "o.parquet"],
    ["calibrate", "-v", "swabian-3-40", "--deals", "2000", "--samples", "20", "--out", "calib"],
    ["report", "-n", "100000", "--out", "rep"],
    ["batch", "--hands-file", "hands.txt", "-n", "100000", "--out", "o.csv"],
]
HANDS = "\n".join([HAND_80, "AS XX", HAND_80, HAND_80, HAND_80]) + "\n"


def ctrl_c(runs: int, seed: int, part: Part) -> None:
    rng = random.Random(seed)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    for _ in range(runs):
        args = rng.choice(CTRL_C_RUNS)
        delay = rng.uniform(0.05, 6.0)
        with tempfile.TemporaryDirectory() as tmp:
            Path(tmp, "hands.txt").write_text(HANDS)
            cmd = [sys.executable, "-m", "binokel_sim.cli", *args]
            child = subprocess.Popen(cmd, cwd=tmp, env=env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)
            time.sleep(delay)
            child.send_signal(signal.SIGINT)
            try:
                _, stderr = child.communicate(timeout=600)
            except subprocess.TimeoutExpired:
                child.kill()
                _, stderr = child.communicate()
            files = set(os.listdir(tmp)) - {"hands.txt"}
            if child.returncode == 1 and PYTHON_STARTING in stderr:
                part.outcomes["stopped while the interpreter itself started (not ours)"] += 1
                continue
            last = (stderr.strip().splitlines() or [""])[-1]
            if child.returncode == -signal.SIGINT and "Traceback" not in stderr and \
                    last.startswith(f"wrote {args[-1]}"):
                # the run had ended and said so; the interpreter's own exit was stopped (a
                # shell shows 130)
                part.outcomes["done, then Ctrl-C while Python exits (status -2)"] += 1
                continue
            part.outcomes[_outcome(child.returncode)] += 1
            problems = _stopped_problems(child.returncode, stderr, files, args)
            if not problems and child.returncode == 130 and "--resume" in stderr:
                problems = _resumes(cmd, tmp, env, part)
            if problems:
                part.failures.append(f"{' '.join(args)} (Ctrl-C after {delay:.2f} s): "
                                     f"{problems}")


PYTHON_STARTING = "Fatal Python error: init_import_site"  # Ctrl-C before Python runs any of ours


def _stopped_problems(code: int, stderr: str, files: set[str], args: list[str]) -> list[str]:
    lines = [line for line in stderr.strip().splitlines()
             if not line.startswith(("compiling ", "note: ", "warning: ", "wrote "))]
    target = args[args.index("--out") + 1]
    if code == 0:
        return [] if target in files else [f"exit 0 without {target}"]
    if code != 130:
        return [f"exit code {code}: {stderr[-1500:]!r}"]
    problems = []
    if len(lines) != 1 or not lines[0].startswith("stopped by Ctrl-C"):
        problems.append(f"stderr: {stderr[-1500:]!r}")
    kept = {f for f in files if f.endswith(".partial.jsonl")}
    written = {f for f in files if f"wrote {f}" in stderr and f"after writing {f}" in stderr}
    if files - kept - written:
        problems.append(f"files left: {sorted(files - kept - written)}")
    if kept and not all(k in stderr for k in kept):
        problems.append(f"kept rows not named: {sorted(kept)}")
    if "kept in" in stderr and not kept:
        problems.append("names a kept file that is not there")
    return problems


def _resumes(cmd: list[str], tmp: str, env: dict, part: Part) -> list[str]:
    """A batch stopped with rows kept: --resume ends it, and its file is an uninterrupted run's."""
    resumed = subprocess.run([*cmd, "--resume"], cwd=tmp, env=env, capture_output=True,
                             text=True)
    whole = subprocess.run([*cmd[:-1], "whole.csv"], cwd=tmp, env=env, capture_output=True,
                           text=True)
    if resumed.returncode != 0 or whole.returncode != 0:
        return [f"--resume: exit {resumed.returncode}: {resumed.stderr[-500:]!r}"]
    if Path(tmp, "o.csv").read_bytes() != Path(tmp, "whole.csv").read_bytes():
        return ["the resumed file differs from an uninterrupted run's"]
    part.outcomes["resumed with --resume, the same file as an uninterrupted run"] += 1
    return []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=3000, help="generated cases in all")
    parser.add_argument("--ctrl-c", type=int, default=40, help="runs stopped by SIGINT")
    parser.add_argument("--rules-runs", type=int, default=200,
                        help="edited rules files on tiny simulating runs (counted in --cases)")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    n = options.cases
    parts = [
        (Part("command lines (one poison each)"), cli_fuzz.refused_command_lines(), n * 6 // 10,
         False),
        (Part("bad rules files on every --rules command"),
         st.builds(rules_case, st.sampled_from(RULES_COMMANDS), cli_fuzz.bad_rules_files()),
         n * 15 // 100, False),
        (Part("any rules file on analyze"),
         st.builds(lambda c: rules_case("analyze", c), cli_fuzz.any_rules_files()),
         n * 15 // 100, True),
        (Part("edited built-in rules files on tiny runs of the simulating commands"),
         st.builds(tiny_run_case, st.sampled_from(TINY_RUNS),
                   cli_fuzz.mutated_variant().map(str.encode)), options.rules_runs, True),
        (Part("hands files on analyze"),
         st.builds(hands_case, cli_fuzz.hands_files(), st.booleans(),
                   st.sampled_from(["four-hand-80", "two-hand-48", "swabian-3-40"])),
         max(0, n - n * 6 // 10 - 2 * (n * 15 // 100) - options.rules_runs), True),
    ]
    start = time.perf_counter()
    for part, strategy, examples, may_pass in parts:
        if examples > 0:
            generated(part, strategy, examples, options.seed, may_pass)
        print(part.report(), flush=True)
    stopped = Part("Ctrl-C at a random moment (real SIGINT, child processes)")
    ctrl_c(options.ctrl_c, options.seed, stopped)
    print(stopped.report(), flush=True)
    everything = [p for p, *_ in parts] + [stopped]
    total = sum(sum(p.outcomes.values()) for p in everything[:-1]) + options.ctrl_c
    failures = [f for p in everything for f in p.failures]
    print(f"{total:,} cases in {time.perf_counter() - start:.0f} s; {len(failures)} failing")
    for failure in failures:
        print("FAILED:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
