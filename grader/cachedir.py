"""Where nonopress keeps what it computes for itself: a per-user cache folder.

Nothing is ever written inside the installed package: a file left there outlives
``pip uninstall`` and turns the package folder into a namespace package that shadows the
next (editable) install. The folder is, in order of preference:

* ``$NONOPRESS_CACHE_DIR`` when set;
* the platform's user cache folder: ``$XDG_CACHE_HOME/nonopress`` or
  ``~/.cache/nonopress`` (Linux and others), ``~/Library/Caches/nonopress`` (macOS),
  ``%LOCALAPPDATA%\\nonopress\\Cache`` (Windows);
* a folder in the system's temporary folder when the first choice cannot be written.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

#: the environment variable that moves the cache folder
ENVIRONMENT_VARIABLE = "NONOPRESS_CACHE_DIR"
APP_NAME = "nonopress"


def default_cache_dir() -> Path:
    """The platform's per-user cache folder for nonopress (not created)."""
    chosen = os.environ.get(ENVIRONMENT_VARIABLE, "").strip()
    if chosen:
        return Path(chosen).expanduser()
    home = Path.home()
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA", "").strip()
        return (Path(base) if base else home / "AppData" / "Local") / APP_NAME / "Cache"
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / APP_NAME
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    base_dir = Path(xdg) if xdg and Path(xdg).is_absolute() else home / ".cache"
    return base_dir / APP_NAME


def _writable(folder: Path) -> bool:
    import tempfile  # here: it imports random and its hashes, which a check never needs

    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".probe-"):
            pass
    except OSError:
        return False
    return True


def _fallback_dir() -> Path:
    import tempfile

    user = str(os.getuid()) if hasattr(os, "getuid") else os.environ.get("USERNAME", "user")
    return Path(tempfile.gettempdir()) / f"{APP_NAME}-cache-{user}"


def cache_dir(subfolder: str = "") -> Path:
    """The cache folder (or ``subfolder`` of it), created; the temporary folder's
    fallback when the preferred one cannot be written."""
    for base in (default_cache_dir(), _fallback_dir()):
        folder = base / subfolder if subfolder else base
        if _writable(folder):
            return folder
    return default_cache_dir() / subfolder if subfolder else default_cache_dir()
