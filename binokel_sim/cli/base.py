"""What every ``binokel-sim`` command shares: the typer app, the consoles, the common options,
the error boundary and the progress bar.

Domain errors (bad cards, rules, output paths, run parameters) are caught here and printed as one
line on stderr with exit code 1; usage errors (an unknown option, a value of the wrong kind) are
one line too, with exit code 2 (:class:`App`); Ctrl-C, at any moment, is one line and exit code
130 (:func:`domain_errors`, and :meth:`App.invoke` around it). Every number on the command line
is read by :mod:`binokel_sim.numbers` (ASCII digits only; :class:`App` gives every integer and
float option its reader).
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
from typer.core import TyperGroup

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
from binokel_sim.numbers import NUMBER, WHOLE_NUMBER, read_float, read_int

if TYPE_CHECKING:
    from binokel_sim.variants import Rules

# Start-up: this module and the command modules import only typer, rich and light modules at
# the top; numpy, numba, polars and the kernels are imported inside the commands that use them,
# so `--help` answers quickly (tests/test_hygiene.py checks what `--help` imports).

try:  # typer 0.2x carries its own copy of click
    from typer._click import exceptions as _click_exceptions
    from typer._click import types as _click_types
except ImportError:  # pragma: no cover - an older typer on the click package
    from click import exceptions as _click_exceptions
    from click import types as _click_types


def _ascii_number_type(kind: type) -> type:
    """``kind`` (click's integer or float type, or a range of one) reading its value with
    :mod:`binokel_sim.numbers` first: click's own ``int()`` and ``float()`` take any Unicode
    digit (``--deals ٣`` would run 3 deals), ``nan`` and ``inf``."""
    whole = issubclass(kind, _click_types.IntParamType)
    reader, what = (read_int, WHOLE_NUMBER) if whole else (read_float, NUMBER)

    def convert(self, value, param, ctx):
        if isinstance(value, str):
            number = reader(value)
            if number is None:
                self.fail(f"{value!r} is not {what}", param, ctx)
            value = number
        return kind.convert(self, value, param, ctx)

    return type(f"Ascii{kind.__name__}", (kind,), {"convert": convert})


_NUMBER_TYPES: dict[type, type] = {}  # click's number type -> its ASCII reader


def ascii_number(param_type):
    """A copy of ``param_type`` that reads numbers as :mod:`binokel_sim.numbers` does, when it is
    one of click's number types (ranges included); else ``param_type`` itself."""
    import copy

    kind = type(param_type)
    if kind in _NUMBER_TYPES.values() or not issubclass(
            kind, (_click_types.IntParamType, _click_types.FloatParamType)):
        return param_type
    reader = _NUMBER_TYPES.setdefault(kind, _ascii_number_type(kind))
    converted = copy.copy(param_type)
    converted.__class__ = reader
    return converted


class App(TyperGroup):
    """The ``binokel-sim`` group: typer's, with three things kept in one place for every command.

    - Every integer and float option reads its value with :mod:`binokel_sim.numbers` (its type
      is replaced here, so no command can forget it).
    - A usage error is one line on stderr, ``error: ...``, with exit code 2 (typer draws a
      five-line panel).
    - Ctrl-C that reaches the group (outside a command's :func:`domain_errors`) is one line and
      exit code 130, like one inside it (typer would exit 130 without a word).
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for cmd in self.commands.values():
            for param in cmd.params:
                param.type = ascii_number(param.type)

    def main(self, *args, standalone_mode: bool = True, **kwargs):
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            code = super().main(*args, standalone_mode=False, **kwargs)
        except _click_exceptions.ClickException as exc:
            if type(exc).__name__ != "NoArgsIsHelpError":  # the help was shown: nothing to add
                _one_line("error: " + usage_message(exc))
            sys.exit(exc.exit_code)
        except typer.Abort:
            _one_line("error: aborted")
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx):
        _WRITTEN.clear()
        _PENDING.clear()
        _CHECKING[0] = True  # warnings wait until the input is checked (work_starts)
        try:
            result = super().invoke(ctx)
        except (typer.Exit, SystemExit) as exc:  # the command's own end (its Ctrl-C line said)
            code = getattr(exc, "exit_code", getattr(exc, "code", 0))
            if code in (0, None):
                work_starts()
            else:
                _refused()
            raise
        except BaseException as exc:
            _refused()
            if not interrupted(exc):
                raise
            _one_line(stopped_line())
            raise typer.Exit(130) from None
        work_starts()
        return result


def usage_message(exc) -> str:
    """A usage error as one line: click's message (its lines joined) and where help is."""
    message = " ".join(exc.format_message().split())
    ctx = getattr(exc, "ctx", None)
    where = f" ({ctx.command_path} -h for help)" if ctx is not None else ""
    return message + where


app = typer.Typer(
    help="Monte Carlo simulator and exact hand analyzer for Binokel and double-deck pinochle.\n\n"
         "Cards: rank + suit (AS 10H QS JD 9C; O/U for Ober/Unter) or German suit + rank "
         "(EA HZ LO SU): Eichel = C, Laub (Grün) = S, Herz = H, Schellen = D; --cards german "
         "shows them so (docs/commands.md, \"Card notation\").\n\n"
         "Example: binokel-sim bid-odds --deals 200000 --seed 1",
    no_args_is_help=True, pretty_exceptions_enable=False, cls=App,
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
_WRITTEN: list[str] = []  # the files this command has said it wrote (wrote()), for stopped_line
# A command's warning and note lines wait here while it still checks its input, and are shown
# once its work starts (work_starts) or it ends well: a refused run says its error alone.
_PENDING: list[str] = []
_CHECKING = [False]


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
    """One line on stderr about an option the run treats other than asked (shown once the
    input is checked: :func:`work_starts`)."""
    _say(f"warning: {message}")


def _say(line: str) -> None:
    if _CHECKING[0]:
        _PENDING.append(line)
    else:
        _one_line(line)


def _refused() -> None:
    """A run refused (or stopped) before its work: the warnings waiting are dropped, so that its
    error line stands alone."""
    _PENDING.clear()
    _CHECKING[0] = False


def work_starts() -> None:
    """The command's input is checked and its work begins: the warnings and notes said so far
    are shown, and later ones at once (a run refused before this point shows only its error;
    :meth:`App.invoke` calls this when a command ends well, :func:`progress_bar` (every
    simulation runs in one) and :func:`wrote` when work or output begins)."""
    _CHECKING[0] = False
    lines = list(_PENDING)
    _PENDING.clear()
    for line in lines:
        _one_line(line)


def _one_line(line: str) -> None:
    """``line`` on stderr as one line, whatever it quotes: a character that is not printable (a
    newline in a file name or a rules file's name, U+2028, a control character) is shown
    escaped, as Python writes it in a string."""
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in line)
    err.print(shown, markup=False, highlight=False, soft_wrap=True)


def interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` is Ctrl-C: a KeyboardInterrupt, or an error raised because of one (Python
    reports a KeyboardInterrupt that arrives inside a C call, numba's dispatcher's for one, as
    ``SystemError: ... returned a result with an exception set``, caused by it)."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or (None if exc.__suppress_context__ else exc.__context__)
    return False


def stopped_line() -> str:
    """What a run stopped by Ctrl-C says when its command has no more to say: that nothing was
    written, or which files were written before it."""
    if not _WRITTEN:
        return STOPPED
    return f"stopped by Ctrl-C after writing {', '.join(_WRITTEN)}"


@contextmanager
def domain_errors(stopped: str | Callable[[], str] = stopped_line) -> Iterator[None]:
    """Turn a domain error into one line on stderr and exit code 1, and Ctrl-C
    (:func:`interrupted`) into the line ``stopped`` (or what it returns, called then) and exit
    code 130 (the files being written are removed, :func:`io.atomic_file`)."""
    try:
        yield
    except (typer.Exit, SystemExit):
        raise
    except BaseException as exc:
        if interrupted(exc):  # first: an error while Ctrl-C was handled is still Ctrl-C
            _one_line(stopped() if callable(stopped) else stopped)
            raise typer.Exit(130) from None
        if isinstance(exc, DOMAIN_ERRORS):
            _one_line(f"error: {exc}")
            raise typer.Exit(1) from None
        if isinstance(exc, MemoryError):
            _one_line("error: not enough memory for a run this large; use fewer --deals")
            raise typer.Exit(1) from None
        raise


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


class CardNotation(str, Enum):
    """How a command shows cards (binokel_sim.cards.NOTATIONS)."""

    french = "french"
    german = "german"


# both notations are read everywhere; the mapping is in docs/commands.md, "Card notation"
CardsOpt = Annotated[CardNotation, typer.Option(
    "--cards", metavar="NOTATION", show_default=False,
    help="Show cards french (AS) or german (LO).")]


def shown_cards(cards: CardNotation):
    """The :class:`binokel_sim.cards.Notation` of ``--cards``."""
    from binokel_sim.cards import NOTATIONS

    return NOTATIONS[cards.value]


def cards_provenance(cards: CardNotation) -> dict:
    """The provenance field a run shown in German cards carries (none for French, the
    default: the output of a run without ``--cards`` is as it was)."""
    return {} if cards is CardNotation.french else {"cards": cards.value}


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
    cap = read_int(text)
    if cap is None or cap < 1:
        raise typer.BadParameter(f"{MAX_DEALS_ENV}={text!r} is not a positive integer "
                                 f"(digits 0-9)")
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


def wrote(path, more: str = "") -> None:
    """Every command that writes a file says so on stderr (``more``: what else came with it), and
    a Ctrl-C after it, that it did (:func:`stopped_line`)."""
    work_starts()
    _WRITTEN.append(str(path))
    _one_line(f"wrote {path}{more}")


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
    if "policy" in ctx.params and ctx.params["policy"] is None:  # the command's default policy
        from binokel_sim.engines.policies import default_policy

        policies += (default_policy(rules),)
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


def check_duration(work, threads: Optional[int], scheduler: Optional[str] = None) -> None:
    """Before a run: one ``note:`` line with its estimated time when it would take more than an
    hour; a :class:`SimulationError` when more than a day (:mod:`binokel_sim.run_time`; the
    threads are ``--threads`` clamped, or every core; ``--scheduler``'s cluster is announced,
    never refused)."""
    from binokel_sim.run_time import check_duration as estimate

    ctx = _current_context()
    line = estimate(work, threads if threads is not None else numba_threads(),
                    cluster=scheduler is not None,
                    can_cluster=ctx is not None and "scheduler" in ctx.params)
    if line is not None:
        note(line)  # shown as the work starts (progress_bar), after the command's last check


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
    work_starts()
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
    _say(f"note: {message}")


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
