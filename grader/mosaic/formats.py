"""Mosaic files: the YAML form, JSON, the game ID of kohend/simon-puzzles' Mosaic, and the
solution as a picture (``#``/``.`` text, PBM, PNG).

YAML::

    kind: mosaic
    title: Heart            # optional, with author, copyright, license, source
    clues:                  # one string a row: a digit 0-9 (a clue) or '.' (none)
      - "..3.."
      - ".5.5."
    solution: |             # optional: the intended picture, checked against the clues
      .##.
      ...

JSON holds the same keys (an object, or a list of them). The game ID is
``WxH:DESC`` (``WxHa0:`` too): DESC has a digit per clue and, for cells without one, a
letter ``a``-``z`` standing for a run of 1-26 of them (a space for one, as early versions
wrote). A picture read as a mosaic shows every clue; writing a picture needs the solution.
Every problem is a FormatError naming the file, and the line, row and column when known.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from grader import safe_json, safe_yaml
from grader.errors import FormatError, PuzzleError
from grader.formats import picture_text, pictures
from grader.formats._base import decode_text
from grader.inputs import read_input_bytes
from grader.model import Metadata, Puzzle, check_size
from grader.mosaic_model import NO_CLUE, MosaicPuzzle, parse_clue_rows

KIND = "mosaic"
META_KEYS = ("title", "author", "copyright", "license", "source")
KEYS = frozenset(("kind", "clues", "solution", *META_KEYS))
#: the longest run of clue-less cells one letter of a game ID stands for
LONGEST_RUN = 26
_GAME_ID = re.compile(r"^(\d+)x(\d+)(?:a\d+)?:([0-9a-z ]*)$")
_ROW = re.compile(r"^row (\d+)\b")


# -- building, with errors located -------------------------------------------------------
def _build(rows: Sequence[Any], solution: Any, meta: dict[str, str], source: str,
           row_lines: Sequence[int | None] = (), line: int | None = None) -> MosaicPuzzle:
    """A MosaicPuzzle; a PuzzleError becomes a FormatError at the line of the row it names
    (``row_lines[i]``: the file's line of clue row i + 1), else at ``line``."""
    try:
        if not isinstance(rows, list) or not rows:
            raise PuzzleError("'clues' must be a non-empty list of rows (strings of digits "
                              "and '.')")
        clues = parse_clue_rows([str(r) if isinstance(r, int) and not isinstance(r, bool)
                                 else r for r in rows])
        known = _solution_rows(solution)
        return MosaicPuzzle(clues, known, Metadata(**meta))
    except PuzzleError as exc:
        message = str(exc)
        where = _ROW.match(message)
        at = line
        if where and int(where.group(1)) <= len(row_lines):
            at = row_lines[int(where.group(1)) - 1] or line
        raise FormatError(message, source, at) from None
    except TypeError as exc:
        raise FormatError(f"not a mosaic: {exc}", source, line) from None


def _solution_rows(value: Any) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return tuple(r.strip() for r in value.strip().splitlines() if r.strip())
    if isinstance(value, list) and all(isinstance(r, str) for r in value):
        return tuple(value)
    raise PuzzleError("'solution' must be rows of '#' and '.' (a list or a block string)")


def _meta(data: dict[Any, Any], source: str, line: int | None) -> dict[str, str]:
    meta: dict[str, str] = {}
    for key in META_KEYS:
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, (str, int, float)) or isinstance(value, bool):
            raise FormatError(f"'{key}' must be text", source, line)
        meta[key] = str(value)
    return meta


def _check_keys(data: Any, source: str, line: int | None) -> dict[Any, Any]:
    if not isinstance(data, dict):
        raise FormatError("a mosaic must be a mapping with 'kind: mosaic' and 'clues'", source,
                          line)
    if data.get("kind") != KIND:
        raise FormatError(f"not a mosaic: 'kind' must be {KIND!r}, not {data.get('kind')!r}",
                          source, line)
    unknown = sorted(str(k) for k in data if k not in KEYS)
    if unknown:
        raise FormatError(f"unknown key {unknown[0]!r} (a mosaic has "
                          f"{', '.join(sorted(KEYS))})", source, line)
    return data


# -- YAML ----------------------------------------------------------------------------------
def _yaml_error(exc: Exception, source: str) -> FormatError:
    if isinstance(exc, safe_yaml.ShapeError):
        return FormatError(f"YAML {exc.message}", source, exc.line)
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line = mark.line + 1 if mark is not None else None
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    return FormatError(f"not valid YAML: {problem}", source, line)


def read_yaml(data: bytes, source: str) -> list[MosaicPuzzle]:
    """One mosaic a file. Clue rows are read as written (``0120`` stays ``0120``, not the
    number YAML would make of it)."""
    text = decode_text(data, source)
    try:
        document = safe_yaml.load(text)
        root = safe_yaml.compose(text)
    except (yaml.YAMLError, safe_yaml.ShapeError) as exc:
        raise _yaml_error(exc, source) from None
    except (RecursionError, ValueError, OverflowError) as exc:
        raise FormatError(f"not valid YAML: {str(exc)[:80]}", source) from None
    document = _check_keys(document, source, 1)
    rows: list[Any] = document.get("clues")  # type: ignore[assignment]
    lines: list[int | None] = []
    clues_line: int | None = 1
    if isinstance(root, yaml.MappingNode):
        for key, value in root.value:
            if key.value == "clues":
                clues_line = key.start_mark.line + 1
                if isinstance(value, yaml.SequenceNode):
                    rows = [item.value if isinstance(item, yaml.ScalarNode) else None
                            for item in value.value]
                    lines = [item.start_mark.line + 1 for item in value.value]
    if "clues" not in document:
        raise FormatError("a mosaic needs 'clues': one string a row", source, 1)
    return [_build(rows, document.get("solution"), _meta(document, source, 1), source,
                   lines, clues_line)]


def _mapping(puzzle: MosaicPuzzle) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": KIND, **puzzle.meta.as_dict(), "clues": puzzle.rows_text()}
    if puzzle.solution is not None:
        data["solution"] = list(puzzle.solution)
    return data


def write_yaml(puzzles: Sequence[MosaicPuzzle]) -> bytes:
    """The YAML form; rows quoted, so that a row of digits stays text."""
    (puzzle,) = puzzles
    lines = [f"kind: {KIND}"]
    lines += [f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in puzzle.meta.as_dict().items()]
    lines.append("clues:")
    lines += [f'  - "{row}"' for row in puzzle.rows_text()]
    if puzzle.solution is not None:
        lines.append("solution: |")
        lines += [f"  {row}" for row in puzzle.solution]
    return ("\n".join(lines) + "\n").encode("utf-8")


# -- JSON ----------------------------------------------------------------------------------
def read_json(data: bytes, source: str) -> list[MosaicPuzzle]:
    document = safe_json.load(decode_text(data, source), source)
    items = document if isinstance(document, list) else [document]
    if not items:
        raise FormatError("no mosaic in the JSON list", source, 1)
    puzzles = []
    for number, item in enumerate(items, 1):
        label = source if len(items) == 1 else f"{source} (mosaic {number})"
        item = _check_keys(item, label, None)
        if "clues" not in item:
            raise FormatError("a mosaic needs 'clues': one string a row", label)
        puzzles.append(_build(item["clues"], item.get("solution"), _meta(item, label, None),
                              label))
    return puzzles


def write_json(puzzles: Sequence[MosaicPuzzle]) -> bytes:
    items = [_mapping(p) for p in puzzles]
    document: Any = items[0] if len(items) == 1 else items
    return (json.dumps(document, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


# -- kohend/simon-puzzles game IDs -----------------------------------------------------
def _parse_game_id(text: str, source: str, line: int) -> MosaicPuzzle:
    match = _GAME_ID.match(text)
    if not match:
        raise FormatError("not a Mosaic game ID (expected WxH:DESC, DESC of digits and "
                          "letters a-z)", source, line)
    if len(match.group(1)) > 6 or len(match.group(2)) > 6:
        raise FormatError("the grid's size is absurdly large", source, line)
    width, height = int(match.group(1)), int(match.group(2))
    try:
        check_size(width, height)  # before a cell is allocated
    except PuzzleError as exc:
        raise FormatError(str(exc), source, line) from None
    cells: list[int | None] = []
    for char in match.group(3):
        if char.isdigit():
            cells.append(int(char))
        else:
            cells.extend([None] * (1 if char == " " else ord(char) - ord("a") + 1))
        if len(cells) > width * height:
            break
    if len(cells) != width * height:
        raise FormatError(f"the description holds {len(cells)} cells, a {width}x{height} "
                          f"grid {width * height}", source, line)
    rows = [tuple(cells[r * width:(r + 1) * width]) for r in range(height)]
    try:
        return MosaicPuzzle(tuple(rows))
    except PuzzleError as exc:
        raise FormatError(str(exc), source, line) from None


def read_game_id(data: bytes, source: str) -> list[MosaicPuzzle]:
    """Game IDs, one a line (blank lines and ``#`` comments skipped)."""
    puzzles = []
    for number, raw in enumerate(decode_text(data, source).splitlines(), 1):
        line = raw.rstrip("\r\n").lstrip()  # trailing spaces are cells in early IDs
        if line.strip() and not line.startswith("#"):
            puzzles.append(_parse_game_id(line, source, number))
    if not puzzles:
        raise FormatError("no game ID in the input", source, 1)
    return puzzles


def game_id(puzzle: MosaicPuzzle) -> str:
    """``WxH:DESC`` as mosaic.c writes it: a digit a clue, a letter a run of clue-less cells."""
    parts: list[str] = []
    run = 0
    for row in puzzle.clues:
        for clue in row:
            if clue is None:
                run += 1
                if run == LONGEST_RUN:
                    parts.append("z")
                    run = 0
                continue
            if run:
                parts.append(chr(ord("a") + run - 1))
                run = 0
            parts.append(str(clue))
    if run:
        parts.append(chr(ord("a") + run - 1))
    return f"{puzzle.width}x{puzzle.height}:{''.join(parts)}"


def write_game_id(puzzles: Sequence[MosaicPuzzle]) -> bytes:
    return "".join(game_id(p) + "\n" for p in puzzles).encode("ascii")


# -- pictures: the solution ----------------------------------------------------------------
def _from_pictures(reader: Callable[[bytes, str], list[Puzzle]]
                   ) -> Callable[[bytes, str], list[MosaicPuzzle]]:
    def read(data: bytes, source: str) -> list[MosaicPuzzle]:
        found = []
        for puzzle in reader(data, source):
            picture = puzzle.solution_array()
            assert picture is not None  # a picture reader always gives its picture
            found.append(MosaicPuzzle.from_picture(picture, meta=puzzle.meta))
        return found

    return read


def _to_pictures(writer: Callable[[Sequence[Puzzle]], bytes], name: str
                 ) -> Callable[[Sequence[MosaicPuzzle]], bytes]:
    def write(puzzles: Sequence[MosaicPuzzle]) -> bytes:
        drawn = []
        for puzzle in puzzles:
            picture = puzzle.solution_array()
            if picture is None:
                raise FormatError(f"{name} is a picture of the solution, and this mosaic has "
                                  "none yet (grade or solve it first)")
            drawn.append(Puzzle.from_picture(picture, puzzle.meta))
        return writer(drawn)

    return write


_PNG_WRITER = pictures.PNG_SPEC.writer
assert _PNG_WRITER is not None  # the PNG format writes pictures


# -- the table -----------------------------------------------------------------------------
@dataclass(frozen=True)
class MosaicFormat:
    name: str
    description: str
    suffixes: tuple[str, ...]
    reader: Callable[[bytes, str], list[MosaicPuzzle]]
    writer: Callable[[Sequence[MosaicPuzzle]], bytes]
    #: at most one mosaic a file
    single: bool = True


FORMATS: dict[str, MosaicFormat] = {f.name: f for f in (
    MosaicFormat("yaml", "the YAML form (kind: mosaic)", (".yaml", ".yml"), read_yaml,
                 write_yaml),
    MosaicFormat("json", "JSON (an object, or a list of them)", (".json",), read_json,
                 write_json, single=False),
    MosaicFormat("tatham", "game IDs of kohend/simon-puzzles' Mosaic, one a line",
                 (".mosaic",), read_game_id, write_game_id, single=False),
    MosaicFormat("picture", "the solution as '#'/'.' text", (".txt",),
                 _from_pictures(picture_text.read), _to_pictures(picture_text.write, "picture")),
    MosaicFormat("pbm", "the solution as a PBM picture", (".pbm",),
                 _from_pictures(pictures.read_pbm), _to_pictures(pictures.write_pbm, "pbm")),
    MosaicFormat("png", "the solution as a PNG picture", (".png",),
                 _from_pictures(pictures.read_image),
                 _to_pictures(_PNG_WRITER, "png")),
)}


def detect(data: bytes, name: str | None = None) -> MosaicFormat:
    """The format by the name's suffix, else by the content."""
    if name:
        suffix = Path(name).suffix.lower()
        for spec in FORMATS.values():
            if suffix in spec.suffixes:
                return spec
    head = data[:4096].lstrip()
    if head.startswith(b"\x89PNG"):
        return FORMATS["png"]
    if head[:2] in (b"P1", b"P4"):
        return FORMATS["pbm"]
    if head[:1] in (b"{", b"["):
        return FORMATS["json"]
    if re.match(rb"\d+x\d+(a\d+)?:", head):
        return FORMATS["tatham"]
    if re.search(rb"^kind:\s*mosaic\b", head, re.MULTILINE):
        return FORMATS["yaml"]
    return FORMATS["picture"]


def get_format(name: str) -> MosaicFormat:
    spec = FORMATS.get(name.lower())
    if spec is None:
        raise FormatError(f"unknown mosaic format {name!r} (known: {', '.join(FORMATS)})")
    return spec


def read(source: str | Path | bytes, *, format: str | None = None, name: str | None = None
         ) -> list[MosaicPuzzle]:
    """Mosaics from a path or bytes (``name`` labels bytes in messages and picks the format
    by suffix)."""
    if isinstance(source, bytes):
        data, label = source, name or "<input>"
    else:
        label = str(source)
        data = read_input_bytes(source, label)
    spec = get_format(format) if format else detect(data, name or label)
    return spec.reader(data, label)


def write(puzzles: MosaicPuzzle | Sequence[MosaicPuzzle], format: str) -> bytes:
    items = [puzzles] if isinstance(puzzles, MosaicPuzzle) else list(puzzles)
    spec = get_format(format)
    if spec.single and len(items) != 1:
        raise FormatError(f"the {spec.name} format holds one mosaic a file, not {len(items)}")
    return spec.writer(items)


def picture_array(puzzle: MosaicPuzzle) -> np.ndarray[Any, Any] | None:
    """The known solution, for callers that draw it."""
    return puzzle.solution_array()


__all__ = [
    "FORMATS",
    "KIND",
    "NO_CLUE",
    "MosaicFormat",
    "detect",
    "game_id",
    "get_format",
    "read",
    "read_game_id",
    "read_json",
    "read_yaml",
    "write",
    "write_game_id",
    "write_json",
    "write_yaml",
]
