"""Every file the studio reads or writes lies inside its folder, after resolving links."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from grader.errors import NonopressError


class PathRefused(NonopressError):
    """A path outside the folder (``..``, absolute, a link that leads out) or malformed."""


#: the longest relative path accepted
MAX_PATH_CHARS = 400
#: the longest name of one file or folder (the file systems' NAME_MAX, in bytes)
NAME_MAX = 255


def confine(folder: Path, relative: object, *, must_exist: bool = True) -> Path:
    """``relative`` (a path with ``/`` separators, relative to ``folder``) resolved inside
    ``folder``; PathRefused for anything that is not, or leaves it through a link."""
    if not isinstance(relative, str) or not relative.strip():
        raise PathRefused("a path is needed (relative to the studio's folder)")
    if len(relative) > MAX_PATH_CHARS or "\x00" in relative or "\\" in relative:
        raise PathRefused(f"not an acceptable path: {relative[:60]!r}")
    pure = PurePosixPath(relative)
    if pure.is_absolute():
        raise PathRefused(f"{relative}: absolute paths are refused; give a path inside the folder")
    if ".." in pure.parts:
        raise PathRefused(f"{relative}: '..' is refused; give a path inside the folder")
    if any(len(part.encode("utf-8", "surrogatepass")) > NAME_MAX for part in pure.parts):
        raise PathRefused(f"{relative[:60]}...: a name in it is over {NAME_MAX} bytes, "
                          "longer than a file system allows")
    if any(part.startswith(".") for part in pure.parts):
        # .git, .env, .venv: hidden entries are no puzzles, and may hold secrets
        raise PathRefused(f"{relative}: hidden files and folders are refused")
    root = folder.resolve()
    candidate = root.joinpath(*pure.parts)
    # realpath follows every link, also in the folders on the way: the end must be inside
    resolved = Path(os.path.realpath(candidate))
    if resolved != root and root not in resolved.parents:
        raise PathRefused(f"{relative}: leads outside the folder (through a link)")
    if must_exist and not resolved.exists():
        raise PathRefused(f"{relative}: no such file in the folder")
    return resolved


def relative_name(folder: Path, path: Path) -> str:
    """``path`` as the studio names it: relative to the folder, with ``/``."""
    return Path(os.path.realpath(path)).relative_to(folder.resolve()).as_posix()
