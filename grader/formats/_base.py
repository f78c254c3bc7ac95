"""Pieces every format module shares: the registry record, decoding, numbers, puzzle building
(of either kind: colour clues with their suffixes and palette checks too)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from grader.colour.model import Block, ColourClue, ColourPuzzle
from grader.colour.palette import MAX_COLOURS, Colour, Palette
from grader.errors import FormatError, PuzzleError
from grader.model import MAX_SIDE, Clue, Metadata, Puzzle, check_size

#: ``reader(data, source) -> puzzles``; ``source`` names the input in error messages.
Reader = Callable[[bytes, str], list[Puzzle]]
#: ``writer(puzzles) -> bytes``; called with one puzzle unless the format holds many.
Writer = Callable[[Sequence[Puzzle]], bytes]
#: ``sniff(data) -> bool``: a cheap look at the start of the content.
Sniffer = Callable[[bytes], bool]
ColourReader = Callable[[bytes, str], list[ColourPuzzle]]
ColourWriter = Callable[[Sequence[ColourPuzzle]], bytes]

#: Clue numbers longer than this are refused before ``int()`` sees them.
MAX_DIGITS = 6


@dataclass(frozen=True)
class ColourFormat:
    """How a format holds colour puzzles: ``looks_colour`` is a cheap look that tells a
    colour file from a black-and-white one the plain reader refused. A file holds as many
    colour puzzles as black-and-white ones (the spec's ``holds_many``)."""

    reader: ColourReader
    writer: ColourWriter | None
    looks_colour: Sniffer


@dataclass(frozen=True)
class FormatSpec:
    """One file format: how to recognise, read and (maybe) write it."""

    name: str
    description: str
    suffixes: tuple[str, ...]
    reader: Reader
    writer: Writer | None = None
    holds_many: bool = False
    sniff: Sniffer | None = None
    binary: bool = False  #: the content is binary, not text
    colour: ColourFormat | None = None  #: how the format holds colour, if it can


    @property
    def can_read(self) -> bool:
        return True

    @property
    def can_write(self) -> bool:
        return self.writer is not None


def decode_text(data: bytes, source: str) -> str:
    """UTF-8 text (a BOM is dropped); undecodable bytes are a FormatError at their line."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise FormatError("not UTF-8 text (binary data?)", source, line) from None
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise FormatError("unexpected NUL byte (binary data?)", source, line)
    return text


def parse_number(token: str, source: str, line: int | None, what: str = "clue") -> int:
    """A non-negative whole number written in decimal digits."""
    token = token.strip()
    if not token.isascii() or not token.isdigit():
        raise FormatError(f"{what}: {token!r} is not a whole number", source, line)
    if len(token) > MAX_DIGITS:
        raise FormatError(f"{what}: number {token[:12]}... is absurdly large", source, line)
    return int(token)


_SEPARATORS = re.compile(r"[\s,]+")
_PLAIN_CLUE = re.compile(r"[0-9, \t\r\n]*")


def parse_clue(text: str, source: str, line: int | None, what: str = "clue") -> Clue:
    """Numbers separated by spaces, tabs or commas; empty text or a lone 0 is an empty line."""
    tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
    if _PLAIN_CLUE.fullmatch(text) and max(map(len, tokens), default=0) <= MAX_DIGITS:
        numbers = list(map(int, tokens))  # the common case, 4x faster on a 2048x2048 file
    else:
        numbers = [parse_number(t, source, line, what) for t in tokens]
    if numbers == [0]:
        return ()
    if 0 in numbers:
        raise FormatError(f"{what}: 0 can only stand alone, for an empty line", source, line)
    return tuple(numbers)


def check_header(width: int, height: int, source: str, line: int | None) -> None:
    """Refuse an empty or absurd size right after a header is read, before anything else."""
    try:
        check_size(width, height)
    except PuzzleError as exc:
        raise FormatError(str(exc), source, line) from None


def check_count(count: int, what: str, source: str, line: int | None) -> None:
    """Refuse more lines of clues than any puzzle may have, before collecting them all."""
    if count > MAX_SIDE:
        raise FormatError(f"more than {MAX_SIDE} {what}", source, line)


def build_puzzle(
    rows: Iterable[Clue],
    columns: Iterable[Clue],
    source: str,
    line: int | None,
    *,
    solution: Sequence[str] | None = None,
    meta: Metadata | None = None,
) -> Puzzle:
    """A Puzzle, with the model's objections turned into a FormatError at ``line``."""
    try:
        return Puzzle(
            tuple(rows),
            tuple(columns),
            tuple(solution) if solution is not None else None,
            meta or Metadata(),
        )
    except PuzzleError as exc:
        raise FormatError(str(exc), source, line) from None


def puzzle_from_picture(
    rows: Sequence[str], source: str, line: int | None, meta: Metadata | None = None
) -> Puzzle:
    """The puzzle whose solution is a picture of '#'/'.' row strings."""
    try:
        return Puzzle.from_picture(list(rows), meta)
    except PuzzleError as exc:
        raise FormatError(str(exc), source, line) from None


def need_solution(puzzle: Puzzle, format_name: str) -> tuple[str, ...]:
    """Picture formats can only hold a puzzle whose solution is known."""
    if puzzle.solution is None:
        label = f" {puzzle.title!r}" if puzzle.title else ""
        raise FormatError(
            f"puzzle{label} has no known solution; the {format_name} format stores a picture"
        )
    return puzzle.solution


def single_line(text: str) -> str:
    """Metadata for line-based formats: newlines and tabs become spaces."""
    return " ".join(text.split())


def clue_words(clue: Clue, separator: str = " ", empty: str = "0") -> str:
    return separator.join(map(str, clue)) if clue else empty


def head_text(data: bytes, size: int = 4096) -> str:
    """The start of the content as text, for sniffers (undecodable bytes are replaced)."""
    return data[:size].decode("utf-8", errors="replace").lstrip("\ufeff")


# -- colour clues and palettes ---------------------------------------------------------------
_COLOUR_TOKEN = re.compile(r"(\d+)\s*([^\d\s,]*)")


def parse_colour_clue(text: str, suffixes: Mapping[str, int], default: int | None,
                      source: str, line: int | None, what: str = "clue") -> ColourClue:
    """``2r 1b 3``: numbers, each with a colour suffix (none for ``default``)."""
    text = text.strip().strip("'\"").strip()
    if text in ("", "0"):
        return ()
    blocks: list[Block] = []
    position = 0
    for match in _COLOUR_TOKEN.finditer(text):
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
