"""Plain-text pictures of a solution: rows of ``#``/``.`` or ``1``/``0`` cells.

Filled: ``#``, ``1``, ``X``, ``x``, ``*``; empty: ``.``, ``0``, ``-``, ``_`` and, in a
picture drawn with ``#``-like marks, the space: it reads as drawn (rows cut short by an
editor that drops trailing spaces are padded with empty cells; a line of spaces inside
such a picture is an empty row). Cells may instead be separated by tabs, by single
spaces in every row (``# . #``), or by any spaces in a picture of ``1``/``0`` digits.
Several pictures in one file are separated by empty lines or by ``$N`` header lines (the
layout of the tournament solution files).
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


_CELL = re.compile(r"^[#1Xx*.0\-_]$")


def _separated(rows: Sequence[str]) -> bool:
    """Whether single spaces separate the cells of every row (``# . #``): a cell at every
    even position, a space at every odd one, and at least one space."""
    spaced = False
    for row in rows:
        for position, char in enumerate(row):
            if position % 2:
                if char != " ":
                    return False
                spaced = True
            elif not _CELL.match(char):
                return False
    return spaced


def _cells(block: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
    """The rows of one picture as '#'/'.' strings, each with its line number."""
    texts = [text for _, text in block]
    if any("\t" in text for text in texts):  # tab-separated cells
        return [(n, re.sub(r"[ \t]", "", t).translate(_TRANSLATE)) for n, t in block]
    stripped = [text.rstrip() for text in texts]
    if _separated(stripped):
        return [(n, t.replace(" ", "").translate(_TRANSLATE)) for n, t in zip(
            (n for n, _ in block), stripped, strict=True)]
    digits = any(char in "01" for text in stripped for char in text)
    if any(" " in text for text in stripped) and not digits:  # a drawing: spaces are empty
        width = max(len(text) for text in stripped)
        return [(n, t.ljust(width).replace(" ", ".").translate(_TRANSLATE)) for n, t in zip(
            (n for n, _ in block), stripped, strict=True)]
    return [(n, t.translate(_TRANSLATE)) for n, t in zip(
        (n for n, _ in block), stripped, strict=True)]


def _blocks(lines: Sequence[str], source: str) -> list[list[tuple[int, str]]]:
    """Lines grouped into pictures: split at empty lines and ``$N`` headers; lines of
    spaces stay inside a picture (empty rows) but not at its start or end."""
    blocks: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []

    def close() -> None:
        while current and not current[-1][1].strip():
            current.pop()
        if current:
            blocks.append(list(current))
        current.clear()

    for number, raw in enumerate(lines, 1):
        text = raw.rstrip("\r\n")
        if not text or _HEADER.match(text.strip()) or (not text.strip() and "\t" in text):
            close()
            continue
        if not text.strip():
            if current:
                current.append((number, text))
            continue
        if not _ROW.match(text.strip()):
            raise FormatError(
                "a picture row may hold only '#'/'.' or '1'/'0' cells (or spaces for empty "
                "cells)", source, number,
            )
        if len(text) > 2 * MAX_SIDE:
            raise FormatError(f"row longer than {MAX_SIDE} cells", source, number)
        check_count(len(current) + 1, "rows", source, number)
        current.append((number, text))
    close()
    return blocks


def read(data: bytes, source: str) -> list[Puzzle]:
    lines = decode_text(data, source).splitlines()
    puzzles: list[Puzzle] = []
    for block in _blocks(lines, source):
        rows = _cells(block)
        start = rows[0][0]
        width = max(len(text) for _, text in rows)
        check_header(width, len(rows), source, start)
        for number, text in rows:
            if len(text) != width:
                raise FormatError(
                    f"row has {len(text)} cells, the picture's widest row {width}",
                    source, number,
                )
        puzzles.append(puzzle_from_picture([text for _, text in rows], source, start))
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
