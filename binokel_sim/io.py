"""Writing result tables through polars, with a provenance record, never half-written."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import polars as pl

FORMATS = {".parquet": "parquet", ".csv": "csv", ".json": "json", ".jsonl": "jsonl"}


class OutputError(ValueError):
    """An output path that cannot be written (unknown suffix, missing or read-only folder)."""


def check_output(path: str | Path, suffixes: tuple[str, ...] = tuple(FORMATS)) -> Path:
    """Fail before any work is done if ``path`` cannot take a result (one of ``suffixes``)."""
    p = Path(path)
    if p.suffix.lower() not in suffixes:
        raise OutputError(f"cannot write {str(p)!r}: the suffix must be one of "
                          f"{', '.join(suffixes)}")
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise OutputError(f"cannot write {str(p)!r}: folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK):
        raise OutputError(f"cannot write {str(p)!r}: folder {str(folder)!r} is not writable")
    if p.is_dir():
        raise OutputError(f"cannot write {str(p)!r}: it is a folder")
    return p


def _atomic_write(path: Path, write) -> None:
    """Call ``write(temp_path)``, then rename the temp file onto ``path``; on any failure remove
    the temp file, so ``path`` appears whole or not at all."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError as exc:
        raise OutputError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
    os.close(fd)
    try:
        write(tmp)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes the file private; give it the usual mode
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise OutputError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text(text: str, path: str | Path) -> Path:
    """Write ``text`` (UTF-8) atomically."""
    p = check_output(path)
    _atomic_write(p, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))
    return p


def _literal(value) -> pl.Expr:
    if isinstance(value, int) and not isinstance(value, bool):
        return pl.lit(value, dtype=pl.Int64)
    return pl.lit(None if value is None else str(value), dtype=pl.String)


def with_provenance(df: pl.DataFrame, provenance: dict) -> pl.DataFrame:
    """The table with one constant column per provenance field (seed, variant, version, ...):
    integers as Int64, everything else as strings, so files of different runs concatenate."""
    return df.with_columns([_literal(v).alias(k) for k, v in provenance.items()])


def write_table(df: pl.DataFrame, path: str | Path, provenance: dict) -> Path:
    """Write ``df`` with its provenance as Parquet, CSV, JSON or JSON lines, chosen by suffix.

    The provenance goes into constant columns (every format) and, for Parquet, also into the
    file's key-value metadata. The file appears whole or not at all (temp file + rename).
    """
    p = check_output(path)
    fmt = FORMATS[p.suffix.lower()]
    table = with_provenance(df, provenance)
    writers = {
        "parquet": lambda tmp: table.write_parquet(tmp, metadata={"binokel_sim":
                                                                  json.dumps(provenance)}),
        "csv": table.write_csv,
        "json": table.write_json,
        "jsonl": table.write_ndjson,
    }
    _atomic_write(p, writers[fmt])
    return p
