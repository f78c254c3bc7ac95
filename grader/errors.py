"""Specific error classes.

Every error a user can cause derives from :class:`NonopressError`; the CLI turns
those into one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations


class NonopressError(Exception):
    """Base of every error the toolkit raises on purpose."""


class PuzzleError(NonopressError, ValueError):
    """A puzzle that cannot exist: bad clues, bad sizes, inconsistent totals."""


class FormatError(NonopressError, ValueError):
    """A file that cannot be read as the format it claims (or any format).

    ``source`` names the file (or ``<stdin>``), ``line`` the 1-based line number
    where the problem was found, when there is one.
    """

    def __init__(self, message: str, source: str | None = None, line: int | None = None):
        self.message = message
        self.source = source
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.source or "<input>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.message}"

    def located(self, source: str | None = None, line: int | None = None) -> FormatError:
        """A copy with the location filled in where it was missing."""
        return FormatError(
            self.message,
            self.source if self.source is not None else source,
            self.line if self.line is not None else line,
        )


class OutputError(NonopressError, OSError):
    """An output that cannot be written (an OSError too, for callers that expect one)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "cannot write"


class Contradiction(NonopressError):
    """Deductions that disagree: the clues (plus assumptions) admit no solution."""


class BudgetExceeded(NonopressError):
    """A search ran out of its time or node budget."""
