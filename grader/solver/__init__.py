"""The fast complete solver: compiled line solve, propagation, probing, search, counting.

Public API (stable; other parts of the toolkit rely on these signatures):

* :func:`solve` -- count solutions up to a limit under a budget; a :class:`SolveResult`.
* :func:`line_solve` -- the compiled complete line solve on a uint8 array.
* :func:`propagate` -- line logic to a fixed point over rows and columns of a grid copy.
"""

from __future__ import annotations

from grader.solver.linesolve import line_solve
from grader.solver.propagation import propagate
from grader.solver.search import solve

__all__ = ["line_solve", "propagate", "solve"]
