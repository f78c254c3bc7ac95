"""Rung 5a, short look-ahead: a supposition that breaks within a few rounds of line logic.

A person tries a cell ("if this were filled..."), follows its row and column, then the
lines those change, and sees a line that can no longer be completed. That is cell
branching with a short reach in rounds (the cells decided on the way may still be many:
the sentence says how many); cell branching proper (rung 5b) follows the supposition
through the whole grid.

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
from grader.model import CellArray, Puzzle
from grader.techniques.base import EMPTY, FILLED, UNKNOWN, UNPLACED, GridContext, LineRef, Step
from grader.techniques.cell_branching import is_settled

#: rounds of line logic a short look-ahead follows (see the module's docstring)
ROUNDS = 3


@dataclass(frozen=True)
class Break:
    """Where a supposition broke: the line, the round, and the cells decided before."""

    line: LineRef
    round: int
    decided: int


def follow(puzzle: Puzzle, cells: CellArray, r: int, c: int, state: int,
           rounds: int = ROUNDS) -> Break | None:
    """Suppose cell (r, c) is ``state`` and line-solve from it round by round (compiled:
    ``grader.solver.kernels.follow_cell``); where a line broke within ``rounds``, or None.

    ``cells`` must be at a fixpoint of line logic (as the engine leaves it for grid rungs):
    the rounds start from the supposed cell's lines only.
    """
    from grader.solver.propagation import follow as compiled  # loaded when first needed

    _, broke, line, decided = compiled(puzzle, cells, r, c, state, rounds)
    if not broke:
        return None
    return Break(_line_ref(puzzle, line), broke, decided)


def _line_ref(puzzle: Puzzle, line: int) -> LineRef:
    """Line ``line`` of the compiled kernels (rows, then columns)."""
    return LineRef("row", line) if line < puzzle.height else LineRef("column", line - puzzle.height)


def probe(puzzle: Puzzle, cells: CellArray, r: int, c: int) -> Step | None:
    """The short look-ahead's deduction on cell (r, c), if a supposition breaks soon."""
    for supposed in (FILLED, EMPTY):
        broken = follow(puzzle, cells, r, c, supposed)
        if broken is not None:
            return _deduction(puzzle, cells, r, c, supposed, broken)
    return None


def _deduction(puzzle: Puzzle, cells: CellArray, r: int, c: int, supposed: int,
               broken: Break) -> Step:
    """The step a broken supposition gives: the cell takes the other value (checked to
    hold up, followed to the end: else the grid has no solution)."""
    keep = EMPTY if supposed == FILLED else FILLED
    everything = puzzle.height * puzzle.width + 1  # rounds enough to settle the grid
    if follow(puzzle, cells, r, c, keep, everything) is not None:
        raise Contradiction(f"cell ({r + 1}, {c + 1}) can be neither filled nor empty")
    facts = {"supposed": supposed, "broken_line": broken.line, "rounds": broken.round,
             "decided": broken.decided}
    return Step(UNPLACED, "short-look-ahead", ((r, c, keep),), cell=(r, c), facts=facts)


#: cells probed in one compiled call (the deadline is looked at between calls)
CHUNK = 256


def find(puzzle: Puzzle, cells: CellArray, context: GridContext | None = None) -> list[Step]:
    """Probe every unknown cell (row by row); every short contradiction is a Step.

    The probes of :func:`probe`, many cells a compiled call (a call from Python per
    supposition cost more than the supposition on a 99x59 grid)."""
    from grader.solver.propagation import follow_many  # loaded when first needed

    deadline = context.deadline if context is not None else None
    found: list[Step] = []
    if not is_settled(puzzle, cells):  # the rounds start from a fixpoint of line logic
        return found
    targets = np.flatnonzero(cells == UNKNOWN)
    for start in range(0, targets.size, CHUNK):
        if deadline is not None and time.monotonic() > deadline:
            raise BudgetExceeded("the short look-ahead ran out of time")
        chunk = targets[start:start + CHUNK]
        outcome = follow_many(puzzle, cells, chunk, ROUNDS)
        for i in np.flatnonzero(outcome[:, 0]).tolist():
            r, c = divmod(int(chunk[i]), puzzle.width)
            supposed, broke, line, decided = outcome[i].tolist()
            broken = Break(_line_ref(puzzle, line), broke, decided)
            found.append(_deduction(puzzle, cells, r, c, supposed, broken))
    return found
