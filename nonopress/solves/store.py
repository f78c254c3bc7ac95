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
  random, so that is a forged or broken record, never an update;
* a *new* record id is refused (409) when its solver already has a completed record of the
  puzzle or :data:`PER_SOLVER` records of it (an attempt abandoned and taken up again gets a
  new id: a few, not many), or when its sender (the digest of its address,
  ``senders.py``) already has :data:`PER_SENDER` records of the puzzle: a sender is one
  address whatever solver ids it invents. Several collector processes writing at once may
  pass these by a record or two; the reports count one record a solver and at most
  ``reports.PER_ADDRESS`` solvers an address whatever is stored.

:func:`store_solve` writes one record in a transaction: ``INSERT .. ON CONFLICT DO NOTHING``
then, when the id was there, one conditional ``UPDATE``; :func:`store_solves` writes many in
one transaction the same way, and :class:`BatchWriter` gathers the records of concurrent
requests into such transactions (a commit is a disk sync: one for many records is what lets
a collector keep up with many clients). Concurrent retries of one record store one row on
SQLite and PostgreSQL alike: the unique index on ``record_id`` decides.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Future
from typing import Any, Literal

import sqlalchemy as sa

from nonopress.catalogue import schema
from nonopress.catalogue.database import Catalogue
from nonopress.catalogue.entries import utc_now
from nonopress.solves.record import RecordRefused, SolveRecord

Stored = Literal["new", "updated", "unchanged"]
_IDENTITY = ("solver_id", "puzzle_key", "started_at")
#: records one solver may have of one puzzle (a new id each time an abandoned attempt is
#: taken up again), and none more once one is completed
PER_SOLVER = 3
#: records one sender (one address) may have of one puzzle, whatever solver ids it gives
PER_SENDER = 6


def insert_of(dialect: str, table: sa.Table = schema.solves) -> Any:
    """The dialect's INSERT, which knows ON CONFLICT (both spell it the same)."""
    from sqlalchemy.dialects import postgresql, sqlite

    if dialect == "postgresql":
        return postgresql.insert(table)
    return sqlite.insert(table)


def store_solve(catalogue: Catalogue, record: SolveRecord) -> Stored:
    """Store ``record`` once (see the module's note for a resend); RecordRefused (409) when
    its id is stored for another attempt."""
    answer = store_solves(catalogue, [record])[0]
    if isinstance(answer, RecordRefused):
        raise answer
    return answer


def store_solves(catalogue: Catalogue, records: Sequence[SolveRecord],
                 connection: Any = None) -> list[Stored | RecordRefused]:
    """Store each of ``records`` once, in one transaction (on ``connection`` when given, a
    connection of the catalogue's otherwise): what became of each, in order (a
    RecordRefused for a record id stored for another attempt)."""
    if connection is None:
        with catalogue.engine.connect() as opened:
            return store_solves(catalogue, records, opened)
    if catalogue.dialect == "sqlite":
        # BEGIN IMMEDIATE: a transaction that reads (the caps) and then writes would be
        # refused at once, not after the busy timeout, by another writer's lock (SQLite
        # does not wait when a reader asks to become a writer)
        connection = connection.execution_options(nonopress_immediate=True)
    solves = schema.solves
    now = utc_now()
    rows = [{**record.row(), "received_at": now, "updated_at": now} for record in records]
    answers: list[Stored | RecordRefused] = []
    with connection.begin():
        over = _over_the_caps(connection, records)
        fresh = [row for record, row in zip(records, rows, strict=True)
                 if record.record_id not in over]
        inserted: set[str] = set()
        if fresh:
            statement = insert_of(catalogue.dialect).values(fresh).on_conflict_do_nothing(
                index_elements=["record_id"]).returning(solves.c.record_id)
            inserted = set(connection.execute(statement).scalars())
        for record, row in zip(records, rows, strict=True):
            if record.record_id in over:
                answers.append(over[record.record_id])
            elif record.record_id in inserted:
                inserted.discard(record.record_id)  # the same id twice in one batch: once new
                answers.append("new")
            else:
                answers.append(_resend(connection, record, row))
    return answers


def _over_the_caps(connection: Any, records: Sequence[SolveRecord]
                   ) -> dict[str, RecordRefused]:
    """The records of ``records`` with a new id that their solver's or their sender's
    records of the puzzle already stored (or earlier in the batch) leave no room for."""
    solves = schema.solves
    ids = list({record.record_id for record in records})
    stored = set(connection.execute(
        sa.select(solves.c.record_id).where(solves.c.record_id.in_(ids))).scalars())
    new = [record for record in records if record.record_id not in stored]
    if not new:
        return {}
    keys = list({record.puzzle_key for record in new})
    solvers = list({record.solver_id for record in new})
    senders = list({record.sender for record in new if record.sender is not None})
    by_solver: dict[tuple[str, str], list[bool]] = {}
    for key, solver, completed in connection.execute(
            sa.select(solves.c.puzzle_key, solves.c.solver_id, solves.c.completed)
            .where(solves.c.puzzle_key.in_(keys), solves.c.solver_id.in_(solvers))):
        by_solver.setdefault((key, solver), []).append(bool(completed))
    by_sender: dict[tuple[str, str], int] = {}
    if senders:
        for key, sender, count in connection.execute(
                sa.select(solves.c.puzzle_key, solves.c.sender, sa.func.count())
                .where(solves.c.puzzle_key.in_(keys), solves.c.sender.in_(senders))
                .group_by(solves.c.puzzle_key, solves.c.sender)):
            by_sender[(key, sender)] = int(count)
    refused: dict[str, RecordRefused] = {}
    seen: set[str] = set()
    for record in new:
        if record.record_id in seen:
            continue  # the same new id twice in one batch: the insert keeps one
        seen.add(record.record_id)
        mine = by_solver.setdefault((record.puzzle_key, record.solver_id), [])
        if any(mine) or len(mine) >= PER_SOLVER:
            refused[record.record_id] = RecordRefused(
                f"solver_id: {record.solver_id} has sent "
                f"{'a completed record' if any(mine) else f'{len(mine)} records'} of this "
                "puzzle already; one solver is counted once", 409)
            continue
        if record.sender is not None:
            count = by_sender.get((record.puzzle_key, record.sender), 0)
            if count >= PER_SENDER:
                refused[record.record_id] = RecordRefused(
                    f"this address has sent {count} records of this puzzle already; "
                    f"at most {PER_SENDER} are kept from one address", 409)
                continue
            by_sender[(record.puzzle_key, record.sender)] = count + 1
        mine.append(record.completed)
    return refused


def _resend(connection: Any, record: SolveRecord, row: dict[str, Any]
            ) -> Stored | RecordRefused:
    """A record whose id is stored: its figures replace the stored ones when ahead."""
    solves = schema.solves
    # the sender stays the first one's: an attempt sent again from another network is
    # still the one sender's
    figures = {k: v for k, v in row.items()
               if k not in ("record_id", "received_at", "sender")}
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
        return RecordRefused(f"record_id: {record.record_id} is stored for another solve "
                             "attempt", 409)
    return "unchanged"


class BatchWriter:
    """One thread writing the records handed to it, all that arrived while the last
    transaction committed (at most ``max_batch``) in the next one."""

    def __init__(self, catalogue: Catalogue, max_batch: int = 256):
        self.catalogue = catalogue
        self.max_batch = max_batch
        self._queue: queue.Queue[tuple[SolveRecord, Future[Stored]] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="solves-writer", daemon=True)
        self._thread.start()

    def submit(self, record: SolveRecord) -> Future[Stored]:
        """What becomes of ``record`` (RecordRefused, or the database's error, raised)."""
        future: Future[Stored] = Future()
        self._queue.put((record, future))
        return future

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=30)

    def _run(self) -> None:
        connection: Any = None  # kept open between batches: no pool checkout, no ping
        try:
            while (batch := self._next_batch()) is not None:
                connection = self._write(batch, connection)
        finally:
            if connection is not None:
                connection.close()

    def _next_batch(self) -> list[tuple[SolveRecord, Future[Stored]]] | None:
        """What is waiting (at least one, blocking for it); None to stop."""
        item = self._queue.get()
        if item is None:
            return None
        batch = [item]
        while len(batch) < self.max_batch:
            try:
                more = self._queue.get_nowait()
            except queue.Empty:
                break
            if more is None:
                self._queue.put(None)  # stop after this batch
                break
            batch.append(more)
        return batch

    def _connect(self) -> Any:
        """A connection of its own. On PostgreSQL in autocommit: each statement of
        :func:`store_solves` is atomic alone (an insert that skips known ids, an update
        whose WHERE holds the rule), so one round trip a batch instead of three; SQLite
        keeps its transaction (a commit there is the disk sync that batching saves)."""
        connection = self.catalogue.engine.connect()
        if self.catalogue.dialect == "postgresql":
            connection = connection.execution_options(isolation_level="AUTOCOMMIT")
        else:
            # the write lock taken at BEGIN, where SQLite waits for it: a transaction that
            # reads first and then writes is refused at once ("database is locked") when
            # another writer (the studio grading) committed in between, and the record lost
            connection = connection.execution_options(nonopress_immediate=True)
        return connection

    def _write(self, batch: list[tuple[SolveRecord, Future[Stored]]], connection: Any) -> Any:
        """Store ``batch`` and answer each request; the connection to use next. A kept
        connection that fails (the server closed it while idle) is replaced and the batch
        tried once more on a new one; a new one that fails answers every request with the
        error (the player sends again later)."""
        records = [record for record, _ in batch]
        for fresh in (connection is None, True):
            try:
                if connection is None:
                    connection = self._connect()
                answers = store_solves(self.catalogue, records, connection)
                break
            except Exception as exc:
                if connection is not None:
                    connection.invalidate()
                    connection.close()
                    connection = None
                if fresh:
                    for _, future in batch:
                        future.set_exception(exc)
                    return None
        for (_, future), answer in zip(batch, answers, strict=True):
            if isinstance(answer, RecordRefused):
                future.set_exception(answer)
            else:
                future.set_result(answer)
        return connection


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

    def cached(self, key: str) -> bool | None:
        """The answer without asking the database, when it is remembered."""
        with self._lock:
            if key in self._known:
                return True
            asked = self._missing.get(key)
            if asked is not None and time.monotonic() - asked < self.retry_s:
                return False
        return None

    def __call__(self, key: str) -> bool:
        remembered = self.cached(key)
        if remembered is not None:
            return remembered
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
