"""JSON: one object per puzzle, with the same keys as the project's YAML.

Reads a single object (a puzzle, or ``{"puzzles": [...]}``), an array of objects, or JSON
Lines (one object per line). Writes JSON Lines: one compact object per puzzle per line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from grader import safe_json
from grader.colour.model import ColourPuzzle
from grader.errors import FormatError
from grader.formats._base import decode_text, head_text
from grader.formats._mapping import (
    SchemaError,
    colour_puzzle_to_mapping,
    documents_of,
    mapping_format,
    puzzle_from_mapping,
    puzzle_to_mapping,
    read_colour_documents,
)
from grader.model import Puzzle


def _puzzle(item: Any, source: str, line: int, label: str) -> Puzzle:
    try:
        return puzzle_from_mapping(item)
    except SchemaError as exc:
        keys = ".".join(str(p) for p in exc.path)
        where = f"{label}{', ' + keys if keys else ''}: " if label or keys else ""
        raise FormatError(f"{where}{exc.message}", source, line) from None


def read(data: bytes, source: str) -> list[Puzzle]:
    text = decode_text(data, source)
    lines = text.splitlines()
    records = [(n, line) for n, line in enumerate(lines, 1) if line.strip()]
    if not records:
        raise FormatError("empty input", source, 1)
    # JSON Lines when every non-blank line is an object of its own.
    if len(records) > 1 and all(line.lstrip().startswith("{") and line.rstrip().endswith("}")
                                for _, line in records):
        try:
            items = [(n, safe_json.parse(line)) for n, line in records]
        except (ValueError, RecursionError):
            items = []
        if items:
            return [_puzzle(obj, source, n, f"puzzle {i}") for i, (n, obj) in
                    enumerate(items, 1)]
    document = safe_json.load(text, source)
    if isinstance(document, dict) and "puzzles" in document:
        document = document["puzzles"]
        if not isinstance(document, list):
            raise FormatError("'puzzles' must be a list", source, 1)
    if isinstance(document, list):
        if not document:
            raise FormatError("an empty list holds no puzzle", source, 1)
        return [_puzzle(obj, source, 1, f"puzzle {i}") for i, obj in enumerate(document, 1)]
    return [_puzzle(document, source, 1, "")]


def to_json_object(puzzle: Puzzle) -> dict[str, Any]:
    """The JSON object for a puzzle (also what ``nonopress info --json`` builds on)."""
    return puzzle_to_mapping(puzzle)


def write(puzzles: Sequence[Puzzle]) -> bytes:
    lines = [json.dumps(to_json_object(p), ensure_ascii=False) for p in puzzles]
    return ("\n".join(lines) + "\n").encode("utf-8")


def sniff(data: bytes) -> bool:
    return re.match(r"\s*(\{|\[\s*[{\]])", head_text(data, 256)) is not None


# -- colour ---------------------------------------------------------------------------------------
def read_colour(data: bytes, source: str) -> list[ColourPuzzle]:
    text = decode_text(data, source)
    lines = [line for line in text.splitlines() if line.strip()]
    try:
        if len(lines) > 1 and all(line.lstrip().startswith("{") for line in lines):
            documents = [safe_json.parse(line) for line in lines]
        else:
            documents = documents_of(safe_json.parse(text))
    except (ValueError, RecursionError) as exc:
        raise FormatError(f"not valid JSON: {str(exc)[:80]}", source) from None
    return read_colour_documents(documents, source)


def write_colour(puzzles: Sequence[ColourPuzzle]) -> bytes:
    return ("\n".join(json.dumps(colour_puzzle_to_mapping(p), ensure_ascii=False) for p in puzzles)
            + "\n").encode("utf-8")


SPEC = mapping_format("json", "JSON, one object per puzzle (same keys as the YAML format)",
                      (".json", ".jsonl"), (read, write, sniff), (read_colour, write_colour))
