"""The test session's guard against stale compiled kernels.

numba's on-disk cache (``cache=True``) checks each cached function against its own source file
only: a caller whose file did not change keeps the machine code of the callees it inlined or
linked when it was compiled, even after a callee's file changed. So a kernel edit can leave a
stale caller in the cache, and tests would run old code; so can a change to a module outside the
kernels whose constants a kernel reads (numba freezes them). Before a session,
:func:`clear_if_stale` compares a hash of every kernel source and of those modules with the one
recorded at the last clear, and when they differ deletes every cached kernel of the package (``*.nbi`` index and ``*.nbc`` data files of
the kernel modules, wherever numba keeps them: ``__pycache__`` beside the sources, or under
``NUMBA_CACHE_DIR``), then records the new hash.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

KERNELS = Path(__file__).resolve().parents[1] / "binokel_sim" / "kernels"
STAMP = "binokel-sim-kernel-sources.sha256"


def numba_cache_dir() -> str | None:
    """Where numba keeps its cache in this process: ``NUMBA_CACHE_DIR``, or None for the
    ``__pycache__`` folders beside the sources."""
    return os.environ.get("NUMBA_CACHE_DIR") or None


def read_modules(kernels: Path = KERNELS) -> list[Path]:
    """The package's modules outside ``kernels`` that a kernel imports
    (``from binokel_sim.X import ...``: constants and tables numba freezes into the machine code
    when it compiles, so that a change to one leaves the cached kernels stale as well)."""
    package = kernels.parent
    names = set()
    for path in kernels.rglob("*.py"):
        names |= set(re.findall(r"^from binokel_sim\.(\w+) import", path.read_text(), re.M))
    return sorted(package / f"{name}.py" for name in names - {"kernels"}
                  if (package / f"{name}.py").is_file())


def sources_hash(kernels: Path = KERNELS) -> str:
    """SHA-256 over every ``.py`` file under ``kernels`` and the modules they import
    (:func:`read_modules`), relative path and bytes, in order."""
    digest = hashlib.sha256()
    for path in sorted(kernels.rglob("*.py")) + read_modules(kernels):
        digest.update(path.relative_to(kernels.parent).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def cache_dirs(kernels: Path = KERNELS, cache_root: str | None = None) -> list[Path]:
    """Where numba keeps the cache of each kernel source directory: its ``__pycache__``, or with
    ``cache_root`` (``NUMBA_CACHE_DIR``) the directory numba derives from the source directory's
    path under it."""
    from numba.core.caching import _CacheLocator

    folders = sorted({path.parent for path in kernels.rglob("*.py")})
    if cache_root:
        return [Path(cache_root) / _CacheLocator.get_suitable_cache_subpath(str(folder / "x.py"))
                for folder in folders]
    return [folder / "__pycache__" for folder in folders]


def cached_files(kernels: Path = KERNELS, cache_root: str | None = None) -> list[Path]:
    """The cache files of the kernel modules (``<module>.<function>-<line>.py<ver>.nbi|nbc``)."""
    stems = {path.stem for path in kernels.rglob("*.py")}
    out = []
    for folder in cache_dirs(kernels, cache_root):
        if folder.is_dir():
            out += [f for f in folder.iterdir() if f.suffix in (".nbi", ".nbc")
                    and f.name.split(".", 1)[0] in stems]
    return sorted(out)


def clear_if_stale(kernels: Path = KERNELS, cache_root: str | None = None) -> int | None:
    """Delete the kernels' cache files when a kernel source changed since the last call (or none
    was recorded); returns how many files were deleted, or None when the cache was current.
    ``cache_root``: numba's ``NUMBA_CACHE_DIR`` (None: the caches beside the sources), as
    :func:`cache_dirs` takes it; the session passes :func:`numba_cache_dir`."""
    stamp_dir = Path(cache_root) if cache_root else kernels / "__pycache__"
    stamp = stamp_dir / STAMP
    current = sources_hash(kernels)
    if stamp.is_file() and stamp.read_text().strip() == current:
        return None
    removed = 0
    for path in cached_files(kernels, cache_root):
        path.unlink(missing_ok=True)
        removed += 1
    stamp_dir.mkdir(parents=True, exist_ok=True)
    stamp.write_text(current + "\n")
    return removed
