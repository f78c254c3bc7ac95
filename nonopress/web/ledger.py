"""The site's record of what it wrote: ``.nonopress-site.json`` in the site's folder, each
file's name and the SHA-256 of what was written. A rebuild that publishes less (an earlier
``--until``) removes the files the last build wrote and this one did not, and only when a
file is still what was written: a file someone put there, or changed since, is never
touched. A folder without a record (a site built before it, or someone's own folder) loses
nothing."""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path

from grader.atomic import atomic_write
from grader.text import clean

#: the record's name in the site's folder (a dot file: a web server need not serve it)
LEDGER = ".nonopress-site.json"
#: the names a site writes: a page or data at the top, a board under boards/ (a record
#: edited to name ../../x or a folder elsewhere is read as naming nothing)
_NAME = re.compile(r"^(?:boards/)?[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")


def digest(data: str | bytes) -> str:
    """The SHA-256 the record keeps of a file's contents, as written (UTF-8 for text)."""
    payload = clean(data).encode("utf-8") if isinstance(data, str) else data
    return hashlib.sha256(payload).hexdigest()


def read_ledger(folder: Path) -> dict[str, str]:
    """The last build's record: name -> SHA-256; empty when there is none or it is not one
    this module wrote (never an error: a record is a help, not a requirement)."""
    path = folder / LEDGER
    try:
        if path.is_symlink():
            return {}
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict):
        return {}
    return {name: value for name, value in files.items()
            if isinstance(name, str) and _NAME.match(name) and ".." not in name
            and isinstance(value, str) and re.fullmatch(r"[0-9a-f]{64}", value)}


def write_ledger(folder: Path, files: Mapping[str, str]) -> None:
    """Record what this build wrote (written last: a build stopped half way leaves the old
    record, which still names only files a build wrote)."""
    text = json.dumps({"format": 1, "files": dict(sorted(files.items()))}, indent=1) + "\n"
    atomic_write(folder / LEDGER, text, links=False)


def _unchanged(path: Path, expected: str) -> bool:
    """True when ``path`` is a regular file (not a link) holding what the record says."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    if not stat.S_ISREG(info.st_mode):
        return False
    try:
        return digest(path.read_bytes()) == expected
    except OSError:
        return False


def remove_stale(folder: Path, before: Mapping[str, str], now: Iterable[str]) -> list[str]:
    """Remove the files ``before`` names that this build did not write, each only when it
    is unchanged since a build wrote it. Returns the names removed."""
    keep = set(now)
    removed = []
    for name, expected in sorted(before.items()):
        if name in keep:
            continue
        path = folder / name
        # a name under a folder that is now a link (boards -> elsewhere) is not this site's
        if path.parent != folder and path.parent.is_symlink():
            continue
        if not _unchanged(path, expected):
            continue
        try:
            path.unlink()
        except OSError:
            continue  # gone already, or not ours to remove after all: leave it
        removed.append(name)
    return removed


__all__ = ["LEDGER", "digest", "read_ledger", "remove_stale", "write_ledger"]
