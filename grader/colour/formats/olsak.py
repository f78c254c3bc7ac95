"""Olsak ``.g`` files with a colour table::

    #d
       0:   white            <- background (optional; white when left out)
       1:*  black            <- the default colour of blocks written without a letter
       r:%  #FF0000  red     <- <letter used in clues>:<char for printing>  <X11 word or #hex>
    : rows
    1 2r 1
    : columns
    ...
    : end

Triangle colours (``black/orange``) are refused: their cells are not squares.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from grader.colour.formats._base import (
    ColourFormat,
    build_colour_puzzle,
    make_palette,
    parse_colour_clue,
)
from grader.colour.formats.pictures import nearest_name
from grader.colour.model import ColourClue, ColourPuzzle
from grader.colour.palette import NAMED_COLOURS, WHITE, Colour, parse_rgb
from grader.errors import FormatError
from grader.formats._base import check_count, decode_text, single_line
from grader.model import Metadata

_COLOUR_LINE = re.compile(r"^\s+(\S):(.)\s*(\S*)\s*(\S*)")


def _rgb(word: str) -> tuple[int, int, int]:
    """The RGB of an X11 word or #hex; an unknown word gets a stable made-up colour."""
    rgb = parse_rgb(word)
    if rgb is not None:
        return rgb
    digest = hashlib.sha256(word.lower().encode()).digest()
    return (digest[0], digest[1], digest[2])


def read(data: bytes, source: str) -> list[ColourPuzzle]:
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
        match = _COLOUR_LINE.match(raw) if in_table else None
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
            background = Colour(word or "white", _rgb(word or "white"),
                                char if char != "0" else ".")
            chars.add(background.char)
            continue
        if char.isdigit():
            char = "#" if "#" not in chars else "X"
        chars.add(char)
        word, _, named = word.partition("=")
        rgb = _rgb(word or "black")
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
    clues = [[_clue(text, letters, default, source, number) for text, number in section]
             for section in sections[:2]]
    return [build_colour_puzzle(clues[0], clues[1], palette, source, first_clue_line,
                                meta=Metadata(title=title))]


def _clue(text: str, letters: dict[str, int], default: int | None, source: str,
          number: int) -> ColourClue:
    return parse_colour_clue(text, letters, default, source, number)


def write(puzzles: Sequence[ColourPuzzle]) -> bytes:
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


def looks_colour(data: bytes) -> bool:
    text = data[:65536].decode("utf-8", errors="replace")
    return re.search(r"^#d", text, re.MULTILINE) is not None or re.search(
        r"^\s*\d+\s*[A-Za-z]", text, re.MULTILINE) is not None


FORMAT = ColourFormat("g", read, write, looks_colour)
