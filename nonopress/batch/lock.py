"""One batch at a time per results folder: an advisory lock on ``DIR/.nonopress.lock``.

Two batches on one ``--out`` would both grade everything. The lock is ``flock``'d, so the
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

LOCK_NAME = ".nonopress.lock"


@contextlib.contextmanager
def batch_lock(folder: Path) -> Iterator[None]:
    """Hold the folder's lock, or refuse at once when another batch holds it."""
    path = folder / LOCK_NAME
    try:
        folder.mkdir(parents=True, exist_ok=True)
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
                f"{folder}: another batch (process {holder}) is writing these results; "
                "wait for it to finish, or choose another --out"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)  # closing drops the lock
