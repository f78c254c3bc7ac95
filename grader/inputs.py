"""Read input files without trusting them: a size cap checked before reading, no hangs.

Regular files are refused when ``stat`` says they are larger than :data:`MAX_INPUT_BYTES`,
before a byte is read. FIFOs, terminals and devices are read only when the user named them
(``<(cmd)``, ``/dev/stdin``): with the same cap, and with :data:`WAIT_SECONDS` to open and
deliver them, so ``/dev/zero`` or a FIFO nobody writes to ends in one error line instead of
filling memory or blocking forever. Files found by walking a folder must be regular files.
"""

from __future__ import annotations

import os
import select
import stat
import threading
import time
from typing import TYPE_CHECKING, BinaryIO

from grader.errors import FormatError

if TYPE_CHECKING:
    from pathlib import Path

#: The largest input read. The biggest puzzle (4096x1024) is about 8 MB in the most verbose
#: text formats, so this leaves room without letting a stray file fill memory.
MAX_INPUT_BYTES = 32 * 1024 * 1024
#: How long a FIFO or device may take to open and deliver its content.
WAIT_SECONDS = 10.0
_CHUNK = 1 << 16


def describe_kind(mode: int) -> str:
    """What a non-regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    return "not a regular file"


def too_large(size: int, label: str) -> FormatError:
    return FormatError(
        f"larger than the input limit of {MAX_INPUT_BYTES // (1024 * 1024)} MB "
        f"({size:,} bytes or more)", label,
    )


def stat_input(path: str | os.PathLike[str], label: str) -> os.stat_result:
    """``os.stat`` with every failure (missing, symlink loop, permission) as a FormatError."""
    try:
        return os.stat(path)
    except OSError as exc:
        raise FormatError(f"cannot read: {exc.strerror or exc}", label) from None


def read_input_bytes(
    path: str | os.PathLike[str], label: str | None = None, *, named: bool = True
) -> bytes:
    """The bytes of the file at ``path``, at most :data:`MAX_INPUT_BYTES`.

    ``named``: the user gave this path themselves, so a FIFO or device is read (capped and
    with a deadline); files found in folders pass ``named=False`` and only regular files
    are read.
    """
    label = label if label is not None else os.fspath(path)
    info = stat_input(path, label)
    if stat.S_ISREG(info.st_mode):
        if info.st_size > MAX_INPUT_BYTES:
            raise too_large(info.st_size, label)
        return _read_regular(path, label, named)
    kind = describe_kind(info.st_mode)
    if stat.S_ISDIR(info.st_mode) or stat.S_ISSOCK(info.st_mode) or not named:
        raise FormatError(f"cannot read: {kind}, not a regular file", label)
    return _read_special(path, label, kind)


def _read_regular(path: str | os.PathLike[str], label: str, named: bool) -> bytes:
    """Open without blocking and look again: the file may have been swapped for a FIFO."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise FormatError(f"cannot read: {exc.strerror or exc}", label) from None
    with os.fdopen(fd, "rb") as handle:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            if not named:
                raise FormatError(f"cannot read: {describe_kind(mode)}, not a regular file",
                                  label)
            return _drain(fd, label, describe_kind(mode))
        os.set_blocking(fd, True)
        try:
            return read_capped(handle, label)
        except OSError as exc:
            raise FormatError(f"cannot read: {exc.strerror or exc}", label) from None


def read_capped(handle: BinaryIO, label: str) -> bytes:
    """Read ``handle`` to its end, refusing it once it passes the cap."""
    data = handle.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise too_large(len(data), label)
    return data


def _read_special(path: str | os.PathLike[str], label: str, kind: str) -> bytes:
    """A FIFO or device: opened and read within WAIT_SECONDS, capped like any file."""
    opened: list[int] = []
    failure: list[OSError] = []

    def open_it() -> None:  # opening a FIFO blocks until a writer comes
        try:
            opened.append(os.open(path, os.O_RDONLY))
        except OSError as exc:
            failure.append(exc)

    opener = threading.Thread(target=open_it, daemon=True)
    opener.start()
    opener.join(WAIT_SECONDS)
    if failure:
        raise FormatError(f"cannot read: {failure[0].strerror or failure[0]}", label)
    if not opened:
        # the daemon thread stays blocked in open(); it dies with the process
        raise FormatError(f"cannot read: {kind} that nothing wrote to in "
                          f"{WAIT_SECONDS:g} s", label)
    fd = opened[0]
    try:
        return _drain(fd, label, kind)
    finally:
        os.close(fd)


def _drain(fd: int, label: str, kind: str) -> bytes:
    deadline = time.monotonic() + WAIT_SECONDS
    chunks: list[bytes] = []
    size = 0
    while True:
        left = deadline - time.monotonic()
        ready, _, _ = select.select([fd], [], [], max(left, 0.0))
        if not ready:
            raise FormatError(f"cannot read: {kind} still sending after "
                              f"{WAIT_SECONDS:g} s", label)
        chunk = os.read(fd, _CHUNK)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_INPUT_BYTES:
            raise too_large(size, label)


def is_regular_file(path: Path) -> bool:
    """Whether ``path`` (after symlinks) is a regular file; False for loops and dangling links."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False
