"""Rung 2 family, capped runs: a filled run as long as the longest block that could own it.

Whichever block owns such a run, the run is the whole block, so the cells just before and
after it are empty (the everyday case: every block that could own it is a 1). The owners
are the blocks whose ranges, narrowed as in rungs 1 and 2, cover the run and which are at
least as long as it.
"""

from __future__ import annotations

from grader.model import Clue
from grader.techniques.base import EMPTY, UNKNOWN, LineCells, LineDeduction, filled_runs
from grader.techniques.ranges import Ranges, narrowed

TECHNIQUE = "capped-runs"


def owners(clue: Clue, ranges: Ranges, run: tuple[int, int]) -> list[int]:
    """The blocks that could own the filled cells ``run`` (first, last)."""
    start, end = run
    return [
        j
        for j, block in enumerate(clue)
        if block >= end - start + 1 and ranges.lo[j] <= start and ranges.hi[j] >= end
    ]


def find(clue: Clue, cells: LineCells) -> list[LineDeduction]:
    """One deduction per filled run with an open neighbour that its owners cap."""
    lengths = set(clue)
    runs = [
        (start, end)
        for start, end in filled_runs(cells)
        if end - start + 1 in lengths
        and ((start > 0 and cells[start - 1] == UNKNOWN)
             or (end + 1 < len(cells) and cells[end + 1] == UNKNOWN))
    ]
    if not runs:
        return []  # no open run as long as some block: no need to narrow the ranges
    ranges = narrowed(clue, cells, owners=True)
    found: list[LineDeduction] = []
    for start, end in runs:
        candidates = owners(clue, ranges, (start, end))
        if not candidates or max(clue[j] for j in candidates) != end - start + 1:
            continue
        ends = [p for p in (start - 1, end + 1) if 0 <= p < len(cells) and cells[p] == UNKNOWN]
        if ends:
            facts = {"run": (start, end), "candidates": candidates}
            found.append(LineDeduction(TECHNIQUE, tuple((p, EMPTY) for p in ends), facts))
    return found
