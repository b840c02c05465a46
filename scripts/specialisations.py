"""Which kernels compile more than once, in which arguments their signatures differ, and which
spend longest in numba's inliner.

Runs ``binokel-sim warm-up`` (every command's smallest run) in this process on an empty numba
cache, then lists every kernel with more than one compiled signature and the arguments that
differ between them. A difference in a ``Literal`` type is almost always an accident: a
module-level constant passed to a kernel that is not inlined compiles the kernel (and every
kernel it calls) once per value; pass ``np.int64(CONSTANT)`` instead (docs/performance.md,
"Compile cost"). It also lists the kernels whose compile spent longest in numba's IR inliner
(``inline="always"`` callees): a big function inlined into another one cost a minute there.

Example: NUMBA_CACHE_DIR=$(mktemp -d) python scripts/specialisations.py --variant sixty-six
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time


def report(min_count: int = 2) -> list[str]:
    """One line per kernel compiled at least ``min_count`` times, then its differences."""
    from numba.core.registry import CPUDispatcher

    lines = []
    for obj in gc.get_objects():
        if not isinstance(obj, CPUDispatcher) or not obj.py_func.__module__.startswith(
                "binokel_sim"):
            continue
        sigs = list(obj.overloads)
        if len(sigs) < min_count:
            continue
        name = f"{obj.py_func.__module__}.{obj.py_func.__qualname__}"
        lines.append(f"{len(sigs)} x {name}")
        for sig in sigs[1:]:
            for i, (a, b) in enumerate(zip(sigs[0], sig)):
                if a != b:
                    literal = "  LITERAL" if "Literal" in str(a) + str(b) else ""
                    lines.append(f"    arg {i}: {str(a)[:70]}  |  {str(b)[:70]}{literal}")
    return lines


def slowest_passes(top: int = 8) -> list[str]:
    """The ``top`` kernel signatures by time in numba's inliner pass, with their whole compile
    time (its callees' compiles included)."""
    from numba.core.registry import CPUDispatcher

    rows = []
    for obj in gc.get_objects():
        if not isinstance(obj, CPUDispatcher) or not obj.py_func.__module__.startswith(
                "binokel_sim"):
            continue
        for cres in obj.overloads.values():
            times = (cres.metadata or {}).get("pipeline_times", {})
            inline = total = 0.0
            for passes in times.values():
                for name, t in passes.items():
                    seconds = t.init + t.run + t.finalize
                    total += seconds
                    inline += seconds if name.endswith("inline_inlinables") else 0.0
            rows.append((inline, total, f"{obj.py_func.__module__}.{obj.py_func.__qualname__}"))
    rows.sort(reverse=True)
    return [f"{inline:6.1f} s inlining of {total:6.1f} s  {name}"
            for inline, total, name in rows[:top]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", action="append", default=[],
                        help="warm up this variant's engine (repeatable; default: --all)")
    args = parser.parse_args()
    if not os.environ.get("NUMBA_CACHE_DIR"):
        sys.exit("set NUMBA_CACHE_DIR to an empty directory: a warm cache compiles nothing")
    os.environ.setdefault("BINOKEL_SIM_COMPILE_NOTICE", "off")
    from binokel_sim.cli import app

    argv = ["warm-up", *[a for v in args.variant for a in ("--variant", v)]] or ["warm-up"]
    if not args.variant:
        argv.append("--all")
    start = time.process_time()
    try:
        app(argv, standalone_mode=False)
    except SystemExit as stop:
        if stop.code:
            raise
    print(f"compiled in {time.process_time() - start:.0f} CPU s", file=sys.stderr)
    print("\n".join(report()) or "every kernel compiled once")
    print("longest in the inliner:")
    print("\n".join(slowest_passes()))


if __name__ == "__main__":
    main()
