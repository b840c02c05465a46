"""Kernel contracts are named bundles, not long positional lists (issue 51): no kernel takes more
than ``MAX_KERNEL_PARAMS`` parameters. ``scripts/contract_sizes.py`` lists the widest functions."""

from __future__ import annotations

import importlib.util
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_KERNEL_PARAMS = 15
# The kernels not yet bundled (issue 51 item 1, open): each may not grow, and leaves this list
# when it is bundled (the test fails on a stale entry).
NOT_YET_BUNDLED: dict[str, int] = {}


def contract_sizes():
    spec = importlib.util.spec_from_file_location("contract_sizes",
                                                  ROOT / "scripts" / "contract_sizes.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_no_kernel_takes_a_long_positional_list():
    kernels = [r for r in contract_sizes().wide_functions(MAX_KERNEL_PARAMS) if r["kernel"]]
    wide = [r for r in kernels if r["params"] > NOT_YET_BUNDLED.get(r["function"], 0)]
    stale = set(NOT_YET_BUNDLED) - {r["function"] for r in kernels}
    assert not stale, f"bundled now: remove {sorted(stale)} from NOT_YET_BUNDLED"
    assert not wide, "kernels over %d parameters (bundle them, kernels/runs.py):\n%s" % (
        MAX_KERNEL_PARAMS,
        "\n".join(f"{r['file']}:{r['line']} {r['function']} ({r['params']})" for r in wide))


def test_the_count_sees_a_planted_wide_kernel(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    names = ", ".join(f"a{i}" for i in range(MAX_KERNEL_PARAMS + 1))
    (package / "k.py").write_text(textwrap.dedent(f"""
        from numba import njit

        @njit(cache=True)
        def wide({names}):
            return a0

        def plain({names}):
            return a0

        @njit
        def narrow(a, b):
            return a
    """))
    rows = contract_sizes().wide_functions(MAX_KERNEL_PARAMS, package)
    assert [(r["function"], r["kernel"], r["params"]) for r in rows] == [
        ("wide", True, MAX_KERNEL_PARAMS + 1), ("plain", False, MAX_KERNEL_PARAMS + 1)]
