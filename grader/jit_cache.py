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

Made before the first run: ``pip install .`` compiles every kernel once (setup.py's build
step, :func:`write_seed`) and ships what numba cached in the package (``grader/kernels_seed``).
numba's cache stays valid after the move: it checks a cached function by a hash of its
source file's content and of its bytecode, by numba's version and by the host's CPU, never
by the file's path or time. Only the folder does depend on the path (numba names it after a
hash of the source folder), so the first process that needs a kernel copies the seed into the
user's cache folder (:func:`plant_seed`, a few MB, no numba import) and numba finds it there.
A seed of other sources, another numba or another CPU is simply not found: numba compiles.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:  # pathlib (and the cache folder's module) only once a kernel is needed
    from pathlib import Path

#: the solver modules with numba-compiled functions (they call into one another)
COMPILED_MODULES = ("kernels", "reasons", "cdcl", "line_ranges")
STAMP_NAME = "nonopress-kernels.stamp"
NUMBA_VARIABLE = "NUMBA_CACHE_DIR"

#: where a first compile is announced (grader.solver.announce_compiling sets it)
compile_notice: TextIO | None = None
_prepared: dict[Path, Path] = {}

#: the folders (below the packages' root) whose compiled kernels a build ships
SEEDED = ("grader/solver", "grader/colour", "words")
#: where in the packages' root the build puts them, one folder each (``grader.solver``, ...)
SEED_FOLDER = "grader/kernels_seed"
#: beside a seed, and beside its copy in the user's cache: the digest of the seeded sources
SEED_STAMP = "nonopress-seed.stamp"
#: the folder the packages are installed in (a string: no pathlib at import)
PACKAGES_ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
#: the seeded folders this process has planted (or found planted already)
_planted: set[str] = set()


def prepare_cache(sources: Path) -> Path:
    """Point numba at the user's cache folder and drop stale entries, once a process;
    the folder where the kernels of ``sources`` are cached."""
    if sources not in _prepared:
        folder = solver_cache_folder(configure_numba_cache(sources), sources)
        drop_stale_entries(sources, folder)
        _prepared[sources] = folder
    return _prepared[sources]


def configure_numba_cache(sources: str | os.PathLike[str] | None = None) -> Path:
    """Point numba's cache at the per-user folder (before any kernel is decorated), with
    the build's seed of the kernels of ``sources`` planted (of every seeded folder if None).

    Sets ``NUMBA_CACHE_DIR`` in this process's environment too, so that numba's own
    re-reading of its settings and the worker processes of a batch agree with it.
    """
    folder = numba_root()
    os.environ[NUMBA_VARIABLE] = str(folder)
    plant_seed(folder, folders=seeds_of(sources))
    from numba.core import config

    setattr(config, "CACHE_DIR", str(folder))  # noqa: B010 - set at import time by numba
    return folder


def numba_root() -> Path:
    """numba's cache folder: ``NUMBA_CACHE_DIR`` if the user set it, else the per-user one."""
    from pathlib import Path

    from grader.cachedir import cache_dir

    chosen = os.environ.get(NUMBA_VARIABLE, "").strip()
    return Path(chosen) if chosen else cache_dir("numba")


def cache_subfolder(root: Path, sources: Path) -> Path:
    """numba's folder for the kernels of the modules in ``sources`` (its own naming, as of
    0.59-0.68: the folder's name and the SHA-1 of its absolute path), without importing it."""
    import hashlib  # here: it loads OpenSSL, which a check of a small puzzle never needs

    parent = os.path.abspath(sources)
    return root / f"{os.path.basename(parent)}_{hashlib.sha1(parent.encode()).hexdigest()}"


def solver_cache_folder(numba_root: Path, sources: Path) -> Path:
    """The folder numba keeps the cached kernels of the modules in ``sources`` in."""
    import hashlib

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
    import hashlib

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
    root = numba_root()
    plant_seed(root, folders=seeds_of(sources))
    folder = cache_subfolder(root, sources.resolve())
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


def folder_digest(sources: Path) -> str:
    """The SHA-256 of every Python source in ``sources`` (names and content)."""
    import hashlib

    digest = hashlib.sha256()
    for path in sorted(sources.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _seed_of(packages_root: Path, folder: str) -> Path:
    return packages_root / SEED_FOLDER / folder.replace("/", ".")


def write_seed(root: Path, packages_root: Path) -> int:
    """Copy what numba cached under ``root`` for the seeded folders of ``packages_root``
    into its seed folders (the build step, after compiling every kernel); files copied."""
    import shutil

    copied = 0
    for folder in SEEDED:
        sources = packages_root / folder
        cached = cache_subfolder(root, sources)
        seed = _seed_of(packages_root, folder)
        shutil.rmtree(seed, ignore_errors=True)  # a build folder's seed of older sources
        seed.mkdir(parents=True)
        for entry in sorted(cached.glob("*")):
            if entry.suffix in (".nbi", ".nbc") or entry.name == STAMP_NAME:
                shutil.copyfile(entry, seed / entry.name)
                copied += 1
        (seed / SEED_STAMP).write_text(folder_digest(sources) + "\n", encoding="ascii")
    return copied


def seeds_of(sources: str | os.PathLike[str] | None) -> tuple[str, ...]:
    """The seeded folder that holds the kernels of ``sources`` (every seeded folder for
    None, or for a folder not seeded): a first fill copies the filler's 1.4 MB of kernels,
    not the black-and-white solver's 11 MB (200 files) too."""
    if sources is not None:
        relative = os.path.relpath(os.path.realpath(sources), PACKAGES_ROOT)
        if relative.replace(os.sep, "/") in SEEDED:
            return (relative.replace(os.sep, "/"),)
    return SEEDED


def plant_seed(root: Path, packages_root: Path | str = PACKAGES_ROOT,
               folders: tuple[str, ...] = SEEDED) -> bool:
    """Copy the kernels compiled at build time for the seeded ``folders`` into numba's
    cache folder ``root``, each once a process and only where the cache does not hold this
    very seed yet; True if copied.

    A seed is copied only if its sources are the ones installed (an edited checkout
    compiles, as numba would anyway). Data files go first and each index, then the stamp,
    last, every one written beside and renamed: a process that reads meanwhile finds the
    old entries or the new ones, never a part of a file. Failures are ignored: numba then
    compiles as without a seed.
    """
    wanted = [folder for folder in folders if folder not in _planted]
    if not wanted:
        return False
    _planted.update(wanted)
    import shutil
    from pathlib import Path

    packages_root = Path(packages_root)
    copied = False
    for folder in wanted:
        seed = _seed_of(packages_root, folder)
        sources = packages_root / folder
        target = cache_subfolder(root, sources)
        try:
            stamp = (seed / SEED_STAMP).read_text(encoding="ascii")
        except OSError:
            continue  # no seed: an editable install, or a build that skipped it
        try:
            if (target / SEED_STAMP).read_text(encoding="ascii") == stamp:
                continue
        except OSError:
            pass
        try:
            if stamp.strip() != folder_digest(sources):
                continue
            target.mkdir(parents=True, exist_ok=True)
            order = {".nbc": 0, ".nbi": 1, ".stamp": 2}
            entries = sorted((p for p in seed.iterdir() if p.name != SEED_STAMP),
                             key=lambda p: (order.get(p.suffix, 3), p.name))
            for entry in [*entries, seed / SEED_STAMP]:
                partial = target / f".{entry.name}.{os.getpid()}.tmp"
                shutil.copyfile(entry, partial)
                partial.replace(target / entry.name)
            copied = True
        except OSError:
            continue
    return copied
