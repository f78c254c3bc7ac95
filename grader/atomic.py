"""Write outputs so that nothing the user had is lost: temporary file, then rename."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def _ordinary_mode(target: Path) -> int:
    """The existing file's mode, else 0666 less the process umask."""
    try:
        return os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def atomic_write(path: str | os.PathLike[str], data: bytes | str) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder and a rename."""
    target = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or ".")
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
