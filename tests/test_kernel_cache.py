"""The session guard that clears numba's cache of the kernels when a kernel source changed
(tests/kernel_cache.py), on a made-up kernels folder: in-tree caches and NUMBA_CACHE_DIR."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import kernel_cache


def _kernels(root: Path) -> Path:
    kernels = root / "kernels"
    (kernels / "talon").mkdir(parents=True)
    (kernels / "deal.py").write_text("def deal(): pass\n")
    (kernels / "talon" / "items.py").write_text("def items(): pass\n")
    return kernels


def _cache(folder: Path, names: list[str]) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    files = [folder / name for name in names]
    for f in files:
        f.write_bytes(b"cached")
    return files


@pytest.mark.parametrize("user_dir", [False, True])
def test_a_changed_source_clears_every_kernel_cache_file_once(tmp_path, user_dir):
    kernels = _kernels(tmp_path)
    root = str(tmp_path / "numba-cache") if user_dir else None
    top, sub = kernel_cache.cache_dirs(kernels, root)  # sorted: kernels/, kernels/talon/
    ours = (_cache(top, ["deal.deal-1.py311.nbi", "deal.deal-1.py311.1.nbc"])
            + _cache(sub, ["items.items-1.py311.nbi"]))
    other = _cache(top, ["other.f-3.py311.nbi", "deal.notes.txt"])
    assert kernel_cache.clear_if_stale(kernels, root) == 3  # no stamp yet: cleared
    assert not any(f.exists() for f in ours) and all(f.exists() for f in other)
    again = _cache(sub, ["items.items-1.py311.nbi"])
    assert kernel_cache.clear_if_stale(kernels, root) is None  # unchanged: kept
    assert again[0].exists()
    (kernels / "talon" / "items.py").write_text("def items(): return 1\n")
    assert kernel_cache.clear_if_stale(kernels, root) == 1
    assert not again[0].exists() and all(f.exists() for f in other)


def test_the_cache_dirs_are_numbas(tmp_path):
    """Under NUMBA_CACHE_DIR numba keeps a source folder's cache in a folder named from its path
    (numba's own locator computes the same one)."""
    from numba.core.caching import UserProvidedCacheLocator

    kernels = _kernels(tmp_path)
    root = tmp_path / "numba-cache"
    expected = [root / UserProvidedCacheLocator.get_suitable_cache_subpath(str(f))
                for f in (kernels / "deal.py", kernels / "talon" / "items.py")]
    assert kernel_cache.cache_dirs(kernels, str(root)) == expected
    assert kernel_cache.cache_dirs(kernels) == [kernels / "__pycache__",
                                                kernels / "talon" / "__pycache__"]


def test_the_real_kernels_hash_is_stable():
    assert kernel_cache.sources_hash() == kernel_cache.sources_hash()
    assert len(kernel_cache.sources_hash()) == 64


def test_the_session_reads_numbas_cache_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert kernel_cache.numba_cache_dir() == str(tmp_path)
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    assert kernel_cache.numba_cache_dir() is None


def test_a_changed_module_a_kernel_imports_clears_the_cache(tmp_path):
    """A kernel reads ``binokel_sim.constants`` (numba freezes its values): a change there
    clears the cache too; a change to a module no kernel imports does not."""
    kernels = _kernels(tmp_path)
    (kernels / "deal.py").write_text("from binokel_sim.constants import EVERY\n")
    (tmp_path / "constants.py").write_text("EVERY = 8\n")
    (tmp_path / "notes.py").write_text("X = 1\n")
    assert kernel_cache.read_modules(kernels) == [tmp_path / "constants.py"]
    top, _ = kernel_cache.cache_dirs(kernels)
    assert kernel_cache.clear_if_stale(kernels) == 0  # no stamp yet
    (tmp_path / "notes.py").write_text("X = 2\n")
    assert kernel_cache.clear_if_stale(kernels) is None
    cached = _cache(top, ["deal.deal-1.py311.nbi"])
    (tmp_path / "constants.py").write_text("EVERY = 4\n")
    assert kernel_cache.clear_if_stale(kernels) == 1
    assert not cached[0].exists()
