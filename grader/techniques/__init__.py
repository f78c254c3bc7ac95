"""The technique ladder: one module per rung family; each only finds deductions.

Line rungs (1-4) expose ``find(clue, cells) -> list[LineDeduction]``; grid rungs (5-6)
expose ``find(puzzle, cells, deadline) -> list[Step]``.
"""

from grader.techniques import (
    cell_branching,
    extreme,
    line_analysis,
    owner_branching,
    recursion,
    simple,
)
from grader.techniques.base import RUNGS, LineDeduction, LineRef, Step, rung_index

LINE_FINDERS = {
    simple.RUNG: simple.find,
    extreme.RUNG: extreme.find,
    owner_branching.RUNG: owner_branching.find,
    line_analysis.RUNG: line_analysis.find,
}
GRID_FINDERS = {
    cell_branching.RUNG: cell_branching.find,
    recursion.RUNG: recursion.find,
}

__all__ = [
    "GRID_FINDERS",
    "LINE_FINDERS",
    "RUNGS",
    "LineDeduction",
    "LineRef",
    "Step",
    "rung_index",
]
