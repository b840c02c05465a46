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


def check_output(path: str | Path) -> Path:
    """Fail before any work is done if ``path`` cannot take a result table."""
    p = Path(path)
    fmt = FORMATS.get(p.suffix.lower())
    if fmt is None:
        raise OutputError(f"cannot write {str(p)!r}: the suffix must be one of "
                          f"{', '.join(FORMATS)}")
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise OutputError(f"cannot write {str(p)!r}: folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK):
        raise OutputError(f"cannot write {str(p)!r}: folder {str(folder)!r} is not writable")
    if p.is_dir():
        raise OutputError(f"cannot write {str(p)!r}: it is a folder")
    return p


def with_provenance(df: pl.DataFrame, provenance: dict) -> pl.DataFrame:
    """The table with one constant column per provenance field (seed, variant, version, ...)."""
    return df.with_columns([pl.lit(v).alias(k) for k, v in provenance.items()])


def write_table(df: pl.DataFrame, path: str | Path, provenance: dict) -> Path:
    """Write ``df`` with its provenance as Parquet, CSV, JSON or JSON lines, chosen by suffix.

    The provenance goes into constant columns (every format) and, for Parquet, also into the
    file's key-value metadata. The file appears whole or not at all (temp file + rename).
    """
    p = check_output(path)
    fmt = FORMATS[p.suffix.lower()]
    table = with_provenance(df, provenance)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", dir=p.parent if str(p.parent) else ".")
    os.close(fd)
    try:
        if fmt == "parquet":
            table.write_parquet(tmp, metadata={"binokel_sim": json.dumps(provenance)})
        elif fmt == "csv":
            table.write_csv(tmp)
        elif fmt == "json":
            table.write_json(tmp)
        else:
            table.write_ndjson(tmp)
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return p
