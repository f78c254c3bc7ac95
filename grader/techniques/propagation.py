"""Line logic over the whole grid: solve changed lines until nothing changes.

Rungs 5 and 6 propagate their suppositions with the complete line solve (rungs 1-4 together
reach exactly it, so only the deductions they keep need explaining).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from grader.model import CellArray, Clue, Puzzle
from grader.techniques.base import LineRef
from grader.techniques.line_analysis import cached_line_solve


def propagate(
    puzzle: Puzzle,
    cells: CellArray,
    rows: Iterable[int] = (),
    columns: Iterable[int] = (),
) -> LineRef | None:
    """Narrow ``cells`` in place from the given changed lines to a fixpoint.

    Returns None when all is consistent, else the first line found with no arrangement
    (``cells`` is then partly updated and should be thrown away).
    """
    row_clues: tuple[Clue, ...] = puzzle.rows
    column_clues: tuple[Clue, ...] = puzzle.columns
    dirty_rows = set(rows)
    dirty_columns = set(columns)
    while dirty_rows or dirty_columns:
        if dirty_rows:
            r = min(dirty_rows)
            dirty_rows.discard(r)
            line = tuple(cells[r].tolist())
            solved = cached_line_solve(row_clues[r], line)
            if solved is None:
                return LineRef("row", r)
            for c, (old, new) in enumerate(zip(line, solved, strict=False)):
                if old != new:
                    cells[r, c] = new
                    dirty_columns.add(c)
        else:
            c = min(dirty_columns)
            dirty_columns.discard(c)
            line = tuple(cells[:, c].tolist())
            solved = cached_line_solve(column_clues[c], line)
            if solved is None:
                return LineRef("column", c)
            for r, (old, new) in enumerate(zip(line, solved, strict=False)):
                if old != new:
                    cells[r, c] = new
                    dirty_rows.add(r)
    return None


def settle(puzzle: Puzzle, cells: CellArray) -> CellArray | None:
    """Everything line logic implies from ``cells``, on a copy; None on a contradiction.

    Uses the compiled solver's propagation (the same complete line solve, about ten
    times faster than driving the reference one from Python).
    """
    return _compiled_propagate(puzzle, cells)


def _python_settle(puzzle: Puzzle, cells: CellArray) -> CellArray | None:
    trial = cells.copy()
    return None if propagate_all(puzzle, trial) is not None else trial


def settle_from(puzzle: Puzzle, cells: CellArray, row: int, column: int) -> CellArray | None:
    """Propagate in place from the lines through one changed cell; None on contradiction.

    Only valid when the rest of ``cells`` is already at the line-logic fixpoint (as it is
    when rungs 1-4 have nothing left): then only lines crossing a change need solving.
    """
    space = _workspace(puzzle)
    space.clear_queue()
    space.enqueue_cell(row, column)
    decided = kernels.propagate_queue(
        cells,
        space.clues,
        space.nclues,
        space.queue,
        space.in_queue,
        space.qstate,
        space.line_in,
        space.line_out,
        space.fwd,
        space.bwd,
        space.empties,
        space.marks,
        space.counters,
    )
    return None if decided < 0 else cells


@lru_cache(maxsize=8)
def _workspace(puzzle: Puzzle) -> Workspace:
    return Workspace(puzzle)


from grader.solver import kernels  # noqa: E402  (compiled kernels load after the helpers)
from grader.solver import propagate as _compiled_propagate  # noqa: E402
from grader.solver.workspace import Workspace  # noqa: E402


def propagate_all(puzzle: Puzzle, cells: CellArray) -> LineRef | None:
    """Propagate from every line."""
    return propagate(puzzle, cells, range(puzzle.height), range(puzzle.width))
