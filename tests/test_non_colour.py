"""Colour ``.non``: ``color`` lines and colour-count clue pairs, as webpbn's and
griddlers.net's exports write them, read and written (puzzles made here, no scraped file)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from grader.colour.model import ColourPuzzle
from grader.colour.palette import Colour, Palette
from grader.errors import FormatError
from grader.formats import read_any, write_any
from grader.kinds import kind_of
from grader.model import Puzzle

#: a griddlers.net-style file: one-letter colour names, no chars, the background first
GRIDDLERS_STYLE = """\
by "someone"
collection "griddlers.net"
height 4
id 12345
medium_time "0:01:10"
title "Flag &amp; pole"
width 5

color a ffffff
color b 000000
color c ff3300

rows
c 2 b 1
c 2 c 1 b 1
b 1
b 1

columns
c 2
c 2
b 1
c 1 b 1
b 1 b 1
"""

#: a webpbn-style file: colour words with their chars
WEBPBN_STYLE = """\
title "Two"
width 3
height 2

color white FFFFFF .
color black 000000 X
color blue 4040FF @

rows
blue 2 black 1
black 1
columns
blue 1
blue 1
black 2
"""


def drawn() -> ColourPuzzle:
    palette = Palette((Colour("red", (208, 28, 28), "r"), Colour("green", (46, 139, 58), "g"),
                       Colour("navy", (0, 0, 128), "n")))
    picture = np.array([[0, 2, 2, 0, 0], [1, 1, 2, 1, 1], [1, 1, 0, 1, 1],
                        [0, 3, 3, 3, 0], [3, 0, 0, 0, 3]], dtype=np.uint8)
    return ColourPuzzle.from_picture(picture, palette).with_meta(
        title="Cherries & <leaves>", author="Nonopress", license="MIT")


def test_a_griddlers_colour_file_reads_as_its_pairs_say() -> None:
    (puzzle,) = read_any(GRIDDLERS_STYLE.encode(), name="flag.non")
    assert isinstance(puzzle, ColourPuzzle)
    palette = puzzle.palette
    assert palette.background.name == "a" and palette.background.rgb == (255, 255, 255)
    assert [(c.name, c.rgb, c.char) for c in palette.colours] == [
        ("b", (0, 0, 0), "b"), ("c", (255, 51, 0), "c")]
    b, c = 1, 2
    assert puzzle.rows == (((2, c), (1, b)), ((2, c), (1, c), (1, b)), ((1, b),), ((1, b),))
    assert puzzle.columns[3] == ((1, c), (1, b))
    assert puzzle.title == "Flag & pole"
    # a red block touching the black one needs no gap; two red ones do (row 2: 2 + 1 + 1 + 1)
    assert kind_of(puzzle).solve(2, budget=_budget()).verdict == "unique"


def test_a_webpbn_colour_file_keeps_its_chars() -> None:
    (puzzle,) = read_any(WEBPBN_STYLE.encode(), name="two.non")
    assert isinstance(puzzle, ColourPuzzle)
    assert puzzle.palette.background.char == "."
    assert [(c.name, c.char) for c in puzzle.palette.colours] == [("black", "X"), ("blue", "@")]
    assert puzzle.rows == (((2, 2), (1, 1)), ((1, 1),))


@pytest.mark.parametrize("text", [GRIDDLERS_STYLE, WEBPBN_STYLE])
def test_a_read_colour_file_writes_back_to_the_same_puzzle(text: str) -> None:
    (puzzle,) = read_any(text.encode(), format="non")
    written = write_any(puzzle, "non")
    assert b"\ncolor " in written
    (again,) = read_any(written, format="non")
    assert isinstance(again, ColourPuzzle)
    assert (again.rows, again.columns) == (puzzle.rows, puzzle.columns)
    assert again.palette.background == puzzle.palette.background
    assert [(c.name, c.rgb, c.char) for c in again.palette.colours] == [
        (c.name, c.rgb, c.char) for c in puzzle.palette.colours]


def test_a_drawn_puzzle_round_trips_with_its_solution_and_metadata() -> None:
    puzzle = drawn()
    text = write_any(puzzle, "non").decode()
    assert "color red d01c1c r" in text and "\nred 2 red 2\n" in text  # row 2: a gap
    (again,) = read_any(text.encode(), format="non")
    assert isinstance(again, ColourPuzzle)
    assert (again.rows, again.columns, again.solution) == (
        puzzle.rows, puzzle.columns, puzzle.solution)
    assert (again.title, again.meta.author, again.meta.license) == (
        "Cherries & <leaves>", "Nonopress", "MIT")
    several = read_any(write_any([puzzle, puzzle.with_meta(title="Second")], "non"),
                       format="non")
    assert [p.title for p in several] == ["Cherries & <leaves>", "Second"]


def test_the_suffix_form_and_bare_counts_read_too() -> None:
    text = ("width 3\nheight 1\ncolor white ffffff\ncolor black 000000\ncolor red ff0000\n"
            "rows\n1red 1 1red\ncolumns\nred 1\nblack 1\n1red\n")
    (puzzle,) = read_any(text.encode(), format="non")
    assert isinstance(puzzle, ColourPuzzle)
    red, black = puzzle.palette.index_of_name("red"), puzzle.palette.index_of_name("black")
    assert puzzle.rows == (((1, red), (1, black), (1, red)),)


def test_one_black_colour_on_white_is_black_and_white() -> None:
    text = ("width 2\nheight 2\ncolor a ffffff\ncolor b 000000\n"
            "rows\nb 1\nb 2\ncolumns\nb 2\nb 1\n")
    (puzzle,) = read_any(text.encode(), format="non")
    assert isinstance(puzzle, Puzzle)
    assert (puzzle.rows, puzzle.columns) == (((1,), (2,)), ((2,), (1,)))


@pytest.mark.parametrize(("body", "message", "line"), [
    ("rows\nb 1 q 2\ncolumns\nb 1\nb 1\n", "colour 'q': no color line declares it", 7),
    ("rows\nb 1 c\ncolumns\nb 1\nb 1\n", "colour 'c' has no count", 7),
    ("rows\nb 0 b 1\ncolumns\nb 1\nb 1\n", "0 can only stand alone", 7),
    ("rows\nc 3\ncolumns\nc 1\nc 1\n", "row 1 clue", None),
])
def test_bad_colour_clues_are_one_error_at_their_line(body: str, message: str,
                                                      line: int | None) -> None:
    text = "width 2\nheight 1\ncolor a ffffff\ncolor b 000000\ncolor c ff0000\n" + body
    with pytest.raises(FormatError, match=message) as info:
        read_any(text.encode(), format="non", name="bad.non")
    if line is not None:
        assert str(info.value).startswith(f"bad.non:{line}")


def test_a_bad_color_line_is_named() -> None:
    with pytest.raises(FormatError, match="cannot read 'zz' as RGB"):
        read_any(b"width 1\nheight 1\ncolor b zz\nrows\nb 1\ncolumns\nb 1\n", format="non")


def test_grade_reads_a_colour_non_file(tmp_path: Path) -> None:
    path = tmp_path / "98947_Flag.non"
    path.write_text(GRIDDLERS_STYLE)
    done = subprocess.run([sys.executable, "-m", "nonopress", "grade", "--json", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert '"colours": 2' in done.stdout and '"verdict": "unique"' in done.stdout
    bad = tmp_path / "bad.non"
    bad.write_text(GRIDDLERS_STYLE.replace("c 2 b 1", "c 2 x 1"))
    done = subprocess.run([sys.executable, "-m", "nonopress", "grade", str(bad)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert "no color line declares it" in done.stderr and "Traceback" not in done.stderr


def _budget() -> object:
    from grader.results import Budget

    return Budget(seconds=30)
