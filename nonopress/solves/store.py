"""Storing a solve record once per record id, and what a resend of the same attempt does.

The player retries a record until it is answered, with the same ``record_id``, and may send
the same attempt again later with more progress (abandoned when the page was hidden, then
finished). The rule, one row per record id:

* a record id not seen before is inserted (``"new"``);
* a record of a stored attempt that is *ahead* of it replaces its figures (``"updated"``):
  ahead means the stored attempt is not completed and the new record is completed or has
  more active seconds. A completed attempt is final;
* anything else (a retry, an older or equal record) changes nothing (``"unchanged"``);
* a record id already stored for another solver, puzzle or start is refused (409): ids are
  random, so that is a forged or broken record, never an update.

Each record is one transaction: ``INSERT .. ON CONFLICT DO NOTHING`` then, when the id was
there, one conditional ``UPDATE``. Concurrent retries of one record therefore store one row
on SQLite and PostgreSQL alike (the unique index on ``record_id`` decides).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any, Literal

import sqlalchemy as sa

from nonopress.catalogue import schema
from nonopress.catalogue.database import Catalogue
from nonopress.catalogue.entries import utc_now
from nonopress.solves.record import RecordRefused, SolveRecord

Stored = Literal["new", "updated", "unchanged"]
_IDENTITY = ("solver_id", "puzzle_key", "started_at")


def _insert(dialect: str) -> Any:
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    return insert(schema.solves)


def store_solve(catalogue: Catalogue, record: SolveRecord) -> Stored:
    """Store ``record`` once (see the module's note for a resend); RecordRefused (409) when
    its id is stored for another attempt."""
    solves = schema.solves
    now = utc_now()
    row = {**record.row(), "received_at": now, "updated_at": now}
    statement = _insert(catalogue.dialect).values(**row).on_conflict_do_nothing(
        index_elements=["record_id"]).returning(solves.c.id)
    with catalogue.writing() as connection:
        if connection.execute(statement).first() is not None:  # (rowcount: -1 on psycopg)
            return "new"
        figures = {k: v for k, v in row.items() if k not in ("record_id", "received_at")}
        ahead = sa.and_(
            solves.c.record_id == record.record_id,
            *(solves.c[name] == row[name] for name in _IDENTITY),
            solves.c.completed.is_(False),
            sa.true() if record.completed else solves.c.seconds_active < record.seconds_active,
        )
        if connection.execute(solves.update().where(ahead).values(**figures)).rowcount == 1:
            return "updated"
        stored = connection.execute(
            sa.select(*(solves.c[name] for name in _IDENTITY))
            .where(solves.c.record_id == record.record_id)).one()
    if tuple(stored) != tuple(row[name] for name in _IDENTITY):
        raise RecordRefused(f"record_id: {record.record_id} is stored for another solve "
                            "attempt", 409)
    return "unchanged"


class KnownPuzzles:
    """Whether a puzzle key is in the catalogue, remembered: a key found is kept (puzzles
    are not taken out of a live site's catalogue), a key not found is asked again only
    after ``retry_s`` (a puzzle added meanwhile), so a flood of unknown keys costs one
    query a key and a bounded memory."""

    def __init__(self, catalogue: Catalogue, retry_s: float = 30.0, remember: int = 100_000):
        self.catalogue = catalogue
        self.retry_s = retry_s
        self.remember = remember
        self._known: set[str] = set()
        self._missing: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, key: str) -> bool:
        with self._lock:
            if key in self._known:
                return True
            asked = self._missing.get(key)
            if asked is not None and time.monotonic() - asked < self.retry_s:
                return False
        puzzles = schema.puzzles
        with self.catalogue.reading() as connection:
            found = connection.execute(
                sa.select(puzzles.c.id).where(puzzles.c.key == key).limit(1)).first()
        with self._lock:
            if found is not None:
                if len(self._known) < self.remember:
                    self._known.add(key)
                self._missing.pop(key, None)
                return True
            self._missing[key] = time.monotonic()
            self._missing.move_to_end(key)
            while len(self._missing) > self.remember:
                self._missing.popitem(last=False)
            return False
