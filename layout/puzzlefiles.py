"""The puzzle files of one build, each read once.

A manifest may name one file many times (500 entries ``{file: all.yaml, index: i}`` into a
500-puzzle file); reading it again for every entry made such a book quadratic. A build makes
one :class:`PuzzleFiles` and hands it to every step that reads puzzles; it lives as long as
the build, so an edited file is read afresh by the next build. A file that fails to read
fails the same way for every entry, without being read again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from grader.colour.model import AnyPuzzle
from grader.errors import NonopressError
from grader.formats import read, read_any
from grader.model import Puzzle

T = TypeVar("T")


class PuzzleFiles:
    """Parsed puzzle files by path, for the length of one build."""

    def __init__(self) -> None:
        self._plain: dict[Path, list[Puzzle] | NonopressError] = {}
        self._any: dict[Path, list[AnyPuzzle] | NonopressError] = {}
        self.reads = 0  # files parsed, for tests and the benchmark

    def read(self, path: Path) -> list[Puzzle]:
        """The black-and-white puzzles of ``path`` (:func:`grader.formats.read`)."""
        if path not in self._plain:
            self._plain[path] = self._parse(lambda: read(path))
        return _result(self._plain[path])

    def read_any(self, path: Path) -> list[AnyPuzzle]:
        """Every puzzle of ``path``, colour or not (:func:`grader.formats.read_any`)."""
        if path not in self._any:
            self._any[path] = self._parse(lambda: read_any(path))
        return _result(self._any[path])

    def _parse(self, reader: Callable[[], list[T]]) -> list[T] | NonopressError:
        self.reads += 1
        try:
            return reader()
        except NonopressError as exc:
            return exc


def _result(value: Sequence[T] | NonopressError) -> list[T]:
    if isinstance(value, NonopressError):
        raise value
    return list(value)
