"""The compile helper (binokel_sim/compile_helper.py), its plans, and the lock on numba's cache
(binokel_sim/cache_lock.py)."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import numba
import pytest

from binokel_sim import cache_lock, compile_helper
from binokel_sim.cli.warmup import ALL_VARIANTS, plan
from binokel_sim.kernel_cache import closure_hashes
from tests.conftest import ok

ROOT = Path(__file__).resolve().parents[1]
REMAKE = "run python scripts/compile_plans.py"


@pytest.fixture(scope="module")
def plans():
    found = compile_helper.read_plans()
    assert found is not None, f"{compile_helper.PLANS} is missing or unreadable: {REMAKE}"
    return found


def test_the_plans_are_recorded_from_the_current_kernels(plans):
    """A kernel edit leaves the plans behind (the helper then skips the changed modules'
    entries): record them again."""
    assert plans["numba"] == numba.__version__, f"the plans are for numba {plans['numba']}: " \
                                                f"{REMAKE}"
    current = closure_hashes()
    used = {compile_helper.module_path(m) for e in plans["plans"].values() for m, _, _ in e}
    changed = sorted(k for k in used if plans["closures"].get(k) != current.get(k))
    assert not changed, f"kernel sources changed since the plans: {changed[:5]}: {REMAKE}"


def test_every_warm_up_step_has_a_plan_whose_entries_resolve(plans):
    names = {compile_helper.plan_name(s.family, s.command, s.policies)
             for s in plan(list(ALL_VARIANTS))}
    assert names == set(plans["plans"])
    for name, entries in plans["plans"].items():
        assert entries, name
        for module, qualname, args in entries:
            dispatcher = compile_helper.resolve(module, qualname)
            assert dispatcher is not None, (name, module, qualname)
            assert isinstance(pickle.loads(args), tuple)
            assert compile_helper.module_path(module) in plans["closures"], module


def test_a_command_gets_its_steps_plan_or_its_familys_of_the_same_seats(plans):
    choose = compile_helper.choose
    assert choose(plans, "widow", "bid-odds", ("expert",)) == "widow bid-odds "
    assert choose(plans, "widow", "play", ("random",)) == "widow play random"
    assert choose(plans, "talon", "duel", ("sampling", "expert")) == "talon duel sampling"
    # no step of its own: the family's first of that kind of seats
    assert choose(plans, "widow", "batch", ("expert",)) == "widow bid-odds "
    assert choose(plans, "talon", "match", ("random",)) == "talon play random"
    # the heuristic proper where the family has no group of its own for it
    assert choose(plans, "widow", "bid-odds", ("heuristic",)) == "widow bid-odds "
    assert choose(plans, "partnership", "bid-odds", ("heuristic",)) == \
        "partnership bid-odds heuristic"
    assert choose(plans, "nobody", "play", ()) is None


def test_the_helper_starts_only_where_it_may(monkeypatch, plans):
    expected = SimpleNamespace(family="widow", command="bid-odds", policies=("expert",))
    started = []

    class Popen:
        def __init__(self, argv, **kwargs):
            started.append((argv, kwargs))

    monkeypatch.setattr(compile_helper.subprocess, "Popen", Popen)
    monkeypatch.setenv(compile_helper.ENV, "on")
    monkeypatch.setattr(compile_helper.os, "sched_getaffinity", lambda pid: {0, 1})
    assert compile_helper.start(expected) is not None
    argv, kwargs = started.pop()
    assert argv[1:] == ["-m", "binokel_sim.compile_helper", "widow bid-odds ", str(os.getpid())]
    assert kwargs["start_new_session"] and kwargs["stdout"] == subprocess.DEVNULL
    monkeypatch.setattr(compile_helper.os, "sched_getaffinity", lambda pid: {0})
    assert compile_helper.start(expected) is None  # one core: nothing to share it with
    monkeypatch.setattr(compile_helper.os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setenv(compile_helper.ENV, "off")
    assert compile_helper.start(expected) is None
    monkeypatch.setenv(compile_helper.ENV, "on")
    monkeypatch.setattr(compile_helper, "read_plans", lambda: {**plans, "numba": "0.1"})
    assert compile_helper.start(expected) is None  # plans of another numba
    assert not started
    monkeypatch.setattr(compile_helper, "read_plans", lambda: plans)

    def refused(argv, **kwargs):
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(compile_helper.subprocess, "Popen", refused)
    assert compile_helper.start(expected) is None  # the command compiles alone


def test_an_entry_of_a_changed_kernel_is_skipped(plans):
    name = "sixty_six deal-odds "
    stale = {**plans, "closures": {k: "0" * 64 for k in plans["closures"]}}
    assert compile_helper.run(name, plans=stale) == 0
    gone = {**plans, "plans": {name: [("binokel_sim.kernels.bits", "no_such_kernel",
                                       pickle.dumps(()))]}}
    assert compile_helper.run(name, plans=gone) == 0


SIXTY_SIX = ["deal-odds", "--variant", "sixty-six", "--deals", "2000", "--seed", "5", "-f",
             "json"]


def cold(tmp_path, helper: str, *argv: str, debug: bool = False):
    """``binokel-sim argv`` (or ``python argv`` when it starts with -c) in a new process on the
    cache ``tmp_path / 'cache'``, with the helper on or off."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           compile_helper.ENV: helper, "PYTHONPATH": str(ROOT)}
    if debug:
        env["NUMBA_DEBUG_CACHE"] = "1"
    head = [sys.executable] if argv[0] == "-c" else [sys.executable, "-m", "binokel_sim.cli"]
    done = subprocess.run([*head, *argv], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done


def test_a_cold_run_beside_its_helper_prints_what_a_warm_run_prints(tmp_path):
    """The command and its helper compile into one empty cache at the same time."""
    assert cold(tmp_path, "on", *SIXTY_SIX).stdout == ok(*SIXTY_SIX).stdout


def test_what_the_helper_compiles_is_what_the_command_loads(tmp_path):
    """The plan's signatures are the command's: after the helper's run on an empty cache, the
    command compiles none of the plan's kernels itself (it loads them) and prints the same."""
    name = "sixty_six deal-odds "
    entries = compile_helper.read_plans()["plans"][name]
    probe = "import sys; from binokel_sim import compile_helper as h; print(h.run(sys.argv[1]))"
    assert int(cold(tmp_path, "off", "-c", probe, name).stdout) == len(entries)
    run = cold(tmp_path, "off", *SIXTY_SIX, debug=True)
    lines = run.stdout.splitlines(keepends=True)  # numba prints its cache log on stdout
    assert "".join(x for x in lines if not x.startswith("[cache]")) == \
        ok(*SIXTY_SIX).stdout
    saved = [line for line in lines if line.startswith("[cache] data saved")]
    planned = {f"{m.rsplit('.', 1)[1]}.{q.rsplit('.', 1)[-1]}-" for m, q, _ in entries}
    again = [line for line in saved if any(p in line for p in planned)]
    assert not again, again[:3]


def test_the_lock_keeps_two_savers_of_one_function_apart(tmp_path, monkeypatch):
    """Two signatures of one function saved at once: without the lock both take data file 1
    and the index names one signature's code for the other."""
    from numba.core.caching import IndexDataCacheFile

    assert cache_lock.install()
    slow_index = IndexDataCacheFile._save_index

    def save_index(self, overloads):  # widen the window between reading and writing the index
        time.sleep(0.2)
        slow_index(self, overloads)

    monkeypatch.setattr(IndexDataCacheFile, "_save_index", save_index)
    files = [IndexDataCacheFile(str(tmp_path), "kernel.f-1.py311", "stamp") for _ in range(2)]
    savers = [threading.Thread(target=f.save, args=(key, f"code of {key}"))
              for f, key in zip(files, ("sig a", "sig b"))]
    for saver in savers:
        saver.start()
    for saver in savers:
        saver.join()
    index = IndexDataCacheFile(str(tmp_path), "kernel.f-1.py311", "stamp")
    assert index.load("sig a") == "code of sig a"
    assert index.load("sig b") == "code of sig b"
    assert (tmp_path / cache_lock.LOCK_NAME).exists()


def test_the_first_compilation_of_a_command_calls_the_hook_once(monkeypatch):
    """Whether the notice's line is on or off; never while the warm-up mutes it; once for each
    command (the page runs one after another in one process)."""
    from binokel_sim import compile_notice
    from binokel_sim.variants import find_variant

    calls = []
    before = compile_notice._first_miss  # the CLI's (compile_helper.start)
    compile_notice.on_first_miss(calls.append)
    try:
        compile_notice.mute(True)
        compile_notice.expect("play", find_variant("two-hand-48"), print)
        assert compile_notice.on_compile() is None and not calls
        compile_notice.mute(False)
        monkeypatch.setenv(compile_notice.ENV, "off")
        compile_notice.expect("duel", find_variant("two-hand-48"), print, ("sampling",))
        assert compile_notice.on_compile() is None  # no line
        assert compile_notice.on_compile() is None
        assert [(e.command, e.family, e.policies) for e in calls] == \
            [("duel", "talon", ("sampling",))]
        compile_notice.expect("play", find_variant("swabian-3-40"), print)  # the page's next job
        compile_notice.on_compile()
        assert [(e.command, e.family) for e in calls[1:]] == [("play", "widow")]
    finally:
        compile_notice.on_first_miss(before)
        compile_notice.done()


@pytest.mark.parametrize("argv", [[], ["widow bid-odds ", "x"], ["a", "1", "2"]])
def test_a_bad_helper_command_line_is_one_line(argv, capsys):
    assert compile_helper.main(argv) == 2
    err = capsys.readouterr().err
    assert err == compile_helper.USAGE + "\n"


def test_an_unknown_plan_is_one_line(capsys):
    assert compile_helper.main(["nobody play "]) == 2
    assert capsys.readouterr().err == f"no compile plan 'nobody play ' in {compile_helper.PLANS}\n"
