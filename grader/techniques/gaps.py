"""Rung 1 family, simple gaps: a gap too short for every block that could reach it.

A gap is a stretch of cells between two empty cells (or an empty cell and the border)
with no filled cell in it. If every block whose range, narrowed as in rung 1, reaches the
gap is longer than the gap, no block can sit there: its cells are empty. Rung 1 already
empties the cells no block reaches; this rule is for gaps inside a block's range.
"""

from __future__ import annotations

from grader.model import Clue
from grader.techniques import ranges as ranges_module
from grader.techniques.base import (
    EMPTY,
    FILLED,
    UNKNOWN,
    LineCells,
    LineDeduction,
    cells_array,
)
from grader.techniques.ranges import narrowed

TECHNIQUE = "simple-gaps"
#: how ranges.deduction_sizes_many sizes this rung's deductions on many long lines
SIZES_KIND = "gaps"


def gaps(cells: LineCells) -> list[tuple[int, int]]:
    """(first, last) of each maximal stretch of unknown cells between empty cells or the
    border, with no filled cell in it."""
    if len(cells) >= ranges_module.COMPILED_FROM:
        starts, ends = ranges_module.line_kernels().open_gaps(cells_array(cells))
        return list(zip(starts.tolist(), ends.tolist(), strict=True))
    found: list[tuple[int, int]] = []
    start = 0
    for position in range(len(cells) + 1):
        if position == len(cells) or cells[position] == EMPTY:
            stretch = cells[start:position]
            if stretch and FILLED not in stretch:
                found.append((start, position - 1))
            start = position + 1
    return found


def _short_gaps(cells: LineCells, longest: int) -> list[tuple[int, int]]:
    """The gaps shorter than ``longest`` (a long line has hundreds of gaps: numpy picks)."""
    if len(cells) >= ranges_module.COMPILED_FROM:
        starts, ends = ranges_module.line_kernels().open_gaps(cells_array(cells))
        keep = ends - starts + 1 < longest
        return list(zip(starts[keep].tolist(), ends[keep].tolist(), strict=True))
    return [gap for gap in gaps(cells) if gap[1] - gap[0] + 1 < longest]


def find(clue: Clue, cells: LineCells) -> list[LineDeduction]:
    """One deduction per gap that every block able to reach it is too long for."""
    if EMPTY not in cells:
        return []  # the one gap is the whole line, where the clue fits
    longest = max(clue, default=0)
    short = _short_gaps(cells, longest)
    if not short:
        return []  # every gap fits the longest block: no need to narrow the ranges
    ranges = narrowed(clue, cells, owners=False)
    found: list[LineDeduction] = []
    for first, last in short:
        reaching = [
            j for j in range(len(clue)) if ranges.lo[j] <= last and ranges.hi[j] >= first
        ]
        length = last - first + 1
        if not reaching or any(clue[j] <= length for j in reaching):
            continue  # no block reaches it (rung 1's simple spaces), or one may fit
        changes = tuple((p, EMPTY) for p in range(first, last + 1) if cells[p] == UNKNOWN)
        facts = {"gap": (first, last), "line_length": len(cells), "reaching": reaching}
        found.append(LineDeduction(TECHNIQUE, changes, facts))
    return found
