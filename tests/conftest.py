"""Shared test setup: the hypothesis profile, the built-in variant names and small helpers.

The suite must stay fast (a few minutes on two cores): kernels are compiled once (numba
``cache=True``), pure-Python references run on small inputs, and only the statistical tests deal
a million hands.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numba
import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from typer.testing import CliRunner

from binokel_sim import compile_helper, compile_notice, kernel_cache, variants
from binokel_sim.cli import app
from binokel_sim.hands import parse_hand

DATA = Path(__file__).parent / "data"
# Tiny made-up variants (tests/data/*.toml) small enough to enumerate every hand.
TINY_RULES_FILES = [DATA / "tiny-2.toml", DATA / "tiny-3.toml"]

# Whether a test compiles depends on the tests before it: no compile line on stderr here
# (tests/test_warmup.py turns it on where it is tested). Worker processes inherit it.
os.environ[compile_notice.ENV] = "off"
# nor a compile helper beside a command (tests/test_compile_helper.py starts one where tested)
os.environ[compile_helper.ENV] = "off"

# The xdist controller compiles the engines before its workers start, in two processes with
# disjoint groups of `binokel-sim warm-up --all` (its hidden --part, balanced by the groups'
# compile times, binokel_sim/compile_notice.py): else both workers compile the same kernels at
# the same time on a cold cache, and each waits for it in turn. BINOKEL_SIM_TEST_WARMUP=off skips
# it.
WARM_UP_SPLIT = (["--all", "--part", "1/2"], ["--all", "--part", "2/2"])


def pytest_sessionstart(session):
    """In the xdist controller, before its workers start (xdist starts them in its own
    ``pytest_sessionstart``, which runs last)."""
    config = session.config
    if hasattr(config, "workerinput"):
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    # a kernel edited since the last session: numba's cache may keep stale callees in a caller;
    # the files of the kernels whose sources (or what they import) changed are cleared
    removed = kernel_cache.clear_stale(cache_root=kernel_cache.numba_cache_dir())
    if removed and reporter is not None:
        reporter.write_line(f"kernel sources changed: {removed} cached kernel files cleared")
    workers = getattr(config.option, "numprocesses", None)
    if (not isinstance(workers, int) or workers < 2
            or os.environ.get("BINOKEL_SIM_TEST_WARMUP", "on") == "off"):
        return
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(root), *filter(None, [os.environ.get("PYTHONPATH")])])}
    start = time.perf_counter()
    runs = [subprocess.Popen([sys.executable, "-m", "binokel_sim.cli", "warm-up", *part],
                             env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True) for part in WARM_UP_SPLIT]
    lines = []
    for run in runs:
        _, stderr = run.communicate()
        if run.returncode != 0:  # the tests that run these commands will say what is wrong
            lines.append(f"warm-up failed: {stderr.strip()}")
        else:
            lines += stderr.strip().splitlines()  # each group's compile time, then the total
    lines.append(f"kernels warmed up in {time.perf_counter() - start:.0f} s")
    for line in lines:
        if reporter is not None:
            reporter.write_line(line)
        else:
            sys.stderr.write(line + "\n")


settings.register_profile(
    "ci", max_examples=100, deadline=None, derandomize=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("ci")

# The built-in variants of the rules contract (SPEC.md: the six seed variants, the two
# Swabian games of "House variants" and "Variant sixty-six"), written out here rather than read
# from the package, so a variant that silently disappears fails the tests.
VARIANT_NAMES = ["four-hand-72", "four-hand-80", "four-hand-widow-48", "kreuz-4-40",
                 "sixty-six", "swabian-3-40", "swabian-3-40-tournament", "three-hand-72",
                 "three-hand-auction-48", "two-hand-48"]


@pytest.fixture(params=VARIANT_NAMES)
def rules(request):
    """Every built-in variant, one test each."""
    return variants.find_variant(request.param)


@pytest.fixture(autouse=True)
def _restore_numba_threads():
    """Tests that pin the thread count must not leak it into the next test."""
    yield
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


@pytest.fixture
def two_threads():
    """Skip where numba cannot run two worker threads."""
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba has fewer than 2 threads here")
    return 2


def counts(rules_or_name, text: str) -> np.ndarray:
    """A hand (any size) of a variant as counts per card type."""
    r = variants.find_variant(rules_or_name) if isinstance(rules_or_name, str) else rules_or_name
    return parse_hand(text, r, size=-1)


def kernel_tables(tables):
    """The argument the meld kernels take: the compiled ``kt`` tuple."""
    return tables.kt


def kernel_melds(rules, hand, trump: int) -> tuple[list[tuple[str, int, int]], int]:
    """``[(meld, count, points)]`` in table order and the total of one hand (counts per type)
    with ``trump``, from the meld kernel (``kernels.melds.meld_hand``), not from ``analyze_hand``,
    which reads the rules in Python."""
    from binokel_sim.cards import counts_to_planes
    from binokel_sim.kernels.melds import meld_hand
    from binokel_sim.tables import compile_tables

    tables = compile_tables(rules)
    c = np.empty(tables.n_melds, dtype=np.int64)
    p = np.empty(tables.n_melds, dtype=np.int64)
    total = meld_hand(counts_to_planes(np.asarray(hand, dtype=np.int64)), trump,
                      kernel_tables(tables), c, p)
    return [(m.name, int(ci), int(pi)) for m, ci, pi in zip(rules.melds, c, p)], int(total)


def assert_one_line_error(result, *needles: str):
    """Exit code 1, exactly one line on stderr starting with 'error:' naming the problem."""
    assert result.exit_code == 1, (result.stdout, result.stderr, result.exception)
    lines = result.stderr.strip("\n").splitlines()
    assert len(lines) == 1, (result.stderr, repr(result.exception))
    assert lines[0].startswith("error:"), lines[0]
    for needle in needles:
        assert needle in lines[0], lines[0]
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# --- the command line (typer's CliRunner on the app) ---------------------------------------------

runner = CliRunner()

HAND_80 = "AS AS TS KS KS QS QS JS AH TH KH QH AD KD QD JD JD AC TC KC"


def invoke(*args: str):
    return runner.invoke(app, list(args))


def ok(*args: str):
    result = invoke(*args)
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    return result
