"""``batch``: the summary odds of every hand in a file, one row per hand, resumable."""

import hashlib
import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from binokel_sim.cli.base import (
    DefaultPolicyOpt,
    RowsFormat,
    RowsFormatOpt,
    RulesOpt,
    SamplesOpt,
    SchedulerOpt,
    SeedOpt,
    ThreadsOpt,
    VariantOpt,
    WorkersOpt,
    bad_row,
    check_duration,
    check_out,
    clamp_threads,
    command,
    deliver,
    domain_errors,
    out,
    progress_bar,
    refuse_sampling,
    resolve_rules,
    source,
    warn,
    warn_few,
)
from binokel_sim.cli.render import Column, percent, percent_interval, points
from binokel_sim.cli.render import table as render_table
from binokel_sim.io import OutputError, check_output, is_stdout, temp_beside

PARTIAL = ".partial.jsonl"  # the rows finished so far, beside --out, until the run completes


def partial_path(out_file: Path) -> Path:
    return out_file.with_name(out_file.name + PARTIAL)


@command("batch")
def batch_cmd(
    hands_file: Annotated[Path, typer.Option(
        "--hands-file", metavar="FILE",
        help="One hand a line (- stdin), or CSV/Parquet with 'hand'.")],
    variant: VariantOpt = "four-hand-80",
    rules_file: RulesOpt = None,
    deals: SamplesOpt = 200_000,
    seed: SeedOpt = 1,
    policy: DefaultPolicyOpt = None,
    seat: Annotated[str, typer.Option(
        "--seat", help="Talon games: dealer or elder (rows without 'seat').")]
    = "elder",
    threads: ThreadsOpt = None,
    strict: Annotated[bool, typer.Option(
        "--strict", help="Stop at the first bad row (default: name it, go on).")] = False,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Go on with an interrupted run (needs --out).")] = False,
    out_file: Annotated[Optional[Path], typer.Option(
        "--out", "-o", metavar="FILE",
        help="Write the rows (.parquet .csv .json .jsonl; - stdout).")] = None,
    fmt: RowsFormatOpt = RowsFormat.table,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
) -> None:
    """The odds of every hand in a file, one row per hand: bid-odds' summary (auction games) or
    deal-odds' (talon games). Row i (0-based) uses seed S + i: the numbers of the single-hand
    command with that seed. A bad row is named on stderr and kept with its error. More:
    docs/commands.md.

    Example: echo "AS AS TS KS QS QS JS 9S AH KH QH AD JD KC QC" > hands.txt
    Example: binokel-sim batch -v binokel-3-48 --hands-file hands.txt -o o.parquet
    Example: binokel-sim batch -v binokel-3-48 --hands-file hands.txt -n 1000
    """
    from binokel_sim.analysis import provenance
    from binokel_sim.backend import open_backend
    from binokel_sim.batch import batch_frame, batch_schema, check_batch, summarize_task
    from binokel_sim.engines.policies import default_policy
    from binokel_sim.hands_file import read_hands
    from binokel_sim.odds.summary import dealer_field
    from binokel_sim.run_time import Work, odds_sample_seconds
    from binokel_sim.simulate import check_run

    with domain_errors():
        rules = resolve_rules(variant, rules_file)
        policy = policy if policy is not None else default_policy(rules)
        refuse_sampling(policy, "batch")
        check_batch(rules)
        check_run(deals, seed)
        threads = clamp_threads(threads)
        check_out(out_file, fmt)
        if resume and (out_file is None or is_stdout(out_file)):
            raise OutputError("--resume needs --out FILE (the finished rows are kept beside it)")
        rows_in = read_hands(hands_file)
        check_duration(Work(deals, "--deals", len(rows_in) * odds_sample_seconds(rules, policy)),
                       threads, scheduler)
        record = provenance(rules, method="monte_carlo", seed=seed, deals=deals, policy=policy,
                            hands_file=str(hands_file), **dealer_field(rules),
                            **source(rules_file))
        identity = {**record, "seat": seat, "strict": strict,
                    "hands": hashlib.sha256("\n".join(f"{r.where}\t{r.hand}\t{r.turned}\t{r.seat}"
                                                      for r in rows_in).encode()).hexdigest()}
        keep = _Checkpoint(out_file, identity, resume, list(batch_schema(rules)), len(rows_in))
        done = keep.rows()
        todo = [i for i in range(len(rows_in)) if i not in done]

    def stopped() -> str:
        if not keep.kept():  # no row finished yet (and none from before): no file to name
            return "stopped by Ctrl-C; nothing was written"
        return (f"stopped by Ctrl-C; {len(done)} of {len(rows_in)} hands are kept in {keep.path}: "
                f"run the same command with --resume to go on")

    with domain_errors(stopped), open_backend(workers, scheduler, threads) as backend, \
            progress_bar(len(rows_in), "hands", 1, len(done)) as progress:
        # one task a hand; on a cluster the rows finish in any order (the file is sorted)
        tasks = [(rules, rows_in[i], i, deals, seed, policy, backend.threads_for(threads), seat)
                 for i in todo]
        for _, row in backend.imap_unordered(summarize_task, tasks):
            i = row["row"]
            if row["error"] is not None:
                if strict:
                    keep.discard()
                bad_row(row["where"], row["error"], strict, "row skipped; see its error column")
            keep.add(row)
            done[i] = row
            if progress is not None:
                progress(len(done), len(rows_in))
    with domain_errors(stopped):  # until the output is whole, the finished rows are kept
        warn_few(deals)
        df = batch_frame(rules, list(done.values()))
        delivered = deliver(df, out_file, record, fmt, {"provenance": record,
                                                        "rows": df.to_dicts()})
        keep.finish()
    if delivered:
        return
    _print_batch(df)


def _print_batch(df) -> None:
    talon = "p_win" in df.columns
    if talon:
        columns = [Column("where", "hand", numeric=False), Column("turned", "turned"),
                   Column("p_win", "p_win", percent),
                   Column("ci", "95% interval", lambda b: percent_interval(*b)),
                   Column("mean_score", "mean score", points),
                   Column("mean_meld", "mean meld", points)]
        low, high = "p_win_ci_low", "p_win_ci_high"
    else:
        columns = [Column("where", "hand", numeric=False), Column("recommended_trump", "trump"),
                   Column("max_bid_positive_ev", "bid up to"),
                   Column("p_make_min_bid", "p_make at the minimum bid", percent),
                   Column("ci", "95% interval", lambda b: percent_interval(*b)),
                   Column("expected_score_min_bid", "expected score", points)]
        low, high = "p_make_min_bid_ci_low", "p_make_min_bid_ci_high"
    rows = [{**r, "ci": (r[low], r[high])} for r in df.iter_rows(named=True)]
    out.print(render_table([r for r in rows if r["error"] is None], columns))
    for r in rows:
        if r["error"] is not None:
            out.print(f"{r['where']}: {r['error']}", highlight=False)


class _Checkpoint:
    """The rows a run has finished, one JSON line each after a first line naming the run, in a
    file beside ``--out``; a run given ``--resume`` reads them back and goes on. The file is
    checked as it is read (a row of this batch's columns and rows on every line); a last line
    cut short by the stop is dropped, its row is simulated again."""

    def __init__(self, out_file: Optional[Path], identity: dict, resume: bool,
                 columns: list[str], n_rows: int):
        self.path = None if out_file is None or is_stdout(out_file) else partial_path(out_file)
        self.identity = json.loads(json.dumps(identity))
        self._columns = set(columns)
        self._n_rows = n_rows
        self._rows: dict[int, dict] = {}
        self._file = None
        if self.path is None:
            return
        check_output(self.path)  # the rows are kept beside --out: that name must work too
        if self.path.exists() and not resume:
            raise OutputError(f"{self.path} holds an interrupted run: add --resume to continue "
                              f"it, or delete it to start again")
        if resume and self.path.exists():
            self._read()
        elif resume:
            warn(f"--resume: no interrupted run at {self.path}; starting from the first hand")

    def _read(self) -> None:
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            reason = getattr(exc, "strerror", None) or "not UTF-8 text"
            raise OutputError(f"cannot resume from {self.path}: {reason}") from None
        if not lines:  # stopped before its first row was written
            return
        if _json_line(lines[0]) != {"batch": self.identity}:
            raise OutputError(f"cannot resume: {self.path} was made by a run with other "
                              f"arguments or hands; delete it to start again")
        for number, line in enumerate(lines[1:], start=2):
            row = _json_line(line)
            if self._is_row(row):
                self._rows[row["row"]] = row
            elif number < len(lines) and line.strip():
                raise OutputError(f"cannot resume from {self.path}: line {number} is not a row "
                                  f"of this batch; delete the file to start again")

    def _is_row(self, row) -> bool:
        return (isinstance(row, dict) and set(row) == self._columns
                and type(row["row"]) is int and 0 <= row["row"] < self._n_rows)

    def rows(self) -> dict[int, dict]:
        return dict(self._rows)

    def kept(self) -> bool:
        """Whether finished rows are in the file (this run's or an interrupted run's)."""
        return self.path is not None and self.path.exists()

    def add(self, row: dict) -> None:
        if self.path is None:
            return
        if self._file is None:
            # the header and the rows read back, written whole (temp file + rename), then
            # appended to: a line cut short by an earlier stop is gone
            with temp_beside(self.path) as tmp, open(tmp, "w", encoding="utf-8") as f:
                f.write(json.dumps({"batch": self.identity}) + "\n")
                for kept in self._rows.values():
                    f.write(json.dumps(kept) + "\n")
            try:
                self._file = open(self.path, "a", encoding="utf-8")
            except OSError as exc:
                raise OutputError(f"cannot write {str(self.path)!r}: {exc.strerror or exc}") \
                    from None
        self._file.write(json.dumps(row) + "\n")
        self._file.flush()

    def _close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def finish(self) -> None:
        """The output is whole: the finished rows are no longer needed."""
        self.discard()

    def discard(self) -> None:
        self._close()
        if self.path is not None:
            self.path.unlink(missing_ok=True)


def _json_line(line: str):
    """One line of the checkpoint as JSON, None when it is not JSON (cut short, edited)."""
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None
