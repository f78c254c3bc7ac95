"""The fast complete solver: compiled line solve, propagation, probing, search, counting.

Public API (stable; other parts of the toolkit rely on these signatures):

* :func:`solve` -- count solutions up to a limit under a budget; a :class:`SolveResult`.
* :func:`line_solve` -- the compiled complete line solve on a uint8 array.
* :func:`propagate` -- line logic to a fixed point over rows and columns of a grid copy.
* :func:`ensure_compiled` -- compile (or load from the cache) every kernel, before timing.
"""

from __future__ import annotations

from pathlib import Path

from grader.solver.jit_cache import configure_numba_cache, drop_stale_entries, solver_cache_folder

# Before any compiled module is imported: numba caches in the user's cache folder (never
# inside the installed package), and never loads code older than its callees.
_SOURCES = Path(__file__).resolve().parent
CACHE_FOLDER = solver_cache_folder(configure_numba_cache(), _SOURCES)
drop_stale_entries(_SOURCES, CACHE_FOLDER)

from grader.solver.linesolve import line_solve  # noqa: E402
from grader.solver.propagation import propagate  # noqa: E402
from grader.solver.search import solve  # noqa: E402
from grader.solver.warmup import ensure_compiled  # noqa: E402

__all__ = ["CACHE_FOLDER", "ensure_compiled", "line_solve", "propagate", "solve"]
