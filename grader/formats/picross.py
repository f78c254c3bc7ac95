"""The text format of pierre-dejoue/picross-solver: several ``GRID`` blocks per file.

::

    # comment
    GRID Name
    ROWS
    [ 3 1 ]
    [ ]
    COLUMNS
    [ 1 ]

``[ ]`` or ``[ 0 ]`` is an empty line. The grid name becomes the title.
"""

from __future__ import annotations

from collections.abc import Sequence

from grader.errors import FormatError
from grader.formats._base import (
    FormatSpec,
    build_puzzle,
    check_count,
    decode_text,
    head_text,
    parse_clue,
    single_line,
)
from grader.model import Clue, Metadata, Puzzle


def read(data: bytes, source: str) -> list[Puzzle]:
    lines = decode_text(data, source).splitlines()
    puzzles: list[Puzzle] = []
    title: str | None = None
    grid_line = 0
    sections: dict[str, list[Clue]] = {}
    current: list[Clue] | None = None

    def finish() -> None:
        if title is None:
            return
        for name in ("ROWS", "COLUMNS"):
            if name not in sections:
                raise FormatError(f"GRID {title!r} has no {name} section", source, grid_line)
        puzzles.append(
            build_puzzle(sections["ROWS"], sections["COLUMNS"], source, grid_line,
                         meta=Metadata(title=title))
        )

    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        if keyword == "GRID":
            finish()
            title, grid_line, sections, current = rest.strip(), number, {}, None
        elif keyword in ("ROWS", "COLUMNS") and not rest.strip():
            if title is None:
                raise FormatError(f"{keyword} before any GRID line", source, number)
            if keyword in sections:
                raise FormatError(f"second {keyword} section in one GRID", source, number)
            current = sections[keyword] = []
        elif line.startswith("["):
            if current is None:
                raise FormatError("clue outside a ROWS or COLUMNS section", source, number)
            if not line.endswith("]"):
                raise FormatError("clue line must end with ']'", source, number)
            check_count(len(current) + 1, "clues in a section", source, number)
            current.append(parse_clue(line[1:-1], source, number))
        else:
            raise FormatError(f"unexpected line {line[:40]!r}", source, number)
    finish()
    if not puzzles:
        raise FormatError("no GRID in the file", source, 1)
    return puzzles


def write(puzzles: Sequence[Puzzle]) -> bytes:
    blocks = []
    for puzzle in puzzles:
        title = single_line(puzzle.title)
        lines = [f"GRID {title}".rstrip(), "ROWS"]
        lines += [f"[ {' '.join(map(str, c))} ]" if c else "[ ]" for c in puzzle.rows]
        lines.append("COLUMNS")
        lines += [f"[ {' '.join(map(str, c))} ]" if c else "[ ]" for c in puzzle.columns]
        blocks.append("\n".join(lines))
    return ("\n\n".join(blocks) + "\n").encode("utf-8")


def sniff(data: bytes) -> bool:
    return any(
        line.strip().startswith("GRID") for line in head_text(data).splitlines()
    )


SPEC = FormatSpec(
    name="picross",
    description="picross-solver text (GRID / ROWS / [ 3 1 ] / COLUMNS, several per file)",
    suffixes=(),
    reader=read,
    writer=write,
    holds_many=True,
    sniff=sniff,
)
