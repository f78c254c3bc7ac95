"""The shape of a solve, for the minutes: the picture it ends on and the hand that draws it.

The step log's work terms (grader/scoring.py) say how hard each deduction is to see. A
person's time also goes into the picture and the mouse: a picture in many pieces, with
holes and fine detail, takes more strokes to paint and is harder to take in; a symmetric
one is quicker to check; a solve that settles little in its first half keeps a person
looking. Fitted to griddlers.net members' median times (bench/calibrate_times.py), these
measures ranked puzzles of one size better than the step log alone.

Everything here reads the solution (a (height, width) array: 0 for background, the
colour's number for ink; booleans for black and white) and the steps as
:data:`ShapeRow` tuples, so the grade's own steps and the compact logs of calibration
give the same figures.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

#: (technique, openings, axis, line index, cells as (row, column) pairs) of one step
ShapeRow = tuple[str, int, str, int, Sequence[tuple[int, int]]]


@dataclass(frozen=True)
class SolveShape:
    """What the time model reads of the solution and of the order the cells came in.

    The picture: ``symmetry`` the share of cells equal to their mirror image (the better
    of left-right and top-bottom), ``pieces`` the 4-connected pieces of one colour,
    ``holes`` the 4-connected pieces of background, ``edges`` the neighbouring cell pairs
    of two colours per cell, ``touching`` those of two ink colours per cell (runs of two
    colours meeting without a gap: a colour solver's extra choice), ``checker`` the share
    of 2x2 squares coloured like a checkerboard (fine detail).

    The hand: ``fill_strokes`` and ``empty_strokes`` count the runs of neighbouring cells
    of one colour that one step decides (each a drag of the mouse: ink, or a row of
    crosses), ``colour_picks`` how often the ink colour changes from one stroke to the next.

    The log: ``techniques`` counts the steps of each technique; ``settled_quarter`` and
    ``settled_half`` are the shares of the cells decided after a quarter and half of the
    steps, ``settled_mean`` their mean over every step (how early the grid fills);
    ``mean_openings`` the mean number of deductions of the same rung open at each step,
    ``one_cell_steps`` the steps that decide a single cell.
    """

    symmetry: float = 0.0
    pieces: int = 0
    holes: int = 0
    edges: float = 0.0
    touching: float = 0.0
    checker: float = 0.0
    fill_strokes: int = 0
    empty_strokes: int = 0
    colour_picks: int = 0
    techniques: Mapping[str, int] = field(default_factory=dict)
    settled_quarter: float = 0.0
    settled_half: float = 0.0
    settled_mean: float = 0.0
    mean_openings: float = 1.0
    one_cell_steps: int = 0

    @property
    def steps(self) -> int:
        return sum(self.techniques.values())


def shape_of(solution: npt.ArrayLike, steps: Iterable[ShapeRow]) -> SolveShape:
    """The solve's shape from its solution and its steps in order."""
    grid = np.asarray(solution).astype(np.int32)
    height, width = grid.shape
    cells = max(height * width, 1)
    techniques: Counter[str] = Counter()
    fill = empty = picks = one_cell = 0
    last_colour = 0
    openings_total = 0.0
    settled: list[int] = []
    decided = 0
    for technique, openings, axis, index, changed in steps:
        techniques[technique] += 1
        openings_total += max(int(openings), 1)
        one_cell += len(changed) <= 1
        decided += len(changed)
        settled.append(decided)
        for colour in _strokes(grid, axis, index, changed):
            if colour:
                fill += 1
                picks += colour != last_colour
                last_colour = colour
            else:
                empty += 1
    count = len(settled)
    share = np.asarray(settled, dtype=float) / cells

    def settled_after(part: float) -> float:
        return float(share[min(int(count * part), count - 1)]) if count else 1.0

    return SolveShape(
        symmetry=max(float(np.mean(grid == grid[:, ::-1])), float(np.mean(grid == grid[::-1, :]))),
        pieces=_pieces(grid, ink=True),
        holes=_pieces(grid, ink=False),
        edges=float(np.count_nonzero(grid[:, 1:] != grid[:, :-1])
                    + np.count_nonzero(grid[1:, :] != grid[:-1, :])) / cells,
        touching=_touching(grid) / cells,
        checker=_checker(grid),
        fill_strokes=fill,
        empty_strokes=empty,
        colour_picks=picks,
        techniques=dict(techniques),
        settled_quarter=settled_after(0.25),
        settled_half=settled_after(0.5),
        settled_mean=float(share.mean()) if count else 1.0,
        mean_openings=openings_total / count if count else 1.0,
        one_cell_steps=one_cell,
    )


def _touching(grid: npt.NDArray[np.int32]) -> int:
    """Neighbouring cell pairs of two ink colours (0 is the background)."""
    pairs = 0
    for a, b in ((grid[:, 1:], grid[:, :-1]), (grid[1:, :], grid[:-1, :])):
        pairs += int(np.count_nonzero((a != b) & (a != 0) & (b != 0)))
    return pairs


def _strokes(grid: npt.NDArray[np.int32], axis: str, index: int,
             changed: Sequence[tuple[int, int]]) -> list[int]:
    """The colour of each stroke one step paints: runs of neighbouring cells of its line
    of one colour (a grid step's cells are strokes of their own)."""
    if axis == "row":
        along = sorted((column, int(grid[index, column])) for _, column in changed)
    elif axis == "column":
        along = sorted((row, int(grid[row, index])) for row, _ in changed)
    else:
        return [int(grid[row, column]) for row, column in changed]
    colours: list[int] = []
    previous: tuple[int, int] | None = None
    for position, colour in along:
        if previous is None or position != previous[0] + 1 or colour != previous[1]:
            colours.append(colour)
        previous = (position, colour)
    return colours


def _pieces(grid: npt.NDArray[np.int32], *, ink: bool) -> int:
    """4-connected pieces of one colour (``ink``) or of background: runs of each row
    joined with the touching runs of one colour in the row above (union-find over runs,
    so a 512x512 picture costs its runs, not a walk over every cell in Python)."""
    parent: list[int] = []

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    above: list[tuple[int, int, int, int]] = []  # (start, end, colour, run id)
    for row in grid:
        here: list[tuple[int, int, int, int]] = []
        changes = np.flatnonzero(np.diff(row)) + 1
        starts = np.concatenate(([0], changes))
        ends = np.concatenate((changes, [len(row)]))
        j = 0
        for start, end in zip(starts.tolist(), ends.tolist(), strict=True):
            colour = int(row[start])
            if (colour != 0) != ink:
                continue
            run = len(parent)
            parent.append(run)
            while j < len(above) and above[j][1] <= start:
                j += 1
            k = j
            while k < len(above) and above[k][0] < end:
                if above[k][2] == colour:
                    parent[find(above[k][3])] = find(run)
                k += 1
            here.append((start, end, colour, run))
        above = here
    return sum(1 for run in range(len(parent)) if find(run) == run)


def _checker(grid: npt.NDArray[np.int32]) -> float:
    if min(grid.shape) < 2:
        return 0.0
    a, b, c, d = grid[:-1, :-1], grid[:-1, 1:], grid[1:, :-1], grid[1:, 1:]
    return float(np.mean((a == d) & (b == c) & (a != b)))


def step_rows(steps: Iterable[Any]) -> Iterable[ShapeRow]:
    """The grade's steps (grader.techniques.base.Step) as :data:`ShapeRow` tuples."""
    for step in steps:
        line = step.line
        yield (step.technique, step.openings, line.axis if line is not None else "",
               line.index if line is not None else -1,
               [(row, column) for row, column, _ in step.changes])


def compact_rows(compact: Iterable[Sequence[Any]]) -> Iterable[ShapeRow]:
    """Compact step lists (grader.scoring.compact_step) as :data:`ShapeRow` tuples."""
    for _rung, technique, openings, axis, index, _clue, cells in compact:
        yield (technique, int(openings), axis, int(index),
               list(zip(cells[::2], cells[1::2], strict=True)))

