"""Steer a mosaic someone is editing by its clues: make it unique, easier or harder by
showing and hiding clues of its picture (the studio's Make unique, Easier and Harder).

The picture steered towards is the mosaic's own solution when it has one that agrees with
its clues, else the first the solver finds. Make unique shows, one at a time, a clue where
that picture and a second solution differ in count (it rules the second out), preferring
the clue whose block holds the most cells where they differ; when every clue is shown and
two pictures still agree with all of them, the fewest cells are changed as ``make`` changes
them. Easier shows the clue whose block holds the most cells the rungs up to the level
asked leave open, until those rungs finish the grid, then hides again each clue it showed
that they can do without; when no clue set reaches that level, it shows, one at a time,
the clue (beside a cell the hardest rung decided) that lowers the score most, until the
stars asked are reached or no clue lowers it. Harder hides clues in a seeded order, each for
good when the rungs up to the level asked still finish the grid, starting from every
clue of the picture and trying the clues hidden now first (a mosaic whose clues none can
go, as a made one is, gets harder only by trading clues: the ones hidden stay hidden where
the level allows).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from grader.errors import PuzzleError
from grader.model import BoolArray
from grader.mosaic.grading import MosaicGrade, grade
from grader.mosaic.ladder import mosaic_ladder
from grader.mosaic.making import (
    LEVELS,
    MAX_PASSES,
    finishes,
    hide,
    ladder_board,
    level_for_stars,
    top_rung,
    unique_picture,
)
from grader.mosaic.solver import UNSET, solve
from grader.mosaic_model import NONE, MosaicPuzzle, block_cells, block_sums
from grader.results import Budget

Cell = tuple[int, int]
#: each rung's place in the ladder (a step's weight when finding the hardest one used)
_RUNG_RANK = {rung.name: i for i, rung in enumerate(mosaic_ladder().rungs)}


@dataclass(frozen=True)
class SteeredMosaic:
    """A steered mosaic (its solution known) and what changed from the one edited."""

    puzzle: MosaicPuzzle
    grade: MosaicGrade
    #: the picture steered towards, before any cell was changed
    original: BoolArray
    #: cells of the picture changed (no clue set of the picture was unique)
    changed: tuple[Cell, ...]
    #: clues shown that were hidden, and hidden that were shown (0-based)
    added: tuple[Cell, ...]
    removed: tuple[Cell, ...]
    #: the level asked (None: only unique)
    level_asked: str | None

    @property
    def unique(self) -> bool:
        return self.grade.verdict == "unique"

    @property
    def reached(self) -> bool:
        return self.level_asked is None or self.grade.level == self.level_asked


def picture_of(puzzle: MosaicPuzzle, budget: Budget) -> BoolArray:
    """The picture the clues are steered towards: the mosaic's own solution when it agrees
    with the clues, else the first one the solver finds (a PuzzleError when none does)."""
    own = puzzle.solution_array()
    if own is not None and puzzle.satisfied_by(own):
        return own
    found = solve(puzzle, 1, budget)
    if found.verdict == "none":
        raise PuzzleError("no picture agrees with every clue: change a clue first")
    if not found.solutions:
        raise PuzzleError(f"no picture of these clues was found in the budget "
                          f"({found.verdict})")
    return np.asarray(found.solutions[0], dtype=bool)


def _shown(puzzle: MosaicPuzzle) -> BoolArray:
    shown: BoolArray = puzzle.clue_array() != NONE
    return shown


def _unique_clues(picture: BoolArray, shown: BoolArray, budget: Budget, began: float
                  ) -> tuple[BoolArray, BoolArray, list[Cell]]:
    """(picture, clues shown, cells changed): clues of ``picture`` shown until it is the
    one solution, all the calls together within ``budget`` counted from ``began``."""
    changed: list[Cell] = []
    shown = shown.copy()
    height, width = picture.shape
    for _ in range(height * width + 1):
        result = solve(MosaicPuzzle.from_picture(picture, shown), 2,
                       budget.less(time.monotonic() - began))
        if result.verdict == "unique":
            return picture, shown, changed
        if result.verdict != "multiple":
            raise PuzzleError(f"cannot prove the mosaic unique in the budget ({result.verdict})")
        other = next(np.asarray(s, dtype=bool) for s in result.solutions
                     if not np.array_equal(np.asarray(s, dtype=bool), picture))
        differ = picture != other
        separating = (block_sums(picture) != block_sums(other)) & ~shown
        if not separating.any():
            # two pictures agree with every clue: change the picture's fewest cells
            fixed, flips = unique_picture(picture, budget.less(time.monotonic() - began))
            changed.extend(flips)
            picture = fixed
            continue
        best = max(zip(*np.nonzero(separating), strict=True),
                   key=lambda rc: (sum(bool(differ[r, c]) for r, c in
                                       block_cells(int(rc[0]), int(rc[1]), height, width)),
                                   -int(rc[0]), -int(rc[1])))
        shown[int(best[0]), int(best[1])] = True
    raise PuzzleError("could not make the mosaic unique")


def _easier(full: MosaicPuzzle, shown: BoolArray, top: str, deadline: float | None
            ) -> BoolArray:
    """Clues shown until the rungs up to ``top`` finish the grid (fewest the greedy pass
    finds: each added clue hidden again when they do without it)."""
    height, width = shown.shape
    before, shown = shown, shown.copy()
    added: list[Cell] = []
    while not finishes(full.with_clues(shown), top, deadline):
        if deadline is not None and time.monotonic() > deadline:
            break
        value = ladder_board(full.with_clues(shown), top, deadline)
        if value is None:
            break
        hidden = list(zip(*np.nonzero(~shown), strict=True))
        if not hidden:
            break
        r, c = max(hidden, key=lambda rc: (
            sum(value[rr * width + cc] == UNSET
                for rr, cc in block_cells(int(rc[0]), int(rc[1]), height, width)),
            -int(rc[0]), -int(rc[1])))
        shown[int(r), int(c)] = True
        added.append((int(r), int(c)))
    if not finishes(full.with_clues(shown), top, deadline):
        return before  # every clue shown needs a harder rung: no clue set reaches the level
    for r, c in reversed(added):
        shown[r, c] = False
        if not finishes(full.with_clues(shown), top, deadline):
            shown[r, c] = True
    return shown


def _lighter(full: MosaicPuzzle, shown: BoolArray, graded: MosaicGrade, stars: int | None,
             budget: Budget, deadline: float | None) -> BoolArray:
    """Easier within the level (no clue set reaches an easier one): one clue at a time, the
    hidden clue beside a cell the hardest rung used decided whose showing lowers the score
    most, until the stars asked are reached, no clue lowers it, or time runs out."""
    height, width = shown.shape
    shown = shown.copy()
    while stars is None or graded.stars is None or graded.stars > stars:
        if deadline is not None and time.monotonic() > deadline:
            break
        hardest = max(graded.steps, key=lambda s: _RUNG_RANK.get(s.rung, 0), default=None)
        if hardest is None or graded.score is None:
            break
        top = _RUNG_RANK.get(hardest.rung, 0)
        near = {(rr, cc) for step in graded.steps if _RUNG_RANK.get(step.rung, 0) == top
                for r, c, *_ in step.changes
                for rr, cc in block_cells(r, c, height, width) if not shown[rr, cc]}
        best: tuple[float, Cell, MosaicGrade] | None = None
        for r, c in sorted(near):
            shown[r, c] = True
            found = grade(full.with_clues(shown), budget)
            shown[r, c] = False
            if (found.score is not None and found.level == graded.level
                    and (best is None or found.score < best[0])):
                best = (found.score, (r, c), found)
            if deadline is not None and time.monotonic() > deadline:
                break
        if best is None or best[0] >= graded.score:
            break
        shown[best[1]] = True
        graded = best[2]
        if stars is None:
            break  # one clue: the least easier there is
    return shown


def _rank(graded: MosaicGrade) -> tuple[int, float]:
    return (LEVELS.index(graded.level) if graded.level in LEVELS else -1,
            graded.score if graded.score is not None else -1.0)


def _harder(full: MosaicPuzzle, shown: BoolArray, graded: MosaicGrade, level: str, seed: int,
            budget: Budget, deadline: float | None) -> BoolArray:
    """Clues hidden from every clue of the picture in seeded orders (the first pass tries
    the clues hidden now first) while the level is not reached and time lasts; the hardest
    set found (level, then score), or ``shown`` when none is harder."""
    top = top_rung(level)
    best = (_rank(graded), shown)
    for attempt in range(MAX_PASSES):
        fewer, _ = hide(full, top, seed + attempt, deadline,
                        first=~shown if attempt == 0 else None)
        found = grade(full.with_clues(fewer), budget)
        if _rank(found) > best[0]:
            best = (_rank(found), fewer)
        if found.level == level or (deadline is not None and time.monotonic() > deadline):
            break
    return best[1]


def level_for_steering(puzzle: MosaicPuzzle, stars: int, budget: Budget) -> str:
    """The level Easier or Harder steers to when asked for ``stars`` (the editor asks one
    star more or fewer than the grade's): the easiest level holding them, or, when that is
    the mosaic's level already (a level spans two stars), the next level that way."""
    current = grade(puzzle, budget)
    level = level_for_stars(stars)
    if current.level not in LEVELS or current.stars is None or level != current.level:
        return level
    step = 1 if stars > current.stars else -1
    return LEVELS[min(max(LEVELS.index(level) + step, 0), len(LEVELS) - 1)]


def steer(puzzle: MosaicPuzzle, level: str | None = None, *, stars: int | None = None,
          seed: int = 0, budget: Budget | None = None) -> SteeredMosaic:
    """``puzzle`` made unique by showing clues of its picture, then (``level`` given)
    steered to that level by showing clues (easier) or hiding them (harder); an easier
    level out of reach of every clue set gives fewer stars (``stars``) within its own."""
    began = time.monotonic()
    budget = budget or Budget(seconds=30)
    deadline = None if budget.seconds is None else began + budget.seconds
    if level is not None and level not in LEVELS:
        raise PuzzleError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
    original = picture_of(puzzle, budget)
    before = _shown(puzzle)
    picture, shown, changed = _unique_clues(original, before, budget, began)
    full = MosaicPuzzle.from_picture(picture, meta=puzzle.meta)
    graded = grade(full.with_clues(shown), budget.less(time.monotonic() - began))
    if level is not None and graded.level in LEVELS and graded.level != level:
        if LEVELS.index(graded.level) > LEVELS.index(level):
            easier = _easier(full, shown, top_rung(level), deadline)
            if easier is shown:  # the level is out of reach: fewer stars within this one
                easier = _lighter(full, shown, graded, stars, budget, deadline)
            shown = easier
        else:
            shown = _harder(full, shown, graded, level, seed, budget, deadline)
        graded = grade(full.with_clues(shown), budget)
    steered = full.with_clues(shown)
    added = tuple((int(r), int(c)) for r, c in zip(*np.nonzero(shown & ~before), strict=True))
    removed = tuple((int(r), int(c)) for r, c in zip(*np.nonzero(before & ~shown), strict=True))
    return SteeredMosaic(steered, graded, original, tuple(changed), added, removed, level)


__all__ = ["SteeredMosaic", "level_for_steering", "picture_of", "steer"]
