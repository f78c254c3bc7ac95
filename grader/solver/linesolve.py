"""The compiled complete line solve, with the same contract as grader.lines.solve_line."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from grader.model import CellArray
from grader.solver import kernels


def line_solve(clue: Sequence[int], cells: CellArray) -> CellArray | None:
    """Everything ``clue`` implies for the 1-D uint8 ``cells`` (EMPTY/FILLED/UNKNOWN).

    Returns a new array of the narrowed states, or ``None`` when no placement fits.
    ``cells`` is not modified. Meant for occasional calls (it allocates its scratch);
    whole-grid work should use :func:`grader.solver.propagate`.
    """
    line = np.ascontiguousarray(cells, dtype=np.uint8)
    if line.ndim != 1:
        raise ValueError("line_solve needs a one-dimensional array of cells")
    blocks = np.asarray(clue, dtype=np.int64).reshape(-1)
    n = line.shape[0]
    k = blocks.shape[0]
    out = np.empty(n, dtype=np.uint8)
    fwd = np.empty((k + 1, n + 1), dtype=np.uint8)
    bwd = np.empty((k + 1, n + 1), dtype=np.uint8)
    empties = np.empty(n + 1, dtype=np.int64)
    marks = np.empty(2 * (n + 2), dtype=np.int64)
    if not kernels.solve_line_into(blocks, k, line, n, out, fwd, bwd, empties, marks):
        return None
    return out
