"""A request's JSON -> a puzzle, with sizes checked before anything is allocated.

A puzzle comes as ``{"rows": [[3, 1], ...], "columns": [...]}`` (clues) or as
``{"grid": ["#..#", ...]}`` (the picture; ``#`` filled, ``.`` empty), or, for a kind with a
reader of its own, as ``{"kind": "mosaic", "clues": ["1.3", ...]}`` (its JSON form).
A colour picture adds ``"palette": [{"name": "red", "rgb": "d7261e", "char": "r"}, ...]``
and uses those chars. ``"title"`` is optional. Everything wrong is a
:class:`RequestRefused` naming the field.
"""

from __future__ import annotations

from typing import Any

from grader.colour.palette import Colour, Palette, parse_rgb
from grader.errors import NonopressError
from grader.kinds import kind_of, puzzle_from_rows
from grader.model import Metadata, Puzzle
from nonopress.app.loading import LoadedPuzzle
from nonopress.studio.security import RequestRefused

#: how a puzzle sent by the page or a script is labelled in records
LABEL = "<studio>"
MAX_TITLE = 200


def bad(message: str) -> RequestRefused:
    return RequestRefused(400, message)


def _side(value: int, what: str, limit: int) -> None:
    if not 1 <= value <= limit:
        raise bad(f"{what}: {value} lines; the studio takes 1 to {limit}")


def _clues(value: object, what: str, limit: int) -> list[list[int]]:
    if not isinstance(value, list):
        raise bad(f"{what} must be a list of clues (lists of whole numbers)")
    _side(len(value), what, limit)
    clues: list[list[int]] = []
    for i, clue in enumerate(value, 1):
        if not isinstance(clue, list) or len(clue) > limit:
            raise bad(f"{what} {i}: a clue is a list of at most {limit} whole numbers")
        if any(isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= limit
               for n in clue):
            raise bad(f"{what} {i}: numbers must be whole numbers from 0 to {limit}")
        clues.append(clue)
    return clues


def _grid(value: object, limit: int) -> list[str]:
    if not isinstance(value, list) or not value:
        raise bad("grid must be a list of row strings, e.g. [\"#..#\", \".##.\"]")
    _side(len(value), "grid", limit)
    if not all(isinstance(row, str) for row in value):
        raise bad("grid: every row must be a string")
    width = len(value[0])
    _side(width, "grid row", limit)
    if any(len(row) != width for row in value):
        raise bad("grid: rows differ in length")
    return list(value)


def _palette(value: object) -> Palette:
    if not isinstance(value, list) or not 1 <= len(value) <= 32:
        raise bad("palette must be a list of 1 to 32 colours")
    colours = []
    for i, item in enumerate(value, 1):
        if not isinstance(item, dict):
            raise bad(f"palette colour {i} must be an object with name, rgb and char")
        rgb = parse_rgb(str(item.get("rgb", "")))
        if rgb is None:
            raise bad(f"palette colour {i}: rgb {item.get('rgb')!r} is not a colour")
        try:
            colours.append(Colour(str(item.get("name", "")), rgb, str(item.get("char", ""))))
        except NonopressError as exc:
            raise bad(f"palette colour {i}: {exc}") from None
    try:
        return Palette(tuple(colours))
    except NonopressError as exc:
        raise bad(f"palette: {exc}") from None


def _givens(value: object, height: int, width: int) -> list[tuple[int, int, bool]]:
    """Cells printed in the grid: [[row, column, filled], ...], 0-based."""
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > height * width:
        raise bad("givens must be a list of [row, column, filled] (0-based)")
    givens = []
    for item in value:
        if (not isinstance(item, list) or len(item) != 3
                or any(isinstance(v, bool) or not isinstance(v, int) for v in item[:2])):
            raise bad("givens must be a list of [row, column, filled] (0-based)")
        givens.append((item[0], item[1], bool(item[2])))
    return givens


def _meta(body: dict[str, Any]) -> Metadata:
    title = body.get("title", "")
    if not isinstance(title, str):
        raise bad("title must be a string")
    return Metadata(title=title[:MAX_TITLE])


def _own_form(body: dict[str, Any], max_side: int) -> LoadedPuzzle | None:
    """A puzzle of a kind with a reader of its own (the mosaic), sent in that kind's JSON
    form (``{"kind": "mosaic", "clues": ["1.3", ...], "grid": [...]}``: the grid, when
    sent, its solution), read by the kind's own reader as a file of it would be; None for
    a body of the line puzzles' forms."""
    from grader.kinds import BY_TAG

    tag = body.get("kind")
    entry = BY_TAG.get(tag) if isinstance(tag, str) else None
    if entry is None or entry.read is None:
        return None
    if not entry.editor:
        raise bad(f"kind: the studio's editor does not edit {entry.name} puzzles")
    clues = body.get("clues")
    if not isinstance(clues, list) or not clues or not all(isinstance(r, str) for r in clues):
        raise bad(f"clues must be a list of row strings for a {tag} puzzle")
    _side(len(clues), "clues", max_side)
    _side(max(len(r) for r in clues), "clues row", max_side)
    document: dict[str, Any] = {"kind": tag, "title": _meta(body).title, "clues": clues}
    if body.get("grid") is not None:
        document["solution"] = _grid(body["grid"], max_side)
    import json

    data = json.dumps(document).encode("utf-8")
    try:
        (puzzle,) = entry.read(data, LABEL, "json")
    except NonopressError as exc:
        raise bad(str(exc)) from None
    return LoadedPuzzle(LABEL, 1, 1, puzzle)


def puzzle_from(body: dict[str, Any], max_side: int) -> LoadedPuzzle:
    """The puzzle a request describes, loaded as the CLI loads a file's puzzle."""
    own = _own_form(body, max_side)
    if own is not None:
        return own
    meta = _meta(body)
    try:
        if "grid" in body:
            rows = _grid(body["grid"], max_side)
            palette = _palette(body["palette"]) if body.get("palette") is not None else None
            if palette is None and any(set(row) - {"#", "."} for row in rows):
                raise bad("grid: rows may hold only '#' (filled) and '.' (empty)")
            drawn = puzzle_from_rows(rows, meta, palette)
            givens = _givens(body.get("givens"), drawn.height, drawn.width)
            if givens:
                drawn = kind_of(drawn).with_givens(givens)
            return LoadedPuzzle(LABEL, 1, 1, drawn)
        if "rows" in body and "columns" in body:
            rows_clues = _clues(body["rows"], "rows", max_side)
            column_clues = _clues(body["columns"], "columns", max_side)
            puzzle = Puzzle(tuple(map(tuple, rows_clues)), tuple(map(tuple, column_clues)),
                            meta=meta)
            return LoadedPuzzle(LABEL, 1, 1, puzzle)
    except NonopressError as exc:
        raise bad(str(exc)) from None
    raise bad('send {"grid": ["#..#", ...]} or {"rows": [[...], ...], "columns": [[...], ...]}')


def number(body: dict[str, Any], key: str, default: float, low: float, high: float) -> float:
    """A number field within [low, high] (the default when absent)."""
    value = body.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise bad(f"{key} must be a number from {low:g} to {high:g}")
    return float(value)


def choice(body: dict[str, Any], key: str, options: tuple[str, ...], default: str | None
           ) -> str | None:
    value = body.get(key, default)
    if value is not None and value not in options:
        raise bad(f"{key} must be one of {', '.join(options)}")
    return value
