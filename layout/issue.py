"""What an issue holds once its puzzles are loaded and graded: the input of both back ends.

:class:`Issue` holds one list of entries of any kind, in issue order. A line puzzle's entry
(:class:`IssueEntry`) is packed into pages as a block by the plan; an entry of a kind that
lays out its own pages names its paged drawing (layout.kinds.PagedDrawing).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Protocol

from grader.i18n import _, shown_day
from grader.model import BoolArray
from layout.geometry import BlockGeometry
from layout.grades import GradeInfo as GradeInfo  # where callers have found it
from layout.kinds import KindDrawing, PagedDrawing, drawing_of
from layout.manifest import Manifest

if TYPE_CHECKING:
    from grader.colour.model import AnyPuzzle, ColourArray
    from grader.colour.palette import Palette

LEVELS = ("easy", "medium", "hard", "fiendish", "needs-guessing", "ambiguous", "contradictory")


class Entry(Protocol):
    """What every entry of an issue tells, whatever its kind: its number, grade and texts."""

    @property
    def number(self) -> int: ...
    @property
    def puzzle(self) -> Any:
        """The kind's own puzzle (grader.kinds.entry_of names its kind)."""
        ...
    @property
    def grade(self) -> GradeInfo: ...
    @property
    def date(self) -> str:
        """Its own day on the web, '' for the issue's."""
        ...
    @property
    def title(self) -> str: ...
    @property
    def note(self) -> str: ...
    @property
    def size(self) -> str: ...
    @property
    def shown_title(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def noun(self) -> str:
        """What the issue's summary counts it as (``puzzle``, or the kind's own noun)."""
        ...
    @property
    def paged(self) -> PagedDrawing | None:
        """The drawing of a kind that lays out its own pages; None for a puzzle block."""
        ...
    @property
    def worked(self) -> bool:
        """The manifest's ``worked`` names it: a worked solution is printed."""
        ...

    def credit(self) -> str: ...

    def block(self) -> IssueEntry | None:
        """The entry as a puzzle block the plan packs; None for a paged kind."""
        ...


@dataclass(frozen=True, eq=False)
class IssueEntry:
    """One puzzle of the issue, numbered, with its grade and solution picture."""

    number: int
    puzzle: AnyPuzzle
    grade: GradeInfo
    solution: BoolArray | ColourArray  # a colour puzzle's: colour indices, 0 = background
    title: str = ""
    note: str = ""
    hide_title: bool = True
    worked: bool = False
    #: a line printed under the puzzle ("about 12 min"), or ""
    about: str = ""
    #: grey print: a colour puzzle's colours as grey tints with symbols
    grey: bool = False
    #: the manifest item's own date (its day on the web), "" for the issue's
    date: str = ""

    @property
    def noun(self) -> str:
        return "puzzle"

    @property
    def paged(self) -> PagedDrawing | None:
        """None: a line puzzle is packed into pages as a block."""
        return None

    def block(self) -> IssueEntry | None:
        return self

    @property
    def drawing(self) -> KindDrawing:
        """How the puzzle's kind is drawn (:mod:`layout.kinds`)."""
        return drawing_of(self.puzzle)

    @property
    def legend_palette(self) -> Palette | None:
        """The palette a legend names with the puzzle (its colours), None for no legend."""
        return self.drawing.legend_palette(self.puzzle)

    @property
    def size(self) -> str:
        return f"{self.puzzle.width}x{self.puzzle.height}"

    @cached_property
    def geometry(self) -> BlockGeometry:
        """The puzzle block's shape in cells (computed once: pagination asks often)."""
        return BlockGeometry.of(self.puzzle, symbols=self.drawing.symbols(self.puzzle,
                                                                          self.grey))

    @property
    def shown_title(self) -> str:
        """The title printed with the puzzle: empty when it would give the picture away."""
        return "" if self.hide_title else self.title

    @property
    def label(self) -> str:
        """A short name that never spoils the picture: for headers, contents and bookmarks."""
        text = _("No. {number} \u00b7 {size}", number=self.number, size=self.size)
        return f"{text} \u00b7 {self.shown_title}" if self.shown_title else text

    def credit(self) -> str:
        meta = self.puzzle.meta
        from grader.i18n import _

        parts = [_("by {author}", author=meta.author) if meta.author else "", meta.copyright,
                 meta.license]
        return ", ".join(p for p in parts if p)


@dataclass(frozen=True)
class Issue:
    manifest: Manifest
    #: every entry in issue order, of any kind (the puzzle blocks first, then paged kinds)
    entries: tuple[Entry, ...]
    warnings: tuple[str, ...] = ()

    @property
    def blocks(self) -> tuple[IssueEntry, ...]:
        """The entries the plan packs as puzzle blocks (the line puzzles), in issue order."""
        return tuple(block for entry in self.entries
                     if (block := entry.block()) is not None)

    def counts(self) -> list[tuple[str, int]]:
        """How many entries of each noun, puzzles first (``[("puzzle", 10), (noun, 2)]``):
        what a summary says."""
        counts = {"puzzle": 0}
        for entry in self.entries:
            counts[entry.noun] = counts.get(entry.noun, 0) + 1
        return list(counts.items())

    @property
    def heading(self) -> str:
        """Title, issue label and date, as one line."""
        parts = [self.manifest.title]
        if self.manifest.issue:
            parts.append(_("Issue {issue}", issue=self.manifest.issue))
        if self.manifest.date:
            parts.append(shown_day(self.manifest.date))
        return " \u00b7 ".join(parts)

    def shorter_headings(self) -> list[str]:
        """The heading without the date, then the title alone (for narrow running heads)."""
        title = self.manifest.title
        shorter = ([_("{title} \u00b7 Issue {issue}", title=title, issue=self.manifest.issue)]
                   if self.manifest.issue else [])
        return [*shorter, title]
