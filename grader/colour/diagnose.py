"""Why a colour puzzle has no solution: the first line that breaks under line logic, as
grader.diagnose finds it for black and white (the same sentence, the colours by their
characters)."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from grader.colour.lines import full_mask, solve_line
from grader.colour.model import ColourClue, ColourPuzzle, format_colour_clue
from grader.colour.workspace import MaskArray
from grader.diagnose import DIAGNOSIS_SECONDS, NO_SINGLE_CAUSE
from grader.techniques.base import LineRef
from grader.text import shown

#: what a cell shows while more than one value is open
OPEN = "?"


@dataclass(frozen=True)
class BrokenColourLine:
    """A line no placement of whose clue fits the cells decided before it."""

    line: LineRef
    clue: ColourClue
    grid: MaskArray  #: the bit sets of every cell when the line broke

    def cells(self, puzzle: ColourPuzzle) -> MaskArray:
        index = self.line.index
        line: MaskArray = self.grid[index] if self.line.axis == "row" else self.grid[:, index]
        return line

    def message(self, puzzle: ColourPuzzle) -> str:
        text = "".join(_cell_char(int(v), puzzle) for v in self.cells(puzzle))
        clue = format_colour_clue(self.clue, puzzle.palette)
        return shown(f"{self.line.label.lower()} (clue {clue}) cannot be satisfied given the "
                     f"cells decided before it ({text})")

    def rows(self, puzzle: ColourPuzzle) -> list[str]:
        """The grid when it broke, a row a line (``?`` = still open)."""
        return [shown("".join(_cell_char(int(v), puzzle) for v in row)) for row in self.grid]


def _cell_char(mask: int, puzzle: ColourPuzzle) -> str:
    if mask == 0 or mask & (mask - 1):
        return OPEN
    return puzzle.palette[mask.bit_length() - 1].char


def broken_colour_line(puzzle: ColourPuzzle, seconds: float = DIAGNOSIS_SECONDS
                       ) -> BrokenColourLine | None:
    """Line logic from the empty grid until a line breaks; None when every line can still
    be satisfied (or the time runs out: a diagnosis, not a proof)."""
    deadline = time.monotonic() + seconds
    grid: MaskArray = np.full((puzzle.height, puzzle.width), full_mask(puzzle.palette.size),
                              dtype=np.uint32)
    lines = ([(LineRef("row", i), c) for i, c in enumerate(puzzle.rows)]
             + [(LineRef("column", i), c) for i, c in enumerate(puzzle.columns)])
    changed = True
    while changed and time.monotonic() < deadline:
        changed = False
        for ref, clue in lines:
            view = grid[ref.index] if ref.axis == "row" else grid[:, ref.index]
            solved = solve_line(clue, [int(v) for v in view])
            if solved is None:
                return BrokenColourLine(ref, clue, grid.copy())
            new = np.array(solved, dtype=np.uint32)
            if (new != view).any():
                view[:] = new
                changed = True
    return None


def why_no_colour_solution(puzzle: ColourPuzzle) -> tuple[BrokenColourLine | None, str]:
    """The broken line and its sentence, or the search's word when no line shows it."""
    found = broken_colour_line(puzzle)
    return (found, found.message(puzzle)) if found is not None else (None, NO_SINGLE_CAUSE)
