"""The fast complete solver: compiled line solve, propagation, probing, search, counting.

Public API (stable; other parts of the toolkit rely on these signatures):

* :func:`solve` -- count solutions up to a limit under a budget; a :class:`SolveResult`.
* :func:`line_solve` -- the compiled complete line solve on a uint8 array.
* :func:`propagate` -- line logic to a fixed point over rows and columns of a grid copy.
"""

from __future__ import annotations

from pathlib import Path

from grader.solver.jit_cache import drop_stale_entries

# before any compiled module is imported, so numba never loads code older than its callees
drop_stale_entries(Path(__file__).resolve().parent)

from grader.solver.linesolve import line_solve  # noqa: E402
from grader.solver.propagation import propagate  # noqa: E402
from grader.solver.search import solve  # noqa: E402

__all__ = ["line_solve", "propagate", "solve"]
