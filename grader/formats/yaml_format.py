"""The project's own readable format: YAML, read with the safe loader only.

One puzzle per file, or ``puzzles: [...]`` for several; the keys are described in
:mod:`grader.formats._mapping`. The writer emits flow-style clue lists, one per line,
and the solution as a block string.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import yaml

from grader import safe_yaml
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

FILE_KEYS = frozenset(("puzzles", "notes"))



def read(data: bytes, source: str) -> list[Puzzle]:
    text = decode_text(data, source)
    try:
        document = safe_yaml.load(text)
    except safe_yaml.ShapeError as exc:
        raise FormatError(f"YAML {exc.message}", source, exc.line) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise FormatError(f"not valid YAML: {problem}", source, line) from None
    except RecursionError:
        raise FormatError("YAML nested too deeply", source) from None
    except (ValueError, OverflowError) as exc:  # e.g. an integer with thousands of digits
        raise FormatError(f"not valid YAML: {str(exc)[:80]}", source) from None
    try:
        if isinstance(document, dict) and "puzzles" in document:
            for key in document:
                if key not in FILE_KEYS:
                    hint = " (an issue manifest? use 'nonopress issue')" if _is_manifest(
                        document) else ""
                    raise SchemaError(f"unknown key {key!r} beside 'puzzles'{hint}",
                                      (str(key),))
            items = document["puzzles"]
            if not isinstance(items, list) or not items:
                raise SchemaError("'puzzles' must be a non-empty list", ("puzzles",))
            return [puzzle_from_mapping(item, ("puzzles", i)) for i, item in enumerate(items)]
        return [puzzle_from_mapping(document)]
    except SchemaError as exc:
        raise FormatError(_describe(exc), source, _line_of(text, exc.path)) from None


def is_issue_manifest(data: bytes) -> bool:
    """Whether ``data`` is an issue manifest (for ``nonopress issue``) rather than puzzles."""
    try:
        document = safe_yaml.load(data.decode("utf-8-sig"))
    except (yaml.YAMLError, UnicodeError, ValueError, OverflowError, RecursionError):
        return False
    return isinstance(document, dict) and _is_manifest(document)


def _is_manifest(document: dict[Any, Any]) -> bool:
    """Issue manifests list puzzle files, not puzzles (or fill themselves from a catalogue)."""
    if isinstance(document.get("from_library"), dict):
        return True
    items = document.get("puzzles")
    return isinstance(items, list) and any(
        isinstance(item, str) or (isinstance(item, dict) and "file" in item) for item in items
    )


def _describe(exc: SchemaError) -> str:
    keys = [p for p in exc.path if isinstance(p, str)]
    if exc.path and exc.path[0] == "puzzles" and len(exc.path) > 1:
        where = f"puzzle {int(exc.path[1]) + 1}"
        where += f", {keys[1]}" if len(keys) > 1 else ""
        return f"{where}: {exc.message}"
    if keys and keys[0] not in ("rows", "columns") and not exc.message.startswith("unknown"):
        return f"{keys[0]}: {exc.message}"
    return exc.message


def _line_of(text: str, path: tuple[str | int, ...]) -> int | None:
    """The 1-based line of the node at ``path`` (composed again only to report an error)."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except (yaml.YAMLError, RecursionError):
        return None
    line = node.start_mark.line + 1 if node is not None else None
    for step in path:
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                if key_node.value == step:
                    line, node = key_node.start_mark.line + 1, value_node
                    break
            else:
                return line
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int):
            if step >= len(node.value):
                return line
            node = node.value[step]
            line = node.start_mark.line + 1
        else:
            return line
    return line


def _scalar(value: str) -> str:
    """A plain scalar when YAML reads it back unchanged, else a double-quoted one."""
    if value and value == value.strip() and "\n" not in value:
        try:
            if safe_yaml.load(f"k: {value}") == {"k": value}:
                return value
        except (yaml.YAMLError, ValueError, OverflowError):
            pass
    import json  # here: only writing YAML needs it, never reading (every check)

    quoted = json.dumps(value, ensure_ascii=False)
    return "".join(c if _yaml_printable(c) else f"\\u{ord(c):04x}" for c in quoted)


def _yaml_printable(char: str) -> bool:
    """Characters YAML allows unescaped in a double-quoted scalar."""
    code = ord(char)
    return (
        code in (0x09, 0x0A, 0x0D, 0x85)
        or 0x20 <= code <= 0x7E
        or 0xA0 <= code <= 0xD7FF
        or 0xE000 <= code <= 0xFFFD
        or 0x10000 <= code <= 0x10FFFF
    )


def _puzzle_lines(puzzle: Puzzle) -> list[str]:
    mapping: dict[str, Any] = puzzle_to_mapping(puzzle)
    lines = _meta_lines(mapping)
    for key in ("rows", "columns"):
        lines.append(f"{key}:")
        lines.extend(f"  - [{', '.join(map(str, clue))}]" for clue in mapping[key])
    lines += _block_lines("solution", puzzle.solution)
    return lines + _block_lines("givens", mapping["givens"] if puzzle.givens else None)


def _meta_lines(mapping: dict[str, Any]) -> list[str]:
    """The metadata of a puzzle of either kind (its keys with text values), one a line."""
    return [f"{k}: {_scalar(v)}" for k, v in mapping.items() if isinstance(v, str)]


def _block_lines(key: str, rows: Sequence[str] | None) -> list[str]:
    """A picture (the solution, the givens) as a literal block; nothing for None."""
    if rows is None:
        return []
    return [f"{key}: |", *(f"  {row}" for row in rows)]


def _document(puzzles: Sequence[list[str]]) -> bytes:
    """One puzzle's lines as they are, several as the items of a ``puzzles:`` list."""
    lines = puzzles[0] if len(puzzles) == 1 else ["puzzles:"]
    if len(puzzles) > 1:
        for body in puzzles:
            lines.append(f"  - {body[0]}")
            lines.extend(f"    {line}" for line in body[1:])
    return ("\n".join(lines) + "\n").encode("utf-8")


def write(puzzles: Sequence[Puzzle]) -> bytes:
    return _document([_puzzle_lines(puzzle) for puzzle in puzzles])


def sniff(data: bytes) -> bool:
    text = head_text(data)
    return any(
        line.startswith(("rows:", "columns:", "solution:", "puzzles:", "title:"))
        for line in text.splitlines()
    )


# -- colour ---------------------------------------------------------------------------------------
def read_colour(data: bytes, source: str) -> list[ColourPuzzle]:
    try:
        document = safe_yaml.load(decode_text(data, source))  # depth and aliases first
    except (yaml.YAMLError, RecursionError, ValueError, OverflowError) as exc:
        raise FormatError(f"not valid YAML: {str(exc).splitlines()[0][:80]}", source) from None
    return read_colour_documents(documents_of(document), source)


def write_colour(puzzles: Sequence[ColourPuzzle]) -> bytes:
    return _document([_colour_puzzle_lines(puzzle) for puzzle in puzzles])


def _colour_puzzle_lines(puzzle: ColourPuzzle) -> list[str]:
    import json

    mapping = colour_puzzle_to_mapping(puzzle)
    lines = _meta_lines(mapping)
    if "palette" in mapping:
        lines.append("palette:")
        lines.extend(f"  - {_flow(colour)}" for colour in mapping["palette"])
    if "background" in mapping:
        lines.append(f"background: {_flow(mapping['background'])}")
    for key in ("rows", "columns"):
        lines.append(f"{key}:")
        lines.extend(f"  - {json.dumps(c)}" for c in mapping[key])
    return lines + _block_lines("solution", puzzle.solution)


def _flow(colour: dict[str, str]) -> str:
    """A colour as a one-line mapping: ``{name: "red", rgb: "d01c1c", char: "r"}``."""
    import json

    body = ", ".join(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in colour.items())
    return f"{{{body}}}"


SPEC = mapping_format("yaml", "Nonopress YAML (clues, solution, metadata)", (".yaml", ".yml"),
                      (read, write, sniff), (read_colour, write_colour))
