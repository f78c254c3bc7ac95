"""Rung 6, recursion: guess and backtrack.

Only a defective puzzle needs it: one that needs guessing, or has several solutions. The
guessing is the complete solver's search (compiled, with learning: the one complete
search of the toolkit); a person's guess is then told from its answer: the cell guessed
is the one a person would try first (in the line with the fewest unknowns), and the other
value is the one that leads to no solution.
"""

from __future__ import annotations

import numpy as np

from grader.errors import BudgetExceeded, Contradiction
from grader.model import EMPTY, FILLED, UNKNOWN, CellArray, Puzzle
from grader.techniques.base import UNPLACED, GridContext, SeveralSolutions, Step


def _choose(cells: CellArray) -> tuple[int, int]:
    """An unknown cell in the row or column with the fewest unknowns (fewest options)."""
    unknown = cells == UNKNOWN
    per_row = unknown.sum(axis=1)
    per_col = unknown.sum(axis=0)
    row_best = int(np.argmin(np.where(per_row > 0, per_row, 1 << 30)))
    col_best = int(np.argmin(np.where(per_col > 0, per_col, 1 << 30)))
    if per_row[row_best] <= per_col[col_best]:
        return row_best, int(np.argmax(unknown[row_best]))
    return int(np.argmax(unknown[:, col_best])), col_best


def find(puzzle: Puzzle, cells: CellArray, context: GridContext | None = None) -> list[Step]:
    """One Step: a cell decided because the other guess has no solution.

    Raises SeveralSolutions (with two of them) when guessing finds more than one,
    Contradiction when it finds none, BudgetExceeded when the time left runs out.
    """
    proof = (context if context is not None else GridContext()).prove(puzzle, cells)
    if proof.verdict == "undecided":
        raise BudgetExceeded(f"the search ran out of its budget ({proof.reason})")
    if proof.verdict == "none":
        raise Contradiction("no solution: every guess ends in a contradiction")
    if proof.verdict == "multiple":
        first, second = (np.where(s, FILLED, EMPTY).astype(np.uint8) for s in proof.solutions[:2])
        raise SeveralSolutions((first, second))
    r, c = _choose(cells)
    state = FILLED if proof.solutions[0][r, c] else EMPTY
    facts = {"supposed": FILLED if state == EMPTY else EMPTY, "nodes": proof.nodes}
    return [Step(UNPLACED, "guess", ((r, c, state),), cell=(r, c), facts=facts)]
