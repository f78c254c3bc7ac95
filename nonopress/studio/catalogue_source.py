"""The library over a catalogue (``nonopress studio --db``): the same functions the
``nonopress library`` command calls (``find`` with its ``Filters``, ``duplicates``, the
printing history), never SQL of its own.

A catalogue entry is named ``catalogue:ID`` in the page and the API. Picked into an issue, it
is written into the folder as ``NAME-puzzles/NN-KEY.yaml`` (the puzzle exactly as imported,
as a manifest's ``from_library`` does), so that the manifest the studio writes is an ordinary
one the CLI reads; the issue built is then recorded in the catalogue's history.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from grader.errors import NonopressError
from grader.kinds import STORED, TAGS
from nonopress.catalogue import Catalogue, Entry, Filters
from nonopress.studio.library import MAX_FILES, LibraryEntry

PREFIX = "catalogue:"
#: the query parameters of ``GET /api/puzzles`` that become the catalogue's filters
FILTER_PARAMS = ("level", "size", "tag", "kind", "stars", "unused_for", "unused_since",
                 "never_printed", "title")


def catalogue_id(label: str) -> int | None:
    """12 for ``catalogue:12``; None for a folder path."""
    if not label.startswith(PREFIX):
        return None
    number = label[len(PREFIX):]
    if not (number.isascii() and number.isdigit()) or len(number) > 18:
        raise NonopressError(f"{label}: a catalogue puzzle is catalogue:ID, e.g. catalogue:12")
    return int(number)


def filters_from_query(query: Mapping[str, str], multi: Mapping[str, list[str]],
                       limit: int = MAX_FILES) -> Filters:
    """The page's filters as the catalogue's :class:`Filters` (as ``library find`` parses
    its options): ``level`` and ``tag`` repeatable, ``size`` 15x15 or 15x15..25x25,
    ``stars`` LOW..HIGH, ``unused_for`` N issues, ``unused_since`` YYYY-MM-DD."""
    from nonopress.catalogue.finding import parse_range, parse_size_range
    from nonopress.catalogue.picking import unused_since

    unknown = [name for name in query if name not in FILTER_PARAMS]
    if unknown:
        raise NonopressError(f"unknown filter {unknown[0]!r} (known: "
                             f"{', '.join(FILTER_PARAMS)})")
    widths = heights = None
    if query.get("size", "").strip():
        widths, heights = parse_size_range(query["size"])
    unused_for = None
    if query.get("unused_for", "").strip():
        text = query["unused_for"].strip()
        if not (text.isascii() and text.isdigit()) or len(text) > 9:
            raise NonopressError(f"unused_for: a number of issues, got {text!r}")
        unused_for = int(text)
    kind = query.get("kind") or None
    if kind is not None and kind not in TAGS:
        raise NonopressError(f"kind: {' or '.join(TAGS)}, got {kind!r}")
    return Filters(
        kind=kind, widths=widths, heights=heights,
        levels=tuple(v for v in multi.get("level", []) if v),
        stars=parse_range(query["stars"], "stars", int) if query.get("stars") else None,
        tags=tuple(v for v in multi.get("tag", []) if v.strip()),
        unused_since=unused_since(query["unused_since"]) if query.get("unused_since")
        else None,
        unused_for=unused_for, never_printed=query.get("never_printed") in ("1", "true"),
        text=query.get("title") or None, limit=limit,
    )


class CatalogueSource:
    """The library's entries from an open catalogue (graded when it was imported)."""

    name = "catalogue"

    def __init__(self, catalogue: Catalogue):
        self.catalogue = catalogue
        self._lock = threading.Lock()
        #: a colour puzzle's palette by its content key (the listing has no puzzle text: a
        #: puzzle is read once, when first listed)
        self._palettes: dict[str, list[dict[str, str]] | None] = {}

    @property
    def location(self) -> str:
        return self.catalogue.name

    def entries(self, filters: Filters | None = None) -> list[LibraryEntry]:
        from nonopress.catalogue import duplicates, find
        from nonopress.catalogue.history import last_printed

        found = find(self.catalogue, filters or Filters(limit=MAX_FILES))
        twins: dict[int, list[str]] = {}
        for pair in duplicates(self.catalogue, near=0):  # one design: rotated, mirrored
            twins.setdefault(pair.first.id, []).append(f"{PREFIX}{pair.second.id}")
            twins.setdefault(pair.second.id, []).append(f"{PREFIX}{pair.first.id}")
        for group in list(twins.values()):  # a design stored three times: all name each other
            for label in list(group):
                for other in twins.get(int(label[len(PREFIX):]), []):
                    if other not in group:
                        group.append(other)
        printed = last_printed(self.catalogue, found)
        entries = [self._entry(entry, twins, printed) for entry in found]
        self._with_solves(entries, {entry.id: entry.key for entry in found})
        return entries

    def _with_solves(self, entries: list[LibraryEntry], keys: dict[int, str]) -> None:
        """The solves the player reported of each entry (``library solves``'s figures)."""
        from nonopress.solves.reports import puzzle_stats

        figures = puzzle_stats(self.catalogue, list(keys.values()))
        for entry in entries:
            stats = figures.get(keys.get(entry.id or 0, ""))
            if stats is not None:
                stats.predicted = entry.effort_minutes
                entry.solves = stats.to_json()

    def palette(self, entry: Entry) -> list[dict[str, str]] | None:
        """A colour entry's palette as the page draws it (None for black and white, or a
        puzzle that no longer reads)."""
        from grader.kinds import kind_of
        from nonopress.catalogue import get

        kind = STORED.get(entry.kind)
        if kind is None or not kind.rows_need_palette:
            return None
        with self._lock:
            if entry.key in self._palettes:
                return self._palettes[entry.key]
        try:
            whole = entry if entry.puzzle_text else get(self.catalogue, str(entry.id))
            palette = kind_of(whole.puzzle()).palette()
        except (NonopressError, ValueError):
            palette = None
        with self._lock:
            self._palettes[entry.key] = palette
        return palette

    def _entry(self, entry: Entry, twins: dict[int, list[str]], printed: dict[int, str]
               ) -> LibraryEntry:
        me = f"{PREFIX}{entry.id}"
        palette = self.palette(entry)
        return LibraryEntry(
            path=me, index=1, count=1, title=entry.title, kind=entry.kind,
            width=entry.width, height=entry.height,
            verdict=entry.verdict or (None if entry.status == "pending" else entry.status),
            level=entry.level, score=entry.score, stars=entry.stars,
            effort_minutes=entry.minutes,
            # a colour picture's rows are palette characters: drawn with its palette
            thumbnail=list(entry.solution) if entry.solution and (
                palette is not None or not _needs_palette(entry)) else None,
            palette=palette,
            shape_key=entry.shape_key,
            duplicates=sorted({t for t in twins.get(entry.id, []) if t != me}),
            # a failed grade still opens and prints: its verdict says "failed", not an error
            pending=entry.status == "pending", id=entry.id, tags=list(entry.tags),
            last_printed=printed.get(entry.id), author=entry.author,
        )

    def pending(self) -> int:
        return 0  # the catalogue grades when puzzles are added (library add)

    def entry(self, path: str, index: int) -> LibraryEntry | None:
        from nonopress.catalogue import get

        number = catalogue_id(path)
        if number is None:
            return None
        try:
            found = get(self.catalogue, str(number))
        except NonopressError:
            return None
        entry = self._entry(found, {}, {})
        self._with_solves([entry], {found.id: found.key})
        return entry

    def puzzle_text(self, number: int) -> tuple[str, str]:
        """(file name, the puzzle as imported, YAML) of ``catalogue:number``."""
        from nonopress.catalogue import get

        found = get(self.catalogue, str(number))
        return f"catalogue-{found.id}.yaml", found.puzzle_text

    def export(self, labels: list[str], folder: Path, name: str) -> dict[str, str]:
        """Each ``catalogue:ID`` of ``labels`` written to ``NAME-puzzles/NN-KEY.yaml`` in
        ``folder`` (atomically; a file already there with other content is not replaced):
        label -> the file's path relative to the folder."""
        from grader.atomic import atomic_write
        from nonopress.catalogue import get
        from nonopress.studio.paths import confine, relative_name
        from nonopress.studio.security import RequestRefused

        written: dict[str, str] = {}
        target_folder = confine(folder, f"{name}-puzzles", must_exist=False)
        for number, label in enumerate(labels, 1):
            ident = catalogue_id(label)
            if ident is None:
                continue
            found = get(self.catalogue, str(ident))
            path = target_folder / f"{number:02d}-{found.key[:16]}.yaml"
            if path.is_symlink():  # planted: never written (nor read) through
                raise RequestRefused(409, f"{relative_name(folder, path.parent)}/{path.name} "
                                          "is a link: refused, nothing written")
            if path.exists() and path.read_text(encoding="utf-8") != found.puzzle_text:
                raise RequestRefused(409, f"{relative_name(folder, path)} is already in the "
                                          "folder with another puzzle: choose another name")
            target_folder.mkdir(exist_ok=True)
            atomic_write(str(path), found.puzzle_text, links=False)
            written[label] = relative_name(folder, path)
        return written

    def close(self) -> None:
        self.catalogue.close()


def _needs_palette(entry: Entry) -> bool:
    """Whether drawing the entry's stored rows needs its puzzle's palette (a kind no class
    registers: drawn not at all)."""
    kind = STORED.get(entry.kind)
    return kind is None or kind.rows_need_palette


def open_source(location: str | None, folder: Path) -> Any:
    """The catalogue named by ``--db`` (it must exist), else ``$NONOPRESS_LIBRARY`` or the
    folder's ``nonopress-library.sqlite`` when there is one; None: the folder is the library."""
    import os

    from nonopress.catalogue import open_catalogue
    from nonopress.catalogue.database import DEFAULT_FILE, ENVIRONMENT

    if location is None or not location.strip():
        location = os.environ.get(ENVIRONMENT, "").strip() or None
        if location is None:
            default = folder / DEFAULT_FILE
            if not default.is_file():
                return None
            location = str(default)
    return CatalogueSource(open_catalogue(location, create=False))
