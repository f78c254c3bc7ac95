"""TAAI / TCGA / Computer Olympiad tournament text: many square puzzles per file.

Each puzzle is a ``$N`` line, then N-by-N puzzles' N column clues and then N row clues,
one per line, numbers separated by tabs (columns first: checked against the published
solutions in the corpus). The size follows from the number of clue lines.
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
)
from grader.model import Clue, Puzzle

_HEADER = re.compile(r"^\$\s*(\d+)\s*$")


def read(data: bytes, source: str) -> list[Puzzle]:
    lines = decode_text(data, source).splitlines()
    puzzles: list[Puzzle] = []
    header_line: int | None = None
    clues: list[Clue] = []

    def finish() -> None:
        if header_line is None:
            return
        if len(clues) % 2:
            raise FormatError(
                f"{len(clues)} clue lines: a square puzzle needs an even number",
                source, header_line,
            )
        side = len(clues) // 2
        check_header(side, side, source, header_line)
        puzzles.append(build_puzzle(clues[side:], clues[:side], source, header_line))

    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if _HEADER.match(line):
            finish()
            header_line, clues = number, []
        elif header_line is None:
            if line:
                raise FormatError("expected a '$N' puzzle header", source, number)
        elif line:
            check_count(len(clues) + 1, "clue lines", source, number)
            clues.append(parse_clue(line, source, number))
    finish()
    if not puzzles:
        raise FormatError("no '$N' puzzle in the file", source, 1)
    return puzzles


def write(puzzles: Sequence[Puzzle]) -> bytes:
    lines = []
    for number, puzzle in enumerate(puzzles, 1):
        if puzzle.width != puzzle.height:
            raise FormatError(
                f"puzzle {number} is {puzzle.size}: the TAAI format holds square puzzles only"
            )
        lines.append(f"${number}")
        lines += [clue_words(c, "\t") for c in (*puzzle.columns, *puzzle.rows)]
    return ("\n".join(lines) + "\n").encode("ascii")


def sniff(data: bytes) -> bool:
    lines = [x.strip() for x in head_text(data, 65536).splitlines() if x.strip()]
    if not lines or not _HEADER.match(lines[0]):
        return False
    # A solution file (one '$N' block of 0/1 rows as long as the block) is a picture.
    body = []
    for line in lines[1:]:
        if _HEADER.match(line):
            break
        body.append(line.split())
    return not (body and all(len(r) == len(body) and set(r) <= {"0", "1"} for r in body))


SPEC = FormatSpec(
    name="taai",
    description="TAAI tournament text ($N, column clues, row clues, tab-separated)",
    suffixes=(),
    reader=read,
    writer=write,
    holds_many=True,
    sniff=sniff,
)
