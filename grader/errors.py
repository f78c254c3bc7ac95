"""Specific error classes.

Every error a user can cause derives from :class:`NonopressError`; the CLI turns
those into one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from grader.model import Puzzle


class NonopressError(Exception):
    """Base of every error the toolkit raises on purpose.

    ``exit_status``: what the command line exits with (the README's table): 2, bad input,
    unless the error says the answer is not what a publisher needs (:class:`NotPublishable`).
    """

    exit_status = 2


class NotPublishable(NonopressError):
    """The input is sound but its answer cannot be printed: several solutions, none, or
    uniqueness not proved within the budget (exit status 1)."""

    exit_status = 1


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


class BundleError(FormatError):
    """Some puzzles of a many-puzzle file could not be read; the others could.

    ``readable`` holds the good ones with their 1-based positions in the file, ``count`` how
    many puzzles the file holds, ``errors`` one located error per bad puzzle. Commands check
    the readable puzzles, then report each error and exit 2.
    """

    def __init__(
        self,
        readable: list[tuple[int, Puzzle]],
        count: int,
        errors: list[FormatError],
    ):
        self.readable = readable
        self.count = count
        self.errors = errors
        first = errors[0]
        more = f" (and {len(errors) - 1} more unreadable puzzles)" if len(errors) > 1 else ""
        super().__init__(first.message + more, first.source, first.line)

    def located(self, source: str | None = None, line: int | None = None) -> BundleError:
        return BundleError(self.readable, self.count, [e.located(source) for e in self.errors])

    def lines(self) -> list[str]:
        """One message per unreadable puzzle, each naming its file and line."""
        return [str(error) for error in self.errors]


class ManyProblems(NonopressError):
    """Several problems found at once (every puzzle that blocks an issue): a headline and
    one line per problem, so a user fixes them all in one go."""

    def __init__(self, headline: str, problems: list[str], exit_status: int = 2):
        self.headline = headline
        self.problems = list(problems)
        self.exit_status = exit_status
        super().__init__("\n".join([headline, *(f"  {p}" for p in self.problems)]))


class Contradiction(NonopressError):
    """Deductions that disagree: the clues (plus assumptions) admit no solution."""


class BudgetExceeded(NonopressError):
    """A search ran out of its time or node budget."""
