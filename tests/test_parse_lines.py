"""Parse errors at the line that is wrong, saying what is wrong (issue 36, item 6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader import formats
from grader.errors import FormatError

GOOD_COLUMNS = "columns\n1\n1\n1\n1\n1\n"


@pytest.mark.parametrize(
    ("text", "line", "says"),
    [
        # a typo in a row is a typo, not a colour puzzle
        ("width 5\nheight 5\nrows\n1\n1 l\n1\n1\n1\n" + GOOD_COLUMNS, 5, "'l' is not a whole"),
        # four rows under height 5: said at the heading that came too soon
        ("width 5\nheight 5\nrows\n1\n1\n1\n1\ncolumns\n1\n1\n1\n1\n5\n", 8,
         "4 rows given, but height says 5"),
        # a clue longer than its line: at the clue's own line, not the height's
        ('title "x"\nwidth 5\nheight 5\nrows\n1\n1\n9\n1\n1\n' + GOOD_COLUMNS, 7,
         "row 3 clue 9 needs 9 cells but the row has 5"),
        ("width 5\nheight 5\nrows\n1\n1\n1\n1\n1\ncolumns\n1\n1\n2 3\n1\n1\n", 12,
         "column 3 clue 2 3 needs 6 cells but the column has 5"),
    ],
)
def test_non_errors_point_at_the_wrong_line(text: str, line: int, says: str) -> None:
    with pytest.raises(FormatError) as caught:
        formats.read(text.encode(), format="non", name="bad.non")
    assert caught.value.line == line and says in caught.value.message, caught.value


def test_colour_notation_is_still_named() -> None:
    text = "width 2\nheight 1\nrows\n1a 1b\ncolumns\n1a\n1b\n"
    with pytest.raises(FormatError, match="colour puzzles are not supported"):
        formats.read(text.encode(), format="non", name="colour.non")


def test_check_names_the_cells_that_differ(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    from grader.model import Puzzle
    from nonopress.cli import main

    two = Puzzle.from_picture(["#.", ".#"])
    path = tmp_path / "two.yaml"
    path.write_bytes(formats.write(Puzzle(two.rows, two.columns), "yaml"))
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "4 cells differ: (row 1, column 1), (row 1, column 2), (row 2, column 1), " \
        "(row 2, column 2)" in out


def test_batch_names_the_duplicates_it_ignores(tmp_path: Path) -> None:
    from grader.model import Puzzle
    from nonopress.batch.discover import read_tasks

    plus = Puzzle.from_picture([".#.", "###", ".#."])
    for name in ("a.yaml", "b.yaml"):
        (tmp_path / name).write_bytes(formats.write(plus, "yaml"))
    found = read_tasks([tmp_path / "a.yaml", tmp_path / "b.yaml"], 10.0)
    assert found.duplicates == 1 and len(found.tasks) == 1
    (named,) = found.duplicate_names
    assert "b.yaml #1 is the same puzzle as" in named and "a.yaml #1" in named


def test_grade_max_rung_calls_stuck_puzzles_stuck_not_defects(
        capsys: pytest.CaptureFixture[str]) -> None:
    from nonopress.cli import main

    root = Path(__file__).resolve().parents[1] / "puzzles"
    main(["grade", "--max-rung", "simple-boxes", str(root / "owl.yaml")])
    out = capsys.readouterr().out
    assert "not defects: they need a harder rung" in out and "defect is not" not in out


def test_generate_counts_attempts_per_puzzle() -> None:
    from grader.authoring import Target, generate

    said: list[str] = []
    made = list(generate(8, 8, target=Target(), count=2, seed=3, seconds=60,
                         progress=said.append))
    assert len(made) == 2
    # the second puzzle's count starts again: its misses plus the one that made it
    misses = sum("puzzle 2/2, attempt" in line for line in said)
    (done,) = [line for line in said if "puzzle 2/2:" in line]
    tries = misses + 1
    assert f"after {tries} attempt{'s' * (tries != 1)} (" in done, said


def test_an_unknown_slot_lists_the_slots_there_are() -> None:
    from words.grid import parse_grid

    grid = parse_grid("#..\n...\n..#\n")
    with pytest.raises(KeyError) as caught:
        grid.find_slot("32A")
    assert "no slot '32A' (its slots: 1A, 3A, 4A, 1D, 2D, 3D)" in str(caught.value)
