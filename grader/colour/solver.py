"""Complete search for colour puzzles: probing at every node, depth-first, counting.

Each node gets compiled line logic and probing to a fixed point
(:func:`grader.colour.kernels.probe`); a node that is neither solved nor contradictory
branches on the cell whose trials decided most, one child per value it may still take.
Exploring every child makes the count exact; this Python loop only stacks nodes, pools
solutions and reads the clock between bounded chunks of compiled work.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TextIO

import numpy as np

from grader.colour import kernels
from grader.colour.model import (
    ColourArray,
    ColourPuzzle,
    clues_of_colour_picture,
)
from grader.colour.palette import Colour, Palette
from grader.colour.results import ColourSolveResult  # the old name, re-exported
from grader.colour.workspace import ColourWorkspace, MaskArray, decided_picture
from grader.results import Budget, EnoughSolutions, SolutionPool, SolveResult, Verdict

#: line solves between two looks at the clock (a few milliseconds of work)
WORK_CHUNK = 5_000


class _OutOfBudget(Exception):
    pass


@dataclass
class _Run:
    """One search: its budget and clock, and the pool of solutions found."""

    solutions: SolutionPool[MaskArray, ColourArray]
    budget: Budget
    started: float = field(default_factory=time.perf_counter)
    nodes: int = 0

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def check(self) -> None:
        if self.budget.nodes is not None and self.nodes > self.budget.nodes:
            raise _OutOfBudget(f"node budget of {self.budget.nodes} spent")
        if self.budget.seconds is not None and self.elapsed() > self.budget.seconds:
            raise _OutOfBudget(f"time budget of {self.budget.seconds:g} s spent")

    def add(self, grid: MaskArray) -> None:
        self.solutions.add(grid)


def _run(puzzle: ColourPuzzle, budget: Budget, target: int) -> _Run:
    return _Run(SolutionPool((puzzle.rows, puzzle.columns), decided_picture,
                             clues_of_colour_picture, target), budget)


def _node(ws: ColourWorkspace, grid: MaskArray, run: _Run) -> int:
    ws.reset_probe()
    while True:
        status = ws.probe(grid, ws.line_solves + WORK_CHUNK)
        if status != kernels.OUT_OF_WORK:
            return status
        run.check()


def _search(ws: ColourWorkspace, root: MaskArray, run: _Run) -> None:
    stack: list[tuple[MaskArray, int]] = [(root, -1)]
    while stack:
        grid, cell = stack.pop()
        run.nodes += 1
        run.check()
        if cell >= 0:
            ws.clear_queue()
            ws.enqueue_cell(cell // ws.width, cell % ws.width)
        else:
            ws.enqueue_all()  # the root: every line
        status = _node(ws, grid, run)
        if status == kernels.SOLVED:
            run.add(grid)
        elif status == kernels.BRANCH:
            best = int(ws.best[0])
            row, column = divmod(best, ws.width)
            mask = int(grid[row, column])
            # last pushed is tried first: colours before the background
            for value in range(ws.ncol + 1):
                if mask >> value & 1:
                    child = grid.copy()
                    child[row, column] = 1 << value
                    stack.append((child, best))


_compiled = False


def _cold() -> bool:
    """Whether numba's cache lacks the colour kernels (the next load compiles them)."""
    from pathlib import Path

    from grader.jit_cache import configure_numba_cache, solver_cache_folder

    sources = Path(kernels.__file__).parent
    folder = solver_cache_folder(configure_numba_cache(sources), sources)
    return not any(folder.glob("kernels.*.nbi"))


def warm_up() -> float:
    """Compile the kernels (or load them from numba's cache) once a process, so that the
    first puzzle's clock and budget are not spent compiling; seconds spent. A compile
    (cold cache) is announced where the black-and-white solver's is
    (:func:`grader.solver.announce_compiling`)."""
    global _compiled
    if _compiled:
        return 0.0
    from grader import jit_cache

    started = time.monotonic()
    notice = jit_cache.compile_notice if _cold() else None
    _say(notice, "nonopress: compiling the colour solver (once after installing; "
                 "cached for later runs)\n")
    palette = Palette((Colour("black", (0, 0, 0), "#"), Colour("red", (255, 0, 0), "r")))
    tiny = ColourPuzzle.from_picture(np.array([[1, 2], [2, 1]], dtype=np.uint8), palette)
    _search(ColourWorkspace(tiny), ColourWorkspace(tiny).blank(),
            _run(tiny, Budget.unlimited(), 2))
    _compiled = True
    spent = time.monotonic() - started
    _say(notice, f"nonopress: colour solver compiled in {spent:.0f} s\n")
    return spent


def _say(notice: TextIO | None, text: str) -> None:
    """Tell ``notice`` about a compile: a closed or broken stream (the standard error of a
    finished test, a closed pipe) must never stop the work the compile is for."""
    if notice is None:
        return
    try:
        notice.write(text)
        notice.flush()
    except (OSError, ValueError):
        pass


def solve_colour(puzzle: ColourPuzzle, limit: int = 2, budget: Budget | None = None, *,
                 first: bool = False) -> SolveResult:
    """Count the solutions of ``puzzle`` up to ``limit`` (at least 2 are looked for).

    Verdicts as for black and white: ``unique``, ``multiple`` (with the first two
    solutions), ``none``, or ``undecided`` when the budget ran out first; with ``first``,
    ``solved`` when the search stopped at a first solution without looking for another.
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    warm_up()
    cpu_started = time.thread_time()
    run = _run(puzzle, budget if budget is not None else Budget(), 1 if first else max(limit, 2))
    ws = ColourWorkspace(puzzle)
    complete, reason = True, ""
    try:
        _search(ws, ws.blank(), run)
    except EnoughSolutions:
        complete, reason = False, f"stopped at the limit of {run.solutions.target} solutions"
    except _OutOfBudget as exc:
        complete, reason = False, str(exc)
    found = list(run.solutions.found.values())
    verdict: Verdict
    if first and found:
        verdict = "solved"
    elif len(found) >= 2:
        verdict = "multiple"
    elif not complete:
        verdict = "undecided"
    else:
        verdict = "unique" if found else "none"
    return SolveResult(
        verdict=verdict, solutions=tuple(found), time_s=run.elapsed(),
        cpu_s=time.thread_time() - cpu_started, nodes=run.nodes,
        complete=complete, reason=reason, stats={"line_solves": ws.line_solves})


def line_logic(puzzle: ColourPuzzle) -> tuple[int, MaskArray]:
    """Line logic alone to a fixed point from a blank grid: (status, grid)."""
    ws = ColourWorkspace(puzzle)
    grid = ws.blank()
    status = ws.propagate(grid)
    return status, grid


__all__ = ["ColourSolveResult", "line_logic", "solve_colour", "warm_up"]
