"""Which of numba's cached kernels are stale: a stamp of the kernel sources, module by module.

numba's on-disk cache (``cache=True``) checks each cached function against its own source file
only: a caller whose file did not change keeps the machine code of the callees it inlined or
linked when it was compiled, even after a callee's file changed. So a kernel edit can leave a
stale caller in the cache, and the code run would be old; so can a change to a module outside
the kernels whose constants a kernel reads (numba freezes them).

The stamp records, for every kernel module, a hash of its **closure**: its own source and the
sources of every package module it imports, directly or through others (:func:`closure_hashes`).
A module's cached files are stale exactly when its closure's hash differs from the stamp's:
:func:`clear_stale` (the test session's guard) deletes those files only (``*.nbi`` index and
``*.nbc`` data files, wherever numba keeps them: ``__pycache__`` beside the sources, or under
``NUMBA_CACHE_DIR``) and writes the new stamp. An edit to ``kernels/talon/deals.py`` clears the
talon driver's files and nothing of the widow games'.

A family reaches the shared strict tricks through typed dispatch: it registers, in its own
module, ``numba.extending.overload`` implementations of stubs a shared kernel module defines
(``kernels/strict/family.py``), and the shared package's functions are then compiled, and cached
under the shared package's own files, with the family's code in them, although no shared module
imports the family. So a module that registers overloads of a module's stubs
(:func:`overloaded_modules`) belongs to the closure of every module of the stubs' package whose
closure holds the stubs: an edit to the widow's overloads clears the strict tricks' files (and
the widow's own), not the talon games' (their own files hold only code compiled without it).

A cold cache holds nothing stale: :func:`stamp_if_cold` (called before a command's first
compilation, :mod:`binokel_sim.compile_notice`) writes the stamp when no kernel is cached yet,
so the kernels README's first line compiles on a fresh clone are kept by the test session that
follows. Without a stamp and with cached files (a cache from before the stamp existed) every
cached kernel is cleared.

This module reads files only: it imports no kernel and nothing heavy.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

KERNELS = Path(__file__).resolve().parent / "kernels"
STAMP = "binokel-sim-kernel-sources.json"
IMPORT = re.compile(r"^\s*(?:from\s+binokel_sim\.([\w.]+)\s+import|import\s+binokel_sim\.([\w.]+))",
                    re.M)


def numba_cache_dir() -> str | None:
    """Where numba keeps its cache in this process: ``NUMBA_CACHE_DIR``, or None for the
    ``__pycache__`` folders beside the sources."""
    return os.environ.get("NUMBA_CACHE_DIR") or None


def module_file(package: Path, dotted: str) -> Path | None:
    """The source file of ``binokel_sim.<dotted>`` under ``package`` (a module or a package's
    ``__init__.py``), or None when there is none."""
    base = package.joinpath(*dotted.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def imported_files(path: Path, package: Path) -> set[Path]:
    """The package's source files ``path`` imports (``from binokel_sim.X import ...``,
    ``import binokel_sim.X``), anywhere in its source."""
    out = set()
    for found in IMPORT.findall(path.read_text(encoding="utf-8")):
        target = module_file(package, found[0] or found[1])
        if target is not None:
            out.add(target)
    return out


def overloaded_modules(path: Path, package: Path) -> set[Path]:
    """The package's source files whose functions ``path`` registers overloads of: the modules a
    name in a call ``overload(name, ...)`` (or ``overload(module.name, ...)``) is imported from
    (``from binokel_sim.X import name``, ``from binokel_sim import X``)."""
    import ast

    text = path.read_text(encoding="utf-8")
    if "overload" not in text:
        return set()
    tree = ast.parse(text)
    origin: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("binokel_sim"):
            for alias in node.names:
                origin[alias.asname or alias.name] = node.module
                origin.setdefault("." + (alias.asname or alias.name),
                                  f"{node.module}.{alias.name}")
    out = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and node.args
                and getattr(node.func, "id", getattr(node.func, "attr", None)) == "overload"):
            continue
        target = node.args[0]
        if isinstance(target, ast.Name) and target.id in origin:
            dotted = origin[target.id]
        elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                and "." + target.value.id in origin:
            dotted = origin["." + target.value.id]
        else:
            continue
        found = module_file(package, dotted.removeprefix("binokel_sim").removeprefix("."))
        if found is not None and found != path:
            out.add(found)
    return out


def closures(kernels: Path = KERNELS) -> dict[Path, set[Path]]:
    """For every kernel module, the package files it depends on: itself and every module it
    imports, directly or through others (kernel modules, and the modules outside the kernels
    whose constants numba freezes, with what those import); for a module of a package whose
    stubs a family overloads, the overloading modules' closures too (the module docstring)."""
    package = kernels.parent
    edges: dict[Path, set[Path]] = {}

    def visit(path: Path) -> None:
        if path not in edges:
            edges[path] = imported_files(path, package)
            for target in edges[path]:
                visit(target)

    sources = sorted(kernels.rglob("*.py"))
    for path in sources:
        visit(path)
    out = {}
    for path in sources:
        seen, todo = {path}, [path]
        while todo:
            for target in edges[todo.pop()] - seen:
                seen.add(target)
                todo.append(target)
        out[path] = seen
    # typed dispatch: a family's overloads of a shared package's stubs belong to the closure of
    # every module of that package that reaches the stubs (their cache holds code compiled with
    # the overloads), with the overloading module's own closure
    extra: dict[Path, set[Path]] = {}
    for registrar in sources:
        for stubs in overloaded_modules(registrar, package):
            for path in sources:
                if path.parent == stubs.parent and stubs in out[path]:
                    extra.setdefault(path, set()).update(out[registrar])
    for path, files in extra.items():
        out[path] |= files
    return out


def closure_hashes(kernels: Path = KERNELS) -> dict[str, str]:
    """``{kernel module's path under the package: SHA-256 of its closure}`` (each file's path
    and bytes, in path order)."""
    package = kernels.parent
    out = {}
    for path, files in closures(kernels).items():
        digest = hashlib.sha256()
        for source in sorted(files):
            digest.update(source.relative_to(package).as_posix().encode() + b"\0")
            digest.update(source.read_bytes() + b"\0")
        out[path.relative_to(package).as_posix()] = digest.hexdigest()
    return out


def cache_dir(folder: Path, cache_root: str | None) -> Path:
    """Where numba keeps the cache of the sources in ``folder``: its ``__pycache__``, or with
    ``cache_root`` (``NUMBA_CACHE_DIR``) the directory numba derives from the folder's path."""
    if not cache_root:
        return folder / "__pycache__"
    from numba.core.caching import _CacheLocator

    return Path(cache_root) / _CacheLocator.get_suitable_cache_subpath(str(folder / "x.py"))


def cached_files(source: Path, cache_root: str | None = None) -> list[Path]:
    """The cache files of one kernel module (``<module>.<function>-<line>.py<ver>.nbi|nbc``)."""
    folder = cache_dir(source.parent, cache_root)
    if not folder.is_dir():
        return []
    return sorted(f for f in folder.iterdir() if f.suffix in (".nbi", ".nbc")
                  and f.name.split(".", 1)[0] == source.stem)


def stamp_path(kernels: Path, cache_root: str | None) -> Path:
    """Where the stamp is kept: beside the cache of the kernels' top folder."""
    return Path(cache_root) if cache_root else kernels / "__pycache__"


def read_stamp(kernels: Path, cache_root: str | None) -> dict[str, str] | None:
    """The recorded closure hashes, or None when there is no readable stamp."""
    try:
        recorded = json.loads((stamp_path(kernels, cache_root) / STAMP).read_text())
    except (OSError, ValueError):
        return None
    return recorded if isinstance(recorded, dict) else None


def write_stamp(kernels: Path, cache_root: str | None, hashes: dict[str, str]) -> None:
    """Record ``hashes`` (written whole, then renamed: a reader never sees half a stamp)."""
    folder = stamp_path(kernels, cache_root)
    folder.mkdir(parents=True, exist_ok=True)
    part = folder / f"{STAMP}.{os.getpid()}.part"
    part.write_text(json.dumps(hashes, indent=0, sort_keys=True) + "\n")
    part.replace(folder / STAMP)


def clear_stale(kernels: Path = KERNELS, cache_root: str | None = None) -> int | None:
    """Delete the cache files of every kernel module whose closure changed since the stamp (all
    of them when there is no stamp) and record the current hashes; how many files were deleted,
    or None when the stamp was current. ``cache_root``: numba's ``NUMBA_CACHE_DIR`` (None: the
    caches beside the sources)."""
    current = closure_hashes(kernels)
    recorded = read_stamp(kernels, cache_root)
    if recorded == current:
        return None
    package = kernels.parent
    removed = 0
    for name, digest in current.items():
        if recorded is None or recorded.get(name) != digest:
            for path in cached_files(package / name, cache_root):
                path.unlink(missing_ok=True)
                removed += 1
    write_stamp(kernels, cache_root, current)
    return removed


def stamp_if_cold(kernels: Path = KERNELS, cache_root: str | None = None) -> bool:
    """Before a first compilation: when no stamp exists and no kernel is cached, write the stamp
    of the current sources (what is compiled from now on is compiled from them). True when it
    wrote one. A folder it may not write to leaves things as they were (the cache then has no
    stamp, and the test session clears it as it would any unstamped cache)."""
    if read_stamp(kernels, cache_root) is not None:
        return False
    sources = sorted(kernels.rglob("*.py"))
    if any(cached_files(path, cache_root) for path in sources):
        return False
    try:
        write_stamp(kernels, cache_root, closure_hashes(kernels))
    except OSError:
        return False
    return True
