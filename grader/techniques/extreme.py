"""Rung 2, extreme owners: the first and last block that could own each filled run.

Blocks before a run's first possible owner lie wholly left of it, blocks after its last
wholly right; the first owner cannot lie wholly right of the run, nor the last wholly
left of it. The narrowed ranges give boxes and spaces as in rung 1 (this covers the
classic "forcing", "glue" and "mercury" moves).
"""

from __future__ import annotations

from collections.abc import Sequence

from grader.model import Clue
from grader.techniques.base import LineCells, LineDeduction
from grader.techniques.ranges import line_deductions

#: how ranges.deduction_sizes_many sizes this rung's deductions on many long lines
SIZES_KIND = "owners"


def find(clue: Clue, cells: LineCells) -> Sequence[LineDeduction]:
    """Every deduction of rungs 1 and 2 together on one line."""
    return line_deductions(clue, cells, owners=True)
