"""Line logic over the whole grid: solve changed lines until nothing changes.

Cell branching (rung 5) propagates its suppositions with the complete line solve (rungs 1-4
together reach exactly it, so only the deductions it keeps need explaining). :func:`settle`
is the fast compiled way; :func:`propagate` is the readable one that also names the line
where a contradiction shows, run once for the step an explanation describes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache

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


@cache
def _compiled_propagate() -> Callable[[Puzzle, CellArray], CellArray | None]:
    # loaded when first needed, then kept: looking it up on the solver package each
    # call cost as much as a small propagation
    from grader.solver import propagate as compiled_propagate

    return compiled_propagate  # type: ignore[no-any-return]


def settle(puzzle: Puzzle, cells: CellArray) -> CellArray | None:
    """Everything line logic implies from ``cells``, on a copy; None on a contradiction.

    Uses the compiled solver's propagation (the same complete line solve, tens of
    microseconds a call): probes and searches call it thousands of times.
    """
    return _compiled_propagate()(puzzle, cells)
