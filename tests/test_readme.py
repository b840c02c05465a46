"""The README's examples and every command's ``-h`` examples run as written, in an empty folder,
one line at a time, each with exit status 0.

The README says that ``BINOKEL_SIM_MAX_DEALS`` caps every ``--deals`` and ``--games`` (with a
warning line); these tests set it, so a line asking for ten million deals stays quick. The README
lines marked ``# needs a Dask cluster`` are not run (no traffic to another machine); there must be
few of them and every line naming a scheduler must carry the mark. ``binokel-sim`` is a shim on
PATH that runs this checkout's ``python -m binokel_sim.cli``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
CLUSTER_MARK = "# needs a Dask cluster"
MAX_DEALS = "40"  # the cap the README's BINOKEL_SIM_MAX_DEALS sets for these runs
LINE_TIMEOUT = 600  # seconds for one line (a cold numba cache compiles kernels first)


def readme_examples() -> list[str]:
    """The lines of the ```bash block that follows the README's "Examples:" (a line ending in a
    backslash continues on the next)."""
    text = README.read_text(encoding="utf-8")
    start = text.index("```bash\n", text.index("Examples:")) + len("```bash\n")
    block = text[start:text.index("```", start)]
    lines, pending = [], ""
    for line in block.splitlines():
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        if (pending + line).strip():
            lines.append(pending + line)
        pending = ""
    return lines


def help_examples() -> dict[str, list[str]]:
    """Every command's ``Examples:`` lines, from the help the command shows."""
    import typer.main

    from binokel_sim.cli import app
    from binokel_sim.cli.base import help_examples as examples_of

    group = typer.main.get_command(app)
    return {name: examples_of(group.get_command(None, name).help or "")
            for name in group.list_commands(None)}


def shim(tmp_path: Path) -> dict:
    """An environment whose PATH has a ``binokel-sim`` that runs this checkout."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "binokel-sim"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m binokel_sim.cli "$@"\n')
    script.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
           "PYTHONPATH": str(ROOT), "BINOKEL_SIM_MAX_DEALS": MAX_DEALS, "COLUMNS": "80"}
    return env


def run_lines(lines: list[str], tmp_path: Path) -> None:
    env = shim(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    for line in lines:
        done = subprocess.run(["bash", "-c", line], cwd=work, env=env, capture_output=True,
                              text=True, timeout=LINE_TIMEOUT, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, f"{line}\nexit {done.returncode}\n{done.stderr[-2000:]}"
        assert "Traceback" not in done.stderr, f"{line}\n{done.stderr[-2000:]}"
        assert not re.search(r"^error:", done.stderr, re.M), f"{line}\n{done.stderr}"


def test_readme_says_how_examples_are_capped_and_marked():
    text = README.read_text(encoding="utf-8")
    assert "BINOKEL_SIM_MAX_DEALS" in text
    lines = readme_examples()
    marked = [line for line in lines if line.rstrip().endswith(CLUSTER_MARK)]
    assert 1 <= len(marked) <= 2, marked
    # every line that needs a cluster is marked, and only those
    assert [line for line in lines if "--scheduler" in line] == marked
    # the examples write into the folder they run in, not into the checkout's results/
    assert not [line for line in lines if "results/" in line]
    # the caption still names the command that made the committed figures
    assert "--out results/report-four-hand-80" in text


def test_readme_figure_is_what_its_caption_says():
    """The figure's caption says what the committed report says (policy, seed, deals, the bid
    worth making) and names the script that remakes it, quoting the script's own command, so
    that nobody runs it in the clone unaware that it replaces the committed files."""
    text = " ".join(README.read_text(encoding="utf-8").split())
    start = text.index("(results/report-four-hand-80/bid-curve.png)")
    caption = text[start:text.index("## Commands", start)]
    report = (ROOT / "results" / "report-four-hand-80" / "report.md").read_text(encoding="utf-8")
    field = {m[1]: m[2] for m in re.finditer(r"^\| (\w+) \| (.+) \|$", report, re.M)}
    bid = re.search(r"highest bid with a positive expected score: (\d+)", report)[1]
    assert (f"({field['deals']} deals, seed {field['seed']}, the {field['policy']} policy"
            in caption), caption
    assert f"the highest bid worth making: {bid} " in caption, caption
    script = (ROOT / "scripts" / "readme_figures.sh").read_text(encoding="utf-8")
    out = re.search(r'^out="\$\{1:-(.+)\}"$', script, re.M)[1]
    command = re.search(r"^binokel-sim report .+$", script, re.M)[0].replace('"$out"', out)
    assert "`scripts/readme_figures.sh`" in caption and f"`{command}`" in caption, caption
    assert out == "results/report-four-hand-80"


def test_readme_examples_run_verbatim(tmp_path):
    lines = [line for line in readme_examples() if not line.rstrip().endswith(CLUSTER_MARK)]
    assert len(lines) >= 20
    run_lines(lines, tmp_path)
    work = tmp_path / "work"
    assert {"odds.parquet", "hands.txt", "hands.csv", "melds.csv", "house.toml", "table.parquet",
            "report-four-hand-80"} <= {p.name for p in work.iterdir()}


HELP_EXAMPLES = help_examples()


def test_every_command_has_examples():
    assert [name for name, lines in HELP_EXAMPLES.items() if not lines] == []


@pytest.mark.parametrize("name", sorted(HELP_EXAMPLES))
def test_help_examples_run_verbatim(name, tmp_path):
    lines = HELP_EXAMPLES[name]
    assert all("--scheduler" not in line for line in lines)
    if name == "serve":  # a server runs until stopped: it must answer its page, then stops
        env = shim(tmp_path)
        for line in lines:
            run_server(line, env)
        return
    run_lines(lines, tmp_path)


def run_server(line: str, env: dict) -> None:
    """Start ``line`` (a ``binokel-sim serve``), wait for the address it prints to answer the
    page, then stop it with Ctrl-C (SIGINT) and expect a clean exit."""
    import signal
    import time
    import urllib.request

    server = subprocess.Popen(["bash", "-c", f"exec {line}"], env=env,
                              stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        first = server.stderr.readline()
        match = re.search(r"http://[^/ ]+/", first)
        assert match, f"{line}: {first}"
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(match.group(0), timeout=5) as reply:
                    assert reply.status == 200
                    assert "binokel-sim" in reply.read().decode("utf-8")
                break
            except OSError:
                assert server.poll() is None, f"{line}: {server.stderr.read()[-2000:]}"
                assert time.monotonic() < deadline, f"{line}: no answer at {match.group(0)}"
                time.sleep(0.2)
    finally:
        server.send_signal(signal.SIGINT)
        rest = server.communicate(timeout=30)[1]
    assert server.returncode == 0 and "Traceback" not in rest, rest[-2000:]


def test_readme_python_api_block_runs_verbatim():
    """The README's "Python API" block, as written (its sizes take a few seconds warm)."""
    text = README.read_text(encoding="utf-8")
    start = text.index("```python\n", text.index("## Python API")) + len("```python\n")
    block = text[start:text.index("```", start)]
    scope: dict = {}
    exec(compile(block, "README.md (Python API)", "exec"), scope)  # noqa: S102
    assert scope["odds"]["rows"].height > 0 and "distribution" in scope["after"]["widow"]
    assert 0 <= scope["worth"]["p_win"] <= 1 and len(scope["records"]) == 10
