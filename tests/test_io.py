"""Result files: every format carries the provenance, bad paths fail before anything is written,
and a failed write leaves nothing behind."""

from __future__ import annotations

import json
import os

import polars as pl
import pytest

from binokel_sim import __version__
from binokel_sim.analysis import provenance
from binokel_sim.io import OutputError, check_output, write_table
from binokel_sim.variants import find_variant

TABLE = pl.DataFrame({"meld": ["binokel", "binokel", "quint"], "count": [0, 1, 0],
                      "probability": [0.75, 0.25, 1.0]})
PROV = {"variant": "two-hand-48", "version": __version__, "method": "monte_carlo", "seed": 3,
        "deals": 100}


def read_back(path) -> pl.DataFrame:
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        return pl.read_parquet(path)
    if suffix == ".csv":
        return pl.read_csv(path)
    if suffix == ".json":
        return pl.read_json(path)
    return pl.read_ndjson(path)


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".json", ".jsonl", ".CSV"])
def test_write_table_with_provenance(tmp_path, suffix):
    path = tmp_path / f"odds{suffix}"
    assert write_table(TABLE, path, PROV) == path
    assert os.listdir(tmp_path) == [path.name]  # no temp file left behind
    df = read_back(path)
    assert df.columns == TABLE.columns + list(PROV)
    assert df.select(TABLE.columns).equals(TABLE)
    for key in ("seed", "variant", "deals", "version"):
        assert df[key].to_list() == [PROV[key]] * TABLE.height


def test_jsonl_is_one_object_a_line(tmp_path):
    path = write_table(TABLE, tmp_path / "odds.jsonl", PROV)
    lines = path.read_text().splitlines()
    assert len(lines) == TABLE.height
    for line, meld in zip(lines, TABLE["meld"]):
        row = json.loads(line)
        assert row["meld"] == meld and row["seed"] == 3 and row["variant"] == "two-hand-48"


def test_parquet_metadata_holds_the_provenance(tmp_path):
    path = write_table(TABLE, tmp_path / "odds.parquet", PROV)
    meta = pl.read_parquet_metadata(path)
    assert json.loads(meta["binokel_sim"]) == PROV


def test_provenance_record():
    record = provenance(find_variant("binokel-80"), seed=1, deals=10)
    assert record == {"variant": "four-hand-80", "version": __version__, "seed": 1, "deals": 10}


def test_same_table_same_bytes(tmp_path):
    for suffix in (".parquet", ".csv", ".json", ".jsonl"):
        a = write_table(TABLE, tmp_path / f"a{suffix}", PROV).read_bytes()
        b = write_table(TABLE, tmp_path / f"b{suffix}", PROV).read_bytes()
        assert a == b, suffix


def test_overwrite_replaces_the_file(tmp_path):
    path = tmp_path / "odds.csv"
    path.write_text("old\n")
    write_table(TABLE, path, PROV)
    assert read_back(path).height == TABLE.height


# --- paths that cannot be written -------------------------------------------------------------------

@pytest.mark.parametrize("name", ["odds.txt", "odds", "odds.xlsx", "odds.parquet.gz"])
def test_unknown_suffix(tmp_path, name):
    with pytest.raises(OutputError) as info:
        write_table(TABLE, tmp_path / name, PROV)
    assert name in str(info.value) and ".parquet" in str(info.value)
    assert os.listdir(tmp_path) == []


def test_missing_folder(tmp_path):
    path = tmp_path / "nowhere" / "odds.parquet"
    with pytest.raises(OutputError) as info:
        check_output(path)
    assert "nowhere" in str(info.value)
    with pytest.raises(OutputError):
        write_table(TABLE, path, PROV)
    assert os.listdir(tmp_path) == []


def test_path_is_a_folder(tmp_path):
    (tmp_path / "x.csv").mkdir()
    with pytest.raises(OutputError, match="folder"):
        write_table(TABLE, tmp_path / "x.csv", PROV)


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root may write into a read-only folder")
def test_read_only_folder(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(OutputError, match="not writable"):
            write_table(TABLE, folder / "odds.csv", PROV)
    finally:
        folder.chmod(0o700)


def test_relative_path_in_the_working_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert check_output("odds.json").name == "odds.json"
    write_table(TABLE, "odds.json", PROV)
    assert sorted(os.listdir(tmp_path)) == ["odds.json"]


# --- a failing writer leaves nothing behind ----------------------------------------------------------

WRITERS = {".parquet": "write_parquet", ".csv": "write_csv", ".json": "write_json",
           ".jsonl": "write_ndjson"}


@pytest.mark.parametrize("suffix", list(WRITERS))
def test_failed_write_leaves_no_file(tmp_path, monkeypatch, suffix):
    def half_write(self, file, *args, **kwargs):
        with open(file, "w") as fh:
            fh.write("partial")
        raise RuntimeError("disk full")

    monkeypatch.setattr(pl.DataFrame, WRITERS[suffix], half_write)
    with pytest.raises(RuntimeError, match="disk full"):
        write_table(TABLE, tmp_path / f"odds{suffix}", PROV)
    assert os.listdir(tmp_path) == []


def test_failed_write_keeps_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "odds.parquet"
    write_table(TABLE, path, PROV)
    before = path.read_bytes()

    def broken(self, *args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(pl.DataFrame, "write_parquet", broken)
    with pytest.raises(KeyboardInterrupt):
        write_table(TABLE.head(1), path, PROV)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["odds.parquet"]


def test_unwritable_folder_is_refused(tmp_path, monkeypatch):
    # (the read-only-folder test above cannot run as root; this one fakes the permission check)
    import binokel_sim.io as io_module

    monkeypatch.setattr(io_module.os, "access", lambda *args, **kwargs: False)
    with pytest.raises(OutputError, match="not writable"):
        write_table(TABLE, tmp_path / "odds.csv", PROV)
    assert os.listdir(tmp_path) == []


def test_a_failed_write_is_an_output_error_and_leaves_nothing(tmp_path, monkeypatch):
    # the folder passes the checks, then the write itself fails (disk full, /proc, ...)
    df = pl.DataFrame({"x": [1]})

    def fail(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pl.DataFrame, "write_csv", fail)
    with pytest.raises(OutputError, match="No space left"):
        write_table(df, tmp_path / "t.csv", {"seed": 1})
    assert list(tmp_path.iterdir()) == []


def test_written_files_get_the_usual_mode(tmp_path):
    umask = os.umask(0o022)
    try:
        path = write_table(pl.DataFrame({"x": [1]}), tmp_path / "t.csv", {"seed": 1})
    finally:
        os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o644


def test_provenance_columns_have_fixed_types(tmp_path):
    # a small and a huge seed must give the same schema, so result files concatenate
    a = write_table(pl.DataFrame({"x": [1]}), tmp_path / "a.parquet", {"seed": 5, "trump": "S"})
    b = write_table(pl.DataFrame({"x": [1]}), tmp_path / "b.parquet",
                    {"seed": 5_000_000_000, "trump": "S"})
    both = pl.concat([pl.read_parquet(a), pl.read_parquet(b)])
    assert both.schema["seed"] == pl.Int64 and both.schema["trump"] == pl.String
