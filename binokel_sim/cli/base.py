"""What every ``binokel-sim`` command shares: the typer app, the consoles, the common options,
the error boundary and the progress bar.

Domain errors (bad cards, rules, output paths, run parameters) are caught here and printed as one
line on stderr with exit code 1; typer itself answers usage errors with exit code 2.
"""

import importlib
import inspect
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)

from binokel_sim.constants import SAMPLES_PER_MOVE
from binokel_sim.errors import DOMAIN_ERRORS, RulesError, SimulationError
from binokel_sim.io import (
    FORMATS,
    STDOUT,
    check_output,
    is_stdout,
    output_format,
    write_table,
)

if TYPE_CHECKING:
    from binokel_sim.variants import Rules

# Start-up: this module and the command modules import only typer, rich and light modules at
# the top; numpy, numba, polars and the kernels are imported inside the commands that use them,
# so `--help` answers quickly (tests/test_hygiene.py checks what `--help` imports).

app = typer.Typer(
    help="Monte Carlo simulator and exact hand analyzer for Binokel and double-deck pinochle.\n\n"
         "Example: binokel-sim bid-odds --deals 200000 --seed 1",
    no_args_is_help=True, pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
out = Console()
err = Console(stderr=True)

# runs this large (about a second or more on two cores) get a progress bar on a terminal
PROGRESS_HANDS = 20_000_000  # meld-odds: hands dealt and scored
PROGRESS_DEALS = 100_000  # bid-odds, duel, play: deals played out
PROGRESS_SAMPLING = 200  # the same with a seat on the sampling policy (milliseconds a deal)
FEW_SAMPLES = 1_000  # below this many deals a result's intervals are wide enough to warn
STOPPED = "stopped by Ctrl-C; nothing was written"


class OddsFormat(str, Enum):
    table = "table"
    json = "json"


class RowsFormat(str, Enum):
    """A result on stdout: a table for people, the JSON document, or its rows as JSON lines or
    CSV (each row with the provenance columns, as ``--out`` files have them)."""

    table = "table"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"


def warn(message: str) -> None:
    """One line on stderr about an option the run treats other than asked."""
    err.print(f"warning: {message}", markup=False, highlight=False, soft_wrap=True)


@contextmanager
def domain_errors(stopped: str | Callable[[], str] = STOPPED) -> Iterator[None]:
    """Turn a domain error into one line on stderr and exit code 1, and Ctrl-C into the line
    ``stopped`` (or what it returns, called then) and exit code 130 (the files being written are
    removed, :func:`io.atomic_file`)."""
    try:
        yield
    except KeyboardInterrupt:
        line = stopped() if callable(stopped) else stopped
        err.print(line, markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(130) from None
    except DOMAIN_ERRORS as exc:
        err.print(f"error: {exc}", markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None
    except MemoryError:
        err.print("error: not enough memory for a run this large; use fewer --deals",
                  markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None


def _version(value: bool) -> None:
    if value:
        from binokel_sim import __version__

        out.print(f"binokel-sim {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[Optional[bool], typer.Option(
        "--version", callback=_version, is_eager=True, help="Print the version and exit.")] = None,
) -> None:
    """Monte Carlo simulator and exact hand analyzer for Binokel and double-deck pinochle."""


VariantOpt = Annotated[str, typer.Option(
    "--variant", "-v", help="Variant name or alias (binokel-sim variants).")]
RulesOpt = Annotated[Optional[Path], typer.Option(
    "--rules", help="House rules: a TOML rules file, instead of --variant.")]


PolicyOpt = Annotated[str, typer.Option(
    "--policy", help="heuristic, random, expert (the variants its knobs are fitted for), "
                     "heuristic+solver (two-hand-48) or sampling (slow); docs/commands.md.")]
DefaultPolicyOpt = Annotated[Optional[str], typer.Option(
    "--policy", show_default=False,
    help="expert (the default where its knobs are fitted: every built-in variant; else "
         "heuristic), heuristic, random, heuristic+solver (two-hand-48) or sampling (slow); "
         "the output names it; docs/commands.md.")]
SamplesPerMoveOpt = Annotated[Optional[int], typer.Option(
    "--samples-per-move", metavar="N", show_default=False,
    help=f"Sampling policy: deals per card decision (default {SAMPLES_PER_MOVE}; in the "
         "talon games at most: a card far behind, or at best a little better, leaves; one "
         "left ends the decision).")]
SamplesOpt = Annotated[int, typer.Option("--deals", "-n", metavar="N",
                                         callback=lambda value: cap_deals(value),
                                         help="Simulated deals.")]
KnownOpt = Annotated[Optional[list[str]], typer.Option(
    "--known", metavar="SEAT:CARDS",
    help="Cards a seat holds: partner:\"AS AS\".")]
VoidOpt = Annotated[Optional[list[str]], typer.Option(
    "--void", metavar="SEAT:SUIT",
    help="A suit a seat lacks: left:H.")]
SeedOpt = Annotated[int, typer.Option("--seed", "-s", metavar="S",
                                      help="Random seed.")]
ThreadsOpt = Annotated[Optional[int], typer.Option(
    "--threads", metavar="T", help="Worker threads (default: all cores).")]
WorkersOpt = Annotated[Optional[int], typer.Option(
    "--workers", metavar="K", help="Run on K local Dask workers.")]
SchedulerOpt = Annotated[Optional[str], typer.Option(
    "--scheduler", metavar="ADDRESS",
    help="Dask scheduler, tcp://HOST:PORT.")]


OddsFormatOpt = Annotated[OddsFormat, typer.Option("--format", "-f", metavar="FORMAT",
                                                   help="table or json on stdout.")]
RowsFormatOpt = Annotated[RowsFormat, typer.Option(
    "--format", "-f", metavar="FORMAT",
    help="table, json, jsonl or csv (also for --out -).")]

# The environment variable that caps every --deals and --games (the README's examples and
# tests/test_readme.py run with it); a capped run says so on stderr.
MAX_DEALS_ENV = "BINOKEL_SIM_MAX_DEALS"


def cap_deals(value: int, option: str = "--deals") -> int:
    """``value`` capped at :data:`MAX_DEALS_ENV` when that is set, with a warning line."""
    text = os.environ.get(MAX_DEALS_ENV)
    if text is None or text.strip() == "":
        return value
    try:
        cap = int(text)
        if cap < 1:
            raise ValueError
    except ValueError:
        raise typer.BadParameter(f"{MAX_DEALS_ENV}={text!r} is not a positive integer") \
            from None
    if value is not None and value > cap:
        warn(f"{option} {value:,} capped at {cap:,} by {MAX_DEALS_ENV}")
        return cap
    return value


EXAMPLE = "Example: "  # a line of a command's help that shows one command to paste


def command(name: Optional[str] = None):
    """``@app.command`` with the docstring's paragraphs re-flowed, so help wraps to the terminal
    (rich keeps a docstring's line breaks); a paragraph of ``Example:`` lines keeps one example a
    line (each fits 80 columns: tests/test_cli_help.py)."""
    def register(function):
        text = reflow(function.__doc__ or "")
        return app.command(name, help=text, short_help=first_sentence(text))(function)
    return register


def first_sentence(text: str) -> str:
    """The command list shows each command's first sentence; its help shows all."""
    paragraph = text.split("\n\n")[0]
    end = paragraph.find(". ")
    return paragraph if end < 0 else paragraph[:end + 1]


def reflow(doc: str) -> str:
    """Join each paragraph's lines into one (paragraphs stay apart); a paragraph of
    ``Example:`` lines keeps its lines, one example each."""
    paragraphs = inspect.cleandoc(doc).split("\n\n")
    return "\n\n".join(p if p.startswith(EXAMPLE) else
                       " ".join(line.strip() for line in p.splitlines()) for p in paragraphs)


def help_examples(help_text: str) -> list[str]:
    """The example command lines of a command's help (its ``Example:`` lines, without that)."""
    return [line.strip()[len(EXAMPLE):] for line in help_text.splitlines()
            if line.strip().startswith(EXAMPLE)]


def check_out(out_file: Optional[Path], fmt: Enum, suffixes: tuple[str, ...] = tuple(FORMATS)
              ) -> None:
    """Before any work: ``--out`` can be written; ``--out -`` needs a row format."""
    if out_file is None:
        return
    check_output(out_file, suffixes)
    if is_stdout(out_file):
        output_format(out_file, fmt.value)


def write_out(df, out_file: Optional[Path], record: dict, fmt: Enum,
              result: Optional[dict] = None) -> bool:
    """Write ``df`` with its provenance ``record`` to ``--out`` (``-``: stdout in ``fmt``) and
    say ``wrote FILE`` on stderr; ``result`` (the whole answer) goes into Parquet metadata too.
    Returns True when stdout was used (nothing else may go there)."""
    if out_file is None:
        return False
    write_table(df, out_file, record, fmt.value, result)
    if is_stdout(out_file):
        return True
    wrote(out_file)
    return False


def wrote(path) -> None:
    """Every command that writes a file says so on stderr."""
    err.print(f"wrote {path}", markup=False, highlight=False, soft_wrap=True)


def print_rows(df, record: dict, fmt: Enum) -> bool:
    """``--format jsonl|csv``: the rows with their provenance columns on stdout. Returns whether
    it printed (False: the caller shows the table or the JSON document)."""
    if fmt.value not in ("jsonl", "csv"):
        return False
    write_table(df, STDOUT, record, fmt.value)
    return True


def deliver(df, out_file: Optional[Path], record: dict, fmt: Enum, document: dict) -> bool:
    """Every output but the table: ``--out`` (:func:`write_out`), the rows on stdout for
    ``--format jsonl|csv`` and the JSON ``document`` for ``--format json``. Returns True when
    that was all (False: the caller prints its table)."""
    if write_out(df, out_file, record, fmt, document) or print_rows(df, record, fmt):
        return True
    if fmt.value == "json":
        print_json(document)
        return True
    return False


def print_json(document: dict) -> None:
    sys.stdout.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")


def resolve_rules(variant: str, rules_file: Optional[Path]) -> "Rules":
    """The rules of ``--rules FILE``, else of ``--variant``; both given is an error (the file
    would silently win)."""
    from binokel_sim.variants import find_variant, load_rules

    if rules_file is not None:
        if given("variant"):
            raise RulesError("give --variant or --rules, not both (a rules file names its own "
                             "variant)")
        rules = load_rules(rules_file)
    else:
        rules = find_variant(variant)
    _expect_compile(rules)
    return rules


def _expect_compile(rules: "Rules") -> None:
    """Should the command compile kernels (a cold numba cache), one line on stderr says so
    first (:mod:`binokel_sim.compile_notice`), until the command ends."""
    from binokel_sim import compile_notice

    ctx = _current_context()
    if ctx is None:
        return
    policies = tuple(value for key in ("policy", "a", "b")
                     if isinstance(value := ctx.params.get(key), str))
    compile_notice.expect(ctx.info_name, rules, lambda line: err.print(
        line, markup=False, highlight=False, soft_wrap=True), policies)
    ctx.call_on_close(compile_notice.done)


def given(parameter: str) -> bool:
    """Whether the user gave the running command's ``parameter`` (not left at its default)."""
    ctx = _current_context()
    source = None if ctx is None else ctx.get_parameter_source(parameter)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


def _current_context():
    """The running click context (newer typer versions carry their own copy of click)."""
    for module in ("typer._click.globals", "click.globals"):
        try:
            found = importlib.import_module(module).get_current_context(silent=True)
        except ImportError:
            continue
        if found is not None:
            return found
    return None


def clamp_threads(threads: Optional[int]) -> Optional[int]:
    """``--threads`` above the cores numba may use is clamped to them, with a warning."""
    limit = numba_threads()
    if threads is not None and threads > limit:
        warn(f"--threads {threads} is more than the {limit} cores here; using {limit}")
        return limit
    return threads


def numba_threads() -> int:
    """The most worker threads numba may use (its ``NUMBA_NUM_THREADS``, all cores by default)."""
    from numba import config

    return config.NUMBA_NUM_THREADS


def samples_per_move_for(samples_per_move: Optional[int], *policies: str) -> Optional[int]:
    """``--samples-per-move`` as the run reads it, checked: None (a warning line) when no policy
    samples, so that the option is never silently ignored."""
    if samples_per_move is None:
        return None
    from binokel_sim.engines.policies import check_samples_per_move

    check_samples_per_move(samples_per_move)
    if "sampling" not in policies:
        warn("--samples-per-move is read only by the sampling policy; ignored")
        return None
    return samples_per_move


def refuse_sampling(policy: str, command: str) -> None:
    """``command`` runs many deals per hand: the sampling policy (milliseconds a card) is
    refused there in one line."""
    if policy == "sampling":
        raise SimulationError(f"{command} does not take --policy sampling (milliseconds a card, "
                              f"for every deal of every hand); use bid-odds --policy sampling "
                              f"for one hand")


def sampling_provenance(samples_per_move: Optional[int], *policies: str,
                        inference: Optional[str] = None) -> dict:
    """``samples_per_move`` (and ``inference`` when given) for a result's provenance when a
    policy samples (:func:`binokel_sim.documents.sampling_fields`)."""
    from binokel_sim.documents import sampling_fields

    return sampling_fields(samples_per_move, *policies, inference=inference)


def progress_threshold(*policies: str) -> int:
    """The run size from which a progress bar shows: far fewer deals when a policy samples."""
    return PROGRESS_SAMPLING if "sampling" in policies else PROGRESS_DEALS


def warn_few(samples: int, what: str = "deals", option: str = "--deals") -> None:
    """A result from fewer than :data:`FEW_SAMPLES` samples says its intervals are wide."""
    if samples < FEW_SAMPLES:
        warn(f"only {samples:,} {what}: the 95% intervals are wide; use {option} "
             f"{FEW_SAMPLES:,} or more for usable odds")


def source(rules_file: Optional[Path]) -> dict:
    """Provenance of a run on a user's rules file (the variant name alone would not say which)."""
    return {} if rules_file is None else {"rules_file": str(rules_file)}


def parse_trump(text: str) -> int:
    from binokel_sim.cards import parse_trump

    return parse_trump(text)


@contextmanager
def progress_bar(total: int, label: str, threshold: int = PROGRESS_DEALS, done: int = 0
                 ) -> Iterator[Optional[Callable[[int, int], None]]]:
    """A rich progress bar on stderr for runs of ``threshold`` or more on a terminal, starting at
    ``done``; yields the callback the drivers call (None: no bar)."""
    if total < threshold or not err.is_terminal:
        yield None
        return
    columns = (TextColumn(label), BarColumn(), TaskProgressColumn(), TimeRemainingColumn())
    with Progress(*columns, console=err, transient=True) as bar:
        task = bar.add_task(label, total=total, completed=done)
        yield lambda done, _total: bar.update(task, completed=done)


def read_hands_file(path: Path) -> list[tuple[str, str]]:
    """``(where, hand text)`` per row of a hands file (:func:`binokel_sim.hands_file.read_hands`)."""
    from binokel_sim.hands_file import read_hands

    return [(row.where, row.hand) for row in read_hands(path)]


def note(message: str) -> None:
    """One line on stderr about a default the run used in place of an option not given."""
    err.print(f"note: {message}", markup=False, highlight=False, soft_wrap=True)


def example_hand_note(rules: "Rules", counts, turned: Optional[str]) -> None:
    """The ``note:`` line of a talon-game run on the example hand (said after the run, so that
    an error about an option stays the only line)."""
    from binokel_sim.cards import format_counts

    example = " ".join(format_counts(counts))
    card = "" if turned is not None else f" and turned card {rules.example_turned}"
    note(f"using the example hand of {rules.name} ({example}){card}; give --hand and --turned "
         f"for yours")


def bad_row(where: str, error: str, strict: bool, skipped: str) -> None:
    """A hands-file row that cannot be used (``batch``, ``analyze``): with ``--strict`` the run
    stops with one error line naming it; otherwise a warning line names it and the run goes on
    (``skipped`` says what became of the row)."""
    if strict:
        raise SimulationError(f"{where}: {error}")
    warn(f"{where}: {error} ({skipped})")
