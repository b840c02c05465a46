"""A report's files: the checks before any work (matplotlib there, ``--out`` a folder that can
be written) and the writing, all or nothing (:func:`publish`, :func:`write_report`).

Nothing is written until every figure is drawn (in memory); :func:`publish` then writes the
files into a temporary folder beside the output folder (inside it when it exists) and moves them
into place.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from binokel_sim.io import OutputError
from binokel_sim.report import drawing
from binokel_sim.report.markdown import report_markdown
from binokel_sim.report.model import Report

INSTALL = 'pip install "binokel-sim[plot]"'
REPORT_MD = "report.md"


def require_matplotlib() -> None:
    """Fail at once, saying how to install it, when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise OutputError(f"the report's figures need matplotlib, which is not installed; "
                          f"install it with: {INSTALL}") from None


def cannot_write(out_dir: Path, why: str) -> OutputError:
    """The one-line error of a report that cannot be written to ``out_dir``."""
    return OutputError(f"cannot write the report to {str(out_dir)!r}: {why}")


def check_out_dir(path: Path) -> Path:
    """``--out DIR`` must be a folder that exists and can be written, or one that can be made
    (its parent exists and can be written). Checked by the permissions and then by making and
    removing an empty temporary folder where :func:`publish` will make its own (the permission
    bits do not tell everything: a root user, a read-only mount, /proc)."""
    p = Path(path)
    if str(p) == "-":
        raise OutputError("--out: give a folder for the figures and report.md (not -)")
    try:
        return _check_folder(p)
    except OSError as exc:  # a name too long, a loop of links: the file system's own answer
        raise cannot_write(p, exc.strerror or str(exc)) from None


def _check_folder(p: Path) -> Path:
    where = p if p.exists() else (p.parent if str(p.parent) else Path("."))
    if where.exists() and not where.is_dir():
        raise cannot_write(p, f"{str(where)!r} is a file, not a folder")
    if not where.is_dir():
        raise cannot_write(p, f"folder {str(where)!r} does not exist")
    if not os.access(where, os.W_OK | os.X_OK):
        raise cannot_write(p, f"folder {str(where)!r} is not writable")
    try:
        os.rmdir(tempfile.mkdtemp(prefix=f".{p.name}.check-", dir=where))
    except OSError as exc:
        raise cannot_write(p, exc.strerror or str(exc)) from None
    return p


def publish(out_dir: Path, files: dict[str, bytes]) -> None:
    """Write ``files`` (name → bytes) into ``out_dir``, all or nothing so far as a folder
    allows: they go into a temporary folder first (beside ``out_dir`` when it does not exist,
    which is then renamed to ``out_dir`` in one step; inside it when it exists, each file then
    renamed into place, report.md last). A failure or Ctrl-C removes the temporary folder."""
    out_dir = Path(out_dir)
    existed = out_dir.is_dir()
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.report-",
                                        dir=out_dir if existed else out_dir.parent))
    except OSError as exc:
        raise cannot_write(out_dir, exc.strerror or str(exc)) from None
    try:
        names = sorted(files, key=lambda name: name == REPORT_MD)  # report.md last
        for name in names:
            (staging / name).write_bytes(files[name])
        if existed:
            for name in names:
                os.replace(staging / name, out_dir / name)
            staging.rmdir()
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(staging, 0o777 & ~umask)  # mkdtemp makes the folder private
            os.rename(staging, out_dir)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise cannot_write(out_dir, exc.strerror or str(exc)) from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def write_report(report: Report, out_dir: Path) -> list[Path]:
    """Draw every figure, write them and report.md into ``out_dir`` (:func:`publish`); returns
    the paths written, report.md first."""
    files = {f.name: drawing.render(f) for f in report.figures()}
    files[REPORT_MD] = report_markdown(report).encode("utf-8")
    publish(out_dir, files)
    return [out_dir / REPORT_MD] + [out_dir / f.name for f in report.figures()]
