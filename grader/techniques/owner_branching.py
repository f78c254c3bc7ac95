"""Rung 3, owner branching: try each possible owner of a filled run.

For a run with several possible owners, suppose each in turn owns it, apply rungs 1-2 to
the line until nothing changes, and keep what every surviving branch agrees on.
"""

from __future__ import annotations

from typing import Any

from grader.errors import Contradiction
from grader.model import Clue, format_clue
from grader.techniques.base import UNKNOWN, LineCells, LineDeduction, filled_runs
from grader.techniques.ranges import (
    Ranges,
    apply_line,
    deductions_from_ranges,
    narrow,
    narrowed,
    possible_owners,
)

TECHNIQUE = "owner-branching"
#: how ranges.deduction_sizes_many sizes this rung's deductions on many long lines
SIZES_KIND = "owner-branching"


def line_fixpoint(clue: Clue, cells: LineCells, ranges: Ranges) -> list[int]:
    """Apply rungs 1-2 to one line until nothing changes; Contradiction if it breaks."""
    current = list(cells)
    while True:
        narrow(clue, current, ranges, owners=True)
        found = deductions_from_ranges(clue, current, ranges)
        if not found:
            return current
        current = apply_line(current, found)


def _assume_owner(clue: Clue, ranges: Ranges, run: tuple[int, int], owner: int) -> None:
    start, end = run
    block = clue[owner]
    if block < end - start + 1:
        raise Contradiction(f"the {block} is shorter than the run")
    ranges.lo[owner] = max(ranges.lo[owner], end - block + 1)
    ranges.hi[owner] = min(ranges.hi[owner], start + block - 1)
    for j in range(owner):
        ranges.hi[j] = min(ranges.hi[j], start - 2)
    for j in range(owner + 1, len(clue)):
        ranges.lo[j] = max(ranges.lo[j], end + 2)
    for j, length in enumerate(clue):
        if ranges.hi[j] - ranges.lo[j] + 1 < length:
            raise Contradiction(f"block {j + 1} (the {length}) would have no room")


def find(clue: Clue, cells: LineCells) -> list[LineDeduction]:
    """One deduction per filled run whose owner branches agree on some unknown cell."""
    base = narrowed(clue, cells, owners=True)
    runs = filled_runs(cells)
    found: list[LineDeduction] = []
    for run, (first, last) in zip(runs, possible_owners(clue, base, runs), strict=False):
        if first == last:
            continue
        survivors: list[tuple[int, list[int]]] = []
        failed: list[dict[str, Any]] = []
        for owner in range(first, last + 1):
            branch = base.copy()
            try:
                _assume_owner(clue, branch, run, owner)
                survivors.append((owner, line_fixpoint(clue, cells, branch)))
            except Contradiction as exc:
                failed.append({"block": owner, "why": str(exc)})
        if not survivors:
            raise Contradiction(f"no block of {format_clue(clue)} can own cells {run}")
        changes = []
        for position, state in enumerate(cells):
            if state != UNKNOWN:
                continue
            outcomes = {branch[position] for _, branch in survivors}
            if len(outcomes) == 1 and (outcome := outcomes.pop()) != UNKNOWN:
                changes.append((position, outcome))
        if changes:
            facts = {
                "run": run,
                "candidates": list(range(first, last + 1)),
                "failed": failed,
                "survivors": [owner for owner, _ in survivors],
            }
            found.append(LineDeduction(TECHNIQUE, tuple(changes), facts))
    return found
