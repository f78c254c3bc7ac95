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
from dataclasses import dataclass, field

from grader.colour.model import ColourPuzzle
from grader.colour.palette import BLACK, NAMED_COLOURS, Colour, parse_rgb
from grader.errors import FormatError
from grader.formats._base import (
    ColourFormat,
    FormatSpec,
    build_colour_puzzle,
    build_puzzle,
    check_count,
    clue_words,
    decode_text,
    free_char,
    head_text,
    make_palette,
    parse_clue,
    parse_colour_clue,
)
from grader.formats.pictures import nearest_name
from grader.model import Clue, Puzzle

_SECTION = re.compile(r"^\[\s*([^\]]*?)\s*\]$")
_KEY = re.compile(r"^([A-Za-z_]\w*)\s*[=:]\s*(.*)$")
_COLOUR_MESSAGE = "colour puzzles are not supported (only black and white)"


_COLOUR_SECTIONS = ("colors", "colours")


@dataclass
class _Scan:
    """What a file holds, before its clues are read as either kind: the clue texts of each
    key with their lines, the line each key opened on, and the ``[colors]`` definitions
    (name -> description, char, line)."""

    values: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    key_lines: dict[str, int] = field(default_factory=dict)
    declared: dict[str, tuple[str, str, int]] = field(default_factory=dict)


def _scan(data: bytes, source: str, colour: bool) -> _Scan:
    """The one reading of the file's lines for both kinds; ``colour`` False refuses what
    only a colour puzzle has (a ``[colors]`` section, colour-suffixed numbers)."""
    lines = decode_text(data, source).splitlines()
    section, key = "", ""
    scan = _Scan()
    for number, raw in enumerate(lines, 1):
        if not colour:
            line = re.split(r"[#;]", raw, maxsplit=1)[0].strip()
        elif section in _COLOUR_SECTIONS:
            # a colour's char may itself be '#' or ';': cut comments after it only
            whole = raw.strip()
            match = _COLOUR_DEF.match(whole) or _COLOUR_DEF.match(re.sub(r"\s+[#;].*$", "",
                                                                         whole))
            if match:
                scan.declared[match.group(1)] = (match.group(2), match.group(3), number)
                continue
            line = re.split(r"[#;]", raw, maxsplit=1)[0].strip()
        else:
            line = re.split(r"(?<!\()[#;]", raw, maxsplit=1)[0].strip()
        if not line:
            continue
        section_match = _SECTION.match(line)
        if section_match:
            section, key = section_match.group(1).lower(), ""
            if section in _COLOUR_SECTIONS and not colour:
                raise FormatError(_COLOUR_MESSAGE, source, number)
            continue
        if section in _COLOUR_SECTIONS:
            raise FormatError(f"cannot read colour {line[:40]!r}", source, number)
        key_match = _KEY.match(line)
        if key_match and not raw[:1].isspace():
            key = key_match.group(1).lower()
            if section != "clues" or key not in ("rows", "columns"):
                key = "?"  # other keys are not ours to read; skip their values
                continue
            scan.values[key], scan.key_lines[key] = [], number
            line = key_match.group(2).strip()
        if key == "?" or section != "clues":
            continue
        if key not in scan.values:
            if colour:
                continue
            raise FormatError(f"unexpected line {line[:40]!r}", source, number)
        for part in (part.strip().strip("'\"").strip() for part in line.split(",")):
            if not part:
                continue
            if not colour and re.search(r"\d\s*[A-Za-z]|[A-Za-z]\s*\d", part):
                raise FormatError(_COLOUR_MESSAGE, source, number)
            check_count(len(scan.values[key]) + 1, key, source, number)
            scan.values[key].append((number, part))
    for needed in ("columns", "rows"):
        if needed not in scan.values:
            raise FormatError(f"no '{needed} =' in a [clues] section", source, len(lines) or 1)
    return scan


def read(data: bytes, source: str) -> list[Puzzle]:
    scan = _scan(data, source, colour=False)
    clues: dict[str, list[Clue]] = {
        k: [parse_clue(text, source, n) for n, text in v] for k, v in scan.values.items()
    }
    return [build_puzzle(clues["rows"], clues["columns"], source, scan.key_lines["rows"])]


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


# -- colour --------------------------------------------------------------------------------------
_COLOUR_DEF = re.compile(r"^([A-Za-z_]\w*)\s*=\s*\(([^)]*)\)\s*(\S?)\s*$")


def read_colour(data: bytes, source: str) -> list[ColourPuzzle]:
    scan = _scan(data, source, colour=True)
    declared, values = scan.declared, scan.values
    suffixes = {name: i for i, name in enumerate(declared, 2)}
    black = 1
    clues = {k: [parse_colour_clue(text, suffixes, black, source, n) for n, text in v]
             for k, v in values.items()}
    used = {c for lines_ in clues.values() for clue in lines_ for _, c in clue}
    colours: list[Colour] = []
    chars: set[str] = {"."}
    renumber: dict[int, int] = {}
    if black in used:
        colours.append(BLACK)
        chars.add(BLACK.char)
        renumber[black] = 1
    for name, (description, char, number) in declared.items():
        if suffixes[name] not in used:
            continue
        rgb = parse_rgb(description)
        if rgb is None:
            raise FormatError(f"colour {name!r}: cannot read {description!r}", source, number)
        char = char if char and char not in chars and char != "." else free_char(chars, name[0])
        chars.add(char)
        # "b = (blue)": call it blue in sentences and prints, keep "b" in the clues
        word = description.strip().lower()
        taken = {c.name for c in colours}
        label = word if word in NAMED_COLOURS and word not in taken else name
        if len(label) == 1:
            label = nearest_name(rgb, taken)
        colours.append(Colour(label, rgb, char))
        renumber[suffixes[name]] = len(colours)
    palette = make_palette(colours or [BLACK], Colour("white", (255, 255, 255), "."), source)
    rows, columns = (
        [tuple((n, renumber[c]) for n, c in clue) for clue in clues[k]]
        for k in ("rows", "columns"))
    return [build_colour_puzzle(rows, columns, palette, source)]


def write_colour(puzzles: Sequence[ColourPuzzle]) -> bytes:
    (puzzle,) = puzzles
    palette = puzzle.palette
    lines = []
    if puzzle.title:
        lines.append("# " + " ".join(puzzle.title.split()))
    lines.append("[colors]")
    for i in range(1, palette.size + 1):
        colour = palette[i]
        lines.append(f"{colour.name} = ({colour.hex}) {colour.char}")
    lines += ["", "[clues]", "columns ="]

    def clue(blocks: tuple[tuple[int, int], ...]) -> str:
        return " ".join(f"{n}{palette[c].name}" for n, c in blocks) or "0"

    lines += ["    " + clue(c) for c in puzzle.columns]
    lines += ["", "rows ="]
    lines += ["    " + clue(c) for c in puzzle.rows]
    return ("\n".join(lines) + "\n").encode("utf-8")


def looks_colour(data: bytes) -> bool:
    text = data[:65536].decode("utf-8", errors="replace").lower()
    return "[colors]" in text or "[colours]" in text or re.search(
        r"\d\s*[a-z]", re.sub(r"[#;].*", "", text.split("[clues]", 1)[-1])) is not None


SPEC = FormatSpec(
    name="pynogram",
    description="pynogram INI ([clues] with columns = and rows =)",
    suffixes=(".ini",),
    reader=read,
    writer=write,
    colour=ColourFormat(read_colour, write_colour, looks_colour),
    sniff=sniff,
)
