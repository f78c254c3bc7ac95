"""The packages form layers, each importing only from the ones below it.

``grader`` (model, formats, solver, grader, authoring) is the base; ``words`` (fill-in
crosswords) builds on it; ``layout`` (issues, print) on both; ``nonopress`` (the command
line, its commands, batch runs) sits on top. Every import is checked, also the ones inside
functions and the module names the CLI and the ladder table load by name.

One folder is let through: ``grader/kinds/`` names every kind, and the fill-in kind's engines
live in ``words`` (it reaches them inside its slots, as every kind reaches its engines).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("grader", "words", "layout", "nonopress")
#: folders that may reach one layer further up than their package: the kinds registry
REACHES = {"grader/kinds": {"words"}}


def _imported_packages(path: Path) -> set[str]:
    """Top-level project packages a module imports, statically or by a dotted-name string."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            head, dot, _ = node.value.partition(".")
            if dot and head in LAYERS and node.value.replace(".", "").replace("_", "").isalnum():
                found.add(head)
    return found & set(LAYERS)


def _reaches(path: str) -> set[str]:
    return {layer for folder, layers in REACHES.items() if path.startswith(folder + "/")
            for layer in layers}


@pytest.mark.parametrize("package", LAYERS)
def test_a_package_imports_only_from_the_layers_below_it(package: str) -> None:
    allowed = set(LAYERS[: LAYERS.index(package) + 1])
    offenders = {
        str(path.relative_to(ROOT)): sorted(_imported_packages(path) - allowed
                                            - _reaches(path.relative_to(ROOT).as_posix()))
        for path in sorted((ROOT / package).rglob("*.py"))
    }
    offenders = {name: above for name, above in offenders.items() if above}
    assert offenders == {}, f"{package} reaches up into a higher layer"


def test_the_ladder_table_names_finders_inside_grader() -> None:
    rows = yaml.safe_load((ROOT / "grader" / "ladder.yaml").read_text(encoding="utf-8"))
    rungs = rows["rungs"] if isinstance(rows, dict) else rows
    modules = {row["finder"].split(":")[0] for row in rungs if row.get("finder")}
    assert modules, "the ladder table names no finder modules"
    assert all(module.startswith("grader.") for module in modules), modules


def test_the_layer_check_sees_an_upward_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from layout.build import build_issue\n", encoding="utf-8")
    assert _imported_packages(module) == {"layout"}
    module.write_text('COMMANDS = {"issue": "nonopress.commands.issue"}\n', encoding="utf-8")
    assert _imported_packages(module) == {"nonopress"}


def _layout_graph() -> dict[str, set[str]]:
    """Every module of layout/ and the layout modules it imports: at the top, inside
    functions and under TYPE_CHECKING alike (a circle of type hints is a circle to read)."""
    modules = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"):
               p for p in (ROOT / "layout").rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module)  # "from layout.kinds import bw" imports a module too
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_layout_has_no_import_circle() -> None:
    graph = _layout_graph()
    assert {"layout.plan", "layout.issue", "layout.kinds", "layout.kinds.fillin"} <= set(graph)
    assert _circles(graph) == []


def test_the_circle_check_sees_a_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []
