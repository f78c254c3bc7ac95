"""Publication history: what each issue printed, and the warning before printing again.

A printing names the puzzle by its key and its design's shape key, so a puzzle printed once
is recognised again rotated, mirrored or under another title. Recording an issue twice (a
rebuild) replaces its rows and releases its bookings: the history holds what was printed last.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa

from grader.kinds import AnyPuzzle
from nonopress.catalogue import schema
from nonopress.catalogue.database import Catalogue
from nonopress.catalogue.entries import Entry, Printing, utc_now

PR = schema.printings


@dataclass(frozen=True)
class Printed:
    """One puzzle of an issue: its number in the issue and the page it is printed on."""

    puzzle: AnyPuzzle
    position: int
    page: int | None = None


def design_key(puzzle: AnyPuzzle) -> str | None:
    from nonopress.catalogue.importing import shape_key_of

    return shape_key_of(puzzle, None)


def _known_shape_keys(catalogue: Catalogue, keys: Sequence[str]) -> dict[str, str | None]:
    P = schema.puzzles
    with catalogue.reading() as connection:
        return dict(connection.execute(sa.select(P.c.key, P.c.shape_key).where(
            P.c.key.in_(list(keys)))).all())


def shape_keys(catalogue: Catalogue, puzzles: Sequence[AnyPuzzle]) -> list[str | None]:
    """Each puzzle's shape key: from the catalogue (its proved solution) or its own file."""
    known = _known_shape_keys(catalogue, [p.key() for p in puzzles])
    return [known.get(p.key()) or design_key(p) for p in puzzles]


def earlier_printings(catalogue: Catalogue, puzzles: Sequence[AnyPuzzle],
                      issue: str) -> list[str]:
    """A warning for each puzzle printed before in another issue, itself or its design."""
    warnings: list[str] = []
    designs = shape_keys(catalogue, puzzles)
    with catalogue.reading() as connection:
        for number, (puzzle, shape) in enumerate(zip(puzzles, designs, strict=True), 1):
            same = PR.c.puzzle_key == puzzle.key()
            if shape is not None:
                same = sa.or_(same, PR.c.shape_key == shape)
            rows = connection.execute(sa.select(PR).where(same, PR.c.issue != issue)
                                      .order_by(PR.c.printed_at)).all()
            for row in rows:
                what = "was printed" if row.puzzle_key == puzzle.key() else \
                    "is a duplicate (rotated, mirrored or redrawn) of a puzzle printed"
                when = f" ({row.issue_date})" if row.issue_date else ""
                page = f", page {row.page}" if row.page else ""
                title = puzzle.title or "untitled"
                warnings.append(f"puzzle {number} ({title}) {what} in {row.issue}{when}"
                                f"{page}")
    return warnings


def record_printings(catalogue: Catalogue, issue: str, printed: Sequence[Printed], *,
                     date: dt.date | None = None, profile: str = "plain") -> int:
    """Record that ``issue`` printed these puzzles (replacing an earlier record of it).
    A puzzle printed twice in the issue is one printing, at its first position (the
    history holds one row an issue and a puzzle)."""
    designs = shape_keys(catalogue, [item.puzzle for item in printed])
    now = utc_now()
    rows: dict[str, dict[str, object]] = {}
    for item, shape in zip(printed, designs, strict=True):
        rows.setdefault(item.puzzle.key(), {
            "puzzle_key": item.puzzle.key(), "shape_key": shape, "issue": issue,
            "issue_date": date, "profile": profile, "page": item.page,
            "position": item.position, "printed_at": now})
    with catalogue.writing(exclusive=True) as connection:
        connection.execute(PR.delete().where(PR.c.issue == issue))
        if rows:
            connection.execute(PR.insert(), list(rows.values()))
        connection.execute(schema.bookings.delete().where(schema.bookings.c.issue == issue))
    return len(rows)


def history(catalogue: Catalogue, key: str, shape_key: str | None = None) -> list[Printing]:
    """Every printing of the puzzle ``key`` or of its design, oldest first."""
    same = PR.c.puzzle_key == key
    if shape_key is not None:
        same = sa.or_(same, PR.c.shape_key == shape_key)
    with catalogue.reading() as connection:
        rows = connection.execute(sa.select(PR).where(same).order_by(PR.c.printed_at,
                                                                      PR.c.position)).all()
    return [Printing(puzzle_key=r.puzzle_key, shape_key=r.shape_key, issue=r.issue,
                     issue_date=r.issue_date.isoformat() if r.issue_date else None,
                     profile=r.profile, page=r.page, position=r.position,
                     printed_at=r.printed_at) for r in rows]


def last_printed(catalogue: Catalogue, entries: Sequence[Entry]) -> dict[int, str]:
    """When each entry (by id) or its design was last printed (the issue's date, else the
    day it was recorded), for the entries printed at all; one query for the whole list."""
    when = sa.func.max(sa.func.coalesce(sa.cast(PR.c.issue_date, sa.String),
                                        sa.func.substr(PR.c.printed_at, 1, 10)))
    with catalogue.reading() as connection:
        by_key = dict(connection.execute(sa.select(PR.c.puzzle_key, when)
                                         .group_by(PR.c.puzzle_key)).all())
        by_shape = dict(connection.execute(sa.select(PR.c.shape_key, when)
                                           .where(PR.c.shape_key.is_not(None))
                                           .group_by(PR.c.shape_key)).all())
    found: dict[int, str] = {}
    for entry in entries:
        dates = [d for d in (by_key.get(entry.key),
                             by_shape.get(entry.shape_key) if entry.shape_key else None) if d]
        if dates:
            found[entry.id] = str(max(dates))[:10]
    return found
