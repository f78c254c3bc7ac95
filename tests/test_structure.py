"""The project's intended structure (``docs/structure.json``) holds against its code.

The picture names the parts (each a set of files and folders), the arrows between them and
the imports that must never exist ("never"). Every import of every Python file is read, the
ones inside functions too (relative imports resolved), and each import of a module of one
part from a module of another that a never forbids is an offence, named with the files and
the names taken. The picture stays true as files move: every path it lists exists and every
product module belongs to a part.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
STRUCTURE = ROOT / "docs" / "structure.json"
PACKAGES = ("grader", "words", "layout", "nonopress")

#: nevers known to be broken while other work mends them (strict xfail: each one mended fails
#: here until its line is deleted); none since issue 44
MENDED_ELSEWHERE: set[tuple[str, str]] = set()


def _board() -> dict[str, Any]:
    board: dict[str, Any] = json.loads(STRUCTURE.read_text(encoding="utf-8"))
    return board


def part_of(path: str, parts: dict[str, Any]) -> str | None:
    """The part whose listed path matches ``path`` (relative, '/'-separated) most
    specifically: a file named exactly, or a folder (ending in '/') holding it."""
    best, length = None, -1
    for name, spec in parts.items():
        for listed in spec["is"]:
            hit = path == listed.rstrip("/") or (listed.endswith("/") and path.startswith(listed))
            if hit and len(listed) > length:
                best, length = name, len(listed)
    return best


def module_file(module: str, root: Path = ROOT) -> str | None:
    """The project file of a dotted module name (a module or a package), or None."""
    base = module.replace(".", "/")
    for candidate in (f"{base}.py", f"{base}/__init__.py"):
        if (root / candidate).is_file():
            return candidate
    return None


def imports(path: Path, root: Path = ROOT) -> list[tuple[str, list[str]]]:
    """Every module ``path`` imports, with the names it takes (``from pkg import module``
    counts as importing ``pkg.module`` too), at any depth of the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = path.parent.relative_to(root).as_posix().replace("/", ".")
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                module = base + ("." + node.module if node.module else "")
            else:
                module = node.module or ""
            names = [alias.name for alias in node.names]
            found.append((module, names))
            found += [(f"{module}.{name}", [name]) for name in names]
    return found


def _sources(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> list[Path]:
    return sorted(path for package in packages for path in (root / package).rglob("*.py"))


def crossings(board: dict[str, Any], root: Path = ROOT, packages: tuple[str, ...] = PACKAGES
              ) -> dict[tuple[str, str], set[str]]:
    """(from part, to part) -> 'file -> file taking names' for every import between two
    parts that a never forbids."""
    parts = board["parts"]
    nevers = {(never[0], never[1]) for never in board["never"]}
    broken: dict[tuple[str, str], set[str]] = {}
    for path in _sources(root, packages):
        name = path.relative_to(root).as_posix()
        source = part_of(name, parts)
        if source is None:
            continue
        for module, taken in imports(path, root):
            target = module_file(module, root)
            if target is None or target == name:
                continue
            destination = part_of(target, parts)
            if destination and destination != source and (source, destination) in nevers:
                broken.setdefault((source, destination), set()).add(
                    f"{name} -> {target} taking {', '.join(taken) or 'the module'}")
    return broken


def _never_cases() -> list[Any]:
    cases = []
    for never in _board()["never"]:
        pair = (never[0], never[1])
        marks = [pytest.mark.xfail(strict=True, reason="mended by the rest of issue 44")] \
            if pair in MENDED_ELSEWHERE else []
        cases.append(pytest.param(pair, id=f"{pair[0]}->{pair[1]}", marks=marks))
    return cases


@pytest.fixture(scope="module")
def broken() -> dict[tuple[str, str], set[str]]:
    return crossings(_board())


@pytest.mark.parametrize("never", _never_cases())
def test_no_import_crosses_a_never(never: tuple[str, str],
                                   broken: dict[tuple[str, str], set[str]]) -> None:
    why = next(n[2] for n in _board()["never"] if (n[0], n[1]) == never)
    assert sorted(broken.get(never, ())) == [], f"{never[0]} -> {never[1]}: {why}"


#: the top-level packages' own modules: façades (``grader.solve``, ``__version__``) that
#: stand above the parts they re-export, in no part
FACADES = {"grader/__init__.py", "nonopress/__init__.py"}


def test_every_listed_file_exists() -> None:
    """A file that moved leaves the picture (a folder may name a part still to come)."""
    missing = [f"{name}: {listed}" for name, spec in _board()["parts"].items()
               for listed in spec["is"]
               if not listed.endswith("/") and not (ROOT / listed).is_file()]
    assert missing == [], "docs/structure.json names files that moved"


def test_every_product_module_belongs_to_a_part() -> None:
    parts = _board()["parts"]
    homeless = [name for path in _sources() if (name := path.relative_to(ROOT).as_posix())
                not in FACADES and part_of(name, parts) is None]
    assert homeless == [], "add these to a part of docs/structure.json"


def test_the_arrows_and_nevers_name_parts() -> None:
    board = _board()
    pairs = [(a[0], a[1]) for a in board["arrows"]] + [(n[0], n[1]) for n in board["never"]]
    assert {end for pair in pairs for end in pair} <= set(board["parts"])


def test_the_check_sees_imports_inside_functions_and_relative_ones(tmp_path: Path) -> None:
    for package in ("proj", "proj/low", "proj/high"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "proj" / "low" / "engine.py").write_text("X = 1\n")
    (tmp_path / "proj" / "high" / "face.py").write_text(
        "def run():\n    from proj.low.engine import X\n    return X\n")
    (tmp_path / "proj" / "high" / "other.py").write_text(
        "from . import face\nfrom ..low import engine\n")
    board = {"parts": {"Low": {"is": ["proj/low/"]}, "High": {"is": ["proj/high/"]}},
             "never": [["High", "Low", "the face knows no engine"]]}
    assert crossings(board, tmp_path, ("proj",)) == {("High", "Low"): {
        "proj/high/face.py -> proj/low/engine.py taking X",
        "proj/high/other.py -> proj/low/__init__.py taking engine",
        "proj/high/other.py -> proj/low/engine.py taking engine",
    }}
    board["never"] = [["Low", "High", "the other way"]]
    assert crossings(board, tmp_path, ("proj",)) == {}
