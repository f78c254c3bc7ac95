"""One contract for a kind of puzzle (grader/kinds.py): the commands ask ``kind_of(puzzle)``
and never which kind they hold.

The structural tests read the command modules' source: none imports from ``grader.colour``
and none calls ``isinstance`` on a puzzle kind, apart from the exceptions listed below,
which are what is left of issue 33 (each is checked to be still true, so the list shrinks
as the work goes on and never hides a new seam).
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from grader.colour.model import ColourPuzzle
from grader.kinds import BlackAndWhite, Colour, PuzzleKind, kind_of, read_puzzles, write_puzzles
from grader.model import Metadata, Puzzle
from grader.results import Budget, SolveResult
from nonopress.cli import main

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = ROOT / "nonopress" / "commands"
#: the names a kind goes by; an isinstance on one of them is a command asking the kind
KIND_NAMES = {"Puzzle", "ColourPuzzle", "LoadedPuzzle", "LoadedColourPuzzle", "ColourGrade",
              "Grade", "AnyPuzzle"}

#: module -> why it still imports grader.colour (what remains of issue 33)
KNOWN_COLOUR_IMPORTS = {
    # the loader yields LoadedColourPuzzle, and the studio's grade_record shim narrows the
    # grade to ColourGrade; one Loaded type for both kinds would end both
    "colour.py": "LoadedColourPuzzle and the studio's grade_record shim",
}
#: module -> why it still branches on the kind with isinstance
KNOWN_ISINSTANCE = {
    "colour.py": "iter_any_puzzles wraps each kind in its own Loaded type; the studio shim",
}
#: modules that branch on the kind some other way
KNOWN_OTHER_BRANCHES: dict[str, str] = {}


def _tree(name: str) -> ast.Module:
    return ast.parse((COMMANDS / name).read_text(encoding="utf-8"), filename=name)


def _imports_colour(tree: ast.Module) -> bool:
    modules: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            modules.append(node.module)
        elif isinstance(node, ast.Import):
            modules.extend(alias.name for alias in node.names)
    return any(m == "grader.colour" or m.startswith("grader.colour.") for m in modules)


def _asks_the_kind(tree: ast.Module) -> bool:
    """An ``isinstance(x, K)`` with K one of the kinds' names (plain or dotted)."""
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "isinstance" and len(node.args) == 2):
            continue
        target = node.args[1]
        names = target.elts if isinstance(target, ast.Tuple) else [target]
        for name in names:
            text = name.attr if isinstance(name, ast.Attribute) else getattr(name, "id", "")
            if text in KIND_NAMES:
                return True
    return False


def _modules() -> list[str]:
    return sorted(p.name for p in COMMANDS.glob("*.py"))


def test_no_command_module_imports_the_colour_house() -> None:
    offenders = [m for m in _modules() if m not in KNOWN_COLOUR_IMPORTS
                 and _imports_colour(_tree(m))]
    assert offenders == [], "ask grader.kinds.kind_of instead"


def test_no_command_module_branches_on_the_kind() -> None:
    offenders = [m for m in _modules() if m not in KNOWN_ISINSTANCE
                 and _asks_the_kind(_tree(m))]
    assert offenders == [], "ask grader.kinds.kind_of instead"


def test_the_known_exceptions_are_still_true() -> None:
    """A listed exception that was fixed leaves the list (it shows what is left)."""
    assert all(_imports_colour(_tree(m)) for m in KNOWN_COLOUR_IMPORTS)
    assert all(_asks_the_kind(_tree(m)) for m in KNOWN_ISINSTANCE)
    assert all("colour" in (COMMANDS / m).read_text(encoding="utf-8")
               for m in KNOWN_OTHER_BRANCHES)


def test_the_checks_see_a_branch(tmp_path: Path) -> None:
    tree = ast.parse("def f(p):\n    from grader.colour.model import ColourPuzzle\n"
                     "    return isinstance(p, (int, ColourPuzzle))\n")
    assert _imports_colour(tree) and _asks_the_kind(tree)
    tree = ast.parse("import grader.kinds\ndef f(p):\n    return isinstance(p, int)\n")
    assert not _imports_colour(tree) and not _asks_the_kind(tree)


# -- the contract itself ---------------------------------------------------------------------
CROSS = Puzzle(rows=((1,), (3,), (1,)), columns=((1,), (3,), (1,)), meta=Metadata(title="Cross"))
TWO_WAYS = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)), meta=Metadata(title="Either"))
COLOUR_YAML = """title: Flag
palette:
  - {name: red, rgb: "ff0000", char: r}
  - {name: blue, rgb: "0000ff", char: b}
rows: ["2r 1b", "1r 2b"]
columns: ["2r", "1r 1b", "2b"]
"""


@pytest.fixture
def flag() -> ColourPuzzle:
    (puzzle,) = read_puzzles(COLOUR_YAML.encode(), format="yaml", name="flag.yaml")
    assert isinstance(puzzle, ColourPuzzle)
    return puzzle


def test_kind_of_gives_each_kind_its_contract(flag: ColourPuzzle) -> None:
    from grader.ladder import KINDS

    assert (BlackAndWhite.name, Colour.name) == KINDS  # the ladder table's kinds column
    assert isinstance(kind_of(CROSS), BlackAndWhite) and kind_of(CROSS).name == "black-and-white"
    assert isinstance(kind_of(flag), Colour) and kind_of(flag).name == "colour"
    contracts: list[PuzzleKind] = [kind_of(CROSS), kind_of(flag)]
    slots = [name for name in dir(PuzzleKind) if not name.startswith("_")]
    assert {"solve", "grade", "explain", "summary", "clue_texts"} <= set(slots)
    for contract in contracts:
        assert all(callable(getattr(contract, slot)) or slot in ("name", "puzzle")
                   for slot in slots)


def test_both_kinds_solve_and_count_through_the_contract(flag: ColourPuzzle) -> None:
    budget = Budget(seconds=20)
    cross = kind_of(CROSS).solve(2, budget)
    assert isinstance(cross, SolveResult) and cross.verdict == "unique"
    assert kind_of(CROSS).solution_rows(cross) == [[".#.", "###", ".#."]]
    assert kind_of(TWO_WAYS).solve(2, budget).verdict == "multiple"
    colour = kind_of(flag).solve(2, budget)
    assert isinstance(colour, SolveResult) and colour.verdict == "unique"
    assert kind_of(flag).solution_rows(colour) == [["rrb", "rbb"]]
    assert kind_of(flag).legend().startswith(". ")  # the background, then the colours


def test_both_kinds_grade_on_the_one_ladder(flag: ColourPuzzle) -> None:
    budget = Budget(seconds=30)
    for puzzle in (CROSS, flag):
        grade = kind_of(puzzle).grade(None, budget)
        assert grade.verdict == "unique" and grade.score is not None and grade.stars
        assert grade.level == "easy"
        text = kind_of(puzzle).explain(grade, puzzle.title)
        assert text.startswith(f"{puzzle.title}: {puzzle.size}, ") and "   1. " in text


def test_the_formats_registry_reads_and_writes_either_kind(flag: ColourPuzzle) -> None:
    data = write_puzzles([flag.with_solution(None)], "yaml")
    (again,) = read_puzzles(data, format="yaml", name="again.yaml")
    assert isinstance(again, ColourPuzzle)
    assert again.rows == flag.rows and again.palette.names() == flag.palette.names()
    (plain,) = read_puzzles(write_puzzles([CROSS], "non"), format="non", name="c.non")
    assert isinstance(plain, Puzzle) and plain.rows == CROSS.rows


def test_check_records_of_both_kinds_have_the_same_fields(
    tmp_path: Path, flag: ColourPuzzle, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "flag.yaml").write_text(COLOUR_YAML, encoding="utf-8")
    (tmp_path / "cross.non").write_bytes(write_puzzles([CROSS], "non"))
    status = main(["check", "--json", str(tmp_path / "flag.yaml"), str(tmp_path / "cross.non")])
    assert status == 0
    colour, plain = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert colour["verdict"] == plain["verdict"] == "unique"
    assert set(colour) - set(plain) == {"colours", "palette"}
    assert set(plain) <= set(colour)
    assert colour["solutions"] == [["rrb", "rbb"]]


CONTRADICTORY = """palette:
  - {name: red, rgb: "ff0000", char: r}
  - {name: blue, rgb: "0000ff", char: b}
rows: ["1r 1b", "1r 1b"]
columns: ["1b 1r", "1b 1r"]
"""


def test_a_colour_puzzle_without_a_solution_names_the_broken_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The diagnosis black and white had, through the same slot for colour."""
    path = tmp_path / "none.yaml"
    path.write_text(CONTRADICTORY, encoding="utf-8")
    assert main(["check", str(path)]) == 1
    line = capsys.readouterr().out.strip()
    assert line.split("\t")[2:] == [
        "none", line.split("\t")[3],
        "column 1 (clue 1b 1r) cannot be satisfied given the cells decided before it (rr)"]
    assert main(["solve", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[2].startswith("no solution: column 1 (clue 1b 1r)")
    assert out[3:] == ["the grid when it broke (? = still open, > marks the line):",
                       " v", " rb", " rb"]


def test_grade_html_replays_both_kinds_through_the_contract(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "flag.yaml").write_text(COLOUR_YAML, encoding="utf-8")
    (tmp_path / "cross.non").write_bytes(write_puzzles([CROSS], "non"))
    page = tmp_path / "replay.html"
    assert main(["grade", "--explain", "--html", str(page), str(tmp_path / "flag.yaml"),
                 str(tmp_path / "cross.non")]) == 0
    captured = capsys.readouterr()
    assert "Flag: 3x2, 2 colours (red, blue), easy" in captured.out
    assert "Cross: 3x3, easy" in captured.out
    assert captured.err == ""  # no puzzle left out
    html = page.read_text(encoding="utf-8")
    assert "Cross" in html and "Flag" in html
    assert '"palette": [{"name": "white", "rgb": "#ffffff"}, {"name": "red"' in html
