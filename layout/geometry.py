"""Where a puzzle's clues, cells and rules go: sizes in cells, positions in points.

The clue areas are sized from the longest clue (one cell slot per number), and the digit
size from the widest number, so no clue is clipped and no two numbers overlap at any size.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from grader.kinds import kind_of
from grader.model import Clue, Puzzle
from layout.fonts import digit_width

if TYPE_CHECKING:
    from grader.colour.model import AnyPuzzle


@dataclass(frozen=True)
class Area:
    """A rectangle of a page (its content area, a slot, a frame), in points."""

    left: float
    bottom: float
    width: float
    height: float

    @property
    def top(self) -> float:
        return self.bottom + self.height

    @property
    def right(self) -> float:
        return self.left + self.width


#: Clue digits as a fraction of the cell: 55-70 % for one digit, 45-55 % for two.
ONE_DIGIT_RATIO = 0.62
TWO_DIGIT_RATIO = 0.50
#: Large print uses the top of the range: the digits are what a large-print reader needs.
LARGE_ONE_DIGIT_RATIO = 0.70
LARGE_TWO_DIGIT_RATIO = 0.62
#: Widest a number may be, as a fraction of its cell, leaving air between neighbours.
MAX_NUMBER_WIDTH = 0.88


def shown_clue(clue: Clue) -> tuple[int, ...]:
    """The numbers printed for a clue: an empty line shows a single 0."""
    return clue if clue else (0,)


@dataclass(frozen=True)
class BlockGeometry:
    """A puzzle block: row clues to the left of the grid, column clues above it."""

    width: int
    height: int
    row_slots: int  # clue cells left of the grid
    col_slots: int  # clue cells above the grid
    max_digits: int

    @classmethod
    def of(cls, puzzle: AnyPuzzle, clues: bool = True, symbols: bool = False
           ) -> BlockGeometry:
        """The block of ``puzzle``, of any kind: one clue slot and one number a block (an
        empty line shows a 0); ``symbols``: each number carries its colour's symbol in grey
        print (one more character to fit the cell; the kind's drawing says when)."""
        if not clues:
            return cls(puzzle.width, puzzle.height, 0, 0, 1)
        rows, columns = kind_of(puzzle).block_lengths()
        longest = max((n for clue in rows + columns for n in clue), default=0)
        return cls(
            width=puzzle.width,
            height=puzzle.height,
            row_slots=max(max(len(c) for c in rows), 1),
            col_slots=max(max(len(c) for c in columns), 1),
            max_digits=len(str(longest)) + (1 if symbols else 0),
        )

    @property
    def total_width(self) -> int:
        """Width of the block in cells."""
        return self.row_slots + self.width

    @property
    def total_height(self) -> int:
        return self.col_slots + self.height

    @property
    def digit_ratio(self) -> float:
        """Font size of the clue digits as a fraction of the cell size."""
        return self.digit_ratio_for(large_print=False)

    def digit_ratio_for(self, large_print: bool) -> float:
        """The digit ratio, at the top of the range for large print."""
        if large_print:
            ratio = LARGE_ONE_DIGIT_RATIO if self.max_digits == 1 else LARGE_TWO_DIGIT_RATIO
        else:
            ratio = ONE_DIGIT_RATIO if self.max_digits == 1 else TWO_DIGIT_RATIO
        return min(ratio, MAX_NUMBER_WIDTH / (self.max_digits * digit_width()))

    def fit_cell(self, width: float, height: float) -> float:
        """The largest cell size at which the block fits a ``width`` x ``height`` box."""
        return min(width / self.total_width, height / self.total_height)

    def clue_centres(
        self, puzzle: Puzzle, x: float, top: float, cell: float
    ) -> Iterator[tuple[float, float, str]]:
        """(x, y, number) of every clue number's centre: columns first, then rows, in order.

        ``x``/``top`` is the top-left corner of the block; y grows upwards (PDF space).
        """
        grid_x = x + self.row_slots * cell
        grid_top = top - self.col_slots * cell
        for j, clue in enumerate(puzzle.columns):
            numbers = shown_clue(clue)
            first = self.col_slots - len(numbers)
            cx = grid_x + (j + 0.5) * cell
            for i, number in enumerate(numbers):
                yield cx, top - (first + i + 0.5) * cell, str(number)
        for r, clue in enumerate(puzzle.rows):
            numbers = shown_clue(clue)
            first = self.row_slots - len(numbers)
            cy = grid_top - (r + 0.5) * cell
            for i, number in enumerate(numbers):
                yield x + (first + i + 0.5) * cell, cy, str(number)
