"""``binokel-sim play`` end to end: whole deals simulated and written as records (JSON lines,
Parquet), and the peak memory of a run.

Run: python benchmarks/bench_records.py   (writes the "records" section of results/benchmarks.json)

``cli_deals_per_s``: ``binokel-sim play --variant four-hand-80 --deals 1000000 --seed 1`` (the
heuristic, all threads) as a whole command, start-up included, best of three: JSON lines to
stdout (thrown away), JSON lines to a file and Parquet to a file; ``peak_rss_mb`` is that
command's peak resident memory (of the best run). ``in_process_deals_per_s``: the same written
from Python (no start-up), four-hand-80 and one variant of each other engine family, JSON lines
to /dev/null. Target: 50,000 four-hand-80 deals per second for JSON lines and Parquet.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from binokel_sim.records.stream import record_frames, write_records
from binokel_sim.variants import find_variant

sys.path.insert(0, str(Path(__file__).parent))
from results_file import record  # noqa: E402

DEALS = 1_000_000
# runs the command in a fresh interpreter and prints its wall time and the child's peak RSS
MEASURE = """
import resource, subprocess, sys, time
start = time.perf_counter()
with open(sys.argv[1], "wb") as sink:
    subprocess.run(sys.argv[2:], stdout=sink, check=True)
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def cli(out: str, stdout: str, repeats: int = 3) -> dict:
    cmd = [sys.executable, "-m", "binokel_sim.cli", "play", "--variant", "four-hand-80",
           "--deals", str(DEALS), "--seed", "1", "--out", out]
    best = None
    for _ in range(repeats):
        done = subprocess.run([sys.executable, "-c", MEASURE, stdout, *cmd], check=True,
                              capture_output=True, text=True)
        seconds, peak_kb = done.stdout.split()
        if best is None or float(seconds) < best[0]:
            best = (float(seconds), int(peak_kb))
        if out != "-":
            Path(out).unlink()
    return {"deals": DEALS, "seconds": best[0], "deals_per_s": DEALS / best[0],
            "peak_rss_mb": best[1] / 1024}


def in_process(name: str, deals: int, fmt: str = "jsonl") -> float:
    rules = find_variant(name)
    with open("/dev/null", "wb") as f:
        write_records(record_frames(rules, 8192, 1, "heuristic"), f, fmt, rules, {})  # warm
        start = time.perf_counter()
        write_records(record_frames(rules, deals, 1, "heuristic"), f, fmt, rules, {})
    return deals / (time.perf_counter() - start)


def main() -> None:
    figures: dict = {"variant": "four-hand-80", "policy": "heuristic"}
    with tempfile.TemporaryDirectory() as folder:
        figures["cli_deals_per_s"] = {
            "jsonl_stdout": cli("-", "/dev/null"),
            "jsonl_file": cli(str(Path(folder) / "deals.jsonl"), "/dev/null"),
            "parquet_file": cli(str(Path(folder) / "deals.parquet"), "/dev/null"),
        }
    figures["in_process_deals_per_s"] = {
        name: in_process(name, deals) for name, deals in
        (("four-hand-80", 500_000), ("two-hand-48", 200_000), ("three-hand-auction-48", 200_000))
    }
    figures["target_deals_per_s"] = 50_000
    record("records", figures)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
