"""Every command's ``-h`` at 80 columns: short, examples on one line each, metavars whole.

The line budget: the longest help (bid-odds, 19 options) needs about one line per option plus the
usage, a short description and its examples; 60 lines is that with room for each option's help to
take two lines, and about two screens of a 30-line terminal. Longer stories belong in
docs/commands.md, which every long help points to.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from test_readme import HELP_EXAMPLES

ROOT = Path(__file__).resolve().parent.parent
WIDTH = 80
LINE_BUDGET = 60


def rendered_help(*args: str) -> list[str]:
    env = {**os.environ, "COLUMNS": str(WIDTH), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "binokel_sim.cli", *args, "-h"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.mark.parametrize("name", sorted(HELP_EXAMPLES))
def test_help_fits_80_columns(name):
    lines = rendered_help(name)
    assert len(lines) <= LINE_BUDGET, f"{name} -h has {len(lines)} lines"
    assert max(len(line.rstrip()) for line in lines) <= WIDTH
    # every example is one whole line of the help (pasteable)
    stripped = [line.strip() for line in lines]
    for example in HELP_EXAMPLES[name]:
        assert f"Example: {example}" in stripped, f"{name}: example wrapped: {example}"
    # no metavar broken over two lines (a "<tex" ending a line, "t>" starting the next)
    text = "\n".join(lines)
    assert not re.search(r"<[^>\s│]*\s*│?\s*$", text, re.M), text
    for line in lines:
        cells = line.split("│")
        for cell in cells:
            assert not re.match(r"^\s*[a-z|]*>", cell), f"{name}: split metavar in {line!r}"


def test_main_help_fits_80_columns():
    lines = rendered_help()
    assert len(lines) <= LINE_BUDGET
    assert max(len(line.rstrip()) for line in lines) <= WIDTH
