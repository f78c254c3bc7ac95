"""Issue 46, item 12: the smaller ones. ``info FOLDER`` reads the folder's puzzles;
``library find`` says 0.3 minutes, not 0; a short book's report never says "on 8 pages
instead of 8"."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from grader.formats import write
from grader.model import Metadata, Puzzle
from layout.draw import Block, Page
from layout.plan import IssuePlan, _bigger_puzzles_said
from nonopress.cli import main


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "stock"
    folder.mkdir()
    for number in range(2):
        picture = np.zeros((5, 5), dtype=bool)
        picture[number] = True
        picture[:, 4 - number] = True
        (folder / f"p{number}.non").write_bytes(
            write(Puzzle.from_picture(picture, Metadata(title=f"Tiny {number}")), "non"))
    return folder


def test_info_reads_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _folder(tmp_path)
    assert main(["info", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "Tiny 0" in out and "Tiny 1" in out
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["info", str(empty)]) == 2
    err = capsys.readouterr().err
    assert str(empty) in err and len(err.strip().splitlines()) == 1


def test_library_find_shows_tenths_under_a_minute(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _folder(tmp_path)
    db = str(tmp_path / "c.sqlite")
    assert main(["library", "add", str(folder), "--db", db, "-j", "1"]) == 0
    capsys.readouterr()
    assert main(["library", "find", "--db", db]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    minutes = [row[6] for row in rows]  # id kind size level score stars min title
    assert minutes and all(m.startswith("0.") for m in minutes), rows


def _plan(cells: list[list[float]]) -> IssuePlan:
    pages = []
    for page_cells in cells:
        page = Page(400.0, 600.0, "puzzles")
        page.blocks = [Block(n, 0.0, 0.0, c, None, False)  # type: ignore[arg-type]
                       for n, c in enumerate(page_cells)]
        pages.append(page)
    return IssuePlan(pages)


def test_a_short_book_report_names_a_page_count_once_when_it_is_unchanged() -> None:
    same = _bigger_puzzles_said(_plan([[10.0, 10.0]] * 8), _plan([[20.0]] * 8))
    assert "instead of" not in same and "on 8 pages" in same
    fewer = _bigger_puzzles_said(_plan([[10.0]] * 4), _plan([[20.0]] * 8))
    assert "on 8 pages instead of 4" in fewer


def test_colour_issues_are_made_as_pdfx_with_worked_pages_as_the_docs_say(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from grader.colour.model import ColourPuzzle, rows_to_colour_array
    from grader.colour.palette import Colour, Palette
    from grader.formats import write_any

    palette = Palette((Colour("red", (200, 30, 30), "r"), Colour("green", (30, 150, 60), "g")))
    rows = ["rr..g", "rr.gg", "..gg.", "r.g..", "rrr.g"]
    puzzle = ColourPuzzle.from_picture(rows_to_colour_array(rows, palette), palette,
                                       Metadata(title="Flag"))
    (tmp_path / "flag.yaml").write_bytes(write_any(puzzle, "yaml"))
    (tmp_path / "issue.yaml").write_text("title: C\nworked: [1]\npuzzles: [flag.yaml]\n",
                                         encoding="utf-8")
    out = tmp_path / "c.pdf"
    assert main(["issue", str(tmp_path / "issue.yaml"), "-o", str(out), "--profile", "pdfx",
                 "--cache-dir", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "passes" in err and "not made" not in err
    assert "4 pages" in err  # contents, puzzle, solution, worked solution
    docs = (Path(__file__).resolve().parents[1] / "docs" / "colour.md").read_text()
    assert "not made for colour" not in docs


def test_steering_never_cuts_a_line_one_cell_wide() -> None:
    from grader.authoring.measure import EDGE, SPECK, look_penalty

    picture = np.zeros((7, 7), dtype=bool)
    picture[3, :] = True  # a line one cell wide across the picture
    picture[0:2, 0:2] = True  # and a small solid block
    for column in range(1, 6):
        assert look_penalty(picture, 3, column) == SPECK  # its middle: a cut
    assert look_penalty(picture, 0, 1) == EDGE  # the block's edge may still move
    import random

    from grader.authoring.steer import _harder_pool
    from grader.authoring.unique import Edit

    edit = Edit.of(picture.copy())
    pool = _harder_pool(edit, random.Random(1), 40)
    assert not [cell for cell in pool if cell[0] == 3 and 1 <= cell[1] <= 5]
