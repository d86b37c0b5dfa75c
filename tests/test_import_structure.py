"""The import structure: no loops between files, no import hidden in a function, layers.

Every project file is parsed (nothing is imported) and each import statement is sorted
by where it runs: at module level (``try`` and ``if`` blocks included), only for the type
checker (``if TYPE_CHECKING:``), or inside a function, where an import can hide a loop
that would fail at module level. The rules checked here:

- no loop between the autograder's files, type-only imports included;
- no function-level import of a project module in the autograder (none is needed: the
  package's exported names are loaded on first use by `importlib`, allowed below);
- the autograder's layers only import downwards, and its sandbox (what the worker runs
  next to the student's code) imports nothing of the autograder outside itself;
- neither ``pacman`` nor ``agents`` imports the autograder.

- ``pacman`` and ``agents`` (`LAYERED`): no loop between their files, the layering
  ``pacman.core <- agents <- pacman``, and no function-level import except of optional
  third-party libraries.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("pacman", "agents", "autograder")


@dataclass(frozen=True)
class Import:
    """One imported project module."""

    source: str
    """The importing module."""
    target: str
    """The imported module (the deepest project module the statement names)."""
    line: int
    where: str
    """``"module"``, ``"typing"`` (under ``if TYPE_CHECKING:``) or ``"function"``."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_files(package: str) -> dict[str, Path]:
    return {
        module_name(p): p
        for p in sorted((ROOT / package).rglob("*.py"))
        if "__pycache__" not in p.parts
    }


ALL_MODULES = {name for package in PACKAGES for name in project_files(package)}


def _resolve(name: str) -> str | None:
    """The deepest project module that ``name`` is or lies in."""
    parts = name.split(".")
    for n in range(len(parts), 0, -1):
        candidate = ".".join(parts[:n])
        if candidate in ALL_MODULES:
            return candidate
    return None


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk(node: ast.AST, where: str) -> Iterator[tuple[ast.AST, str]]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            yield from _walk(child, "function")
        elif isinstance(child, ast.If) and _is_type_checking(child.test):
            for stmt in child.body:
                yield stmt, "typing" if where == "module" else where
                yield from _walk(stmt, "typing" if where == "module" else where)
            for stmt in child.orelse:
                yield stmt, where
                yield from _walk(stmt, where)
        else:
            yield child, where
            yield from _walk(child, where)


def project_imports(package: str) -> list[Import]:
    """Every import of a project module made by the files of ``package``."""
    found = []
    for source, path in project_files(package).items():
        is_package = path.name == "__init__.py"
        for node, where in _walk(ast.parse(path.read_text(encoding="utf-8")), "module"):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = source.split(".")
                    anchor = anchor if is_package else anchor[:-1]
                    anchor = anchor[: len(anchor) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                names = [f"{base}.{a.name}" for a in node.names]
            for name in names:
                target = _resolve(name)
                if target is not None and target != source:
                    found.append(Import(source, target, node.lineno, where))
    return found


AUTOGRADER = project_imports("autograder")


def _cycle(edges: dict[str, set[str]]) -> list[str]:
    """One import loop in ``edges`` (empty when there is none)."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return []

    for node in sorted(edges):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return []


def test_the_walk_sees_every_kind_of_import() -> None:
    wheres = {i.where for i in project_imports("pacman") + AUTOGRADER}
    assert "module" in wheres
    assert len(AUTOGRADER) > 50
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycle(edges) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []


def test_no_loop_between_autograder_files() -> None:
    edges: dict[str, set[str]] = {}
    for i in AUTOGRADER:
        if i.where != "function" and i.target.startswith("autograder"):
            edges.setdefault(i.source, set()).add(i.target)
    assert _cycle(edges) == []


LAZY_EXPORTS = {"autograder", "autograder.grading.suite"}
"""Modules that load project modules with `importlib` inside a function, and why:
``autograder/__init__.py`` loads its exported names on first use, because the worker
imports the package (for the sandbox) and must not load the grader's modules with it;
``autograder.grading.suite`` imports every grader module before a submission runs
(`preload_grader`), so that nothing is imported later, when it might have been rewritten."""


def test_no_function_level_project_import_in_the_autograder() -> None:
    hidden = [i for i in AUTOGRADER if i.where == "function"]
    assert hidden == []
    for name, path in project_files("autograder").items():
        if "import_module(" in path.read_text(encoding="utf-8"):
            assert name in LAZY_EXPORTS, f"{name} imports with importlib"


LAYERS = {
    "autograder.algorithms": 0,
    "autograder.tree": 0,
    "autograder.results": 0,
    "autograder.diagram": 1,
    "autograder.reading": 2,
    "autograder.grading": 3,
    "autograder.reports": 4,
    "autograder.student": 4,
    "autograder.public": 4,
    "autograder.handout": 5,
    "autograder.cli": 6,
    "autograder.__main__": 7,
    "autograder.cases": 7,
    "autograder.starter": 7,
}
"""Each part of the autograder and its layer: a module imports only from lower layers
or its own part."""


def _part(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 else module


def test_every_autograder_module_has_a_layer() -> None:
    unplaced = {
        _part(m)
        for m in project_files("autograder")
        if m != "autograder" and _part(m) not in LAYERS and _part(m) != "autograder.sandbox"
    }
    assert unplaced == set()


@pytest.mark.parametrize("part", sorted(LAYERS))
def test_autograder_layers_import_downwards(part: str) -> None:
    wrong = [
        f"{i.source}:{i.line} imports {i.target}"
        for i in AUTOGRADER
        if _part(i.source) == part
        and i.target.startswith("autograder.")
        and _part(i.target) != part
        and _part(i.target) != "autograder.sandbox"
        and LAYERS[_part(i.target)] >= LAYERS[part]
    ]
    assert wrong == []


def test_the_sandbox_imports_nothing_else_of_the_autograder() -> None:
    """What a submission may import is exactly `autograder.sandbox`: it must stand alone."""
    outside = [
        f"{i.source}:{i.line} imports {i.target}"
        for i in AUTOGRADER
        if i.source.startswith("autograder.sandbox")
        and i.target.split(".")[0] == "autograder"
        and not i.target.startswith("autograder.sandbox")
    ]
    assert outside == []


@pytest.mark.parametrize("package", ["pacman", "agents"])
def test_the_engine_and_agents_never_import_the_autograder(package: str) -> None:
    found = [
        f"{i.source}:{i.line}"
        for i in project_imports(package)
        if i.target.startswith("autograder")
    ]
    assert found == []


# ------------------------------------------------------------- pacman and agents
# The layering: pacman.core <- agents <- pacman (registry, runner, envs, batch, cli, ...).
# Add a package to LAYERED to hold it to the same three rules (autograder has its own
# layer rules above).

LAYERED = ("pacman", "agents")
"""Packages whose files may not form a loop or import a project module in a function."""

TOP_LEVEL_ALLOWED = {
    "pacman.core": set(),
    "agents": {"pacman.core"},
    "pacman": {"pacman.core", "agents"},
}
"""Each top-level part and the parts it may import (``pacman`` is pacman without core)."""

LAZY_THIRD_PARTY = frozenset({"gymnasium", "matplotlib", "numpy", "pygame", "ray"})
"""Optional libraries imported inside functions on purpose: heavy or optional, loaded
only when the feature that needs them is used (rendering, plots, Ray, Gymnasium)."""

IMPORTLIB_USERS = {
    "pacman.envs": "loads pz_env/gym_env on first use: PettingZoo is slow to import",
    "pacman.render.export": "imports the optional encoders (imageio, PIL) when exporting",
}
"""Modules of LAYERED that call `importlib.import_module`, and why."""


def _top(module: str) -> str:
    return "pacman.core" if module.startswith("pacman.core") else module.split(".")[0]


@pytest.fixture(scope="module")
def layered_imports() -> list[Import]:
    return [i for package in LAYERED for i in project_imports(package)]


def test_no_loop_between_files_of_the_layered_packages(layered_imports: list[Import]) -> None:
    """Loops among the imports that run (module and function level).

    An import under ``if TYPE_CHECKING:`` never runs and may point back (layout.py and
    navigation.py name each other's classes in annotations).
    """
    edges: dict[str, set[str]] = {}
    for i in layered_imports:
        if i.where != "typing":
            edges.setdefault(i.source, set()).add(i.target)
    assert _cycle(edges) == []


def test_the_walk_finds_a_planted_loop() -> None:
    planted = [
        Import("pacman.a", "pacman.b", 1, "module"),
        Import("pacman.b", "pacman.a", 1, "function"),
    ]
    edges: dict[str, set[str]] = {}
    for i in planted:
        edges.setdefault(i.source, set()).add(i.target)
    assert _cycle(edges) == ["pacman.a", "pacman.b", "pacman.a"]


@pytest.mark.parametrize("part", sorted(TOP_LEVEL_ALLOWED))
def test_top_level_parts_import_only_downwards(part: str, layered_imports: list[Import]) -> None:
    wrong = sorted(
        f"{i.source}:{i.line} imports {i.target}"
        for i in layered_imports
        if _top(i.source) == part
        and _top(i.target) != part
        and _top(i.target) not in TOP_LEVEL_ALLOWED[part]
    )
    assert wrong == []


def _function_level_imports(package: str) -> Iterator[tuple[str, int, str]]:
    for name, path in project_files(package).items():
        for node, where in _walk(ast.parse(path.read_text(encoding="utf-8")), "module"):
            if where != "function":
                continue
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield name, node.lineno, alias.name
            elif isinstance(node, ast.ImportFrom):
                yield name, node.lineno, "." * node.level + (node.module or "")


@pytest.mark.parametrize("package", LAYERED)
def test_only_optional_libraries_are_imported_in_functions(package: str) -> None:
    hidden = [
        f"{source}:{line} imports {target} in a function"
        for source, line, target in _function_level_imports(package)
        if target.split(".")[0] not in LAZY_THIRD_PARTY
    ]
    assert hidden == []


@pytest.mark.parametrize("package", LAYERED)
def test_importlib_is_used_only_where_it_says_why(package: str) -> None:
    users = {
        name
        for name, path in project_files(package).items()
        if "import_module(" in path.read_text(encoding="utf-8")
    }
    assert users <= set(IMPORTLIB_USERS)
