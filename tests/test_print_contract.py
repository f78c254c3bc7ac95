"""Printing goes through the kind contract: layout draws a puzzle with the drawing module its
kind names (``layout/kinds/NAME.py``) and prints the solution its grade proved, never solving.

The structural tests read the source of every module of ``layout/``, ``nonopress/`` and
``grader/authoring/`` outside the kinds folders (``layout/kinds/``; the player's assets are
JavaScript): none calls ``isinstance`` on a puzzle kind, its contract, its grade or its
entry, fill-ins included, and none compares a kind's tag or name (a stored tag is looked up
in ``grader.kinds.STORED``).
"""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import pytest

from grader.errors import NotPublishable
from grader.formats import read_any
from grader.results import Budget
from layout.build import build_issue, grade_with_ladder, solution_of
from layout.issue import GradeInfo
from layout.kinds import DRAWINGS, drawing_named, drawing_of, register
from layout.kinds.colour import ColourDrawing
from layout.manifest import parse_manifest

ROOT = Path(__file__).resolve().parents[1]
#: where no module may ask which kind it holds
ASKED = ("layout", "nonopress", "grader/authoring")
#: the names a kind goes by: an isinstance on one of them asks the kind
KIND_NAMES = {"Puzzle", "ColourPuzzle", "AnyPuzzle", "LoadedPuzzle", "LoadedColourPuzzle",
              "Grade", "ColourGrade", "BlackAndWhite", "Colour", "FillIn", "FillinKind",
              "FillinGrade", "FillinEntry", "IssueEntry"}
#: kind tags and names (``PuzzleKind.tag``, ``.name``, ``.drawing``)
KIND_TAGS = {"bw", "colour", "black-and-white", "fillin", "fill-in"}
#: the kinds folders, where a kind's own module names it
KINDS_FOLDERS = ("layout/kinds/", "grader/kinds/")
#: what a value compared with a kind tag is called when it holds a kind
KIND_FIELDS = {"kind", "tag", "drawing"}


def _modules(*roots: str) -> list[Path]:
    return sorted(p for root in roots for p in (ROOT / root).rglob("*.py")
                  if not p.relative_to(ROOT).as_posix().startswith(KINDS_FOLDERS)
                  or p.name == "__init__.py")


def _isinstance_on_a_kind(tree: ast.AST) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "isinstance" and len(node.args) == 2):
            continue
        target = node.args[1]
        for name in target.elts if isinstance(target, ast.Tuple) else [target]:
            text = name.attr if isinstance(name, ast.Attribute) else getattr(name, "id", "")
            if text in KIND_NAMES:
                lines.append(node.lineno)
    return lines


def _field(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return getattr(node, "id", "")


def _compares_a_kind_tag(tree: ast.AST) -> list[int]:
    """``x.kind == "bw"``, ``tag != "colour"``, ``kind.name in ("colour", ...)``."""
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        constants: list[object] = []
        for side in sides:
            if isinstance(side, ast.Constant):
                constants.append(side.value)
            elif isinstance(side, ast.Tuple | ast.List | ast.Set):
                constants.extend(e.value for e in side.elts if isinstance(e, ast.Constant))
        fields = {_field(side) for side in sides}
        if KIND_TAGS & set(map(str, constants)) and (fields & KIND_FIELDS or any(
                isinstance(side, ast.Attribute) and side.attr == "name" for side in sides)):
            lines.append(node.lineno)
    return lines


def _offenders(check: object, *roots: str) -> dict[str, list[int]]:
    found = {}
    for path in _modules(*roots):
        lines = check(ast.parse(path.read_text(encoding="utf-8")))  # type: ignore[operator]
        if lines:
            found[str(path.relative_to(ROOT))] = lines
    return found


def test_the_checks_read_the_printing_modules() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in _modules(*ASKED)}
    assert {"layout/build.py", "layout/plan.py", "layout/kinds/__init__.py",
            "grader/authoring/preview.py", "nonopress/cli.py"} <= names


def test_no_printing_module_calls_isinstance_on_a_kind() -> None:
    assert _offenders(_isinstance_on_a_kind, *ASKED) == {}, (
        "draw through layout.kinds.drawing_of, describe through grader.kinds.kind_of")


def test_no_printing_or_face_module_compares_a_kind_tag() -> None:
    assert _offenders(_compares_a_kind_tag, *ASKED) == {}, (
        "ask the kind's slot: grader.kinds.kind_of, or STORED[tag] for a stored row")


def test_the_checks_see_a_branch() -> None:
    tree = ast.parse("def f(p, e):\n    if isinstance(p, (int, ColourPuzzle)):\n        pass\n"
                     "    return e.kind == 'bw' or kind_of(p).name in ('colour',)\n")
    assert _isinstance_on_a_kind(tree) == [2]
    assert _compares_a_kind_tag(tree) == [4, 4]
    fine = ast.parse("def f(p, ink):\n    return isinstance(p, int) or ink == 'colour'\n")
    assert _isinstance_on_a_kind(fine) == [] and _compares_a_kind_tag(fine) == []


# -- the strategies ------------------------------------------------------------------------
def test_each_kind_names_a_drawing_module() -> None:
    from grader.kinds import KINDS
    from layout.kinds import drawing_module

    for kind in KINDS:  # every registered kind has its module under layout/kinds/
        module = drawing_module(kind.drawing)
        assert hasattr(module, "DRAWING") or hasattr(module, "PAGED"), kind.tag
    (house,) = read_any(ROOT / "puzzles" / "house.yaml")
    (ladybird,) = read_any(ROOT / "puzzles" / "colour" / "ladybird.yaml")
    assert isinstance(drawing_of(ladybird), ColourDrawing)
    assert drawing_of(house).legend_palette(house) is None
    assert drawing_of(ladybird).legend_palette(ladybird) is not None


def test_a_kind_prints_with_the_drawing_it_names(monkeypatch: pytest.MonkeyPatch) -> None:
    """Registering another strategy under a kind's drawing name changes how every block of
    that kind is drawn: the plan asks the strategy, not the kind's class."""
    from layout.draw import Rects
    from layout.geometry import BlockGeometry
    from layout.kinds import puzzle_ops

    (house,) = read_any(ROOT / "puzzles" / "house.yaml")
    plain = drawing_named("bw")

    class Marked(type(plain)):  # type: ignore[misc]
        def cell_ops(self, *args: object, **kwargs: object) -> list[object]:
            return [Rects("accent", [(0.0, 0.0, 1.0, 1.0)])]

    monkeypatch.setitem(DRAWINGS, "bw", plain)
    register("bw", Marked())
    ops = puzzle_ops(house, BlockGeometry.of(house), 0.0, 100.0, 10.0)
    assert any(isinstance(op, Rects) and op.role == "accent" for op in ops)


def test_layout_prints_the_solution_the_grade_proved_and_never_solves() -> None:
    """A colour file without its picture prints the picture its grade proved; a grade that
    holds none blocks the puzzle (layout does not solve it again)."""
    (ladybird,) = read_any(ROOT / "puzzles" / "colour" / "ladybird.yaml")
    picture = ladybird.solution_array()
    clues_only = replace(ladybird, solution=None)
    grade = grade_with_ladder(clues_only, Budget(seconds=30))
    assert grade.solution is not None
    assert (solution_of(clues_only, grade, "ladybird") == picture).all()
    with pytest.raises(NotPublishable, match="holds no solution"):
        solution_of(clues_only, replace(grade, solution=None), "ladybird")


def test_an_issue_of_a_hand_graded_clue_only_puzzle_says_it_has_no_solution(
        tmp_path: Path) -> None:
    (tmp_path / "cross.non").write_text(
        "width 3\nheight 3\nrows\n1\n3\n1\ncolumns\n1\n3\n1\n", encoding="utf-8")
    manifest = parse_manifest("title: T\npuzzles:\n  - cross.non\n", tmp_path / "i.yaml")
    with pytest.raises(NotPublishable, match=r"cross\.non.*holds no solution"):
        build_issue(manifest, grader=lambda p: GradeInfo("easy", 1.0, 1))
