"""``play``: whole simulated deals as records, streamed a chunk of deals at a time."""

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from binokel_sim.cli.base import (
    CardNotation,
    CardsOpt,
    DefaultPolicyOpt,
    RulesOpt,
    SamplesOpt,
    SamplesPerMoveOpt,
    SeedOpt,
    ThreadsOpt,
    VariantOpt,
    cards_provenance,
    check_duration,
    clamp_threads,
    command,
    domain_errors,
    given,
    progress_bar,
    progress_threshold,
    resolve_rules,
    samples_per_move_for,
    sampling_provenance,
    source,
    warn,
    wrote,
)
from binokel_sim.io import OutputError, atomic_file, check_output, is_stdout

STOPPED_STDOUT = "stopped by Ctrl-C; the output is incomplete"


class PlayFormat(str, Enum):
    jsonl = "jsonl"
    json = "json"
    parquet = "parquet"
    text = "text"


SUFFIXES = {".jsonl": PlayFormat.jsonl, ".json": PlayFormat.json,
            ".parquet": PlayFormat.parquet, ".txt": PlayFormat.text}


@command()
def play(
    variant: VariantOpt = "four-hand-80",
    rules_file: RulesOpt = None,
    deals: SamplesOpt = 10,
    seed: SeedOpt = 1,
    deal: Annotated[Optional[int], typer.Option(
        "--deal", metavar="I",
        help="Start at deal I of the seed's run (numbered from 0): its record is line I of "
             "--deals I+1; --deals then counts from I (default 1).")] = None,
    policy: DefaultPolicyOpt = None,
    samples_per_move: SamplesPerMoveOpt = None,
    threads: ThreadsOpt = None,
    fmt: Annotated[PlayFormat, typer.Option(
        "--format", "-f", metavar="FORMAT",
        help="jsonl, json, parquet (with --out) or text.")] = PlayFormat.jsonl,
    out_file: Annotated[Optional[Path], typer.Option(
        "--out", "-o", metavar="FILE",
        help="Write to .jsonl .json .parquet .txt (the suffix decides).")] = None,
    cards: CardsOpt = CardNotation.french,
) -> None:
    """Whole simulated deals, one record a deal: hands, auction or talon, trump, melds, every
    trick and the scores, streamed a chunk of deals at a time (any --deals in a few hundred MB).
    The record's fields: docs/commands.md.

    --deal I gives deal I of the seed's run without the run before it: only the earlier deals
    of its random-stream block are played again (at most 1,023; 7 with sampling).

    Example: binokel-sim play -v two-hand-48 --deals 5 --seed 1 --format jsonl
    Example: binokel-sim play --deals 2 --seed 1 --format text
    Example: binokel-sim play --seed 1 --deal 123456 --format text
    Example: binokel-sim play --deals 10000000 --policy random --out deals.parquet
    Example: binokel-sim play -n 5 --policy sampling -o s.jsonl
    Example: binokel-sim play -v binokel -n 1 --format text --cards german
    """
    from binokel_sim.analysis import provenance
    from binokel_sim.cards import card_notation
    from binokel_sim.engines.policies import default_policy
    from binokel_sim.records.stream import record_frames, write_records
    from binokel_sim.run_time import RECORDS_PER_S, Work, playout_seconds
    from binokel_sim.simulate import MAX_DEALS

    to_stdout = out_file is None or is_stdout(out_file)
    stopped = STOPPED_STDOUT if to_stdout else "stopped by Ctrl-C; nothing was written"
    with domain_errors(stopped):
        rules = resolve_rules(variant, rules_file)
        policy = policy if policy is not None else default_policy(rules)
        fmt = output_format(fmt, out_file)
        threads = clamp_threads(threads)
        samples_per_move = samples_per_move_for(samples_per_move, policy)
        if deal is not None and not given("deals"):
            deals = 1
        start = {} if deal is None else {"first_deal": deal}
        check_duration(Work(deals, "--deals", playout_seconds(rules, (policy,), samples_per_move),
                            serial=1 / RECORDS_PER_S), threads)
        run = provenance(rules, seed=seed, policy=policy, deals=deals, **start,
                         **sampling_provenance(samples_per_move, policy), **source(rules_file),
                         **cards_provenance(cards))
        # no bar over records printed on the same terminal
        quiet = to_stdout and sys.stdout.isatty()
        threshold = progress_threshold(policy)
        with progress_bar(deals, "playing", MAX_DEALS + 1 if quiet else threshold) as progress, \
                card_notation(cards.value):
            frames = record_frames(rules, deals, seed, policy, threads, progress,
                                   samples_per_move, first=deal or 0)
            if to_stdout:
                _to_stdout(frames, fmt.value, rules, run)
            else:
                _to_file(out_file, lambda f: write_records(frames, f, fmt.value, rules, run))
    if not to_stdout:
        wrote(out_file)


def output_format(fmt: PlayFormat, out_file: Optional[Path]) -> PlayFormat:
    """The format the records go out in: a file's suffix decides (a ``--format`` that says
    otherwise gets a warning); stdout takes ``--format``, but not Parquet."""
    if out_file is None or is_stdout(out_file):
        if fmt is PlayFormat.parquet:
            raise OutputError("Parquet cannot go to standard output; give --out FILE.parquet")
        return fmt
    check_output(out_file, suffixes=tuple(SUFFIXES))
    by_suffix = SUFFIXES[out_file.suffix.lower()]
    if given("fmt") and fmt is not by_suffix:
        warn(f"--format {fmt.value} ignored: {out_file.name} is written as {by_suffix.value} "
             f"(the suffix decides)")
    return by_suffix


def _to_file(path: Path, write) -> None:
    """``write(f)`` into an open binary file that appears at ``path`` whole or not at all."""
    with atomic_file(path, binary=True, suffixes=tuple(SUFFIXES)) as f:
        write(f)


def _to_stdout(frames, fmt: str, rules, run: dict) -> None:
    """Write to standard output; a reader that stops early (``| head``) ends the run quietly."""
    import os

    from binokel_sim.records.stream import write_records

    sys.stdout.flush()
    try:
        write_records(frames, sys.stdout.buffer, fmt, rules, run)
    except BrokenPipeError:
        # the reader is gone: point stdout at /dev/null so the interpreter's last flush is quiet
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        raise typer.Exit(0) from None
