"""The house by layer: every import of the package (function-local ones and importlib's
included) goes to its own layer or one below, no import cycle, no twin imported by production
code, no family importing another and no shared module importing a family's (the family registry
is the one way to a family's module), and a family's modules with one signature for each name of
their package's FAMILY_API (docs/architecture.md opens with this picture).

The layers, bottom up (LAYERS below): notation and rules; kernels (only @njit code); the
compile-and-run plumbing; the engine families and the runs over them; results (records, odds,
reports, studies); the page (``binokel_sim/web/``: its HTML and JSON API); the CLI. The twins
(``binokel_sim/reference/``) sit beside the kernels and may import only the notation and rules
layer; only the benchmark modules and the tests import them.
A new module must be placed here, so the map stays the whole truth.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from binokel_sim.families import FAMILIES, SUPPORTS

PACKAGE = Path(__file__).resolve().parents[1] / "binokel_sim"

NOTATION, KERNELS, TWINS, PLUMBING, ENGINES, CONTESTS, RESULTS, WEB, CLI = range(9)
LAYERS = {
    NOTATION: "binokel_sim cards errors constants variants hands meld_rules families "
              "compile_notice kernel_cache cache_lock bidding stats deal_text io hands_file widow_value "
              "pair_value expert_play numbers",
    PLUMBING: "tables simulate backend constraints game_blocks run_time compile_helper",
    # the engine families (one module each, same names) and what every family shares
    ENGINES: "engines engines.policies engines.partnership engines.talon engines.widow "
             "engines.sixty_six solver exact",
    CONTESTS: "contests",  # duels and matches, over whichever family plays the variant
    RESULTS: "records records.columns records.partnership records.talon records.widow "
             "records.sixty_six records.stream odds odds.summary odds.partnership "
             "odds.talon odds.widow odds.sixty_six "
             "positions positions.partnership positions.talon positions.widow "
             "positions.sixty_six endgame "
             "calibrate calibration calibration_figure report report.registry "
             "report.partnership report.talon report.widow report.sixty_six report.model "
             "report.data "
             "report.figures report.drawing report.markdown report.publish batch published "
             "bench bench.timing bench.partnership bench.talon bench.widow bench.sixty_six "
             "bench_table "
             "analysis documents documents.bid_odds documents.bid_odds.partnership "
             "documents.bid_odds.widow documents.deal_odds",
}
# one module per engine family in these packages, none importing another family's
FAMILY_PACKAGES = ("kernels", "engines", "records", "odds", "bench", "report", "positions")
# a module per engine family that serves the command (binokel_sim.families.SUPPORTS)
COMMAND_PACKAGES = {"cli.bid_odds": "bid-odds", "documents.bid_odds": "bid-odds"}
# production modules that may import twins: the benchmark modules (they time the twins)
TWIN_USERS = {"bench", "bench.partnership", "bench.talon", "bench.widow", "bench.sixty_six"}
# production modules that import a module the scan cannot name (computed at run time), and why
DYNAMIC_IMPORTS = {
    "families": "family_module, the family registry: family f's module in a package is package.f",
    "binokel_sim": "the public API (API), imported on first use by the package's users; no module "
                   "of the package imports through it",
    "compile_helper": "the kernels of a recorded compile plan, by the names the plan holds (a "
                      "process of its own that compiles them ahead of a cold command)",
    "cli.base": "click's running context, from typer's copy of click or click's own (no module "
                "of the package)",
}


def modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts) or "binokel_sim"
        out[name] = path
    return out


def import_calls(tree: ast.AST) -> Iterator[ast.Call]:
    """Every call of ``import_module`` (``importlib.import_module``, or the name imported from
    importlib) and of ``__import__`` in ``tree``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name in ("import_module", "__import__"):
                yield node


def named_module(argument: ast.expr) -> str | None:
    """The module an import call's argument names: a string, or an f-string's fixed start up to
    its last dot (``f"binokel_sim.engines.{family}"`` names ``binokel_sim.engines``); None when
    the scan cannot read one."""
    if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
        return argument.value
    if isinstance(argument, ast.JoinedStr):
        start = ""
        for part in argument.values:
            if not isinstance(part, ast.Constant):
                break
            start += part.value
        return start.rpartition(".")[0] or None
    return None


def dynamic_imports(path: Path) -> bool:
    """Whether the source at ``path`` imports a module it does not name in full (an f-string or
    a value computed at run time: the scan sees its fixed start at most)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(not isinstance(call.args[0], ast.Constant) for call in import_calls(tree))


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Every module of the package ``name`` imports, anywhere in its source: import statements
    and importlib's calls (the module their argument names, :func:`named_module`)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    targets = [named_module(call.args[0]) for call in import_calls(tree)]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                stem = ("binokel_sim." + package if package != "binokel_sim" else "binokel_sim")
                stem = stem.split(".")
                base = ".".join(stem[:len(stem) - node.level + 1] + ([base] if base else []))
            # ``from package import submodule`` imports the submodule (a package's own
            # __init__ runs first for every import of its modules: not an edge of its own)
            targets += [f"{base}.{alias.name}" for alias in node.names]
    found = set()
    for target in filter(None, targets):
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


def shared_imports_of_families(edges: dict[str, set[str]]) -> list[str]:
    """The imports of a family's module by a shared module (a module of no family: a registry,
    a command or a study over every family)."""
    return [f"{name} imports {target}" for name, targets in sorted(edges.items())
            if family_of(name) is None
            for target in sorted(targets) if family_of(target) is not None]


def test_no_shared_module_imports_a_family_module():
    """A shared module reaches a family's module only through the family registry
    (``families.family_module``, behind each package's lookup such as ``engines.engine(rules)``):
    one that imports it by name breaks on a new family or branches on a family's name."""
    bad = shared_imports_of_families(graph())
    assert not bad, "\n".join(bad)


def strict_family_imports(edges: dict[str, set[str]]) -> list[str]:
    """The imports of a family's kernel package (``kernels.<family>``, any of its modules) by
    the shared strict tricks (``kernels.strict`` and its modules)."""
    families = tuple(f"kernels.{family}" for family in FAMILIES)
    return [f"{name} imports {target}" for name, targets in sorted(edges.items())
            if name == "kernels.strict" or name.startswith("kernels.strict.")
            for target in sorted(targets)
            if any(target == f or target.startswith(f + ".") for f in families)]


def test_the_strict_tricks_import_no_family():
    """``kernels/strict/`` is shared by every strict-trick family and knows none of them: a
    family's part reaches it by type (``kernels/strict/family.py``'s stubs, overloaded in the
    family's own package), never by an import, function-local or importlib's included."""
    edges = graph()
    assert any(name.startswith("kernels.strict.") for name in edges)
    bad = strict_family_imports(edges)
    assert not bad, "\n".join(bad)


def test_the_strict_check_sees_a_planted_family_import(tmp_path):
    """A strict module importing a family's kernel module (at the top, inside a function, or by
    importlib) is found; importing a shared kernel module or strict's own is not."""
    source = tmp_path / "probe.py"
    known = {"kernels", "kernels.strict", "kernels.strict.tricks", "kernels.strict.probe",
             "kernels.bits", "kernels.widow", "kernels.widow.knowledge", "kernels.talon",
             "kernels.talon.deals"}
    planted = {
        "from binokel_sim.kernels.widow.knowledge import widow_part\n":
            ["kernels.strict.probe imports kernels.widow.knowledge"],
        "def f():\n    from binokel_sim.kernels.talon import deals\n    return deals\n":
            ["kernels.strict.probe imports kernels.talon.deals"],
        "import importlib\n\nw = importlib.import_module('binokel_sim.kernels.widow')\n":
            ["kernels.strict.probe imports kernels.widow"],
        "from binokel_sim.kernels.bits import ALL_TYPES\n"
        "from binokel_sim.kernels.strict.tricks import play_strict\n": [],
    }
    for text, expected in planted.items():
        source.write_text(text)
        edges = {"kernels.strict.probe": imports("kernels.strict.probe", source, known)}
        assert strict_family_imports(edges) == expected, text


def test_only_the_listed_modules_import_what_the_scan_cannot_name():
    """An import computed at run time escapes every check here: only the family registry and
    the modules listed with their reason in DYNAMIC_IMPORTS make one."""
    found = {name for name, path in modules().items() if dynamic_imports(path)}
    assert found == set(DYNAMIC_IMPORTS), found ^ set(DYNAMIC_IMPORTS)


def family_packages() -> dict[str, tuple[str, ...]]:
    """Each package that differs by family, with the families that have a module in it."""
    return {**{package: FAMILIES for package in FAMILY_PACKAGES},
            **{package: SUPPORTS[command] for package, command in COMMAND_PACKAGES.items()}}


def family_modules(package: str) -> dict[str, object]:
    return {family: importlib.import_module(f"binokel_sim.{package}.{family}")
            for family in family_packages()[package]}


def test_every_family_has_a_module_in_every_family_package():
    """The registries are the family names: family ``f``'s module in package ``p`` is
    ``binokel_sim.p.f``, and each defines its package's FAMILY_API (where it has one)."""
    found = modules()
    for package, families in family_packages().items():
        have = {name.rpartition(".")[2] for name in found if name.startswith(package + ".")}
        assert set(families) <= have, f"binokel_sim.{package} lacks {set(families) - have}"
        if package in COMMAND_PACKAGES:
            assert have == set(families), (package, have)
        api = getattr(importlib.import_module(f"binokel_sim.{package}"), "FAMILY_API", ())
        for family, module in family_modules(package).items():
            missing = [n for n in api if not hasattr(module, n)]
            assert not missing, f"binokel_sim.{package}.{family} lacks {', '.join(missing)}"


def parameters(value) -> str | None:
    """A function's parameters as a caller sees them: its signature without annotations (names,
    kinds, defaults), such as ``(rules, counts, *, turned=None)``; None for a constant."""
    if not callable(value):
        return None
    signature = inspect.signature(value)
    bare = [p.replace(annotation=p.empty) for p in signature.parameters.values()]
    return str(signature.replace(parameters=bare, return_annotation=signature.empty))


def signature_differences(api: tuple[str, ...], by_family: dict[str, object]) -> list[str]:
    """The names of ``api`` whose parameters differ between the families' modules."""
    bad = []
    for name in api:
        found = {family: parameters(getattr(module, name)) for family, module in by_family.items()}
        if len(set(found.values())) > 1:
            bad.append(f"{name}: " + "; ".join(f"{f} {shape}" for f, shape in found.items()))
    return bad


def test_every_family_api_function_has_one_signature():
    """A caller reaches a family's function through the registry and calls every family's the
    same way: each function of a package's FAMILY_API takes the same parameters (names, kinds,
    defaults) in every family; an option a family has no use for is refused there, not left out."""
    bad = []
    for package in family_packages():
        api = getattr(importlib.import_module(f"binokel_sim.{package}"), "FAMILY_API", ())
        bad += [f"{package}.{line}" for line in signature_differences(api, family_modules(package))]
    assert not bad, "\n".join(bad)


def test_the_checks_see_a_function_local_import(tmp_path):
    """The walk reads imports inside functions too (a check that cannot fail proves nothing)."""
    source = tmp_path / "probe.py"
    source.write_text("def f():\n    from binokel_sim.cli import app\n    return app\n")
    assert imports("tables", source, {"tables", "cli", "cli.base"}) == {"cli"}
    source.write_text("from binokel_sim.cli import base\n")
    assert imports("tables", source, {"tables", "cli", "cli.base"}) == {"cli.base"}


def test_a_family_refuses_the_options_it_has_no_use_for():
    """One signature in every family: each takes every family's options by name, refuses those
    it cannot honour and asks for those it needs, before any work."""
    from binokel_sim.engines import engine
    from binokel_sim.errors import SimulationError
    from binokel_sim.hands import parse_hand
    from binokel_sim.variants import find_variant

    calls = [("four-hand-80", "run_samples", {"trumps": [0], "dealer": 1}, "takes no dealer"),
             ("four-hand-80", "run_samples", {}, "needs trumps"),
             ("two-hand-48", "run_samples", {"turned": 5, "dealer": 0, "trumps": [0]},
              "takes no trumps"),
             ("two-hand-48", "run_samples", {"dealer": 0}, "needs turned"),
             ("three-hand-auction-48", "run_samples", {"trumps": [0]}, "takes no trumps"),
             ("two-hand-48", "run_samples", {"turned": 5, "dealer": 0, "max_draws": 9},
              "takes no max_draws"),
             ("four-hand-80", "sampler_inputs", {"turned": 5}, "takes no turned"),
             ("three-hand-auction-48", "sampler_inputs", {"turned": 5}, "takes no turned"),
             ("two-hand-48", "sampler_inputs", {}, "needs turned")]
    for variant, name, options, refusal in calls:
        rules = find_variant(variant)
        counts = parse_hand(rules.example_hand, rules)
        arguments = (10, 1, "random") if name == "run_samples" else (None,)
        with pytest.raises(SimulationError, match=refusal):
            getattr(engine(rules), name)(rules, counts, *arguments, **options)


def test_the_checks_see_an_importlib_import(tmp_path):
    """importlib's calls are imports too: a string names its module, an f-string its fixed start,
    and one the scan cannot name in full is a dynamic import."""
    source = tmp_path / "probe.py"
    known = {"tables", "engines", "engines.talon"}
    source.write_text("import importlib\n\ndef f():\n"
                      "    return importlib.import_module('binokel_sim.engines.talon')\n")
    assert imports("tables", source, known) == {"engines.talon"}
    assert not dynamic_imports(source)
    source.write_text("from importlib import import_module\n\ndef f(family):\n"
                      "    return import_module(f'binokel_sim.engines.{family}')\n")
    assert imports("tables", source, known) == {"engines"}
    assert dynamic_imports(source)
    source.write_text("def f(name):\n    return __import__(name)\n")
    assert imports("tables", source, known) == set()
    assert dynamic_imports(source)


def test_the_checks_see_a_shared_module_importing_a_family(tmp_path):
    """A shared module importing a family's module is found (by an import statement or
    importlib), the family's own module importing it is not."""
    source = tmp_path / "probe.py"
    known = {"bench", "bench.talon", "odds", "odds.talon"}
    for text in ("def f():\n    from binokel_sim.odds.talon import turned_card\n",
                 "import importlib\n\nodds = importlib.import_module('binokel_sim.odds.talon')\n"):
        source.write_text(text)
        edges = {name: imports(name, source, known) for name in ("bench", "bench.talon")}
        assert shared_imports_of_families(edges) == ["bench imports odds.talon"]


def test_the_signature_check_sees_a_difference():
    """Another parameter kind, name or default in one family is a difference; constants are not
    compared."""
    def module(run, label):
        return SimpleNamespace(run=run, LABEL=label)

    one = module(lambda rules, counts, *, turned=None: None, "a")
    assert signature_differences(("run", "LABEL"), {"a": one, "b": one}) == []
    for other in (lambda rules, counts, turned=None: None,
                  lambda rules, hand, *, turned=None: None,
                  lambda rules, counts, *, turned=0: None):
        found = signature_differences(("run", "LABEL"), {"a": one, "b": module(other, "b")})
        assert len(found) == 1 and found[0].startswith("run: "), found
