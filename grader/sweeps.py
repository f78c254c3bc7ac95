"""Batenburg's sweep count: how many alternating passes of line logic a puzzle needs.

Batenburg et al. (2009) measure a nonogram by the complete line solve applied to all the
rows, then all the columns, and so on: the number of passes that changed something before
the grid is solved (or line logic is stuck) says how long the solve's chain of hand-overs
between rows and columns is. The time model (grader/minutes.py) reads it: on griddlers.net
members' times it is what separates, within one size, puzzles people read off quickly from
those they keep going back and forth over.

A line whose cells did not change since it was last solved would give nothing new (the
complete line solve is idempotent), so a pass solves only the lines touched since: the
count is the one of solving every line each pass, at the cost of the changes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from grader.model import UNKNOWN

#: a complete line solve: (clue, cells of the line) -> the narrowed cells, None when no
#: arrangement fits (black and white: uint8 states; colour: bit sets of what a cell may be)
LineSolve = Callable[[Any, Any], "np.ndarray | Sequence[int] | None"]


def sweep_count(rows: Sequence[Any], columns: Sequence[Any], *,
                deadline: float | None = None, solve: LineSolve | None = None,
                start: np.ndarray | None = None) -> int:
    """Passes (all rows, all columns, ...) of the complete line solve that changed
    something, until two passes in a row change nothing (a solved grid changes no more);
    a contradiction ends the count. Past ``deadline`` (time.monotonic()) the passes so
    far are returned: a lower bound. Black and white by default; a colour puzzle passes
    its own ``solve`` and ``start`` grid (every cell any value)."""
    if solve is None:
        solve = _black_and_white_line_solve()
    height, width = len(rows), len(columns)
    cells = (np.full((height, width), UNKNOWN, dtype=np.uint8) if start is None
             else np.array(start))
    dirty: list[set[int]] = [set(range(height)), set(range(width))]  # rows, columns
    sweeps = stale = turn = 0
    while stale < 2:
        if deadline is not None and time.monotonic() > deadline:
            break
        axis = turn % 2
        turn += 1
        clues = rows if axis == 0 else columns
        view = cells if axis == 0 else cells.T
        changed = False
        for index in sorted(dirty[axis]):
            solved = solve(clues[index], view[index])
            if solved is None:
                return sweeps
            moved = np.flatnonzero(np.asarray(solved, dtype=cells.dtype) != view[index])
            if len(moved):
                view[index] = solved
                dirty[1 - axis].update(moved.tolist())
                changed = True
        dirty[axis].clear()
        sweeps += changed
        stale = 0 if changed else stale + 1
    return sweeps


def _black_and_white_line_solve() -> LineSolve:
    """The compiled line solve once this process has loaded the compiled solver, else the
    Python one: both give the one answer of the complete line solve, so the count is the
    same, and grading a puzzle line logic settles loads neither the kernels nor numba
    (a warm ``nonopress grade`` of a small puzzle: 0.7 s of CPU with them, 0.3 s without)."""
    from grader.solver import compiled_loaded

    if compiled_loaded():
        from grader.solver import line_solve

        return line_solve  # type: ignore[no-any-return]
    from grader.lines import solve_line

    return solve_line
