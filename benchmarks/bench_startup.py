"""Start-up and whole-command wall times: what a user waits for at the terminal.

Run: python benchmarks/bench_startup.py   (writes the "startup" section of results/benchmarks.json)

``help_seconds``: ``binokel-sim COMMAND --help`` for the top level and every command, best of five
each (``max`` is the slowest command). ``analyze_warm_seconds``: ``binokel-sim analyze`` (the
example hand) once the first run has written its caches, best of five. ``bid_odds_1m_seconds``:
``binokel-sim bid-odds --deals 1000000 --threads 2 --policy heuristic`` (the example hand, every
marriage trump), numba cache warm, best of five. Targets (issue 10): 0.3 s, 0.6 s and 2.5 s. The
default policy, the expert, is timed by ``bench_expert.py`` (issue 28: 5 s).

Run it where a user runs the command: an environment made by the README's first line (``pip
install -e ".[plot]"``), not the test environment. ``scipy_installed`` records which it was:
when scipy is importable, numba imports ``scipy.linalg`` at its first compiled call (its BLAS
check, about 0.3 s of every command that runs a kernel); the package itself never needs scipy.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

from binokel_sim.bench import best_seconds
from binokel_sim.cli import app

sys.path.insert(0, str(Path(__file__).parent))
from results_file import record  # noqa: E402

# the installed command, as a user runs it (else the module: the same code)
COMMAND = ([shutil.which("binokel-sim")] if shutil.which("binokel-sim")
           else [sys.executable, "-m", "binokel_sim.cli"])


def seconds(*args: str, repeats: int = 5) -> float:
    cmd = [*COMMAND, *args]
    return best_seconds(lambda: subprocess.run(cmd, check=True, capture_output=True), repeats)


def main() -> None:
    import typer.main

    commands = sorted(typer.main.get_command(app).commands)
    helps = {"(top level)": seconds("--help")}
    helps.update({name: seconds(name, "--help") for name in commands})
    figures = {
        "command": " ".join(Path(c).name for c in COMMAND),
        "scipy_installed": importlib.util.find_spec("scipy") is not None,
        "help_seconds": {**helps, "max": max(helps.values())},
        "analyze_warm_seconds": seconds("analyze"),
        "bid_odds_1m_seconds": seconds("bid-odds", "--deals", "1000000", "--threads", "2",
                                       "--policy", "heuristic"),
        "targets_seconds": {"help": 0.3, "analyze_warm": 0.6, "bid_odds_1m": 2.5},
    }
    record("startup", figures)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
