"""Colour puzzles in the project's YAML and JSON: the black-and-white keys plus ``palette``::

    title: Cherries
    palette:                      # block colours in order; background optional
      - {name: red, rgb: "d01c1c", char: r, symbol: A}
      - {name: green, rgb: "2e8b3a", char: g}
    background: {name: white, rgb: "ffffff", char: "."}
    rows: ["1g", "2r 1r", ...]    # or [[2, red], [1, green]]: (length, colour name or char)
    columns: [...]
    solution: |                   # optional, the palette's chars
      .g.
      r.r

``rows``/``columns`` may be left out when ``solution`` is given.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import yaml

from grader import safe_json, safe_yaml
from grader.colour.formats._base import ColourFormat, parse_colour_clue
from grader.colour.model import (
    ColourClue,
    ColourPuzzle,
    clues_of_colour_picture,
    rows_to_colour_array,
)
from grader.colour.palette import WHITE, Colour, Palette, parse_rgb
from grader.errors import FormatError, PuzzleError
from grader.formats._base import decode_text
from grader.formats._mapping import META_KEYS
from grader.formats.yaml_format import _scalar
from grader.model import MAX_SIDE, Metadata

KNOWN_KEYS = frozenset((*META_KEYS, "palette", "background", "rows", "columns", "solution",
                        "difficulty", "expected", "notes"))


def _colour(item: Any, where: str) -> Colour:
    if not isinstance(item, dict):
        raise PuzzleError(f"{where}: a colour is a mapping of name, rgb, char (and symbol)")
    name = str(item.get("name", "")).strip()
    rgb = parse_rgb(str(item.get("rgb", name)))
    if rgb is None:
        raise PuzzleError(f"{where}: cannot read rgb {item.get('rgb')!r}")
    char = str(item.get("char", name[:1]))
    return Colour(name, rgb, char, str(item.get("symbol", "") or ""))


def _clue(item: Any, palette: Palette, suffixes: dict[str, int], where: str) -> ColourClue:
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


def puzzle_from_mapping(data: Any, where: str) -> ColourPuzzle:
    if not isinstance(data, dict):
        raise PuzzleError(f"{where}a puzzle must be a mapping")
    unknown = [k for k in data if k not in KNOWN_KEYS]
    if unknown:
        raise PuzzleError(f"{where}unknown key {unknown[0]!r}")
    items = data.get("palette")
    if not isinstance(items, list) or not items:
        raise PuzzleError(f"{where}palette must be a non-empty list of colours")
    colours = tuple(_colour(item, f"{where}palette {i}") for i, item in enumerate(items, 1))
    background = WHITE
    if data.get("background") is not None:
        background = _colour(data["background"], f"{where}background")
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
        clues[key] = tuple(_clue(item, palette, suffixes, f"{where}{key[:-1]} {i}")
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


def puzzle_to_mapping(puzzle: ColourPuzzle) -> dict[str, Any]:
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


def _documents(document: Any) -> list[Any]:
    if isinstance(document, dict) and "puzzles" in document:
        document = document["puzzles"]
    return document if isinstance(document, list) else [document]


def _read_documents(documents: list[Any], source: str) -> list[ColourPuzzle]:
    puzzles = []
    for i, item in enumerate(documents, 1):
        where = f"puzzle {i}: " if len(documents) > 1 else ""
        try:
            puzzles.append(puzzle_from_mapping(item, where))
        except PuzzleError as exc:
            raise FormatError(str(exc), source) from None
    return puzzles


def read_yaml(data: bytes, source: str) -> list[ColourPuzzle]:
    try:
        document = safe_yaml.load(decode_text(data, source))  # depth and aliases first
    except (yaml.YAMLError, RecursionError, ValueError, OverflowError) as exc:
        raise FormatError(f"not valid YAML: {str(exc).splitlines()[0][:80]}", source) from None
    return _read_documents(_documents(document), source)


def read_json(data: bytes, source: str) -> list[ColourPuzzle]:
    text = decode_text(data, source)
    lines = [line for line in text.splitlines() if line.strip()]
    try:
        if len(lines) > 1 and all(line.lstrip().startswith("{") for line in lines):
            documents = [safe_json.parse(line) for line in lines]
        else:
            documents = _documents(safe_json.parse(text))
    except (ValueError, RecursionError) as exc:
        raise FormatError(f"not valid JSON: {str(exc)[:80]}", source) from None
    return _read_documents(documents, source)


def write_yaml(puzzles: Sequence[ColourPuzzle]) -> bytes:
    blocks = []
    for puzzle in puzzles:
        mapping = puzzle_to_mapping(puzzle)
        lines = [f"{k}: {_scalar(v)}" for k, v in mapping.items() if isinstance(v, str)]
        for key in ("palette", "background"):
            if key not in mapping:
                continue
            lines.append(f"{key}:")
            values = mapping[key] if key == "palette" else [mapping[key]]
            for colour in values:
                body = ", ".join(f"{k}: {json.dumps(v, ensure_ascii=False)}"
                                 for k, v in colour.items())
                lines.append(f"  {'- ' if key == 'palette' else ''}{{{body}}}")
            if key == "background":
                lines[-1] = "background: " + lines[-1].strip()
                del lines[-2]
        for key in ("rows", "columns"):
            lines.append(f"{key}:")
            lines.extend(f"  - {json.dumps(c)}" for c in mapping[key])
        if puzzle.solution is not None:
            lines.append("solution: |")
            lines.extend(f"  {row}" for row in puzzle.solution)
        blocks.append(lines)
    if len(blocks) == 1:
        return ("\n".join(blocks[0]) + "\n").encode("utf-8")
    out = ["puzzles:"]
    for lines in blocks:
        out.extend(("  - " if i == 0 else "    ") + line for i, line in enumerate(lines))
    return ("\n".join(out) + "\n").encode("utf-8")


def write_json(puzzles: Sequence[ColourPuzzle]) -> bytes:
    return ("\n".join(json.dumps(puzzle_to_mapping(p), ensure_ascii=False) for p in puzzles)
            + "\n").encode("utf-8")


def looks_colour_yaml(data: bytes) -> bool:
    return re.search(rb"^[ \t-]*palette\s*:", data, re.MULTILINE) is not None


def looks_colour_json(data: bytes) -> bool:
    return b'"palette"' in data


YAML_FORMAT = ColourFormat("yaml", read_yaml, write_yaml, looks_colour_yaml, holds_many=True)
JSON_FORMAT = ColourFormat("json", read_json, write_json, looks_colour_json, holds_many=True)
