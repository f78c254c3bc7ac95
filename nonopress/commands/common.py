"""Helpers the subcommands share: loading puzzles of either kind from the command line
(:func:`iter_puzzles` yields a :class:`LoadedPuzzle` whatever the file holds; the commands
ask its kind's contract, grader.kinds.kind_of, what to do with it), JSON lines."""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from grader import formats
from grader.errors import BundleError, FormatError, NonopressError
from grader.inputs import read_capped
from grader.kinds import AnyPuzzle, kind_of, read_puzzles
from grader.model import Puzzle
from grader.text import clean, error_line

STDIN = "-"
Loaded = TypeVar("Loaded")


@dataclass(frozen=True)
class LoadedPuzzle:
    """One puzzle, of either kind, and where it came from."""

    file: str  #: the path as given on the command line ('-' for stdin)
    index: int  #: 1-based position within the file
    count: int  #: puzzles in the file
    puzzle: AnyPuzzle

    @property
    def label(self) -> str:
        """``file`` for a single-puzzle file, ``file#N`` for one of several."""
        return f"{self.file}#{self.index}" if self.count > 1 else self.file


# -- numbers on the command line: bounded where the text becomes a number ------------------
def positive_float(text: str) -> float:
    """A number of seconds: above 0 and finite (``nan`` and ``inf`` are refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, got {text}")
    return value


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text}")
    return value


def add_colour_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--colours", "--colors", dest="colours", type=int, default=None, metavar="N",
        help="read pictures (PNG, GIF, BMP) as colour puzzles of at most N colours",
    )


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
    """The puzzles in ``path`` for a command that only works on black and white (repair):
    the black-and-white readers, whose error names what they cannot read."""
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
        if path != STDIN and Path(path).is_dir():
            from nonopress.batch.discover import find_puzzle_files, known_suffixes

            found = find_puzzle_files([path], known_suffixes())
            if not found:
                raise FormatError("no puzzle files in this folder", path)
            expanded.extend(str(file) for file in found)
        else:
            expanded.append(path)
    return expanded


def iter_puzzles_reporting(
    paths: Sequence[str],
    command: str,
    iterate: Callable[[list[str]], Iterable[Loaded]],
) -> Iterator[Loaded | None]:
    """Each puzzle of each file (folders: of each puzzle file under them), read by
    ``iterate`` (:func:`iter_puzzles`); a file that
    cannot be read is reported on stderr (a line per unreadable puzzle) and yields None,
    and the other files are still read."""
    for path in paths:
        try:
            files = expand_paths([path])
        except NonopressError as exc:
            print(error_line(f"nonopress {command}: ", str(exc)), file=sys.stderr, flush=True)
            yield None
            continue
        for file in files:
            try:
                yield from iterate([file])
            except BundleError as exc:  # the readable puzzles came first; each bad one now
                for line in exc.lines():
                    print(error_line(f"nonopress {command}: ", line), file=sys.stderr,
                          flush=True)
                yield None
            except NonopressError as exc:
                print(error_line(f"nonopress {command}: ", str(exc)), file=sys.stderr, flush=True)
                yield None


def add_input_arguments(parser: argparse.ArgumentParser, *, many: bool = True) -> None:
    """``FILE...`` (or one ``FILE``) and ``--from FORMAT``."""
    parser.add_argument(
        "files",
        metavar="FILE",
        nargs="+" if many else None,
        help="puzzle file ('-' for standard input) or folder of puzzle files; the format "
        "comes from the suffix or the content",
    )
    parser.add_argument(
        "--from",
        dest="input_format",
        metavar="FORMAT",
        choices=sorted(formats.FORMATS),
        help="read the input as FORMAT instead of detecting it",
    )


def json_default(value: Any) -> Any:
    """Make tuples, sets and numpy scalars JSON-friendly."""
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


# JSON escapes C0 controls itself; these reach a terminal raw unless escaped too
_TERMINAL_UNSAFE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def json_line(obj: Any) -> str:
    """One line of JSON, readable (not ASCII-escaped) but safe to print on a terminal."""
    text = json.dumps(obj, ensure_ascii=False, default=json_default, separators=(", ", ": "))
    return _TERMINAL_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", clean(text))


def print_json_line(obj: Any) -> None:
    """One JSON object on one line of standard output (the ``--json`` convention)."""
    print(json_line(obj), flush=True)


def puzzle_summary(loaded: LoadedPuzzle) -> dict[str, Any]:
    """The fields every ``--json`` record about a puzzle starts with (and the palette of a
    colour one)."""
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
