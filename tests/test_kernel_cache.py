"""The guard against stale compiled kernels (binokel_sim/kernel_cache.py), on a made-up package:
a kernel module's cache is cleared when its closure (its source and every package module it
imports, directly or not) changed, and only then; a cold cache is stamped and kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from binokel_sim import kernel_cache


def _package(root: Path) -> Path:
    """A package ``binokel_sim`` under ``root`` with kernels: ``deal`` imports ``bits`` and the
    constants, ``talon/items`` imports ``deal``, ``melds`` stands alone; returns its kernels."""
    package = root / "binokel_sim"
    kernels = package / "kernels"
    (kernels / "talon").mkdir(parents=True)
    (package / "constants.py").write_text("EVERY = 8\n")
    (package / "notes.py").write_text("X = 1\n")
    (kernels / "bits.py").write_text("def bits(): pass\n")
    (kernels / "deal.py").write_text("from binokel_sim.kernels.bits import bits\n"
                                     "from binokel_sim.constants import EVERY\n")
    (kernels / "melds.py").write_text("def melds(): pass\n")
    (kernels / "talon" / "items.py").write_text(
        "from binokel_sim.kernels.deal import (\n    deal,\n)\n")
    return kernels


def _cache(folder: Path, names: list[str]) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    files = [folder / name for name in names]
    for f in files:
        f.write_bytes(b"cached")
    return files


def _cached_everywhere(kernels: Path, root: str | None) -> dict[str, list[Path]]:
    top = kernel_cache.cache_dir(kernels, root)
    sub = kernel_cache.cache_dir(kernels / "talon", root)
    return {"bits": _cache(top, ["bits.bits-1.py311.nbi"]),
            "deal": _cache(top, ["deal.deal-1.py311.nbi", "deal.deal-1.py311.1.nbc"]),
            "melds": _cache(top, ["melds.melds-1.py311.nbi"]),
            "items": _cache(sub, ["items.items-1.py311.nbi"])}


def test_closures_follow_imports_through_modules(tmp_path):
    kernels = _package(tmp_path)
    package = kernels.parent
    found = {path.relative_to(package).as_posix():
             sorted(p.relative_to(package).as_posix() for p in files)
             for path, files in kernel_cache.closures(kernels).items()}
    assert found["kernels/talon/items.py"] == [
        "constants.py", "kernels/bits.py", "kernels/deal.py", "kernels/talon/items.py"]
    assert found["kernels/melds.py"] == ["kernels/melds.py"]
    assert found["kernels/bits.py"] == ["kernels/bits.py"]


@pytest.mark.parametrize("user_dir", [False, True])
def test_an_edit_clears_the_modules_that_depend_on_it_and_no_other(tmp_path, user_dir):
    kernels = _package(tmp_path)
    root = str(tmp_path / "numba-cache") if user_dir else None
    files = _cached_everywhere(kernels, root)
    other = _cache(kernel_cache.cache_dir(kernels, root), ["other.f-3.py311.nbi",
                                                           "deal.notes.txt"])
    assert kernel_cache.clear_stale(kernels, root) == 5  # no stamp yet: every kernel's files
    assert not any(f.exists() for group in files.values() for f in group)
    assert all(f.exists() for f in other)
    files = _cached_everywhere(kernels, root)
    assert kernel_cache.clear_stale(kernels, root) is None  # unchanged: all kept
    assert all(f.exists() for group in files.values() for f in group)
    (kernels / "deal.py").write_text((kernels / "deal.py").read_text() + "# edited\n")
    assert kernel_cache.clear_stale(kernels, root) == 3  # deal, and items that imports it
    assert not any(f.exists() for f in files["deal"] + files["items"])
    assert all(f.exists() for f in files["bits"] + files["melds"] + other)
    assert kernel_cache.clear_stale(kernels, root) is None


def test_a_module_outside_the_kernels_counts_only_for_the_kernels_that_import_it(tmp_path):
    """numba freezes the constants a kernel reads: a change there clears that kernel and its
    callers; a change to a module no kernel imports clears nothing."""
    kernels = _package(tmp_path)
    assert kernel_cache.clear_stale(kernels) == 0  # no stamp, nothing cached
    (kernels.parent / "notes.py").write_text("X = 2\n")
    assert kernel_cache.clear_stale(kernels) is None
    files = _cached_everywhere(kernels, None)
    (kernels.parent / "constants.py").write_text("EVERY = 4\n")
    assert kernel_cache.clear_stale(kernels) == 3
    assert not any(f.exists() for f in files["deal"] + files["items"])
    assert all(f.exists() for f in files["bits"] + files["melds"])


def _dispatching_package(root: Path) -> Path:
    """A package whose shared ``strict`` tricks call stubs (``strict/family.py``) that the
    ``widow`` family overloads in its own module (``widow/part.py``, which also imports its own
    ``widow/score.py``), and a ``talon`` family that uses the strict tricks without a part."""
    package = root / "binokel_sim"
    kernels = package / "kernels"
    for folder in ("strict", "widow", "talon"):
        (kernels / folder).mkdir(parents=True)
    (kernels / "bits.py").write_text("def bits(): pass\n")
    (kernels / "strict" / "family.py").write_text("def part_value(part): pass\n")
    (kernels / "strict" / "tricks.py").write_text(
        "from binokel_sim.kernels.strict.family import part_value\n")
    (kernels / "strict" / "solver.py").write_text("from binokel_sim.kernels.bits import bits\n")
    (kernels / "widow" / "score.py").write_text("def score(): pass\n")
    (kernels / "widow" / "part.py").write_text(
        "from numba.extending import overload\n"
        "from binokel_sim.kernels.strict.family import part_value\n"
        "from binokel_sim.kernels.widow.score import score\n\n"
        "@overload(part_value)\ndef _value(part):\n    return None\n")
    (kernels / "widow" / "deals.py").write_text(
        "from binokel_sim.kernels.strict.tricks import part_value\n"
        "from binokel_sim.kernels.widow.part import score\n")
    (kernels / "talon" / "deals.py").write_text(
        "from binokel_sim.kernels.strict.tricks import part_value\n")
    return kernels


def test_a_familys_overloads_count_for_the_shared_modules_compiled_with_them(tmp_path):
    """The strict tricks' cache holds code compiled with the widow's overloads although strict
    imports no family: an edit to the overloading module (or to what it imports) clears the
    strict modules that reach the stubs and the widow's own, not the talon games' nor a strict
    module that does not reach the stubs."""
    kernels = _dispatching_package(tmp_path)
    package = kernels.parent
    assert kernel_cache.overloaded_modules(kernels / "widow" / "part.py", package) == {
        kernels / "strict" / "family.py"}
    assert kernel_cache.overloaded_modules(kernels / "widow" / "deals.py", package) == set()
    closures = kernel_cache.closures(kernels)
    assert kernels / "widow" / "score.py" in closures[kernels / "strict" / "tricks.py"]
    assert kernels / "widow" / "part.py" not in closures[kernels / "talon" / "deals.py"]
    assert kernel_cache.clear_stale(kernels) == 0  # the stamp
    folder = {name: kernel_cache.cache_dir(kernels / name, None)
              for name in ("strict", "widow", "talon")}
    files = {"family": _cache(folder["strict"], ["family.f-1.py311.nbi"]),
             "tricks": _cache(folder["strict"], ["tricks.play-1.py311.nbi",
                                                 "tricks.play-1.py311.2.nbc"]),
             "solver": _cache(folder["strict"], ["solver.solve-1.py311.nbi"]),
             "widow": _cache(folder["widow"], ["deals.items-1.py311.nbi"]),
             "talon": _cache(folder["talon"], ["deals.items-1.py311.nbi"])}
    for edited in ("part.py", "score.py"):
        path = kernels / "widow" / edited
        path.write_text(path.read_text() + "# edited\n")
        assert kernel_cache.clear_stale(kernels) == 4  # family, tricks (two) and the widow's
        assert not any(f.exists() for f in files["family"] + files["tricks"] + files["widow"])
        assert all(f.exists() for f in files["solver"] + files["talon"])
        for name in ("family", "tricks", "widow"):
            for f in files[name]:
                f.write_bytes(b"cached")


def test_the_real_strict_tricks_count_the_widows_overloads():
    """The real package: the widow's part (``kernels/widow/knowledge.py``, overloading the
    strict stubs) is in the strict tricks' closure and not in the talon games'."""
    package = kernel_cache.KERNELS.parent
    closures = kernel_cache.closures()
    part = kernel_cache.KERNELS / "widow" / "knowledge.py"
    assert kernel_cache.overloaded_modules(part, package) == {
        kernel_cache.KERNELS / "strict" / "family.py"}
    assert part in closures[kernel_cache.KERNELS / "strict" / "tricks.py"]
    assert part not in closures[kernel_cache.KERNELS / "talon" / "deals.py"]
    assert part not in closures[kernel_cache.KERNELS / "strict" / "solver.py"]


def test_a_cold_cache_is_stamped_and_kept_by_the_session(tmp_path):
    """A fresh clone's first command stamps the sources before it compiles; the test session
    that follows clears nothing of what it compiled."""
    kernels = _package(tmp_path)
    assert kernel_cache.stamp_if_cold(kernels) is True
    assert kernel_cache.stamp_if_cold(kernels) is False  # stamped already
    files = _cached_everywhere(kernels, None)  # what the command compiled
    assert kernel_cache.clear_stale(kernels) is None
    assert all(f.exists() for group in files.values() for f in group)


def test_an_unstamped_warm_cache_is_not_stamped_but_cleared(tmp_path):
    """Cached kernels without a stamp may come from older sources: no stamp is made for them,
    and the session clears them all."""
    kernels = _package(tmp_path)
    files = _cached_everywhere(kernels, None)
    assert kernel_cache.stamp_if_cold(kernels) is False
    assert kernel_cache.read_stamp(kernels, None) is None
    assert kernel_cache.clear_stale(kernels) == 5
    assert not any(f.exists() for group in files.values() for f in group)


def test_a_broken_stamp_counts_as_none(tmp_path):
    kernels = _package(tmp_path)
    kernel_cache.clear_stale(kernels)
    stamp = kernel_cache.stamp_path(kernels, None) / kernel_cache.STAMP
    assert set(json.loads(stamp.read_text())) == {
        "kernels/bits.py", "kernels/deal.py", "kernels/melds.py", "kernels/talon/items.py"}
    stamp.write_text("{not json")
    files = _cached_everywhere(kernels, None)
    assert kernel_cache.clear_stale(kernels) == 5
    assert not any(f.exists() for group in files.values() for f in group)


def test_the_cache_dirs_are_numbas(tmp_path):
    """Under NUMBA_CACHE_DIR numba keeps a source folder's cache in a folder named from its path
    (numba's own locator computes the same one)."""
    from numba.core.caching import UserProvidedCacheLocator

    kernels = _package(tmp_path)
    root = tmp_path / "numba-cache"
    for folder in (kernels, kernels / "talon"):
        expected = root / UserProvidedCacheLocator.get_suitable_cache_subpath(
            str(folder / "deal.py"))
        assert kernel_cache.cache_dir(folder, str(root)) == expected
        assert kernel_cache.cache_dir(folder, None) == folder / "__pycache__"


def test_the_real_kernels_closures():
    """Every real kernel module is hashed; the widow driver's closure holds the strict tricks it
    calls and the constants it reads, and no kernel's closure holds the compile notice (the
    kernels' ``__init__`` installs it, and holds no kernel)."""
    hashes = kernel_cache.closure_hashes()
    assert hashes == kernel_cache.closure_hashes()
    assert "kernels/widow/deals.py" in hashes and all(len(h) == 64 for h in hashes.values())
    package = kernel_cache.KERNELS.parent
    closures = {path.relative_to(package).as_posix(): {p.relative_to(package).as_posix()
                                                       for p in files}
                for path, files in kernel_cache.closures().items()}
    assert {"kernels/strict/tricks.py", "constants.py"} <= closures["kernels/widow/deals.py"]
    assert not any("compile_notice.py" in files for name, files in closures.items()
                   if not name.endswith("__init__.py"))


def test_the_session_reads_numbas_cache_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert kernel_cache.numba_cache_dir() == str(tmp_path)
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    assert kernel_cache.numba_cache_dir() is None
