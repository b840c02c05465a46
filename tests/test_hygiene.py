"""Project hygiene: the LICENSE matches pyproject.toml, the CLI's rendering dependencies are
bounded and render flags as flags, and the rules contract is in the repository (docs/SPEC.md), in
sync with its source and holding every section the code and docs refer to."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from binokel_sim.cli import app
from binokel_sim.families import SUPPORTS
from binokel_sim.variants import all_variants

from conftest import runner

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "docs" / "SPEC.md"
SHARED_SPEC = ROOT.parent / "shared" / "rules" / "SPEC.md"  # the contract's source, when present
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


# --- LICENSE ------------------------------------------------------------------------------------------

# the first line and a phrase of the text of each license pyproject.toml may name
LICENSE_TEXTS = {"MIT": ("MIT License", ("Permission is hereby granted, free of charge, to "
                                         "any person obtaining a copy"))}


def test_license_file_matches_pyproject():
    declared = PYPROJECT["project"]["license"]
    kind = declared["text"] if isinstance(declared, dict) else declared
    assert kind in LICENSE_TEXTS, f"no LICENSE check for {kind!r}"
    first_line, phrase = LICENSE_TEXTS[kind]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.splitlines()[0] == first_line
    assert phrase in " ".join(text.split())
    assert re.search(r"^Copyright \(c\) \d{4} \S", text, re.MULTILINE)


# --- the CLI's rendering dependencies --------------------------------------------------------------------

def requirement(name: str) -> Requirement:
    found = [Requirement(r) for r in PYPROJECT["project"]["dependencies"]
             if Requirement(r).name == name]
    assert len(found) == 1, name
    return found[0]


@pytest.mark.parametrize("name", ["typer", "rich"])
def test_cli_rendering_dependencies_have_an_upper_bound_and_are_met(name):
    req = requirement(name)
    assert any(spec.operator in ("<", "<=", "~=", "==") for spec in req.specifier), str(req)
    installed = metadata.version(name)
    assert req.specifier.contains(installed, prereleases=True), (
        f"{name} {installed} is installed but pyproject.toml asks {req}: pip install -e .")


def help_text(*args: str) -> str:
    result = runner.invoke(app, [*args, "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    return result.stdout


def test_top_level_help_shows_flags_as_flags():
    text = help_text()
    assert "<bool>" not in text and "BOOLEAN" not in text
    # nothing in the type column between a flag and its help
    assert re.search(r"--version\s+Print the version", text), text
    assert re.search(r"--help\s+-h\s+Show this message", text), text


def test_meld_odds_help_shows_flags_as_flags():
    text = help_text("meld-odds")
    assert "<bool>" not in text and "BOOLEAN" not in text
    assert re.search(r"--exact\s+Compute the meld rows exactly", text), text
    assert re.search(r"--deals\s+-n\s+\S+\s+Simulated deals", text), text  # a value has a type


@pytest.mark.parametrize("command", list(SUPPORTS))
def test_no_command_help_shows_bool(command):
    assert "<bool>" not in help_text(command)


# --- the rules contract -------------------------------------------------------------------------------------

# the docs that cite the contract; each must say where it is
CITING_DOCS = ["README.md", "docs/rules.md", "docs/architecture.md", "docs/glossary.md"]


@pytest.mark.parametrize("doc", CITING_DOCS)
def test_docs_citing_the_contract_point_to_docs_spec(doc):
    text = (ROOT / doc).read_text(encoding="utf-8")
    assert re.search(r"\bcontract\b|\bSPEC\b", text), f"{doc} no longer cites the contract"
    assert "docs/SPEC.md" in text, f"{doc} cites the contract without saying it is docs/SPEC.md"
    for target in re.findall(r"\]\(([^)#]*SPEC\.md)", text):  # markdown links resolve
        assert ((ROOT / doc).parent / target).resolve() == SPEC, target


def test_spec_copy_is_the_contract_byte_for_byte():
    if not SHARED_SPEC.exists():
        pytest.skip(f"no contract source at {SHARED_SPEC} (a clone of the repository alone)")
    assert SPEC.read_bytes() == SHARED_SPEC.read_bytes(), (
        "docs/SPEC.md differs from the contract: run scripts/sync_spec.sh")


def spec_text() -> str:
    """docs/SPEC.md with backticks dropped and whitespace collapsed (references quote it plain)."""
    return " ".join(SPEC.read_text(encoding="utf-8").replace("`", "").split())


# `SPEC.md "Trick winner"`, `SPEC "Variant two-hand-48"`, `SPEC.md, four-hand-80 "Bidding"`,
# `SPEC.md, section "Variant four-hand-80"`: the quoted words must be in the contract
REFERENCE = re.compile(r'SPEC(?:\.md)?(?:,\s*section)?[,:]?\s+(?:[\w-]+\s+)?"([^"\n]+)"')


def references() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    paths = [*ROOT.joinpath("binokel_sim").rglob("*.py"),
             *ROOT.joinpath("binokel_sim").rglob("*.toml"), *ROOT.joinpath("tests").glob("*.py"),
             *ROOT.joinpath("docs").glob("*.md"), ROOT / "README.md"]
    for path in paths:
        if path == SPEC:
            continue
        for match in REFERENCE.finditer(path.read_text(encoding="utf-8")):
            found.setdefault(match.group(1), []).append(str(path.relative_to(ROOT)))
    return found


def test_every_section_the_code_refers_to_is_in_the_spec_copy():
    found = references()
    assert len(found) >= 8, found  # the pattern still finds the references
    text = spec_text()
    missing = {ref: where for ref, where in found.items() if ref.replace("`", "") not in text}
    assert not missing, f"docs/SPEC.md lacks what these files cite: {missing}"


HEADINGS = ["Common to all variants", 'Must-head obligation ("strict" play)', "Trick winner",
            "Variants three-hand-72 and four-hand-72"]
PARAGRAPHS = ["Bidding:", "Counting:", "Scoring a played deal."]  # four-hand-80's named paragraphs


def test_spec_copy_has_the_sections_the_code_names():
    lines = SPEC.read_text(encoding="utf-8").replace("`", "").splitlines()
    headings = [line.lstrip("#").strip() for line in lines if line.startswith("#")]
    for heading in HEADINGS:
        assert any(h == heading or h.startswith(heading + " (") for h in headings), heading
    # every built-in variant has its section: a seed variant its own, a house variant a column
    # of the table in "House variants of today's Binokel" or its naming there as "the built-in"
    # variant (the tournament count of "Today's practice")
    text = "\n".join(lines)
    house = text[text.index("House variants of today's Binokel"):]
    house = house[:house.index("\n## ")] if "\n## " in house else house
    for variant in all_variants():
        assert any(h.startswith("Variant") and variant.name in h.split() for h in headings) \
            or f"| {variant.name} |" in house or f"| {variant.name} (" in house \
            or f"the built-in {variant.name}" in house, variant.name
    for paragraph in PARAGRAPHS:
        assert any(line.startswith(paragraph) for line in lines), paragraph


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_sync_script_copies_byte_for_byte(tmp_path):
    source = tmp_path / "contract.md"
    source.write_bytes("# rules\n\nCRLF line\r\nné ♠ no final newline".encode())
    dest = tmp_path / "copy.md"
    script = str(ROOT / "scripts" / "sync_spec.sh")
    first = subprocess.run(["bash", script, str(source), str(dest)], capture_output=True,
                           text=True, check=True)
    assert dest.read_bytes() == source.read_bytes()
    assert "copied" in first.stdout
    again = subprocess.run(["bash", script, str(source), str(dest)], capture_output=True,
                           text=True, check=True)
    assert "up to date" in again.stdout
    missing = subprocess.run(["bash", script, str(tmp_path / "nope.md"), str(dest)],
                             capture_output=True, text=True, check=False)
    assert missing.returncode == 1 and "no contract" in missing.stderr


# --- start-up: what a command imports -------------------------------------------------------------

HEAVY = ("numpy", "numba", "polars", "scipy", "binokel_sim.kernels")


def loaded_after(*argv: str) -> set[str]:
    """The heavy modules (:data:`HEAVY`) loaded by running ``binokel-sim ARGV`` in a fresh
    interpreter (start-up time is what they cost; the benchmarks time it)."""
    code = ("import sys\n"
            f"sys.argv = ['binokel-sim', *{list(argv)!r}]\n"
            "from binokel_sim.cli import app\n"
            "try:\n"
            "    app()\n"
            "except SystemExit:\n"
            "    pass\n"
            f"heavy = {HEAVY!r}\n"
            "found = {m for m in sys.modules for h in heavy if m == h or m.startswith(h + '.')}\n"
            "sys.stderr.write('LOADED ' + ' '.join(sorted({m.split('.')[0] if not m.startswith("
            "'binokel_sim') else m for m in found})) + '\\n')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    line = [x for x in done.stderr.splitlines() if x.startswith("LOADED")][-1]
    return set(line.split()[1:])


@pytest.mark.parametrize("argv", [("--help",), ("bid-odds", "--help"), ("play", "--help"),
                                  ("--version",)])
def test_help_loads_no_numerical_library(argv):
    assert loaded_after(*argv) == set()


def test_analyze_loads_neither_numba_nor_polars_nor_a_kernel():
    # one hand is scored by the rules read in Python (analysis.analyze_hand); numpy stays
    loaded = loaded_after("analyze", "--variant", "two-hand-48")
    assert not loaded & {"numba", "polars", "scipy"}, loaded
    assert not any(m.startswith("binokel_sim.kernels") for m in loaded), loaded


# --- the command's entry point (cli.main) -----------------------------------------------------------

def test_console_script_is_main():
    assert PYPROJECT["project"]["scripts"]["binokel-sim"] == "binokel_sim.cli:main"


@pytest.mark.parametrize(("argv", "code", "stream", "needle"), [
    (("analyze", "--variant", "two-hand-48", "--format", "json"), 0, "stdout", '"best_trump"'),
    (("analyze", "--hand", "AS XX"), 1, "stderr", "error: unknown card 'XX'"),
    (("bid-odds", "--bogus"), 2, "stderr", "No such option"),
])
def test_main_keeps_the_exit_code_and_output(argv, code, stream, needle):
    done = subprocess.run([sys.executable, "-m", "binokel_sim.cli", *argv], capture_output=True,
                          text=True)
    assert done.returncode == code, done.stderr
    assert needle in getattr(done, stream)


def test_main_raises_the_young_threshold_and_freezes_what_is_left(monkeypatch):
    import gc

    import binokel_sim.cli as cli

    seen = {}

    def fake_app():
        seen["threshold"] = gc.get_threshold()[0]
        raise SystemExit(3)

    before = gc.get_threshold()
    monkeypatch.setattr(cli, "app", fake_app)
    try:
        with pytest.raises(SystemExit) as stop:
            cli.main()
        assert stop.value.code == 3
        assert seen["threshold"] == cli.GC_YOUNG_THRESHOLD
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


# --- the kernels' layers (docs/architecture.md, the kernels/ tree) -----------------------------

KERNELS = ROOT / "binokel_sim" / "kernels"
KERNEL_FAMILIES = ("partnership", "talon", "widow", "sixty_six")


def _kernel_imports(path: Path) -> set[str]:
    """The kernel packages and modules ``path`` imports, anywhere in the file (names relative to
    ``binokel_sim.kernels``)."""
    import ast

    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            if name.startswith("binokel_sim.kernels."):
                found.add(name[len("binokel_sim.kernels."):])
    return found


def _layer(relative: str) -> str:
    """A kernel module's layer: ``shared`` at the top level, else its package's name."""
    parts = relative.split(".")
    return parts[0] if len(parts) > 1 and (KERNELS / parts[0]).is_dir() else "shared"


def test_kernel_layers_import_only_downwards():
    """Shared kernel modules import no package, strict/ imports only shared modules, a family
    package imports shared modules, strict/ and itself: never another family."""
    allowed = {"shared": {"shared"}, "strict": {"shared", "strict"}}
    allowed.update({f: {"shared", "strict", f} for f in KERNEL_FAMILIES})
    bad = []
    for path in sorted(KERNELS.rglob("*.py")):
        rel = path.relative_to(KERNELS).with_suffix("")
        layer = _layer(".".join(rel.parts))
        assert layer in allowed, f"unknown kernel package {layer}"
        for name in _kernel_imports(path):
            if _layer(name) not in allowed[layer]:
                bad.append(f"{path.relative_to(ROOT)} imports kernels.{name}")
    assert not bad, bad


def test_kernel_constants_are_defined_once():
    """A constant is defined in one kernel module only (the others import it): no two modules
    assign the same name (or enumeration of names) the same value: the same expression, or
    the same value where the expression reads the module's own names. (A family's own table
    layout, e.g. its CFG_ columns, may reuse a name with its own value.)"""
    import ast
    import importlib

    seen: dict[tuple[str, str], list[str]] = {}
    for path in sorted(KERNELS.rglob("*.py")):
        rel = path.relative_to(KERNELS).with_suffix("").parts
        module = importlib.import_module(".".join(("binokel_sim", "kernels", *rel))
                                         .removesuffix(".__init__"))
        for node in ast.parse(path.read_text()).body:
            if not isinstance(node, ast.Assign):
                continue
            value = ast.unparse(node.value)
            for target in node.targets:  # a tuple of names (an enumeration) counts as one
                name = ast.unparse(target).replace("_", "")
                if name.replace(",", "").replace(" ", "").isupper():
                    names = [n.strip() for n in ast.unparse(target).strip("()").split(",")]
                    if any(n.isidentifier() and not hasattr(module, n) for n in names):
                        continue
                    if not isinstance(node.value, ast.Constant):  # what the names hold
                        value = repr([getattr(module, n) for n in names if n])
                    seen.setdefault((name, value), []).append(str(path.relative_to(KERNELS)))
    twice = {name: where for (name, _), where in seen.items() if len(where) > 1}
    assert not twice, twice
