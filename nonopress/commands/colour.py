"""Reading puzzles of either kind for the commands: :func:`iter_any_puzzles` yields a
:class:`LoadedPuzzle` or a :class:`LoadedColourPuzzle`, and the commands ask the kind's
contract (grader.kinds.kind_of) what to do with it. The names the studio imports
(``palette_record``, ``solve``, ``grade_record``) stay here as thin shims.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from grader.colour.model import ColourPuzzle
from grader.errors import BundleError, FormatError
from grader.inputs import read_capped
from grader.kinds import AnyPuzzle, kind_of, read_puzzles
from grader.kinds import palette_record as palette_record
from grader.results import Budget, SolveResult
from nonopress.commands.common import STDIN, LoadedPuzzle

if TYPE_CHECKING:
    from grader.colour.grading import ColourGrade


@dataclass(frozen=True)
class LoadedColourPuzzle:
    """One colour puzzle and where it came from (as :class:`LoadedPuzzle`)."""

    file: str
    index: int
    count: int
    puzzle: ColourPuzzle

    @property
    def label(self) -> str:
        return f"{self.file}#{self.index}" if self.count > 1 else self.file


def add_colour_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--colours", "--colors", dest="colours", type=int, default=None, metavar="N",
        help="read pictures (PNG, GIF, BMP) as colour puzzles of at most N colours",
    )


def read_input_any(path: str, format: str | None = None, colours: int | None = None
                   ) -> list[AnyPuzzle]:
    """The puzzles in ``path`` ('-' reads stdin), colour or black and white."""
    if path == STDIN:
        try:
            data = read_capped(sys.stdin.buffer, "<stdin>")
        except OSError as exc:
            raise FormatError(f"cannot read: {exc}", "<stdin>") from None
        return read_puzzles(data, format=format, name="<stdin>", colours=colours)
    return read_puzzles(path, format=format, colours=colours)


def iter_any_puzzles(paths: Sequence[str], format: str | None = None,
                     colours: int | None = None
                     ) -> Iterator[LoadedPuzzle | LoadedColourPuzzle]:
    """Each puzzle, black-and-white or colour, of each file in order (a file with some
    unreadable puzzles yields the others first, then raises its :class:`BundleError`)."""
    for path in paths:
        partial: BundleError | None = None
        numbered: list[tuple[int, AnyPuzzle]]
        try:
            puzzles = read_input_any(path, format, colours)
            numbered, count = list(enumerate(puzzles, 1)), len(puzzles)
        except BundleError as exc:
            partial, count = exc, exc.count
            numbered = [(index, puzzle) for index, puzzle in exc.readable]
        for index, puzzle in numbered:
            if isinstance(puzzle, ColourPuzzle):
                yield LoadedColourPuzzle(path, index, count, puzzle)
            else:
                yield LoadedPuzzle(path, index, count, puzzle)
        if partial is not None:
            raise partial


def solve(loaded: LoadedColourPuzzle, limit: int, budget: Budget, first: bool = False
          ) -> SolveResult:
    """The colour kind's count of solutions (grader.kinds.Colour.solve)."""
    return kind_of(loaded.puzzle).solve(limit, budget, first)


def grade_record(loaded: LoadedColourPuzzle, max_rung: str | None, budget: Budget
                 ) -> tuple[dict[str, Any], ColourGrade]:
    """What ``grade --json`` prints for one colour puzzle, and the grade itself."""
    from grader.colour.grading import ColourGrade
    from nonopress.commands.grade import grade_record as record_of

    record, result = record_of(loaded, max_rung, budget)
    assert isinstance(result, ColourGrade), "a colour puzzle's grade"
    return record, result
