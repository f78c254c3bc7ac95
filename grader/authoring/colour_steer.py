"""A colour picture made unique and steered to a level or stars, as black and white is
(:mod:`grader.authoring.steer`), with moves a colour picture allows.

A move gives a cell the colour of one of its four neighbours (or the background) where
two colours meet: the shapes' edges move by a cell and the picture keeps its look.
Easier: the ladder up to the hardest rung the target allows leaves cells open; of a few
moves around them, take the one that leaves the fewest open, and make the puzzle unique
again. Harder (or a lower score where that ladder already goes through): of a few moves
that keep the puzzle unique, take the one whose grade comes nearest the target. The
nearest puzzle seen stands when the target is out of reach, and steering stops at
``limit`` changed cells.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from grader.authoring.clock import Clock
from grader.authoring.measure import Cell
from grader.authoring.target import Target, describe
from grader.colour.grading import ColourGrade, grade_colour
from grader.colour.model import ColourPuzzle, clues_of_colour_picture, colour_array_to_rows
from grader.colour.palette import Palette
from grader.model import Metadata
from grader.results import Verdict

Indices = npt.NDArray[np.uint8]

#: seconds one uniqueness proof, one grade and one capped ladder run may take
SOLVE_SECONDS, GRADE_SECONDS = 5.0, 5.0
#: moves tried per round (each costs a ladder run or a proof and a grade)
TRIES = 12
#: rounds in a row without getting nearer before giving up
PATIENCE = 4
#: why a colour puzzle cannot be medium: the colour ladder has no medium rung
NO_MEDIUM = ("colour puzzles have no medium rung: the colour ladder's easy rungs are "
             "followed by line analysis, which is hard")
#: why hard is so often missed: a move that makes line analysis needed mostly makes cell
#: branching needed too, and one that removes that need mostly removes both
HARD_IS_RARE = ("hard means full line analysis is needed somewhere but cell branching "
                "nowhere; a colour puzzle seldom stops between them (try --stars, or "
                "easy or fiendish)")


def colour_puzzle(indices: Indices, palette: Palette, meta: Metadata) -> ColourPuzzle:
    """The puzzle whose intended solution is ``indices``."""
    rows, columns = clues_of_colour_picture(indices)
    return ColourPuzzle(rows, columns, palette, colour_array_to_rows(indices, palette), meta)


def make_unique_colour(indices: Indices, palette: Palette, meta: Metadata, clock: Clock,
                       rng: random.Random, limit: int, fixed: Indices | None = None
                       ) -> Verdict:
    """Make ``indices`` (in place) the unique solution of its clues: while the solver finds
    two solutions, one cell where they differ takes the other's colour (each cell once),
    until ``limit`` cells differ from ``fixed`` (the picture as read; default: as given)."""
    from grader.colour.solver import solve_colour

    base = indices.copy() if fixed is None else fixed
    tried: set[Cell] = set()
    verdict: Verdict = "undecided"
    while not clock.out():
        result = solve_colour(colour_puzzle(indices, palette, meta),
                              budget=clock.budget(SOLVE_SECONDS))
        verdict = result.verdict
        if verdict != "multiple" or int((indices != base).sum()) >= limit:
            break
        other = result.solutions[1] if np.array_equal(result.solutions[0], indices) \
            else result.solutions[0]
        cells = [cell for cell in result.differing_cells if cell not in tried]
        if not cells:
            break
        cell = rng.choice(cells)
        indices[cell] = other[cell]
        tried.add(cell)
        clock.say(f"{len(tried)} flips: {verdict}")
    return verdict


@dataclass(frozen=True)
class Steered:
    """The nearest picture found, its grade, and why the target was missed (if known)."""

    picture: Indices
    grade: ColourGrade
    note: str = ""


def _moves(indices: Indices, cells: list[Cell] | None, rng: random.Random, count: int
           ) -> list[tuple[Cell, int]]:
    """Up to ``count`` moves (cell, new colour) on shapes' edges, among ``cells`` (and
    their neighbours) when given: the new colour is a 4-neighbour's."""
    height, width = indices.shape
    if cells is None:
        pool = [(r, c) for r in range(height) for c in range(width)]
    else:
        pool = sorted({(r + dr, c + dc) for r, c in cells
                       for dr, dc in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1))
                       if 0 <= r + dr < height and 0 <= c + dc < width})
    rng.shuffle(pool)
    moves: list[tuple[Cell, int]] = []
    for r, c in pool:
        around = {int(indices[r + dr, c + dc]) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                  if 0 <= r + dr < height and 0 <= c + dc < width}
        options = sorted(around - {int(indices[r, c])})
        if options:
            moves.append(((r, c), rng.choice(options)))
        if len(moves) >= count:
            break
    return moves


def _open_cells(indices: Indices, palette: Palette, meta: Metadata, rung: str,
                clock: Clock) -> list[Cell]:
    """Cells the ladder up to ``rung`` leaves open (the puzzle must be unique)."""
    graded = grade_colour(colour_puzzle(indices, palette, meta), max_rung=rung,
                          budget=clock.budget(GRADE_SECONDS))
    if graded.grid is None:
        return []
    grid = graded.grid
    open_mask = (grid & (grid - np.uint32(1))) != 0  # more than one colour still possible
    rows, columns = np.nonzero(open_mask)
    return list(zip(rows.tolist(), columns.tolist(), strict=True))


def _easier(indices: Indices, palette: Palette, meta: Metadata, target: Target,
            current: ColourGrade, clock: Clock, rng: random.Random, fixed: Indices,
            limit: int) -> bool:
    """One move that leaves fewer cells open to the ladder the target allows (when that
    ladder already solves it, one that lowers the score)."""
    from grader.colour.solver import solve_colour

    rung = target.top_rung()
    stuck = _open_cells(indices, palette, meta, rung, clock)
    if not stuck:
        return _nearer(indices, palette, meta, target, current, clock, rng)
    best: tuple[int, Cell, int] | None = None
    for cell, colour in _moves(indices, stuck, rng, TRIES):
        if clock.out():
            break
        old = int(indices[cell])
        indices[cell] = colour
        proof = solve_colour(colour_puzzle(indices, palette, meta),
                             budget=clock.budget(SOLVE_SECONDS))
        if proof.verdict == "unique":
            left = len(_open_cells(indices, palette, meta, rung, clock))
            if left == 0:  # the allowed ladder goes through: on the level, or below it?
                graded = grade_colour(colour_puzzle(indices, palette, meta),
                                      budget=clock.budget(GRADE_SECONDS))
                if target.direction(target.measure(graded)) == 0:
                    best = (-1, cell, colour)
                    indices[cell] = old
                    break
            if best is None or left < best[0]:
                best = (left, cell, colour)
        indices[cell] = old
    if best is None or best[0] >= len(stuck):
        return False
    indices[best[1]] = best[2]
    return make_unique_colour(indices, palette, meta, clock, rng, limit, fixed) == "unique"


def _nearer(indices: Indices, palette: Palette, meta: Metadata, target: Target,
            current: ColourGrade, clock: Clock, rng: random.Random) -> bool:
    """One move that keeps the puzzle unique and brings it nearer the target, moving its
    measure the way the target lies: past it too (a colour puzzle often jumps from easy to
    fiendish; easier moves then come back down), the nearest first. Makes a puzzle harder,
    or lowers the score of one the allowed ladder already solves."""
    now = target.measure(current)
    way = target.direction(now)
    best: tuple[float, Cell, int] | None = None
    for cell, colour in _moves(indices, None, rng, TRIES):
        if clock.out():
            break
        old = int(indices[cell])
        indices[cell] = colour
        graded = grade_colour(colour_puzzle(indices, palette, meta),
                              budget=clock.budget(GRADE_SECONDS))
        indices[cell] = old
        if graded.verdict != "unique":
            continue
        measure = target.measure(graded)
        if target.stars is not None and target.direction(measure) == -way:
            continue  # stars are one step at a time: 2 to 4 stars is not one harder
        distance = target.distance(measure)
        if (measure - now) * way > 0 and distance < target.distance(now) and (
                best is None or distance < best[0]):
            best = (distance, cell, colour)
            if distance == 0.0:
                break
    if best is None:
        return False
    indices[best[1]] = best[2]
    return True


def steer_colour(indices: Indices, palette: Palette, meta: Metadata, target: Target,
                 clock: Clock, rng: random.Random, *, original: Indices, limit: int
                 ) -> Steered:
    """Move ``indices`` (unique) towards ``target`` changing at most ``limit`` cells of
    ``original``; the nearest picture found and its grade."""
    def grade_now() -> ColourGrade:
        return grade_colour(colour_puzzle(indices, palette, meta),
                            budget=clock.budget(GRADE_SECONDS))

    current = grade_now()
    nearest = Steered(indices.copy(), current)
    capped = False
    idle = 0
    while target.direction(target.measure(current)) != 0 and not clock.out() \
            and idle < PATIENCE:
        if target.direction(target.measure(current)) < 0:
            moved = _easier(indices, palette, meta, target, current, clock, rng, original,
                            limit)
        else:
            moved = _nearer(indices, palette, meta, target, current, clock, rng)
        if moved and int((indices != original).sum()) > limit:
            moved, capped = False, True
        if moved:
            current = grade_now()
            clock.say(f"steering: {describe(current)}, "
                      f"{int((indices != original).sum())} cells changed")
        if moved and current.verdict == "unique" and (
                target.distance(target.measure(current))
                < target.distance(target.measure(nearest.grade))):
            nearest = Steered(indices.copy(), current)
            idle = 0
            continue
        idle += 1
        indices[...] = nearest.picture
        current = nearest.grade
    note = ""
    if target.direction(target.measure(nearest.grade)) != 0:
        if target.level == "medium":
            note = NO_MEDIUM
        elif target.level == "hard":
            note = HARD_IS_RARE
        elif capped:
            note = ("steering stopped at the most cells --max-change lets it change; more "
                    "changes would spoil the picture")
    return Steered(nearest.picture, nearest.grade, note)
