"""Rung 5a, short look-ahead: a supposition that breaks within a few rounds of line logic.

A person tries a cell ("if this were filled..."), follows its row and column, then the
lines those change, and sees a line that can no longer be completed. That is cell
branching with a short reach, the look-ahead people do on paper; cell branching proper
(rung 5b) follows the supposition through the whole grid.

One round solves every line that the previous round changed (the first round: the
supposed cell's row and column), each with what the lines before it decided. At a
fixpoint of line analysis one extra cell never breaks a line by itself: a line breaks
where what two other lines decided meets in it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from grader.errors import BudgetExceeded, Contradiction
from grader.model import CellArray, Clue, Puzzle
from grader.techniques.base import EMPTY, FILLED, UNKNOWN, UNPLACED, GridContext, LineRef, Step
from grader.techniques.line_analysis import cached_line_solve
from grader.techniques.propagation import settle

#: rounds of line logic a short look-ahead follows (see the module's docstring)
ROUNDS = 3


@dataclass(frozen=True)
class Break:
    """Where a supposition broke: the line, the round, and the cells decided on the way."""

    line: LineRef
    round: int
    decided: int


def follow(puzzle: Puzzle, cells: CellArray, r: int, c: int, state: int,
           rounds: int = ROUNDS) -> Break | None:
    """Suppose cell (r, c) is ``state`` and solve line by line, round by round.

    Returns where a line broke within ``rounds`` rounds, or None. Works on a copy.
    """
    trial = cells.copy()
    trial[r, c] = state
    clues: dict[str, tuple[Clue, ...]] = {"row": puzzle.rows, "column": puzzle.columns}
    current = [LineRef("row", r), LineRef("column", c)]
    decided = 0
    for number in range(1, rounds + 1):
        changed: dict[tuple[str, int], LineRef] = {}
        for ref in current:
            view = trial[ref.index] if ref.axis == "row" else trial[:, ref.index]
            line = tuple(view.tolist())
            solved = cached_line_solve(clues[ref.axis][ref.index], line)
            if solved is None:
                return Break(ref, number, decided)
            for position, (old, new) in enumerate(zip(line, solved, strict=True)):
                if old != new:
                    view[position] = new
                    decided += 1
                    cross = LineRef("column" if ref.axis == "row" else "row", position)
                    changed[(cross.axis, cross.index)] = cross
        if not changed:
            return None
        current = [changed[key] for key in sorted(changed)]
    return None


def probe(puzzle: Puzzle, cells: CellArray, r: int, c: int) -> Step | None:
    """The short look-ahead's deduction on cell (r, c), if a supposition breaks soon.

    The compiled propagation (whole grid, fast) screens first: a supposition that line
    logic cannot break at all cannot break in a few rounds either.
    """
    for supposed, keep in ((FILLED, EMPTY), (EMPTY, FILLED)):
        trial = cells.copy()
        trial[r, c] = supposed
        if settle(puzzle, trial) is not None:
            continue
        broken = follow(puzzle, cells, r, c, supposed)
        if broken is None:
            continue
        other = cells.copy()
        other[r, c] = keep
        if settle(puzzle, other) is None:
            raise Contradiction(f"cell ({r + 1}, {c + 1}) can be neither filled nor empty")
        facts = {"supposed": supposed, "broken_line": broken.line, "rounds": broken.round,
                 "decided": broken.decided}
        return Step(UNPLACED, "short-look-ahead", ((r, c, keep),), cell=(r, c), facts=facts)
    return None


def find(puzzle: Puzzle, cells: CellArray, context: GridContext | None = None) -> list[Step]:
    """Probe every unknown cell (row by row); every short contradiction is a Step."""
    deadline = context.deadline if context is not None else None
    found: list[Step] = []
    rows, cols = np.nonzero(cells == UNKNOWN)
    for r, c in zip(rows.tolist(), cols.tolist(), strict=True):
        if deadline is not None and time.monotonic() > deadline:
            raise BudgetExceeded("the short look-ahead ran out of time")
        step = probe(puzzle, cells, r, c)
        if step is not None:
            found.append(step)
    return found
