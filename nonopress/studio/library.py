"""The folder as a library: every puzzle with its size, level, stars, verdict, thumbnail.

The page and ``GET /api/puzzles`` see a :class:`LibrarySource`: a list of
:class:`LibraryEntry`. :class:`FolderSource` reads the studio's folder; a catalogue
(``nonopress studio --db``) is another source that fills the same entries
(:mod:`nonopress.studio.catalogue_source`). The folder's grades are computed off the request
path, one puzzle at a time on a background thread, and kept by the puzzle's content key: a
listing answers at once with what is known and says how many are still pending.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Protocol

from grader.errors import NonopressError
from grader.results import Budget
from nonopress.studio.paths import relative_name

#: picture files are imported through "make", not listed as puzzles
PICTURE_SUFFIXES = frozenset({".png", ".gif", ".bmp", ".jpg", ".jpeg", ".webp", ".tif", ".tiff"})
#: files listed at most (a folder of a million files is not walked to the end)
MAX_FILES = 2000
#: seconds each puzzle's grade may take in the library (the editor grades with more)
LIBRARY_GRADE_SECONDS = 8.0
LEVEL_ORDER = ("easy", "medium", "hard", "fiendish", "needs-guessing", "stuck", "undecided",
               "ambiguous", "contradictory")


@dataclass
class LibraryEntry:
    """One puzzle as the library shows it (``None``: not known yet or not applicable)."""

    path: str  #: relative to the folder, with '/'
    index: int  #: 1-based within the file
    count: int  #: puzzles in the file
    title: str
    kind: str  #: its kind's tag (grader.kinds.BY_TAG)
    width: int
    height: int
    verdict: str | None = None
    level: str | None = None
    score: float | None = None
    stars: int | None = None
    effort_minutes: float | None = None
    #: the picture as row strings (palette chars for colour), for the thumbnail
    thumbnail: list[str] | None = None
    palette: list[dict[str, str]] | None = None
    shape_key: str | None = None
    #: labels of the other entries that are the same design (rotated or mirrored too)
    duplicates: list[str] = field(default_factory=list)
    error: str | None = None
    pending: bool = False
    #: a catalogue's entries: its id, tags, author and when it (or its design) was last printed
    id: int | None = None
    tags: list[str] = field(default_factory=list)
    author: str | None = None
    last_printed: str | None = None
    #: what the web player's solvers did with it (nonopress.solves.reports.Stats.to_json)
    solves: dict[str, Any] | None = None

    @property
    def label(self) -> str:
        return f"{self.path}#{self.index}" if self.count > 1 else self.path

    def as_dict(self) -> dict[str, Any]:
        # shallow (asdict deep-copies: a fifth of a 2,000-entry listing's time); the lists
        # are serialised at once
        record = {f.name: getattr(self, f.name) for f in fields(self)}
        record["label"] = self.label
        record["editable"] = self.error is None and editable(self.kind)
        return record


def editable(tag: str) -> bool:
    """Whether the studio's editor opens puzzles of the kind ``tag`` names: its registry
    entry's ``editor`` (the library offers no other kind to the editor)."""
    from grader.kinds import BY_TAG

    entry = BY_TAG.get(tag)
    return entry is not None and entry.editor


class LibrarySource(Protocol):
    """Where the library's entries come from: the folder, or a catalogue."""

    name: str

    def entries(self) -> list[LibraryEntry]: ...

    def pending(self) -> int: ...

    def entry(self, path: str, index: int) -> LibraryEntry | None:
        """One entry, graded now if it was still waiting."""
        ...

    def close(self) -> None:
        """Stop background work (the server is shutting down)."""
        ...


@dataclass
class _Known:
    """What grading one puzzle found, kept by its content key."""

    verdict: str
    level: str
    score: float | None
    stars: int | None
    effort_minutes: float | None
    solution: list[str] | None


def level_rank(entry: LibraryEntry) -> tuple[int, float]:
    level = entry.level or "undecided"
    rank = LEVEL_ORDER.index(level) if level in LEVEL_ORDER else len(LEVEL_ORDER)
    return rank, entry.score if entry.score is not None else 0.0


def by_level(entries: list[LibraryEntry]) -> list[LibraryEntry]:
    """Easiest first: level, then score within the level."""
    return sorted(entries, key=level_rank)


class FolderSource:
    """The puzzle files under a folder (as ``batch`` finds them), graded in the background."""

    name = "folder"

    def __init__(self, folder: Path, grade_seconds: float = LIBRARY_GRADE_SECONDS):
        self.folder = folder.resolve()
        self.grade_seconds = grade_seconds
        self._files: dict[str, tuple[tuple[int, int], list[tuple[Any, str | None]]]] = {}
        self._known: dict[str, _Known] = {}
        self._queue: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._worker: threading.Thread | None = None
        self._stopped = threading.Event()

    # -- reading ---------------------------------------------------------------------------
    def _paths(self) -> Iterator[Path]:
        from nonopress.batch.discover import find_puzzle_files, known_suffixes

        suffixes = known_suffixes() - PICTURE_SUFFIXES
        try:
            found = find_puzzle_files([self.folder], suffixes)
        except NonopressError:
            return
        yield from found[:MAX_FILES]

    def _read(self, path: Path) -> list[tuple[Any, str | None]]:
        """(puzzle, None) for each puzzle of the file, or [(None, error)]."""
        from grader.errors import BundleError
        from grader.kinds import read_puzzles

        try:
            return [(puzzle, None) for puzzle in read_puzzles(path)]
        except BundleError as exc:
            return [(puzzle, None) for _, puzzle in exc.readable] + [(None, str(exc))]
        except NonopressError as exc:
            return [(None, str(exc))]

    def puzzles(self) -> Iterator[tuple[str, int, int, Any, str | None]]:
        """(relative path, index, count, puzzle or None, error) for every file, re-read when
        its size or time changed."""
        for path in self._paths():
            try:
                name = relative_name(self.folder, path)
                info = os.stat(path)
            except (ValueError, OSError):  # a link out of the folder, or gone meanwhile
                continue
            stamp = (info.st_mtime_ns, info.st_size)
            cached = self._files.get(name)
            if cached is None or cached[0] != stamp:
                cached = (stamp, self._read(path))
                self._files[name] = cached
            items = cached[1]
            for index, (puzzle, error) in enumerate(items, 1):
                yield name, index, len(items), puzzle, error

    def find(self, path: str, index: int) -> Any:
        """The puzzle at ``path`` (relative) number ``index``, or None."""
        for name, number, _, puzzle, _ in self.puzzles():
            if name == path and number == index:
                return puzzle
        return None

    # -- entries ---------------------------------------------------------------------------
    def entries(self) -> list[LibraryEntry]:
        from grader.kinds import kind_of

        entries: list[LibraryEntry] = []
        wanted: dict[str, Any] = {}
        for name, index, count, puzzle, error in self.puzzles():
            if puzzle is None:
                entries.append(LibraryEntry(name, index, count, "", "bw", 0, 0,
                                            error=error or "unreadable"))
                continue
            kind = kind_of(puzzle)
            entry = LibraryEntry(name, index, count, puzzle.title, kind.tag,
                                 puzzle.width, puzzle.height, palette=kind.palette())
            key = puzzle.key()
            known = self._known.get(key)
            if known is None:
                entry.pending = True
                wanted[key] = puzzle
                entry.thumbnail = list(puzzle.solution) if puzzle.solution else None
            else:
                entry.verdict, entry.level, entry.score = known.verdict, known.level, known.score
                entry.stars, entry.effort_minutes = known.stars, known.effort_minutes
                entry.thumbnail = known.solution
            entries.append(entry)
        _mark_duplicates(entries)
        if wanted:
            self._enqueue(wanted)
        return entries

    def entry(self, path: str, index: int) -> LibraryEntry | None:
        puzzle = self.find(path, index)
        if puzzle is None:
            return None
        key = puzzle.key()
        if key not in self._known:
            known = self._grade(puzzle)
            with self._lock:
                self._known[key] = known
                self._queue.pop(key, None)
        return next((e for e in self.entries() if e.path == path and e.index == index), None)

    def pending(self) -> int:
        with self._lock:
            return len(self._queue)

    # -- background grading ----------------------------------------------------------------
    def _enqueue(self, wanted: dict[str, Any]) -> None:
        with self._lock:
            self._queue.update(wanted)
            if self._worker is None or not self._worker.is_alive():
                self._worker = threading.Thread(target=self._grade_queue, daemon=True,
                                                name="studio-library")
                self._worker.start()

    def _grade_queue(self) -> None:
        while not self._stopped.is_set():
            with self._lock:
                if not self._queue:
                    return
                key, puzzle = next(iter(self._queue.items()))
            known = self._grade(puzzle)
            with self._lock:
                self._known[key] = known
                self._queue.pop(key, None)

    def _grade(self, puzzle: Any) -> _Known:
        from grader.kinds import kind_of

        kind = kind_of(puzzle)
        try:
            result = kind.grade(None, Budget(seconds=self.grade_seconds))
            # the proved solution, else the file's (a grid the ladder left open is no picture)
            proved = kind.grid_rows(result) if result.verdict == "unique" else None
            rows = proved if proved and not any("?" in row for row in proved) else None
            rows = rows or puzzle.solution
            return _Known(result.verdict, result.level, result.score, result.stars,
                          result.effort_minutes if result.graded else None,
                          list(rows) if rows else None)
        except NonopressError:  # a puzzle the grader refuses is listed without a grade
            return _Known("undecided", "undecided", None, None, None, None)

    def close(self) -> None:
        self._stopped.set()


def _mark_duplicates(entries: list[LibraryEntry]) -> None:
    """Entries whose pictures are one design under the eight symmetries name each other."""
    import numpy as np

    from grader.shapes import shape_key

    groups: dict[str, list[LibraryEntry]] = {}
    for entry in entries:
        if entry.thumbnail is None:
            continue
        chars = sorted(set("".join(entry.thumbnail)) - {"."})
        lookup = {ch: i + 1 for i, ch in enumerate(chars)}
        picture = np.array([[lookup.get(ch, 0) for ch in row] for row in entry.thumbnail],
                           dtype=np.uint8)
        entry.shape_key = shape_key(picture)
        groups.setdefault(entry.shape_key, []).append(entry)
    for group in groups.values():
        if len(group) > 1:
            for entry in group:
                entry.duplicates = [other.label for other in group if other is not entry]
