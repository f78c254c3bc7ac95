"""Paginate an issue: contents, puzzle pages, solutions, worked solutions, as display lists.

Both back ends draw the same plan. Sizes are chosen here: cells between MIN_CELL and
MAX_CELL, several puzzles a page when they stay legible, a puzzle too big for the page at
MIN_CELL gets a larger page (and a warning).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from grader.errors import NonopressError
from layout.draw import Block, Bookmark, Op, Page, Text, puzzle_ops, star_ops, stars_width
from layout.fonts import MIN_TEXT_SIZE, fit_size, text_width, wrap_words
from layout.geometry import BlockGeometry
from layout.issue import Issue, IssueEntry
from layout.manifest import Manifest
from layout.units import MM, PageSize

MIN_CELL = 3.5 * MM  # below this clue digits are too small to read
AUTO_CELL = 5.0 * MM  # per_page: auto puts several puzzles on a page while cells stay this big
MAX_CELL = 7.0 * MM
SOLUTION_CELL = 1.6 * MM
SOLUTION_MIN_BOX = 22 * MM
GAP = 8 * MM
HEADER = 16.0  # puzzle header band: number, size, stars
NOTE = 11.0
RUNNING_HEAD = 18.0
FOLIO = 16.0
AUTO_COUNTS = (12, 9, 8, 6, 4, 3, 2, 1)


@dataclass(frozen=True)
class Area:
    left: float
    bottom: float
    width: float
    height: float

    @property
    def top(self) -> float:
        return self.bottom + self.height

    @property
    def right(self) -> float:
        return self.left + self.width


@dataclass
class IssuePlan:
    pages: list[Page]
    warnings: list[str] = field(default_factory=list)


def content_area(size: PageSize, manifest: Manifest) -> Area:
    m = manifest.margins
    bottom = m.bottom + FOLIO
    top = size.height - m.top - RUNNING_HEAD
    return Area(m.left, bottom, size.width - m.left - m.right, top - bottom)


def _header_height(entry: IssueEntry) -> float:
    return HEADER + (NOTE if entry.note else 0.0)


def _fit(entry: IssueEntry, width: float, height: float) -> float:
    return min(MAX_CELL, entry.geometry.fit_cell(width, height - _header_height(entry)))


def _arrangements(count: int) -> list[tuple[int, int]]:
    """(columns, rows) grids that hold ``count`` slots without an empty row or column."""
    return [
        (c, math.ceil(count / c))
        for c in range(1, count + 1)
        if (c - 1) * math.ceil(count / c) < count and c * (math.ceil(count / c) - 1) < count
    ]


def _slots(area: Area, columns: int, rows: int) -> list[Area]:
    w = (area.width - (columns - 1) * GAP) / columns
    h = (area.height - (rows - 1) * GAP) / rows
    return [
        Area(area.left + c * (w + GAP), area.top - (r + 1) * h - r * GAP, w, h)
        for r in range(rows)
        for c in range(columns)
    ]


def _best_arrangement(
    entries: Sequence[IssueEntry], area: Area, count: int | None = None
) -> tuple[list[Area], float]:
    """The grid of ``count`` slots (default: one per puzzle) that gives the smallest of
    these puzzles the largest cells."""
    best: tuple[list[Area], float] = ([], -1.0)
    for columns, rows in _arrangements(max(count or 0, len(entries))):
        slots = _slots(area, columns, rows)
        cell = min(_fit(e, s.width, s.height) for e, s in zip(entries, slots, strict=False))
        if cell > best[1]:
            best = (slots, cell)
    return best


def _bigger_page(entry: IssueEntry, manifest: Manifest) -> PageSize | None:
    """A page scaled by powers of sqrt 2 (A4 -> A3 -> A2 ...) on which ``entry`` fits."""
    for step in range(1, 9):
        size = manifest.page.scaled(math.sqrt(2) ** step, f"{manifest.page.name} x{step}")
        area = content_area(size, manifest)
        if _fit(entry, area.width, area.height) >= MIN_CELL:
            return size
    return None


class Planner:
    def __init__(self, issue: Issue):
        self.issue = issue
        self.manifest = issue.manifest
        self.area = content_area(self.manifest.page, self.manifest)
        if self.area.width < 144 or self.area.height < 144:  # two inches
            raise NonopressError(
                f"{self.manifest.source}: the margins leave too little room on the "
                f"{self.manifest.page.name} page"
            )
        self.warnings: list[str] = []
        #: user text that fits nowhere even shrunk to the smallest size: the issue is
        #: refused with all of them named rather than printed with any of them cut
        self.too_long: dict[str, None] = {}

    def fitted(self, text: str, size: float, width: float, what: str, bold: bool = False
               ) -> float:
        """The size at which ``text`` fits ``width`` whole (shrunk as far as the smallest
        printed size); when even that is too wide, the text is noted as too long."""
        fitted = fit_size(text, size, width, bold)
        if fitted is None:
            self.too_long[
                f"{what} is too long for its place ({width / MM:.0f} mm at "
                f"{MIN_TEXT_SIZE:g} pt): {text!r}"
            ] = None
            return MIN_TEXT_SIZE
        return fitted

    @staticmethod
    def wrapped(text: str, size: float, width: float, bold: bool = False) -> list[str]:
        """``text`` on as many lines of ``width`` as it needs, nothing cut."""
        return wrap_words(text, size, width, bold)

    def page(self, kind: str, size: PageSize | None = None) -> Page:
        size = size or self.manifest.page
        return Page(size.width, size.height, kind)

    # -- puzzles ---------------------------------------------------------------------------
    def puzzle_pages(self) -> list[Page]:
        pages: list[Page] = []
        entries = list(self.issue.entries)
        i = 0
        while i < len(entries):
            group, slots = self._next_group(entries[i:])
            if not group:  # too big even alone on the page
                entry = entries[i]
                size = _bigger_page(entry, self.manifest)
                if size is None:
                    raise NonopressError(f"puzzle {entry.number} ({entry.size}) is too big")
                self.warnings.append(
                    f"puzzle {entry.number} ({entry.size}) does not fit the "
                    f"{self.manifest.page.name} page with {MIN_CELL / MM:.1f} mm cells: "
                    "printed on a larger page of "
                    f"{size.width / MM:.0f} x {size.height / MM:.0f} mm"
                )
                area = content_area(size, self.manifest)
                group, slots = [entry], [area]
                page = self.page("puzzles", size)
            else:
                page = self.page("puzzles")
            # One cell size for the whole page: puzzles side by side look alike.
            cell = min(_fit(e, s.width, s.height) for e, s in zip(group, slots, strict=False))
            for entry, slot in zip(group, slots, strict=False):
                self._place_puzzle(page, entry, slot, cell)
            pages.append(page)
            i += len(group)
        return pages

    def _next_group(self, rest: list[IssueEntry]) -> tuple[list[IssueEntry], list[Area]]:
        fixed = self.manifest.per_page
        counts = [fixed] if fixed else list(AUTO_COUNTS)
        threshold = MIN_CELL if fixed else AUTO_CELL
        for count in counts:
            group = rest[:count]
            # A fixed count keeps its slot grid on the last, partly filled page too.
            slots, cell = _best_arrangement(group, self.area, fixed)
            if cell >= threshold:
                return group, slots
        # Fewer per page than asked, or the lone puzzle at a smaller cell: whatever fits.
        for count in range(min(len(rest), fixed or 1), 0, -1):
            slots, cell = _best_arrangement(rest[:count], self.area)
            if cell >= MIN_CELL:
                if fixed:
                    numbers = number_ranges([e.number for e in rest[:count]])
                    self.warnings.append(
                        f"per_page {fixed}: puzzle(s) {numbers} printed {count} to a page, "
                        f"so that cells stay at least {MIN_CELL / MM:.1f} mm"
                    )
                return rest[:count], slots
        return [], []

    def _place_puzzle(self, page: Page, entry: IssueEntry, slot: Area, cell: float) -> None:
        geometry = entry.geometry
        header = _header_height(entry)
        block_w = geometry.total_width * cell
        box_w = max(block_w, min(slot.width, 150.0))
        if text_width(self._header_text(entry), MIN_TEXT_SIZE) > self._header_room(box_w):
            box_w = slot.width  # a long title takes the slot's whole width
        box_x = slot.left + (slot.width - box_w) / 2
        page.ops.extend(self._header(entry, box_x, slot.top, box_w))
        if entry.note:
            size = self.fitted(entry.note, 8, box_w, f"the note of puzzle {entry.number}")
            page.ops.append(Text(box_x, slot.top - HEADER - 7, entry.note, size))
        x = box_x + (box_w - block_w) / 2
        top = slot.top - header
        page.ops.extend(puzzle_ops(entry.puzzle, geometry, x, top, cell))
        page.blocks.append(Block(entry.number, x, top, cell, geometry, False))
        page.bookmarks.append(Bookmark(entry.label))

    @staticmethod
    def _header_text(entry: IssueEntry) -> str:
        """What follows the number in a puzzle's header: its size and shown title."""
        rest = f"  {entry.size}"
        if entry.shown_title:
            rest += f"  {entry.shown_title}"
        return rest

    @staticmethod
    def _header_room(width: float) -> float:
        return width - text_width("No. 000", 10, True) - stars_width(8.0) - 6

    def _header(self, entry: IssueEntry, x: float, top: float, width: float) -> list[Op]:
        baseline = top - 11
        star_size = 8.0
        stars_w = stars_width(star_size)
        number = f"No. {entry.number}"
        ops: list[Op] = [Text(x, baseline, number, 10, bold=True, role="accent")]
        rest = self._header_text(entry)
        room = width - text_width(number, 10, True) - stars_w - 6
        size = self.fitted(rest.strip(), 10, room, f"the header of puzzle {entry.number}")
        ops.append(Text(x + text_width(number, 10, True), baseline, rest, size))
        if entry.grade.stars is not None:  # no stars for a grade the budget cut short
            ops.extend(star_ops(x + width - stars_w, baseline, star_size, entry.grade.stars))
        return ops

    # -- solutions -------------------------------------------------------------------------
    def solution_pages(self) -> list[Page]:
        area = self.area
        pages = [self.page("solutions")]
        page = pages[0]
        page.ops.append(Text(area.left, area.top - 14, "Solutions", 14, bold=True))
        page.bookmarks.append(Bookmark("Solutions"))
        x, shelf_top, shelf_h = area.left, area.top - 24, 0.0
        for entry in self.issue.entries:
            geometry = BlockGeometry.of(entry.puzzle, clues=False)
            cell = min(
                SOLUTION_CELL,
                area.width / geometry.width,
                (area.height - 24 - 40.0) / geometry.height,
            )
            grid_w, grid_h = geometry.width * cell, geometry.height * cell
            box_w = max(grid_w, SOLUTION_MIN_BOX)
            caption = f"{entry.number}. {entry.title}" if entry.title else f"{entry.number}."
            captions = self.wrapped(caption, 7, box_w)
            caption_h = 10.0 + 8.0 * (len(captions) - 1)
            box_h = grid_h + caption_h
            if x + box_w > area.right + 0.01:
                x, shelf_top, shelf_h = area.left, shelf_top - shelf_h - GAP / 2, 0.0
            if shelf_top - box_h < area.bottom - 0.01:
                page = self.page("solutions")
                pages.append(page)
                x, shelf_top, shelf_h = area.left, area.top, 0.0
            for k, line in enumerate(captions):
                page.ops.append(Text(x, shelf_top - 7 - 8.0 * k, line, 7))
            grid_top = shelf_top - caption_h
            page.ops.extend(
                puzzle_ops(entry.puzzle, geometry, x, grid_top, cell, solution=entry.solution)
            )
            page.blocks.append(Block(entry.number, x, grid_top, cell, geometry, True))
            x += box_w + GAP / 2
            shelf_h = max(shelf_h, box_h)
        return pages

    # -- worked solutions ------------------------------------------------------------------
    def worked_pages(self, entry: IssueEntry) -> list[Page]:
        """The solved grid, the grade and every step line, over as many pages as needed."""
        area = self.area
        page = self.page("worked")
        pages = [page]
        heading = f"Worked solution: {entry.label}"
        if entry.title and entry.hide_title:
            heading += f" \u00b7 {entry.title}"
        size = fit_size(heading, 13, area.width, True, smallest=10)
        headings = [heading] if size is not None else self.wrapped(heading, 10, area.width, True)
        size = size or 10
        baseline = area.top - size - 1
        for k, line in enumerate(headings):
            if k:
                baseline -= size * 1.2
            page.ops.append(Text(area.left, baseline, line, size, bold=True))
        page.bookmarks.append(Bookmark(f"Worked solution No. {entry.number}"))
        geometry = entry.geometry
        cell = min(MAX_CELL, geometry.fit_cell(area.width, area.height * 0.55))
        if cell < MIN_CELL:  # clues would be unreadable: the solved grid alone
            geometry = BlockGeometry.of(entry.puzzle, clues=False)
            cell = min(MAX_CELL, geometry.fit_cell(area.width, area.height * 0.55))
        top = baseline - 12
        x = area.left + (area.width - geometry.total_width * cell) / 2
        page.ops.extend(puzzle_ops(entry.puzzle, geometry, x, top, cell, solution=entry.solution))
        page.blocks.append(Block(entry.number, x, top, cell, geometry, True))
        y = top - geometry.total_height * cell - 18
        grade = entry.grade
        if grade.stars is None or grade.score is None:
            page.ops.append(Text(area.left, y, f"Level: {grade.level} (no score)", 10))
        else:
            line = f"Level: {grade.level}   score {grade.score:.1f}   "
            page.ops.append(Text(area.left, y, line, 10))
            page.ops.extend(star_ops(area.left + text_width(line, 10), y, 8, grade.stars))
        rungs = ", ".join(f"{name} {count}" for name, count in grade.rungs.items() if count)
        paragraphs = [f"Techniques used: {rungs or 'none recorded'}"]
        if grade.steps:
            paragraphs.append("Step by step:")
            paragraphs.extend(grade.steps)
        y -= 16
        continued = f"Worked solution No. {entry.number} (continued)"
        for k, paragraph in enumerate(paragraphs):
            lines = self.wrapped(paragraph, 8, area.width)
            keep = len(lines) <= 6  # a step's lines stay together on one page
            for n, line in enumerate(lines):
                full = y < area.bottom + 2
                if n == 0 and keep:
                    full = y - 10 * (len(lines) - 1) < area.bottom + 2
                if full:  # the page is full: the solve goes on overleaf
                    page = self.page("worked")
                    pages.append(page)
                    page.ops.append(Text(area.left, area.top - 11, continued, 10, bold=True))
                    y = area.top - 30
                page.ops.append(Text(area.left, y, line, 8))
                y -= 10
            if k == 0:
                y -= 6
        return pages


def plan_issue(issue: Issue) -> IssuePlan:
    planner = Planner(issue)
    puzzles = planner.puzzle_pages()
    solutions = planner.solution_pages() if issue.manifest.solutions else []
    worked = [page for e in issue.entries if e.worked for page in planner.worked_pages(e)]
    rows = _contents_rows(issue, bool(solutions), bool(worked))
    # Page numbers depend on how many contents pages there are, which does not depend on
    # the numbers: lay the contents out once to count them.
    contents_count = len(_contents_pages(planner, rows, {}, {}))
    first = contents_count + 1
    puzzle_page_of: dict[int, int] = {}
    for k, page in enumerate(puzzles):
        for block in page.blocks:
            puzzle_page_of[block.number] = first + k
    starts = {
        "Solutions": first + len(puzzles),
        "Worked solutions": first + len(puzzles) + len(solutions),
    }
    contents = _contents_pages(planner, rows, puzzle_page_of, starts)
    pages = contents + puzzles + solutions + worked
    if issue.manifest.booklet:
        while len(pages) % 4:
            pages.append(planner.page("blank"))
    for number, page in enumerate(pages, start=1):
        page.number = number
        if page.kind != "blank":
            _frame(page, issue, planner)
    if planner.too_long:
        problems = "\n".join(f"  {problem}" for problem in planner.too_long)
        raise NonopressError(
            f"{issue.manifest.source}: text that would be cut on the "
            f"{issue.manifest.page.name} page; shorten it (or choose a larger page):\n"
            + problems
        )
    return IssuePlan(pages, list(issue.warnings) + planner.warnings)


#: (kind, entry, text): kind is "puzzle", a section heading or "credit"
ContentsRow = tuple[str, IssueEntry | None, str]


def number_ranges(numbers: Sequence[int]) -> str:
    """1, 2, 3, 5, 7, 8 -> '1-3, 5, 7-8'."""
    parts: list[str] = []
    start = previous = numbers[0]
    for n in [*numbers[1:], None]:
        if n is not None and n == previous + 1:
            previous = n
            continue
        parts.append(str(start) if start == previous else f"{start}-{previous}")
        if n is not None:
            start = previous = n
    return ", ".join(parts)


def _contents_rows(issue: Issue, solutions: bool, worked: bool) -> list[ContentsRow]:
    rows: list[ContentsRow] = [("puzzle", e, "") for e in issue.entries]
    if solutions:
        rows.append(("Solutions", None, ""))
    if worked:
        rows.append(("Worked solutions", None, ""))
    credits: dict[str, list[int]] = {}
    for entry in issue.entries:
        if entry.credit():
            credits.setdefault(entry.credit(), []).append(entry.number)
    if credits:
        rows.append(("Credits", None, ""))
        for credit, numbers in credits.items():
            label = "No." if len(numbers) == 1 else "Nos."
            rows.append(("credit", None, f"{label} {number_ranges(numbers)}: {credit}"))
    return rows


ROW_HEIGHT = 14.0


def _contents_pages(
    planner: Planner, rows: list[ContentsRow], page_of: dict[int, int], starts: dict[str, int]
) -> list[Page]:
    """The contents; ``page_of`` and ``starts`` may be empty when only counting pages."""
    area = planner.area
    issue = planner.issue
    first = planner.page("contents")
    pages = [first]
    first.bookmarks.append(Bookmark("Contents"))
    # The masthead: whole, shrunk as far as 16 pt, then over several lines.
    title = issue.manifest.title
    size = fit_size(title, 22, area.width, True, smallest=16)
    titles = [title] if size is not None else planner.wrapped(title, 16, area.width, True)
    size = size or 16
    baseline = area.top - size
    for k, line in enumerate(titles):
        if k:
            baseline -= size * 1.15
        first.ops.append(Text(area.left, baseline, line, size, bold=True))
    sub = " \u00b7 ".join(
        p for p in (f"Issue {issue.manifest.issue}" if issue.manifest.issue else "",
                    issue.manifest.date, issue.manifest.author) if p
    )
    baseline -= 18
    if sub:
        sub_size = planner.fitted(sub, 11, area.width, "the issue line (issue, date, author)")
        first.ops.append(Text(area.left, baseline, sub, sub_size))
    y, page = baseline - 16, first
    col_size = area.left + area.width * 0.45
    col_level = area.left + area.width * 0.58
    col_stars = area.left + area.width * 0.76
    col_page = area.right
    for kind, entry, text in rows:
        if y < area.bottom + 4:
            page = planner.page("contents")
            pages.append(page)
            y = area.top - ROW_HEIGHT
        if kind == "puzzle" and entry is not None:
            page.ops.append(Text(area.left + 28, y, f"{entry.number}", 10, bold=True,
                                 anchor="right"))
            name, room = entry.shown_title, col_size - area.left - 44
            size = fit_size(name, 10, room, smallest=8)
            names = [name] if size is not None else planner.wrapped(name, 8, room)
            for k, line in enumerate(names):  # a long title on several lines, whole
                page.ops.append(Text(area.left + 36, y - 9 * k, line, size or 8))
            page.ops.append(Text(col_size, y, entry.size, 10))
            page.ops.append(Text(col_level, y, entry.grade.level, 10))
            if entry.grade.stars is not None:
                page.ops.extend(star_ops(col_stars, y, 8, entry.grade.stars))
            folio = str(page_of.get(entry.number, ""))
            page.ops.append(Text(col_page, y, folio, 10, anchor="right"))
            y -= 9 * (len(names) - 1)
        elif kind == "credit":
            lines = planner.wrapped(text, 8, area.width - 36)
            for k, line in enumerate(lines):
                if k:
                    y -= 10
                page.ops.append(Text(area.left + 36, y, line, 8))
        else:
            y -= 4
            page.ops.append(Text(area.left, y, kind, 11, bold=True))
            if kind in starts:
                page.ops.append(Text(col_page, y, str(starts.get(kind, "")), 10, anchor="right"))
        y -= ROW_HEIGHT
    return pages


def _frame(page: Page, issue: Issue, planner: Planner) -> None:
    """Running head and folio on every page but the first."""
    m = issue.manifest.margins
    top = page.height - m.top - 9
    if page.number > 1:
        right = page.width - m.right
        label = {"puzzles": "Puzzles", "solutions": "Solutions", "worked": "Worked solutions",
                 "contents": "Contents"}.get(page.kind, "")
        room = right - m.left - text_width("Worked solutions", 8) - 12
        # the full heading, else without the date, else the title alone (the contents
        # page carries them all)
        heads = [issue.heading, *issue.shorter_headings()]
        head = next((h for h in heads if fit_size(h, 8, room) is not None), heads[-1])
        size = planner.fitted(head, 8, room, "the running head (the issue's title)")
        page.ops.append(Text(m.left, top, head, size, role="rule"))
        page.ops.append(Text(right, top, label, 8, anchor="right", role="rule"))
    page.ops.append(Text(page.width / 2, m.bottom, str(page.number), 9, anchor="center"))
