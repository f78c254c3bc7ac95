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
from collections.abc import Iterable
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


class FileTaken(OutputError):
    """The name is taken and the write was asked not to replace anything."""


def atomic_write(path: str | os.PathLike[str], data: bytes | str, *, links: bool = True,
                 replace: bool = True) -> None:
    """Write ``data`` to ``path``: via a temporary file and a rename when ``path`` is (or
    will be) a regular file; directly to standard output, a FIFO or a device.

    ``links=False``: a file inside a folder the program owns (a puzzle written beside a
    manifest, a studio file): ``path`` being a link (even a dangling one someone planted)
    is refused, nothing is written through it. ``replace=False``: the file is created, or
    FileTaken when the name exists, decided by the file system in one step (two writers of
    one new name: one wins, the other is told), never a check and then a write."""
    payload = clean(data).encode("utf-8") if isinstance(data, str) else data
    if os.fspath(path) == STDOUT:
        sys.stdout.flush()
        sys.stdout.buffer.write(payload)
        sys.stdout.buffer.flush()
        return
    if not links or not replace:
        _write_here(Path(path), payload, links=links, replace=replace)
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


def refuse_links(folder: str | os.PathLike[str], names: Iterable[str]) -> None:
    """OutputError for the first of ``names`` in ``folder`` that is a link (a dangling one
    too): asked before a folder of outputs is written, so that a planted link stops the
    whole write before any file of it, never half way (then each is written with
    ``links=False``)."""
    for name in names:
        path = Path(folder)
        for part in Path(name).parts:  # a sub-folder of the outputs may be the link
            path = path / part
            if os.path.islink(path):
                raise OutputError(f"{path}: is a link; refused (nothing is written "
                                  "through it)")


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


def _write_here(path: Path, payload: bytes, *, links: bool, replace: bool) -> None:
    """The file ``path`` itself (no link followed): replaced by a rename, or created by a
    hard link of the written temporary file (which fails when the name exists)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
    if mode is not None and stat.S_ISLNK(mode) and not links:
        raise OutputError(f"{path}: is a link; refused (nothing is written through it)")
    if mode is not None and not replace:
        raise FileTaken(f"{path}: already exists")
    if mode is not None and not stat.S_ISREG(mode):
        raise OutputError(f"{path}: not a regular file; refused")
    try:
        if replace:
            _replace(path, payload)
        else:
            _create(path, payload)
    except FileExistsError:
        raise FileTaken(f"{path}: already exists") from None
    except OSError as exc:
        raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None


def _written_temp(target: Path, payload: bytes) -> str:
    """A temporary file beside ``target`` holding ``payload``, synced to disk."""
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        # mkstemp creates 0600; give the file the mode an ordinary open() would have.
        os.chmod(tmp, _ordinary_mode(target))
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return tmp


def _create(target: Path, payload: bytes) -> None:
    tmp = _written_temp(target, payload)
    try:
        os.link(tmp, target)  # EEXIST when another writer got there first
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def _replace(target: Path, payload: bytes) -> None:
    tmp = _written_temp(target, payload)
    try:
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
