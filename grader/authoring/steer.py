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
from dataclasses import dataclass

from grader.authoring.clock import Clock
from grader.authoring.measure import (
    EDGE,
    INTERIOR,
    SPECK,
    Cell,
    line_slack,
    line_unknowns,
    look_penalty,
    neighbourhood,
    total_slack,
)
from grader.authoring.target import LEVEL_RUNGS, Target, describe
from grader.authoring.unique import Edit, Mode, make_unique
from grader.engine import Engine
from grader.errors import BudgetExceeded
from grader.grading import Grade, grade
from grader.ladder import rung_names
from grader.model import UNKNOWN, BoolArray
from grader.results import Budget
from grader.solver import solve

RUNGS = rung_names()

#: seconds one grading may take, and one uniqueness proof when undoing a flip
GRADE_SECONDS, UNDO_SECONDS = 5.0, 1.0
#: moves tried per round
TRIES = 10
#: moves that let the ladder through, graded to pick one on the level
FINISHERS = 6
#: moves tried per round when the compiled line logic ranks them
CHEAP_TRIES = 40
#: rounds in a row without getting nearer before giving up
PATIENCE = 5
#: kicks (several flips at once) a steering may try, and one flip per this many cells
KICKS, KICK_SHARE = 3, 100
#: moves in a row that only tighten lines, before such moves stop
PLATEAU = 8
#: most cells steering may change by default, as a percentage of all cells (flips made
#: for uniqueness included; at least MIN_FLIPS): an art editor notices a few percent of
#: changed cells as speckles and holes, so past this the target is reported out of reach
MAX_CHANGE, MIN_FLIPS = 4.0, 4


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
    seconds = None if left is None else min(left, GRADE_SECONDS)
    engine = Engine(edit.puzzle(), max_rung=rung, budget=Budget(seconds=seconds))
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
            current: Grade, plateau: bool) -> tuple[int, bool]:
    """One move that leaves fewer cells open to the ladder the target allows (first to the
    compiled line logic when the puzzle needs more than lines: it is cheap to ask).

    2: fewer cells open; 1 (only when ``plateau``): as many open, but tighter lines (the
    next move has more to work with); 0: no move found. Also whether cells are certainly
    still open (then the puzzle is still too hard, and grading it again can wait)."""
    rung = _easier_rung(target, current)
    if RUNGS.index(rung) < RUNGS.index("line-analysis") and current.level not in (
        "easy", "medium", "hard"
    ):
        rung = "line-analysis"
    stuck, before = _stuck_cells(edit, rung, clock)
    if not stuck:
        return 0, False
    height, width = edit.picture.shape
    pool = sorted(neighbourhood(stuck, height, width) if mode == "flips" else stuck)
    pool = [c for c in pool if c not in edit.givens and c not in edit.flips]
    rng.shuffle(pool)
    if mode == "flips":
        pool.sort(key=lambda cell: look_penalty(edit.picture, *cell))
    tries = CHEAP_TRIES if rung == "line-analysis" else TRIES
    slack_before = total_slack(edit.picture)
    best: tuple[float, int, Cell, int] | None = None
    finishing: list[tuple[float, float, Cell]] = []
    for cell in pool[:tries]:
        if clock.out():
            break
        penalty = look_penalty(edit.picture, *cell) if mode == "flips" else 0.0
        if mode == "flips":
            edit.flip(cell)
        else:
            edit.give(cell)
        open_cells = _open_after(edit, rung, clock)
        cost = (open_cells + 2.0 * penalty, total_slack(edit.picture))
        if open_cells == 0 and len(finishing) < FINISHERS:
            # the ladder now goes through: worth a grade, to land on the level, not below
            graded = grade(edit.puzzle(), budget=clock.budget(GRADE_SECONDS))
            if graded.verdict == "unique":
                finishing.append((target.distance(target.measure(graded)), penalty, cell))
        if mode == "flips":
            edit.flip(cell)
        else:
            del edit.givens[cell]
        if best is None or cost < best[:2]:
            best = (*cost, cell, open_cells)
    if finishing:
        on_target = min(finishing)
        if on_target[0] == 0.0:
            best = (on_target[1], 0, on_target[2], 0)
    if best is None:
        return 0, False
    if best[0] < before:
        outcome = 2
    elif plateau and mode == "flips" and best[0] == before and best[1] < slack_before:
        outcome = 1
    else:
        return 0, False
    flips = len(edit.flips)
    if mode == "flips":
        edit.flip(best[2])
        make_unique(edit, mode, clock, seed=rng.randrange(1 << 30), tidy=False)
    else:
        edit.give(best[2])
    if mode == "flips" and edit.verdict != "unique":
        return 0, False
    return outcome, best[3] > 0 and (mode == "givens" or len(edit.flips) == flips + 1)


def _easier_rung(target: Target, current: Grade) -> str:
    """The ladder a move should let through: the target's top rung; but a puzzle that
    needs no more than that and still stands too high (too many stars for its level) must
    come down a level, as a lower level is what lowers the work most (its look-ahead)."""
    rung = target.top_rung()
    if current.level in LEVEL_RUNGS and RUNGS.index(LEVEL_RUNGS[current.level]) <= RUNGS.index(
            rung):
        levels = list(LEVEL_RUNGS)
        below = levels.index(current.level) - 1
        if below >= 0:
            rung = LEVEL_RUNGS[levels[below]]
    return rung


def _harder_pool(edit: Edit, rng: random.Random, tries: int) -> list[Cell]:
    """Edge pixels in the tightest lines (where the first openings are), filled ones first
    (erasing the end of a block loosens its line); and as many holes or bumps inside the
    shapes, which split a line's block in two (a plain silhouette has no other way to get
    harder)."""
    rows, columns = line_slack(edit.picture)
    height, width = edit.picture.shape
    edges: list[Cell] = []
    inside: list[Cell] = []
    for r in range(height):
        for c in range(width):
            if (r, c) in edit.flips:
                continue
            penalty = look_penalty(edit.picture, r, c)
            if penalty == EDGE:
                edges.append((r, c))
            elif penalty == INTERIOR:
                inside.append((r, c))
    picked: list[Cell] = []
    for pool in (edges, inside):
        rng.shuffle(pool)
        pool.sort(key=lambda cell: (not edit.picture[cell],
                                    int(rows[cell[0]] + columns[cell[1]])))
        head = pool[: 2 * tries]
        rng.shuffle(head)
        picked.extend(head[: tries // 2])
    return picked


def _harder(edit: Edit, target: Target, mode: Mode, clock: Clock, rng: random.Random,
            current: Grade, effort: int, *, up: bool = True) -> bool:
    """One edge flip that keeps the puzzle unique and raises its score without passing the
    target (the score grows with the work a solver does, so it leads towards harder).

    With ``up`` False, one that lowers it towards the target instead: when the ladder the
    target allows already goes through and the puzzle still stands too high (an easy
    puzzle with two stars asked for one), only less work brings it down."""
    if mode == "givens":
        return False  # the givens are already as few as keep the puzzle unique
    low, high = target.interval()
    now = target.measure(current)
    best: tuple[float, Cell] | None = None
    for cell in _harder_pool(edit, rng, TRIES * effort):
        if clock.out():
            break
        edit.flip(cell)
        puzzle = edit.puzzle()
        unique = line_unknowns(puzzle) == 0 or (
            solve(puzzle, budget=clock.budget(1.0)).verdict == "unique"
        )
        if unique:
            graded = grade(puzzle, budget=clock.budget(GRADE_SECONDS))
            measure = target.measure(graded)
            nearer = best is None or (measure > best[0] if up else measure < best[0])
            within = now < measure < high if up else low <= measure < now
            if graded.verdict == "unique" and within and nearer:
                best = (measure, cell)
        edit.flip(cell)
        if best is not None and target.direction(best[0]) == 0:
            break  # on target: no need to look further
    if best is None:
        return False
    edit.flip(best[1])
    return True


def _kick(edit: Edit, clock: Clock, rng: random.Random) -> bool:
    """Several flips at once (edges and holes), made unique again: when one flip at a time
    cannot make a puzzle harder, overshoot and let the easier moves come back down."""
    height, width = edit.picture.shape
    pool = [(r, c) for r in range(height) for c in range(width)
            if (r, c) not in edit.flips and look_penalty(edit.picture, r, c) != SPECK]
    for cell in rng.sample(pool, min(len(pool), max(3, edit.picture.size // KICK_SHARE))):
        if look_penalty(edit.picture, *cell) != SPECK:
            edit.flip(cell)
    make_unique(edit, "flips", clock, seed=rng.randrange(1 << 30), tidy=False)
    clock.say(f"kick: {len(edit.flips)} flips, {edit.verdict}")
    return edit.verdict == "unique"


def change_limit(cells: int, max_change: float = MAX_CHANGE) -> int:
    """The most flips ``max_change`` percent of ``cells`` allows (at least MIN_FLIPS, unless
    no change at all is allowed)."""
    if max_change <= 0:
        return 0
    return max(MIN_FLIPS, int(max_change * cells / 100.0))


def steer(edit: Edit, target: Target, mode: Mode, clock: Clock, seed: int = 0, *,
          max_change: float = MAX_CHANGE) -> Grade:
    """Move ``edit`` (unique) towards ``target`` with at most ``max_change`` percent of the
    cells flipped; returns the grade of the nearest puzzle found, which ``edit`` is left
    holding."""
    rng = random.Random(seed)
    current = grade_edit(edit, clock)
    nearest = _Snapshot.take(edit, current)
    idle = plateau_moves = kicks = 0
    limit = max(change_limit(edit.picture.size, max_change), len(edit.flips))
    while target.direction(target.measure(current)) != 0 and not clock.out() and idle < PATIENCE:
        if target.direction(target.measure(current)) < 0:
            outcome, still_open = _easier(edit, target, mode, clock, rng, current,
                                          plateau=plateau_moves < PLATEAU)
            plateau_moves = plateau_moves + 1 if outcome == 1 else 0
            moved = outcome > 0 or _harder(edit, target, mode, clock, rng, current,
                                           effort=1 + idle, up=False)
            if still_open:
                continue  # still too hard: grade once the ladder goes through
        else:
            moved = _harder(edit, target, mode, clock, rng, current, effort=1 + idle)
            if not moved and mode == "flips" and kicks < KICKS:
                kicks += 1
                moved = _kick(edit, clock, rng)
        if moved and len(edit.flips) > limit:
            moved = False  # past this the picture is lost: the nearest so far stands
            edit.capped = True
        if not moved:
            idle += 1
            nearest.restore(edit)
            current = nearest.grade
            continue
        current = grade_edit(edit, clock)
        clock.say(f"steering: {describe(current)}, "
                  f"{len(edit.flips)} flips, {len(edit.givens)} givens")
        if current.verdict == "unique" and (
            target.distance(target.measure(current))
            < target.distance(target.measure(nearest.grade))
        ):
            nearest = _Snapshot.take(edit, current)
        idle = 0
    # the nearest found stands even within the start's level: its progress is the work a
    # reader feels (a score from 0.43 to 0.87), and the report says the target was missed
    nearest.restore(edit)
    if mode == "flips":
        return _undo_unneeded(edit, target, clock, nearest.grade)
    return nearest.grade


def _undo_unneeded(edit: Edit, target: Target, clock: Clock, graded: Grade) -> Grade:
    """Undo each flip (the most visible first) the puzzle stays unique and no farther from
    the target without: steering takes the best move of each round, and later moves often
    make earlier ones unnecessary."""
    distance = target.distance(target.measure(graded))
    for cell in sorted(edit.flips, key=lambda cell: -look_penalty(edit.original, *cell)):
        if clock.out():
            break
        edit.flip(cell)
        puzzle = edit.puzzle()
        if line_unknowns(puzzle) == 0 or solve(
            puzzle, budget=clock.budget(UNDO_SECONDS)
        ).verdict == "unique":
            undone = grade(puzzle, budget=clock.budget(GRADE_SECONDS))
            if undone.verdict == "unique" and target.distance(target.measure(undone)) <= distance:
                graded, distance = undone, target.distance(target.measure(undone))
                continue
        edit.flip(cell)
    return graded
