"""Pick puzzles for an issue: deterministic with a seed, never one puzzle for two issues.

The pick runs in one write transaction that first takes the write lock (SQLite ``BEGIN
IMMEDIATE``, PostgreSQL a lock on ``bookings``), reads the free candidates, chooses, and books
them; the bookings table's primary key (the puzzle) is the last guard. Two editors picking at
once therefore queue, and the second sees the first one's bookings.

Candidates are graded, unique puzzles that pass the filters, are not booked for another issue
and whose design was not printed within ``unused_for`` issues / since ``unused_since``. They
are shuffled by a seeded generator from their keys' order (content hashes: the same stock
gives the same pick), then taken greedily, each time the one sharing the fewest tags (or
authors) with those already taken, never two of one design. The result is ordered by the
difficulty curve.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import sqlalchemy as sa

from grader.errors import NonopressError
from nonopress.catalogue import schema
from nonopress.catalogue.database import Catalogue
from nonopress.catalogue.entries import Entry, entry_from_row, utc_now
from nonopress.catalogue.finding import Filters, conditions, tags_of

CURVES = ("rising", "wave", "falling")
VARY = ("tags", "author", "none")


@dataclass(frozen=True)
class LevelWant:
    count: int
    widths: tuple[int, int] | None = None
    heights: tuple[int, int] | None = None


@dataclass(frozen=True)
class PickRequest:
    """What an issue asks of the catalogue (the manifest's ``from_library`` section)."""

    levels: Mapping[str, LevelWant]
    filters: Filters = field(default_factory=Filters)
    vary: str = "tags"
    seed: int = 0
    curve: str = "rising"

    @property
    def count(self) -> int:
        return sum(want.count for want in self.levels.values())


def pick(catalogue: Catalogue, request: PickRequest, issue: str, *,
         book: bool = True) -> list[Entry]:
    """Choose and (``book``) book the puzzles for ``issue``; an error when too few are free."""
    P, B = schema.puzzles, schema.bookings
    with catalogue.writing(exclusive=book) as connection:
        chosen: list[Entry] = []
        designs: set[str] = set()
        short: list[str] = []
        for level, want in request.levels.items():
            filters = replace(request.filters, levels=(level,),
                              widths=want.widths or request.filters.widths,
                              heights=want.heights or request.filters.heights)
            booked_elsewhere = sa.exists().where(B.c.puzzle_id == P.c.id, B.c.issue != issue)
            query = (sa.select(P).where(*conditions(filters), P.c.status == "graded",
                                        P.c.verdict == "unique", sa.not_(booked_elsewhere))
                     .order_by(P.c.key))
            rows = connection.execute(query).all()
            tags = tags_of(connection, [int(r.id) for r in rows])
            pool = [entry_from_row(r, tags.get(int(r.id), ())) for r in rows]
            random.Random(f"{request.seed}:{level}").shuffle(pool)
            taken = _greedy(pool, want.count, request.vary, chosen, designs)
            if len(taken) < want.count:
                short.append(f"{want.count} {level} (found {len(taken)})")
            chosen += taken
        if short:
            raise NonopressError(f"{catalogue.name}: not enough free puzzles for {issue}: "
                                 f"wanted {', '.join(short)}")
        if book and chosen:
            connection.execute(B.delete().where(B.c.issue == issue))
            now = utc_now()
            connection.execute(B.insert(), [{"puzzle_id": e.id, "issue": issue,
                                             "booked_at": now} for e in chosen])
    return order_by_curve(chosen, request.curve)


def _greedy(pool: list[Entry], count: int, vary: str, chosen: list[Entry],
            designs: set[str]) -> list[Entry]:
    taken: list[Entry] = []
    seen: dict[str, int] = {}
    for entry in chosen:
        for word in _subjects(entry, vary):
            seen[word] = seen.get(word, 0) + 1
    rest = list(pool)
    while len(taken) < count and rest:
        best = min(range(len(rest)),
                   key=lambda i: sum(seen.get(w, 0) for w in _subjects(rest[i], vary)))
        entry = rest.pop(best)
        if entry.shape_key is not None and entry.shape_key in designs:
            continue
        taken.append(entry)
        if entry.shape_key is not None:
            designs.add(entry.shape_key)
        for word in _subjects(entry, vary):
            seen[word] = seen.get(word, 0) + 1
    return taken


def _subjects(entry: Entry, vary: str) -> tuple[str, ...]:
    if vary == "tags":
        return entry.tags
    if vary == "author":
        return (entry.author.lower(),) if entry.author else ()
    return ()


def order_by_curve(entries: list[Entry], curve: str) -> list[Entry]:
    """``rising``: easiest first; ``falling``: hardest first; ``wave``: three rising runs
    (a rest after each climb)."""
    ranked = sorted(entries, key=lambda e: (e.score if e.score is not None else 0.0, e.key))
    if curve == "falling":
        return ranked[::-1]
    if curve == "wave":
        return [e for start in range(3) for e in ranked[start::3]]
    return ranked


def release(catalogue: Catalogue, issue: str) -> int:
    """Drop ``issue``'s bookings (an issue abandoned); how many were dropped."""
    with catalogue.writing() as connection:
        result = connection.execute(schema.bookings.delete().where(
            schema.bookings.c.issue == issue))
    return int(result.rowcount or 0)


def booked(catalogue: Catalogue, issue: str) -> list[int]:
    with catalogue.reading() as connection:
        return [int(i) for i in connection.execute(sa.select(schema.bookings.c.puzzle_id)
                                                   .where(schema.bookings.c.issue == issue))
                .scalars()]


def unused_since(text: object) -> dt.date:
    if isinstance(text, dt.date):
        return text
    try:
        return dt.date.fromisoformat(str(text))
    except ValueError:
        raise NonopressError(f"unused_since: expected a date YYYY-MM-DD, got {text!r}") from None
