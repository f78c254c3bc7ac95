"""Cheap measures the authoring search ranks its moves by.

``line_unknowns`` counts what the compiled line logic (every row and column solved
completely, to a fixed point) leaves undecided: zero proves the puzzle unique, and fewer
unknowns after a move mean the move opened the puzzle. ``look_penalty`` says how much a
flipped pixel would spoil the picture.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from grader.model import UNKNOWN, BoolArray, CellArray, Given, Puzzle
from grader.solver.workspace import Workspace

Cell = tuple[int, int]
IntArray = npt.NDArray[np.int64]

#: a flip on the boundary of a shape keeps the look; inside a shape it makes a hole or a
#: bump, and a pixel with no neighbour of its new colour is a speck
EDGE, INTERIOR, SPECK = 0.0, 1.0, 3.0


def puzzle_of(picture: BoolArray, givens: Iterable[Given] = ()) -> Puzzle:
    """The puzzle whose intended solution is ``picture``, with ``givens`` printed."""
    return Puzzle.from_picture(picture).with_givens(givens)


def line_logic(puzzle: Puzzle) -> CellArray:
    """What line logic decides from the givens alone (the puzzle's own picture fits its
    clues, so there is never a contradiction)."""
    grid = puzzle.start_cells()
    Workspace(puzzle).propagate_all(grid)
    return grid


def line_unknowns(puzzle: Puzzle) -> int:
    return int((line_logic(puzzle) == UNKNOWN).sum())


def look_penalty(picture: BoolArray, row: int, column: int) -> float:
    """How much flipping (row, column) of ``picture`` would spoil its look."""
    value = bool(picture[row, column])
    height, width = picture.shape
    r0, r1 = max(row - 1, 0), min(row + 2, height)
    c0, c1 = max(column - 1, 0), min(column + 2, width)
    window = picture[r0:r1, c0:c1]
    # 8-neighbours that would share the new colour (the cell itself has the old one)
    same_after = int((window != value).sum())
    if same_after == 0:
        return SPECK
    crosses = [(row + dr, column + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))]
    inked = [0 <= r < height and 0 <= c < width and bool(picture[r, c]) for r, c in crosses]
    if value and inked in ([True, True, False, False], [False, False, True, True]):
        return SPECK  # the middle of a line one cell wide: erasing it cuts the line in two
    boundary = any(
        0 <= r < height and 0 <= c < width and bool(picture[r, c]) != value for r, c in crosses
    )
    return EDGE if boundary else INTERIOR


def line_slack(picture: BoolArray) -> tuple[IntArray, IntArray]:
    """Per row and per column: cells the clue leaves free (length - blocks - gaps).

    Tight lines (little slack) are where line logic finds its first openings."""
    def slack(lines: BoolArray) -> IntArray:
        filled = lines.sum(axis=1, dtype=np.int64)
        starts = (lines & ~np.pad(lines, ((0, 0), (1, 0)))[:, :-1]).sum(axis=1, dtype=np.int64)
        free: IntArray = lines.shape[1] - filled - np.maximum(starts - 1, 0)
        return free

    return slack(picture), slack(picture.T)


def total_slack(picture: BoolArray) -> int:
    rows, columns = line_slack(picture)
    return int(rows.sum() + columns.sum())


def neighbourhood(cells: Iterable[Cell], height: int, width: int) -> set[Cell]:
    """The cells and their 4-neighbours inside the grid."""
    out: set[Cell] = set()
    for row, column in cells:
        for dr, dc in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)):
            r, c = row + dr, column + dc
            if 0 <= r < height and 0 <= c < width:
                out.add((r, c))
    return out


def differing(first: BoolArray, second: BoolArray) -> list[Cell]:
    rows, columns = np.nonzero(first != second)
    return list(zip(rows.tolist(), columns.tolist(), strict=True))
