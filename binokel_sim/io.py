"""Writing result tables through polars, with a provenance record, never half-written.

``-`` as a path means standard output; its format then comes from the command's ``--format``
(a file's comes from its suffix).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING

from binokel_sim.errors import OutputError  # noqa: F401  (re-exported)

if TYPE_CHECKING:
    import polars as pl

FORMATS = {".parquet": "parquet", ".csv": "csv", ".json": "json", ".jsonl": "jsonl"}
STDOUT = "-"


def check_output(path: str | Path, suffixes: tuple[str, ...] = tuple(FORMATS)) -> Path:
    """Fail before any work is done if ``path`` cannot take a result (one of ``suffixes``);
    ``-`` (standard output) always can."""
    p = Path(path)
    if is_stdout(p):
        return p
    if p.suffix.lower() not in suffixes:
        raise OutputError(f"cannot write {str(p)!r}: the suffix must be one of "
                          f"{', '.join(suffixes)}")
    try:
        return _check_folder(p)
    except OSError as exc:  # a name too long, a loop of links: the file system's own answer
        raise OutputError(f"cannot write {str(p)!r}: {exc.strerror or exc}") from None


def _check_folder(p: Path) -> Path:
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise OutputError(f"cannot write {str(p)!r}: folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK):
        raise OutputError(f"cannot write {str(p)!r}: folder {str(folder)!r} is not writable")
    if p.is_dir():
        raise OutputError(f"cannot write {str(p)!r}: it is a folder")
    os.remove(_temp_beside(p))  # the temporary file the writer makes: its name must fit too
    return p


def is_stdout(path: str | Path | None) -> bool:
    """Whether ``path`` is ``-``, standard output."""
    return path is not None and str(path) == STDOUT


def output_format(path: str | Path, fmt: str | None = None) -> str:
    """The format a result goes out in: the suffix's for a file, ``fmt`` for ``-``."""
    if is_stdout(path):
        if fmt not in ("csv", "json", "jsonl"):
            raise OutputError("--out - (standard output) needs --format csv, json or jsonl")
        return fmt
    return FORMATS[Path(path).suffix.lower()]


@contextmanager
def atomic_file(path: str | Path, binary: bool = False,
                suffixes: tuple[str, ...] = tuple(FORMATS)) -> Iterator[IO]:
    """An open file that appears at ``path`` (one of ``suffixes``) whole when the block ends and
    not at all when it raises (KeyboardInterrupt included); ``-`` yields standard output."""
    if is_stdout(path):
        yield sys.stdout.buffer if binary else sys.stdout
        return
    with temp_beside(check_output(path, suffixes)) as tmp:
        with open(tmp, "wb" if binary else "w", encoding=None if binary else "utf-8") as f:
            yield f


@contextmanager
def temp_beside(path: Path) -> Iterator[str]:
    """A temporary file name beside ``path``, renamed onto ``path`` when the block ends and
    removed when it raises (an OSError becomes an :class:`OutputError` naming ``path``)."""
    tmp = _temp_beside(path)
    try:
        yield tmp
        _publish(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise OutputError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _temp_beside(path: Path) -> str:
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError as exc:
        raise OutputError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
    os.close(fd)
    return tmp


def _publish(tmp: str, path: Path) -> None:
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes the file private; give it the usual mode
    os.replace(tmp, path)


def _atomic_write(path: Path, write) -> None:
    """Call ``write(temp_path)``, then rename the temp file onto ``path``; on any failure remove
    the temp file, so ``path`` appears whole or not at all."""
    with temp_beside(path) as tmp:
        write(tmp)


def write_text(text: str, path: str | Path) -> Path:
    """Write ``text`` (UTF-8) atomically, or to standard output for ``-``."""
    with atomic_file(path) as f:
        f.write(text)
    return Path(path)


def _literal(value) -> pl.Expr:
    import polars as pl  # imported where used: the CLI's start-up does not pay for it

    if isinstance(value, int) and not isinstance(value, bool):
        return pl.lit(value, dtype=pl.Int64)
    return pl.lit(None if value is None else str(value), dtype=pl.String)


def with_provenance(df: pl.DataFrame, provenance: dict) -> pl.DataFrame:
    """The table with one constant column per provenance field (seed, variant, version, ...):
    integers as Int64, everything else as strings, so files of different runs concatenate. A
    field the table has a column of its own for keeps the rows' values (``batch``'s ``seed``:
    row i was simulated with seed S + i; the run's S stays in the Parquet metadata)."""
    return df.with_columns([_literal(v).alias(k) for k, v in provenance.items()
                            if k not in df.columns])


def write_table(df: pl.DataFrame, path: str | Path, provenance: dict,
                fmt: str | None = None, result: dict | None = None) -> Path:
    """Write ``df`` with its provenance as Parquet, CSV, JSON or JSON lines, chosen by suffix
    (by ``fmt`` for ``-``, standard output).

    The provenance goes into constant columns (every format) and, for Parquet, also into the
    file's key-value metadata (key ``binokel_sim``; ``result``, the command's whole answer, under
    ``binokel_sim_result``). The file appears whole or not at all (temp file + rename).
    """
    p = check_output(path)
    fmt = output_format(p, fmt)
    table = with_provenance(df, provenance)
    if is_stdout(p):
        text = {"csv": table.write_csv, "json": table.write_json,
                "jsonl": table.write_ndjson}[fmt]()
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        sys.stdout.flush()
        return p
    metadata = {"binokel_sim": json.dumps(provenance)}
    if result is not None:
        metadata["binokel_sim_result"] = json.dumps(result)
    writers = {
        "parquet": lambda tmp: table.write_parquet(tmp, metadata=metadata),
        "csv": table.write_csv,
        "json": table.write_json,
        "jsonl": table.write_ndjson,
    }
    _atomic_write(p, writers[fmt])
    return p
