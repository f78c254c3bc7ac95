"""Opening a catalogue: a file path or a database URL to an engine whose schema is current.

SQLite (the default, a file in the current folder) runs in WAL mode with ``synchronous=FULL``:
every committed row survives a ``kill -9`` or a power cut. A write transaction can ask for
``BEGIN IMMEDIATE`` (``Catalogue.writing``), so that what it reads is what it writes against:
two pickers then queue for the write lock instead of deciding on the same free puzzles.
PostgreSQL takes ``postgresql://user:password@host/db`` (psycopg 3). The schema is brought up
to date by Alembic's migrations, shipped inside the package, each time a catalogue is opened.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grader.errors import NonopressError

#: the catalogue used when none is named: a SQLite file in the current folder
DEFAULT_FILE = "nonopress-library.sqlite"
#: the environment variable that names a catalogue (a path or a URL) when --db does not
ENVIRONMENT = "NONOPRESS_LIBRARY"
_SQLITE_TIMEOUT_S = 60.0
#: seconds to reach a PostgreSQL server (a server that accepts and never answers fails then)
#: and the longest one statement may run there; a URL's own ``connect_timeout`` or
#: ``options`` win
PG_CONNECT_TIMEOUT_S = 10
PG_STATEMENT_TIMEOUT_S = 300
#: the table Alembic keeps the schema's revision in (migrations/env.py)
VERSION_TABLE = "catalogue_version"


#: a file in the current folder whose first line names the catalogue (keeps a team's
#: PostgreSQL password off the command line and out of the shell history)
CONFIG_FILE = ".nonopress-library"


def resolve_location(location: str | os.PathLike[str] | None) -> str:
    """``--db`` as given, else ``$NONOPRESS_LIBRARY``, else the first line of
    ``.nonopress-library`` here, else the default file here."""
    if location is not None and str(location).strip():
        return str(location)
    named = os.environ.get(ENVIRONMENT, "").strip()
    if named:
        return named
    config = Path(CONFIG_FILE)
    if config.is_file():
        from grader.inputs import read_input_bytes

        lines = read_input_bytes(config, CONFIG_FILE).decode("utf-8", "replace").splitlines()
        first = next((line.strip() for line in lines
                      if line.strip() and not line.lstrip().startswith("#")), "")
        if first:
            return first
    return DEFAULT_FILE


def database_url(location: str | os.PathLike[str] | None) -> str:
    """A SQLAlchemy URL: a URL is taken as it is (``postgresql://`` means psycopg 3), anything
    else is the path of a SQLite file."""
    text = resolve_location(location)
    if "://" in text:
        scheme, rest = text.split("://", 1)
        if scheme in ("postgresql", "postgres"):
            return f"postgresql+psycopg://{rest}"
        if scheme.startswith(("postgresql+", "sqlite")):
            return text
        raise NonopressError(
            f"--db {shown_url(text)}: a catalogue is a SQLite file or a postgresql:// URL"
        )
    path = Path(text)
    if _probe(path, Path.is_dir):
        path = path / DEFAULT_FILE
    return f"sqlite:///{path}"


def _probe(path: Path, test: Any) -> bool:
    """``test(path)`` (is_dir, is_file), with a path the system refuses (5,000 characters,
    a name over 255) as one line rather than an OSError."""
    try:
        return bool(test(path))
    except OSError as exc:
        raise NonopressError(f"{str(path)[:80]}...: not a usable path "
                             f"({exc.strerror or exc})") from None


def shown_url(url: str) -> str:
    """A URL fit for a message: the password replaced by ``***``."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # a URL SQLAlchemy cannot parse is shown without what follows '@'
        return url.split("@")[-1]


@dataclass
class Catalogue:
    """An open catalogue: the engine and where it lives. Use with ``with`` or call close()."""

    engine: Any  # sqlalchemy.Engine
    url: str

    @property
    def name(self) -> str:
        """Where the catalogue lives, for messages (no password)."""
        return shown_url(self.url)

    @property
    def dialect(self) -> str:
        return str(self.engine.dialect.name)

    @contextmanager
    def reading(self) -> Iterator[Any]:
        """A connection in a transaction that only reads."""
        with self.engine.connect() as connection, connection.begin():
            yield connection

    @contextmanager
    def writing(self, *, exclusive: bool = False) -> Iterator[Any]:
        """A connection in a transaction, committed at the end (rolled back on an error).

        On SQLite the write lock is taken at the start (``BEGIN IMMEDIATE``), where SQLite
        waits for it: a transaction that reads and then writes is otherwise refused at once
        ("database is locked") when another writer commits while it waits.
        ``exclusive``: on PostgreSQL the bookings table is locked against other pickers too,
        so that a decision made on what was read still holds when it is written.
        """
        with self.engine.connect() as connection:
            connection = connection.execution_options(nonopress_immediate=True)
            with connection.begin():
                if exclusive and self.dialect == "postgresql":
                    connection.exec_driver_sql(
                        "LOCK TABLE bookings IN SHARE ROW EXCLUSIVE MODE"
                    )
                yield connection

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> Catalogue:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_catalogue(location: str | os.PathLike[str] | None = None, *,
                   create: bool = True) -> Catalogue:
    """Open (``create``: and make when missing) the catalogue at ``location`` (a file path, a
    folder, or a database URL; None: ``$NONOPRESS_LIBRARY`` or ``nonopress-library.sqlite``
    here) with its schema migrated to the current version."""
    from sqlalchemy import create_engine, event
    from sqlalchemy.exc import SQLAlchemyError

    url = database_url(location)
    if url.startswith("sqlite:///"):
        path = Path(url.removeprefix("sqlite:///"))
        if not create and not _probe(path, Path.is_file):
            raise NonopressError(
                f"{path}: no catalogue here (make one with `nonopress library add FILES`)"
            )
        if not _probe(path.parent, Path.is_dir):
            raise NonopressError(f"{path}: the folder {path.parent} does not exist")
        # before the engine touches it (WAL, tables): another program's database is refused
        # as it is, byte for byte
        check_sqlite_file(path, create=create)
    try:
        if url.startswith("sqlite"):
            engine = create_engine(url, connect_args={"timeout": _SQLITE_TIMEOUT_S})
            _sqlite_events(engine, event)
        else:
            engine = create_engine(url, pool_pre_ping=True, connect_args=_pg_arguments(url))
        catalogue = Catalogue(engine, url)
        upgrade(catalogue)
    except SQLAlchemyError as exc:
        raise NonopressError(f"{shown_url(url)}: cannot open the catalogue: "
                             f"{_first_line(exc)}") from None
    except ImportError as exc:  # a driver that is not installed
        raise NonopressError(f"{shown_url(url)}: cannot open the catalogue: {exc}") from None
    return catalogue


def _pg_arguments(url: str) -> dict[str, Any]:
    """A connect timeout and a statement timeout, unless the URL names its own."""
    from sqlalchemy.engine import make_url

    query = make_url(url).query
    arguments: dict[str, Any] = {}
    if "connect_timeout" not in query:
        arguments["connect_timeout"] = PG_CONNECT_TIMEOUT_S
    options = query.get("options", "")
    options = " ".join(options) if isinstance(options, tuple) else str(options)
    if "statement_timeout" not in options:  # kept with the URL's own options (search_path)
        arguments["options"] = f"{options} -c statement_timeout=" \
            f"{PG_STATEMENT_TIMEOUT_S * 1000}".strip()
    return arguments


def check_sqlite_file(path: Path, *, create: bool) -> None:
    """Refuse, without writing to it, a SQLite file that is not a catalogue: another
    program's database, a file that is no database, or one written by a newer Nonopress.
    Read through a read-only connection (no journal switch, no tables made)."""
    import sqlite3
    import urllib.parse

    try:
        if path.stat().st_size == 0:
            if create:
                return
            raise NonopressError(f"{path}: an empty file, no catalogue")
    except FileNotFoundError:
        return  # a new catalogue, made by the engine
    except OSError as exc:
        raise NonopressError(f"{path}: cannot read: {exc.strerror or exc}") from None
    uri = "file:" + urllib.parse.quote(str(path.resolve())) + "?mode=ro"
    try:
        connection = sqlite3.connect(uri, uri=True, timeout=_SQLITE_TIMEOUT_S)
        try:
            tables = {str(row[0]) for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            revisions = [str(row[0]) for row in connection.execute(
                f"SELECT version_num FROM {VERSION_TABLE}")] \
                if VERSION_TABLE in tables else []
        finally:
            connection.close()
    except sqlite3.DatabaseError as exc:
        raise NonopressError(f"{path}: not a catalogue ({exc})") from None
    check_revisions(str(path), tables, revisions)


def check_revisions(name: str, tables: set[str], revisions: list[str], *,
                    shared: bool = False) -> None:
    """A database holding tables but no catalogue revision belongs to another program
    (``shared``, a PostgreSQL database: only when a table has a catalogue table's name); a
    revision this Nonopress does not know was written by a newer one."""
    from nonopress.catalogue.schema import metadata

    ours = sorted(tables & set(metadata.tables))
    if not revisions and (ours if shared else tables):
        clash = f" (its {ours[0]!r} table is not the catalogue's)" if ours else ""
        raise NonopressError(f"{name}: another program's database{clash}, not a Nonopress "
                             "catalogue; refused, nothing written")
    unknown = [r for r in revisions if r not in known_revisions()]
    if unknown:
        raise NonopressError(
            f"{name}: written by a newer Nonopress (catalogue schema {unknown[0]}, this one "
            f"knows up to {max(known_revisions())}); upgrade Nonopress to open it")


@functools.lru_cache(maxsize=1)
def known_revisions() -> frozenset[str]:
    """The schema revisions shipped in this package's migrations."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(_alembic_config())
    return frozenset(r.revision for r in script.walk_revisions())


def _alembic_config() -> Any:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", "nonopress.catalogue:migrations")
    return config


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc)
    return text.strip().splitlines()[0][:200] if text.strip() else type(exc).__name__


def _sqlite_events(engine: Any, event: Any) -> None:
    """WAL, full sync, foreign keys; and transactions begun by us, not by the driver, so that
    a writer can say ``BEGIN IMMEDIATE``."""

    def _on_connect(dbapi_connection: Any, record: Any) -> None:
        dbapi_connection.isolation_level = None  # the driver begins nothing on its own
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    def _on_begin(connection: Any) -> None:
        immediate = connection.get_execution_options().get("nonopress_immediate", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    event.listen(engine, "connect", _on_connect)
    event.listen(engine, "begin", _on_begin)


def upgrade(catalogue: Catalogue) -> None:
    """Bring the schema to the newest migration (creating it in an empty database)."""
    import sqlalchemy as sa
    from alembic import command

    config = _alembic_config()
    with catalogue.engine.connect() as connection:
        connection = connection.execution_options(nonopress_immediate=True)
        with connection.begin():
            if catalogue.dialect == "postgresql":
                # two processes opening a new database at once: one migrates, one waits
                connection.exec_driver_sql("SELECT pg_advisory_xact_lock(727172)")
            tables = set(sa.inspect(connection).get_table_names())
            revisions = [str(r) for r in connection.exec_driver_sql(
                f"SELECT version_num FROM {VERSION_TABLE}").scalars()] \
                if VERSION_TABLE in tables else []
            check_revisions(catalogue.name, tables, revisions,
                            shared=catalogue.dialect != "sqlite")
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
