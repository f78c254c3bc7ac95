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
            item = json.loads(line)
        except ValueError as exc:
            raise FormatError(f"not JSON: {exc}", name, number) from None
        if number == 1:
            if not isinstance(item, dict) or item.get("format") != FORMAT:
                raise FormatError(f"not a {FORMAT} export (no header line)", name, 1)
            continue
        if isinstance(item, dict) and isinstance(item.get("puzzle"), dict):
            data = {c: None for c in _ADDED_PUZZLE_COLUMNS} | item["puzzle"]
            puzzles.append(_checked(data, [*_PUZZLE_COLUMNS, "tags"], name, number))
        elif isinstance(item, dict) and isinstance(item.get("printing"), dict):
            data = _checked(item["printing"], _PRINTING_COLUMNS, name, number)
            if data["issue_date"] is not None:
                try:
                    data["issue_date"] = dt.date.fromisoformat(str(data["issue_date"]))
                except ValueError:
                    raise FormatError("issue_date is not a date", name, number) from None
            printings.append(data)
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


def _checked(data: dict[str, Any], columns: list[str], name: str, line: int) -> dict[str, Any]:
    missing = [c for c in columns if c not in data]
    if missing:
        raise FormatError(f"missing {', '.join(missing[:3])}", name, line)
    return {c: data[c] for c in columns}
