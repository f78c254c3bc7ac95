"""Rung 6, recursion: guess and backtrack, counting solutions up to a limit.

Only a defective puzzle needs it: one that needs guessing, or has several solutions.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from grader.errors import BudgetExceeded, Contradiction
from grader.model import CellArray, Puzzle
from grader.techniques.base import EMPTY, FILLED, UNKNOWN, Step
from grader.techniques.propagation import settle

RUNG = "recursion"


@dataclass
class SearchResult:
    solutions: list[CellArray] = field(default_factory=list)
    nodes: int = 0
    first_choice: tuple[int, int] | None = None


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


def search(
    puzzle: Puzzle,
    cells: CellArray,
    *,
    limit: int = 2,
    deadline: float | None = None,
    max_nodes: int | None = None,
) -> SearchResult:
    """Depth-first search for up to ``limit`` solutions below ``cells`` (not changed).

    Raises BudgetExceeded when the deadline or node budget runs out before an answer.
    """
    result = SearchResult()
    start = settle(puzzle, cells)
    if start is None:
        return result
    stack = [start]
    while stack:
        current = stack.pop()
        result.nodes += 1
        if (max_nodes is not None and result.nodes > max_nodes) or (
            deadline is not None and time.monotonic() > deadline
        ):
            raise BudgetExceeded(f"search stopped after {result.nodes} nodes")
        if not (current == UNKNOWN).any():
            result.solutions.append(current)
            if len(result.solutions) >= limit:
                return result
            continue
        r, c = _choose(current)
        if result.first_choice is None:
            result.first_choice = (r, c)
        for state in (EMPTY, FILLED):  # FILLED popped first
            child = current.copy()
            child[r, c] = state
            settled = settle(puzzle, child)
            if settled is not None:
                stack.append(settled)
    return result


def guess_from_solution(cells: CellArray, solution: CellArray, nodes: int) -> Step:
    """The guess step when the complete solver has already proved ``solution`` unique.

    The cell guessed is the one the search would branch on (fewest options); the value
    is the solution's, since the other value leads to no solution.
    """
    r, c = _choose(cells)
    state = int(solution[r, c])
    facts = {"supposed": FILLED if state == EMPTY else EMPTY, "nodes": nodes}
    return Step(RUNG, "guess", ((r, c, state),), cell=(r, c), facts=facts)


def find(puzzle: Puzzle, cells: CellArray, deadline: float | None = None) -> list[Step]:
    """One Step: either a cell decided because the other guess has no solution, or the
    report that the puzzle has several solutions (no changes, facts["solutions"] >= 2)."""
    result = search(puzzle, cells, limit=2, deadline=deadline)
    if not result.solutions:
        raise Contradiction("no solution: every guess ends in a contradiction")
    if len(result.solutions) >= 2:
        first, second = result.solutions[0], result.solutions[1]
        differ = [tuple(map(int, rc)) for rc in np.argwhere(first != second).tolist()]
        facts = {
            "solutions": 2,
            "nodes": result.nodes,
            "differ": differ[:50],
            "examples": (first, second),
        }
        return [Step(RUNG, "several-solutions", (), facts=facts)]
    solution = result.solutions[0]
    if result.first_choice is not None:
        r, c = result.first_choice
    else:  # line logic alone finished it: decide the first open cell
        r, c = (int(v) for v in np.argwhere(cells == UNKNOWN)[0])
    state = int(solution[r, c])
    facts = {"supposed": FILLED if state == EMPTY else EMPTY, "nodes": result.nodes}
    return [Step(RUNG, "guess", ((r, c, state),), cell=(r, c), facts=facts)]
