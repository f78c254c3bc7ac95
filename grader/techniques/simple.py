"""Rung 1, simple boxes and simple spaces.

Each block's range is narrowed by empty cells, by its neighbours and by filled runs it
would touch; where a block's leftmost and rightmost positions overlap the cells are
filled, and cells that no block can reach are empty.
"""

from __future__ import annotations

from collections.abc import Sequence

from grader.model import Clue
from grader.techniques.base import LineCells, LineDeduction
from grader.techniques.ranges import line_deductions

#: how ranges.deduction_sizes_many sizes this rung's deductions on many long lines
SIZES_KIND = "simple"


def find(clue: Clue, cells: LineCells) -> Sequence[LineDeduction]:
    """Every simple box and simple space of one line (Contradiction if it cannot fit)."""
    return line_deductions(clue, cells, owners=False)
