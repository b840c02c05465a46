"""Cold compile time of every warm-up group: `binokel-sim warm-up`'s steps run one after another
on an empty numba cache, each timed in process CPU seconds (numba compiles on one thread; CPU
time does not count the waits of a machine shared with other work). Also lists every signature
each kernel was compiled for, to spot needless specialisations (the same kernel compiled twice).

    python scripts/compile_times.py [--variant V ...] [--out FILE.json]

The figures feed binokel_sim/compile_notice.py (COMPILE_SECONDS) and docs/performance.md
("Compile cost").
"""

import argparse
import json
import os
import sys
import tempfile
import time


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--variant", action="append")
    parser.add_argument("--out")
    parser.add_argument("--commands", help="only these commands, comma-separated")
    parser.add_argument("--policies", help="only the steps of these policies, comma-separated "
                                           "('' the default, random, sampling)")
    parser.add_argument("--keep-cache", action="store_true",
                        help="use the usual cache (measures a warm or partly warm state)")
    args = parser.parse_args()
    if not args.keep_cache:
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="numba-cold-")
    from numba.core import event

    from binokel_sim.cli.warmup import ALL_VARIANTS, plan, run_step

    signatures: dict[str, list[str]] = {}
    depth = [0]
    top: list[tuple[str, float]] = []
    stack: list[list] = []  # [name, start, children's time]
    own: dict[str, float] = {}  # CPU seconds a kernel's compilations took, callees' left out

    class Recorder(event.Listener):
        def on_start(self, ev):
            d = ev.data["dispatcher"]
            name = f"{d.py_func.__module__}.{d.py_func.__qualname__}"
            signatures.setdefault(name, []).append(str(ev.data["args"]))
            if depth[0] == 0:
                top.append((name, time.process_time()))
            depth[0] += 1
            stack.append([name, time.process_time(), 0.0])

        def on_end(self, ev):
            depth[0] -= 1
            name, start, children = stack.pop()
            spent = time.process_time() - start
            own[name] = own.get(name, 0.0) + spent - children
            if stack:
                stack[-1][2] += spent

    event.register("numba:compile", Recorder())
    results = []
    wanted = set(args.commands.split(",")) if args.commands else None
    for step in plan(args.variant or list(ALL_VARIANTS)):
        if wanted is not None and step.command not in wanted:
            continue
        if args.policies is not None and step.policies not in args.policies.split(","):
            continue
        wall = time.perf_counter()
        compiled, cpu = run_step(step)
        results.append({"family": step.family, "command": step.command, "variant": step.variant,
                        "policies": step.policies,
                        "compilations": compiled, "cpu_s": round(cpu, 1),
                        "wall_s": round(time.perf_counter() - wall, 1)})
        print(json.dumps(results[-1]), file=sys.stderr, flush=True)
    twice = {k: v for k, v in signatures.items() if len(v) > 1}
    doc = {"steps": results, "total_cpu_s": round(sum(r["cpu_s"] for r in results), 1),
           "kernels_compiled": len(signatures), "compiled_more_than_once": twice,
           "entry_points": [name for name, _ in top],
           "own_cpu_s": {k: round(v, 2) for k, v in sorted(own.items(), key=lambda kv: -kv[1])}}
    text = json.dumps(doc, indent=1)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
