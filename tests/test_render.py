"""``nonopress render``: one puzzle drawn with its clues and, asked, its solution, as PNG,
SVG and PDF, checked for what a reader sees (issue 36, item 9)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from grader import formats
from grader.model import Puzzle
from layout.render import CELL, MARGIN, PNG_SCALE, puzzle_page, render
from nonopress.cli import main

# a plus sign in a 5x5 grid: clues 1 1 5 1 1 both ways
PLUS = ["..#..", "..#..", "#####", "..#..", "..#.."]


@pytest.fixture
def plus(tmp_path: Path) -> Path:
    path = tmp_path / "plus.yaml"
    path.write_bytes(formats.write(Puzzle.from_picture(PLUS).with_meta(title="Plus"), "yaml"))
    return path


def _cell_is_dark(image: Image.Image, row: int, column: int, slots: int) -> bool:
    """Whether the centre of grid cell (row, column) is inked, in a PNG without caption."""
    x = (MARGIN + (slots + column + 0.5) * CELL) * PNG_SCALE
    y = (MARGIN + (slots + row + 0.5) * CELL) * PNG_SCALE
    grey = image.convert("L").getpixel((round(x), round(y)))
    assert isinstance(grey, int)
    return grey < 100


def test_png_shows_the_solution_only_when_asked() -> None:
    puzzle = Puzzle.from_picture(PLUS)
    blank = Image.open(io.BytesIO(render(puzzle_page(puzzle), "png")))
    solved = Image.open(io.BytesIO(render(puzzle_page(puzzle, puzzle.solution_array()),
                                          "png")))
    slots = 1  # one number a row and a column
    assert blank.size == solved.size == (
        round((2 * MARGIN + 6 * CELL) * PNG_SCALE), round((2 * MARGIN + 6 * CELL) * PNG_SCALE))
    for r, line in enumerate(PLUS):
        for c, mark in enumerate(line):
            assert _cell_is_dark(solved, r, c, slots) == (mark == "#"), (r, c)
            assert not _cell_is_dark(blank, r, c, slots)


def test_the_command_writes_png_svg_and_pdf_with_clues_and_caption(
    plus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for kind in ("png", "svg", "pdf"):
        out = tmp_path / f"plus.{kind}"
        assert main(["render", str(plus), str(out), "--solution"]) == 0, capsys.readouterr()
        assert out.stat().st_size > 200
    svg = (tmp_path / "plus.svg").read_text()
    assert svg.count(">5</text>") == 2 and svg.count(">1</text>") == 8
    assert "Plus, 5x5" in svg
    text = PdfReader(tmp_path / "plus.pdf").pages[0].extract_text()
    assert "Plus, 5x5" in text and text.count("5") >= 3
    with Image.open(tmp_path / "plus.png") as shown:
        assert shown.width > 5 * CELL * PNG_SCALE


def test_the_command_refuses_an_unknown_suffix_and_a_bad_index(
    plus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["render", str(plus), str(tmp_path / "plus.jpg")]) == 2
    assert "plus.jpg" in capsys.readouterr().err
    assert main(["render", str(plus), str(tmp_path / "p.png"), "--index", "3"]) == 2
    assert "holds 1 puzzle" in capsys.readouterr().err


def test_solve_out_png_draws_the_solved_grid_and_to_png_keeps_pixels(
    plus: Path, tmp_path: Path
) -> None:
    drawn, pixels = tmp_path / "sol.png", tmp_path / "pixels.png"
    assert main(["solve", str(plus), "--out", str(drawn)]) == 0
    assert main(["solve", str(plus), "--out", str(pixels), "--to", "png"]) == 0
    with Image.open(drawn) as shown:
        image = shown.copy()
    caption = 2 * 11.0  # the caption line above the block
    x = (MARGIN + (1 + 2 + 0.5) * CELL) * PNG_SCALE
    y = (MARGIN + caption + (1 + 2 + 0.5) * CELL) * PNG_SCALE
    centre = image.convert("L").getpixel((round(x), round(y)))  # the plus's centre cell
    assert isinstance(centre, int) and centre < 100
    with Image.open(pixels) as one_pixel_a_cell:
        assert one_pixel_a_cell.size == (5, 5)
