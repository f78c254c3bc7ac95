"""Line logic alone, in plain Python, for the small puzzles most publishers print.

Starting the compiled solver costs a process about 0.6 s of CPU (importing numba and
loading its cached kernels) before any work; most magazine puzzles are solved by line
logic alone in a few milliseconds. :func:`prove_by_line_logic` tries that first and answers
only what line logic proves outright: every cell forced, hence exactly one solution. A
contradiction or a stall is left to the compiled solver, which also names the failing line
and finds witnesses, so verdicts and messages stay those of one complete search.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from grader.lines import is_solved_line, solve_line
from grader.model import EMPTY, FILLED, Puzzle
from grader.results import Budget, PictureRows, SolveResult

#: puzzles larger than this go straight to the compiled solver (the reference line solve
#: costs about 0.1 ms a 25-cell line, so a stall here must stay cheap)
MAX_CELLS = 625
#: line solves allowed per line of the puzzle before handing over
SOLVES_PER_LINE = 4

#: a clue of either kind of puzzle
C = TypeVar("C")


def settle_lines(
    cells: list[list[int]],
    rows: Sequence[C],
    columns: Sequence[C],
    solve_line: Callable[[C, list[int]], list[int] | None],
    budget: Budget,
) -> int | None:
    """Narrow ``cells`` in place by line logic to a fixed point; the line solves it took.

    None when a line has no arrangement, or the allowance of line solves or the budget ran
    out first. ``solve_line`` is the reference line solve of the puzzle's kind (black and
    white, or colour), on cells of that kind.
    """
    height, width = len(rows), len(columns)
    deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
    allowance = SOLVES_PER_LINE * (height + width)
    solves = 0
    dirty_rows, dirty_columns = set(range(height)), set(range(width))
    while dirty_rows or dirty_columns:
        if solves >= allowance or (deadline is not None and time.perf_counter() > deadline):
            return None
        solves += 1
        if dirty_rows:
            r = min(dirty_rows)
            dirty_rows.discard(r)
            solved = solve_line(rows[r], cells[r])
            if solved is None:
                return None
            for c, state in enumerate(solved):
                if state != cells[r][c]:
                    cells[r][c] = state
                    dirty_columns.add(c)
        else:
            c = min(dirty_columns)
            dirty_columns.discard(c)
            column = [cells[r][c] for r in range(height)]
            solved = solve_line(columns[c], column)
            if solved is None:
                return None
            for r, state in enumerate(solved):
                if state != column[r]:
                    cells[r][c] = state
                    dirty_rows.add(r)
    return solves


def prove_by_line_logic(puzzle: Puzzle, budget: Budget) -> SolveResult | None:
    """``unique`` with the solution when line logic forces every cell, else None.

    Also None when ``budget`` runs out first: the compiled solver then says ``undecided``.
    """
    height, width = puzzle.height, puzzle.width
    if height * width > MAX_CELLS or height == 0 or width == 0:
        return None
    started = time.perf_counter()
    cpu_started = time.thread_time()
    cells = puzzle.start_rows()  # unknown but the printed givens
    solves = settle_lines(cells, puzzle.rows, puzzle.columns, solve_line, budget)
    if solves is None:
        return None
    if any(state not in (EMPTY, FILLED) for row in cells for state in row):
        return None
    if not all(is_solved_line(clue, row) for clue, row in zip(puzzle.rows, cells, strict=True)):
        return None
    if not all(
        is_solved_line(clue, [cells[r][c] for r in range(height)])
        for c, clue in enumerate(puzzle.columns)
    ):
        return None
    # rows, not an array: the solution becomes one when read, and a check that only prints
    # the verdict imports no numpy (most of its start-up)
    solution = tuple(tuple(state == FILLED for state in row) for row in cells)
    return SolveResult(
        verdict="unique",
        solutions=PictureRows((solution,)),
        time_s=time.perf_counter() - started,
        cpu_s=time.thread_time() - cpu_started,
        nodes=1,
        stats={"line_solves": solves},
    )
