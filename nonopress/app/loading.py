"""Loading puzzles of either kind: :func:`iter_puzzles` yields a :class:`LoadedPuzzle`
whatever the file holds (a face asks its kind's contract, grader.kinds.kind_of, what to
do with it); ``-`` reads standard input, a folder its puzzle files."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from grader import formats
from grader.errors import BundleError, FormatError
from grader.inputs import read_capped
from grader.kinds import AnyPuzzle, kind_of, read_puzzles
from grader.model import Puzzle

#: the path that stands for standard input
STDIN = "-"


@dataclass(frozen=True)
class LoadedPuzzle:
    """One puzzle, of either kind, and where it came from."""

    file: str  #: the path as given ('-' for stdin, or a face's own label)
    index: int  #: 1-based position within the file
    count: int  #: puzzles in the file
    puzzle: AnyPuzzle

    @property
    def label(self) -> str:
        """``file`` for a single-puzzle file, ``file#N`` for one of several."""
        return f"{self.file}#{self.index}" if self.count > 1 else self.file


def _stdin_bytes() -> bytes:
    try:
        return read_capped(sys.stdin.buffer, "<stdin>")
    except OSError as exc:
        raise FormatError(f"cannot read: {exc}", "<stdin>") from None


def read_input(path: str, format: str | None = None, colours: int | None = None
               ) -> list[AnyPuzzle]:
    """The puzzles in ``path`` ('-' reads stdin, detected by content), of whichever kind
    the file holds (``colours``: pictures read as colour puzzles of at most N colours)."""
    if path == STDIN:
        return read_puzzles(_stdin_bytes(), format=format, name="<stdin>", colours=colours)
    return read_puzzles(path, format=format, colours=colours)


def read_black_and_white(path: str, format: str | None = None) -> list[Puzzle]:
    """The puzzles in ``path`` for work on black and white only (repair): the
    black-and-white readers, whose error names what they cannot read."""
    if path == STDIN:
        return formats.read(_stdin_bytes(), format=format, name="<stdin>")
    return formats.read(path, format=format)


def iter_puzzles(paths: Sequence[str], format: str | None = None, colours: int | None = None
                 ) -> Iterator[LoadedPuzzle]:
    """Each puzzle, of either kind, of each file in order (a file with some unreadable
    puzzles yields the others first, then raises its :class:`BundleError`)."""
    for path in paths:
        partial: BundleError | None = None
        numbered: list[tuple[int, AnyPuzzle]]
        try:
            puzzles = read_input(path, format, colours)
            numbered, count = list(enumerate(puzzles, 1)), len(puzzles)
        except BundleError as exc:
            partial, count = exc, exc.count
            numbered = list(exc.readable)
        for index, puzzle in numbered:
            yield LoadedPuzzle(path, index, count, puzzle)
        if partial is not None:
            raise partial


def expand_paths(paths: Sequence[str]) -> list[str]:
    """Paths with each folder replaced by the puzzle files under it (as ``batch`` finds
    them: sorted, hidden entries and issue manifests skipped)."""
    expanded: list[str] = []
    for path in paths:
        # os.path, not pathlib (a check's start-up); '' is the current folder, as Path('') is
        if path != STDIN and os.path.isdir(path or os.curdir):
            from nonopress.batch.discover import find_puzzle_files, known_suffixes

            found = find_puzzle_files([path], known_suffixes())
            if not found:
                raise FormatError("no puzzle files in this folder", path)
            expanded.extend(str(file) for file in found)
        else:
            expanded.append(path)
    return expanded


def puzzle_summary(loaded: LoadedPuzzle) -> dict[str, Any]:
    """The fields every record about a puzzle starts with (and the palette of a colour
    one)."""
    puzzle = loaded.puzzle
    record: dict[str, Any] = {
        "file": loaded.file,
        "index": loaded.index,
        "label": loaded.label,
        "title": puzzle.title,
        "width": puzzle.width,
        "height": puzzle.height,
    }
    record.update(kind_of(puzzle).summary())
    return record
