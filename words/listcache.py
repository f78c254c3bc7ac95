"""Loaded word lists kept between runs, in the user cache folder (grader/cachedir.py).

A large list takes seconds to read, normalise, filter and sort; the cached form is its words
in bit-set order, one per line, and their scores (a NumPy ``.npz``, read without pickle),
and loads in a fraction of that. The key is a hash of everything that changes the list:
the source's bytes (not its name or mtime: an edited list is read again, a copied one is
not), the options (names, minimum length and score, blocklist) and :data:`CACHE_VERSION`.
A cache that cannot be read or written is only slower: the list is built again.

``pip install .`` builds the default list once (setup.py, :func:`write_seed`) and ships its
entry in ``words/wordlists_seed/``: a user cache without the entry reads the shipped one, so
the first ``fill`` does not build the list (1.5-2 CPU s) either. The key is the same
everywhere (the sources' bytes and wordfreq's version, never a path), so a seed made from
other sources or another wordfreq is simply never found.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from words.wordlist import WordList

#: Bump when the parsing or the stored layout changes: old entries are then never read.
CACHE_VERSION = "wordlist-1"
SUBFOLDER = "wordlists"
#: Entries kept; the least recently used beyond this are deleted.
KEEP = 8
#: Set to any value to bypass the cache (benchmarks of a cold load).
DISABLE_VARIABLE = "NONOPRESS_NO_LIST_CACHE"
#: the entries built by ``pip install .``, in the installed package
SEED_FOLDER = Path(__file__).resolve().parent / "wordlists_seed"


def cache_key(kind: str, parts: Sequence[str]) -> str:
    text = "\n".join([CACHE_VERSION, kind, *parts]).encode("utf-8")
    return hashlib.sha256(text).hexdigest()[:32]


def cached(kind: str, parts: Sequence[str], name: str,
           build: Callable[[], WordList]) -> WordList:
    """The list stored under this key, else ``build()`` (then stored)."""
    if os.environ.get(DISABLE_VARIABLE):
        return build()
    from grader.cachedir import cache_dir

    folder = cache_dir(SUBFOLDER)
    path = folder / f"{kind}-{cache_key(kind, parts)}.npz"
    words = _read(path, name)
    if words is not None:
        with contextlib.suppress(OSError):
            os.utime(path)  # recently used: kept by the pruning below
        return words
    words = _read(SEED_FOLDER / path.name, name)
    if words is not None:
        return words
    words = build()
    _write(path, words)
    _prune(folder)
    return words


def write_seed(target: Path) -> int:
    """Build the list ``fill`` reads by default (the default list with the default options)
    and put its cache entry in ``target``; the entries written (setup.py's build step)."""
    import shutil

    from grader.cachedir import ENVIRONMENT_VARIABLE
    from words.wordlist import default_word_list

    before = os.environ.get(ENVIRONMENT_VARIABLE)
    with tempfile.TemporaryDirectory(prefix="nonopress-lists-") as folder:
        os.environ[ENVIRONMENT_VARIABLE] = folder
        try:
            default_word_list()  # a fresh process: the build step's (none loaded yet)
        finally:
            if before is None:
                del os.environ[ENVIRONMENT_VARIABLE]
            else:
                os.environ[ENVIRONMENT_VARIABLE] = before
        built = sorted((Path(folder) / SUBFOLDER).glob("*.npz"))
        target.mkdir(parents=True, exist_ok=True)
        for entry in built:
            shutil.copyfile(entry, target / entry.name)
    return len(built)


def _read(path: Path, name: str) -> WordList | None:
    if not path.is_file():
        return None
    import numpy as np

    from words.wordlist import WordList

    try:
        with np.load(path, allow_pickle=False) as data:
            text = data["words"].tobytes().decode("ascii")
            scores = data["scores"].tolist()
    except (OSError, ValueError, KeyError, UnicodeDecodeError, EOFError):
        return None
    words = text.split("\n") if text else []
    if len(words) != len(scores):
        return None
    # 60,000 new strings and tuples, none of them cyclic: the collector's passes over them
    # took a third of the load (20 ms of 57)
    paused = gc.isenabled()
    gc.disable()
    try:
        return WordList(dict(zip(words, scores, strict=True)), name, ordered=True)
    finally:
        if paused:
            gc.enable()


def _write(path: Path, words: WordList) -> None:
    import numpy as np

    items = list(words.ordered_items())
    text = "\n".join(w for w, _ in items).encode("ascii")
    scores = np.array([s for _, s in items], dtype=np.float64)
    try:
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".npz")
    except OSError:
        return  # an unwritable cache only makes the next run slower
    try:
        with os.fdopen(fd, "wb") as handle:
            np.savez(handle, words=np.frombuffer(text, dtype=np.uint8), scores=scores)
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def _prune(folder: Path) -> None:
    try:
        entries = sorted(folder.glob("*.npz"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in entries[KEEP:]:
            old.unlink()
    except OSError:
        pass
