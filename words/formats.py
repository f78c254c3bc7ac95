"""Grid files: the text form (``.txt``, ``.grid``), ipuz (``.ipuz``, JSON, read and
written here) and Across Lite ``.puz`` (through ``puzpy``). Chosen by suffix, else by
content.

A read gives the grid with whatever letters the file holds (the solution when it has one)
and its title and author. A fill-in is written with its starter's letters as given values
and its word list, grouped by length, in the notes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grader import safe_json
from grader.errors import FormatError
from grader.inputs import read_input_bytes
from words.fillin import FillIn
from words.grid import BLOCK, EMPTY, LETTERS, MAX_SIDE, Grid, parse_grid

IPUZ_VERSION = "http://ipuz.org/v2"
IPUZ_KIND = "http://ipuz.org/crossword#1"
MAX_FILE_BYTES = 4 * 1024 * 1024
FORMATS = ("text", "ipuz", "puz")


@dataclass(frozen=True)
class GridFile:
    grid: Grid
    title: str = ""
    author: str = ""
    copyright: str = ""


def format_of(path: str | Path, data: bytes | None = None) -> str:
    suffix = Path(path).suffix.lower()
    if suffix in (".ipuz", ".json"):
        return "ipuz"
    if suffix == ".puz":
        return "puz"
    if suffix in (".txt", ".grid", ".text", ""):
        return "text"
    if data is not None:
        if b"ACROSS&DOWN" in data[:64]:
            return "puz"
        if data.lstrip()[:1] in (b"{", b"i"):
            return "ipuz"
    return "text"


def read_grid_file(path: str | Path) -> GridFile:
    """Read a grid file; FormatError names the file (and line) on anything wrong."""
    source = Path(path)
    name = str(source)
    try:
        if source.stat().st_size > MAX_FILE_BYTES:
            raise FormatError(f"larger than {MAX_FILE_BYTES >> 20} MiB: not a grid", name)
        data = read_input_bytes(source, name)  # a FIFO only with a deadline
    except FileNotFoundError:
        raise FormatError("file not found", name) from None
    except IsADirectoryError:
        raise FormatError("is a folder, not a grid file", name) from None
    except OSError as exc:
        raise FormatError(f"cannot read: {exc.strerror or exc}", name) from None
    kind = format_of(source, data)
    if kind == "puz":
        return read_puz(data, name)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise FormatError("not UTF-8 text", name) from None
    if kind == "ipuz":
        return read_ipuz(text, name)
    return GridFile(parse_grid(text, name))


# -- ipuz ------------------------------------------------------------------------------------
def read_ipuz(text: str, source: str = "<ipuz>") -> GridFile:
    body = text.strip()
    if body.startswith("ipuz(") and body.endswith(")"):  # the JSONP wrapper some sites use
        body = body[5:-1]
    data = safe_json.load(body, source)
    if not isinstance(data, dict):
        raise FormatError("an ipuz file is a JSON object", source)
    kinds = data.get("kind")
    if not isinstance(kinds, list) or not any(
            isinstance(k, str) and "ipuz.org/crossword" in k for k in kinds):
        raise FormatError("not an ipuz crossword (kind lacks http://ipuz.org/crossword)",
                          source)
    dims = data.get("dimensions")
    if not isinstance(dims, dict):
        raise FormatError("ipuz: 'dimensions' missing", source)
    width, height = dims.get("width"), dims.get("height")
    if not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= MAX_SIDE
               for v in (width, height)):
        raise FormatError(f"ipuz: dimensions must be whole numbers from 1 to {MAX_SIDE}",
                          source)
    assert isinstance(width, int) and isinstance(height, int)
    block = str(data.get("block", "#"))
    empty = data.get("empty", 0)
    puzzle = _rows(data.get("puzzle"), width, height, "puzzle", source)
    solution = _rows(data.get("solution"), width, height, "solution", source) \
        if data.get("solution") is not None else None
    rows: list[str] = []
    for r in range(height):
        row = []
        for c in range(width):
            cell = puzzle[r][c]
            if cell is None or _plain(cell) == block:
                row.append(BLOCK)
                continue
            letter = _letter(solution[r][c]) if solution else ""
            if not letter and isinstance(cell, dict):
                letter = _letter(cell.get("value"))
            if not letter and _plain(cell) != empty:
                letter = _letter(cell) if isinstance(cell, str) else ""
            row.append(letter or EMPTY)
        rows.append("".join(row))
    try:
        grid = Grid(tuple(rows))
    except FormatError as exc:
        raise exc.located(source) from None
    return GridFile(grid, _str(data.get("title")), _str(data.get("author")),
                    _str(data.get("copyright")))


def _rows(value: object, width: int, height: int, what: str, source: str) -> list[list[Any]]:
    if not isinstance(value, list) or len(value) != height or not all(
            isinstance(row, list) and len(row) == width for row in value):
        raise FormatError(f"ipuz: '{what}' must be {height} rows of {width} cells", source)
    return value


def _plain(cell: object) -> object:
    return cell.get("cell", 0) if isinstance(cell, dict) else cell


def _letter(value: object) -> str:
    if isinstance(value, dict):
        value = value.get("value")
    if isinstance(value, str) and len(value) == 1 and value.upper() in LETTERS:
        return value.upper()
    return ""


def _str(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


def word_list_note(puzzle: FillIn) -> str:
    lines = []
    for length, group in puzzle.words_by_length().items():
        lines.append(f"{length} letters: {', '.join(group)}")
    return "\n".join(lines)


def write_ipuz(grid: Grid, title: str = "", author: str = "",
               fillin: FillIn | None = None) -> str:
    """The grid as an ipuz crossword; a complete grid gives its solution. A fill-in gives
    its blank grid, the starter's letters as given values and the word list in the notes."""
    numbers = {(s.row, s.column): s.number for s in grid.slots}
    shown = fillin.givens if fillin is not None else grid
    puzzle: list[list[Any]] = []
    solution: list[list[Any]] = []
    for r in range(grid.height):
        prow: list[Any] = []
        srow: list[Any] = []
        for c in range(grid.width):
            if not grid.is_white(r, c):
                prow.append("#")
                srow.append("#")
                continue
            number = numbers.get((r, c), 0)
            given = shown.at(r, c)
            prow.append({"cell": number, "value": given} if given in LETTERS else number)
            srow.append(grid.at(r, c) if grid.at(r, c) in LETTERS else None)
        puzzle.append(prow)
        solution.append(srow)
    data: dict[str, Any] = {
        "version": IPUZ_VERSION,
        "kind": [IPUZ_KIND],
        "dimensions": {"width": grid.width, "height": grid.height},
        "puzzle": puzzle,
        "clues": {
            "Across": [[s.number, ""] for s in grid.slots if s.direction == "across"],
            "Down": [[s.number, ""] for s in grid.slots if s.direction == "down"],
        },
    }
    if grid.is_complete:
        data["solution"] = solution
    if title:
        data["title"] = title
    if author:
        data["author"] = author
    if fillin is not None:
        data["notes"] = "Fill-in: place every word of the list once.\n" + word_list_note(fillin)
    return _json_rows(data)


def _json_rows(data: dict[str, Any]) -> str:
    """JSON with one key a line and one grid row a line: readable and diffable."""
    parts = []
    for key, value in data.items():
        if key in ("puzzle", "solution"):
            rows = ",\n  ".join(json.dumps(row, ensure_ascii=False) for row in value)
            text = f"[\n  {rows}\n ]"
        else:
            text = json.dumps(value, ensure_ascii=False)
        parts.append(f" {json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


# -- Across Lite .puz ------------------------------------------------------------------------
def read_puz(data: bytes, source: str = "<puz>") -> GridFile:
    import puz

    try:
        loaded = puz.load(data)
    except Exception as exc:  # puzpy raises its own and struct errors on damaged files
        raise FormatError(f"not a readable .puz file: {exc}", source) from None
    width, height = int(loaded.width), int(loaded.height)
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise FormatError(f".puz: size {width}x{height} out of range", source)
    text = str(loaded.solution)
    if len(text) != width * height:
        raise FormatError(".puz: the solution does not match the size", source)
    rows = []
    for r in range(height):
        chunk = text[r * width:(r + 1) * width]
        rows.append("".join(
            BLOCK if ch in ".:" else ch.upper() if ch.upper() in LETTERS else EMPTY
            for ch in chunk))
    try:
        grid = Grid(tuple(rows))
    except FormatError as exc:
        raise exc.located(source) from None
    return GridFile(grid, str(loaded.title or ""), str(loaded.author or ""),
                    str(loaded.copyright or ""))


def write_puz(grid: Grid, title: str = "", author: str = "",
              fillin: FillIn | None = None) -> bytes:
    """An Across Lite file: needs a complete grid (the format stores the solution)."""
    import puz

    if not grid.is_complete:
        raise FormatError("a .puz file stores the solution: fill the grid first")
    shown = fillin.givens if fillin is not None else grid.blank()
    out = puz.Puzzle()
    out.width, out.height = grid.width, grid.height
    out.solution = "".join(row.replace(BLOCK, ".") for row in grid.rows)
    out.fill = "".join(
        "." if ch == BLOCK else ch if ch in LETTERS else "-" for row in shown.rows for ch in row)
    out.title = title
    out.author = author
    # Across Lite wants one clue per entry, in number order, across before down at a number.
    ordered = sorted(grid.slots, key=lambda s: (s.number, s.direction != "across"))
    out.clues = [f"({s.length})" for s in ordered]
    if fillin is not None:
        out.notes = word_list_note(fillin)
    return bytes(out.tobytes())


def write_grid(grid: Grid, kind: str, title: str = "", author: str = "",
               fillin: FillIn | None = None) -> bytes:
    if kind == "ipuz":
        return write_ipuz(grid, title, author, fillin).encode("utf-8")
    if kind == "puz":
        return write_puz(grid, title, author, fillin)
    return grid.to_text().encode("utf-8")
