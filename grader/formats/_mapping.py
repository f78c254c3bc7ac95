"""Puzzles as plain mappings: the schema shared by the YAML and JSON formats.

``title``, ``author``, ``copyright``, ``license``, ``source`` (metadata); ``rows`` and
``columns`` (lists of clue lists; ``[]`` or ``[0]`` for an empty line); ``solution`` (one
block string or a list of row strings, ``#`` filled, ``.`` empty). ``rows``/``columns``
may be left out when ``solution`` is given. ``givens`` (a block or list of row strings:
``#`` a filled cell printed in the grid, ``.`` a cell printed as empty, ``?`` not printed)
is optional. ``difficulty``, ``expected`` and ``notes`` are
allowed for the library and tests but are not part of the Puzzle.

A colour puzzle adds ``palette`` (block colours in order, each a mapping of ``name``,
``rgb``, ``char`` and an optional ``symbol``) and an optional ``background``; its clues are
text like ``"2r 1b"`` or lists of ``[length, colour name or char]``, its solution rows the
palette's chars.
"""

from __future__ import annotations

import re
from typing import Any

from grader.colour.model import (
    ColourClue,
    ColourPuzzle,
    clues_of_colour_picture,
    rows_to_colour_array,
)
from grader.colour.palette import WHITE, Colour, Palette, parse_rgb
from grader.errors import FormatError, PuzzleError
from grader.formats._base import (
    ColourFormat,
    ColourReader,
    ColourWriter,
    FormatSpec,
    Reader,
    Sniffer,
    Writer,
    parse_colour_clue,
)
from grader.model import (
    MAX_SIDE,
    Clue,
    Given,
    Metadata,
    Puzzle,
    as_row_strings,
    check_size,
    normalise_clue,
)

META_KEYS = ("title", "author", "copyright", "license", "source")
CLUE_KEYS = ("rows", "columns")
IGNORED_KEYS = ("difficulty", "expected", "notes")
KNOWN_KEYS = frozenset((*META_KEYS, *CLUE_KEYS, "solution", "givens", *IGNORED_KEYS))
#: a colour puzzle's keys: no givens, a palette and a background
COLOUR_KEYS = frozenset((*META_KEYS, *CLUE_KEYS, "palette", "background", "solution",
                         *IGNORED_KEYS))

_FILLED = frozenset("#1Xx*")
_EMPTY = frozenset(".0-_ ")


class SchemaError(Exception):
    """A mapping that is not a puzzle; ``path`` says where (keys and list indexes)."""

    def __init__(self, message: str, path: tuple[str | int, ...] = ()):
        super().__init__(message)
        self.message = message
        self.path = path


def puzzle_from_mapping(data: Any, path: tuple[str | int, ...] = ()) -> Puzzle:
    if not isinstance(data, dict):
        raise SchemaError(f"a puzzle must be a mapping, not {type(data).__name__}", path)
    for key in data:
        if key not in KNOWN_KEYS:
            raise SchemaError(f"unknown key {key!r}", (*path, str(key)))
    meta: dict[str, str] = {}
    for key in META_KEYS:
        value = data.get(key)
        if value is None:
            continue
        if isinstance(value, (dict, list, bool)):
            raise SchemaError(f"{key} must be text", (*path, key))
        meta[key] = str(value)
    solution = _solution(data.get("solution"), (*path, "solution"))
    clues: dict[str, tuple[Clue, ...]] = {}
    line_lengths = _line_lengths(data, solution, path)
    for key in CLUE_KEYS:
        if data.get(key) is not None:
            clues[key] = _clue_list(data[key], (*path, key), line_lengths.get(key))
        elif solution is None:
            raise SchemaError(f"{key} missing (give {key}, or a solution)", path)
    givens = _givens(data.get("givens"), (*path, "givens"))
    try:
        if solution is not None and not clues:
            return Puzzle.from_picture(solution, Metadata(**meta)).with_givens(givens)
        if solution is not None and len(clues) < len(CLUE_KEYS):  # a side from the picture
            picture_puzzle = Puzzle.from_picture(solution)
            clues.setdefault("rows", picture_puzzle.rows)
            clues.setdefault("columns", picture_puzzle.columns)
        return Puzzle(clues["rows"], clues["columns"], solution, Metadata(**meta), givens)
    except PuzzleError as exc:
        raise SchemaError(str(exc), path) from None


def _line_lengths(
    data: dict[Any, Any], solution: tuple[str, ...] | None, path: tuple[str | int, ...]
) -> dict[str, int]:
    """How long rows and columns are, when known before the clues are looked at.

    Knowing it lets a clue with more numbers than its line can hold be refused before
    its numbers are read (aliases in YAML can make a small file hold huge lists).
    """
    rows, columns = data.get("rows"), data.get("columns")
    if isinstance(rows, list) and isinstance(columns, list):
        height, width = len(rows), len(columns)
    elif solution is not None:
        height, width = len(solution), len(solution[0])
    else:
        return {}
    try:
        check_size(width, height)
    except PuzzleError as exc:
        raise SchemaError(str(exc), path) from None
    return {"rows": width, "columns": height}


def _clue_list(
    value: Any, path: tuple[str | int, ...], line_length: int | None = None
) -> tuple[Clue, ...]:
    if not isinstance(value, list):
        raise SchemaError("must be a list of clues", path)
    if len(value) > MAX_SIDE:
        raise SchemaError(f"more than {MAX_SIDE} clues", path)
    most = MAX_SIDE if line_length is None else (line_length + 1) // 2
    for i, item in enumerate(value):
        if isinstance(item, list) and len(item) > most:
            raise SchemaError(f"a clue of {len(item)} numbers cannot fit its line", (*path, i))
    return tuple(_clue(item, (*path, i)) for i, item in enumerate(value))


def _clue(item: Any, path: tuple[str | int, ...]) -> Clue:
    if isinstance(item, int) and not isinstance(item, bool):
        item = [item]
    elif isinstance(item, str):
        words = item.replace(",", " ").split()
        if not all(w.isascii() and w.isdigit() and len(w) < 7 for w in words):
            raise SchemaError(f"clue {item!r} is not a list of whole numbers", path)
        item = [int(w) for w in words]
    if not isinstance(item, list):
        raise SchemaError("a clue must be a list of whole numbers", path)
    if len(item) > MAX_SIDE:
        raise SchemaError(f"clue with more than {MAX_SIDE} numbers", path)
    what = "clue"
    if len(path) >= 2 and isinstance(path[-1], int):
        what = f"{'row' if path[-2] == 'rows' else 'column'} {path[-1] + 1}"
    try:
        return normalise_clue(item, what)
    except PuzzleError as exc:
        raise SchemaError(str(exc), path) from None


def _solution(value: Any, path: tuple[str | int, ...]) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str):
        rows = [r.strip() for r in value.strip().splitlines()]
    elif isinstance(value, list) and all(isinstance(r, str) for r in value):
        if len(value) > MAX_SIDE:
            raise SchemaError(f"more than {MAX_SIDE} rows", path)
        rows = [r.strip() for r in value]
    else:
        raise SchemaError("must be a block of text or a list of row strings", path)
    for i, row in enumerate(rows):
        if len(row) > MAX_SIDE:
            raise SchemaError(f"row {i + 1} is longer than {MAX_SIDE} cells", path)
        bad = set(row) - _FILLED - _EMPTY
        if bad:
            raise SchemaError(
                f"row {i + 1} holds {''.join(sorted(bad))!r}; use '#' (filled) and '.' (empty)",
                path,
            )
    try:
        return as_row_strings(["".join("#" if c in _FILLED else "." for c in r) for r in rows])
    except PuzzleError as exc:
        raise SchemaError(str(exc), path) from None


def _givens(value: Any, path: tuple[str | int, ...]) -> tuple[Given, ...]:
    """Given cells from rows of '#', '.' and '?' (the grid is checked against the clues by
    the Puzzle itself)."""
    if value is None:
        return ()
    if isinstance(value, str):
        rows = [r.strip() for r in value.strip().splitlines()]
    elif isinstance(value, list) and all(isinstance(r, str) for r in value):
        rows = [r.strip() for r in value]
    else:
        raise SchemaError("must be a block of text or a list of row strings", path)
    if len(rows) > MAX_SIDE or any(len(r) > MAX_SIDE for r in rows):
        raise SchemaError(f"larger than {MAX_SIDE} cells a side", path)
    givens: list[Given] = []
    for i, row in enumerate(rows):
        bad = set(row) - _FILLED - _EMPTY - {"?"}
        if bad:
            raise SchemaError(
                f"row {i + 1} holds {''.join(sorted(bad))!r}; use '#' (filled), '.' (empty) "
                "and '?' (not given)", path,
            )
        givens.extend((i, j, ch in _FILLED) for j, ch in enumerate(row) if ch != "?")
    return tuple(givens)


def givens_rows(puzzle: Puzzle) -> list[str]:
    """The givens as row strings of '#', '.' and '?'."""
    rows = [["?"] * puzzle.width for _ in range(puzzle.height)]
    for row, column, filled in puzzle.givens:
        rows[row][column] = "#" if filled else "."
    return ["".join(r) for r in rows]


def puzzle_to_mapping(puzzle: Puzzle) -> dict[str, Any]:
    """Metadata keys (only those set), then clues, then the solution if known, then givens."""
    out: dict[str, Any] = dict(puzzle.meta.as_dict())
    out["rows"] = [list(c) for c in puzzle.rows]
    out["columns"] = [list(c) for c in puzzle.columns]
    if puzzle.solution is not None:
        out["solution"] = list(puzzle.solution)
    if puzzle.givens:
        out["givens"] = givens_rows(puzzle)
    return out


# -- colour ---------------------------------------------------------------------------------------
def _palette_colour(item: Any, where: str) -> Colour:
    if not isinstance(item, dict):
        raise PuzzleError(f"{where}: a colour is a mapping of name, rgb, char (and symbol)")
    name = str(item.get("name", "")).strip()
    rgb = parse_rgb(str(item.get("rgb", name)))
    if rgb is None:
        raise PuzzleError(f"{where}: cannot read rgb {item.get('rgb')!r}")
    char = str(item.get("char", name[:1]))
    return Colour(name, rgb, char, str(item.get("symbol", "") or ""))


def _colour_clue(item: Any, palette: Palette, suffixes: dict[str, int], where: str) -> ColourClue:
    if isinstance(item, (str, int)) and not isinstance(item, bool):
        default = 1 if palette.size == 1 else None
        try:
            return parse_colour_clue(str(item), suffixes, default, "", None, where)
        except FormatError as exc:
            raise PuzzleError(exc.message) from None
    if not isinstance(item, list):
        raise PuzzleError(f"{where}: a clue is text like '2r 1b' or a list of [length, colour]")
    if len(item) > MAX_SIDE:
        raise PuzzleError(f"{where}: more than {MAX_SIDE} blocks")
    blocks = []
    for block in item:
        if not (isinstance(block, list) and len(block) == 2):
            raise PuzzleError(f"{where}: {block!r} is not [length, colour]")
        length, colour = block
        if str(colour) not in suffixes:
            raise PuzzleError(f"{where}: unknown colour {colour!r}")
        blocks.append((length, suffixes[str(colour)]))
    return tuple(blocks)


def colour_puzzle_from_mapping(data: Any, where: str) -> ColourPuzzle:
    if not isinstance(data, dict):
        raise PuzzleError(f"{where}a puzzle must be a mapping")
    unknown = [k for k in data if k not in COLOUR_KEYS]
    if unknown:
        raise PuzzleError(f"{where}unknown key {unknown[0]!r}")
    items = data.get("palette")
    if not isinstance(items, list) or not items:
        raise PuzzleError(f"{where}palette must be a non-empty list of colours")
    colours = tuple(_palette_colour(item, f"{where}palette {i}") for i, item in enumerate(items, 1))
    background = WHITE
    if data.get("background") is not None:
        background = _palette_colour(data["background"], f"{where}background")
    palette = Palette(colours, background)
    suffixes: dict[str, int] = {}
    for i, colour in enumerate(palette.colours, 1):
        suffixes[colour.name] = suffixes[colour.char] = i
    meta = Metadata(**{k: str(data[k]) for k in META_KEYS if data.get(k) is not None})
    solution = data.get("solution")
    rows_text: tuple[str, ...] | None = None
    if solution is not None:
        if isinstance(solution, str):
            rows_text = tuple(r.strip() for r in solution.strip().splitlines())
        elif isinstance(solution, list) and all(isinstance(r, str) for r in solution):
            rows_text = tuple(r.strip() for r in solution)
        else:
            raise PuzzleError(f"{where}solution must be text or a list of row strings")
    clues: dict[str, tuple[ColourClue, ...]] = {}
    for key in ("rows", "columns"):
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, list) or len(value) > MAX_SIDE:
            raise PuzzleError(f"{where}{key} must be a list of at most {MAX_SIDE} clues")
        clues[key] = tuple(_colour_clue(item, palette, suffixes, f"{where}{key[:-1]} {i}")
                           for i, item in enumerate(value, 1))
    if len(clues) < 2:
        if rows_text is None:
            raise PuzzleError(f"{where}rows and columns missing (give them, or a solution)")
        rows, cols = clues_of_colour_picture(rows_to_colour_array(rows_text, palette))
        clues.setdefault("rows", rows)
        clues.setdefault("columns", cols)
    return ColourPuzzle(clues["rows"], clues["columns"], palette, rows_text, meta)


def _colour_mapping(colour: Colour) -> dict[str, str]:
    out = {"name": colour.name, "rgb": colour.hex, "char": colour.char}
    if colour.symbol:
        out["symbol"] = colour.symbol
    return out


def colour_puzzle_to_mapping(puzzle: ColourPuzzle) -> dict[str, Any]:
    palette = puzzle.palette
    out: dict[str, Any] = dict(puzzle.meta.as_dict())
    out["palette"] = [_colour_mapping(c) for c in palette.colours]
    if palette.background != WHITE:
        out["background"] = _colour_mapping(palette.background)
    for key, clues in (("rows", puzzle.rows), ("columns", puzzle.columns)):
        out[key] = [" ".join(f"{n}{palette[c].char}" for n, c in clue) or "0"
                    for clue in clues]
    if puzzle.solution is not None:
        out["solution"] = list(puzzle.solution)
    return out


def documents_of(document: Any) -> list[Any]:
    if isinstance(document, dict) and "puzzles" in document:
        document = document["puzzles"]
    return document if isinstance(document, list) else [document]


def read_colour_documents(documents: list[Any], source: str) -> list[ColourPuzzle]:
    puzzles = []
    for i, item in enumerate(documents, 1):
        where = f"puzzle {i}: " if len(documents) > 1 else ""
        try:
            puzzles.append(colour_puzzle_from_mapping(item, where))
        except PuzzleError as exc:
            raise FormatError(str(exc), source) from None
    return puzzles


#: a ``palette`` key: at the start of a line (YAML, maybe a list item) or quoted (JSON, or
#: YAML with a quoted key)
_PALETTE_KEY = re.compile(rb'^[ \t-]*palette\s*:|"palette"\s*:', re.MULTILINE)


def has_palette(data: bytes) -> bool:
    """Whether a document of this schema looks like a colour one (a cheap look)."""
    return _PALETTE_KEY.search(data) is not None


def mapping_format(name: str, description: str, suffixes: tuple[str, ...],
                   plain: tuple[Reader, Writer, Sniffer],
                   colour: tuple[ColourReader, ColourWriter]) -> FormatSpec:
    """A format of this schema (YAML, JSON): it holds many puzzles of either kind, and a
    document with a ``palette`` key is a colour one."""
    reader, writer, sniff = plain
    return FormatSpec(name, description, suffixes, reader, writer, holds_many=True,
                      sniff=sniff, colour=ColourFormat(*colour, looks_colour=has_palette))
