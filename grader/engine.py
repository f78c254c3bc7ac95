"""The engine: applies the technique ladder cheapest rung first, one step at a time.

After every step it starts again from the bottom of the ladder, so each step uses the
cheapest rung that makes progress at that moment. It is the only code that changes the
grid, and it raises Contradiction when a deduction disagrees with the grid.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import repeat
from typing import Any, Literal

import numpy as np

from grader.errors import BudgetExceeded, Contradiction
from grader.ladder import Ladder, Rung, default_ladder
from grader.lines import is_solved_line
from grader.model import (
    EMPTY,
    FILLED,
    UNKNOWN,
    CellArray,
    Clue,
    Grid,
    IntArray,
    Puzzle,
    clue_table,
)
from grader.results import Budget
from grader.techniques import ranges as ranges_module
from grader.techniques.base import (
    UNPLACED,
    GridContext,
    LineCellList,
    LineDeduction,
    LineRef,
    PendingDeductions,
    SeveralSolutions,
    Step,
    deduction_sizes,
)
from grader.techniques.ranges import COMPILED_FROM, deduction_sizes_many, line_kernels

Outcome = Literal["solved", "stuck", "multiple"]
LineFinder = Callable[[Clue, list[int]], Sequence[LineDeduction]]

#: rounds of rung 1 one compiled call runs on a big grid (the deadline is looked at
#: between calls; a round of a 1000x1000 grid narrows up to 2,000 lines, some 10 ms)
ROUNDS_A_CALL = 16


@dataclass
class EngineResult:
    """What the ladder achieved: its steps, the final grid, and how it stopped."""

    steps: list[Step]
    grid: Grid
    outcome: Outcome
    solutions: tuple[Grid, ...] = field(default_factory=tuple)


class LineBroken(Contradiction):
    """A line technique found that no arrangement of a line's clue fits its cells."""

    def __init__(self, rung: str, line: LineRef, clue: Clue, cells: list[int], why: str):
        super().__init__(f"{line.label} ({' '.join(map(str, clue)) or '0'}): {why}")
        self.rung = rung
        self.line = line
        self.clue = clue
        self.cells = tuple(cells)


def _preference(step: Step) -> tuple[int, int]:
    """Take the step that decides most cells; ties keep the earliest line or cell."""
    return (-len(step.changes), 0)


class Engine:
    """Grades one puzzle with the rungs of ``ladder`` (the table's by default), cut off
    above ``max_rung``, within ``budget`` (counted from construction); ``ask_solver``: see
    __init__."""

    def __init__(
        self,
        puzzle: Puzzle,
        *,
        max_rung: str | None = None,
        budget: Budget | None = None,
        ladder: Ladder | None = None,
        ask_solver: Callable[[CellArray, GridContext], None] | None = None,
        ask_after: float | None = None,
    ):
        self.puzzle = puzzle
        #: asked once with the grid and the context (by grading, on a big puzzle, for the
        #: solver's verdict; it may raise SeveralSolutions or Contradiction): before the
        #: first grid rung, or once the ladder has run ``ask_after`` seconds (looked at
        #: between rung 1's rounds and other steps), whichever comes first
        self._ask_solver = ask_solver
        self._ask_by = None if ask_after is None else time.monotonic() + ask_after
        self.rungs: tuple[Rung, ...] = (ladder or default_ladder()).up_to(max_rung)
        seconds = budget.seconds if budget is not None else None
        #: what grid rungs share: the deadline, and the solver's proof once one asked
        self.context = GridContext(
            deadline=None if seconds is None else time.monotonic() + seconds,
            nodes=budget.nodes if budget is not None else None,
        )
        self.grid = Grid.for_puzzle(puzzle)
        self.lines: list[tuple[LineRef, Clue]] = [
            (LineRef("row", i), clue) for i, clue in enumerate(puzzle.rows)
        ] + [(LineRef("column", j), clue) for j, clue in enumerate(puzzle.columns)]
        self._line_finders: dict[str, LineFinder] = {
            r.name: r.finder() for r in self.rungs if r.scope == "line"
        }
        #: line rungs whose deductions on long lines are sized many lines a call
        self._sizes_kinds: dict[str, str] = {
            r.name: r.module().SIZES_KIND for r in self.rungs
            if r.scope == "line" and hasattr(r.module(), "SIZES_KIND")
        }
        #: the first rung, when it is simple boxes: on a grid with long lines its rounds
        #: run in compiled code (see _simple_rounds)
        self._simple_rung: str | None = next(
            (r.name for r in self.rungs[:1] if self._sizes_kinds.get(r.name) == "simple"), None)
        self._clue_table: tuple[IntArray, IntArray] | None = None
        #: the lines' last narrowed ranges, with and without owner rules (the grid only
        #: gains known cells, so they hold for the next narrowing: see RangesMemo)
        self._ranges_memos: dict[bool, ranges_module.RangesMemo | None] = {}
        self._grid_modules: dict[str, Any] = {
            r.name: r.module() for r in self.rungs if r.scope == "grid"
        }
        # Per line rung: each line's deductions (made steps only when taken), the size of
        # its biggest, and the lines whose cells changed since (only those are searched
        # again: big grids stay fast).
        count = len(self.lines)
        line_rungs = list(self._line_finders)
        self._line_steps: dict[str, list[Sequence[LineDeduction]]] = {
            rung: [[] for _ in range(count)] for rung in line_rungs
        }
        self._line_best = {rung: np.zeros(count, dtype=np.int64) for rung in line_rungs}
        self._line_total = dict.fromkeys(line_rungs, 0)
        #: the lines with deductions at each line rung (a big grid has few at a time)
        self._line_open: dict[str, set[int]] = {rung: set() for rung in line_rungs}
        self._dirty: dict[str, set[int]] = {rung: set(range(count)) for rung in line_rungs}
        self._unknown = self.grid.unknown_count()
        unknown = self.grid.cells == UNKNOWN
        #: unknown cells of each line, rows then columns (a full line is not searched:
        #: counting beats scanning a 512-cell line for an unknown one)
        self._line_unknown: list[int] = (
            unknown.sum(axis=1).tolist() + unknown.sum(axis=0).tolist())
        self._cells: dict[int, list[int]] = {}
        #: the steps taken so far (kept when a Contradiction or the budget stops the run)
        self.steps: list[Step] = []
        # Grid deductions stay true as the grid fills in, so those found in one scan are
        # offered again (restricted to cells still open) before searching anew.
        self._pending: dict[str, list[Step]] = {name: [] for name in self._grid_modules}

    @property
    def deadline(self) -> float | None:
        return self.context.deadline

    # -- reading the grid -----------------------------------------------------------------
    def line_cells(self, number: int) -> list[int]:
        """The cells of line ``number`` (kept until the line changes: every line rung
        reads the same lines after a step)."""
        cells = self._cells.get(number)
        if cells is None:
            ref = self.lines[number][0]
            grid = self.grid.cells
            view = grid[ref.index] if ref.axis == "row" else grid[:, ref.index]
            cells = self._cells[number] = (
                LineCellList(view.copy()) if len(view) >= COMPILED_FROM else view.tolist())
        return cells

    def _refresh(self, rung: str) -> None:
        """Search again the lines of ``rung`` whose cells changed."""
        steps, best = self._line_steps[rung], self._line_best[rung]
        find = self._line_finders[rung]
        dirty = self._dirty[rung]
        numbers = sorted(dirty)
        sized = self._sizes_in_batch(rung, numbers)
        line_unknown, line_open = self._line_unknown, self._line_open[rung]
        total = self._line_total[rung]
        try:
            for number in numbers:
                # a refresh of 2,000 lines of a 1000x1000 grid takes seconds: keep the budget
                if self.deadline is not None and time.monotonic() > self.deadline:
                    raise BudgetExceeded(
                        f"the ladder ran out of time after {len(self.steps)} steps")
                dirty.discard(number)
                sizes = sized.get(number)
                found: Sequence[LineDeduction]
                if sizes is not None:  # sized in the batch: built from the line when read
                    found = PendingDeductions(
                        sizes, partial(self._find_listed, find, number)) if sizes else []
                elif not line_unknown[number]:
                    found = []
                else:
                    ref, clue = self.lines[number]
                    cells = self.line_cells(number)
                    try:
                        found = find(clue, cells)
                    except Contradiction as exc:  # name the line: what an author must fix
                        raise LineBroken(rung, ref, clue, cells, str(exc)) from None
                previous = steps[number]
                if not found and not previous:
                    continue  # (most lines, most of the time: nothing to note)
                total += len(found) - len(previous)
                steps[number] = found
                if found:
                    line_open.add(number)
                else:
                    line_open.discard(number)
                best[number] = max(deduction_sizes(found), default=0)
        finally:
            self._line_total[rung] = total

    def _sizes_in_batch(self, rung: str, numbers: list[int]) -> dict[int, list[int]]:
        """The deductions' sizes of the open lines among ``numbers`` of a grid with long
        lines, in one compiled call (a broken line is left out: its finder says why). A
        grid without long lines loads no compiled code (see ranges.COMPILED_FROM); in one
        with them, short lines are sized too (the sizes are equal, tests hold them so)."""
        kind = self._sizes_kinds.get(rung)
        if kind is None or max(self.puzzle.width, self.puzzle.height) < COMPILED_FROM:
            return {}
        chosen = [n for n in numbers if self._line_unknown[n]]
        if len(chosen) < 2:
            return {}  # one line is as quick through its finder
        clues, counts = self._clues()
        owners = ranges_module.SIZES_OWNERS[kind]
        if owners not in self._ranges_memos:
            self._ranges_memos[owners] = ranges_module.RangesMemo.for_clues(clues)
        sizes = deduction_sizes_many(kind, clues, counts, self.grid.cells, chosen,
                                     self._ranges_memos[owners])
        return {n: s for n, s in zip(chosen, sizes, strict=True) if s is not None}

    def _clues(self) -> tuple[IntArray, IntArray]:
        """Every line's clue as the compiled kernels read them (made when first needed)."""
        if self._clue_table is None:
            self._clue_table = clue_table([clue for _, clue in self.lines])
        return self._clue_table

    def _find_listed(self, find: LineFinder, number: int) -> list[LineDeduction]:
        return list(find(self.lines[number][1], self.line_cells(number)))

    @staticmethod
    def _place(rung: str, ref: LineRef, clue: Clue, deduction: LineDeduction,
               openings: int = 1) -> Step:
        index = ref.index  # (ref.cell per cell cost the cauldron's 394,000 cells 0.1 s)
        changes = (tuple((index, p, state) for p, state in deduction.changes)
                   if ref.axis == "row" else
                   tuple((p, index, state) for p, state in deduction.changes))
        return Step(rung, deduction.technique, changes, line=ref, clue=clue,
                    facts=deduction.facts, openings=openings)

    def _choose_line_step(self, rung: str) -> Step | None:
        """The step of ``rung`` deciding most cells (first line on ties), with openings."""
        self._refresh(rung)
        if not self._line_total[rung]:
            return None
        number = int(np.argmax(self._line_best[rung]))
        candidates = self._line_steps[rung][number]
        best = max(range(len(candidates)), key=lambda i: (len(candidates[i].changes), -i))
        ref, clue = self.lines[number]
        return self._place(rung, ref, clue, candidates[best], self._line_total[rung])

    def available(self, rung: str) -> list[Step]:
        """Every deduction ``rung`` can make now (the engine's openings at that rung)."""
        if rung in self._grid_modules:
            pending = [s for s in map(self._still_open, self._pending[rung]) if s is not None]
            if not pending:
                found = self._grid_modules[rung].find(self.puzzle, self.grid.cells, self.context)
                pending = [replace(s, rung=rung) if s.rung == UNPLACED else s for s in found]
            self._pending[rung] = pending
            return pending
        self._refresh(rung)
        steps = self._line_steps[rung]
        openings = self._line_total[rung]  # all of them, each open now
        return [
            self._place(rung, *self.lines[number], deduction, openings)
            for number in sorted(self._line_open[rung])
            for deduction in steps[number]
        ]

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
        touched: set[int] = set()
        line_unknown = self._line_unknown
        changed = 0
        for r, c, state in step.changes:
            old = int(cells[r, c])
            new = old & state
            if not new:
                raise Contradiction(
                    f"{step.technique} decides cell ({r + 1}, {c + 1}) against the grid"
                )
            if new != old:  # (old was unknown: a known cell only ever keeps its value)
                cells[r, c] = new
                touched.add(r)
                touched.add(height + c)
                line_unknown[r] -= 1
                line_unknown[height + c] -= 1
                changed += 1
        self._note_changed(touched, changed)
        return changed

    def _note_changed(self, touched: set[int], changed: int) -> None:
        """After ``changed`` cells were decided on the lines ``touched``: those lines are
        searched again by every rung (their unknown counts are the caller's)."""
        for dirty in self._dirty.values():
            dirty |= touched
        for number in touched:
            self._cells.pop(number, None)
        self._unknown -= changed

    # -- rung 1 on a big grid, in compiled rounds -------------------------------------------
    def _simple_rounds(self) -> bool:
        """Rung 1's batches on a grid with long lines, run by the compiled kernel
        (line_ranges.simple_rounds) until rung 1 has nothing left; True if it took steps.

        The steps are those the batches of :meth:`_next_steps` take (the same deductions,
        biggest first, each on the cells still open, ``openings`` the batch's size), made
        without a call from Python a line: on the 512x512 cauldron, sizing the changed
        lines, building their deductions and applying them one by one in Python was 40 %
        of the grade. False, doing nothing, on other grids and ladders.
        """
        rung = self._simple_rung
        if rung is None or max(self.puzzle.width, self.puzzle.height) < (
                ranges_module.COMPILED_FROM):
            return False
        pending = self._dirty[rung] | self._line_open[rung]
        if not pending:
            return False
        clues, counts = self._clues()
        dirty = np.zeros(len(self.lines), dtype=np.uint8)
        dirty[list(pending)] = 1
        for number in self._line_open[rung]:  # found again by the first round
            self._line_steps[rung][number] = []
        self._line_open[rung].clear()
        self._line_best[rung][:] = 0
        self._line_total[rung] = 0
        kernels = line_kernels()
        took = False
        try:
            while True:
                outcome, record, used, broken = kernels.simple_rounds(
                    clues, counts, self.grid.cells, dirty, ROUNDS_A_CALL)
                took = self._take_simple_steps(rung, record[:used].tolist()) or took
                if outcome == kernels.ROUNDS_BROKEN:
                    self._name_broken_line(rung, int(broken))
                if outcome == kernels.ROUNDS_IDLE:
                    return took
                if self.deadline is not None and time.monotonic() > self.deadline:
                    raise BudgetExceeded(
                        f"the ladder ran out of time after {len(self.steps)} steps")
        finally:
            self._dirty[rung] = set(np.flatnonzero(dirty).tolist())

    def _take_simple_steps(self, rung: str, record: list[int]) -> bool:
        """The steps of a simple_rounds record (its grid changes made already) into the
        log, with what apply notes; True if there were any."""
        height = self.puzzle.height
        line_unknown = self._line_unknown
        touched: set[int] = set()
        changed = 0
        at = 0
        head = line_kernels().STEP_HEAD
        while at < len(record):
            number, kind, j, a, b, openings, taken = record[at:at + head]
            positions = record[at + head:at + head + taken]
            at += head + taken
            ref, clue = self.lines[number]
            facts: dict[str, Any]
            if kind == 0:  # block j's overlap, its range a..b (as ranges._build_deductions)
                block = clue[j]
                facts = {"block": j, "length": block, "range": (a, b),
                         "covers": (b - block + 1, a + block - 1)}
                technique, state = "simple-boxes", FILLED
            else:  # gap j, cells a..b - 1
                facts = {"stretch": (a, b - 1), "after_block": j - 1}
                if j < len(clue):
                    facts["before_block"] = j
                technique, state = "simple-spaces", EMPTY
            if ref.axis == "row":
                changes = tuple(zip(repeat(ref.index), positions, repeat(state)))
                crossing = [height + p for p in positions]
            else:
                changes = tuple(zip(positions, repeat(ref.index), repeat(state)))
                crossing = positions
            self.steps.append(Step(rung, technique, changes, line=ref, clue=clue,
                                   facts=facts, openings=openings))
            line_unknown[number] -= taken
            for line in crossing:
                line_unknown[line] -= 1
            touched.add(number)
            touched.update(crossing)
            changed += taken
        self._note_changed(touched, changed)
        return changed > 0

    def _name_broken_line(self, rung: str, number: int) -> None:
        """Raise LineBroken for a line the kernel found broken, in its finder's words."""
        ref, clue = self.lines[number]
        cells = self.line_cells(number)
        try:
            self._line_finders[rung](clue, cells)
        except Contradiction as exc:
            raise LineBroken(rung, ref, clue, cells, str(exc)) from None
        raise AssertionError(f"the compiled rounds broke {ref.label}, which its finder fills")

    # -- the ladder -----------------------------------------------------------------------
    def run(self) -> EngineResult:
        """Solve as far as the allowed rungs go."""
        steps = self.steps
        while self._unknown:
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise BudgetExceeded(f"the ladder ran out of time after {len(steps)} steps")
            if self._simple_rounds():
                continue  # rung 1 took steps: the ladder starts again from the bottom
            try:
                batch = self._next_steps()
            except SeveralSolutions as several:
                examples = tuple(Grid(e.copy()) for e in several.examples)
                return EngineResult(steps, self.grid, "multiple", examples)
            if not batch:
                return EngineResult(steps, self.grid, "stuck")
            for candidate in batch:
                chosen = self._still_open(candidate)
                if chosen is None:
                    continue  # an earlier step of the batch decided its cells already
                if len(batch) > 1 and chosen.openings != len(batch):
                    # all of them were open when the batch was found
                    chosen = replace(chosen, openings=len(batch))
                steps.append(chosen)
                self.apply(chosen)
        self._check_solution()
        return EngineResult(steps, self.grid, "solved")

    def _next_steps(self) -> list[Step]:
        """The step of the cheapest rung that makes progress ([] when all are idle).

        The cheapest rung's steps (simple boxes) come as a batch, biggest first: every one
        of them is a fact that stays true, and after any of them the ladder would restart
        at this same rung, so taking them together (each on the cells still open) changes
        no rung's count and spares re-searching hundreds of crossing lines after each one.
        """
        if self._ask_by is not None and time.monotonic() > self._ask_by:
            self._ask()
        for number, row in enumerate(self.rungs):
            if row.scope == "grid" and self._ask_solver is not None:
                self._ask()
            rung = row.name
            if number == 0 and row.scope == "line":
                found = self.available(rung)
                order = sorted(range(len(found)), key=lambda i: (-len(found[i].changes), i))
                if found:
                    return [found[i] for i in order]
                continue
            if row.scope == "line":
                step = self._choose_line_step(rung)
                if step is not None:
                    return [step]
                continue
            found = self.available(rung)
            if not found:
                continue
            best = min(range(len(found)), key=lambda i: (_preference(found[i]), i))
            step = replace(found[best], openings=len(found))
            del self._pending[rung][best]  # found is the pending list itself
            describe = getattr(self._grid_modules[rung], "describe", None)
            if describe is not None:
                step = describe(self.puzzle, self.grid.cells, step)
            return [step]
        return []

    def _ask(self) -> None:
        """Ask ``ask_solver`` its question, once."""
        ask, self._ask_solver, self._ask_by = self._ask_solver, None, None
        if ask is not None:
            ask(self.grid.cells, self.context)

    def _check_solution(self) -> None:
        for number, (ref, clue) in enumerate(self.lines):
            cells = self.line_cells(number)
            if not is_solved_line(clue, cells):
                first = self.rungs[0].name if self.rungs else "simple-boxes"
                raise LineBroken(first, ref, clue, cells, "the filled line does not match")

