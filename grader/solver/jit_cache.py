"""Keep numba's on-disk cache of the compiled kernels consistent with their sources.

numba checks a cached function against its own source file only: after an edit to
kernels.py, the cached code of cdcl.py (which calls into kernels) would still be the old
one. Every compiled module of the solver is hashed together; when the hash differs from
the one stamped beside the cache, the solver's cache entries are dropped so everything is
compiled afresh. Costs one hash of a few source files per process.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

#: the solver modules with numba-compiled functions (they call into one another)
COMPILED_MODULES = ("kernels", "reasons", "cdcl")
STAMP_NAME = "nonopress-kernels.stamp"


def sources_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for name in COMPILED_MODULES:
        digest.update((folder / f"{name}.py").read_bytes())
    return digest.hexdigest()


def drop_stale_entries(folder: Path) -> bool:
    """Remove the compiled modules' cache entries if their sources changed; True if so.

    Failures to read or write (a read-only install) are ignored: numba then uses its own
    cache location, filled at install time from consistent sources.
    """
    cache = folder / "__pycache__"
    try:
        digest = sources_digest(folder)
        stamp = cache / STAMP_NAME
        if stamp.is_file() and stamp.read_text(encoding="ascii").strip() == digest:
            return False
        if cache.is_dir():
            for name in COMPILED_MODULES:
                for entry in cache.glob(f"{name}.*.nb[ic]"):
                    entry.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        partial = cache / f"{STAMP_NAME}.{digest[:12]}.tmp"
        partial.write_text(digest + "\n", encoding="ascii")
        partial.replace(stamp)
    except OSError:
        return False
    return True
