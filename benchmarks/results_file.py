"""Merge benchmark figures into results/benchmarks.json (one section per benchmark script)."""

from __future__ import annotations

import json
import os
import platform
from datetime import datetime, timezone
from pathlib import Path

import numba

RESULTS = Path(__file__).resolve().parent.parent / "results" / "benchmarks.json"


def machine() -> dict:
    return {"cpus": os.cpu_count(), "numba_threads": numba.config.NUMBA_NUM_THREADS,
            "python": platform.python_version(), "numba": numba.__version__,
            "processor": platform.processor() or platform.machine()}


def record(section: str, figures: dict) -> None:
    data = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    data[section] = {"measured": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                     "machine": machine(), **figures}
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(data, indent=2) + "\n")
