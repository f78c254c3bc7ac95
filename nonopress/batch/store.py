"""The results database: SQLite in WAL mode, one row per puzzle keyed by its content hash.

Only the parent process of a batch writes, one transaction per finished puzzle, so a
crash at any moment leaves every committed row intact and loses only the puzzles that
were in flight. ``synchronous=FULL`` makes each commit survive a power loss too.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

from grader.errors import NonopressError
from nonopress.batch.rows import STATUSES, ResultRow

DATABASE_NAME = "results.sqlite"
#: 1: the first schema (minutes added later without a new version);
#: 2: ``grader``, what graded each row (older rows: NULL, graded again on resume), and
#:    ``palette``, the colour of each solution character (NULL: black and white)
SCHEMA_VERSION = "2"

_COLUMNS = (
    "key", "file", "idx", "title", "width", "height", "status", "verdict", "level", "score",
    "stars", "rungs", "steps", "time_s", "error", "solution", "finished_at",
    "minutes", "minutes_low", "minutes_high", "grader", "palette",
)  # fmt: skip
#: columns added after the first schema: (name, SQL type); a database without them gets
#: them on opening for writing (older rows read as NULL)
_ADDED_COLUMNS = (("minutes", "REAL"), ("minutes_low", "REAL"), ("minutes_high", "REAL"),
                  ("grader", "TEXT"), ("palette", "TEXT"))

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS results (
    key TEXT PRIMARY KEY,
    file TEXT NOT NULL,
    idx INTEGER NOT NULL,
    title TEXT NOT NULL,
    width INTEGER,
    height INTEGER,
    status TEXT NOT NULL CHECK (status IN ({", ".join(repr(s) for s in STATUSES)})),
    verdict TEXT,
    level TEXT,
    score REAL,
    stars INTEGER,
    rungs TEXT NOT NULL,
    steps INTEGER,
    time_s REAL NOT NULL,
    error TEXT NOT NULL,
    solution TEXT,
    finished_at TEXT NOT NULL,
    minutes REAL,
    minutes_low REAL,
    minutes_high REAL,
    grader TEXT,
    palette TEXT
);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def database_path(location: str | Path) -> Path:
    """``results/`` -> ``results/results.sqlite``; a path to a file is taken as it is."""
    path = Path(location)
    return path if path.suffix in (".sqlite", ".db") else path / DATABASE_NAME


class ResultStore:
    """Read and write the rows of one results database."""

    def __init__(self, connection: sqlite3.Connection, path: Path):
        self._db = connection
        self.path = path
        self._missing: tuple[str, ...] = ()

    @classmethod
    def create(cls, location: str | Path) -> ResultStore:
        """Open for writing, creating the folder and the database when missing."""
        path = database_path(location)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(path, isolation_level=None, timeout=30)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.executescript(_SCHEMA)
            _check_schema(db, path)  # before anything is added to someone else's table
            _migrate(db)
        except (OSError, sqlite3.Error) as exc:
            raise NonopressError(f"{path}: cannot open the results database: {exc}") from None
        return cls(db, path)

    @classmethod
    def open_existing(cls, location: str | Path) -> ResultStore:
        """Open a database a batch wrote, read-only; a clear error when there is none."""
        path = database_path(location)
        if not path.is_file():
            raise NonopressError(f"{path}: no results database here (run `nonopress batch` first)")
        try:
            db = _connect_read_only(path)
            _check_schema(db, path)
            have = {row[1] for row in db.execute("PRAGMA table_info(results)")}
        except sqlite3.Error as exc:
            raise NonopressError(f"{path}: not a results database: {exc}") from None
        store = cls(db, path)
        # a database written before the minutes: read them as NULL
        store._missing = tuple(name for name, _ in _ADDED_COLUMNS if name not in have)
        return store

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------
    def record(self, row: ResultRow) -> None:
        """Store one finished puzzle in its own transaction (replacing an earlier attempt)."""
        values = _to_sql(row)
        placeholders = ", ".join("?" for _ in _COLUMNS)
        try:
            with self._db:  # BEGIN ... COMMIT, or ROLLBACK on error
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute(
                    f"INSERT OR REPLACE INTO results ({', '.join(_COLUMNS)}) "
                    f"VALUES ({placeholders})",
                    values,
                )
        except sqlite3.Error as exc:  # disk full, database locked for too long, ...
            raise NonopressError(f"{self.path}: cannot record {row.label}: {exc}") from None

    def forget(self, keys: Iterable[str]) -> None:
        """Delete rows, e.g. a file's 'unreadable' row once the file reads fine."""
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany("DELETE FROM results WHERE key = ?", [(k,) for k in keys])

    # -- reading ---------------------------------------------------------------------------
    def keys(self, statuses: Iterable[str] = STATUSES) -> set[str]:
        wanted = list(statuses)
        marks = ", ".join("?" for _ in wanted)
        query = f"SELECT key FROM results WHERE status IN ({marks})"
        return {key for (key,) in self._db.execute(query, wanted)}

    def stale_keys(self, grader: str) -> set[str]:
        """Puzzles graded by another grader than ``grader`` (another version, ladder table or
        scoring weights; NULL: a database from before the column): to be graded again.
        Files that could not be read (index 0) depend on no grader."""
        query = "SELECT key FROM results WHERE idx > 0 AND (grader IS NULL OR grader != ?)"
        return {key for (key,) in self._db.execute(query, (grader,))}

    def unreadable_keys_for(self, file: str) -> list[str]:
        query = "SELECT key FROM results WHERE file = ? AND key LIKE 'unreadable-%'"
        return [key for (key,) in self._db.execute(query, (file,))]

    def rows(self) -> Iterator[ResultRow]:
        """Every row; a damaged database or row is a NonopressError naming the database."""
        selected = ("NULL" if name in self._missing else name for name in _COLUMNS)
        query = f"SELECT {', '.join(selected)} FROM results ORDER BY file, idx"
        try:
            cursor = self._db.execute(query)
            for values in cursor:
                try:
                    row = _from_sql(values)
                except (ValueError, TypeError, AttributeError, KeyError) as exc:
                    raise NonopressError(
                        f"{self.path}: damaged row {str(values[0])[:40]!r} in the results "
                        f"database ({type(exc).__name__}: {str(exc)[:80]})"
                    ) from None
                yield row
        except sqlite3.Error as exc:
            raise NonopressError(f"{self.path}: the results database is damaged: {exc}") \
                from None

    def count(self) -> int:
        (total,) = self._db.execute("SELECT count(*) FROM results").fetchone()
        return int(total)

    def integrity_ok(self) -> bool:
        (answer,) = self._db.execute("PRAGMA integrity_check").fetchone()
        return bool(answer == "ok")


def _check_schema(db: sqlite3.Connection, path: Path) -> None:
    """Refuse a database whose ``results`` table is not the one this module writes: an
    INSERT or SELECT naming our columns would fail on it half-way through a batch."""
    columns = [str(name) for _, name, *_ in db.execute("PRAGMA table_info(results)")]
    if not columns:
        raise NonopressError(f"{path}: not a results database (no 'results' table)")
    added = {name for name, _ in _ADDED_COLUMNS}  # absent from a database made before them
    extra = [c for c in columns if c not in _COLUMNS][:3]
    missing = [c for c in _COLUMNS if c not in columns and c not in added][:3]
    if extra or missing:
        detail = "; ".join(part for part in (
            f"unknown column(s) {', '.join(extra)}" if extra else "",
            f"missing {', '.join(missing)}" if missing else "") if part)
        raise NonopressError(f"{path}: not a nonopress results database (its 'results' "
                             f"table has other columns: {detail}); choose another --out")


def _writable(path: Path) -> bool:
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection, on read-only media too.

    Even a read-only reader of a WAL database needs its ``-shm`` file, which SQLite cannot
    create in a folder it may not write: there a database without a ``-wal`` journal is
    opened as immutable (nothing can change it), and one whose journal still holds
    results is refused with what to do, rather than read without those results.
    """
    real = Path(os.path.realpath(path))  # realpath: no error on a loop
    uri = real.as_uri()
    try:
        db = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=30)
        db.execute("SELECT count(*) FROM results").fetchone()
        return db
    except sqlite3.OperationalError:
        if _writable(real):
            raise
    journal = real.with_name(real.name + "-wal")
    if journal.exists() and journal.stat().st_size > 0:
        raise NonopressError(
            f"{path}: the newest results are still in {journal.name}, which cannot be read "
            "where the folder is read-only: copy the folder somewhere writable first")
    db = sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, timeout=30)
    db.execute("SELECT count(*) FROM results").fetchone()
    return db


def _to_sql(row: ResultRow) -> tuple[Any, ...]:
    return (
        row.key, row.file, row.index, row.title, row.width, row.height, row.status,
        row.verdict, row.level, row.score, row.stars, json.dumps(row.rungs, sort_keys=True),
        row.steps, row.time_s, row.error,
        "\n".join(row.solution) if row.solution is not None else None, row.finished_at,
        row.minutes, row.minutes_low, row.minutes_high, row.grader or None,
        json.dumps(row.palette, sort_keys=True, ensure_ascii=False) if row.palette else None,
    )  # fmt: skip


def _from_sql(values: tuple[Any, ...]) -> ResultRow:
    data = dict(zip(_COLUMNS, values, strict=True))
    solution = data["solution"]
    return ResultRow(
        key=data["key"],
        file=data["file"],
        index=data["idx"],
        title=data["title"],
        status=data["status"],
        width=data["width"],
        height=data["height"],
        verdict=data["verdict"],
        level=data["level"],
        score=data["score"],
        stars=data["stars"],
        rungs={str(k): int(v) for k, v in json.loads(data["rungs"]).items()},
        steps=data["steps"],
        time_s=data["time_s"],
        error=data["error"],
        solution=tuple(solution.split("\n")) if solution else None,
        finished_at=data["finished_at"],
        minutes=data["minutes"],
        minutes_low=data["minutes_low"],
        minutes_high=data["minutes_high"],
        grader=data["grader"] or "",
        palette=_palette(data["palette"]),
    )


def _palette(text: str | None) -> dict[str, str]:
    if not text:
        return {}
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("the palette is not a mapping")
    return {str(char): str(colour) for char, colour in data.items()}


def _migrate(db: sqlite3.Connection) -> None:
    """Bring a database to :data:`SCHEMA_VERSION` in one transaction: the columns added since
    it was written (each added once, NULL in old rows: no row is dropped or changed), then
    its recorded schema version. A database from a newer nonopress is left as it is."""
    with db:
        db.execute("BEGIN IMMEDIATE")
        have = {row[1] for row in db.execute("PRAGMA table_info(results)")}
        for name, kind in _ADDED_COLUMNS:
            if name not in have:
                db.execute(f"ALTER TABLE results ADD COLUMN {name} {kind}")
        found = db.execute("SELECT value FROM meta WHERE name = 'schema'").fetchone()
        if found is None or _older(str(found[0]), SCHEMA_VERSION):
            db.execute("INSERT OR REPLACE INTO meta(name, value) VALUES ('schema', ?)",
                       (SCHEMA_VERSION,))


def _older(version: str, than: str) -> bool:
    return not version.isdigit() or int(version) < int(than)
