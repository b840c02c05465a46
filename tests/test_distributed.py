"""Runs beyond one machine (docs/distributed.md): every command that takes ``--workers`` or
``--scheduler`` gives, on a Dask cluster, the bytes of the run in this process with the same seed.

The in-process cluster's workers are threads of this process, so the task sizes can be made small
here (a few blocks a task, several tasks a run); the ranges are computed by the command, never by
the worker. One test starts a real ``dask scheduler`` and two ``dask worker`` processes on the
loopback address and stops them afterwards.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from conftest import HAND_80, assert_one_line_error, invoke, ok

from binokel_sim import backend as bk
from binokel_sim import contests
from binokel_sim.analysis import meld_odds
from binokel_sim.cards import parse_card
from binokel_sim.hands import parse_hand
from binokel_sim.odds import bid_odds
from binokel_sim.odds.talon import deal_odds
from binokel_sim.simulate import BLOCK_SIZE, SimulationError, run_meld_counts
from binokel_sim.stats import Hist
from binokel_sim.variants import find_variant

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def cluster():
    """An in-process cluster (two worker threads) on a loopback TCP address, so the command
    line can reach it with --scheduler."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp://",
                      host="127.0.0.1", dashboard_address=None,
                      scheduler_kwargs=bk.QUIET_SCHEDULER, silence_logs=40) as c:
        yield c


@pytest.fixture
def dask_backend(cluster):
    from distributed import Client

    with Client(cluster, set_as_default=False) as client:
        yield bk.DaskBackend(client)


@pytest.fixture
def small_tasks(monkeypatch):
    """A few blocks a task, so that small runs are several tasks (the last one short)."""
    monkeypatch.setattr(bk, "MELD_TASK_BLOCKS", 3)
    for name in ("BID_TASK_BLOCKS", "DEAL_TASK_BLOCKS", "DUEL_TASK_BLOCKS"):
        monkeypatch.setattr(bk, name, 2)
    monkeypatch.setattr(bk, "MATCH_TASK_BLOCKS", 4)


# --- the command line: local and --scheduler give the same bytes ----------------------------------

def both(cluster, *args: str) -> str:
    local = ok(*args).stdout
    remote = invoke(*args, "--scheduler", cluster.scheduler_address)
    assert remote.exit_code == 0, (remote.stdout, remote.stderr, remote.exception)
    assert remote.stderr == "", remote.stderr
    assert remote.stdout == local
    return local


CASES = {
    "meld-odds": ["meld-odds", "--variant", "two-hand-48", "--deals", "200000", "--seed", "3"],
    "bid-odds": ["bid-odds", "--deals", "5000", "--seed", "4"],
    "bid-odds widow": ["bid-odds", "--variant", "three-hand-auction-48", "--deals", "5000"],
    "deal-odds": ["deal-odds", "--variant", "three-hand-72", "--deals", "5000", "--seed", "5",
                  "--hand", "AS TS KS QS QS JS 9S KH QH AD JD AC", "--turned", "9H"],
    "deal-odds pairs": ["deal-odds", "--variant", "four-hand-72", "--deals", "5000",
                        "--hand", "AS TS KS QS QS JS 9S KH QH AD JD AC", "--turned", "9H"],
    "duel": ["duel", "--deals", "5000", "--seed", "6"],
    "duel of three": ["duel", "--variant", "three-hand-72", "--deals", "5000"],
    "match": ["match", "--games", "1000", "--seed", "7"],
    "match widow": ["match", "--variant", "four-hand-widow-48", "--games", "1000"],
}


@pytest.mark.parametrize("case", list(CASES))
def test_scheduler_gives_the_local_json(case, cluster, small_tasks):
    document = json.loads(both(cluster, *CASES[case], "--format", "json"))
    assert "workers" not in json.dumps(document) and "scheduler" not in json.dumps(document)


def test_out_files_are_the_same_bytes(cluster, small_tasks, tmp_path):
    args = ["bid-odds", "--variant", "four-hand-widow-48", "--deals", "5000"]
    ok(*args, "--out", str(tmp_path / "local.parquet"))
    ok(*args, "--out", str(tmp_path / "dask.parquet"), "--scheduler", cluster.scheduler_address)
    assert (tmp_path / "local.parquet").read_bytes() == (tmp_path / "dask.parquet").read_bytes()


def test_batch_on_the_cluster_writes_the_local_file(cluster, tmp_path):
    hands = tmp_path / "hands.txt"
    hands.write_text(f"{HAND_80}\nAS XX\n{HAND_80.replace('KC', 'QC')}\n{HAND_80}\n")
    args = ["batch", "--hands-file", str(hands), "--deals", "2000", "--seed", "9"]
    ok(*args, "--out", str(tmp_path / "local.parquet"))
    remote = ok(*args, "--out", str(tmp_path / "dask.parquet"),
                "--scheduler", cluster.scheduler_address)
    assert "AS XX" not in remote.stdout and "XX" in remote.stderr  # the bad row is named
    assert (tmp_path / "local.parquet").read_bytes() == (tmp_path / "dask.parquet").read_bytes()
    assert not list(tmp_path.glob("*.partial.jsonl"))


def test_batch_resumes_on_the_cluster(cluster, tmp_path, monkeypatch):
    """A local run stopped by Ctrl-C after its first hand, resumed on the cluster: the file of
    an uninterrupted run."""
    import binokel_sim.batch as batch

    hands = tmp_path / "hands.txt"
    hands.write_text(f"{HAND_80}\n{HAND_80.replace('KC', 'QC')}\n{HAND_80}\n")
    args = ["batch", "--hands-file", str(hands), "--deals", "2000", "--seed", "2"]
    ok(*args, "--out", str(tmp_path / "whole.csv"))
    real = batch.summarize_hand

    def interrupted(rules, row, index, *rest):
        if index == 1:
            raise KeyboardInterrupt
        return real(rules, row, index, *rest)

    target = tmp_path / "odds.csv"
    monkeypatch.setattr(batch, "summarize_hand", interrupted)
    assert invoke(*args, "--out", str(target)).exit_code == 130
    monkeypatch.setattr(batch, "summarize_hand", real)
    ok(*args, "--out", str(target), "--resume", "--scheduler", cluster.scheduler_address)
    assert target.read_bytes() == (tmp_path / "whole.csv").read_bytes()
    assert not list(tmp_path.glob("*.partial.jsonl"))


# --- the library: every driver through a DaskBackend ----------------------------------------------

def test_library_results_are_identical(dask_backend, small_tasks):
    two = find_variant("two-hand-48")
    local = run_meld_counts(two, 100_000, 1)
    remote = run_meld_counts(two, 100_000, 1, backend=dask_backend)
    assert np.array_equal(local.count_hist, remote.count_hist)
    assert np.array_equal(local.total_hist, remote.total_hist)
    assert meld_odds(two, 70_000, 2).equals(meld_odds(two, 70_000, 2, backend=dask_backend))

    rules = find_variant("four-hand-80")
    hand = parse_hand(rules.example_hand, rules)
    a, b = bid_odds(rules, hand, 3000, 1), bid_odds(rules, hand, 3000, 1, backend=dask_backend)
    assert a["rows"].equals(b["rows"]) and a["by_trump"] == b["by_trump"]

    widow = find_variant("four-hand-widow-48")
    hand = parse_hand(widow.example_hand, widow)
    a = bid_odds(widow, hand, 3000, 1)
    b = bid_odds(widow, hand, 3000, 1, backend=dask_backend)
    assert a.pop("rows").equals(b.pop("rows")) and a == b

    talon = find_variant("two-hand-48")
    hand = parse_hand(talon.example_hand, talon)
    assert deal_odds(talon, hand, parse_card("9H"), "dealer", 3000, 1, "heuristic") == \
        deal_odds(talon, hand, parse_card("9H"), "dealer", 3000, 1, "heuristic",
                  backend=dask_backend)

    for name in ("four-hand-80", "three-hand-auction-48"):
        rules = find_variant(name)
        assert contests.duel_summary(rules, "heuristic", "random", 3000, 2) == \
            contests.duel_summary(rules, "heuristic", "random", 3000, 2, backend=dask_backend)
        assert contests.match_summary(rules, "heuristic", "random", 500, 2) == \
            contests.match_summary(rules, "heuristic", "random", 500, 2, backend=dask_backend)


def test_task_errors_come_back_as_they_are(dask_backend):
    with pytest.raises(SimulationError, match="unknown policy"):
        dask_backend.map(contests.duel_task, [(find_variant("two-hand-48"), "clever", "random",
                                              1, 0, 10, None, None, "full", None)])


def test_progress_reaches_the_total_as_tasks_finish(dask_backend, small_tasks):
    calls = []
    run_meld_counts(find_variant("two-hand-48"), 200_000, 1, backend=dask_backend,
                    progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (200_000, 200_000) and len(calls) == 5  # 13 blocks: 5 tasks
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


# --- the tasks ------------------------------------------------------------------------------------

def test_task_ranges_are_whole_blocks_and_cover_the_run():
    assert bk.task_ranges(10, 3, 2) == [(0, 0, 6), (2, 6, 4)]
    for total, block, per in ((1, 1024, 256), (10**6, 1024, 256), (3 * 16384 + 5, 16384, 1)):
        ranges = bk.task_ranges(total, block, per)
        assert sum(n for *_, n in ranges) == total
        assert all(first == b * block for b, first, _ in ranges)
        assert all(n == block * per for *_, n in ranges[:-1])


class Recording:
    """A backend that notes the tasks it is given and runs them with another."""

    def __init__(self, inner):
        self.inner, self.tasks = inner, []

    def threads_for(self, threads):
        return self.inner.threads_for(threads)

    def map(self, fn, tasks, sizes=None, progress=None):
        self.tasks += [t[:-1] for t in tasks]  # all but the threads a task may use
        return self.inner.map(fn, tasks, sizes, progress)


@pytest.mark.parametrize("workers", [1, 2])
def test_tasks_do_not_depend_on_the_workers(workers, small_tasks):
    from distributed import Client, LocalCluster

    def tasks_of(backend):
        spy = Recording(backend)
        run_meld_counts(find_variant("two-hand-48"), 150_000, 1, backend=spy)
        contests.duel_summary(find_variant("two-hand-48"), "random", "random", 5000, 1,
                             backend=spy)
        contests.match_summary(find_variant("two-hand-48"), "random", "random", 600, 1,
                              backend=spy)
        return spy.tasks

    here = tasks_of(bk.LocalBackend())
    assert len(here) == 4 + 3 + 3
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=False,
                      dashboard_address=None, scheduler_kwargs=bk.QUIET_SCHEDULER,
                      silence_logs=40) as cluster, \
            Client(cluster, set_as_default=False) as client:
        assert tasks_of(bk.DaskBackend(client)) == here


def test_duel_numerators_are_exact():
    """A deal's A minus B is a mean over k seatings of differences with a mean over k - 1
    sides: times k (k - 1) it is an integer, recovered exactly from the float."""
    for name in ("two-hand-48", "three-hand-72", "three-hand-auction-48"):
        rules = find_variant(name)
        diff = contests.duel(rules, "heuristic", "random", 2000, 3)
        scale = contests.duel_scale(rules)
        scaled = np.rint(diff * scale)
        assert np.abs(diff * scale - scaled).max() < 1e-6
        assert np.array_equal(scaled / scale, diff) or name.startswith("three")
        task = contests.duel_task((rules, "heuristic", "random", 3, 0, 2000, None, None,
                                    "full", None))
        assert task == {"deals": 2000, "sum": int(scaled.sum()),
                        "sum_sq": int((scaled * scaled).sum())}


def test_task_results_add_exactly():
    a = {"n": 2, "h": [Hist.of([1, 2, 2])], "x": np.array([1, 2], dtype=np.int64)}
    b = {"n": 3, "h": [Hist.of([-4, 2])], "x": np.array([0, 5], dtype=np.int64)}
    total = bk.total([a, b])
    assert total["n"] == 5 and total["h"][0] == Hist.of([1, 2, 2, -4, 2])
    assert total["x"].tolist() == [1, 7]
    with pytest.raises(ValueError, match="floats"):
        bk.add({"n": 1.5}, {"n": 2.0})
    with pytest.raises(ValueError, match="integer arrays"):
        bk.add(np.zeros(2), np.zeros(2))


@pytest.mark.parametrize("seed", range(40))
def test_quantiles_from_a_histogram_equal_numpy(seed):
    """deal-odds reads its score quantiles off the score histogram: the floats of
    ``np.percentile`` on the samples (linear interpolation), for any sample."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 3000)) if seed % 4 else int(rng.integers(1, 6))
    samples = rng.integers(-60, int(rng.integers(1, 900)), n)
    if seed % 5 == 0:
        samples = rng.choice([-20, 0, 10, 11, 250], n)  # few values, many ties
    hist = Hist.of(samples)
    q = (10, 50, 90)
    assert [hist.percentile(p) for p in q] == [float(v) for v in np.percentile(samples, q)]
    for p in (0, 1, 25, 33.3, 99.9, 100):
        assert hist.percentile(p) == float(np.percentile(samples, p))
    assert hist.sum() == int(samples.sum()) and hist.sum_sq() == int((samples ** 2).sum())


# --- options and errors ---------------------------------------------------------------------------

def test_workers_without_dask_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    for args in (["meld-odds", "--deals", "1000"], ["bid-odds", "--deals", "1000"],
                 ["duel", "--deals", "100"], ["match", "--games", "10"],
                 ["deal-odds", "--deals", "100"]):
        assert_one_line_error(invoke(*args, "--workers", "2"), 'pip install "binokel-sim[dask]"')
    with pytest.raises(SimulationError, match=r"binokel-sim\[dask\]"):
        with bk.open_backend(scheduler="tcp://127.0.0.1:8786"):
            pass


def test_bad_backend_options_are_one_line_errors(monkeypatch):
    monkeypatch.setattr(bk, "CONNECT_TIMEOUT", 1)
    assert_one_line_error(invoke("meld-odds", "--workers", "2", "--scheduler", "tcp://x:1"),
                          "--workers or --scheduler")
    assert_one_line_error(invoke("duel", "--workers", "0"), "--workers")
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = time.monotonic()
    assert_one_line_error(invoke("meld-odds", "--scheduler", f"tcp://127.0.0.1:{port}"),
                          "cannot reach the Dask scheduler", f"127.0.0.1:{port}")
    assert time.monotonic() - started < 30
    assert_one_line_error(invoke("bid-odds", "--scheduler", "nonsense"), "tcp://HOST:PORT")


def test_workers_do_not_apply_to_exact_meld_odds():
    result = ok("meld-odds", "--exact", "--workers", "2", "--format", "json")
    assert "warning: --workers does not apply to --exact" in result.stderr
    assert json.loads(result.stdout)["provenance"]["method"] == "exact"


def test_one_and_two_local_workers_give_the_same_numbers(small_tasks):
    """``--workers K`` starts K worker processes: the numbers are the local run's for any K."""
    args = ["bid-odds", "--deals", "5000", "--seed", "11", "--format", "json"]
    local = ok(*args).stdout
    for workers in ("1", "2"):
        result = ok(*args, "--workers", workers)
        assert result.stdout == local and result.stderr == ""


# --- local worker processes: what reaches stderr -------------------------------------------------

def python(code: str, **env: str) -> subprocess.CompletedProcess:
    """``code`` run by a fresh interpreter of this checkout (its own stderr, as a command's)."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT),
                                                      **env})


def test_workers_2_print_the_local_bytes_and_nothing_else():
    """``--workers 2`` from the shell, a few times: the local run's stdout and stderr (its
    warning), never a traceback of the cluster's shutdown."""
    args = ["bid-odds", "--deals", "3000", "--seed", "4", "--format", "json"]
    local = cli(*args)
    assert local.returncode == 0, local.stderr
    for _ in range(3):
        run = cli(*args, "--workers", "2")
        assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
        assert run.stdout == local.stdout and run.stderr == local.stderr


NOISY_WORKERS = """
import logging, threading, time
from binokel_sim.backend import open_backend

def noisy_when_closing(dask_worker):
    # as a worker whose heartbeat meets the closing scheduler: an ERROR with a traceback, here
    # every 5 ms from the moment the worker closes
    def loop():
        while dask_worker.status.name == "running":
            time.sleep(0.002)
        while True:
            try:
                raise OSError("stream is closed")
            except OSError:
                logging.getLogger("distributed.worker").exception("heartbeat failed")
            time.sleep(0.005)
    threading.Thread(target=loop, daemon=True).start()

if __name__ == "__main__":
    with open_backend(workers=2) as backend:
        backend.client.run(noisy_when_closing)
        print(backend.map(abs, [-1, -2]))
"""


def test_what_local_workers_log_while_they_close_is_not_printed():
    result = python(NOISY_WORKERS)
    assert result.returncode == 0 and result.stdout == "[1, 2]\n"
    assert result.stderr == ""


FAILING_TASKS = """
import os, sys
from binokel_sim import contests
from binokel_sim.backend import open_backend
from binokel_sim.simulate import SimulationError
from binokel_sim.variants import find_variant

def die(_):
    os._exit(3)

if __name__ == "__main__":
    task = (find_variant("two-hand-48"), "clever", "random", 1, 0, 10, None, None, "full",
            None)
    with open_backend(workers=2) as backend:
        for fn, tasks in ((contests.duel_task, [task]), (die, [0])):
            try:
                backend.map(fn, tasks)
            except SimulationError as exc:
                print(exc)
"""


def test_a_failing_task_on_local_workers_is_its_one_error():
    """A task's error comes back as it is, without the worker's "Compute Failed" report; a worker
    that dies running a task is one line (distributed's scheduler logs it once too)."""
    result = python(FAILING_TASKS, DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES="0")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2 and lines[0].startswith("unknown policy 'clever'")
    assert lines[1].startswith("a task's Dask worker died")
    assert "Compute Failed" not in result.stderr and "Traceback" not in result.stderr


# --- a real cluster: `dask scheduler` and two `dask worker` processes -----------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=15)


@pytest.fixture(scope="module")
def real_cluster(request, tmp_path_factory):
    """``dask scheduler`` on a free loopback port and two ``dask worker --nthreads 1``, each its
    own process group, stopped when the module's tests are done (or a start fails)."""
    from distributed import Client

    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    logs = tmp_path_factory.mktemp("dask")
    processes: list[subprocess.Popen] = []

    def start(name: str, *args: str) -> None:
        log = open(logs / f"{name}.log", "w")
        processes.append(subprocess.Popen([sys.executable, "-m", "dask", *args], stdout=log,
                                          stderr=subprocess.STDOUT, start_new_session=True,
                                          cwd=logs))

    def stop_all() -> None:
        for process in reversed(processes):
            _stop(process)

    request.addfinalizer(stop_all)
    start("scheduler", "scheduler", "--host", "127.0.0.1", "--port", str(port),
          "--no-dashboard", "--dashboard-address", "127.0.0.1:0")
    for i in range(2):
        start(f"worker{i}", "worker", address, "--nthreads", "1", "--no-dashboard",
              "--no-nanny", "--host", "127.0.0.1")
    deadline = time.monotonic() + 60
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            if time.monotonic() > deadline or processes[0].poll() is not None:
                pytest.fail(f"dask scheduler did not start: {(logs / 'scheduler.log').read_text()}")
            time.sleep(0.2)
    with Client(address, timeout="30s", set_as_default=False) as client:
        client.wait_for_workers(2, timeout=60)
    return address


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "binokel_sim.cli", *args], capture_output=True,
                          text=True, timeout=300, cwd=ROOT)


@pytest.mark.parametrize("args", [
    ["meld-odds", "--variant", "two-hand-48", "--deals", str(BLOCK_SIZE * bk.MELD_TASK_BLOCKS
                                                             + 100_000), "--seed", "5"],
    ["bid-odds", "--variant", "three-hand-auction-48", "--deals",
     str(1024 * bk.BID_TASK_BLOCKS + 3000)],
], ids=["meld-odds", "bid-odds"])
def test_a_real_scheduler_and_two_workers_give_the_local_bytes(real_cluster, args):
    """Two tasks (the second short), run by two `dask worker` processes."""
    local = cli(*args, "--format", "json")
    assert local.returncode == 0, local.stderr
    remote = cli(*args, "--format", "json", "--scheduler", real_cluster)
    assert remote.returncode == 0, remote.stderr
    assert remote.stdout == local.stdout
