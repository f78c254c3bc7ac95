"""Nonopress grader: puzzle model, formats, line logic, technique ladder, complete solver."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from grader.errors import Contradiction, FormatError, NonopressError, PuzzleError
from grader.model import EMPTY, FILLED, UNKNOWN, Grid, Metadata, Puzzle
from grader.results import Budget, SolveResult

__version__ = "0.1.0"

__all__ = [
    "EMPTY",
    "FILLED",
    "UNKNOWN",
    "Budget",
    "Contradiction",
    "FormatError",
    "Grid",
    "Metadata",
    "NonopressError",
    "Puzzle",
    "PuzzleError",
    "SolveResult",
    "grade",
    "read",
    "solve",
]

if TYPE_CHECKING:
    from grader.formats import read
    from grader.grading import grade
    from grader.solver import solve


def __getattr__(name: str) -> Any:
    # Lazy: `import grader` must not compile numba code or load every format.
    if name == "solve":
        from grader.solver import solve

        return solve
    if name == "grade":
        from grader.grading import grade

        return grade
    if name == "read":
        from grader.formats import read

        return read
    raise AttributeError(name)
