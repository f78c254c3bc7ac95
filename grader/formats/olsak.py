"""Petr Olsak's formats: ``.g`` (sections opened by ``:`` lines) and ``.mk``.

``.g``: lines before the first ``:`` line are a preamble (the first that is not a ``#``
comment is taken as the title); then ``: rows``, one row clue per line, ``: columns``, one
column clue per line, and an optional ``: end``. A ``#d`` colour table or clues with colour
letters (``3b``) mark a colour puzzle, which is refused.

``.mk``: a ``H W`` line, H row clues, a ``#`` line, W column clues.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from grader.colour.model import ColourClue, ColourPuzzle
from grader.colour.palette import NAMED_COLOURS, WHITE, Colour, parse_rgb
from grader.errors import FormatError
from grader.formats._base import (
    ColourFormat,
    FormatSpec,
    build_colour_puzzle,
    build_puzzle,
    check_count,
    check_header,
    clue_words,
    decode_text,
    head_text,
    make_palette,
    parse_clue,
    parse_colour_clue,
    parse_number,
    single_line,
)
from grader.formats.pictures import nearest_name
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


# -- colour --------------------------------------------------------------------------------------
_COLOUR_TABLE_LINE = re.compile(r"^\s+(\S):(.)\s*(\S*)\s*(\S*)")


def _rgb_of_word(word: str) -> tuple[int, int, int]:
    """The RGB of an X11 word or #hex; an unknown word gets a stable made-up colour."""
    rgb = parse_rgb(word)
    if rgb is not None:
        return rgb
    digest = hashlib.sha256(word.lower().encode()).digest()
    return (digest[0], digest[1], digest[2])


def read_g_colour(data: bytes, source: str) -> list[ColourPuzzle]:
    lines = decode_text(data, source).splitlines()
    title = ""
    in_table = False
    declared: list[tuple[str, str, str, int]] = []  # (letter, char, word, line)
    sections: list[list[tuple[str, int]]] = []
    first_clue_line = None
    for number, raw in enumerate(lines, 1):
        if raw.startswith(":"):
            if raw[1:].strip().lower().startswith(("end", "konec")) or len(sections) == 2:
                break
            sections.append([])
            first_clue_line = first_clue_line or number
            in_table = False
            continue
        if sections:
            if raw.strip():
                check_count(len(sections[-1]) + 1, "clues", source, number)
                sections[-1].append((raw, number))
            continue
        if raw.startswith("#d"):
            in_table = True
            continue
        match = _COLOUR_TABLE_LINE.match(raw) if in_table else None
        if match:
            word, comment = match.group(3), match.group(4)
            # "#D01C1C red": a hex colour named by the comment when that is a colour word
            if word.startswith("#") and comment.lower() in NAMED_COLOURS:
                word = f"{word}={comment.lower()}"
            declared.append((match.group(1), match.group(2), word, number))
        elif raw.strip() and not raw.startswith("#") and not title and not in_table:
            title = raw.strip()
    if len(sections) < 2:
        raise FormatError("expected a ': rows' and a ': columns' section", source,
                          len(lines) or 1)
    background = WHITE
    colours: list[Colour] = []
    letters: dict[str, int] = {}
    default = None
    chars: set[str] = set()
    for letter, char, word, number in declared:
        if "/" in word or "\\" in word:
            raise FormatError(f"colour {letter!r} is a triangle colour ({word}); "
                              "triangle cells are not supported", source, number)
        char = char if char.strip() and char not in chars else letter
        if letter == "0":
            background = Colour(word or "white", _rgb_of_word(word or "white"),
                                char if char != "0" else ".")
            chars.add(background.char)
            continue
        if char.isdigit():
            char = "#" if "#" not in chars else "X"
        chars.add(char)
        word, _, named = word.partition("=")
        rgb = _rgb_of_word(word or "black")
        name = named or (word if word and not word.startswith("#") else "")
        name = name or nearest_name(rgb, {c.name for c in colours})
        try:
            colour = Colour(name, rgb, char)
        except Exception as exc:
            raise FormatError(str(exc), source, number) from None
        if any(c.name == colour.name for c in colours):
            colour = Colour(f"{colour.name}_{letter}", colour.rgb, colour.char)
        colours.append(colour)
        letters[letter] = len(colours)
        if letter == "1":
            default = len(colours)
    if not declared:
        colours, default = [Colour("black", (0, 0, 0), "#")], 1
    letters.pop("1", None)
    palette = make_palette(colours, background, source)
    clues = [[_colour_clue(text, letters, default, source, number) for text, number in section]
             for section in sections[:2]]
    return [build_colour_puzzle(clues[0], clues[1], palette, source, first_clue_line,
                                meta=Metadata(title=title))]


def _colour_clue(text: str, letters: dict[str, int], default: int | None, source: str,
          number: int) -> ColourClue:
    return parse_colour_clue(text, letters, default, source, number)


def write_g_colour(puzzles: Sequence[ColourPuzzle]) -> bytes:
    (puzzle,) = puzzles
    palette = puzzle.palette
    lines = []
    if puzzle.title:
        lines.append(single_line(puzzle.title))
    lines.append("#d")
    background = palette.background
    lines.append(f"   0:{background.char}  #{background.hex.upper()}  {background.name}")
    for i in range(1, palette.size + 1):
        colour = palette[i]
        lines.append(f"   {colour.char}:{colour.char}  #{colour.hex.upper()}  {colour.name}")
    for header, clues in ((": rows", puzzle.rows), (": columns", puzzle.columns)):
        lines.append(header)
        for clue in clues:
            lines.append(" ".join(f"{n}{palette[c].char}" for n, c in clue) or "0")
    lines.append(": end")
    return ("\n".join(lines) + "\n").encode("utf-8")


def looks_colour_g(data: bytes) -> bool:
    text = data[:65536].decode("utf-8", errors="replace")
    return re.search(r"^#d", text, re.MULTILINE) is not None or re.search(
        r"^\s*\d+\s*[A-Za-z]", text, re.MULTILINE) is not None


G_SPEC = FormatSpec(
    name="g",
    description="Olsak .g (': rows' / ': columns' / ': end')",
    suffixes=(".g",),
    reader=read_g,
    writer=write_g,
    colour=ColourFormat(read_g_colour, write_g_colour, looks_colour_g),
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
