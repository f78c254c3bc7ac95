"""Simon Tatham's Pattern game IDs: ``WxH:`` then W column clues and H row clues.

Clues are separated by ``/``, numbers within a clue by ``.``; an empty clue is empty
text. ``W`` alone means a square. A ``,`` after the clues starts Pattern's optional
fixed-cell hints, which a plain puzzle does not carry and are ignored. A file may hold
several IDs, one per line (blank lines and ``#`` comments are skipped).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from grader.errors import FormatError
from grader.formats._base import (
    FormatSpec,
    build_puzzle,
    check_header,
    decode_text,
    head_text,
    parse_clue,
    parse_number,
)
from grader.model import Puzzle

_ID = re.compile(r"^(\d+)(?:x(\d+))?:([\d./]*)(?:,.*)?$")


def _parse(text: str, source: str, line: int) -> Puzzle:
    match = _ID.match(text)
    if not match:
        raise FormatError(
            "not a Pattern game ID (expected WxH:clue/clue/..., numbers by '.')", source, line
        )
    width = parse_number(match.group(1), source, line, "width")
    height = parse_number(match.group(2) or match.group(1), source, line, "height")
    check_header(width, height, source, line)
    parts = match.group(3).split("/")
    if len(parts) != width + height:
        raise FormatError(
            f"{len(parts)} clues for a {width}x{height} grid (need {width + height})",
            source, line,
        )
    clues = [parse_clue(p.replace(".", " "), source, line) for p in parts]
    return build_puzzle(clues[width:], clues[:width], source, line)


def read(data: bytes, source: str) -> list[Puzzle]:
    puzzles = []
    for number, raw in enumerate(decode_text(data, source).splitlines(), 1):
        line = raw.strip()
        if line and not line.startswith("#"):
            puzzles.append(_parse(line, source, number))
    if not puzzles:
        raise FormatError("no game ID in the input", source, 1)
    return puzzles


def game_id(puzzle: Puzzle) -> str:
    clues = (*puzzle.columns, *puzzle.rows)
    body = "/".join(".".join(map(str, clue)) for clue in clues)
    return f"{puzzle.width}x{puzzle.height}:{body}"


def write(puzzles: Sequence[Puzzle]) -> bytes:
    return ("\n".join(game_id(p) for p in puzzles) + "\n").encode("ascii")


def sniff(data: bytes) -> bool:
    lines = [x.strip() for x in head_text(data).splitlines() if x.strip()]
    return bool(lines) and _ID.match(lines[0]) is not None


SPEC = FormatSpec(
    name="tatham",
    description="Simon Tatham's Pattern game ID (WxH:columns/rows)",
    suffixes=(".pattern",),
    reader=read,
    writer=write,
    holds_many=True,
    sniff=sniff,
)
