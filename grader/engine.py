"""The engine: applies the technique ladder cheapest rung first, one step at a time.

After every step it starts again from the bottom of the ladder, so each step uses the
cheapest rung that makes progress at that moment. It is the only code that changes the
grid, and it raises Contradiction when a deduction disagrees with the grid.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np

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
        # Per line rung: each line's steps, the size of its biggest, and the lines whose
        # cells changed since (only those are searched again: big grids stay fast).
        count = len(self.lines)
        self._line_steps: dict[str, list[list[Step]]] = {
            rung: [[] for _ in range(count)] for rung in LINE_FINDERS
        }
        self._line_best = {rung: np.zeros(count, dtype=np.int64) for rung in LINE_FINDERS}
        self._line_total = dict.fromkeys(LINE_FINDERS, 0)
        self._dirty: dict[str, set[int]] = {rung: set(range(count)) for rung in LINE_FINDERS}
        self._unknown = self.grid.unknown_count()
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

    def _refresh(self, rung: str) -> None:
        """Search again the lines of ``rung`` whose cells changed."""
        steps, best = self._line_steps[rung], self._line_best[rung]
        dirty = self._dirty[rung]
        for number in sorted(dirty):
            # a refresh of 2,000 lines of a 1000x1000 grid takes seconds: keep the budget
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise BudgetExceeded(f"the ladder ran out of time after {len(self.steps)} steps")
            dirty.discard(number)
            ref, clue = self.lines[number]
            cells = self.line_cells(number)
            found = [] if UNKNOWN not in cells else LINE_FINDERS[rung](clue, cells)
            self._line_total[rung] += len(found) - len(steps[number])
            steps[number] = [self._place(rung, ref, clue, d) for d in found]
            best[number] = max((len(d.changes) for d in found), default=0)

    @staticmethod
    def _place(rung: str, ref: LineRef, clue: Clue, deduction: LineDeduction) -> Step:
        changes = tuple((*ref.cell(p), state) for p, state in deduction.changes)
        return Step(rung, deduction.technique, changes, line=ref, clue=clue, facts=deduction.facts)

    def _choose_line_step(self, rung: str) -> Step | None:
        """The step of ``rung`` deciding most cells (first line on ties), with openings."""
        self._refresh(rung)
        if not self._line_total[rung]:
            return None
        number = int(np.argmax(self._line_best[rung]))
        candidates: list[Step] = self._line_steps[rung][number]
        best = max(range(len(candidates)), key=lambda i: (len(candidates[i].changes), -i))
        return replace(candidates[best], openings=self._line_total[rung])

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
        self._refresh(rung)
        return [step for line in self._line_steps[rung] for step in line]

    def _still_open(self, step: Step) -> Step | None:
        """A step restricted to the cells still unknown, or None if none is."""
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
                self._unknown -= 1
                for dirty in self._dirty.values():
                    dirty.add(r)
                    dirty.add(height + c)
                changed += 1
        return changed

    # -- the ladder -----------------------------------------------------------------------
    def run(self) -> EngineResult:
        """Solve as far as the allowed rungs go."""
        steps = self.steps
        while self._unknown:
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise BudgetExceeded(f"the ladder ran out of time after {len(steps)} steps")
            batch = self._next_steps()
            if not batch:
                return EngineResult(steps, self.grid, "stuck")
            if batch[0].technique == "several-solutions":
                steps.append(batch[0])
                examples = batch[0].facts.get("examples", ())
                return EngineResult(
                    steps, self.grid, "multiple", tuple(Grid(e.copy()) for e in examples)
                )
            for candidate in batch:
                chosen = self._still_open(candidate)
                if chosen is None:
                    continue  # an earlier step of the batch decided its cells already
                if len(batch) > 1:
                    # all of them were open when the batch was found
                    chosen = replace(chosen, openings=len(batch))
                steps.append(chosen)
                self.apply(chosen)
        self._check_solution()
        return EngineResult(steps, self.grid, "solved")

    def _next_steps(self) -> list[Step]:
        """The step of the cheapest rung that makes progress ([] when all are idle).

        Simple boxes come as a batch, biggest first: every one of them is a fact that
        stays true, and after any of them the ladder would restart at this same rung, so
        taking them together (each on the cells still open) changes no rung's count
        and spares re-searching hundreds of crossing lines after each one.
        """
        for rung in self.rungs:
            if rung == RUNGS[0]:
                found = self.available(rung)
                order = sorted(range(len(found)), key=lambda i: (-len(found[i].changes), i))
                if found:
                    return [found[i] for i in order]
                continue
            if rung in LINE_FINDERS:
                step = self._choose_line_step(rung)
                if step is not None:
                    return [step]
                continue
            found = self.available(rung)
            if not found:
                continue
            best = min(range(len(found)), key=lambda i: (_preference(found[i]), i))
            step = replace(found[best], openings=len(found))
            if rung == cell_branching.RUNG:
                del self._pending[best]  # found is the pending list itself
                step = cell_branching.describe(self.puzzle, self.grid.cells, step)
            return [step]
        return []

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
