"""Jakub Wilk's ``.nin`` format: ``W H``, then H row clues and W column clues, one per line.

Numbers are separated by spaces; ``0`` or an empty line is an empty clue. Text after the
last column clue is ignored, as Wilk's own reader does (``jwilk/data142.nin`` in the corpus
carries such a tail).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from grader.errors import FormatError
from grader.formats._base import (
    FormatSpec,
    build_puzzle,
    check_header,
    clue_words,
    decode_text,
    head_text,
    parse_clue,
    parse_number,
)
from grader.model import Puzzle

_HEADER = re.compile(r"^\s*(\S+)\s+(\S+)\s*$")
_NUMBERS = re.compile(r"^[\d\s]*$")


def read(data: bytes, source: str) -> list[Puzzle]:
    lines = decode_text(data, source).splitlines()
    # Comment lines ('#') before the header are tolerated.
    first = 0
    while first < len(lines) and (not lines[first].strip() or lines[first].lstrip()[0] == "#"):
        first += 1
    if first == len(lines):
        raise FormatError("empty file: expected a 'width height' line", source, 1)
    header = _HEADER.match(lines[first])
    if not header:
        raise FormatError("expected 'width height' on the first line", source, first + 1)
    width = parse_number(header.group(1), source, first + 1, "width")
    height = parse_number(header.group(2), source, first + 1, "height")
    check_header(width, height, source, first + 1)
    body = lines[first + 1 : first + 1 + height + width]
    if len(body) < height + width:
        raise FormatError(
            f"expected {height} row and {width} column clues, the file ends after "
            f"{len(body)}", source, len(lines),
        )
    clues = [parse_clue(text, source, first + 2 + i) for i, text in enumerate(body)]
    return [build_puzzle(clues[:height], clues[height:], source, first + 1)]


def write(puzzles: Sequence[Puzzle]) -> bytes:
    (puzzle,) = puzzles
    lines = [f"{puzzle.width} {puzzle.height}"]
    lines += [clue_words(c) for c in (*puzzle.rows, *puzzle.columns)]
    return ("\n".join(lines) + "\n").encode("ascii")


def sniff(data: bytes) -> bool:
    """A ``W H`` line followed by at least W + H lines of numbers."""
    lines = head_text(data, 1 << 16).splitlines()
    if not lines or not _HEADER.match(lines[0]):
        return False
    words = lines[0].split()
    if not all(w.isdigit() and len(w) < 6 for w in words):
        return False
    needed = int(words[0]) + int(words[1])
    body = lines[1 : needed + 1]
    return "0" not in words and len(body) == needed and all(_NUMBERS.match(x) for x in body)


SPEC = FormatSpec(
    name="nin",
    description="Wilk .nin (W H, row clues, column clues)",
    suffixes=(".nin",),
    reader=read,
    writer=write,
    sniff=sniff,
)
