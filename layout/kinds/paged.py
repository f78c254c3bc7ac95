"""What every kind that lays out pages of its own shares (layout.kinds.PagedDrawing): the
manifest list it reads, the entry it builds, the page frame, and its solutions printed small,
shelf after shelf, after the nonogram solutions. The fill-in and the mosaic draw their own
pages and solution pictures through these; a new paged kind passes its own in the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from grader.errors import NonopressError
from layout.draw import Bookmark, Lines, Op, Page, Rects, Text
from layout.fonts import fit_text
from layout.geometry import Area
from layout.grades import GradeInfo
from layout.profiles import Profile

if TYPE_CHECKING:
    from layout.kinds import WorkedDrawing


class _Sized(Protocol):
    @property
    def size(self) -> str: ...


P = TypeVar("P", bound=_Sized)


#: the content area of a page a paged kind draws in
Frame = Area


def lowest(page: Page) -> float:
    """The lowest y anything on the page reaches."""
    ys = [0.0]
    for op in page.ops:
        if isinstance(op, Text):
            ys.append(op.y - 3)
        elif isinstance(op, Rects):
            ys.extend(y for _, y, _, _ in op.rects)
        elif isinstance(op, Lines):
            ys.extend(min(y1, y2) for _, y1, _, y2 in op.segments)
    return min(ys[1:], default=page.height)


def read_items(value: object, base: Path, name: str, file_noun: str, keys: Sequence[str]
               ) -> list[tuple[int, dict[str, Any], Path]]:
    """The manifest's list ``name`` (of ``file_noun`` paths or mappings with ``file`` and
    ``keys``): (its number from 1, the mapping, the file's resolved path) per item."""
    if not isinstance(value, list):
        raise NonopressError(f"{name}: expected a list of {file_noun}s")
    items = []
    for k, item in enumerate(value, start=1):
        if isinstance(item, str):
            item = {"file": item}
        if not isinstance(item, dict):
            raise NonopressError(f"{name} item {k}: a {file_noun} path or a mapping with "
                                 "'file'")
        unknown = [key for key in item if key not in keys]
        if unknown:
            raise NonopressError(f"{name} item {k}: unknown key {unknown[0]!r} (known keys: "
                                 f"{', '.join(keys)})")
        file = item.get("file")
        if not isinstance(file, str) or not file.strip():
            raise NonopressError(f"{name} item {k} needs 'file': the path of a {file_noun}")
        path = Path(file) if Path(file).is_absolute() else (base / file).resolve()
        if not path.is_file():
            raise NonopressError(f"{name} item {k}: {file_noun} not found: {file}")
        items.append((k, item, path))
    return items


@dataclass(frozen=True, eq=False)
class PagedEntry(Generic[P]):
    """A puzzle of a paged kind in the issue, numbered after the nonograms, with its grade;
    a kind's entry adds its labels and names its drawing (``paged``)."""

    number: int
    puzzle: P
    grade: GradeInfo
    title: str = ""
    note: str = ""
    date: str = ""  # the day: a paged puzzle has no day of its own
    #: the manifest's ``worked`` names it: a worked solution follows the solutions
    worked: bool = False

    @property
    def size(self) -> str:
        return self.puzzle.size

    def credit(self) -> str:
        return ""

    def block(self) -> None:
        """A paged kind lays out pages of its own: no puzzle block."""
        return None


E = TypeVar("E", bound=PagedEntry[Any])


def solution_shelves(entries: Sequence[E], frame: Frame, page_size: tuple[float, float],
                     gap: float, after: Page | None, profile: Profile, heading_text: str,
                     first_height: float, box: Callable[[E, float], tuple[int, int, float]],
                     draw: Callable[[E, float, float, float], list[Op]],
                     min_width: float = 0.0) -> list[Page]:
    """The entries' solutions, small, shelf after shelf under ``heading_text``; below what
    ``after`` (the last solutions page) holds when there is room for ``first_height`` points
    of the first one, else on new pages. ``box(entry, caption height)`` gives an entry's
    grid columns, rows and cell; ``draw(entry, x, top, cell)`` its picture; a caption is at
    least ``min_width`` wide. Returns the new pages only."""
    if not entries:
        return []
    pages: list[Page] = []
    heading, caption_size = profile.text(14), profile.text(7)
    room_needed = heading + 20 + first_height
    if after is not None and lowest(after) - gap - room_needed >= frame.bottom:
        page, heading_top = after, lowest(after) - gap
    else:
        page = Page(page_size[0], page_size[1], "solutions")
        pages.append(page)
        heading_top = frame.top
    page.ops.append(Text(frame.left, heading_top - heading, heading_text, heading, bold=True))
    page.bookmarks.append(Bookmark(heading_text))
    x, shelf_top, shelf_h = frame.left, heading_top - heading - 10, 0.0
    caption_h = caption_size + 3
    for entry in entries:
        columns, rows, cell = box(entry, caption_h)
        box_w, box_h = columns * cell, rows * cell + caption_h
        if x + box_w > frame.left + frame.width + 0.01:
            x, shelf_top, shelf_h = frame.left, shelf_top - shelf_h - gap / 2, 0.0
        if shelf_top - box_h < frame.bottom - 0.01:
            page = Page(page_size[0], page_size[1], "solutions")
            pages.append(page)
            x, shelf_top, shelf_h = frame.left, frame.top, 0.0
        caption = f"{entry.number}. {entry.title}" if entry.title else f"{entry.number}."
        page.ops.append(Text(x, shelf_top - caption_size,
                             fit_text(caption, caption_size, max(box_w, min_width)),
                             caption_size))
        page.ops.extend(draw(entry, x, shelf_top - caption_h, cell))
        x += max(box_w, min_width) + gap / 2
        shelf_h = max(shelf_h, box_h)
    return pages


class PagedLayout(Generic[E]):
    """A paged kind's pages (layout.kinds.PagedDrawing), from how it draws one entry's pages
    and its entries' solutions, and its worked solutions' pictures (None: it has none)."""

    def __init__(self, entry_pages: Callable[[E, Frame, tuple[float, float], Profile],
                                             list[Page]],
                 solutions: Callable[[Sequence[E], Frame, tuple[float, float], float,
                                      Page | None, Profile], list[Page]],
                 worked: WorkedDrawing | None = None) -> None:
        self.entry_pages = entry_pages
        self.solutions = solutions
        self.worked = worked

    def pages(self, entries: Sequence[E], area: Frame | Any, page_size: tuple[float, float],
              profile: Profile) -> tuple[list[Page], dict[int, int]]:
        """The entries' pages and the index among them where each entry starts."""
        frame = Frame(area.left, area.bottom, area.width, area.height)  # any such rectangle
        pages: list[Page] = []
        starts: dict[int, int] = {}
        for entry in entries:
            starts[entry.number] = len(pages)
            pages.extend(self.entry_pages(entry, frame, page_size, profile))
        return pages, starts

    def solution_pages(self, entries: Sequence[E], area: Frame | Any,
                       page_size: tuple[float, float], gap: float, solutions: list[Page],
                       profile: Profile) -> list[Page]:
        """``solutions`` with the entries' solutions added (below the last page's, if room)."""
        frame = Frame(area.left, area.bottom, area.width, area.height)  # any such rectangle
        after = solutions[-1] if solutions else None
        return solutions + self.solutions(entries, frame, page_size, gap, after, profile)
