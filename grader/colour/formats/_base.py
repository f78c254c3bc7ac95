"""What the colour format modules share: clue text with colour suffixes, palette checks."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from grader.colour.model import Block, ColourClue, ColourPuzzle
from grader.colour.palette import MAX_COLOURS, Colour, Palette
from grader.errors import FormatError, PuzzleError
from grader.formats._base import MAX_DIGITS
from grader.model import MAX_SIDE, Metadata

ColourReader = Callable[[bytes, str], list[ColourPuzzle]]
ColourWriter = Callable[[Sequence[ColourPuzzle]], bytes]
Sniffer = Callable[[bytes], bool]

_TOKEN = re.compile(r"(\d+)\s*([^\d\s,]*)")


@dataclass(frozen=True)
class ColourFormat:
    """How one of the existing formats holds colour: ``looks_colour`` is a cheap look that
    tells a colour file from a black-and-white one the plain reader refused."""

    name: str
    reader: ColourReader
    writer: ColourWriter | None
    looks_colour: Sniffer
    holds_many: bool = False


def parse_colour_clue(text: str, suffixes: Mapping[str, int], default: int | None,
                      source: str, line: int | None, what: str = "clue") -> ColourClue:
    """``2r 1b 3``: numbers, each with a colour suffix (none for ``default``)."""
    text = text.strip().strip("'\"").strip()
    if text in ("", "0"):
        return ()
    blocks: list[Block] = []
    position = 0
    for match in _TOKEN.finditer(text):
        between = text[position:match.start()].replace(",", "").strip()
        if between:
            raise FormatError(f"{what}: cannot read {between!r}", source, line)
        position = match.end()
        digits, suffix = match.group(1), match.group(2)
        if len(digits) > MAX_DIGITS:
            raise FormatError(f"{what}: number {digits[:12]}... is absurdly large", source, line)
        if suffix:
            if suffix not in suffixes:
                raise FormatError(f"{what}: unknown colour {suffix!r}", source, line)
            colour = suffixes[suffix]
        elif default is None:
            raise FormatError(f"{what}: {digits} has no colour and there is no default colour",
                              source, line)
        else:
            colour = default
        length = int(digits)
        if length == 0:
            raise FormatError(f"{what}: 0 can only stand alone, for an empty line", source, line)
        blocks.append((length, colour))
        if len(blocks) > MAX_SIDE:
            raise FormatError(f"{what}: more than {MAX_SIDE} blocks", source, line)
    if text[position:].replace(",", "").strip():
        raise FormatError(f"{what}: cannot read {text[position:].strip()!r}", source, line)
    return tuple(blocks)


def make_palette(colours: Sequence[Colour], background: Colour, source: str,
                 line: int | None = None) -> Palette:
    if len(colours) > MAX_COLOURS:
        raise FormatError(f"{len(colours)} colours; at most {MAX_COLOURS} are allowed",
                          source, line)
    try:
        return Palette(tuple(colours), background)
    except PuzzleError as exc:
        raise FormatError(str(exc), source, line) from None


def build_colour_puzzle(rows: Sequence[ColourClue], columns: Sequence[ColourClue],
                        palette: Palette, source: str, line: int | None = None, *,
                        solution: Sequence[str] | None = None,
                        meta: Metadata | None = None) -> ColourPuzzle:
    try:
        return ColourPuzzle(tuple(rows), tuple(columns), palette,
                            tuple(solution) if solution is not None else None,
                            meta or Metadata())
    except PuzzleError as exc:
        raise FormatError(str(exc), source, line) from None


def free_char(palette_chars: set[str], preferred: str) -> str:
    """``preferred`` if unused, else the first unused letter or punctuation mark."""
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ%&*+@$"
    candidates: list[str] = [preferred, *letters]
    for char in candidates:
        if char and char not in palette_chars and not char.isdigit() and not char.isspace():
            return char
    raise FormatError("no character left for a colour")
