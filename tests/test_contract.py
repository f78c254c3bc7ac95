"""One contract for a kind of puzzle (grader.kinds): nonopress asks ``kind_of(puzzle)``
and never which kind it holds.

The structural tests read the source of every module under nonopress/: none imports the
colour kind's engines (``grader.colour``; its palette, a value type the studio parses a
request's colours into, is the one module allowed) and none calls ``isinstance`` on a
puzzle kind or its grade.
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
NONOPRESS = ROOT / "nonopress"
#: the names a kind goes by; an isinstance on one of them is a module asking the kind
KIND_NAMES = {"Puzzle", "ColourPuzzle", "LoadedPuzzle", "LoadedColourPuzzle", "ColourGrade",
              "Grade", "AnyPuzzle"}
#: the one colour module nonopress may import: the palette, a value type (no engine)
PALETTE = "grader.colour.palette"


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _imports_colour(tree: ast.Module) -> bool:
    modules: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            modules.append(node.module)
        elif isinstance(node, ast.Import):
            modules.extend(alias.name for alias in node.names)
    return any((m == "grader.colour" or m.startswith("grader.colour.")) and m != PALETTE
               for m in modules)


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


def _modules() -> list[Path]:
    return sorted(NONOPRESS.rglob("*.py"))


def test_the_checks_read_every_module_of_nonopress() -> None:
    names = {p.relative_to(NONOPRESS).as_posix() for p in _modules()}
    assert {"commands/check.py", "studio/engines.py", "batch/worker.py",
            "catalogue/importing.py"} <= names


def test_no_nonopress_module_imports_the_colour_house() -> None:
    offenders = [str(m.relative_to(ROOT)) for m in _modules() if _imports_colour(_tree(m))]
    assert offenders == [], "ask grader.kinds.kind_of instead"


def test_no_nonopress_module_branches_on_the_kind() -> None:
    offenders = [str(m.relative_to(ROOT)) for m in _modules() if _asks_the_kind(_tree(m))]
    assert offenders == [], "ask grader.kinds.kind_of instead"


def test_the_checks_see_a_branch(tmp_path: Path) -> None:
    tree = ast.parse("def f(p):\n    from grader.colour.model import ColourPuzzle\n"
                     "    return isinstance(p, (int, ColourPuzzle))\n")
    assert _imports_colour(tree) and _asks_the_kind(tree)
    tree = ast.parse("import grader.colour.grading as g\n")
    assert _imports_colour(tree)
    tree = ast.parse("import grader.kinds\nfrom grader.colour.palette import Palette\n"
                     "def f(p):\n    return isinstance(p, int)\n")
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
        assert all(callable(getattr(contract, slot))
                   or slot in ("name", "tag", "puzzle", "drawing")
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


def test_the_slots_the_studio_batch_and_catalogue_ask(flag: ColourPuzzle) -> None:
    """What used to be an isinstance in the studio, batch and catalogue, asked of each kind."""
    from grader.errors import PuzzleError
    from grader.kinds import puzzle_from_rows

    budget = Budget(seconds=20)
    plain, colour = kind_of(CROSS), kind_of(flag)
    assert (plain.tag, plain.colours(), plain.palette()) == ("bw", 1, None)
    assert (colour.tag, colour.colours()) == ("colour", 2)
    assert [c["name"] for c in colour.palette() or []] == ["red", "blue"]
    assert plain.grid_rows(plain.grade(None, budget)) == (".#.", "###", ".#.")
    assert colour.grid_rows(colour.grade(None, budget)) == ("rrb", "rbb")
    assert plain.picture([".#."]).tolist() == [[False, True, False]]
    assert colour.picture(["rb."]).tolist() == [[1, 2, 0]]
    assert plain.editor_record()["rows"] == [[1], [3], [1]]
    assert colour.editor_record()["rows"] == [[[2, "r"], [1, "b"]], [[1, "r"], [2, "b"]]]
    assert kind_of(plain.with_givens([(0, 1, True)])).givens() == ((0, 1, True),)
    with pytest.raises(PuzzleError, match="givens are for black-and-white"):
        colour.with_givens([(0, 1, True)])
    assert plain.black_and_white() is CROSS and colour.black_and_white() is None
    drawn = puzzle_from_rows(["rrb", "rbb"], Metadata(title="again"), flag.palette)
    assert isinstance(drawn, ColourPuzzle) and drawn.rows == flag.rows
    assert puzzle_from_rows([".#.", "###", ".#."], Metadata()).rows == CROSS.rows


def test_a_stored_tag_names_its_kind_and_draws_without_reading_the_puzzle(
        flag: ColourPuzzle) -> None:
    """A listing asks ``STORED[row.kind]``: black-and-white rows draw alone (the puzzle is
    never read back), colour rows read the palette of the stored puzzle."""
    from grader.kinds import STORED, TAGS
    from nonopress.catalogue.schema import KINDS

    assert TAGS == KINDS and {"bw", "colour"} <= set(TAGS)
    for puzzle in (CROSS, flag):
        kind = kind_of(puzzle)
        registered: object = STORED[kind.tag]
        assert type(kind) is registered

    def unread() -> Puzzle:
        raise AssertionError("a black-and-white row was read back")

    plain = STORED["bw"]
    assert not plain.rows_need_palette
    assert plain.stored_picture([".#."], unread).tolist() == [[False, True, False]]
    colour = STORED["colour"]
    asked: list[str] = []

    def stored() -> ColourPuzzle:
        asked.append("read")
        return flag

    assert colour.rows_need_palette
    assert colour.stored_picture(["rb."], stored).tolist() == [[1, 2, 0]] and asked


def test_no_solution_names_the_line_for_either_kind() -> None:
    (broken,) = read_puzzles(CONTRADICTORY.encode(), format="yaml", name="none.yaml")
    found = kind_of(broken).no_solution()
    assert found.where() == {"axis": "column", "index": 0}
    assert found.lines()[0].startswith("no solution: column 1")
    plain = Puzzle(rows=((2,), (), (2,)), columns=((2,), (2,)))
    assert kind_of(plain).no_solution().where() == {"axis": "column", "index": 0}
