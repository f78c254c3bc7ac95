"""Rung 4, full line analysis: everything one line implies on its own.

This is the complete line solve (the solver's compiled one; the tests hold it to the
reference :func:`grader.lines.solve_line`); rungs 1-3 are the parts of it a person names.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from grader.errors import Contradiction
from grader.model import Clue, format_clue
from grader.techniques.base import LineCells, LineDeduction, changes_between

TECHNIQUE = "line-analysis"


@lru_cache(maxsize=1 << 17)
def cached_line_solve(clue: Clue, cells: tuple[int, ...]) -> tuple[int, ...] | None:
    """The complete line solve, memoised by clue and cell states (lines repeat a lot)."""
    from grader.solver import line_solve  # compiled: loaded when a line first needs it

    result = line_solve(clue, np.array(cells, dtype=np.uint8))
    return None if result is None else tuple(result.tolist())


def find(clue: Clue, cells: LineCells) -> list[LineDeduction]:
    """One deduction with every cell the line decides, or nothing."""
    result = cached_line_solve(clue, tuple(cells))
    if result is None:
        raise Contradiction(f"no arrangement of {format_clue(clue)} fits the line")
    changes = changes_between(cells, result)
    return [LineDeduction(TECHNIQUE, changes, {})] if changes else []
