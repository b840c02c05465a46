"""Run a Python script, then write a perf map of every numba-compiled function in the process, so
that ``perf report`` names the kernels instead of printing bare addresses (numba's code has no
perf map of its own, and its cached code none either).

    perf record -F 1999 -o perf.data python scripts/perf_map.py PROBE.py [ARGS ...]
    perf report -i perf.data --stdio --no-children --sort sym | head -40

The map (``/tmp/perf-PID.map``, where perf looks for it) lists each symbol numba's JIT engine
defined (compiled now or loaded from the cache) at its address, sized up to the next symbol.
It is written when the script ends, so the functions must still be loaded then. On this
machine perf samples on the ``cpu-clock`` timer (no hardware counters), so samples pile up
just after locked instructions such as ``NRT_incref``: compare shares between two versions of
the code, not a share alone (docs/performance.md, "Sampling speed").
"""

from __future__ import annotations

import os
import runpy
import sys


def write_map() -> int:
    """Write ``/tmp/perf-PID.map`` for the numba functions of this process; returns how many."""
    from numba.core.registry import cpu_target

    engine = cpu_target.target_context.codegen()._engine
    addresses = {}
    for name in getattr(engine, "_defined_symbols", ()):
        address = engine.get_function_address(name)
        if address:
            addresses[address] = name
    starts = sorted(addresses)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for i, start in enumerate(starts):
            gap = starts[i + 1] - start if i + 1 < len(starts) else 4096
            out.write(f"{start:x} {gap if gap < 1 << 20 else 4096:x} {addresses[start]}\n")
    return len(starts)


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit("usage: python scripts/perf_map.py SCRIPT [ARGS ...]")
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    try:
        runpy.run_path(script, run_name="__main__")
    finally:
        print(f"perf map: {write_map()} symbols in /tmp/perf-{os.getpid()}.map", file=sys.stderr)


if __name__ == "__main__":
    main()
