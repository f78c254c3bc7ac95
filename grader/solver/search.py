"""Complete search: probing at the root, then conflict-driven search, counting to a limit.

The root gets line logic and probing to a fixed point (kernels.probe_fixpoint): most
published puzzles end there. What is left goes to the conflict-driven search
(grader.solver.cdcl), which learns a clause from every dead end. Both are compiled; this
Python loop only collects solutions and reads the clock between bounded chunks of work.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from grader.model import FILLED, BoolArray, CellArray, Puzzle, clues_of_picture
from grader.results import Budget, SolveResult, Verdict
from grader.solver import cdcl as learning
from grader.solver import kernels
from grader.solver.learning import ConflictSearch
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


def _search(search: ConflictSearch, clock: _Clock, solutions: _Solutions) -> None:
    """Conflict-driven search below the probed root until every solution is seen."""
    while True:
        status = search.step(search.ws.line_solves + WORK_CHUNK)
        if status in (learning.FOUND, learning.GAVE_UP_FOUND):
            solutions.add(search.found)
        if status == learning.EXHAUSTED:
            return
        if status in (learning.GAVE_UP, learning.GAVE_UP_FOUND):
            raise _OutOfBudget("the store of learned clauses is full")
        clock.check(search.decisions)


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
    nodes = 1
    conflicts = 0
    reason = ""
    complete = True
    grid = ws.blank()
    try:
        ws.clear_queue()
        ws.enqueue_all()
        status = _node(ws, grid, clock, nodes, solutions)
        if status == kernels.SOLVED:
            solutions.add(grid)
        elif status == kernels.BRANCH:
            search = ConflictSearch(ws, grid)
            try:
                _search(search, clock, solutions)
            finally:
                nodes += search.decisions
                conflicts = search.conflicts
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
            "line_solves": ws.line_solves, "cache_hits": ws.cache_hits, "conflicts": conflicts
        },
    )
