"""snipcheck's folders are its pipeline: data flows one way, read -> run -> check -> engine ->
report -> faces, over leaf modules. Nothing imports upward, nothing imports in a cycle, only the
MkDocs face imports MkDocs, no module outgrows one screenful of concepts, and every region type
has its handler in every stage."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "snipcheck"
# The stages, upstream first; a module may import its own stage and the stages before it.
LAYERS = [
    ("leaf", ("problems", "numeric", "layout", "dispatch", "values", "kept")),
    ("read", ("read",)),
    ("run", ("run",)),
    ("check", ("check",)),
    ("engine", ("engine",)),
    ("report", ("report",)),
    ("face", ("cli", "mkdocs", "__init__", "__main__")),
]
BY_HAND = {"run/_bootstrap.py"}  # run by path in the snippet's interpreter: one file, standard library only
MAX_LINES = 350
MAX_PLUGIN_LINES = 200


def _name(path: Path) -> str:
    rel = path.relative_to(PACKAGE).with_suffix("")
    parts = ["snipcheck", *rel.parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _layer(module: str) -> int:
    parts = module.split(".")
    first = parts[1] if len(parts) > 1 else "__init__"
    return next(rank for rank, (_, names) in enumerate(LAYERS) if first in names)


def _package(module: str) -> str:
    return module if MODULES[module].name == "__init__.py" else module.rsplit(".", 1)[0]


def imports_of(module: str) -> set[str]:
    """The snipcheck modules ``module`` imports (anywhere in it, inside functions too)."""
    found = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = _package(module).split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [target] + [f"{target}.{alias.name}" for alias in node.names]
        else:
            continue
        found |= {name for name in names if name in MODULES}
    return found - {module}


GRAPH = {module: imports_of(module) for module in MODULES}


def test_every_module_is_in_a_stage():
    for module in MODULES:
        assert _layer(module) >= 0, module


@pytest.mark.parametrize("module", sorted(MODULES))
def test_nothing_imports_upward(module):
    upward = sorted(target for target in GRAPH[module] if _layer(target) > _layer(module))
    assert upward == [], f"{module} ({LAYERS[_layer(module)][0]}) imports a later stage: {upward}"


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    cycles, state = [], {}

    def visit(module, path):
        state[module] = "open"
        for target in sorted(graph[module]):
            if state.get(target) == "open":
                cycles.append(path[path.index(target) :] + [target])
            elif target not in state:
                visit(target, path + [target])
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    return cycles


def test_no_import_cycle():
    cycles = find_cycles(GRAPH)
    assert cycles == [], "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_the_checks_can_fail():
    """A cycle of three (as engine -> ledger -> site -> engine was) is found, and so is an upward import."""
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert find_cycles({"a": {"b"}, "b": set()}) == []
    assert _layer("snipcheck.report.verification") > _layer("snipcheck.engine")  # the engine may not import it


def test_only_the_mkdocs_face_imports_mkdocs():
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        roots = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        roots |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module}
        if not module.startswith("snipcheck.mkdocs"):
            assert not roots & {"mkdocs", "properdocs"}, module


@pytest.mark.parametrize("module", ["snipcheck.run._bootstrap", "snipcheck.run._zygote"])
def test_the_scripts_run_by_path_import_nothing_of_snipcheck(module):
    assert GRAPH[module] == set()


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_is_too_long(module):
    path = MODULES[module]
    rel = path.relative_to(PACKAGE).as_posix()
    lines = len(path.read_text(encoding="utf-8").splitlines())
    if rel not in BY_HAND:
        assert lines <= MAX_LINES, f"{rel} has {lines} lines"
    if rel == "mkdocs/plugin.py":
        assert lines < MAX_PLUGIN_LINES, f"{rel} has {lines} lines"


def test_every_region_type_has_a_handler_in_every_stage():
    from snipcheck.check.regions import CHECK
    from snipcheck.read.regions import REGION_TYPES
    from snipcheck.report.accept import ACCEPT
    from snipcheck.report.page import RENDER

    for stage in (CHECK, RENDER, ACCEPT):
        assert stage.registered() == set(REGION_TYPES), stage.stage


def test_a_region_type_without_a_handler_fails_loudly():
    from dataclasses import dataclass

    from snipcheck.check.regions import CHECK
    from snipcheck.read.regions import Region

    @dataclass(eq=False)
    class Table(Region):
        pass

    with pytest.raises(LookupError, match="CHECK: no handler is registered for Table"):
        CHECK(Table(1, 1), None)
