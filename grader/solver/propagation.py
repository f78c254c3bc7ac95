"""Line logic to a fixed point over a whole grid (rows and columns), compiled."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from grader.errors import PuzzleError
from grader.model import CellArray, Puzzle
from grader.solver.workspace import Workspace


@lru_cache(maxsize=16)
def _workspace(puzzle: Puzzle) -> Workspace:
    # The grader calls propagate thousands of times on the same puzzle: keep its buffers.
    return Workspace(puzzle)


def propagate(puzzle: Puzzle, cells: CellArray) -> CellArray | None:
    """Everything line logic implies from ``cells``, on a copy; None on a contradiction.

    ``cells`` is a (height, width) uint8 grid of EMPTY/FILLED/UNKNOWN. Every row and
    column is line-solved, then each line crossing a changed cell again, until nothing
    changes. Not thread-safe for the same puzzle (the scratch buffers are shared).
    """
    grid = np.array(cells, dtype=np.uint8, copy=True)
    if grid.shape != (puzzle.height, puzzle.width):
        raise PuzzleError(
            f"grid is {grid.shape[1] if grid.ndim == 2 else '?'}x{grid.shape[0]}, "
            f"puzzle is {puzzle.size}"
        )
    if grid.min(initial=1) < 1 or grid.max(initial=1) > 3:
        raise PuzzleError("grid cells must be EMPTY (1), FILLED (2) or UNKNOWN (3)")
    if _workspace(puzzle).propagate_all(grid) < 0:
        return None
    return grid


def follow(puzzle: Puzzle, cells: CellArray, row: int, column: int, state: int,
           rounds: int) -> tuple[CellArray, int, int, int]:
    """Suppose cell (row, column) is ``state`` and line-solve from it, round by round.

    Returns the grid reached (a copy), the round a line broke in (0: none within
    ``rounds``), the broken line (rows 0..height-1, then columns; -1: none) and the cells
    decided before. From a grid at a fixpoint of line logic, with rounds enough
    (height x width), the grid is what :func:`propagate` gives, or the break is its None.
    """
    grid = np.array(cells, dtype=np.uint8, copy=True)
    if grid.shape != (puzzle.height, puzzle.width):
        raise PuzzleError(f"grid is {grid.shape}, puzzle is {puzzle.size}")
    broke, line, decided = _workspace(puzzle).follow_cell(grid, row, column, state, rounds)
    return grid, broke, line, decided


def follow_many(puzzle: Puzzle, cells: CellArray, targets: npt.NDArray[np.int64],
                rounds: int) -> npt.NDArray[np.int64]:
    """:func:`follow` for many cells (``targets``: row * width + column each), FILLED
    first, then EMPTY when FILLED did not break, in one compiled call. A row per target:
    (the state whose supposition broke, 0 for neither; the round; the line; the cells
    decided before)."""
    grid = np.ascontiguousarray(cells, dtype=np.uint8)
    if grid.shape != (puzzle.height, puzzle.width):
        raise PuzzleError(f"grid is {grid.shape}, puzzle is {puzzle.size}")
    return _workspace(puzzle).follow_cells(grid, np.ascontiguousarray(targets, np.int64),
                                           rounds)


#: (v, value) pairs branch_many keeps between two looks at the clock, at least a grid's
BRANCH_ROOM = 1 << 16


def branch_many(puzzle: Puzzle, cells: CellArray,
                targets: npt.NDArray[np.int64]) -> Iterator[tuple[int, int, int, list[int]]]:
    """Cell branching on each of ``targets`` (row * width + column) from a grid settled
    by line logic: for each, in order, (target, FILLED broke, EMPTY broke, the agreed
    cells as v * 4 + value), a few compiled calls for all of them (between which the
    caller may stop)."""
    grid = np.ascontiguousarray(cells, dtype=np.uint8)
    if grid.shape != (puzzle.height, puzzle.width):
        raise PuzzleError(f"grid is {grid.shape}, puzzle is {puzzle.size}")
    targets = np.ascontiguousarray(targets, np.int64)
    out = np.zeros((targets.size, 3), dtype=np.int64)
    agreed = np.empty((max(BRANCH_ROOM, grid.size), 2), dtype=np.int64)
    workspace = _workspace(puzzle)
    done = 0
    while done < targets.size:
        upto = workspace.branch_cells(grid, targets, done, out, agreed)
        pairs = agreed[:int(out[done:upto, 2].sum())]
        flat = (pairs[:, 0] * 4 + pairs[:, 1]).tolist()
        at = 0
        for i in range(done, upto):
            count = int(out[i, 2])
            yield int(targets[i]), int(out[i, 0]), int(out[i, 1]), flat[at:at + count]
            at += count
        done = upto
