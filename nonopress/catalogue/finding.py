"""``library find``: the puzzles that pass a set of filters, as :class:`Entry` records.

Every filter is one SQL condition (the database does the work, with its indexes), so the
command line, the studio and the issue picker ask the same question the same way.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from grader.errors import NonopressError
from nonopress.catalogue import schema
from nonopress.catalogue.database import Catalogue
from nonopress.catalogue.entries import Entry, entry_from_row

P = schema.puzzles
#: the columns a listing reads: all but the puzzle text and the grade record
LISTED = [column for column in P.columns if column.name not in ("puzzle", "grade")]
#: the largest whole number a filter takes (both databases store 64-bit integers; a
#: larger one would be an overflow inside the driver, not an answer)
MAX_NUMBER = 2**31 - 1
#: the longest text filter (author, licence, title part) and the most tags or levels: a
#: longer pattern or a longer chain of conditions is refused by the database itself
MAX_TEXT = 1000
MAX_TERMS = 50


@dataclass(frozen=True)
class Filters:
    """What ``library find`` asks for; None or empty means no condition."""

    kind: str | None = None  # "bw" or "colour"
    widths: tuple[int, int] | None = None  # inclusive range
    heights: tuple[int, int] | None = None
    levels: tuple[str, ...] = ()
    stars: tuple[int, int] | None = None
    scores: tuple[float, float] | None = None
    minutes: tuple[float, float] | None = None
    tags: tuple[str, ...] = ()  # every one of them
    author: str | None = None  # a part of the author's name, any case
    licence: str | None = None
    status: tuple[str, ...] = ()
    unused_since: dt.date | None = None  # not printed on or after this date
    unused_for: int | None = None  # not printed in the last N issues
    never_printed: bool = False
    text: str | None = None  # a part of the title
    limit: int | None = None

    def __post_init__(self) -> None:
        """Bad input as a NonopressError naming the filter (the command line, a manifest's
        ``from_library`` and the studio's query all come through here)."""
        for what, pair in (("size", self.widths), ("size", self.heights),
                           ("stars", self.stars), ("score", self.scores),
                           ("minutes", self.minutes)):
            if pair is not None:
                _check_pair(what, pair)
        for what, number in (("unused_for", self.unused_for), ("limit", self.limit)):
            if number is not None:
                _check_whole(what, number)
        for what, text in (("author", self.author), ("licence", self.licence),
                           ("title", self.text), ("kind", self.kind)):
            if text is not None and (not isinstance(text, str) or len(text) > MAX_TEXT):
                raise NonopressError(f"{what}: expected a text of at most {MAX_TEXT} "
                                     f"characters, got {_shown(text)}")
        for what, items in (("tags", self.tags), ("levels", self.levels),
                            ("status", self.status)):
            if len(items) > MAX_TERMS or not all(
                    isinstance(item, str) and len(item) <= 64 for item in items):
                raise NonopressError(f"{what}: at most {MAX_TERMS} words of at most 64 "
                                     "characters each")
        if self.unused_since is not None and not isinstance(self.unused_since, dt.date):
            raise NonopressError(f"unused_since: expected a date, got "
                                 f"{_shown(self.unused_since)}")


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _check_whole(what: str, number: object) -> None:
    if isinstance(number, bool) or not isinstance(number, int) \
            or not 0 <= number <= MAX_NUMBER:
        raise NonopressError(f"{what}: expected a whole number from 0 to {MAX_NUMBER}, got "
                             f"{_shown(number)}")


def _check_pair(what: str, pair: object) -> None:
    import math

    if not isinstance(pair, tuple) or len(pair) != 2:
        raise NonopressError(f"{what}: expected LOW..HIGH, got {_shown(pair)}")
    for value in pair:
        if value in (float("inf"), float("-inf")):
            continue  # an open end
        if isinstance(value, bool) or not isinstance(value, int | float) \
                or math.isnan(value) or not -MAX_NUMBER <= value <= MAX_NUMBER:
            raise NonopressError(f"{what}: expected numbers from {-MAX_NUMBER} to "
                                 f"{MAX_NUMBER}, got {_shown(value)}")

def parse_range(text: str, what: str, convert: Any = float) -> tuple[Any, Any]:
    """``LOW..HIGH`` (either side may be left out) or one value, as an inclusive pair."""
    low, sep, high = text.partition("..")
    try:
        first = convert(low) if low.strip() else None
        last = (convert(high) if high.strip() else None) if sep else first
    except ValueError:
        raise NonopressError(f"{what}: expected LOW..HIGH, got {text!r}") from None
    inf = float("inf")
    return (first if first is not None else -inf, last if last is not None else inf)


_SIZE = re.compile(r"^\s*(\d+)\s*[xX]\s*(\d+)\s*$")


def parse_size_range(text: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """``15x15..25x25`` (or one size, ``20x20``) as (width range, height range)."""
    low, sep, high = text.partition("..")
    sizes = []
    for part in (low, high if sep else low):
        match = _SIZE.match(part)
        if not match:
            raise NonopressError(f"size: expected WxH or WxH..WxH, got {text!r}")
        sizes.append((int(match[1]), int(match[2])))
    (w1, h1), (w2, h2) = sizes
    return (min(w1, w2), max(w1, w2)), (min(h1, h2), max(h1, h2))


def conditions(filters: Filters) -> list[Any]:
    """The SQL conditions on ``puzzles`` that ``filters`` stands for."""
    where: list[Any] = []

    def between(column: Any, pair: tuple[Any, Any] | None) -> None:
        if pair is None:
            return
        low, high = pair
        if low != float("-inf"):
            where.append(column >= low)
        if high != float("inf"):
            where.append(column <= high)

    if filters.kind:
        where.append(P.c.kind == filters.kind)
    between(P.c.width, filters.widths)
    between(P.c.height, filters.heights)
    between(P.c.stars, filters.stars)
    between(P.c.score, filters.scores)
    between(P.c.minutes, filters.minutes)
    if filters.levels:
        where.append(P.c.level.in_(filters.levels))
    if filters.status:
        where.append(P.c.status.in_(filters.status))
    for tag in filters.tags:
        where.append(sa.exists().where(schema.tags.c.puzzle_id == P.c.id,
                                       schema.tags.c.tag == tag.strip().lower()))
    if filters.author:
        where.append(sa.func.lower(P.c.author).contains(filters.author.lower(), autoescape=True))
    if filters.licence:
        where.append(sa.func.lower(P.c.licence) == filters.licence.lower())
    if filters.text:
        where.append(sa.func.lower(P.c.title).contains(filters.text.lower(), autoescape=True))
    printed = printed_condition(filters.unused_since, filters.unused_for,
                                filters.never_printed)
    if printed is not None:
        where.append(sa.not_(printed))
    return where


def recent_issues(count: int) -> Any:
    """A subquery: the names of the last ``count`` issues printed (by date, then when)."""
    pr = schema.printings
    return (sa.select(pr.c.issue).group_by(pr.c.issue)
            .order_by(sa.func.max(pr.c.issue_date).desc().nulls_last(),
                      sa.func.max(pr.c.printed_at).desc())
            .limit(count).scalar_subquery())


def printed_condition(since: dt.date | None, last_issues: int | None,
                      ever: bool = False) -> Any | None:
    """True for a puzzle whose clues or design (any rotation or mirror image) was printed
    since ``since``, in the last ``last_issues`` issues, or (``ever``) at all."""
    if since is None and last_issues is None and not ever:
        return None
    pr = schema.printings
    which: list[Any] = []
    if since is not None:
        which.append(sa.or_(pr.c.issue_date >= since, pr.c.printed_at >= since.isoformat()))
    if last_issues is not None:
        which.append(pr.c.issue.in_(recent_issues(last_issues)))
    same = sa.or_(pr.c.puzzle_key == P.c.key,
                  sa.and_(pr.c.shape_key.is_not(None), pr.c.shape_key == P.c.shape_key))
    return sa.exists().where(same, sa.or_(*which) if which and not ever else sa.true())


def find(catalogue: Catalogue, filters: Filters = Filters(), *,
         order: Sequence[Any] | None = None) -> list[Entry]:
    """The puzzles that pass ``filters``, by score and id (or ``order``), without their puzzle
    text (:func:`get` gives an entry with it)."""
    where = conditions(filters)
    query = sa.select(*LISTED).where(*where)
    query = query.order_by(*(order or (P.c.score.is_(None), P.c.score, P.c.id)))
    if filters.limit is not None:
        query = query.limit(filters.limit)
    with catalogue.reading() as connection:
        rows = connection.execute(query).all()
        found = sa.select(P.c.id).where(*where)  # their tags in one query, not an IN list
        tags: dict[int, list[str]] = {}
        for puzzle_id, tag in connection.execute(
                sa.select(schema.tags.c.puzzle_id, schema.tags.c.tag)
                .where(schema.tags.c.puzzle_id.in_(found)).order_by(schema.tags.c.tag)):
            tags.setdefault(int(puzzle_id), []).append(tag)
    return [entry_from_row(row, tuple(tags.get(int(row.id), ()))) for row in rows]


def tags_of(connection: Any, ids: Sequence[int]) -> dict[int, tuple[str, ...]]:
    found: dict[int, list[str]] = {}
    for start in range(0, len(ids), 900):
        part = ids[start:start + 900]
        query = sa.select(schema.tags.c.puzzle_id, schema.tags.c.tag).where(
            schema.tags.c.puzzle_id.in_(part)).order_by(schema.tags.c.tag)
        for puzzle_id, tag in connection.execute(query):
            found.setdefault(int(puzzle_id), []).append(tag)
    return {key: tuple(value) for key, value in found.items()}


def get(catalogue: Catalogue, name: str) -> Entry:
    """One puzzle by id (``12``), key, or key prefix of at least 6 characters."""
    name = name.strip()
    with catalogue.reading() as connection:
        if name.isascii() and name.isdigit():
            number = int(name) if len(name) <= 18 else -1  # a longer id is none of ours
            rows = connection.execute(sa.select(P).where(P.c.id == number)).all()
        elif len(name) >= 6:
            rows = connection.execute(sa.select(P).where(P.c.key.startswith(
                name.lower(), autoescape=True)).limit(2)).all()
        else:
            rows = []
        if len(rows) != 1:
            what = "no puzzle" if not rows else "several puzzles"
            raise NonopressError(f"{what} in {catalogue.name} is {name!r} (give an id or a key)")
        tags = tags_of(connection, [int(rows[0].id)])
    return entry_from_row(rows[0], tags.get(int(rows[0].id), ()))


def counts(catalogue: Catalogue) -> list[tuple[str, str, str, int]]:
    """(kind, level, size, count) over the catalogue: what there is, at a glance."""
    query = (sa.select(P.c.kind, P.c.level, P.c.width, P.c.height, sa.func.count())
             .group_by(P.c.kind, P.c.level, P.c.width, P.c.height)
             .order_by(P.c.kind, P.c.level, P.c.width, P.c.height))
    with catalogue.reading() as connection:
        return [(kind, level or "-", f"{w}x{h}", int(n))
                for kind, level, w, h, n in connection.execute(query)]
