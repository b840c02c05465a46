"""Record the compile helper's plans (binokel_sim/compile_plans.bin): for every step of
`binokel-sim warm-up --all` (a command, an engine family, a kind of seats), the callees numba
compiles for it on an empty cache, with their argument types, in the order numba finished them
(binokel_sim/compile_helper.py says how a cold command uses them).

    python scripts/compile_plans.py [--jobs 2]

Each step runs in a process of its own with an empty NUMBA_CACHE_DIR (a step's plan is what a
cold first run of it compiles, not what it adds after the steps before it). Run it again after
a kernel edit: tests/test_compile_helper.py fails while a plan's kernel sources have changed.
About 10 minutes on the project's 2-core machine with --jobs 2.
"""

import argparse
import os
import pickle
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRUNK = 0.5  # a callee compiling longer than this share of its step is left to the command


def record(index: int, out: str) -> None:
    """In this process (on an empty cache): run warm-up step ``index`` and pickle its plan's
    entries ``[(module, qualname, pickled argument types), ...]`` to ``out``."""
    from numba.core import event

    from binokel_sim.cli.warmup import ALL_VARIANTS, plan, run_step

    stack: list[float] = []
    seen = []  # (module, qualname, pickled argument types, CPU seconds with its callees)
    total = [0.0]

    class Recorder(event.Listener):
        def on_start(self, ev):
            stack.append(time.process_time())

        def on_end(self, ev):
            spent = time.process_time() - stack.pop()
            d = ev.data["dispatcher"]
            module, qualname = d.py_func.__module__, d.py_func.__qualname__
            if not stack:
                total[0] += spent
            # the drivers (depth 0) are the command's own; numba's and overloads' inner
            # functions cannot be found again by name
            elif module.startswith("binokel_sim.") and "<locals>" not in qualname:
                seen.append((module, qualname, pickle.dumps(tuple(ev.data["args"]),
                                                            protocol=4), spent))

    event.register("numba:compile", Recorder())
    run_step(plan(list(ALL_VARIANTS))[index])
    # a callee that holds most of the step's compile (the sample loop a driver calls) is one
    # the command enters at once and stays in: the helper compiling it too would do the same
    # work at the same time; it takes that callee's own callees instead
    entries = [(m, q, a) for m, q, a, spent in seen if spent <= TRUNK * total[0]]
    with open(out, "wb") as f:
        pickle.dump(entries, f)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--record", nargs=2, metavar=("STEP", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.record:
        record(int(args.record[0]), args.record[1])
        return
    import numba

    from binokel_sim.cli.warmup import ALL_VARIANTS, plan
    from binokel_sim.compile_helper import module_path, plan_name, write_plans
    from binokel_sim.kernel_cache import closure_hashes

    steps = plan(list(ALL_VARIANTS))
    closures = closure_hashes()
    work = Path(tempfile.mkdtemp(prefix="compile-plans-"))

    def one(i: int) -> tuple[int, list]:
        start = time.perf_counter()
        env = {**os.environ, "NUMBA_CACHE_DIR": str(work / f"cache-{i}"),
               "BINOKEL_SIM_COMPILE_HELPER": "off", "PYTHONPATH": str(ROOT)}
        out = work / f"plan-{i}.pkl"
        subprocess.run([sys.executable, __file__, "--record", str(i), str(out)], env=env,
                       check=True, stdout=subprocess.DEVNULL)
        with open(out, "rb") as f:
            entries = pickle.load(f)
        print(f"{steps[i].label}: {len(entries)} callees, "
              f"{time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
        return i, entries

    plans = {}
    with ThreadPoolExecutor(args.jobs) as pool:
        for i, entries in pool.map(one, range(len(steps))):
            step = steps[i]
            name = plan_name(step.family, step.command, step.policies)
            if entries and name not in plans:
                plans[name] = entries
    used = {module_path(m) for entries in plans.values() for m, _, _ in entries}
    if any(closure_hashes().get(k) != closures.get(k) for k in used):
        sys.exit("the kernel sources changed while the plans were recorded: run it again")
    write_plans({"numba": numba.__version__, "closures": closures, "plans": plans})
    print(f"{len(plans)} plans written", file=sys.stderr)


if __name__ == "__main__":
    main()
