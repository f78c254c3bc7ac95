"""Write outputs so that nothing the user had is lost: temporary file, then rename.

Only a regular file (or a name not taken yet) is replaced that way. ``-`` is standard
output; a symlink is followed and the file it points to is replaced, so the link stays;
a FIFO, a terminal or a device such as ``/dev/null`` is written to directly (renaming over
it, as root, would put a regular file in its place).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import tempfile
from pathlib import Path

from grader.errors import OutputError
from grader.text import clean

STDOUT = "-"


def _ordinary_mode(target: Path) -> int:
    """The existing file's mode, else 0666 less the process umask."""
    try:
        return os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def atomic_write(path: str | os.PathLike[str], data: bytes | str) -> None:
    """Write ``data`` to ``path``: via a temporary file and a rename when ``path`` is (or
    will be) a regular file; directly to standard output, a FIFO or a device."""
    payload = clean(data).encode("utf-8") if isinstance(data, str) else data
    if os.fspath(path) == STDOUT:
        sys.stdout.flush()
        sys.stdout.buffer.write(payload)
        sys.stdout.buffer.flush()
        return
    # realpath follows every link: the file at the end is replaced, the links stay
    target = Path(os.path.realpath(path))
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        raise OutputError(f"{path}: is a folder, not a file to write")
    if mode is not None and not stat.S_ISREG(mode):
        _write_special(path, target, payload)
        return
    try:
        _replace(target, payload)
    except OSError as exc:
        raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None


def _write_special(label: str | os.PathLike[str], target: Path, payload: bytes) -> None:
    """A FIFO or device: opened as it is, never created, replaced or truncated away."""
    try:
        # non-blocking open: a FIFO nobody reads is an error now, not a hang
        fd = os.open(target, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise OutputError(f"{label}: a FIFO that nothing reads from") from None
        raise OutputError(f"{label}: cannot write: {exc.strerror or exc}") from None
    try:
        os.set_blocking(fd, True)
        with os.fdopen(fd, "wb", closefd=False) as handle:
            handle.write(payload)
    except OSError as exc:
        raise OutputError(f"{label}: cannot write: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def _replace(target: Path, payload: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        # mkstemp creates 0600; give the file the mode an ordinary open() would have.
        os.chmod(tmp, _ordinary_mode(target))
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
