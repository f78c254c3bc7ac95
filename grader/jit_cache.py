"""numba's on-disk cache of the compiled kernels: where it lives, and keeping it consistent.

Where: in the per-user cache folder (:mod:`grader.cachedir`), ``<cache>/numba``, never in
the installed package (numba's default is the package's ``__pycache__``, which outlives
``pip uninstall`` and then shadows the next install as a namespace package). A
``NUMBA_CACHE_DIR`` the user set is left as it is.

Consistent: numba checks a cached function against its own source file only: after an
edit to kernels.py, the cached code of cdcl.py (which calls into kernels) would still be
the old one. Every compiled module of the solver is hashed together; when the hash differs
from the one stamped beside the cache, the solver's cache entries are dropped so
everything is compiled afresh. Costs one hash of a few source files per process.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import TextIO

from grader.cachedir import cache_dir

#: the solver modules with numba-compiled functions (they call into one another)
COMPILED_MODULES = ("kernels", "reasons", "cdcl", "line_ranges")
STAMP_NAME = "nonopress-kernels.stamp"
NUMBA_VARIABLE = "NUMBA_CACHE_DIR"

#: where a first compile is announced (grader.solver.announce_compiling sets it)
compile_notice: TextIO | None = None
_prepared: dict[Path, Path] = {}


def prepare_cache(sources: Path) -> Path:
    """Point numba at the user's cache folder and drop stale entries, once a process;
    the folder where the kernels of ``sources`` are cached."""
    if sources not in _prepared:
        folder = solver_cache_folder(configure_numba_cache(), sources)
        drop_stale_entries(sources, folder)
        _prepared[sources] = folder
    return _prepared[sources]


def configure_numba_cache() -> Path:
    """Point numba's cache at the per-user folder (before any kernel is decorated).

    Sets ``NUMBA_CACHE_DIR`` in this process's environment too, so that numba's own
    re-reading of its settings and the worker processes of a batch agree with it.
    """
    chosen = os.environ.get(NUMBA_VARIABLE, "").strip()
    folder = Path(chosen) if chosen else cache_dir("numba")
    os.environ[NUMBA_VARIABLE] = str(folder)
    from numba.core import config

    setattr(config, "CACHE_DIR", str(folder))  # noqa: B010 - set at import time by numba
    return folder


def solver_cache_folder(numba_root: Path, sources: Path) -> Path:
    """The folder numba keeps the cached kernels of the modules in ``sources`` in."""
    source_file = str(sources / f"{COMPILED_MODULES[0]}.py")
    try:
        from numba.core.caching import _CacheLocator

        subpath = str(_CacheLocator.get_suitable_cache_subpath(source_file))  # type: ignore[no-untyped-call]
    except (ImportError, AttributeError):  # numba's layout as of 0.59-0.61
        parent = os.path.dirname(os.path.abspath(source_file))
        digest = hashlib.sha1(parent.encode()).hexdigest()
        subpath = f"{os.path.basename(parent)}_{digest}"
    return numba_root / subpath


def sources_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for name in COMPILED_MODULES:
        digest.update((folder / f"{name}.py").read_bytes())
    return digest.hexdigest()


def is_cold(cache: Path) -> bool:
    """True when some compiled module has nothing cached: the next run compiles it."""
    return any(not any(cache.glob(f"{name}.*.nbi")) for name in COMPILED_MODULES)


def needs_compiling(sources: Path) -> bool:
    """True unless every compiled module of ``sources`` is cached for these very sources.

    Answered without importing numba (a second of start-up), from the folder layout numba
    uses (:func:`solver_cache_folder`'s fallback) and the stamp of the sources: a wrong
    "true" only costs loading every kernel up front, which is what a cold cache gets.
    """
    chosen = os.environ.get(NUMBA_VARIABLE, "").strip()
    root = Path(chosen) if chosen else cache_dir("numba")
    parent = str(sources.resolve())
    folder = root / f"{os.path.basename(parent)}_{hashlib.sha1(parent.encode()).hexdigest()}"
    try:
        stamp = (folder / STAMP_NAME).read_text(encoding="ascii").strip()
        return stamp != sources_digest(sources) or is_cold(folder)
    except OSError:
        return True


def drop_stale_entries(sources: Path, cache: Path) -> bool:
    """Remove the compiled modules' entries in ``cache`` if the modules in ``sources``
    changed since they were compiled; True if so (or if nothing was stamped yet).

    Failures to read or write are ignored: numba then compiles without caching.
    """
    try:
        digest = sources_digest(sources)
        stamp = cache / STAMP_NAME
        if stamp.is_file() and stamp.read_text(encoding="ascii").strip() == digest:
            return False
        if cache.is_dir():
            for name in COMPILED_MODULES:
                for entry in cache.glob(f"{name}.*.nb[ic]"):
                    entry.unlink(missing_ok=True)
        cache.mkdir(parents=True, exist_ok=True)
        partial = cache / f"{STAMP_NAME}.{digest[:12]}.{os.getpid()}.tmp"
        partial.write_text(digest + "\n", encoding="ascii")
        partial.replace(stamp)
    except OSError:
        return False
    return True
