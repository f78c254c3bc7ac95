"""What the catalogue hands back: an :class:`Entry` a puzzle and a :class:`Printing` a printing.

Both are plain frozen dataclasses with ``to_json()``, so the command line, the studio's JSON
API and the tests all see the same record.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from grader.kinds import AnyPuzzle


def storable(text: str) -> str:
    """A text both databases store: PostgreSQL refuses the NUL character in a string (and
    would refuse the whole batch with it), so it becomes U+FFFD on either database."""
    return text.replace("\x00", "\ufffd")


def utc_now() -> str:
    """A sortable UTC timestamp, e.g. ``2026-01-31T12:00:00Z``."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


@dataclass(frozen=True)
class Entry:
    """One puzzle of the catalogue with its grade (None fields: not graded, or a defect)."""

    id: int
    key: str
    kind: str  # "bw" or "colour"
    shape_key: str | None
    width: int
    height: int
    colours: int
    title: str
    author: str
    licence: str
    source: str
    copyright: str
    file: str
    file_index: int
    status: str  # pending, graded, failed, undecided
    verdict: str | None
    level: str | None
    score: float | None
    stars: int | None
    minutes: float | None
    minutes_low: float | None
    minutes_high: float | None
    problem: str
    added_at: str
    graded_at: str | None
    tags: tuple[str, ...] = ()
    solution: tuple[str, ...] | None = field(default=None, repr=False)
    puzzle_text: str = field(default="", repr=False)

    @property
    def size(self) -> str:
        return f"{self.width}x{self.height}"

    def puzzle(self) -> AnyPuzzle:
        """The puzzle itself, exactly as it was imported (clues, solution, metadata); an entry
        from :func:`~nonopress.catalogue.finding.find` leaves it out: ask ``get`` for it."""
        from grader.kinds import read_puzzles

        if not self.puzzle_text:
            raise ValueError(f"catalogue entry {self.id} was read without its puzzle: get() it")
        return read_puzzles(self.puzzle_text.encode("utf-8"), format="yaml",
                        name=f"catalogue puzzle {self.id}")[0]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "key": self.key, "kind": self.kind, "shape_key": self.shape_key,
            "title": self.title, "size": self.size, "width": self.width,
            "height": self.height, "colours": self.colours, "author": self.author,
            "licence": self.licence, "source": self.source, "file": self.file,
            "index": self.file_index, "status": self.status, "verdict": self.verdict,
            "level": self.level, "score": self.score, "stars": self.stars,
            "minutes": self.minutes, "minutes_low": self.minutes_low,
            "minutes_high": self.minutes_high, "problem": self.problem or None,
            "tags": list(self.tags), "added_at": self.added_at, "graded_at": self.graded_at,
        }


@dataclass(frozen=True)
class Printing:
    """One puzzle printed in one issue."""

    puzzle_key: str
    shape_key: str | None
    issue: str
    issue_date: str | None
    profile: str
    page: int | None
    position: int
    printed_at: str

    def to_json(self) -> dict[str, Any]:
        return {"puzzle_key": self.puzzle_key, "shape_key": self.shape_key,
                "issue": self.issue, "issue_date": self.issue_date, "profile": self.profile,
                "page": self.page, "position": self.position, "printed_at": self.printed_at}


def entry_from_row(row: Any, tags: tuple[str, ...] = ()) -> Entry:
    """An :class:`Entry` from a row of the ``puzzles`` table (``puzzle`` may be left out)."""
    m = dict(zip(row._fields, row, strict=True))  # C speed: a listing builds thousands
    return Entry(
        id=int(m["id"]), key=m["key"], kind=m["kind"], shape_key=m["shape_key"],
        width=int(m["width"]), height=int(m["height"]), colours=int(m["colours"]),
        title=m["title"], author=m["author"], licence=m["licence"], source=m["source"],
        copyright=m["copyright"], file=m["file"], file_index=int(m["file_index"]),
        status=m["status"], verdict=m["verdict"], level=m["level"], score=m["score"],
        stars=m["stars"], minutes=m["minutes"], minutes_low=m["minutes_low"],
        minutes_high=m["minutes_high"], problem=m["problem"], added_at=m["added_at"],
        graded_at=m["graded_at"], tags=tags,
        solution=tuple(m["solution"].split("\n")) if m["solution"] else None,
        puzzle_text=m.get("puzzle") or "",
    )


def minutes_of(record: dict[str, Any] | None) -> tuple[float | None, float | None, float | None]:
    """(minutes, low, high) from a grade record: ``minutes``/``minutes_low``/``minutes_high``
    where the grader gives them, else ``effort_minutes`` alone."""
    if not record:
        return None, None, None

    def number(name: str) -> float | None:
        value = record.get(name)
        return float(value) if isinstance(value, (int, float)) else None

    minutes = number("minutes")
    if minutes is None:
        minutes = number("effort_minutes")
    return minutes, number("minutes_low"), number("minutes_high")


def dumps(record: dict[str, Any] | None) -> str | None:
    return None if record is None else json.dumps(record, sort_keys=True)
