"""Plain-text pictures of a solution: rows of ``#``/``.`` or ``1``/``0`` cells.

Cells may be separated by spaces or tabs. Several pictures in one file are separated by
blank lines or by ``$N`` header lines (the layout of the tournament solution files).
Filled: ``#``, ``1``, ``X``, ``x``, ``*``; empty: ``.``, ``0``, ``-``, ``_``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from grader.errors import FormatError
from grader.formats._base import (
    FormatSpec,
    check_count,
    check_header,
    decode_text,
    head_text,
    need_solution,
    puzzle_from_picture,
)
from grader.model import MAX_SIDE, Puzzle

FILLED = "#1Xx*"
EMPTY = ".0-_"
_ROW = re.compile(r"^[#1Xx*.0\-_ \t]+$")
_HEADER = re.compile(r"^\$\s*\d+\s*$")
_TRANSLATE = str.maketrans({**dict.fromkeys(FILLED, "#"), **dict.fromkeys(EMPTY, ".")})


def read(data: bytes, source: str) -> list[Puzzle]:
    lines = decode_text(data, source).splitlines()
    puzzles: list[Puzzle] = []
    rows: list[str] = []
    start = 0

    def finish() -> None:
        if not rows:
            return
        width = max(len(r) for r in rows)
        check_header(width, len(rows), source, start)
        for offset, row in enumerate(rows):
            if len(row) != width:
                raise FormatError(
                    f"row has {len(row)} cells, the picture's first row {len(rows[0])}",
                    source, start + offset,
                )
        puzzles.append(puzzle_from_picture(rows, source, start))
        rows.clear()

    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or _HEADER.match(line):
            finish()
            continue
        if not _ROW.match(line):
            raise FormatError(
                "a picture row may hold only '#'/'.' or '1'/'0' cells", source, number
            )
        cells = line.replace(" ", "").replace("\t", "")
        if len(cells) > MAX_SIDE:
            raise FormatError(f"row longer than {MAX_SIDE} cells", source, number)
        if not rows:
            start = number
        check_count(len(rows) + 1, "rows", source, number)
        rows.append(cells.translate(_TRANSLATE))
    finish()
    if not puzzles:
        raise FormatError("no picture in the file", source, 1)
    return puzzles


def write(puzzles: Sequence[Puzzle]) -> bytes:
    blocks = ["\n".join(need_solution(p, "picture")) for p in puzzles]
    return ("\n\n".join(blocks) + "\n").encode("ascii")


def sniff(data: bytes) -> bool:
    lines = [x.strip() for x in head_text(data).splitlines()]
    lines = [x for x in lines if x and not _HEADER.match(x)]
    return bool(lines) and all(_ROW.match(x) for x in lines[:-1] or lines)


SPEC = FormatSpec(
    name="picture",
    description="text picture of the solution ('#'/'.' or '1'/'0' rows)",
    suffixes=(),
    reader=read,
    writer=write,
    holds_many=True,
    sniff=sniff,
)
