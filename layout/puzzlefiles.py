"""The puzzle files of one build, each read once.

A manifest may name one file many times (500 entries ``{file: all.yaml, index: i}`` into a
500-puzzle file); reading it again for every entry made such a book quadratic. A build makes
one :class:`PuzzleFiles` and hands it to every step that reads puzzles; it lives as long as
the build, so an edited file is read afresh by the next build. Each file's bytes are read
once (a colour file, tried by the black-and-white readers first, is not read again for the
colour ones), and each parse is kept: a file that fails fails the same way for every entry,
without being read again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from grader.colour.model import AnyPuzzle
from grader.errors import NonopressError
from grader.formats import read, read_any
from grader.inputs import read_input_bytes
from grader.model import Puzzle

T = TypeVar("T")


class PuzzleFiles:
    """Parsed puzzle files by path, for the length of one build."""

    def __init__(self) -> None:
        self._bytes: dict[Path, bytes | NonopressError] = {}
        self._plain: dict[Path, list[Puzzle] | NonopressError] = {}
        self._any: dict[Path, list[AnyPuzzle] | NonopressError] = {}
        self.reads = 0  # files read from disk, for tests and the benchmark

    def read(self, path: Path) -> list[Puzzle]:
        """The black-and-white puzzles of ``path`` (:func:`grader.formats.read`)."""
        if path not in self._plain:
            # the bytes are read once; parsing them again costs less than a kind test here
            self._plain[path] = self._parse(path, lambda data: read(data, name=str(path)))
        return _result(self._plain[path])

    def read_any(self, path: Path) -> list[AnyPuzzle]:
        """Every puzzle of ``path``, colour or not (:func:`grader.formats.read_any`)."""
        if path not in self._any:
            self._any[path] = self._parse(path, lambda data: read_any(data, name=str(path)))
        return _result(self._any[path])

    def _parse(self, path: Path, reader: Callable[[bytes], list[T]]
               ) -> list[T] | NonopressError:
        if path not in self._bytes:
            self.reads += 1
            try:
                self._bytes[path] = read_input_bytes(path, str(path))
            except NonopressError as exc:
                self._bytes[path] = exc
        data = self._bytes[path]
        if isinstance(data, NonopressError):
            return data
        try:
            return reader(data)
        except NonopressError as exc:
            return exc


def _result(value: Sequence[T] | NonopressError) -> list[T]:
    if isinstance(value, NonopressError):
        raise value
    return list(value)
