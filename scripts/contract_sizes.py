"""How wide the function contracts are: every function in ``binokel_sim/`` with more than
``--over`` parameters (default 15), kernels marked, widest first.

    python scripts/contract_sizes.py [--over 15] [--kernels-only] [--format json]

Issue 51's measure: a kernel contract should be a few named bundles (``kernels/runs.py``'s
``Run``, a family's table, its outputs), not a long positional list that compiles and runs with
two ``int64`` arguments swapped.
"""

from __future__ import annotations

import argparse
import ast
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "binokel_sim"


def _is_kernel(node: ast.FunctionDef) -> bool:
    for dec in node.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in {"njit", "jit", "overload", "register_jitable"}:
            return True
    return False


def wide_functions(over: int, package: Path = PACKAGE) -> list[dict]:
    """Every function under ``package`` with more than ``over`` parameters: its name, the
    count, whether it is a kernel (decorated ``njit``, ``jit``, ``overload`` or
    ``register_jitable``), its file (relative to the package's parent) and line."""
    rows = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            a = node.args
            n = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) \
                + (a.vararg is not None) + (a.kwarg is not None)
            if n > over:
                rows.append({"function": node.name, "params": n, "kernel": _is_kernel(node),
                             "file": str(path.relative_to(package.parent)), "line": node.lineno})
    rows.sort(key=lambda r: (-r["params"], r["file"], r["line"]))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--over", type=int, default=15)
    parser.add_argument("--kernels-only", action="store_true")
    parser.add_argument("--format", choices=["text", "json"], default="text")
    args = parser.parse_args()
    rows = wide_functions(args.over)
    if args.kernels_only:
        rows = [r for r in rows if r["kernel"]]
    kernels = sum(r["kernel"] for r in rows)
    if args.format == "json":
        print(json.dumps({"over": args.over, "functions": len(rows), "kernels": kernels,
                          "rows": rows}, indent=1))
        return
    for r in rows:
        print(f"{r['params']:3d}  {'kernel' if r['kernel'] else '      '}  "
              f"{r['file']}:{r['line']}  {r['function']}")
    print(f"{len(rows)} functions over {args.over} parameters, {kernels} of them kernels")


if __name__ == "__main__":
    main()
