"""``play`` streams: records made a chunk of deals at a time equal the records of one whole run
(today's dict builders, :mod:`legacy_records`) for every engine family; the writers (JSON lines,
JSON array, Parquet with its metadata, stdout), the format rules, Ctrl-C, and a 2-million-deal
run under a memory ceiling."""

from __future__ import annotations

import dataclasses
import io
import json
import os
import signal
import subprocess
import sys
import time

import legacy_records
import numpy as np
import polars as pl
import pytest
from conftest import VARIANT_NAMES, assert_one_line_error, invoke, ok

from binokel_sim import __version__
from binokel_sim.engines.partnership import run_play
from binokel_sim.engines.sixty_six import run_play as run_sixty_six_play
from binokel_sim.engines.talon import run_play as run_talon_play
from binokel_sim.engines.widow import run_play as run_widow_play
from binokel_sim.game_blocks import GAME_BLOCK
from binokel_sim.records.sixty_six import deal_records as sixty_six_records
from binokel_sim.records.columns import dicts
from binokel_sim.records.stream import (
    CHUNK_DEALS,
    play_records,
    record_frames,
    record_schema,
    write_records,
)
from binokel_sim.simulate import SimulationError
from binokel_sim.variants import find_variant

WHOLE_RUN = {  # the driver of a whole run and today's dict builder, per engine family
    "four-hand-80": (run_play, legacy_records.deal_records),
    "two-hand-48": (run_talon_play, legacy_records.talon_records),
    "three-hand-72": (run_talon_play, legacy_records.talon_records),
    "four-hand-72": (run_talon_play, legacy_records.talon_records),
    "three-hand-auction-48": (run_widow_play, legacy_records.widow_records),
    "four-hand-widow-48": (run_widow_play, legacy_records.widow_records),
    "swabian-3-40": (run_widow_play, legacy_records.widow_records),
    "swabian-3-40-tournament": (run_widow_play, legacy_records.widow_records),
    "kreuz-4-40": (run_widow_play, legacy_records.widow_records),
    # a family newer than the stream: its one dict builder, over the whole run
    "sixty-six": (run_sixty_six_play,
                  lambda played: sixty_six_records(played.deals, played.table, played.rules.name)),
}
DEALS = GAME_BLOCK + 300  # two chunks of one block, the second one short


def whole_run(name: str, deals: int, seed: int, policy: str) -> list[dict]:
    run, build = WHOLE_RUN[name]
    return list(build(run(find_variant(name), deals, seed, policy)))


@pytest.mark.parametrize("policy", ["random", "heuristic"])
@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_chunked_records_equal_todays_records_of_one_run(name, policy):
    rules = find_variant(name)
    want = whole_run(name, DEALS, 11, policy)
    frames = list(record_frames(rules, DEALS, 11, policy, chunk=GAME_BLOCK))
    assert [f.height for f in frames] == [GAME_BLOCK, 300]
    got = [record for frame in frames for record in dicts(frame)]
    assert got == want
    assert [list(r) for r in got] == [list(r) for r in want]  # the keys in today's order
    assert all(frame.schema == record_schema(rules) for frame in frames)


def test_play_records_streams_the_same_records_on_any_thread_count(two_threads):
    rules = find_variant("two-hand-48")
    want = whole_run("two-hand-48", 600, 4, "heuristic")
    assert list(play_records(rules, 600, 4, "heuristic", threads=1)) == want
    assert list(play_records(rules, 600, 4, "heuristic", threads=two_threads)) == want


def test_deals_lost_before_play_and_passes_are_nulls():
    """A bid winner who may name no trump: ``trump`` and ``melds`` null, no tricks; a pass is
    ``"bid": null`` (made-up arrays, so that both cases are surely there)."""
    from binokel_sim.records.partnership import frame as deal_frame

    played = run_play(find_variant("four-hand-80"), 40, 2, "random")
    info = played.info.copy()
    info[::3, 3] = -1  # trump
    info[::3, 5] = 0  # tricks played
    info[1::5, 4] = 0  # no calls at all
    played = dataclasses.replace(played, info=info)
    want = list(legacy_records.deal_records(played, 2048))
    got = list(dicts(deal_frame(played, 2048)))
    assert got == want
    assert got[0]["trump"] is None and got[0]["melds"] is None and got[0]["tricks"] == []
    assert got[1]["bids"] == []
    assert any(call["bid"] is None for r in got for call in r["bids"])
    line = deal_frame(played, 2048).head(1).write_ndjson()
    assert '"trump":null' in line and '"melds":null' in line


def test_a_run_of_deals_starts_at_a_block():
    rules = find_variant("four-hand-80")
    with pytest.raises(SimulationError, match="multiple of"):
        run_play(rules, 10, 1, "random", first_deal=5)
    with pytest.raises(SimulationError, match="multiple of"):
        record_frames(rules, 10, 1, "random", chunk=1000)
    part = run_play(rules, 10, 1, "random", first_deal=GAME_BLOCK)
    whole = run_play(rules, GAME_BLOCK + 10, 1, "random")
    assert (part.hands == whole.hands[GAME_BLOCK:]).all()
    assert (part.info == whole.info[GAME_BLOCK:]).all()


# --- play --deal I: one deal of a run without the run before it ------------------------------

def deal_cases() -> list[tuple[str, str, int]]:
    """``(variant, policy, deal)``: every variant, every policy play accepts for it; deals past
    the first block (the run jumps to the deal's block) and inside it (it plays the block's
    earlier deals again). The solver takes seconds for 1,000 deals: a deal of the first block;
    sampling's blocks are 8 deals."""
    from binokel_sim.engines.policies import expert_plays, sampling_plays, solver_plays

    cases = []
    for name in VARIANT_NAMES:
        rules = find_variant(name)
        cases += [(name, policy, GAME_BLOCK + 37) for policy in ("random", "heuristic")]
        cases += [(name, "expert", GAME_BLOCK + 37)] if expert_plays(rules) else []
        cases += [(name, "heuristic+solver", 5)] if solver_plays(rules) else []
        cases += [(name, "sampling", 8 * 2 + 3)] if sampling_plays(rules) else []
    return cases


DEAL_CASES = deal_cases()


@pytest.mark.parametrize("name, policy, deal", DEAL_CASES)
def test_play_deal_is_the_record_of_the_whole_run(name, policy, deal):
    """``play --seed S --deal I`` prints byte for byte line I of ``play --seed S --deals I+1``."""
    common = ["play", "--variant", name, "--policy", policy, "--seed", "7",
              "--samples-per-move", "2"] if policy == "sampling" else \
        ["play", "--variant", name, "--policy", policy, "--seed", "7"]
    one = ok(*common, "--deal", str(deal)).stdout
    whole = ok(*common, "--deals", str(deal + 1)).stdout
    assert one.count("\n") == 1 and json.loads(one)["deal"] == deal
    assert one == whole.splitlines(keepends=True)[deal]


def test_play_deal_plays_only_its_block(monkeypatch):
    """The run behind ``--deal`` starts at the first deal of the deal's random-stream block: a
    run that asks for an earlier block's deals is a bug, not a slow path."""
    from binokel_sim.engines import partnership

    asked = []
    real = partnership.run_play

    def spy(rules, deals, seed, policy, threads=None, progress=None, first_deal=0, **options):
        asked.append((first_deal, deals))
        return real(rules, deals, seed, policy, threads, progress, first_deal, **options)

    monkeypatch.setattr(partnership, "run_play", spy)
    rules = find_variant("four-hand-80")
    frames = list(record_frames(rules, 3, 5, "random", first=3 * GAME_BLOCK + 100))
    assert asked == [(3 * GAME_BLOCK, 103)]
    assert [r["deal"] for f in frames for r in dicts(f)] == [3 * GAME_BLOCK + k
                                                           for k in (100, 101, 102)]


def test_deals_from_a_deal_on_cross_blocks_and_chunks():
    """``--deal I --deals N``: the whole run's records I .. I+N-1, across a block's end and a
    chunk's; the progress counts the records asked for."""
    rules = find_variant("three-hand-auction-48")
    first, n = GAME_BLOCK - 4, GAME_BLOCK + 10
    want = whole_run("three-hand-auction-48", first + n, 6, "random")[first:]
    seen = []
    frames = list(record_frames(rules, n, 6, "random", chunk=GAME_BLOCK, first=first,
                                progress=lambda done, total: seen.append((done, total))))
    assert [f.height for f in frames] == [4, GAME_BLOCK, 6]
    assert [r for f in frames for r in dicts(f)] == want
    assert seen == [(4, n), (GAME_BLOCK + 4, n), (n, n)]
    assert list(play_records(rules, n, 6, "random", first=first)) == want


def test_a_bad_first_deal_is_one_clear_error():
    assert_one_line_error(invoke("play", "--deal", "-1"), "--deal")
    with pytest.raises(SimulationError, match="--deal"):
        record_frames(find_variant("four-hand-80"), 10, 1, "random", first=10**11)


def test_bad_arguments_fail_before_the_first_chunk():
    rules = find_variant("four-hand-80")
    for args, needle in (((0, 1, "random"), "--deals"), ((5, 1, "clever"), "clever"),
                         ((5, -1, "random"), "--seed")):
        with pytest.raises(SimulationError, match=needle):
            record_frames(rules, *args)
        with pytest.raises(SimulationError, match=needle):
            play_records(rules, *args)


# --- writers ------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["four-hand-80", "four-hand-72", "three-hand-auction-48"])
def test_json_array_and_parquet_hold_the_jsonl_records(name):
    rules = find_variant(name)

    def written(fmt: str) -> bytes:
        f = io.BytesIO()
        frames = record_frames(rules, 2 * GAME_BLOCK + 7, 3, "random", chunk=GAME_BLOCK)
        write_records(frames, f, fmt, rules, {"variant": rules.name})
        return f.getvalue()

    lines = written("jsonl").decode().splitlines()
    records = [json.loads(line) for line in lines]
    assert len(records) == 2 * GAME_BLOCK + 7 and [r["deal"] for r in records] == \
        list(range(len(records)))
    assert json.loads(written("json")) == records
    table = pl.read_parquet(io.BytesIO(written("parquet")))
    assert table.schema == record_schema(rules)
    assert table.write_ndjson().splitlines() == lines


def test_cli_jsonl_equals_play_records_and_json_is_an_array():
    result = ok("play", "--deals", "7", "--seed", "5", "--policy", "random")
    want = list(play_records(find_variant("four-hand-80"), 7, 5, "random"))
    assert [json.loads(line) for line in result.stdout.splitlines()] == want
    assert json.loads(ok("play", "--deals", "7", "--seed", "5", "--policy", "random",
                         "--format", "json", "--out", "-").stdout) == want
    assert ok("play", "--deals", "7", "--seed", "5", "--policy", "random", "--out", "-"
              ).stdout == result.stdout


def test_cli_parquet_file_with_its_provenance(tmp_path):
    path = tmp_path / "deals.parquet"
    result = ok("play", "--variant", "two-hand-48", "--deals", "1500", "--seed", "3",
                "--policy", "random", "--out", str(path))
    assert result.stderr.strip() == f"wrote {path}"
    table = pl.read_parquet(path)
    assert table.height == 1500 and table.columns == list(record_schema(
        find_variant("two-hand-48")))
    assert table.schema["tricks"] == pl.List(pl.Struct({
        "leader": pl.Int64, "cards": pl.List(pl.String), "winner": pl.Int64,
        "declaration": pl.Struct({"meld": pl.String, "level": pl.Int64,
                                  "cards": pl.List(pl.String), "points": pl.Int64,
                                  "swap": pl.Boolean}),
        "draws": pl.List(pl.String)}))
    made = json.loads(pl.read_parquet_metadata(path)["binokel_sim"])
    assert made == {"variant": "two-hand-48", "version": __version__, "seed": 3,
                    "policy": "random", "deals": 1500}
    stdout = ok("play", "--variant", "two-hand-48", "--deals", "1500", "--seed", "3",
                "--policy", "random").stdout
    assert table.write_ndjson().splitlines() == stdout.splitlines()
    assert sorted(os.listdir(tmp_path)) == ["deals.parquet"]  # no temporary file left


def test_parquet_to_stdout_is_an_error():
    assert_one_line_error(invoke("play", "--deals", "2", "--format", "parquet"), "Parquet",
                          "--out")
    assert_one_line_error(invoke("play", "--deals", "2", "--format", "parquet", "--out", "-"),
                          "Parquet")


def test_the_suffix_decides_and_a_contradicting_format_is_warned(tmp_path):
    path = tmp_path / "deals.json"
    result = ok("play", "--deals", "3", "--format", "jsonl", "--out", str(path))
    assert len(json.loads(path.read_text())) == 3
    lines = result.stderr.strip().splitlines()
    assert lines[0].startswith("warning: --format jsonl") and "suffix" in lines[0]
    assert lines[1] == f"wrote {path}"
    quiet = ok("play", "--deals", "3", "--out", str(tmp_path / "deals.jsonl"))  # no --format
    assert not quiet.stderr.startswith("warning")
    text = tmp_path / "deals.txt"
    ok("play", "--deals", "2", "--out", str(text))
    assert text.read_text().count("\ndeal ") == 2
    assert_one_line_error(invoke("play", "--deals", "2", "--out", str(tmp_path / "d.csv")),
                          ".parquet", ".txt")


def test_threads_above_the_cores_are_clamped_with_a_warning():
    from binokel_sim.cli.base import numba_threads

    result = ok("play", "--deals", "3", "--threads", str(numba_threads() + 3))
    assert result.stderr.startswith("warning: --threads") and len(result.stdout.splitlines()) == 3


def test_ctrl_c_leaves_no_file_and_says_so_in_one_line(tmp_path, monkeypatch):
    from binokel_sim.records import partnership as records

    calls = []
    real = records.frame

    def interrupted(played, first_deal=0):
        calls.append(first_deal)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(played, first_deal)

    monkeypatch.setattr(records, "frame", interrupted)
    for name in ("deals.jsonl", "deals.parquet", "deals.txt"):
        calls.clear()
        result = invoke("play", "--deals", str(CHUNK_DEALS + 1), "--policy", "random",
                        "--out", str(tmp_path / name))
        assert result.exit_code == 130
        assert result.stderr.strip() == "stopped by Ctrl-C; nothing was written"
        assert os.listdir(tmp_path) == []
    calls.clear()
    result = invoke("play", "--deals", str(CHUNK_DEALS + 1), "--policy", "random")
    assert result.exit_code == 130
    assert result.stderr.strip() == "stopped by Ctrl-C; the output is incomplete"


def test_sigint_stops_a_parquet_run_cleanly(tmp_path):
    """A real Ctrl-C (SIGINT) while polars' sink writes: one line, exit 130, no file."""
    cmd = [sys.executable, "-m", "binokel_sim.cli", "play", "--deals", "10000000", "--policy",
           "random", "--out", str(tmp_path / "deals.parquet")]
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not os.listdir(tmp_path) and time.monotonic() < deadline:  # the temp file is open
        time.sleep(0.05)
    time.sleep(0.5)
    child.send_signal(signal.SIGINT)
    _, stderr = child.communicate(timeout=60)
    assert child.returncode == 130
    assert stderr.decode().strip() == "stopped by Ctrl-C; nothing was written"
    assert os.listdir(tmp_path) == []


# --- bounded memory -----------------------------------------------------------------------------

MEMORY_CEILING_MB = 600
GROWTH_CEILING_MB = 64  # 150,000 more deals held whole would take a few hundred MB


def peak_rss_mb(deals: int) -> float:
    """The peak RSS of a ``play --deals N --out -`` child (stdout thrown away), measured by a
    fresh Python process so that no other child counts."""
    measure = (
        "import resource, subprocess, sys\n"
        f"cmd = [sys.executable, '-m', 'binokel_sim.cli', 'play', '--deals', '{deals}',\n"
        "       '--policy', 'random', '--variant', 'four-hand-80', '--out', '-']\n"
        "subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    done = subprocess.run([sys.executable, "-c", measure], capture_output=True, text=True,
                          check=True)
    return int(done.stdout.strip()) / 1024  # ru_maxrss is in KiB on Linux


def test_long_runs_stream_in_bounded_memory():
    """A run's records stream (chunks of ``CHUNK_DEALS``): the peak RSS of a 200,000-deal run
    to stdout (about 300 MB of JSON, thrown away) is under the ceiling and within
    ``GROWTH_CEILING_MB`` of a 50,000-deal run's, where holding the 150,000 more deals' records
    or their JSON would add a few hundred MB."""
    small, large = peak_rss_mb(50_000), peak_rss_mb(200_000)
    assert large < MEMORY_CEILING_MB, f"peak RSS {large:.0f} MB"
    assert large - small < GROWTH_CEILING_MB, \
        f"peak RSS {small:.0f} MB for 50,000 deals, {large:.0f} MB for 400,000"


def test_hands_of_different_sizes_are_sorted_for_display():
    from binokel_sim.cards import counts_to_planes, format_counts, parse_cards
    from binokel_sim.records.columns import hands

    texts = [["AS TS 9C", "QH QH QH QH JD", ""], ["9S", "AC KC", "TD TD TD"]]
    counts = [[np.bincount(parse_cards(t), minlength=24) if t else np.zeros(24, np.int64)
               for t in deal] for deal in texts]
    planes = np.array([[counts_to_planes(c) for c in deal] for deal in counts])
    assert hands(planes).to_list() == [[format_counts(c) for c in deal] for deal in counts]
    assert hands(planes[:, 1]).to_list() == [format_counts(deal[1]) for deal in counts]
