"""Given cells are printed in the puzzle's grid: filled ones inked, empty ones as a dot."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from test_layout_pdf import render, render_png, sample_issue

from grader.model import Metadata, Puzzle
from layout.draw import Rects
from layout.geometry import BlockGeometry
from layout.sheets import media_for
from layout.synthetic import issue_of

PICTURE = ["#.....", ".#....", "......", "...#..", "....#.", "......"]
GIVENS = ((0, 0, True), (1, 1, True), (3, 3, True), (5, 5, False))
PUZZLE = Puzzle.from_picture(PICTURE, Metadata(title="Diagonal")).with_givens(GIVENS)


def test_given_cells_become_ink_and_dots() -> None:
    from layout.kinds import puzzle_ops

    geometry = BlockGeometry.of(PUZZLE)
    ops = puzzle_ops(PUZZLE, geometry, 0.0, 100.0, 10.0)
    ink = [r for op in ops if isinstance(op, Rects) and op.role == "ink" for r in op.rects]
    full = [r for r in ink if r[2] == 10.0 and r[3] == 10.0]
    dots = [r for r in ink if r[2] < 5.0]
    assert len(full) == 3 and len(dots) == 1
    solved = puzzle_ops(PUZZLE, geometry, 0.0, 100.0, 10.0, solution=PUZZLE.solution_array())
    assert not any(isinstance(op, Rects) and op.role == "ink" and len(op.rects) == 1
                   and op.rects[0][2] < 5.0 for op in solved)


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler's pdftoppm not installed")
def test_rendered_puzzle_page_shows_the_givens(tmp_path: Path) -> None:
    issue = issue_of([PUZZLE], sample_issue().manifest)
    plan, data = render(issue)
    dpi = 150
    index, page = next((i, p) for i, p in enumerate(plan.pages) if p.kind == "puzzles")
    pixels = np.asarray(render_png(data, index + 1, dpi, tmp_path))
    media = media_for(page, issue.manifest)
    scale = dpi / 72
    (block,) = page.blocks

    def shade(r: float, c: float) -> int:
        x0, y0 = block.cell_centre(0, 0)
        x1, y1 = block.cell_centre(1, 1)
        x, y = x0 + c * (x1 - x0), y0 + r * (y1 - y0)
        return int(pixels[int((media.height - (y + media.offset)) * scale),
                          int((x + media.offset) * scale)])

    assert shade(0, 0) < 60 and shade(1, 1) < 60 and shade(3, 3) < 60
    assert shade(5, 5) < 60 and shade(5.3, 5.3) > 230  # a dot, not a filled cell
    assert shade(0, 1) > 230 and shade(4, 4) > 230  # not given: blank
