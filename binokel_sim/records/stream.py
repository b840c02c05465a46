"""Whole simulated deals as a stream of record frames, and their writers (JSON lines, a JSON
array, Parquet, text): any number of deals in bounded memory.

A run is cut into chunks of :data:`CHUNK_DEALS` deals, whole random-stream blocks each (the
drivers' ``first_deal``), so the records are the same for any chunk size and thread count. While
a chunk is turned into its frame and written, the next chunk's deals are already being simulated
(the kernels release the GIL). Each chunk is one polars frame (the family's ``frame``:
:mod:`binokel_sim.records.partnership`, :mod:`binokel_sim.records.talon`,
:mod:`binokel_sim.records.widow`, one row a deal); JSON goes
out a chunk at a time, Parquet through polars' streaming sink (row groups of :data:`ROW_GROUP`).
"""

from __future__ import annotations

import io
import json
import textwrap
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor, wait
from typing import IO

import polars as pl

from binokel_sim.cards import card_notation, notation
from binokel_sim.engines import engine
from binokel_sim.game_blocks import GAME_BLOCK, stream_blocks
from binokel_sim.records import family_records
from binokel_sim.records.columns import dicts
from binokel_sim.simulate import MAX_DEALS, Progress, SimulationError, check_run, set_threads
from binokel_sim.variants import Rules

CHUNK_DEALS = 4 * GAME_BLOCK  # deals a chunk: small enough for little memory, big enough for speed
ROW_GROUP = 8192  # deals a Parquet row group (the sink holds about one in memory)
JSON_THREADS = 2  # a chunk's JSON is made in this many slices at once (polars frees the GIL)
FORMATS = ("jsonl", "json", "parquet", "text")


def record_schema(rules: Rules) -> pl.Schema:
    """The columns (the record's keys, in order) of every frame of a run of ``rules``."""
    return family_records(rules).schema(rules)


def record_frames(rules: Rules, deals: int, seed: int, policy: str, threads: int | None = None,
                  progress: Progress | None = None, samples_per_move: int | None = None,
                  chunk: int | None = None, first: int = 0) -> Iterator[pl.DataFrame]:
    """Simulate ``deals`` whole deals with ``policy`` on every seat, one frame per chunk of
    ``chunk`` deals (a multiple of ``GAME_BLOCK``; default :data:`CHUNK_DEALS`, one block for
    the slow sampling policy, so that progress shows), in order; ``progress(done, deals)`` after
    each. The arguments are checked here, before the first chunk is asked for.

    ``first``: the run's deals ``first .. first + deals - 1`` are those of a run from deal 0 (``play
    --deal``). A random-stream block's deals follow one another (the block's deck and stream
    carry over from deal to deal), so the run starts at the first deal of ``first``'s block
    (:func:`first_of_block`) and drops the rows before ``first``; no earlier block is played."""
    from functools import partial

    from binokel_sim.engines.policies import policy_id, sampling_options
    from binokel_sim.kernels.policies import POLICY_SAMPLING

    drivers = engine(rules)
    drivers.check(rules)
    check_run(deals, seed)
    if not 0 <= first <= MAX_DEALS - deals:
        raise SimulationError(f"--deal must be between 0 and {MAX_DEALS - deals:,}, got {first:,}")
    sampling = policy_id(policy, rules) == POLICY_SAMPLING
    run = partial(drivers.run_play, **sampling_options(rules, samples_per_move))
    set_threads(threads)
    if chunk is None:
        chunk = GAME_BLOCK if sampling else CHUNK_DEALS
    if chunk < 1 or chunk % GAME_BLOCK:
        raise SimulationError(f"a chunk must be a multiple of {GAME_BLOCK} deals, got {chunk}")
    # the cards are named in the notation of the caller's context (read now: the generator runs
    # on whichever thread pulls the frames, polars' own for Parquet)
    return _frames(rules, deals, seed, policy, threads, progress, chunk, run,
                   family_records(rules).frame, first, first_of_block(first, sampling),
                   notation().name)


def first_of_block(deal: int, sampling: bool) -> int:
    """The first deal of the random-stream block that deal ``deal`` of a ``play`` run belongs
    to (blocks of :data:`GAME_BLOCK` deals, of ``SAMPLED_BLOCK`` when the seats sample:
    :func:`binokel_sim.game_blocks.stream_blocks`)."""
    size, _ = stream_blocks(0, sampling, GAME_BLOCK)
    return deal - deal % size


def _frames(rules, deals, seed, policy, threads, progress, chunk, run, frame, first, start0,
            shown):
    end = first + deals
    starts = range(start0, end, chunk)

    def simulate(start: int):
        return run(rules, min(chunk, end - start), seed, policy, threads, None, start)

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="binokel-deals") as pool:
        ahead = pool.submit(simulate, starts[0])
        for i, start in enumerate(starts):
            played = ahead.result()
            if i + 1 < len(starts):
                ahead = pool.submit(simulate, starts[i + 1])  # simulated while this one is written
            with card_notation(shown):
                rows = frame(played, start)
            yield rows if start >= first else rows.slice(first - start)
            if progress is not None:
                progress(min(start + chunk, end) - first, deals)


# --- writers ------------------------------------------------------------------------------------

def write_jsonl(frames: Iterator[pl.DataFrame], f: IO[bytes]) -> None:
    """One JSON object a line, a deal a line."""
    with ThreadPoolExecutor(max_workers=JSON_THREADS, thread_name_prefix="binokel-json") as pool:
        for frame in frames:
            for part in _ndjson(frame, pool):
                f.write(part)


def write_json(frames: Iterator[pl.DataFrame], f: IO[bytes]) -> None:
    """One JSON array of the records, written a chunk at a time."""
    f.write(b"[")
    separator = b"\n"
    with ThreadPoolExecutor(max_workers=JSON_THREADS, thread_name_prefix="binokel-json") as pool:
        for frame in frames:
            lines = b"".join(_ndjson(frame, pool)).rstrip(b"\n")
            if lines:
                f.write(separator + lines.replace(b"\n", b",\n"))
                separator = b",\n"
    f.write(b"\n]\n")


def _ndjson(frame: pl.DataFrame, pool: ThreadPoolExecutor) -> list[memoryview]:
    """A frame as JSON lines in consecutive parts, made in memory (so that the file's own
    errors, a closed pipe say, reach the caller as Python raises them), the parts serialised side
    by side."""
    def lines(part: pl.DataFrame) -> memoryview:
        buffer = io.BytesIO()
        part.write_ndjson(buffer)
        return buffer.getbuffer()

    step = -(-frame.height // JSON_THREADS)
    if step < GAME_BLOCK:
        return [lines(frame)]
    return list(pool.map(lines, [frame.slice(i, step) for i in range(0, frame.height, step)]))


class _Stopped(Exception):
    """The run was stopped (Ctrl-C) while polars was pulling its frames."""


def write_parquet(frames: Iterator[pl.DataFrame], f: IO[bytes], schema: pl.Schema,
                  metadata: dict[str, str], row_group: int = ROW_GROUP) -> None:
    """One Parquet file, its list and struct columns as the records' nesting, ``metadata`` in
    its key-value metadata, row groups of ``row_group`` deals. polars' streaming engine pulls the
    frames (on one of its threads) and writes as they come, so memory stays bounded.

    The sink runs on a helper thread while this one waits: Ctrl-C then arrives here as a plain
    ``KeyboardInterrupt`` (not inside whatever Python code polars happens to be running), the
    frames stop at the next chunk, the sink ends and the interrupt goes on to the caller."""
    from polars.io.plugins import register_io_source

    stop = threading.Event()
    taken = []

    def source(with_columns, predicate, n_rows, batch_size) -> Iterator[pl.DataFrame]:
        if taken:
            raise SimulationError("the record stream can be written once")
        taken.append(True)
        for frame in frames:
            if stop.is_set():
                raise _Stopped
            yield frame if with_columns is None else frame.select(with_columns)

    def sink() -> None:
        register_io_source(source, schema=schema).sink_parquet(
            f, metadata=metadata, row_group_size=row_group, maintain_order=True)

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="binokel-parquet") as pool:
        job = pool.submit(sink)
        try:
            job.result()
        except KeyboardInterrupt:
            stop.set()
            wait([job])
            raise


def write_text(frames: Iterator[pl.DataFrame], f: IO[bytes], rules: Rules, heading: str) -> None:
    """The deals as a person reads them (:func:`binokel_sim.deal_text.deal_text`), after a
    heading (the run's provenance)."""
    from binokel_sim.deal_text import WIDTH, deal_text

    f.write("\n".join(textwrap.wrap(heading, WIDTH, subsequent_indent="    ")).encode() + b"\n")
    for frame in frames:
        text = "".join("\n" + deal_text(record, rules) for record in dicts(frame))
        f.write(text.encode())


def write_records(frames: Iterator[pl.DataFrame], f: IO[bytes], fmt: str, rules: Rules,
                  provenance: dict) -> None:
    """Write a run's frames to the open binary file ``f`` in ``fmt`` (:data:`FORMATS`). The
    provenance goes into Parquet's key-value metadata (key ``binokel_sim``, JSON) and the text's
    heading; JSON and JSON lines hold the records alone."""
    if fmt == "jsonl":
        write_jsonl(frames, f)
    elif fmt == "json":
        write_json(frames, f)
    elif fmt == "parquet":
        write_parquet(frames, f, record_schema(rules), {"binokel_sim": json.dumps(provenance)})
    elif fmt == "text":
        heading = "binokel-sim play: " + ", ".join(f"{k} {v}" for k, v in provenance.items())
        write_text(frames, f, rules, heading)
    else:
        raise ValueError(f"unknown record format {fmt!r}; known: {', '.join(FORMATS)}")
    f.flush()


def play_records(rules: Rules, deals: int, seed: int, policy: str, threads: int | None = None,
                 progress: Progress | None = None,
                 samples_per_move: int | None = None, first: int = 0) -> Iterator[dict]:
    """Simulate ``deals`` whole deals with ``policy`` on every seat; JSON-ready records, made a
    chunk of deals at a time as they are asked for (:func:`record_frames`), so any
    number of deals fits in memory. The arguments are checked at once. ``samples_per_move``:
    the sampling policy's deals per decision (None: its default); ``first``: the run's deals
    from ``first`` on (:func:`record_frames`)."""
    frames = record_frames(rules, deals, seed, policy, threads, progress, samples_per_move,
                           first=first)
    return (record for frame in frames for record in dicts(frame))
