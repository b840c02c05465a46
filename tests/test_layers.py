"""The house by layer: every import of the package (function-local ones included) goes to its own
layer or one below, no import cycle, no twin imported by production code, and no kernel family
importing another (docs/architecture.md opens with this picture).

The layers, bottom up (LAYERS below): notation and rules; kernels (only @njit code); the
compile-and-run plumbing; the engine families and the runs over them; results (records, odds,
reports, studies); the page (``binokel_sim/web/``: its HTML and JSON API); the CLI. The twins
(``binokel_sim/reference/``) sit beside the kernels and may import only the notation and rules
layer; only the benchmark modules and the tests import them.
A new module must be placed here, so the map stays the whole truth.
"""

from __future__ import annotations

import ast
from pathlib import Path

from binokel_sim.families import FAMILIES, SUPPORTS

PACKAGE = Path(__file__).resolve().parents[1] / "binokel_sim"

NOTATION, KERNELS, TWINS, PLUMBING, ENGINES, CONTESTS, RESULTS, WEB, CLI = range(9)
LAYERS = {
    NOTATION: "binokel_sim cards errors constants variants hands meld_rules families "
              "compile_notice bidding stats deal_text io hands_file widow_value pair_value "
              "expert_play",
    PLUMBING: "tables simulate backend constraints game_blocks",
    # the engine families (one module each, same names) and what every family shares
    ENGINES: "engines engines.policies engines.partnership engines.talon engines.widow solver "
             "exact",
    CONTESTS: "contests",  # duels and matches, over whichever family plays the variant
    RESULTS: "records records.columns records.partnership records.talon records.widow "
             "records.stream odds odds.summary odds.partnership odds.talon odds.widow "
             "calibrate calibration calibration_figure report report.registry "
             "report.partnership report.talon report.widow report.model report.data "
             "report.figures report.drawing report.markdown report.publish batch published "
             "bench bench.timing bench.partnership bench.talon bench.widow bench_table "
             "analysis documents documents.bid_odds documents.bid_odds.partnership "
             "documents.bid_odds.widow documents.deal_odds",
}
# one module per engine family in these packages, none importing another family's
FAMILY_PACKAGES = ("kernels", "engines", "records", "odds", "bench", "report")
# a module per engine family that serves the command (binokel_sim.families.SUPPORTS)
COMMAND_PACKAGES = {"cli.bid_odds": "bid-odds", "documents.bid_odds": "bid-odds"}
# production modules that may import twins: the benchmark modules (they time the twins)
TWIN_USERS = {"bench", "bench.partnership", "bench.talon", "bench.widow"}


def modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts) or "binokel_sim"
        out[name] = path
    return out


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Every module of the package ``name`` imports, anywhere in its source."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                stem = ("binokel_sim." + package if package != "binokel_sim" else "binokel_sim")
                stem = stem.split(".")
                base = ".".join(stem[:len(stem) - node.level + 1] + ([base] if base else []))
            # ``from package import submodule`` imports the submodule (a package's own
            # __init__ runs first for every import of its modules: not an edge of its own)
            targets = [f"{base}.{alias.name}" for alias in node.names]
        for target in targets:
            if target.startswith("binokel_sim"):
                short = target.removeprefix("binokel_sim").removeprefix(".") or "binokel_sim"
                while short not in known and "." in short:
                    short = short.rpartition(".")[0]
                if short in known and short != name:
                    found.add(short)
    return found


def layer_of(name: str) -> int:
    if name.startswith("kernels"):
        return KERNELS
    if name.startswith("reference"):
        return TWINS
    if name.startswith("cli"):
        return CLI
    if name == "web" or name.startswith("web."):
        return WEB
    for layer, names in LAYERS.items():
        if name in names.split():
            return layer
    raise AssertionError(f"binokel_sim.{name} has no layer: place it in tests/test_layers.py")


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports(name, path, set(found)) for name, path in found.items()}


def test_every_module_has_a_layer_and_imports_only_downwards():
    bad = []
    for name, targets in graph().items():
        mine = layer_of(name)
        for target in targets:
            theirs = layer_of(target)
            if theirs == TWINS:
                if mine != TWINS and name not in TWIN_USERS:
                    bad.append(f"{name} imports the twin {target}")
            elif mine == TWINS:
                if theirs != NOTATION:
                    bad.append(f"the twin {name} imports {target}")
            elif theirs > mine:
                bad.append(f"{name} (layer {mine}) imports {target} (layer {theirs})")
    assert not bad, "\n".join(bad)


def test_no_import_cycle():
    edges = graph()
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            cycle = visit(node)
            assert cycle is None, " -> ".join(cycle)


def family_of(name: str) -> str | None:
    """The engine family a module belongs to: ``kernels.talon.deals``, ``engines.talon``,
    ``records.talon`` and ``odds.talon`` are the talon family's; shared modules have none."""
    for package in (*FAMILY_PACKAGES, *COMMAND_PACKAGES):
        rest = name.removeprefix(package + ".").split(".") if name.startswith(package + ".") else []
        if rest and rest[0] in FAMILIES:
            return rest[0]
    return None


def test_no_family_imports_another():
    """One family changes without touching another: a family's module in any layer (its kernel
    package, engine, records, odds) imports no other family's."""
    bad = []
    for name, targets in graph().items():
        family = family_of(name)
        for target in targets:
            other = family_of(target)
            if family is not None and other is not None and other != family:
                bad.append(f"{name} imports {target}")
    assert not bad, "\n".join(bad)


def test_every_family_has_a_module_in_every_family_package():
    """The registries are the family names: family ``f``'s module in package ``p`` is
    ``binokel_sim.p.f``, and each defines its package's FAMILY_API (where it has one)."""
    import importlib

    found = modules()
    for package in FAMILY_PACKAGES:
        api = getattr(importlib.import_module(f"binokel_sim.{package}"), "FAMILY_API", ())
        for family in FAMILIES:
            name = f"{package}.{family}"
            assert name in found, f"binokel_sim.{name} is missing"
            module = importlib.import_module(f"binokel_sim.{name}")
            missing = [n for n in api if not hasattr(module, n)]
            assert not missing, f"binokel_sim.{name} lacks {', '.join(missing)}"
    for package, command in COMMAND_PACKAGES.items():
        have = {name.rpartition(".")[2] for name in found if name.startswith(package + ".")}
        assert have == set(SUPPORTS[command]), (package, have)


def test_the_checks_see_a_function_local_import(tmp_path):
    """The walk reads imports inside functions too (a check that cannot fail proves nothing)."""
    source = tmp_path / "probe.py"
    source.write_text("def f():\n    from binokel_sim.cli import app\n    return app\n")
    assert imports("tables", source, {"tables", "cli", "cli.base"}) == {"cli"}
    source.write_text("from binokel_sim.cli import base\n")
    assert imports("tables", source, {"tables", "cli", "cli.base"}) == {"cli.base"}
