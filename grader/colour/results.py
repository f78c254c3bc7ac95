"""The colour solver's result is :class:`grader.results.SolveResult`, the one result type
of both kinds (its solutions hold colour indices; ``solution_rows(palette)`` names them).
The old name stays for callers that still import it."""

from __future__ import annotations

from grader.results import SolveResult

ColourSolveResult = SolveResult

__all__ = ["ColourSolveResult"]
