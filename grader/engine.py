"""The engine: applies the technique ladder cheapest rung first, one step at a time.

After every step it starts again from the bottom of the ladder, so each step uses the
cheapest rung that makes progress at that moment. It is the only code that changes the
grid, and it raises Contradiction when a deduction disagrees with the grid.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Literal

from grader.errors import BudgetExceeded, Contradiction
from grader.lines import is_solved_line
from grader.model import UNKNOWN, CellArray, Clue, Grid, Puzzle
from grader.techniques import (
    GRID_FINDERS,
    LINE_FINDERS,
    RUNGS,
    cell_branching,
    recursion,
    rung_index,
)
from grader.techniques.base import LineDeduction, LineRef, Step

Outcome = Literal["solved", "stuck", "multiple"]


@dataclass
class EngineResult:
    """What the ladder achieved: its steps, the final grid, and how it stopped."""

    steps: list[Step]
    grid: Grid
    outcome: Outcome
    solutions: tuple[Grid, ...] = field(default_factory=tuple)


def _preference(step: Step) -> tuple[int, int]:
    """Take the step that decides most cells; ties keep the earliest line or cell."""
    return (-len(step.changes), 0)


class Engine:
    """Grades one puzzle; ``max_rung`` restricts the ladder, ``deadline`` is monotonic time."""

    def __init__(
        self,
        puzzle: Puzzle,
        *,
        max_rung: str | None = None,
        deadline: float | None = None,
    ):
        self.puzzle = puzzle
        top = rung_index(max_rung) if max_rung is not None else len(RUNGS) - 1
        self.rungs = RUNGS[: top + 1]
        self.deadline = deadline
        self.grid = Grid.for_puzzle(puzzle)
        self.lines: list[tuple[LineRef, Clue]] = [
            (LineRef("row", i), clue) for i, clue in enumerate(puzzle.rows)
        ] + [(LineRef("column", j), clue) for j, clue in enumerate(puzzle.columns)]
        self._version = [0] * len(self.lines)
        self._cache: dict[tuple[str, int], tuple[int, list[LineDeduction]]] = {}
        #: the steps taken so far (kept when a Contradiction or the budget stops the run)
        self.steps: list[Step] = []
        #: the unique solution and the search nodes that proved it, when the complete
        #: solver has run: recursion then guesses from it instead of searching again
        self.known_solution: tuple[CellArray, int] | None = None
        # Cell-branching deductions stay true as the grid fills in, so those found in one
        # scan are offered again (restricted to cells still open) before probing anew.
        self._pending: list[Step] = []

    # -- reading the grid -----------------------------------------------------------------
    def line_cells(self, number: int) -> list[int]:
        ref = self.lines[number][0]
        cells = self.grid.cells
        view = cells[ref.index] if ref.axis == "row" else cells[:, ref.index]
        return [int(v) for v in view.tolist()]

    def _line_deductions(self, rung: str, number: int) -> list[LineDeduction]:
        key = (rung, number)
        cached = self._cache.get(key)
        if cached is not None and cached[0] == self._version[number]:
            return cached[1]
        cells = self.line_cells(number)
        found = [] if UNKNOWN not in cells else LINE_FINDERS[rung](self.lines[number][1], cells)
        self._cache[key] = (self._version[number], found)
        return found

    def available(self, rung: str) -> list[Step]:
        """Every deduction ``rung`` can make now (the engine's openings at that rung)."""
        if rung == cell_branching.RUNG:
            self._pending = [s for s in map(self._still_open, self._pending) if s is not None]
            if not self._pending:
                self._pending = cell_branching.find(self.puzzle, self.grid.cells, self.deadline)
            return self._pending
        if rung == recursion.RUNG and self.known_solution is not None:
            solution, nodes = self.known_solution
            return [recursion.guess_from_solution(self.grid.cells, solution, nodes)]
        if rung in GRID_FINDERS:
            return GRID_FINDERS[rung](self.puzzle, self.grid.cells, self.deadline)
        steps = []
        for number, (ref, clue) in enumerate(self.lines):
            for deduction in self._line_deductions(rung, number):
                changes = tuple((*ref.cell(p), state) for p, state in deduction.changes)
                steps.append(
                    Step(
                        rung,
                        deduction.technique,
                        changes,
                        line=ref,
                        clue=clue,
                        facts=deduction.facts,
                    )
                )
        return steps

    def _still_open(self, step: Step) -> Step | None:
        """A pending step restricted to the cells still unknown, or None if none is."""
        cells = self.grid.cells
        changes = tuple(change for change in step.changes if cells[change[0], change[1]] == UNKNOWN)
        if not changes:
            return None
        return step if len(changes) == len(step.changes) else replace(step, changes=changes)

    # -- changing the grid ----------------------------------------------------------------
    def apply(self, step: Step) -> int:
        """Apply a step; returns how many cells changed. The only mutator of the grid."""
        cells = self.grid.cells
        height = self.puzzle.height
        changed = 0
        for r, c, state in step.changes:
            old = int(cells[r, c])
            new = old & state
            if not new:
                raise Contradiction(
                    f"{step.technique} decides cell ({r + 1}, {c + 1}) against the grid"
                )
            if new != old:
                cells[r, c] = new
                self._version[r] += 1
                self._version[height + c] += 1
                changed += 1
        return changed

    # -- the ladder -----------------------------------------------------------------------
    def run(self) -> EngineResult:
        """Solve as far as the allowed rungs go."""
        steps = self.steps
        while not self.grid.is_complete():
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise BudgetExceeded(f"the ladder ran out of time after {len(steps)} steps")
            chosen = None
            for rung in self.rungs:
                found = self.available(rung)
                if found:
                    best = min(range(len(found)), key=lambda i: (_preference(found[i]), i))
                    chosen = found[best]
                    chosen = replace(chosen, openings=len(found))
                    break
            if chosen is None:
                return EngineResult(steps, self.grid, "stuck")
            if chosen.rung == cell_branching.RUNG:
                self._pending.remove(found[best])
                chosen = cell_branching.describe(self.puzzle, self.grid.cells, chosen)
            steps.append(chosen)
            if chosen.technique == "several-solutions":
                examples = chosen.facts.get("examples", ())
                return EngineResult(
                    steps, self.grid, "multiple", tuple(Grid(e.copy()) for e in examples)
                )
            if not self.apply(chosen):
                raise AssertionError(f"{chosen.technique} made no progress")  # pragma: no cover
        self._check_solution()
        return EngineResult(steps, self.grid, "solved")

    def _check_solution(self) -> None:
        for number, (ref, clue) in enumerate(self.lines):
            if not is_solved_line(clue, self.line_cells(number)):
                raise Contradiction(f"{ref.label} does not match its clue")


def solve_with_ladder(
    puzzle: Puzzle, *, max_rung: str | None = None, seconds: float | None = None
) -> EngineResult:
    """Run the engine with an optional time limit in seconds."""
    deadline = None if seconds is None else time.monotonic() + seconds
    return Engine(puzzle, max_rung=max_rung, deadline=deadline).run()
