"""The INI-like format of the Python solver pynogram.

::

    # comment (also ';', and after '#' or ';' in the middle of a line)
    [clues]
    columns = 3 1, 1 1 1
        1 3
    rows =
        4
        1

Clues are separated by commas and/or newlines, numbers by spaces; a clue may be quoted.
A ``[colors]`` section or colour-suffixed numbers (``2g``) mark a colour puzzle, refused.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from grader.errors import FormatError
from grader.formats._base import (
    FormatSpec,
    build_puzzle,
    check_count,
    clue_words,
    decode_text,
    head_text,
    parse_clue,
)
from grader.model import Clue, Puzzle

_SECTION = re.compile(r"^\[\s*([^\]]*?)\s*\]$")
_KEY = re.compile(r"^([A-Za-z_]\w*)\s*[=:]\s*(.*)$")
_COLOUR_MESSAGE = "colour puzzles are not supported (only black and white)"


def read(data: bytes, source: str) -> list[Puzzle]:
    lines = decode_text(data, source).splitlines()
    section = ""
    key = ""
    values: dict[str, list[tuple[int, str]]] = {}
    key_lines: dict[str, int] = {}
    for number, raw in enumerate(lines, 1):
        line = re.split(r"[#;]", raw, maxsplit=1)[0].strip()
        if not line:
            continue
        section_match = _SECTION.match(line)
        if section_match:
            section, key = section_match.group(1).lower(), ""
            if section in ("colors", "colours"):
                raise FormatError(_COLOUR_MESSAGE, source, number)
            continue
        key_match = _KEY.match(line)
        if key_match and not raw[:1].isspace():
            key = key_match.group(1).lower()
            if section == "clues" and key in ("rows", "columns"):
                values[key], key_lines[key] = [], number
                line = key_match.group(2).strip()
            else:
                key = "?"  # other keys are not ours to read; skip their values
                continue
        if key == "?" or section != "clues":
            continue
        if key not in values:
            if section == "clues":
                raise FormatError(f"unexpected line {line[:40]!r}", source, number)
            continue
        for part in line.split(","):
            part = part.strip().strip("'\"").strip()
            if not part:
                continue
            if re.search(r"\d\s*[A-Za-z]|[A-Za-z]\s*\d", part):
                raise FormatError(_COLOUR_MESSAGE, source, number)
            check_count(len(values[key]) + 1, key, source, number)
            values[key].append((number, part))
    for needed in ("columns", "rows"):
        if needed not in values:
            raise FormatError(f"no '{needed} =' in a [clues] section", source, len(lines) or 1)
    clues: dict[str, list[Clue]] = {
        k: [parse_clue(text, source, n) for n, text in v] for k, v in values.items()
    }
    return [build_puzzle(clues["rows"], clues["columns"], source, key_lines["rows"])]


def write(puzzles: Sequence[Puzzle]) -> bytes:
    (puzzle,) = puzzles
    lines = []
    if puzzle.title:
        lines.append("# " + " ".join(puzzle.title.split()))
    lines += ["[clues]", "columns ="]
    lines += ["    " + clue_words(c) for c in puzzle.columns]
    lines += ["", "rows ="]
    lines += ["    " + clue_words(c) for c in puzzle.rows]
    return ("\n".join(lines) + "\n").encode("utf-8")


def sniff(data: bytes) -> bool:
    return any(
        _SECTION.match(line.strip()) and "clues" in line.lower()
        for line in head_text(data).splitlines()
    )


SPEC = FormatSpec(
    name="pynogram",
    description="pynogram INI ([clues] with columns = and rows =)",
    suffixes=(".ini",),
    reader=read,
    writer=write,
    sniff=sniff,
)
