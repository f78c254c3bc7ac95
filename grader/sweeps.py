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
from dataclasses import dataclass
from typing import Any

import numpy as np

from grader.model import UNKNOWN

#: a complete line solve: (clue, cells of the line) -> the narrowed cells, None when no
#: arrangement fits (black and white: uint8 states; colour: bit sets of what a cell may be)
LineSolve = Callable[[Any, Any], "np.ndarray | Sequence[int] | None"]


#: below this many cells the plain line solve counts the sweeps unless the compiled one is
#: loaded already: a grade that line logic settles then loads neither numba nor a kernel
#: (half a second of every small ``grade`` or ``make``), for a few ms of plain Python
PLAIN_BELOW_CELLS = 1600


def default_line_solve(cells: int) -> LineSolve:
    """The black-and-white line solve for a grid of ``cells``: the plain one for a small
    grid while the compiled kernels are not loaded, else the compiled one (both are the
    complete line solve: the count is the same)."""
    from grader.solver import compiled_loaded

    if cells < PLAIN_BELOW_CELLS and not compiled_loaded():
        from grader.lines import solve_line

        return solve_line
    from grader.solver import line_solve  # compiled: loaded when first counted

    return line_solve


@dataclass(frozen=True)
class Sweeps:
    """The sweep count, and the share of the cells settled when the first sweep (all the
    rows, then all the columns) was done: what a solver reads off on the first look."""

    count: int
    first: float


def sweep_count(rows: Sequence[Any], columns: Sequence[Any], *,
                deadline: float | None = None, solve: LineSolve | None = None,
                start: np.ndarray | None = None) -> int:
    """Passes (all rows, all columns, ...) of the complete line solve that changed
    something, until two passes in a row change nothing (a solved grid changes no more);
    a contradiction ends the count. Past ``deadline`` (time.monotonic()) the passes so
    far are returned: a lower bound. Black and white by default; a colour puzzle passes
    its own ``solve`` and ``start`` grid (every cell any value)."""
    return sweeps_of(rows, columns, deadline=deadline, solve=solve, start=start).count


def _settled(cells: np.ndarray, colour: bool) -> float:
    """Share of the cells settled: black and white, not UNKNOWN; colour, one value left."""
    if not cells.size:
        return 1.0
    if colour:
        masks = cells.astype(np.int64)
        return float(np.mean((masks & (masks - 1)) == 0))
    return float(np.mean(cells != UNKNOWN))


def sweeps_of(rows: Sequence[Any], columns: Sequence[Any], *,
              deadline: float | None = None, solve: LineSolve | None = None,
              start: np.ndarray | None = None) -> Sweeps:
    """:func:`sweep_count` with the share of the grid the first sweep settled."""
    height, width = len(rows), len(columns)
    if solve is None:
        solve = default_line_solve(height * width)
    cells = (np.full((height, width), UNKNOWN, dtype=np.uint8) if start is None
             else np.array(start))
    dirty: list[set[int]] = [set(range(height)), set(range(width))]  # rows, columns
    sweeps = stale = turn = 0
    first = 0.0
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
                return Sweeps(sweeps, first)
            moved = np.flatnonzero(np.asarray(solved, dtype=cells.dtype) != view[index])
            if len(moved):
                view[index] = solved
                dirty[1 - axis].update(moved.tolist())
                changed = True
        dirty[axis].clear()
        sweeps += changed
        stale = 0 if changed else stale + 1
        if turn == 2:
            first = _settled(cells, start is not None)
    return Sweeps(sweeps, first)
