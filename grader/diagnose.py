"""What to fix in a defective puzzle: the line that cannot be satisfied, the cells where
two solutions differ, the lines where a goal picture disagrees with the clues.

Rows, columns and cells are numbered from 1 in every message (the model counts from 0).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

# the empty-edge warning of every check lives in its own small module; re-exported here
from grader.borders import empty_borders as empty_borders
from grader.borders import name_lines as name_lines
from grader.model import (
    EMPTY,
    FILLED,
    MAX_NAMED_LINES,
    UNKNOWN,
    Clue,
    Puzzle,
    format_clue,
)

if TYPE_CHECKING:  # the ladder (and the compiled solver) load only for a diagnosis
    from grader.model import CellArray
    from grader.techniques.base import LineRef

#: seconds the search for a broken line or cell may take (a diagnosis, not a proof)
DIAGNOSIS_SECONDS = 5.0
#: lines named in a message before "and N more"
MAX_NAMED = MAX_NAMED_LINES

_CELL_CHARS = {EMPTY: ".", FILLED: "#", UNKNOWN: "?"}


@dataclass(frozen=True)
class BrokenLine:
    """A line no arrangement of whose clue fits the cells decided before it."""

    line: LineRef
    clue: Clue
    cells: tuple[int, ...]  #: the line's states when it broke (EMPTY/FILLED/UNKNOWN)
    grid: CellArray  #: the whole grid when it broke

    @property
    def cells_text(self) -> str:
        return "".join(_CELL_CHARS[state] for state in self.cells)

    def message(self) -> str:
        return (
            f"{self.line.label.lower()} (clue {format_clue(self.clue)}) cannot be satisfied "
            f"given the cells decided before it ({self.cells_text})"
        )


@dataclass(frozen=True)
class BrokenCell:
    """A cell that breaks one line when filled and another when empty."""

    cell: tuple[int, int]
    if_filled: LineRef
    if_empty: LineRef

    def message(self) -> str:
        r, c = self.cell
        return (
            f"cell (row {r + 1}, column {c + 1}) can be neither filled "
            f"({self.if_filled.label.lower()} then cannot be satisfied) nor empty "
            f"({self.if_empty.label.lower()} then cannot be satisfied)"
        )


Diagnosis = BrokenLine | BrokenCell

NO_SINGLE_CAUSE = (
    "every way of filling the grid breaks some row or column (found by search); "
    "no single line or cell shows it on its own"
)


def _lines_of(puzzle: Puzzle) -> tuple[range, range]:
    return range(puzzle.height), range(puzzle.width)


def broken_line(puzzle: Puzzle, cells: CellArray | None = None) -> BrokenLine | None:
    """Line logic from ``cells`` (default: the empty grid) until a line breaks; None when
    every line can still be satisfied."""
    import numpy as np

    from grader.techniques.propagation import propagate

    grid = (
        np.full((puzzle.height, puzzle.width), UNKNOWN, dtype=np.uint8)
        if cells is None
        else cells.copy()
    )
    rows, columns = _lines_of(puzzle)
    # propagate() stops at the broken line before changing it: the grid then shows what
    # that line was given
    line = propagate(puzzle, grid, rows, columns)
    if line is None:
        return None
    clue = puzzle.rows[line.index] if line.axis == "row" else puzzle.columns[line.index]
    state = grid[line.index] if line.axis == "row" else grid[:, line.index]
    return BrokenLine(line, clue, tuple(int(v) for v in state.tolist()), grid)


def broken_cell(
    puzzle: Puzzle, cells: CellArray, deadline: float | None = None
) -> BrokenCell | None:
    """A cell that is impossible both ways after line logic from ``cells`` (which line
    logic must leave consistent); None when there is none or the deadline passes."""
    import numpy as np

    from grader.techniques.propagation import propagate, settle

    settled = settle(puzzle, cells)
    if settled is None:
        return None
    for r, c in np.argwhere(settled == UNKNOWN).tolist():
        if deadline is not None and time.monotonic() > deadline:
            return None
        broken: list[LineRef] = []
        for state in (FILLED, EMPTY):
            trial = settled.copy()
            trial[r, c] = state
            if settle(puzzle, trial) is not None:
                break
            trial = settled.copy()
            trial[r, c] = state
            line = propagate(puzzle, trial, (r,), (c,))
            if line is None:  # the compiled and the reference propagation disagree
                break
            broken.append(line)
        if len(broken) == 2:
            return BrokenCell((int(r), int(c)), broken[0], broken[1])
    return None


def why_no_solution(
    puzzle: Puzzle, cells: CellArray | None = None, seconds: float = DIAGNOSIS_SECONDS
) -> tuple[Diagnosis | None, str]:
    """The first line that cannot be satisfied (or, failing that, a cell impossible both
    ways) from ``cells``, and a sentence saying so, for a puzzle with no solution."""
    import numpy as np

    line = broken_line(puzzle, cells)
    if line is not None:
        return line, line.message()
    start = (
        np.full((puzzle.height, puzzle.width), UNKNOWN, dtype=np.uint8)
        if cells is None
        else cells
    )
    cell = broken_cell(puzzle, start, time.monotonic() + seconds)
    if cell is not None:
        return cell, cell.message()
    return None, NO_SINGLE_CAUSE


def differing_text(cells: Sequence[tuple[int, int]], limit: int = 5) -> str:
    """ "4 cells, such as (row 1, column 1), (row 2, column 2)" (0-based input)."""
    shown = ", ".join(f"(row {r + 1}, column {c + 1})" for r, c in cells[:limit])
    noun = "cell" if len(cells) == 1 else "cells"
    more = " such as" if len(cells) > limit else ":"
    return f"{len(cells)} {noun}{more} {shown}" if cells else "some cells"
