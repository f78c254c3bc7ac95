"""``library export`` / ``library import``: move stock and its history between catalogues.

The file is JSON lines: a header, one ``puzzle`` line a puzzle (every column but the local id,
with its tags and grade, so nothing is graded again) and one ``printing`` line a printing.
Importing keeps what the target has: a puzzle already there (same key) and a printing already
recorded (same issue and puzzle) are left alone.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from typing import Any

import sqlalchemy as sa

from grader.errors import FormatError
from nonopress.catalogue import schema
from nonopress.catalogue.database import Catalogue
from nonopress.catalogue.entries import storable
from nonopress.catalogue.finding import tags_of

FORMAT = "nonopress-catalogue"
VERSION = 1
_PUZZLE_COLUMNS = [c.name for c in schema.puzzles.columns if c.name != "id"]
_PRINTING_COLUMNS = [c.name for c in schema.printings.columns if c.name != "id"]
#: columns added after the first export: an older export lacks them (None on import)
_ADDED_PUZZLE_COLUMNS = ("grader",)


def export_lines(catalogue: Catalogue) -> Iterator[str]:
    """The catalogue as JSON lines (puzzles by id, then printings)."""
    yield json.dumps({"format": FORMAT, "version": VERSION})
    with catalogue.reading() as connection:
        rows = connection.execute(sa.select(schema.puzzles).order_by(schema.puzzles.c.id)).all()
        tags = tags_of(connection, [int(r.id) for r in rows])
        for row in rows:
            data = {name: row._mapping[name] for name in _PUZZLE_COLUMNS}
            data["tags"] = list(tags.get(int(row.id), ()))
            yield json.dumps({"puzzle": data}, ensure_ascii=False, sort_keys=True)
        for row in connection.execute(sa.select(schema.printings).order_by(
                schema.printings.c.id)):
            data = {name: row._mapping[name] for name in _PRINTING_COLUMNS}
            if data["issue_date"] is not None:
                data["issue_date"] = data["issue_date"].isoformat()
            yield json.dumps({"printing": data}, ensure_ascii=False, sort_keys=True)


def import_lines(catalogue: Catalogue, lines: Iterator[str], name: str) -> tuple[int, int]:
    """Add what an export holds; (puzzles added, printings added)."""
    from nonopress.catalogue.importing import set_tags

    puzzles: list[dict[str, Any]] = []
    printings: list[dict[str, Any]] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line, parse_constant=_no_constant)
        except (ValueError, RecursionError) as exc:
            reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
            raise FormatError(f"not JSON: {reason}"[:200], name, number) from None
        if number == 1:
            if not isinstance(item, dict) or item.get("format") != FORMAT:
                raise FormatError(f"not a {FORMAT} export (no header line)", name, 1)
            version = item.get("version")
            if version != VERSION:
                newer = isinstance(version, int) and not isinstance(version, bool) \
                    and version > VERSION
                raise FormatError(
                    f"export version {str(version)[:20]}: written by a newer Nonopress (this "
                    f"one reads version {VERSION}); upgrade Nonopress to import it" if newer
                    else f"export version {str(version)[:20]!r}: this Nonopress reads "
                    f"version {VERSION}", name, 1)
            continue
        if isinstance(item, dict) and isinstance(item.get("puzzle"), dict):
            data = {c: None for c in _ADDED_PUZZLE_COLUMNS} | item["puzzle"]
            checked = _checked(data, [*_PUZZLE_COLUMNS, "tags"], name, number)
            puzzles.append(_valid_puzzle(checked, name, number))
        elif isinstance(item, dict) and isinstance(item.get("printing"), dict):
            data = _checked(item["printing"], _PRINTING_COLUMNS, name, number)
            if data["issue_date"] is not None:
                try:
                    data["issue_date"] = dt.date.fromisoformat(str(data["issue_date"])[:40])
                except ValueError:
                    raise FormatError("issue_date is not a date", name, number) from None
            printings.append(_valid_row(schema.printings, data, name, number,
                                        skip=("issue_date",)))
        else:
            raise FormatError("expected a 'puzzle' or 'printing' line", name, number)
    added = recorded = 0
    P, PR = schema.puzzles, schema.printings
    with catalogue.writing(exclusive=True) as connection:
        for start in range(0, len(puzzles), 500):
            part = puzzles[start:start + 500]
            known = set(connection.execute(sa.select(P.c.key).where(
                P.c.key.in_([p["key"] for p in part]))).scalars())
            new = [p for p in part if p["key"] not in known]
            if new:
                connection.execute(P.insert(), [{k: v for k, v in p.items() if k != "tags"}
                                                for p in new])
                ids = dict(connection.execute(sa.select(P.c.key, P.c.id).where(
                    P.c.key.in_([p["key"] for p in new]))).all())
                for p in new:
                    set_tags(connection, [ids[p["key"]]], add=[str(t) for t in p["tags"]])
                added += len(new)
        for printing in printings:
            exists = connection.execute(sa.select(PR.c.id).where(
                PR.c.issue == printing["issue"],
                PR.c.puzzle_key == printing["puzzle_key"])).first()
            if exists is None:
                connection.execute(PR.insert(), [printing])
                recorded += 1
    return added, recorded


def _no_constant(text: str) -> None:
    raise ValueError(f"{text} is not a number a catalogue holds")


#: the whole numbers a catalogue holds: a puzzle's sides as the readers allow them, the
#: rest small and never negative (both databases store 64-bit integers, SQLite would
#: refuse a larger one only inside the driver)
_SIDES = (1, 4096)
_RANGES: dict[str, tuple[int, int]] = {
    "width": _SIDES, "height": _SIDES, "colours": (0, 1000), "file_index": (1, 10**9),
    "stars": (0, 5), "steps": (0, 2**31 - 1), "page": (1, 10**6), "position": (1, 10**6),
}


def _valid_row(table: sa.Table, data: dict[str, Any], name: str, line: int,
               skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """Each value of the right type for its column (text, whole number in its range, finite
    number, or null where the column allows it): an export edited by hand or damaged is
    refused on its line, before anything is written, never stored to fail every later
    ``find``."""
    import math

    for column in table.columns:
        key = column.name
        if key not in data or key in skip:
            continue
        value = data[key]
        if value is None:
            if not column.nullable:
                raise FormatError(f"{key} is null", name, line)
            continue
        kind = column.type.python_type
        wrong = f"{key}: expected {_TYPE_NAMES.get(kind, kind.__name__)}, got {_shown(value)}"
        if kind is int:
            low, high = _RANGES.get(key, (-(2**31), 2**31 - 1))
            if isinstance(value, bool) or not isinstance(value, int) \
                    or not low <= value <= high:
                raise FormatError(f"{wrong} ({low} to {high})", name, line)
        elif kind is float:
            if isinstance(value, bool) or not isinstance(value, int | float) \
                    or not math.isfinite(value) or abs(value) > 1e12:
                raise FormatError(f"{wrong} (a finite number)", name, line)
            data[key] = float(value)
        elif kind is str:
            length = getattr(column.type, "length", None)
            if not isinstance(value, str) or (length is not None and len(value) > length):
                limit = f" of at most {length} characters" if length else ""
                raise FormatError(f"{wrong}{limit}", name, line)
            data[key] = storable(value)
    return data


_TYPE_NAMES = {int: "a whole number", float: "a number", str: "a text"}


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _valid_puzzle(data: dict[str, Any], name: str, line: int) -> dict[str, Any]:
    """A puzzle line's values, its kind, status, tags and solution grid checked too."""
    data = _valid_row(schema.puzzles, data, name, line)
    if data["kind"] not in schema.KINDS:
        raise FormatError(f"kind: expected one of {', '.join(schema.KINDS)}, got "
                          f"{_shown(data['kind'])}", name, line)
    if data["status"] not in schema.STATUSES:
        raise FormatError(f"status: expected one of {', '.join(schema.STATUSES)}, got "
                          f"{_shown(data['status'])}", name, line)
    tags = data["tags"]
    if not isinstance(tags, list) or len(tags) > 100 or not all(
            isinstance(t, str) and len(t) <= 64 for t in tags):
        raise FormatError("tags: expected a list of at most 100 words of at most 64 "
                          "characters", name, line)
    solution = data["solution"]
    if solution is not None:
        rows = solution.split("\n")
        if len(rows) != data["height"] or any(len(r) != data["width"] for r in rows):
            raise FormatError(f"solution: expected {data['height']} rows of {data['width']} "
                              "cells", name, line)
    if data["grade"] is not None:
        try:
            json.loads(data["grade"])
        except (ValueError, RecursionError):
            raise FormatError("grade: not a JSON record", name, line) from None
    return data


def _checked(data: dict[str, Any], columns: list[str], name: str, line: int) -> dict[str, Any]:
    missing = [c for c in columns if c not in data]
    if missing:
        raise FormatError(f"missing {', '.join(missing[:3])}", name, line)
    return {c: data[c] for c in columns}
