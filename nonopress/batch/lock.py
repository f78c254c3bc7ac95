"""One batch at a time per results database: an advisory lock beside the database.

Two batches on one database would both grade everything. The lock belongs to the database
file after symlinks are resolved, so two ``--out`` folders whose ``results.sqlite`` is one
file through a symlink (or two names of one folder) share it. The lock is ``flock``'d, so the
kernel drops it when the process ends in any way (``kill -9`` and power cuts included):
a stale lock file never blocks the next run.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

from grader.errors import NonopressError
from nonopress.batch.store import database_path

LOCK_SUFFIX = ".lock"


def lock_path(location: str | Path) -> Path:
    """The lock file of the database ``location`` names (a folder or a ``.sqlite`` file):
    beside the database's real file, named after it (``.results.sqlite.lock``)."""
    real = Path(os.path.realpath(database_path(location)))
    return real.with_name(f".{real.name}{LOCK_SUFFIX}")


@contextlib.contextmanager
def batch_lock(location: str | Path) -> Iterator[None]:
    """Hold the database's lock, or refuse at once when another batch holds it."""
    folder = database_path(location).parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path = lock_path(location)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise NonopressError(f"{folder}: cannot use as the results folder: "
                             f"{exc.strerror or exc}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
            raise NonopressError(
                f"{database_path(location)}: another batch (process {holder}) is writing "
                "these results; wait for it to finish, or choose another --out"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)  # closing drops the lock
