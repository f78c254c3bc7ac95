"""Picture -> mosaic: the picture is the solution; choose which clues to show.

Every picture satisfies its own clues, so making a mosaic is choosing clues: shown all, a
mosaic is unique unless some cells are seen by no clue that tells them apart; then the
fewest cells are changed (one of the cells where two solutions differ, again until one
solution is left). At a level, the clues are hidden one at a time in a seeded order, each
hidden for good when the rungs up to that level still finish the grid without it: the
clues left are irredundant (none can go), which is as few as a greedy pass allows, not
the fewest of all. When even every clue needs a harder rung than the level asked, the
clues are chosen at the level every clue needs and the result says the level was not
reached. ``every_clue`` shows every clue. The budget bounds the pass: when it runs out
the clues not yet tried stay (the mosaic is unique at its level all the same, with more
clues than the level needs: ``tried_all`` is false). A pass that ends below the level asked
(the clues hidden first decided what the others can do) is followed by passes in other
seeded orders while the budget lasts, and the one closest to the level is kept.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from grader.errors import PuzzleError
from grader.model import BoolArray, Metadata
from grader.mosaic.grading import MosaicGrade, grade
from grader.mosaic.ladder import mosaic_ladder
from grader.mosaic.solver import UNSET, solve
from grader.mosaic.techniques import FINDERS, Clues, Contradiction, OutOfTime
from grader.mosaic_model import MosaicPuzzle
from grader.results import Budget
from grader.scoring import LEVEL_STARS

#: the levels a mosaic can be made at, easiest first
LEVELS = ("easy", "medium", "hard", "fiendish", "needs-guessing")
#: the cell changes tried at most before giving up on a picture
MAX_CHANGES = 64
#: the rung up to which every clue's removal is tried first (cheap: pairs of clues); the
#: chains and trial only when these cannot do without the clue
CHEAP_TOP = "overlapping-clues"
#: hiding passes (seeds) tried at most for a level not reached
MAX_PASSES = 8


@dataclass(frozen=True)
class MadeMosaic:
    puzzle: MosaicPuzzle
    grade: MosaicGrade
    level_asked: str
    #: (row, column) of every cell changed from the picture to make it unique
    changed: tuple[tuple[int, int], ...]
    clues_total: int
    time_s: float
    #: False when the budget ran out before every clue was tried: some clues left could
    #: go (the mosaic is unique at its level all the same)
    tried_all: bool = True

    @property
    def reached(self) -> bool:
        """Whether the mosaic's level is the one asked."""
        return self.grade.level == self.level_asked


def level_for_stars(stars: int) -> str:
    """The easiest level whose printed stars include ``stars`` (the one scale)."""
    for level in LEVELS:
        low, high = LEVEL_STARS[level]
        if low <= stars <= high:
            return level
    raise PuzzleError(f"stars must be 1-5, not {stars}")


def top_rung(level: str) -> str:
    """The hardest rung of ``level``: the ladder a mosaic at that level may need."""
    names = [r.name for r in mosaic_ladder().rungs if r.level == level]
    if not names:
        raise PuzzleError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
    return names[-1]


def finishes(puzzle: MosaicPuzzle, top: str, deadline: float | None = None) -> bool:
    """Whether the rungs up to ``top`` finish the grid (no log kept: the making loop asks
    this once a clue). The one-clue rungs run as the solver's propagation; the comparisons
    only when it is stuck. Past ``deadline`` the answer is False (keeping a clue is safe)."""
    if "guess" in [r.name for r in mosaic_ladder().up_to(top)]:
        seconds = None if deadline is None else max(deadline - time.monotonic(), 0.001)
        return solve(puzzle, 2, Budget(seconds=seconds)).verdict == "unique"
    value = ladder_board(puzzle, top, deadline)
    return value is not None and UNSET not in value


def ladder_board(puzzle: MosaicPuzzle, top: str, deadline: float | None = None
                 ) -> bytearray | None:
    """The board (a value a cell, ``UNSET`` where open) where the rungs up to ``top``
    (trial at most: never the guess) stop; None on a contradiction or past ``deadline``."""
    view = Clues(puzzle)
    view.deadline = deadline
    board = view.board
    if not board.start():
        return None
    heavy = [r.name for r in mosaic_ladder().up_to(top)
             if r.name not in ("zeros-and-nines", "corners-and-edges", "completing-clues",
                               "guess")]
    try:
        while UNSET in board.value:
            for name in heavy:
                found = FINDERS[name](view)
                if found:
                    queue: list[int] = []
                    for deduction in found:
                        for i, v in deduction.changes.items():
                            if board.value[i] == UNSET:
                                board.assign(i, v, queue)
                                for k in board.cell_clues[i]:
                                    view.version[k] += 1
                    if not board.propagate(queue):
                        return None
                    break
            else:
                break
    except (Contradiction, OutOfTime):
        return None
    return board.value


def unique_picture(picture: BoolArray, budget: Budget) -> tuple[BoolArray, list[tuple[int, int]]]:
    """The picture with the fewest cells changed (greedily) so that showing every clue
    gives one solution."""
    picture = picture.copy()
    changed: list[tuple[int, int]] = []
    for _ in range(MAX_CHANGES):
        result = solve(MosaicPuzzle.from_picture(picture), 2, budget)
        if result.verdict == "unique":
            return picture, changed
        if result.verdict != "multiple":
            raise PuzzleError(f"cannot prove the picture's mosaic unique ({result.verdict})")
        # the picture is one solution: the cells where another one differs from it (the
        # two the solver found need not include the picture, and flipping where they
        # differ could wander among pictures as ambiguous forever)
        other = next(s for s in result.solutions if not np.array_equal(s, picture))
        cells = [(int(r), int(c)) for r, c in np.argwhere(other != picture)]
        # a change that makes it unique at once, else the first differing cell
        for r, c in cells:
            picture[r, c] = not picture[r, c]
            if solve(MosaicPuzzle.from_picture(picture), 2, budget).verdict == "unique":
                changed.append((r, c))
                return picture, changed
            picture[r, c] = not picture[r, c]
        r, c = cells[0]
        picture[r, c] = not picture[r, c]
        changed.append((r, c))
    raise PuzzleError(f"no mosaic of this picture is unique after {MAX_CHANGES} changed cells")


def make(picture: BoolArray, level: str = "hard", *, every_clue: bool = False, seed: int = 0,
         meta: Metadata | None = None, budget: Budget | None = None) -> MadeMosaic:
    """A unique mosaic whose solution is ``picture`` (changed in the fewest cells when no
    clue set is unique), showing as few clues as ``level`` allows (or all of them)."""
    began = time.monotonic()
    budget = budget or Budget(seconds=30)
    top = top_rung(level)
    fixed, changed = unique_picture(np.asarray(picture, dtype=bool), budget)
    full = MosaicPuzzle.from_picture(fixed, meta=meta)
    if not every_clue and not finishes(full, top):
        # every clue shown needs a harder rung than the level allows: no clue set is
        # unique at that level, so the clues are chosen at the level every clue needs
        needed = grade(full, budget)
        top = top_rung(needed.level) if needed.graded else "guess"
    if every_clue:
        graded = grade(full, budget)
        return MadeMosaic(full, graded, level, tuple(changed), full.clue_count(),
                          time.monotonic() - began)
    deadline = None if budget.seconds is None else began + budget.seconds
    best: tuple[tuple[int, int, int], MosaicPuzzle, MosaicGrade, bool] | None = None
    wanted = LEVELS.index(level)
    # another order of hiding may end at a harder level: passes with the next seeds while
    # the level is not reached and the budget lasts; the closest to the level is kept
    for attempt in range(MAX_PASSES):
        shown, tried_all = hide(full, top, seed + attempt, deadline)
        puzzle = full.with_clues(shown)
        graded = grade(puzzle, budget)
        reached = LEVELS.index(graded.level) if graded.level in LEVELS else -1
        rank = (int(reached == wanted), min(reached, wanted), -puzzle.clue_count())
        if best is None or rank > best[0]:
            best = (rank, puzzle, graded, tried_all)
        if reached >= wanted or (deadline is not None and time.monotonic() > deadline):
            break
    assert best is not None
    _, puzzle, graded, tried_all = best
    return MadeMosaic(puzzle, graded, level, tuple(changed), full.clue_count(),
                      time.monotonic() - began, tried_all)


def hide(full: MosaicPuzzle, top: str, seed: int, deadline: float | None,
         first: BoolArray | None = None) -> tuple[BoolArray, bool]:
    """One pass hiding clues in a seeded order (the cells ``first`` marks tried before
    the others), each for good when the rungs up to ``top`` still finish the grid; (clues
    shown, whether every clue was tried)."""
    ladder = mosaic_ladder()
    # a clue the cheaper rungs can do without needs no look at the dearer ones
    cheap = top if ladder.index(top) <= ladder.index(CHEAP_TOP) else CHEAP_TOP
    shown = np.ones((full.height, full.width), dtype=bool)
    order = np.random.default_rng(seed).permutation(full.height * full.width)
    if first is not None:
        order = order[np.argsort(~np.asarray(first, dtype=bool).ravel()[order], kind="stable")]
    for index in order.tolist():
        if deadline is not None and time.monotonic() > deadline:
            return shown, False  # the clues not tried stay: still unique at the level
        r, c = divmod(index, full.width)
        shown[r, c] = False
        fewer = full.with_clues(shown)
        if not (finishes(fewer, cheap) or (cheap != top and finishes(fewer, top, deadline))):
            shown[r, c] = True
    return shown, True


def random_picture(width: int, height: int, seed: int = 0, ink: float = 0.5) -> BoolArray:
    """A random picture of blobs: noise smoothed over each cell's block, so that the filled
    cells clump as a drawing's do."""
    rng = np.random.default_rng(seed)
    noise = rng.random((height + 2, width + 2))
    smooth = np.zeros((height, width))
    for dr in range(3):
        for dc in range(3):
            smooth += noise[dr:dr + height, dc:dc + width]
    picture: BoolArray = np.asarray(smooth > np.quantile(smooth, 1 - ink), dtype=bool)
    return picture


def generate(width: int, height: int, level: str = "hard", seed: int = 0,
             ink: float = 0.5) -> MadeMosaic:
    """A random mosaic at ``level`` (seeded: the same seed, the same mosaic)."""
    return make(random_picture(width, height, seed, ink), level, seed=seed,
                meta=Metadata(title=f"Mosaic {width}x{height} #{seed}"))


__all__ = ["LEVELS", "MadeMosaic", "finishes", "generate", "hide", "ladder_board",
           "level_for_stars", "make", "random_picture", "top_rung", "unique_picture"]
