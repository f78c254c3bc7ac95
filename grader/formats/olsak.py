"""Petr Olsak's formats: ``.g`` (sections opened by ``:`` lines) and ``.mk``.

``.g``: lines before the first ``:`` line are a preamble (the first that is not a ``#``
comment is taken as the title); then ``: rows``, one row clue per line, ``: columns``, one
column clue per line, and an optional ``: end``. A ``#d`` colour table or clues with colour
letters (``3b``) mark a colour puzzle, which is refused.

``.mk``: a ``H W`` line, H row clues, a ``#`` line, W column clues.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from grader.errors import FormatError
from grader.formats._base import (
    FormatSpec,
    build_puzzle,
    check_count,
    check_header,
    clue_words,
    decode_text,
    head_text,
    parse_clue,
    parse_number,
    single_line,
)
from grader.model import Clue, Metadata, Puzzle

_COLOUR_MESSAGE = "colour puzzles are not supported (only black and white)"
_COLOURED_CLUE = re.compile(r"\d\s*[a-zA-Z]")


def _clue(text: str, source: str, line: int) -> Clue:
    if _COLOURED_CLUE.search(text):
        raise FormatError(_COLOUR_MESSAGE, source, line)
    return parse_clue(text, source, line)


def read_g(data: bytes, source: str) -> list[Puzzle]:
    lines = decode_text(data, source).splitlines()
    title = ""
    sections: list[list[Clue]] = []
    header_line = None
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if raw.startswith(":"):
            word = line[1:].strip().lower()
            if word == "end" or len(sections) == 2:
                break
            header_line = header_line or number
            sections.append([])
            continue
        if raw.startswith("#d"):
            raise FormatError(_COLOUR_MESSAGE, source, number)
        if not sections:
            # Comments start in the first column; an indented '#' belongs to a title.
            if line and not raw.startswith("#") and not title:
                title = line
            continue
        if not line or line.startswith("#"):
            continue
        check_count(len(sections[-1]) + 1, "clues in a section", source, number)
        sections[-1].append(_clue(line, source, number))
    if len(sections) < 2:
        raise FormatError("expected ': rows' and ': columns' sections", source, len(lines) or 1)
    rows, columns = sections
    if not rows or not columns:
        raise FormatError("an empty rows or columns section", source, header_line)
    check_header(len(columns), len(rows), source, header_line)
    return [build_puzzle(rows, columns, source, header_line, meta=Metadata(title=title))]


def write_g(puzzles: Sequence[Puzzle]) -> bytes:
    (puzzle,) = puzzles
    title = single_line(puzzle.title)
    lines = [" " + title if title.startswith((":", "#")) else title] if title else []
    lines.append(": rows")
    lines += [clue_words(c) for c in puzzle.rows]
    lines.append(": columns")
    lines += [clue_words(c) for c in puzzle.columns]
    lines.append(": end")
    return ("\n".join(lines) + "\n").encode("utf-8")


def sniff_g(data: bytes) -> bool:
    return any(line.startswith(":") for line in head_text(data).splitlines())


def read_mk(data: bytes, source: str) -> list[Puzzle]:
    lines = decode_text(data, source).splitlines()
    first = next((i for i, x in enumerate(lines) if x.strip()), None)
    if first is None:
        raise FormatError("empty file: expected a 'height width' line", source, 1)
    words = lines[first].split()
    if len(words) != 2:
        raise FormatError("expected 'height width' on the first line", source, first + 1)
    height = parse_number(words[0], source, first + 1, "height")
    width = parse_number(words[1], source, first + 1, "width")
    check_header(width, height, source, first + 1)
    rows: list[Clue] = []
    columns: list[Clue] = []
    target = rows
    for number in range(first + 2, len(lines) + 1):
        line = lines[number - 1].strip()
        if line == "#":
            if target is columns:
                raise FormatError("a second '#' line", source, number)
            target = columns
            continue
        if not line:
            continue
        check_count(len(target) + 1, "clues in a section", source, number)
        target.append(_clue(line, source, number))
    if target is rows:
        raise FormatError("no '#' line between row and column clues", source, len(lines))
    if len(rows) != height or len(columns) != width:
        raise FormatError(
            f"the header says {height} rows and {width} columns, the file has {len(rows)} "
            f"and {len(columns)}", source, first + 1,
        )
    return [build_puzzle(rows, columns, source, first + 1)]


def write_mk(puzzles: Sequence[Puzzle]) -> bytes:
    (puzzle,) = puzzles
    lines = [f"{puzzle.height} {puzzle.width}"]
    lines += [clue_words(c) for c in puzzle.rows]
    lines.append("#")
    lines += [clue_words(c) for c in puzzle.columns]
    return ("\n".join(lines) + "\n").encode("ascii")


def sniff_mk(data: bytes) -> bool:
    lines = head_text(data).splitlines()
    header = bool(lines) and re.fullmatch(r"\s*\d+\s+\d+\s*", lines[0]) is not None
    return header and re.search(rb"(?m)^[ \t]*#[ \t]*\r?$", data) is not None


G_SPEC = FormatSpec(
    name="g",
    description="Olsak .g (': rows' / ': columns' / ': end')",
    suffixes=(".g",),
    reader=read_g,
    writer=write_g,
    sniff=sniff_g,
)

MK_SPEC = FormatSpec(
    name="mk",
    description="Olsak .mk ('H W', row clues, '#', column clues)",
    suffixes=(".mk",),
    reader=read_mk,
    writer=write_mk,
    sniff=sniff_mk,
)
