"""Complete search: probing at every node, depth-first branching, counting to a limit.

The compiled kernel does the work of a node (propagation, then probing every unknown cell
both ways to a fixed point, choosing the branching cell); this Python loop only keeps the
stack of open nodes, the solutions found and the budget, so the clock is read between
bounded chunks of work.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from grader.model import FILLED, BoolArray, CellArray, Puzzle, clues_of_picture
from grader.results import Budget, SolveResult, Verdict
from grader.solver import kernels
from grader.solver.workspace import Workspace

#: line solves between two looks at the clock (a few milliseconds of work)
WORK_CHUNK = 5_000


class _OutOfBudget(Exception):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class _EnoughSolutions(Exception):
    pass


@dataclass
class _Clock:
    budget: Budget
    started: float = field(default_factory=time.perf_counter)

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def check(self, nodes: int) -> None:
        seconds, max_nodes = self.budget.seconds, self.budget.nodes
        if max_nodes is not None and nodes > max_nodes:
            raise _OutOfBudget(f"node budget of {max_nodes} spent")
        if seconds is not None and self.elapsed() > seconds:
            raise _OutOfBudget(f"time budget of {seconds:g} s spent")


@dataclass
class _Solutions:
    """Distinct solutions in the order found (probes and branches may meet the same one)."""

    puzzle: Puzzle
    target: int
    found: dict[bytes, BoolArray] = field(default_factory=dict)

    def add(self, grid: CellArray) -> None:
        picture = grid == FILLED
        key = picture.tobytes()
        if key in self.found:
            return
        # a solution the kernels report must satisfy every clue; anything else is a bug
        if clues_of_picture(picture) != (self.puzzle.rows, self.puzzle.columns):
            raise RuntimeError("solver bug: a reported solution does not satisfy the clues")
        self.found[key] = picture
        if len(self.found) >= self.target:
            raise _EnoughSolutions


def _node(ws: Workspace, grid: CellArray, clock: _Clock, nodes: int,
          solutions: _Solutions) -> int:
    """Run one node's propagation and probing to its end, looking at the clock in between."""
    kernels.reset_probe_state(ws.probe_state)
    while True:
        status = ws.probe(grid, ws.line_solves + WORK_CHUNK)
        if status == kernels.FOUND:
            count = int(ws.probe_state[kernels.FOUND_COUNT])
            ws.probe_state[kernels.FOUND_COUNT] = 0
            for index in range(count):
                solutions.add(ws.found[index])
        elif status == kernels.OUT_OF_WORK:
            clock.check(nodes)
        else:
            return status


def solve(puzzle: Puzzle, limit: int = 2, budget: Budget | None = None) -> SolveResult:
    """Count the solutions of ``puzzle`` up to ``limit`` (at least 2 are looked for).

    Verdicts: ``unique``, ``multiple`` (with the first two solutions), ``none``, or
    ``undecided`` when the budget ran out first. ``complete`` is False when the search
    stopped at the limit or the budget rather than exhausting every branch.
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    budget = budget if budget is not None else Budget()
    clock = _Clock(budget)
    ws = Workspace(puzzle)
    # one solution alone proves nothing about uniqueness: always look for a second
    solutions = _Solutions(puzzle, max(limit, 2))
    nodes = 0
    branches = 0
    # each open node: a grid and the cell just set (-1: propagate every line first)
    stack: list[tuple[CellArray, int]] = [(ws.blank(), -1)]
    reason = ""
    complete = True
    try:
        while stack:
            grid, cell = stack.pop()
            nodes += 1
            clock.check(nodes)
            ws.clear_queue()
            if cell < 0:
                ws.enqueue_all()
            else:
                ws.enqueue_cell(cell // ws.width, cell % ws.width)
            status = _node(ws, grid, clock, nodes, solutions)
            if status == kernels.INCONSISTENT:
                continue
            if status == kernels.SOLVED:
                solutions.add(grid)
                continue
            branches += 1
            best = int(ws.probe_state[kernels.BEST_CELL])
            row, column = divmod(best, ws.width)
            other = grid.copy()
            other[row, column] = kernels.EMPTY
            grid[row, column] = kernels.FILLED
            stack.append((other, best))
            stack.append((grid, best))
    except _EnoughSolutions:
        complete = False
        reason = f"stopped at the limit of {solutions.target} solutions"
    except _OutOfBudget as exc:
        reason = exc.reason
        complete = False
    found = list(solutions.found.values())
    verdict: Verdict
    if len(found) >= 2:
        verdict = "multiple"
    elif not complete:
        verdict = "undecided"
    else:
        verdict = "unique" if found else "none"
    return SolveResult(
        verdict=verdict,
        solutions=tuple(found[: max(limit, 2)]),
        time_s=clock.elapsed(),
        nodes=nodes,
        complete=complete,
        reason=reason,
        stats={
            "line_solves": ws.line_solves, "cache_hits": ws.cache_hits, "branches": branches
        },
    )
