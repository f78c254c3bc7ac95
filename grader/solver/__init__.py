"""The fast complete solver: compiled line solve, propagation, probing, search, counting.

Public API (stable; other parts of the toolkit rely on these signatures):

* :func:`solve` -- count solutions up to a limit under a budget; a :class:`SolveResult`.
* :func:`line_solve` -- the compiled complete line solve on a uint8 array.
* :func:`propagate` -- line logic to a fixed point over rows and columns of a grid copy.
* :func:`ensure_compiled` -- compile (or load from the cache) every kernel, before timing.
* :func:`compile_if_needed` -- compile before timing only when the cache lacks the kernels.
* :func:`announce_compiling` -- where a first compile is announced (the command line: stderr).

The compiled modules are imported on first use, not with this package: a small puzzle that
line logic solves is answered without loading numba at all (see :mod:`grader.solver.quick`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TextIO

from grader import jit_cache
from grader.results import Budget, SolveResult
from grader.solver.quick import prove_by_line_logic

if TYPE_CHECKING:
    from grader.model import CellArray, Puzzle
    from grader.solver.linesolve import line_solve
    from grader.solver.propagation import propagate

__all__ = [
    "announce_compiling",
    "compile_if_needed",
    "compiled_loaded",
    "ensure_compiled",
    "line_solve",
    "propagate",
    "solve",
]

#: set when this process has loaded the compiled modules
_compiled_loaded = False
#: set once this process knows every kernel is compiled or cached
_cache_ready = False


def _compiled_module(name: str) -> Any:
    # (grader.solver.kernels, which every compiled module imports first, points numba's
    # cache at the user's cache folder)
    global _compiled_loaded
    _compiled_loaded = True
    import importlib

    return importlib.import_module(f"grader.solver.{name}")


def compiled_loaded() -> bool:
    """True once this process has loaded the compiled solver (and numba with it)."""
    return _compiled_loaded


def announce_compiling(stream: TextIO | None) -> None:
    """Say on ``stream`` when this process compiles the solver (with progress on a
    terminal); loads nothing, so a run that never needs the compiled solver stays quick."""
    jit_cache.compile_notice = stream


def ensure_compiled(notice: TextIO | None = None) -> float:
    """Compile every kernel (or load it from the cache) now, before any clock starts;
    seconds spent. A cold cache is announced on ``notice`` or the stream given to
    :func:`announce_compiling`."""
    spent: float = _compiled_module("warmup").ensure_compiled(notice)
    return spent


def compile_if_needed(notice: TextIO | None = None) -> float:
    """Compile every kernel now, before any clock starts, when the cache does not hold
    them; seconds spent. A ready cache is left alone: each kernel then loads from it when
    first called, and a puzzle that line logic settles loads none (nor numba)."""
    global _cache_ready
    from pathlib import Path

    if _cache_ready:
        return 0.0
    spent = 0.0
    if jit_cache.needs_compiling(Path(__file__).resolve().parent):
        spent = ensure_compiled(notice)
    _cache_ready = True
    return spent


def solve(
    puzzle: Puzzle, limit: int = 2, budget: Budget | None = None, *, first: bool = False,
    start: CellArray | None = None, probed: bool = False,
) -> SolveResult:
    """Count the solutions of ``puzzle`` up to ``limit`` (at least 2 are looked for).

    Verdicts: ``unique``, ``multiple`` (with the first two solutions), ``none``, or
    ``undecided`` when the budget ran out first; with ``first``, ``solved`` when the search
    stopped at a first solution. ``start``: known cells every solution agrees with, to
    search from; ``probed``: ``start`` is a fixpoint of probing, not probed again. See
    :func:`grader.solver.search.solve`.
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    budget = budget if budget is not None else Budget()
    if not _compiled_loaded and start is None:
        # once loaded, the compiled solver is faster than the Python line logic on every puzzle
        quick = prove_by_line_logic(puzzle, budget)
        if quick is not None:
            return quick
    result: SolveResult = _compiled_module("search").solve(puzzle, limit, budget, first=first,
                                                            start=start, probed=probed)
    return result


def __getattr__(name: str) -> Any:
    if name == "line_solve":
        return _compiled_module("linesolve").line_solve
    if name == "propagate":
        return _compiled_module("propagation").propagate
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
