"""Rung 1, simple boxes and simple spaces.

Each block's range is narrowed by empty cells, by its neighbours and by filled runs it
would touch; where a block's leftmost and rightmost positions overlap the cells are
filled, and cells that no block can reach are empty.
"""

from __future__ import annotations

from grader.model import Clue
from grader.techniques.base import LineCells, LineDeduction
from grader.techniques.ranges import deductions_from_ranges, narrowed


def find(clue: Clue, cells: LineCells) -> list[LineDeduction]:
    """Every simple box and simple space of one line (Contradiction if it cannot fit)."""
    ranges = narrowed(clue, cells, owners=False)
    return deductions_from_ranges(clue, cells, ranges)
