"""``nonopress check / solve / info / convert`` on colour puzzles, through main(argv)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from grader.colour.model import ColourPuzzle
from grader.formats import read_any
from nonopress.cli import main

# red and blue may touch: "1r 1b" in two cells has one placement
UNIQUE = """title: Touching
palette:
  - {name: red, rgb: "ff0000", char: r}
  - {name: blue, rgb: "0000ff", char: b}
rows: ["1r 1b", "2b"]
columns: ["1r 1b", "2b"]
"""
# the bottom row is blue, the two reds sit on either diagonal above it: two solutions
TWO = """palette:
  - {name: red, rgb: "ff0000", char: r}
  - {name: blue, rgb: "0000ff", char: b}
rows: ["1r", "1r", "1b"]
columns: ["1r 1b", "1r"]
"""
NONE = """palette:
  - {name: red, rgb: "ff0000", char: r}
  - {name: blue, rgb: "0000ff", char: b}
rows: ["1r 1b", "1r 1b"]
columns: ["1b 1r", "1b 1r"]
"""


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    out = {}
    for name, text in (("unique", UNIQUE), ("two", TWO), ("none", NONE)):
        path = tmp_path / f"{name}.yaml"
        path.write_text(text)
        out[name] = path
    return out


def test_check_colour_verdicts(files: dict[str, Path], capsys: pytest.CaptureFixture[str]
                               ) -> None:
    status = main(["check", "--json", str(files["unique"]), str(files["two"]),
                   str(files["none"])])
    assert status == 1  # not every puzzle is unique: check is a pre-press gate
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["verdict"] for r in records] == ["unique", "multiple", "none"]
    assert records[0]["solutions"] == [["rb", "bb"]]
    assert [c["name"] for c in records[0]["palette"]] == ["red", "blue"]
    assert len(records[1]["differing_cells"]) == 4


def test_solve_prints_colour_grid_and_writes_it(files: dict[str, Path], tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "solved.xml"
    assert main(["solve", str(files["unique"]), "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "unique" in text and "r red" in text and "\nrb\nbb" in text
    (again,) = read_any(out)
    assert isinstance(again, ColourPuzzle) and again.solution == ("rb", "bb")


def test_solve_shows_two_colour_solutions(files: dict[str, Path],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", str(files["two"])]) == 1  # not unique
    text = capsys.readouterr().out
    assert "multiple" in text and "4 cells differ" in text


def test_info_names_colours(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["info", "--json", str(files["unique"])]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["colours"] == 2 and record["rows"] == ["1r 1b", "2b"]
    assert main(["info", str(files["unique"])]) == 0
    assert "2x2 2col" in capsys.readouterr().out


@pytest.mark.parametrize("suffix", [".xml", ".g", ".ini", ".json", ".yaml"])
def test_convert_round_trips_colour(files: dict[str, Path], tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"out{suffix}"
    assert main(["convert", str(files["unique"]), str(out)]) == 0
    (again,) = read_any(out)
    (original,) = read_any(files["unique"])
    assert isinstance(again, ColourPuzzle) and isinstance(original, ColourPuzzle)
    assert (again.rows, again.columns) == (original.rows, original.columns)


def test_convert_refuses_colour_into_black_and_white_format(
        files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.nin"
    assert main(["convert", str(files["unique"]), str(out)]) == 2
    err = capsys.readouterr().err
    assert "out.nin" in err and "cannot hold colour" in err and len(err.splitlines()) == 1
    assert not out.exists()


def test_convert_picture_with_colours(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                      ) -> None:
    rgb = np.full((4, 4, 3), 255, dtype=np.uint8)
    rgb[0, :3] = (230, 20, 20)
    rgb[1:, 1] = (20, 20, 230)
    picture = tmp_path / "pic.png"
    buffer = io.BytesIO()
    Image.fromarray(rgb).save(buffer, format="PNG")
    picture.write_bytes(buffer.getvalue())
    out = tmp_path / "pic.yaml"
    assert main(["convert", "--colours", "2", str(picture), str(out)]) == 0
    assert main(["check", str(out)]) == 0
    assert "unique" in capsys.readouterr().out


def test_convert_refuses_a_drawing_bigger_than_a_puzzle_and_points_to_make(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 36, item 7: a 300x200 drawing became a 300x200 puzzle."""
    rgb = np.full((200, 300, 3), 255, dtype=np.uint8)
    rgb[40:160, 50:150] = (230, 20, 20)
    rgb[60:180, 170:260] = (20, 20, 230)
    picture = tmp_path / "drawing.png"
    Image.fromarray(rgb).save(picture)
    out = tmp_path / "drawing.yaml"
    assert main(["convert", "--colours", "4", str(picture), str(out)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "300x200 picture is no puzzle" in err
    assert "`nonopress make drawing.png --colours 4 --size 30x30`" in err and not out.exists()
    # what the message suggests makes a puzzle of a printable size
    assert main(["make", str(picture), "--colours", "4", "--size", "30x30", "-q",
                 "-o", str(out)]) == 0
    made = read_any(out)[0]
    assert made.width <= 30 and made.height <= 30


def test_bad_colour_file_is_one_line_and_status_2(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.g"
    bad.write_text("#d\n   r:r red\n: rows\n1q\n: columns\n1r\n: end\n")
    assert main(["check", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("nonopress check:") and "bad.g:4" in err and "'q'" in err


def test_grade_colour_table_json_and_explain(files: dict[str, Path],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grade", "--json", str(files["unique"])]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["verdict"] == "unique" and record["level"] == "easy"
    assert record["colours"] == 2
    assert main(["grade", "--explain", str(files["unique"])]) == 0
    text = capsys.readouterr().out
    assert "2 colours (red, blue)" in text and "1 red, 1 blue" in text
    assert main(["grade", str(files["unique"]), str(files["two"])]) == 1  # not unique
    table = capsys.readouterr().out
    assert "easy" in table and "ambiguous" in table


def test_checking_a_small_colour_puzzle_loads_no_numba(files: dict[str, Path]) -> None:
    import subprocess
    import sys

    script = ("import sys; from nonopress.cli import main; code = main(['check', "
              f"{str(files['unique'])!r}]); print('numba' in sys.modules, file=sys.stderr); "
              "sys.exit(code)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and "unique" in done.stdout
    assert done.stderr.strip() == "False"


def test_quick_line_logic_agrees_with_the_solver() -> None:
    from grader.colour.palette import Colour, Palette
    from grader.colour.quick import prove_colour_by_line_logic
    from grader.colour.solver import solve_colour
    from grader.results import Budget

    palette = Palette((Colour("red", (255, 0, 0), "r"), Colour("blue", (0, 0, 255), "b")))
    rng = np.random.default_rng(3)
    answered = 0
    for _ in range(200):
        picture = rng.integers(0, 3, size=(int(rng.integers(2, 9)), int(rng.integers(2, 9))))
        puzzle = ColourPuzzle.from_picture(picture.astype(np.uint8), palette)
        quick = prove_colour_by_line_logic(puzzle, Budget())
        if quick is None:
            continue
        answered += 1
        full = solve_colour(puzzle)
        assert full.verdict == "unique"
        assert np.array_equal(quick.solutions[0], full.solutions[0])
    assert answered > 20


def test_solve_first_stops_at_one_colour_solution(files: dict[str, Path],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--first", str(files["two"])]) == 0
    text = capsys.readouterr().out
    assert ": solved," in text and "differ" not in text
