"""Many-puzzle files: empty clue lines, and one bad puzzle that spoils only itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader import formats
from grader.errors import BundleError, FormatError
from grader.model import Puzzle
from nonopress.cli import main

RING = [".###.", "#.#.#", "#####", "#.#.#", ".###."]
#: an all-white first row and last column
GAPPED = [".....", "##.#.", "#.##.", ".##..", "#.#.."]


def taai(puzzles: list[Puzzle]) -> str:
    return formats.write(puzzles, "taai").decode("ascii")


def test_empty_clue_lines_are_all_white_rows_and_columns() -> None:
    puzzle = Puzzle.from_picture(GAPPED)
    # the tournament files leave empty clues blank (the writer puts 0)
    text = "\n".join("" if line == "0" else line
                     for line in taai([puzzle, Puzzle.from_picture(RING)]).splitlines())
    assert "\n\n" in text
    read = formats.read(text.encode(), format="taai", name="set.txt")
    assert [p.rows for p in read] == [puzzle.rows, Puzzle.from_picture(RING).rows]
    assert read[0].columns == puzzle.columns


def test_blank_lines_after_a_block_are_separators_when_the_puzzle_is_whole() -> None:
    text = taai([Puzzle.from_picture(RING)]).replace("\n", "\r\n") + "\r\n\r\n"
    (puzzle,) = formats.read(text.encode(), format="taai", name="set.txt")
    assert puzzle.size == "5x5"


def test_one_bad_puzzle_leaves_the_others_readable() -> None:
    good = taai([Puzzle.from_picture(RING)] * 3).splitlines()
    good[1 + 6 + 7] = "9 9"  # puzzle 2's first row clue cannot fit 5 cells
    with pytest.raises(BundleError) as caught:
        formats.read("\n".join(good).encode(), format="taai", name="set.txt")
    error = caught.value
    assert [position for position, _ in error.readable] == [1, 3] and error.count == 3
    assert error.lines() == [str(error)] and str(error).startswith("set.txt:")
    assert isinstance(error, FormatError)


def test_check_reports_the_good_puzzles_then_the_bad_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = taai([Puzzle.from_picture(RING)] * 3).splitlines()
    bad_header = 1 + 10 + 1  # the second block's '$2' line, 1-based
    lines.insert(bad_header, "1")  # an odd number of clue lines
    path = tmp_path / "set.txt"
    path.write_text("\n".join(lines) + "\n")
    assert main(["check", str(path)]) == 2
    captured = capsys.readouterr()
    assert [line.split("\t")[0] for line in captured.out.splitlines()] == [
        f"{path}#1", f"{path}#3"
    ]
    assert f"{path}:{bad_header}" in captured.err
