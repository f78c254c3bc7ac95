"""Line logic alone, in plain Python, for small colour puzzles (as grader.solver.quick).

Starting the compiled solver costs a process most of a second (numba and its cached
kernels); most printed colour puzzles are solved by line logic alone in milliseconds.
This answers only what line logic proves outright: every cell forced, hence exactly one
solution. Anything else (a stall, a contradiction, the budget) is left to the compiled
solver, so verdicts stay those of one complete search.
"""

from __future__ import annotations

import time

import numpy as np

from grader.colour.lines import full_mask, solve_line
from grader.colour.model import ColourPuzzle, clues_of_colour_picture
from grader.results import Budget, SolveResult
from grader.solver.quick import MAX_CELLS, settle_lines


def prove_colour_by_line_logic(puzzle: ColourPuzzle, budget: Budget
                               ) -> SolveResult | None:
    """``unique`` with the solution when line logic forces every cell, else None."""
    height, width = puzzle.height, puzzle.width
    if height * width > MAX_CELLS:
        return None
    started = time.perf_counter()
    cpu_started = time.thread_time()
    cells = [[full_mask(puzzle.palette.size)] * width for _ in range(height)]
    solves = settle_lines(cells, puzzle.rows, puzzle.columns, solve_line, budget)
    if solves is None:
        return None
    if any(value & (value - 1) for row in cells for value in row):
        return None
    picture = np.array([[value.bit_length() - 1 for value in row] for row in cells],
                       dtype=np.uint8)
    if clues_of_colour_picture(picture) != (puzzle.rows, puzzle.columns):
        return None
    return SolveResult(verdict="unique", solutions=(picture,),
                             time_s=time.perf_counter() - started,
                             cpu_s=time.thread_time() - cpu_started, nodes=1,
                             stats={"line_solves": solves})
