"""TAAI / TCGA / Computer Olympiad tournament text: many square puzzles per file.

Each puzzle is a ``$N`` line, then N-by-N puzzles' N column clues and then N row clues,
one per line, numbers separated by tabs (columns first: checked against the published
solutions in the corpus). The size follows from the number of clue lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from grader.errors import BundleError, FormatError
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
from grader.model import Puzzle

_HEADER = re.compile(r"^\$\s*(\d+)\s*$")


def _block_puzzle(body: list[tuple[int, str]], source: str, header_line: int) -> Puzzle:
    """The puzzle of one ``$N`` block: its lines, blank ones included, in file order.

    A blank line inside a block is an empty clue (an all-white row or column). Blank lines at
    the end of a block are either empty clues or separators: the first even count of lines
    that makes a consistent square puzzle decides.
    """
    used = len(body)
    while used and not body[used - 1][1]:
        used -= 1
    if used == 0:
        raise FormatError("a '$N' header with no clue lines", source, header_line)
    check_count((used + 1) // 2, "clue lines", source, header_line)
    first_error: FormatError | None = None
    for count in range(used + used % 2, len(body) + 1, 2):
        clues = [parse_clue(text, source, number) for number, text in body[:count]]
        side = count // 2
        check_header(side, side, source, header_line)
        try:
            return build_puzzle(clues[side:], clues[:side], source, header_line)
        except FormatError as exc:
            first_error = first_error or exc
    if first_error is not None:
        raise first_error
    raise FormatError(
        f"{used} clue lines: a square puzzle needs an even number", source, header_line
    )


def read(data: bytes, source: str) -> list[Puzzle]:
    """Every puzzle of the file; a bad block spoils only itself (see :class:`BundleError`)."""
    lines = decode_text(data, source).splitlines()
    blocks: list[tuple[int, list[tuple[int, str]]]] = []
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if _HEADER.match(line):
            blocks.append((number, []))
        elif blocks:
            blocks[-1][1].append((number, line))
        elif line:
            raise FormatError("expected a '$N' puzzle header", source, number)
    if not blocks:
        raise FormatError("no '$N' puzzle in the file", source, 1)
    readable: list[tuple[int, Puzzle]] = []
    errors: list[FormatError] = []
    for position, (header_line, body) in enumerate(blocks, 1):
        try:
            readable.append((position, _block_puzzle(body, source, header_line)))
        except FormatError as exc:
            errors.append(exc)
    if errors and (readable or len(errors) > 1):
        raise BundleError(readable, len(blocks), errors)
    if errors:
        raise errors[0]
    return [puzzle for _, puzzle in readable]


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
