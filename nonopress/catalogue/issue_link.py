"""What ``nonopress issue`` does with a catalogue: fill ``from_library``, warn about puzzles
printed before (themselves or their designs), and record what the issue printed.

The layout never sees the catalogue (it cannot import nonopress): the puzzles picked are
added to the manifest as plain puzzle files before the layout reads it.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from grader.errors import NonopressError
from grader.kinds import AnyPuzzle
from layout.manifest import Manifest, PuzzleRef
from nonopress.catalogue.database import Catalogue, open_catalogue, resolve_location
from nonopress.catalogue.fill import resolve, section_of
from nonopress.catalogue.history import Printed, earlier_printings, record_printings


def issue_name(manifest: Manifest) -> str:
    """How the history names an issue: its title and number (else the manifest's name);
    a name longer than the catalogue's column (200 characters, which PostgreSQL holds to)
    is cut and ends in a digest of the whole, so two long titles stay two issues."""
    import hashlib

    name = f"{manifest.title} {manifest.issue or manifest.source.stem}".strip()
    if len(name) <= MAX_ISSUE_NAME:
        return name
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"{name[:MAX_ISSUE_NAME - 18].rstrip()} ~{digest}"


#: the longest issue name the history stores (schema: printings.issue, bookings.issue)
MAX_ISSUE_NAME = 200


@dataclass
class IssueLibrary:
    catalogue: Catalogue
    issue: str
    #: what :meth:`fill` changed, for :meth:`abandon` to undo: the manifest's text before
    #: a new pick wrote ``chosen`` into it, and the puzzle files that pick wrote
    _before: tuple[Path, bytes] | None = None
    _written: tuple[Path, ...] = ()

    @classmethod
    def open(cls, db: str | None, manifest: Manifest) -> IssueLibrary | None:
        """The catalogue named by ``--db`` (or the default one, when it exists); None when
        there is none. A manifest with ``from_library`` needs one."""
        wants = section_of(manifest.from_library, manifest.source) is not None
        location = resolve_location(db)
        if db is None and "://" not in location and not Path(location).is_file():
            if wants:
                raise NonopressError(f"{manifest.source}: from_library needs a catalogue: "
                                     f"--db FILE|URL (none at {location})")
            return None
        return cls(open_catalogue(location, create=False), issue_name(manifest))

    def fill(self, manifest: Manifest) -> Manifest:
        """``manifest`` with the puzzles of its ``from_library`` section appended."""
        section = section_of(manifest.from_library, manifest.source)
        fresh = section is not None and not section.get("chosen")
        before = manifest.source.read_bytes() if fresh else None
        chosen = resolve(self.catalogue, manifest.source, manifest.from_library, self.issue)
        if before is not None:  # a new pick, booked: undone by abandon() if the build fails
            self._before = (manifest.source, before)
            self._written = tuple(c.file for c in chosen)
        refs = tuple(PuzzleRef(path=c.file, title=c.title or None,
                               hide_title=manifest.puzzles[0].hide_title
                               if manifest.puzzles else True) for c in chosen)
        return replace(manifest, puzzles=manifest.puzzles + refs)

    def abandon(self) -> int:
        """Undo a new pick after a failed build: release its bookings, put the manifest
        back as it was (no ``chosen``) and remove the puzzle files it wrote, so that the
        next build picks afresh and no puzzle stays booked for an issue never made. The
        number of bookings released (0 when the build picked nothing new)."""
        from grader.atomic import atomic_write
        from nonopress.catalogue.picking import release

        if self._before is None:
            return 0
        source, text = self._before
        released = release(self.catalogue, self.issue)
        for path in self._written:
            path.unlink(missing_ok=True)
        for folder in {path.parent for path in self._written}:
            with contextlib.suppress(OSError):  # removed only when nothing else is in it
                folder.rmdir()
        atomic_write(str(source), text)
        self._before, self._written = None, ()
        return released

    def reprints(self, puzzles: Sequence[AnyPuzzle]) -> list[str]:
        """Warnings for the issue's puzzles (in issue order) printed before, themselves or
        their designs."""
        return earlier_printings(self.catalogue, list(puzzles), self.issue)

    def record(self, manifest: Manifest, puzzles: Sequence[AnyPuzzle],
               pages: dict[int, int]) -> int:
        """Record the issue's puzzles (in issue order; ``pages``: puzzle number -> page)."""
        printed = [Printed(puzzle, number, pages.get(number))
                   for number, puzzle in enumerate(puzzles, 1)]
        return record_printings(self.catalogue, self.issue, printed,
                                date=_date(manifest.date), profile=manifest.profile.name)


def _date(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text[:10]) if text else None
    except ValueError:
        return None
