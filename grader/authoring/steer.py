"""Steer a unique puzzle towards the difficulty asked for, keeping it unique.

Easier: run the ladder only up to the hardest rung the target allows; where it gets stuck,
try moves (a flip on a shape's edge, or a given) and take the one that leaves the fewest
cells open to that ladder. Harder: flips only (givens are already as few as can be):
try edge flips that keep the puzzle unique and take the one whose grade comes nearest.
The closest puzzle seen is kept, so a target out of reach still yields the nearest one.
"""

from __future__ import annotations

import contextlib
import random
import time
from dataclasses import dataclass

from grader.authoring.clock import Clock
from grader.authoring.measure import EDGE, Cell, line_unknowns, look_penalty, neighbourhood
from grader.authoring.target import LEVEL_RUNGS, Target
from grader.authoring.unique import Edit, Mode, make_unique
from grader.engine import Engine
from grader.errors import BudgetExceeded
from grader.grading import Grade, grade
from grader.model import UNKNOWN, BoolArray
from grader.solver import solve
from grader.techniques.base import RUNGS

#: seconds one grading may take
GRADE_SECONDS = 5.0
#: moves tried per round
TRIES = 10
#: moves tried per round when the compiled line logic ranks them
CHEAP_TRIES = 40
#: rounds in a row without getting nearer before giving up
PATIENCE = 5


@dataclass
class _Snapshot:
    picture: BoolArray
    flips: set[Cell]
    givens: dict[Cell, bool]
    grade: Grade

    @classmethod
    def take(cls, edit: Edit, graded: Grade) -> _Snapshot:
        return cls(edit.picture.copy(), set(edit.flips), dict(edit.givens), graded)

    def restore(self, edit: Edit) -> None:
        edit.picture = self.picture.copy()
        edit.flips = set(self.flips)
        edit.givens = dict(self.givens)
        edit.verdict = "unique"


def grade_edit(edit: Edit, clock: Clock) -> Grade:
    return grade(edit.puzzle(), budget=clock.budget(GRADE_SECONDS))


def _stuck_cells(edit: Edit, rung: str, clock: Clock) -> tuple[list[Cell], int]:
    """Cells the ladder up to ``rung`` leaves open, and how many."""
    left = clock.left()
    deadline = None if left is None else time.monotonic() + min(left, GRADE_SECONDS)
    engine = Engine(edit.puzzle(), max_rung=rung, deadline=deadline)
    with contextlib.suppress(BudgetExceeded):  # what it decided in time still counts
        engine.run()
    rows, columns = (engine.grid.cells == UNKNOWN).nonzero()
    cells = list(zip(rows.tolist(), columns.tolist(), strict=True))
    return cells, len(cells)


def _open_after(edit: Edit, rung: str, clock: Clock) -> int:
    # the compiled line logic is exactly the ladder up to the complete line solve
    if rung == "line-analysis":
        return line_unknowns(edit.puzzle())
    return _stuck_cells(edit, rung, clock)[1]


def _easier(edit: Edit, target: Target, mode: Mode, clock: Clock, rng: random.Random,
            current: Grade) -> bool:
    """One move that leaves fewer cells open to the ladder the target allows (first to the
    compiled line logic when the puzzle needs more than lines: it is cheap to ask)."""
    rung = target.top_rung()
    if RUNGS.index(rung) < RUNGS.index("line-analysis") and current.level not in (
        "easy", "medium", "hard"
    ):
        rung = "line-analysis"
    stuck, before = _stuck_cells(edit, rung, clock)
    if not stuck:
        return False
    height, width = edit.picture.shape
    pool = sorted(neighbourhood(stuck, height, width) if mode == "flips" else stuck)
    pool = [c for c in pool if c not in edit.givens and c not in edit.flips]
    rng.shuffle(pool)
    if mode == "flips":
        pool.sort(key=lambda cell: look_penalty(edit.picture, *cell))
    tries = CHEAP_TRIES if rung == "line-analysis" else TRIES
    best: tuple[float, Cell] | None = None
    for cell in pool[:tries]:
        if clock.out():
            break
        penalty = look_penalty(edit.picture, *cell) if mode == "flips" else 0.0
        if mode == "flips":
            edit.flip(cell)
        else:
            edit.give(cell)
        cost = _open_after(edit, rung, clock) + 2.0 * penalty
        if mode == "flips":
            edit.flip(cell)
        else:
            del edit.givens[cell]
        if best is None or cost < best[0]:
            best = (cost, cell)
    if best is None or best[0] >= before:
        return False
    if mode == "flips":
        edit.flip(best[1])
        make_unique(edit, mode, clock, seed=rng.randrange(1 << 30), tidy=False)
    else:
        edit.give(best[1])
    return edit.verdict == "unique" or mode == "givens"


def _on_level(edit: Edit, level: str, clock: Clock) -> bool:
    """Whether the puzzle needs exactly ``level``: the ladder up to its top rung solves it
    (so it is unique) and the ladder of the level below does not."""
    rung = LEVEL_RUNGS[level]
    if rung == "cell-branching":
        if line_unknowns(edit.puzzle()) == 0:
            return False
        return solve(edit.puzzle(), budget=clock.budget(1.0)).verdict == "unique"
    if _open_after(edit, rung, clock) != 0:
        return False
    levels = list(LEVEL_RUNGS)
    below = levels.index(level) - 1
    return below >= 0 and _open_after(edit, LEVEL_RUNGS[levels[below]], clock) > 0


def _harder(edit: Edit, target: Target, mode: Mode, clock: Clock, rng: random.Random,
            current: Grade) -> bool:
    """One edge flip that makes the puzzle harder: onto the level asked for (checked with
    the ladders), or for stars the flip whose grade comes nearest."""
    if mode == "givens":
        return False  # the givens are already as few as keep the puzzle unique
    height, width = edit.picture.shape
    pool = [(r, c) for r in range(height) for c in range(width)
            if (r, c) not in edit.flips and look_penalty(edit.picture, r, c) == EDGE]
    rng.shuffle(pool)
    best: tuple[float, Cell] | None = None
    for cell in pool[: 2 * TRIES if target.level else TRIES]:
        if clock.out():
            break
        edit.flip(cell)
        if target.level is not None:
            hit = _on_level(edit, target.level, clock)
            edit.flip(cell)
            if hit:
                best = (0.0, cell)
                break
            continue
        puzzle = edit.puzzle()
        unique = line_unknowns(puzzle) == 0 or (
            solve(puzzle, budget=clock.budget(1.0)).verdict == "unique"
        )
        if unique:
            graded = grade(puzzle, budget=clock.budget(GRADE_SECONDS))
            if graded.verdict == "unique":
                distance = target.distance(graded.score)
                if distance < target.distance(current.score) and (
                    best is None or distance < best[0]
                ):
                    best = (distance, cell)
        edit.flip(cell)
    if best is None:
        return False
    edit.flip(best[1])
    return True


def steer(edit: Edit, target: Target, mode: Mode, clock: Clock, seed: int = 0) -> Grade:
    """Move ``edit`` (unique) towards ``target``; returns the grade of the nearest puzzle
    found, which ``edit`` is left holding."""
    rng = random.Random(seed)
    current = grade_edit(edit, clock)
    nearest = _Snapshot.take(edit, current)
    idle = 0
    while target.direction(current.score) != 0 and not clock.out() and idle < PATIENCE:
        if target.direction(current.score) < 0:
            moved = _easier(edit, target, mode, clock, rng, current)
        else:
            moved = _harder(edit, target, mode, clock, rng, current)
        if not moved:
            idle += 1
            nearest.restore(edit)
            current = nearest.grade
            continue
        current = grade_edit(edit, clock)
        clock.say(f"steering: {current.level}, score {current.score:.2f}, "
                  f"{len(edit.flips)} flips, {len(edit.givens)} givens")
        if current.verdict == "unique" and (
            target.distance(current.score) < target.distance(nearest.grade.score)
        ):
            nearest = _Snapshot.take(edit, current)
        # an easier move made progress when it left fewer cells open (the score may only
        # move once the last one is gone); a harder move only when it got nearer
        idle = 0 if moved and target.direction(current.score) <= 0 else idle + 1
    nearest.restore(edit)
    return nearest.grade
