"""Paginate an issue: contents, puzzle pages, solutions, worked solutions, as display lists.

Both back ends draw the same plan. Sizes are chosen here: cells between MIN_CELL and
MAX_CELL, several puzzles a page when they stay legible, a puzzle too big for the page at
MIN_CELL gets a larger page (and a warning). A KDP book short of KDP's 24 pages is planned
again with bigger puzzles (fewer to a page) and solutions before it is padded with Notes
pages (``_short_book``); a book that needs no padding is planned once, as ever.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from grader.errors import ManyProblems, NonopressError
from grader.i18n import N_, _, current, level_name, ngettext, rung_name, shown_day
from grader.minutes import about_text
from grader.wording import plural
from layout.draw import (
    Block,
    Bookmark,
    ClueText,
    Lines,
    Op,
    Page,
    Polygons,
    Rects,
    Text,
    star_ops,
    stars_width,
    translate_page,
)
from layout.fonts import MIN_TEXT_SIZE, fit_size, text_width, wrap_words
from layout.frontmatter import back_page, front_pages
from layout.geometry import Area, BlockGeometry
from layout.issue import Entry, Issue, IssueEntry
from layout.kinds import PagedDrawing, StepGrids, puzzle_ops
from layout.manifest import Manifest, Margins
from layout.profiles import LARGE_PRINT_BODY, LARGE_PRINT_SCALE, Profile
from layout.stepgrid import MAX_WIDTH_SHARE
from layout.units import MM, PageSize

MIN_CELL = 3.5 * MM  # below this clue digits are too small to read
AUTO_CELL = 5.0 * MM  # per_page: auto puts several puzzles on a page while cells stay this big
MAX_CELL = 7.0 * MM
SOLUTION_CELL = 1.6 * MM
SOLUTION_MIN_BOX = 22 * MM
GAP = 8 * MM
#: a worked solution's steps with grids stand in columns: at most this many, each at
#: least this wide (a sentence of a dozen words a line), this far apart
STEP_COLUMNS, STEP_COLUMN_MIN, STEP_GUTTER = 3, 80 * MM, 6 * MM
HEADER = 16.0  # puzzle header band: number, size, stars
NOTE = 11.0
ABOUT = 11.0  # the line under a puzzle ("about 12 min"), when the manifest asks for it
LEGEND_BAND = 12.0  # a colour puzzle's legend of its colours, under its header
RUNNING_HEAD = 18.0
FOLIO = 16.0
AUTO_COUNTS = (12, 9, 8, 6, 4, 3, 2, 1)
#: How far ahead the planner looks for a puzzle to share a page that would be half empty.
SHARE_LOOKAHEAD = 4
#: What a margin under a print profile keeps free of the edge for half a rule's width and
#: a descender: a printer measures the ink, not the centre of the line.
INK_ALLOWANCE = 3.0
#: Solution pictures under a print profile: big enough that its heavier rules stay clear.
PRINT_SOLUTION_CELL = 2.4 * MM
#: Large-print solutions: a 5x5 about 1.2 in wide, checkable without a magnifier.
LARGE_PRINT_SOLUTION_CELL = 6.0 * MM
#: A short KDP book's puzzles grow to fill its pages before any is padded, up to large
#: print's largest cell ...
SHORT_BOOK_MAX_CELL = MAX_CELL * LARGE_PRINT_SCALE
#: ... with clue digits no bigger than large print's body text (a 5x5 at 11 mm cells would
#: print 20 pt digits: a children's book, not a puzzle book).
SHORT_BOOK_MAX_DIGITS = LARGE_PRINT_BODY
#: The least cells several of a short book's puzzles share a page at, tried largest first
#: (the book's puzzles one to a page at the top, as many as AUTO_CELL allows at the bottom).
SHORT_BOOK_SHARE_CELLS = tuple(mm * MM for mm in (10.0, 9.0, 8.0, 7.0, 6.0))


#: (most digits in a clue, large print, least text size) -> least legible cell
_MIN_CELLS: dict[tuple[int, bool, float], float] = {}


@dataclass(frozen=True)
class Sizes:
    """Text sizes, bands and cell limits for a profile: large print scales the text (and
    what holds it); every profile keeps clue digits at its least text size."""

    profile: Profile
    #: a short KDP book's solutions, drawn bigger to fill pages before any is padded
    solution_override: float | None = None
    #: a short KDP book's puzzles: several share a page only while their cells stay this
    #: big, and cells grow up to SHORT_BOOK_MAX_CELL (None: AUTO_CELL and MAX_CELL)
    share_override: float | None = None

    def pt(self, size: float) -> float:
        return self.profile.text(size)

    def band(self, height: float) -> float:
        """A band that holds text designed for ``height`` points."""
        return height * self.profile.text_scale

    @property
    def max_cell(self) -> float:
        return MAX_CELL * self.profile.text_scale

    @property
    def share_cell(self) -> float:
        """The least cell several puzzles (per_page: auto) share a page at."""
        if self.share_override is not None:
            return self.share_override
        return AUTO_CELL * self.profile.text_scale

    def puzzle_cell_cap(self, entry: IssueEntry) -> float:
        """The largest cell ``entry`` is printed at on a puzzle page."""
        if self.share_override is None:
            return self.max_cell
        ratio = entry.geometry.digit_ratio_for(self.profile.large_print)
        # large print's cells are as big already: it only puts fewer puzzles on a page
        return max(self.max_cell, min(SHORT_BOOK_MAX_CELL, SHORT_BOOK_MAX_DIGITS / ratio))

    def min_cell(self, entry: IssueEntry) -> float:
        """The smallest cell at which the clue digits are legible and meet the profile."""
        geometry = entry.geometry
        key = (geometry.max_digits, self.profile.large_print, self.profile.min_text)
        cell = _MIN_CELLS.get(key)
        if cell is None:  # asked some 200,000 times planning a 500-puzzle book
            ratio = geometry.digit_ratio_for(self.profile.large_print)
            cell = _MIN_CELLS[key] = max(MIN_CELL, self.profile.min_text / ratio)
        return cell

    @property
    def solution_cell(self) -> float:
        if self.solution_override is not None:
            return self.solution_override
        if self.profile.large_print:  # a reader who needs large print checks cell by cell
            return LARGE_PRINT_SOLUTION_CELL
        cell = PRINT_SOLUTION_CELL if self.profile.is_print else SOLUTION_CELL
        return cell * self.profile.text_scale


@dataclass
class IssuePlan:
    pages: list[Page]
    warnings: list[str] = field(default_factory=list)


def content_area(size: PageSize, manifest: Manifest) -> Area:
    m = manifest.margins
    scale = manifest.profile.text_scale
    bottom = m.bottom + FOLIO * scale
    top = size.height - m.top - RUNNING_HEAD * scale
    return Area(m.left, bottom, size.width - m.left - m.right, top - bottom)


def _header_height(entry: IssueEntry, sizes: Sizes) -> float:
    """The text around a puzzle's grid: its header, note and the line under it."""
    return sizes.band(HEADER + (NOTE if entry.note else 0.0) + (ABOUT if entry.about else 0.0)
                      + (LEGEND_BAND if entry.legend_palette is not None else 0.0))


def _fit(entry: IssueEntry, width: float, height: float, sizes: Sizes) -> float:
    """The cell size ``entry`` gets in a ``width`` x ``height`` slot (its header included)."""
    cell = entry.geometry.fit_cell(width, height - _header_height(entry, sizes))
    return min(max(sizes.puzzle_cell_cap(entry), sizes.min_cell(entry)), cell)


def _legible(entry: IssueEntry, cell: float, sizes: Sizes) -> bool:
    return cell >= sizes.min_cell(entry) - 1e-9


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
    entries: Sequence[IssueEntry], area: Area, sizes: Sizes, count: int | None = None
) -> tuple[list[Area], float]:
    """The grid of ``count`` slots (default: one per puzzle) that gives these puzzles the
    largest cells, judged by the one that comes nearest its least legible cell."""
    best: tuple[list[Area], float] = ([], -1.0)
    best_margin = -math.inf
    for columns, rows in _arrangements(max(count or 0, len(entries))):
        slots = _slots(area, columns, rows)
        fits = [(_fit(e, s.width, s.height, sizes), e)
                for e, s in zip(entries, slots, strict=False)]
        margin = min(cell / sizes.min_cell(e) for cell, e in fits)
        if margin > best_margin:
            best, best_margin = (slots, min(cell for cell, _ in fits)), margin
    return best


def _all_legible(
    entries: Sequence[IssueEntry], slots: Sequence[Area], cell: float, sizes: Sizes,
    threshold: float = 0.0,
) -> bool:
    return bool(slots) and all(
        _legible(e, cell, sizes) and cell >= threshold - 1e-9 for e in entries
    )


def _bigger_page(entry: IssueEntry, manifest: Manifest, sizes: Sizes) -> PageSize | None:
    """A page scaled by powers of sqrt 2 (A4 -> A3 -> A2 ...) on which ``entry`` fits."""
    for step in range(1, 9):
        size = manifest.page.scaled(math.sqrt(2) ** step, f"{manifest.page.name} x{step}")
        area = content_area(size, manifest)
        if _legible(entry, _fit(entry, area.width, area.height, sizes), sizes):
            return size
    return None


def largest_grid(entry: IssueEntry, area: Area, sizes: Sizes) -> tuple[int, int]:
    """(columns, rows) of the largest grid with ``entry``'s clue lengths that fits ``area``
    at the profile's least legible cell."""
    cell = sizes.min_cell(entry)
    g = entry.geometry
    columns = int((area.width + 1e-6) // cell) - g.row_slots
    rows = int((area.height - _header_height(entry, sizes) + 1e-6) // cell) - g.col_slots
    return max(columns, 0), max(rows, 0)


class Planner:
    def __init__(self, issue: Issue, solution_cell: float | None = None,
                 share_cell: float | None = None):
        self.issue = issue
        self.manifest = issue.manifest
        self.profile = self.manifest.profile
        self.sizes = Sizes(self.profile, solution_cell, share_cell)
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
        #: puzzles too big for the printer's page, each with the largest grid that fits
        self.misfits: list[NonopressError] = []

    @property
    def smallest_text(self) -> float:
        """The least size text is shrunk to (the profile may ask for more than 7 pt)."""
        return self.sizes.pt(MIN_TEXT_SIZE)

    def fitted(self, text: str, size: float, width: float, what: str, bold: bool = False
               ) -> float:
        """The size at which ``text`` fits ``width`` whole (shrunk as far as the smallest
        printed size); when even that is too wide, the text is noted as too long."""
        fitted = fit_size(text, size, width, bold, self.smallest_text)
        if fitted is None:
            self.too_long[
                f"{what} is too long for its place ({width / MM:.0f} mm at "
                f"{self.smallest_text:g} pt): {text!r}"
            ] = None
            return self.smallest_text
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
        entries = list(self.issue.blocks)
        i = 0
        while i < len(entries):
            group, slots = self._next_group(entries[i:])
            if group and not self.manifest.per_page:
                group, slots = self._share_page(entries, i, group, slots)
            if not group:  # too big even alone on the page
                entry = entries[i]
                if self.profile.is_print:  # a printer's book or magazine has one page size
                    # every misfit is named in one run, each with the largest grid that fits
                    self.misfits.append(self._does_not_fit(entry))
                    i += 1
                    continue
                size = _bigger_page(entry, self.manifest, self.sizes)
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
            cell = min(_fit(e, s.width, s.height, self.sizes)
                       for e, s in zip(group, slots, strict=False))
            for entry, slot in zip(group, slots, strict=False):
                self._place_puzzle(page, entry, slot, cell)
            pages.append(page)
            i += len(group)
        if len(self.misfits) == 1:
            raise self.misfits[0]
        if self.misfits:
            count = len(self.misfits)
            raise ManyProblems(
                f"{count} puzzle{'s' * (count != 1)} of {self.manifest.source} cannot be "
                f"printed on the {self.manifest.page.name} page; make "
                f"{'them' if count > 1 else 'it'} smaller{self._larger_page()}:",
                [str(misfit) for misfit in self.misfits],
            )
        return pages

    def _used(self, group: Sequence[IssueEntry], slots: Sequence[Area]) -> float:
        """How much of the page's height ``group`` fills in ``slots`` (0 to 1)."""
        cell = min(_fit(e, s.width, s.height, self.sizes) for e, s in zip(group, slots,
                                                                            strict=False))
        lowest = min(s.top - _header_height(e, self.sizes) - e.geometry.total_height * cell
                     for e, s in zip(group, slots, strict=False))
        return (self.area.top - lowest) / self.area.height

    def _share_page(self, entries: list[IssueEntry], i: int, group: list[IssueEntry],
                    slots: list[Area]) -> tuple[list[IssueEntry], list[Area]]:
        """A page less than half used takes a later puzzle that fits beside the group
        (moved up from at most SHARE_LOOKAHEAD puzzles on; said in the build report), rather
        than leaving the paper white: first one that keeps comfortable cells, else one
        that stays legible."""
        if self._used(group, slots) >= 0.5:
            return group, slots
        first = i + len(group)
        candidates = range(first, min(len(entries), first + SHARE_LOOKAHEAD))
        comfortable = self.sizes.share_cell
        ordinary = AUTO_CELL * self.profile.text_scale  # a short book's puzzles: the usual
        for threshold in dict.fromkeys((comfortable, ordinary, 0.0)):
            for j in candidates:
                trial = [*group, entries[j]]
                trial_slots = self._shared_slots(group, slots, entries[j], threshold)
                if not trial_slots:
                    continue
                if j > first:
                    moved = entries.pop(j)
                    entries.insert(first, moved)
                    self.warnings.append(
                        f"puzzle {moved.number} printed beside puzzle {group[-1].number}, "
                        f"ahead of puzzle {entries[first + 1].number}, so that their page is "
                        "not half empty")
                return trial, trial_slots
        return group, slots

    def _shared_slots(self, group: list[IssueEntry], slots: list[Area], new: IssueEntry,
                      threshold: float) -> list[Area]:
        """Slots for ``group`` and ``new`` on one page with every cell legible and at least
        ``threshold``: side by side as usual, else stacked (the group on top, ``new`` below,
        the height shared in proportion to their grids at one cell size); [] if neither."""
        area = self.area
        trial = [*group, new]
        trial_slots, cell = _best_arrangement(trial, area, self.sizes)
        if _all_legible(trial, trial_slots, cell, self.sizes, threshold):
            return trial_slots
        if not all(abs(slot.top - area.top) < 0.01 for slot in slots):
            return []
        headers = max(_header_height(e, self.sizes) for e in group)
        heights = max(e.geometry.total_height for e in group)
        common = (area.height - GAP - headers - _header_height(new, self.sizes)) / (
            heights + new.geometry.total_height)
        top_h = headers + heights * common
        trial_slots = [*(Area(s.left, area.top - top_h, s.width, top_h) for s in slots),
                       Area(area.left, area.bottom, area.width, area.height - top_h - GAP)]
        cell = min(_fit(e, s.width, s.height, self.sizes)
                   for e, s in zip(trial, trial_slots, strict=False))
        return trial_slots if _all_legible(trial, trial_slots, cell, self.sizes,
                                           threshold) else []

    def _larger_page(self) -> str:
        """`` or choose a larger page (...)``, or `` (the 8.5x11in page is the largest KDP
        prints)``: advice that can be followed."""
        page = self.manifest.page
        advice = self.profile.rules.larger_page_advice(page.width, page.height)
        return f" or {advice}" if advice.startswith("choose") else f" ({advice})"

    def _does_not_fit(self, entry: IssueEntry) -> NonopressError:
        columns, rows = largest_grid(entry, self.area, self.sizes)
        g = entry.geometry
        need = self.sizes.min_cell(entry)
        digits = entry.geometry.digit_ratio_for(self.profile.large_print) * need
        page = self.manifest.page
        return NonopressError(
            f"puzzle {entry.number} ({entry.size}, {entry.title or 'untitled'}) cannot "
            f"be printed on the {page.name} page under the {self.profile.describe()} profile: "
            f"its clue digits need cells of at least {need / MM:.1f} mm ({digits:.1f} pt digits), "
            f"and the largest grid that fits with clues as long as its own "
            f"({g.row_slots} numbers a row, {g.col_slots} a column) is {columns}x{rows}"
        )

    def _next_group(self, rest: list[IssueEntry]) -> tuple[list[IssueEntry], list[Area]]:
        fixed = self.manifest.per_page
        counts = [fixed] if fixed else list(AUTO_COUNTS)
        threshold = MIN_CELL if fixed else self.sizes.share_cell
        room = self.area.width * self.area.height
        for count in counts:
            group = rest[:count]
            if not fixed and self._least_area(group, threshold) > room:
                continue  # cannot fit at a legible size however the slots are cut
            # A fixed count keeps its slot grid on the last, partly filled page too.
            slots, cell = _best_arrangement(group, self.area, self.sizes, fixed)
            if _all_legible(group, slots, cell, self.sizes, threshold):
                return group, slots
        # Fewer per page than asked, or the lone puzzle at a smaller cell: whatever fits.
        for count in range(min(len(rest), fixed or 1), 0, -1):
            slots, cell = _best_arrangement(rest[:count], self.area, self.sizes)
            if _all_legible(rest[:count], slots, cell, self.sizes):
                if fixed:
                    numbers = number_ranges([e.number for e in rest[:count]])
                    self.warnings.append(
                        f"per_page {fixed}: puzzle(s) {numbers} printed {count} to a page, "
                        f"so that cells stay at least {MIN_CELL / MM:.1f} mm"
                        + (f" and clues {self.profile.min_text:g} pt"
                           if self.profile.min_text else "")
                    )
                return rest[:count], slots
        return [], []

    def _least_area(self, group: Sequence[IssueEntry], threshold: float) -> float:
        """The page area ``group`` needs at least: each block at its least legible cell (or
        ``threshold``), header included. Slots cut the page, so more than the page is
        never legible: a cheap test before trying every arrangement."""
        total = 0.0
        for entry in group:
            cell = max(self.sizes.min_cell(entry), threshold)
            g = entry.geometry
            total += g.total_width * cell * (g.total_height * cell
                                              + _header_height(entry, self.sizes))
        return total

    def _place_puzzle(self, page: Page, entry: IssueEntry, slot: Area, cell: float) -> None:
        geometry = entry.geometry
        sizes = self.sizes
        header = _header_height(entry, sizes)
        block_w = geometry.total_width * cell
        box_w = max(block_w, min(slot.width, sizes.band(150.0)))
        if text_width(self._header_text(entry), self.smallest_text) > self._header_room(box_w):
            box_w = slot.width  # a long title takes the slot's whole width
        elif entry.note and text_width(entry.note, self.smallest_text) > box_w:
            box_w = slot.width  # and so does a long note (it was refused before)
        palette = entry.legend_palette
        legend_size = sizes.pt(8)
        drawing = entry.drawing
        if palette is not None and not drawing.legend_fits(entry.puzzle, entry.grey,
                                                           legend_size, box_w):
            box_w = slot.width  # and a long legend of colours
            while legend_size > self.smallest_text and not drawing.legend_fits(
                    entry.puzzle, entry.grey, legend_size, box_w):
                legend_size = max(self.smallest_text, legend_size - 0.5)
        box_x = slot.left + (slot.width - box_w) / 2
        page.ops.extend(self._header(entry, box_x, slot.top, box_w))
        if entry.note:
            size = self.fitted(entry.note, sizes.pt(8), box_w, f"the note of puzzle {entry.number}")
            page.ops.append(Text(box_x, slot.top - sizes.band(HEADER + 7), entry.note, size))
        x = box_x + (box_w - block_w) / 2
        top = slot.top - header
        if palette is not None:  # the legend: the line above the grid's column clues
            legend = drawing.legend_ops(entry.puzzle, entry.grey, box_x,
                                        top + sizes.band(4), legend_size, box_w)
            if len(legend) < 2 * palette.size:
                self.too_long[f"the colour legend of puzzle {entry.number} does not fit its "
                              f"place ({box_w / MM:.0f} mm at {legend_size:g} pt)"] = None
            page.ops.extend(legend)
        page.ops.extend(puzzle_ops(entry.puzzle, geometry, x, top, cell, profile=self.profile,
                                   grey=entry.grey))
        self._warn_small_digits(entry, cell)
        if entry.about:  # under the grid, in the band _header_height kept for it
            y = top - geometry.total_height * cell - sizes.band(ABOUT - 2)
            size = self.fitted(entry.about, sizes.pt(8), box_x + box_w - x,
                               f"the minutes of puzzle {entry.number}")
            page.ops.append(Text(x, y, entry.about, size))
        page.blocks.append(Block(entry.number, x, top, cell, geometry, False))
        page.bookmarks.append(Bookmark(entry.label))

    def _warn_small_digits(self, entry: IssueEntry, cell: float) -> None:
        """Warn when the clue digits print under the least text size (7 pt, or the
        profile's): legible cells keep them readable, not comfortable (issue 36)."""
        digits = entry.geometry.digit_ratio_for(self.profile.large_print) * cell
        least = max(self.smallest_text, self.profile.min_text)
        if digits < least - 0.05:
            self.warnings.append(
                f"puzzle {entry.number} ({entry.size}"
                + (f", {entry.title}" if entry.title else "")
                + f") prints its clue digits at {digits:.1f} pt, under the {least:g} pt "
                "a reader takes in comfortably: "
                + ("a larger page, " if self._larger_page().startswith(" or") else "")
                + "narrower margins or a smaller grid would print them bigger"
            )

    def stars(self, x: float, y: float, size: float, stars: int) -> list[Op]:
        return star_ops(x, y, size, stars, line=max(0.4, self.profile.design_line))

    @staticmethod
    def _header_text(entry: IssueEntry) -> str:
        """What follows the number in a puzzle's header: its size and shown title."""
        rest = f"  {entry.size}"
        if entry.shown_title:
            rest += f"  {entry.shown_title}"
        return rest

    def _header_room(self, width: float) -> float:
        size = self.sizes.pt(10)
        widest = _("No. {number}", number="000")
        return width - text_width(widest, size, True) - stars_width(self.sizes.band(8.0)) - 6

    def _header(self, entry: IssueEntry, x: float, top: float, width: float) -> list[Op]:
        sizes = self.sizes
        baseline = top - sizes.band(11)
        size = sizes.pt(10)
        star_size = sizes.band(8.0)
        stars_w = stars_width(star_size)
        number = _("No. {number}", number=entry.number)
        ops: list[Op] = [Text(x, baseline, number, size, bold=True, role="accent")]
        rest = self._header_text(entry)
        room = width - text_width(number, size, True) - stars_w - 6
        fitted = self.fitted(rest.strip(), size, room, f"the header of puzzle {entry.number}")
        ops.append(Text(x + text_width(number, size, True), baseline, rest, fitted))
        if entry.grade.stars is not None:  # no stars for a grade the budget cut short
            ops.extend(self.stars(x + width - stars_w, baseline, star_size, entry.grade.stars))
        return ops

    # -- solutions -------------------------------------------------------------------------
    def solution_pages(self) -> list[Page]:
        area = self.area
        sizes = self.sizes
        pages = [self.page("solutions")]
        page = pages[0]
        heading = sizes.pt(14)
        page.ops.append(Text(area.left, area.top - heading, _("Solutions"), heading, bold=True))
        page.bookmarks.append(Bookmark(_("Solutions")))
        x, shelf_top, shelf_h = area.left, area.top - sizes.band(24), 0.0
        caption = sizes.pt(7)
        for entry in self.issue.blocks:
            geometry = BlockGeometry.of(entry.puzzle, clues=False)
            cell = min(
                sizes.solution_cell,
                area.width / geometry.width,
                (area.height - sizes.band(24) - 4 * (caption + 3)) / geometry.height,
            )
            grid_w, grid_h = geometry.width * cell, geometry.height * cell
            box_w = max(grid_w, sizes.band(SOLUTION_MIN_BOX))
            label = f"{entry.number}. {entry.title}" if entry.title else f"{entry.number}."
            captions = self.wrapped(label, caption, box_w)  # a long title on several lines
            caption_h = caption + 3 + (caption + 1) * (len(captions) - 1)
            box_h = grid_h + caption_h
            if x + box_w > area.right + 0.01:
                x, shelf_top, shelf_h = area.left, shelf_top - shelf_h - GAP / 2, 0.0
            if shelf_top - box_h < area.bottom - 0.01:
                page = self.page("solutions")
                pages.append(page)
                x, shelf_top, shelf_h = area.left, area.top, 0.0
            for k, line in enumerate(captions):
                page.ops.append(Text(x, shelf_top - caption - (caption + 1) * k, line, caption))
            grid_top = shelf_top - caption_h
            page.ops.extend(
                puzzle_ops(entry.puzzle, geometry, x, grid_top, cell, solution=entry.solution,
                           profile=self.profile, grey=entry.grey)
            )
            page.blocks.append(Block(entry.number, x, grid_top, cell, geometry, True))
            x += box_w + GAP / 2
            shelf_h = max(shelf_h, box_h)
        return pages

    # -- worked solutions ------------------------------------------------------------------
    def _worked_block(self, entry: IssueEntry, page: Page, top: float) -> float:
        """A puzzle block's solved grid (with its legend) under ``top``: the baseline of
        the grade's line below it."""
        area, sizes = self.area, self.sizes
        geometry = entry.geometry
        cell = min(sizes.max_cell, geometry.fit_cell(area.width, area.height * 0.55))
        if not _legible(entry, cell, sizes):  # clues would be unreadable: the solved grid alone
            geometry = BlockGeometry.of(entry.puzzle, clues=False)
            cell = min(sizes.max_cell, geometry.fit_cell(area.width, area.height * 0.55))
        palette = entry.legend_palette
        if palette is not None:  # which colour (or grey tint and symbol) is which
            size = sizes.pt(8)
            drawing = entry.drawing
            while size > self.smallest_text and not drawing.legend_fits(
                    entry.puzzle, entry.grey, size, area.width):
                size = max(self.smallest_text, size - 0.5)
            page.ops.extend(drawing.legend_ops(entry.puzzle, entry.grey, area.left,
                                               top - sizes.band(8), size, area.width))
            top -= sizes.band(LEGEND_BAND + 4)
        x = area.left + (area.width - geometry.total_width * cell) / 2
        page.ops.extend(puzzle_ops(entry.puzzle, geometry, x, top, cell, solution=entry.solution,
                                   profile=self.profile, grey=entry.grey))
        page.blocks.append(Block(entry.number, x, top, cell, geometry, True))
        return top - geometry.total_height * cell - sizes.band(18)

    def worked_pages(self, entry: Entry) -> list[Page]:
        """The solved grid, the grade and every step line, over as many pages as needed:
        a puzzle block's, or the solved puzzle of a kind that lays out its own pages (the
        mosaic: its ``paged.worked``), with the same text and step grids after it."""
        area = self.area
        sizes = self.sizes
        page = self.page("worked")
        pages = [page]
        heading = _("Worked solution: {label}", label=entry.label)
        if entry.title and entry.shown_title != entry.title:  # a title kept off the puzzle
            heading += f" \u00b7 {entry.title}"
        least = sizes.pt(10)
        h_size = fit_size(heading, sizes.pt(13), area.width, True, least)
        headings = [heading] if h_size is not None else self.wrapped(heading, least,
                                                                     area.width, True)
        h_size = h_size or least
        baseline = area.top - h_size - 1
        for k, text in enumerate(headings):
            if k:
                baseline -= h_size * 1.2
            page.ops.append(Text(area.left, baseline, text, h_size, bold=True))
        page.bookmarks.append(Bookmark(_("Worked solution No. {number}", number=entry.number)))
        top = baseline - (sizes.band(26) - h_size - 1)
        block = entry.block()
        steps: StepGrids
        if block is not None:
            y = self._worked_block(block, page, top)
            steps, grey = block.drawing, block.grey
        else:
            paged = entry.paged
            assert paged is not None and paged.worked is not None  # build marks no other
            ops, height = paged.worked.solved_ops(entry, area.left, top, area.width,
                                                  top - area.bottom, self.profile)
            page.ops.extend(ops)
            y = top - height - sizes.band(18)
            steps, grey = paged.worked, False
        grade = entry.grade
        size = sizes.pt(10)
        if grade.stars is None or grade.score is None:
            page.ops.append(Text(area.left, y, _("Level: {level} (no score)",
                                                 level=level_name(grade.level)), size))
        else:
            line = _("Level: {level}   score {score}   ", level=level_name(grade.level),
                     score=current().number(grade.score, 1))
            # a paged kind's minutes are not printed on its pages (the mosaic's are not
            # fitted to solves yet)
            if grade.minutes is not None and block is not None:
                line += f"{about_text(grade.minutes, entry.puzzle.size)}   "
            page.ops.append(Text(area.left, y, line, size))
            page.ops.extend(self.stars(area.left + text_width(line, size), y, sizes.band(8),
                                       grade.stars))
        rungs = _(", ").join(f"{rung_name(name)} {count}"
                             for name, count in grade.rungs.items() if count)
        paragraphs = [_("Techniques used: {rungs}", rungs=rungs or _("none recorded"))]
        if grade.steps:
            paragraphs.append(_("Step by step:"))
            paragraphs.extend(grade.steps)
        y -= sizes.band(16)
        body = sizes.pt(8)
        leading = body * 1.25
        continued = _("Worked solution No. {number} (continued)", number=entry.number)
        hang = sizes.band(12)  # wrapped lines of a step hang under its first words
        # a small grid after each hard step the grade drew one for (paragraph index -> rows)
        first_step = len(paragraphs) - len(grade.steps)
        grids = {first_step + index: rows for index, rows in grade.grids}
        if grids:
            paragraphs.insert(first_step, steps.step_legend(grey))
            grids = {k + 1: rows for k, rows in grids.items()}
        flow = _Flow(self, pages, page, y, continued, size)
        # with grids the steps stand in columns, each step's sentence with its grid (a
        # grid beside a full-width text column left most of the page empty)
        steps_from = first_step + 1 if grids else len(paragraphs)
        for k, paragraph in enumerate(paragraphs[:steps_from]):
            flow.paragraph(paragraph, body, leading, hang, area.left, area.width)
            if k == 0:
                flow.y -= sizes.band(6)
        if grids:
            columns = max(1, min(STEP_COLUMNS, int((area.width + STEP_GUTTER)
                                                   // (STEP_COLUMN_MIN + STEP_GUTTER))))
            # fewer columns when a grid's clues would not be legible in one
            least = max(steps.step_width(rows, self.smallest_text) for rows in grids.values())
            while columns > 1 and (area.width - STEP_GUTTER * (columns - 1)) / columns < least:
                columns -= 1
            width = (area.width - STEP_GUTTER * (columns - 1)) / columns
            flow.columns(columns, width)
            grid_line = max(0.25, self.profile.design_line)
            for k in range(steps_from, len(paragraphs)):
                rows = grids.get(k)
                grid_cell = 0.0
                if rows is not None:
                    # the grid may take its whole column (step_cell allows a share)
                    grid_cell = steps.step_cell(rows, width / MAX_WIDTH_SHARE, grey,
                                                self.smallest_text)
                lines = self.wrapped(paragraphs[k], body, width)
                if len(lines) > 1:
                    rest = paragraphs[k].split(None, len(lines[0].split()))[-1]
                    lines = [lines[0], *self.wrapped(rest, body, width - hang)]
                grid_h = 0.0 if rows is None else len(rows) * grid_cell + leading
                # the last line's baseline, then (a leading below) the grid's foot
                flow.keep((len(lines) - 1) * leading + (leading + grid_h if grid_h else 0.0))
                for n, text in enumerate(lines):
                    x = flow.line_room(0.0)
                    flow.page.ops.append(Text(x + (hang if n else 0.0), flow.y, text, body))
                    flow.y -= leading
                if rows is not None:
                    x = flow.line_room(grid_h)
                    flow.page.ops.extend(steps.step_grid_ops(
                        entry.puzzle, rows, x + 4, flow.y + leading * 0.5, grid_cell,
                        grey, self.smallest_text, grid_line))
                    flow.y -= grid_h
        return pages


class _Flow:
    """Where a worked solution's text goes next: down the page, in columns once asked,
    on a new page headed "continued" when the last column is full."""

    def __init__(self, planner: Planner, pages: list[Page], page: Page, y: float,
                 continued: str, size: float) -> None:
        self.planner, self.pages, self.page, self.y = planner, pages, page, y
        self.continued, self.size = continued, size
        self.count, self.width, self.column, self.top = 1, planner.area.width, 0, y

    def columns(self, count: int, width: float) -> None:
        self.count, self.width, self.column, self.top = count, width, 0, self.y

    @property
    def x(self) -> float:
        return float(self.planner.area.left + self.column * (self.width + STEP_GUTTER))

    def _next(self) -> None:
        """The next column, or a new page."""
        area = self.planner.area
        self.column += 1
        if self.column < self.count:
            self.y = self.top
            return
        self.page = self.planner.page("worked")
        self.pages.append(self.page)
        self.page.ops.append(Text(area.left, area.top - self.size - 1, self.continued,
                                  self.size, bold=True))
        self.column = 0
        self.y = self.top = area.top - self.planner.sizes.band(30)

    def line_room(self, height: float) -> float:
        """Room for a text line on this baseline (``height`` 0) or a grid ``height``
        tall: where it starts (x), in the next column when this one is full."""
        if self.y - height < self.planner.area.bottom + 2:
            self._next()
        return self.x

    def keep(self, height: float) -> float:
        """Room for ``height`` below this baseline together (a step's sentence and its
        grid), when a whole column would hold them: a sentence never ends one column
        while its grid opens the next."""
        area = self.planner.area
        bottom = area.bottom + 2
        fresh = area.top - self.planner.sizes.band(30)  # a column's top on a new page
        while self.y - height < bottom <= fresh - height and self.y != fresh:
            self._next()
        return self.x

    def paragraph(self, paragraph: str, body: float, leading: float, hang: float,
                  left: float, width: float) -> None:
        """A full-width paragraph, as the page had it before columns (a step's lines
        kept together when they are few)."""
        planner = self.planner
        area = planner.area
        lines = planner.wrapped(paragraph, body, width)
        if len(lines) > 1:
            rest = paragraph.split(None, len(lines[0].split()))[-1]
            lines = [lines[0], *planner.wrapped(rest, body, width - hang)]
        keep = len(lines) <= 6  # a step's lines stay together on one page
        for n, text in enumerate(lines):
            full = self.y < area.bottom + 2
            if n == 0 and keep:
                full = self.y - leading * (len(lines) - 1) < area.bottom + 2
            if full:  # the page is full: the solve goes on overleaf
                self._next()
            self.page.ops.append(Text(left + (hang if n else 0.0), self.y, text, body))
            self.y -= leading


def plan_issue(issue: Issue) -> IssuePlan:
    """Paginate ``issue``. Under the KDP profile the inside margin (gutter) depends on the
    page count, which depends on the margins: plan until the count keeps its gutter."""
    manifest = issue.manifest
    if not manifest.profile.rules.gutters:
        return _plan(issue)
    plan = _kdp_plan(issue)
    if _notes(plan) and issue.blocks:
        return _short_book(issue, plan)
    return plan


#: a short KDP book's solutions, as large print's: checked cell by cell at a glance
SHORT_BOOK_SOLUTION_CELL = LARGE_PRINT_SOLUTION_CELL


def _short_book(issue: Issue, padded: IssuePlan) -> IssuePlan:
    """Padding is the last resort: a short KDP book first prints its puzzles bigger (fewer
    to a page, one where the book has the pages to spare) and its solutions as big as large
    print's, as far as that fills the pages KDP's least count leaves, never leaving a page
    less than half used but the last of a section; the build report says what was done."""
    manifest = issue.manifest
    shares: list[float | None] = [None]
    if not manifest.per_page:  # a fixed count of puzzles a page is the editor's choice
        shares += [c for c in SHORT_BOOK_SHARE_CELLS
                   if c > AUTO_CELL * manifest.profile.text_scale]
    solutions: list[float | None] = [None]
    if manifest.solutions:
        solutions.append(SHORT_BOOK_SOLUTION_CELL)
    pages = manifest.profile.rules.min_pages
    least = _short_book_waste(padded, pages)
    trials: list[tuple[tuple[int, int, float, float], IssuePlan]] = []
    for share in shares:
        for solution in solutions:
            if share is None and solution is None:
                continue
            trial = _kdp_plan(issue, solution, share)
            changed = ("puzzles",) * (share is not None) + ("solutions",) * (solution is not None)
            waste = _short_book_waste(trial, pages)
            if waste < least and _half_used(trial, manifest, changed):
                # the least waste, then the fewest pages, the biggest puzzles and solutions
                key = (waste, len(trial.pages), -(share or 0.0),
                       -(solution or 0.0))
                trials.append((key, trial))
    if not trials:
        return padded
    key, best = min(trials, key=lambda t: t[0])
    share, solution = -key[2], -key[3]
    said: list[str] = []
    if share:
        said.append(_bigger_puzzles_said(padded, best, manifest.profile.rules.printer))
    if solution:
        count = sum(page.kind == "solutions" for page in best.pages)
        said.append(f"a short book: solutions printed at {solution / MM:.0f} mm cells on "
                    f"{plural(count, 'page')}" + ("" if _notes(best) else
                                                  ", so that no Notes page is needed"))
    if _notes(best):
        said[-1] += " before Notes pages fill the rest"
    best.warnings[:0] = said
    return best


def _short_book_waste(plan: IssuePlan, least_pages: int) -> int:
    """A short book's pages that are no part of it: padded, or over KDP's least count."""
    return _notes(plan) + max(0, len(plan.pages) - least_pages)


def _half_used(plan: IssuePlan, manifest: Manifest, kinds: Sequence[str]) -> bool:
    """Whether every page of these kinds but the last of each is at least half used (of the
    puzzle pages, the nonograms' section: kinds with pages of their own are planned apart)."""
    area = content_area(manifest.page, replace(
        manifest, margins=kdp_margins(manifest, len(plan.pages))))
    for kind in kinds:
        pages = [page for page in plan.pages
                 if page.kind == kind and (kind != "puzzles" or page.blocks)]
        if any(page_use(page, area.top, area.bottom) < 0.5 for page in pages[:-1]):
            return False
    return True


def _bigger_puzzles_said(before: IssuePlan, after: IssuePlan, printer: str = "") -> str:
    """The build report's line on a short book's bigger puzzles."""
    pages = [page for page in after.pages if page.kind == "puzzles" and page.blocks]
    cells = [block.cell / MM for page in pages for block in page.blocks]
    alone = sum(len(page.blocks) == 1 for page in pages)
    was = sum(page.kind == "puzzles" and bool(page.blocks) for page in before.pages)
    low, high = min(cells), max(cells)
    cell = f"{low:.1f} mm" if high - low < 0.05 else f"{low:.1f}-{high:.1f} mm"
    most = max(len(page.blocks) for page in pages)
    if alone == len(pages):
        how = "one to a page"
    elif alone:
        how = f"{alone} alone on a page"
    else:
        how = f"up to {most} to a page"
    instead = f" instead of {was}" if was != len(pages) else ""  # not "8 instead of 8"
    least = f"{printer}'s least page count" if printer else "the least page count"
    # what was done, why, and what the editor can do about it
    return (f"a short book: puzzles printed bigger, on {plural(len(pages), 'page')}{instead} "
            f"({how}) at {cell} cells, to fill {least}; add puzzles to print them at the "
            "usual size")


def _notes(plan: IssuePlan) -> int:
    return sum(page.kind == "notes" for page in plan.pages)


def _kdp_plan(issue: Issue, solution_cell: float | None = None,
              share_cell: float | None = None) -> IssuePlan:
    """Plan until the page count keeps its gutter (the inside margin depends on the count,
    which depends on the margins)."""
    manifest = issue.manifest
    rules = manifest.profile.rules
    pages = rules.min_pages
    for _round in range(len(rules.gutters) + 1):
        margins = kdp_margins(manifest, pages)
        plan = _plan(replace(issue, manifest=replace(manifest, margins=margins)), solution_cell,
                     share_cell)
        if kdp_margins(manifest, len(plan.pages)) == margins or len(plan.pages) < pages:
            return plan
        pages = len(plan.pages)
    return plan


def page_use(page: Page, top: float, bottom: float) -> float:
    """How far down the content area (``top`` to ``bottom``) a page's ink reaches, 0 to 1
    (the running head and folio outside the area do not count)."""
    ys: list[float] = []
    for op in page.ops:
        if isinstance(op, Text):
            ys += [op.y, op.y + op.size]
        elif isinstance(op, Lines):
            ys += [v for s in op.segments for v in (s[1], s[3])]
        elif isinstance(op, Rects):
            ys += [v for r in op.rects for v in (r[1], r[1] + r[3])]
        elif isinstance(op, Polygons):
            ys += [p[1] for polygon in op.polygons for p in polygon]
        elif isinstance(op, ClueText):
            ys += [y for _, y, _ in op.items]
    inside = [y for y in ys if bottom - 0.5 <= y <= top + 0.5]
    return (top - min(inside)) / (top - bottom) if inside else 0.0


def kdp_margins(manifest: Manifest, pages: int) -> Margins:
    """Margins of a recto (right-hand) page of a KDP book of ``pages`` pages: ``left`` is
    the inside (gutter) and ``right`` the outside; versos mirror them. The manifest's
    margins are kept where they are wider than KDP's least ones."""
    m = manifest.margins
    rules = manifest.profile.rules
    # Rules are centred on the area's edge and text has descenders: keep their ink inside.
    least = (rules.least_margin_bleed if manifest.bleed > 0 else rules.least_margin
             ) + INK_ALLOWANCE
    return Margins(
        top=max(m.top, least),
        bottom=max(m.bottom, least),
        left=max(m.left, rules.gutter(pages) + INK_ALLOWANCE),
        right=max(m.right, least),
    )


def _paged_kinds(issue: Issue) -> list[tuple[PagedDrawing, list[Entry]]]:
    """The entries of kinds that lay out their own pages, by drawing, in issue order."""
    groups: dict[int, tuple[PagedDrawing, list[Entry]]] = {}
    for entry in issue.entries:
        drawing = entry.paged
        if drawing is not None:
            groups.setdefault(id(drawing), (drawing, []))[1].append(entry)
    return list(groups.values())


def _plan(issue: Issue, solution_cell: float | None = None,
          share_cell: float | None = None) -> IssuePlan:
    planner = Planner(issue, solution_cell, share_cell)
    puzzles = planner.puzzle_pages()
    paged = _paged_kinds(issue)
    page_size = (issue.manifest.page.width, issue.manifest.page.height)
    paged_starts: dict[int, int] = {}  # an entry of a paged kind -> its first page's index
    for drawing, entries in paged:
        pages, firsts = drawing.pages(entries, planner.area, page_size, issue.manifest.profile)
        paged_starts.update((number, len(puzzles) + k) for number, k in firsts.items())
        puzzles += pages
    solutions = planner.solution_pages() if issue.manifest.solutions and issue.blocks else []
    if issue.manifest.solutions:
        for drawing, entries in paged:
            solutions = drawing.solution_pages(entries, planner.area, page_size, GAP,
                                               solutions, issue.manifest.profile)
    worked = [page for e in issue.entries if e.worked for page in planner.worked_pages(e)]
    rows = _contents_rows(issue, bool(solutions), bool(worked))
    front_matter = issue.manifest.front_matter
    front = front_pages(planner, front_matter) if front_matter is not None else []
    # Page numbers depend on how many contents pages there are, which does not depend on
    # the numbers: lay the contents out once to count them.
    contents_count = len(_contents_pages(planner, rows, {}, {}))
    first = len(front) + contents_count + 1
    puzzle_page_of: dict[int, int] = {}
    for k, page in enumerate(puzzles):
        for block in page.blocks:
            puzzle_page_of[block.number] = first + k
    for number, k in paged_starts.items():
        puzzle_page_of[number] = first + k
    starts = {
        "Solutions": first + len(puzzles),
        "Worked solutions": first + len(puzzles) + len(solutions),
    }
    contents = _contents_pages(planner, rows, puzzle_page_of, starts)
    pages = front + contents + puzzles + solutions + worked
    back = front_matter is not None and front_matter.barcode_space
    if issue.manifest.booklet:
        while (len(pages) + back) % 4:  # the back page stays the last
            pages.append(planner.page("blank"))
    if issue.manifest.profile.rules.min_pages:
        _kdp_page_count(pages, planner, int(back))
    if back and issue.manifest.profile.rules.bound and (len(pages) + 1) % 2:
        pages.append(planner.page("blank"))  # a book's last side is a left-hand page
    if back:
        pages.append(back_page(planner))
    m = planner.manifest.margins
    for number, page in enumerate(pages, start=1):
        page.number = number
        if page.kind not in ("blank", "front", "back"):  # front matter has no folio
            _frame(page, issue, planner)
        if issue.manifest.profile.rules.bound and number % 2 == 0:
            translate_page(page, m.right - m.left)  # a verso: the gutter is on its right
    if planner.too_long:
        raise ManyProblems(
            f"{issue.manifest.source}: text that would be cut on the "
            f"{issue.manifest.page.name} page; shorten it{planner._larger_page()}:",
            list(planner.too_long),
        )
    return IssuePlan(pages, list(issue.warnings) + planner.warnings)


def _kdp_page_count(pages: list[Page], planner: Planner, back: int = 0) -> None:
    """Pad a bound book to its printer's least page count with puzzle-free "Notes" pages
    (when the manifest asks), or warn that the printer will refuse it. ``back``: 1 when a
    back page follows (``barcode_space``): it counts, and the padding leaves it on a
    left-hand page, the book's last side."""
    book = planner.profile.rules
    least, most, printer = book.min_pages, book.max_pages, book.printer
    count = len(pages) + back
    if back and book.bound:
        planner.warnings.append(
            f"barcode_space: {printer} prints the barcode on the back cover, not on an "
            "interior page; the back page is kept white all the same")
    if count >= least:
        if most and count > most:
            planner.warnings.append(
                f"{count} pages: {printer} prints paperbacks of at most {most} pages"
            )
        return
    if not planner.manifest.pad_pages:
        planner.warnings.append(
            f"{count} pages: {printer} prints paperbacks of {least} pages or more; add "
            "puzzles, or pad_pages: true (--pad) for puzzle-free Notes pages"
        )
        return
    area, sizes = planner.area, planner.sizes
    total = least + (least % 2 if back and book.bound else 0)  # the back page a verso
    planner.warnings.append(
        f"{plural(count, 'page')} padded to {printer}'s least {total} with "
        f"{plural(total - count, 'ruled Notes page')} (pad_pages); "
        f"about {plural(_puzzles_to_fill(planner, total - count, count), 'more puzzle')} "
        f"would fill {'it' if total - count == 1 else 'them'}")
    _centre_lone_puzzles(pages, planner)
    while len(pages) + back < total:
        page = planner.page("notes")
        size = sizes.pt(14)
        page.ops.append(Text(area.left, area.top - size, _("Notes"), size, bold=True))
        # Ruled lines for the reader's workings: the page is never blank.
        gap = sizes.band(24)
        y = area.top - size - gap
        rules = []
        while y > area.bottom + 4:
            rules.append((area.left, y, area.right, y))
            y -= gap
        page.ops.append(Lines("rule", max(0.5, planner.profile.design_line), rules))
        pages.append(page)


def _centre_lone_puzzles(pages: list[Page], planner: Planner) -> None:
    """A padded book's puzzle alone on its page, its cells as big as its digits may be,
    stands centred on the page rather than at its top over 40 % of blank paper (a book
    with pages to spare has no next puzzle to make room for)."""
    area = planner.area
    for page in pages:
        if page.kind == "puzzles" and len(page.blocks) == 1:
            spare = (1.0 - page_use(page, area.top, area.bottom)) * area.height
            if spare > 1.0:
                translate_page(page, 0.0, -spare / 2)


def _puzzles_to_fill(planner: Planner, pages: int, count: int) -> int:
    """About how many more puzzles like this issue's (with their solutions and contents
    lines) fill ``pages`` pages of a book now ``count`` pages long."""
    per_page = len(planner.issue.blocks) / max(1, count)
    return max(1, round(pages * per_page))


#: (kind, entry, text): kind is "puzzle", a section heading or "credit"
ContentsRow = tuple[str, Entry | None, str]


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
        rows.append((N_("Solutions"), None, ""))
    if worked:
        rows.append((N_("Worked solutions"), None, ""))
    credits: dict[str, list[int]] = {}
    for entry in issue.entries:
        if entry.credit():
            credits.setdefault(entry.credit(), []).append(entry.number)
    if credits:
        rows.append((N_("Credits"), None, ""))
        for credit, numbers in credits.items():
            rows.append(("credit", None, ngettext("No. {numbers}: {credit}",
                                                  "Nos. {numbers}: {credit}", len(numbers),
                                                  numbers=number_ranges(numbers), credit=credit)))
    return rows


ROW_HEIGHT = 14.0


def _contents_pages(
    planner: Planner, rows: list[ContentsRow], page_of: dict[int, int], starts: dict[str, int]
) -> list[Page]:
    """The contents; ``page_of`` and ``starts`` may be empty when only counting pages."""
    area = planner.area
    issue = planner.issue
    sizes = planner.sizes
    band = sizes.band
    first = planner.page("contents")
    pages = [first]
    first.bookmarks.append(Bookmark(_("Contents")))
    # The masthead: whole, shrunk as far as 16 pt, then over several lines.
    title = issue.manifest.title
    least = sizes.pt(16)
    size = fit_size(title, sizes.pt(22), area.width, True, least)
    titles = [title] if size is not None else planner.wrapped(title, least, area.width, True)
    size = size or least
    baseline = area.top - size
    for k, line in enumerate(titles):
        if k:
            baseline -= size * 1.15
        first.ops.append(Text(area.left, baseline, line, size, bold=True))
    extra = area.top - sizes.pt(22) - baseline  # how much lower a wrapped masthead ends
    sub = " \u00b7 ".join(
        p for p in (_("Issue {issue}", issue=issue.manifest.issue) if issue.manifest.issue else "",
                    shown_day(issue.manifest.date), issue.manifest.author) if p
    )
    if sub:
        sub_size = planner.fitted(sub, sizes.pt(11), area.width,
                                  "the issue line (issue, date, author)")
        first.ops.append(Text(area.left, area.top - band(40) - extra, sub, sub_size))
    row_height = band(ROW_HEIGHT)
    body, small, section = sizes.pt(10), sizes.pt(8), sizes.pt(11)
    y, page = area.top - 4 * row_height - extra, first
    col_size = area.left + area.width * 0.45
    col_level = area.left + area.width * 0.58
    col_stars = area.left + area.width * 0.76
    col_page = area.right
    for kind, entry, text in rows:
        if y < area.bottom + 4:
            page = planner.page("contents")
            pages.append(page)
            y = area.top - row_height
        if kind == "puzzle" and entry is not None:
            page.ops.append(Text(area.left + band(28), y, f"{entry.number}", body, bold=True,
                                 anchor="right"))
            name, room = entry.shown_title, col_size - area.left - band(44)
            name_size = fit_size(name, body, room, smallest=small)
            names = [name] if name_size is not None else planner.wrapped(name, small, room)
            for k, line in enumerate(names):  # a long title on several lines, whole
                page.ops.append(Text(area.left + band(36), y - (small + 1) * k, line,
                                     name_size or small))
            page.ops.append(Text(col_size, y, entry.size, body))
            level = level_name(entry.grade.level)
            level_size = fit_size(level, body, col_stars - col_level - 4, False,
                                  planner.smallest_text) or planner.smallest_text
            page.ops.append(Text(col_level, y, level, level_size))
            # a level too wide for its column (large print) puts the stars on a line below
            below = col_level + text_width(level, level_size) + 4 > col_stars
            stars_y = y - row_height if below else y
            if entry.grade.stars is not None:
                page.ops.extend(planner.stars(col_stars, stars_y, band(8), entry.grade.stars))
            folio = str(page_of.get(entry.number, ""))
            page.ops.append(Text(col_page, y, folio, body, anchor="right"))
            y -= max((small + 1) * (len(names) - 1), row_height if below else 0.0)
        elif kind == "credit":
            for k, line in enumerate(planner.wrapped(text, small, area.width - band(36))):
                if k:
                    y -= small * 1.25
                page.ops.append(Text(area.left + band(36), y, line, small))
        else:
            y -= band(4)
            page.ops.append(Text(area.left, y, _(kind), section, bold=True))
            if kind in starts:
                page.ops.append(Text(col_page, y, str(starts.get(kind, "")), body,
                                     anchor="right"))
        y -= row_height
    return pages


def _frame(page: Page, issue: Issue, planner: Planner) -> None:
    """Running head and folio on every page but the first."""
    m = planner.manifest.margins
    sizes = planner.sizes
    top = page.height - m.top - sizes.band(9)
    head = sizes.pt(8)
    if page.number > 1:
        right = page.width - m.right
        room = right - m.left - text_width(_("Worked solutions"), head) - 12
        # the full heading, else without the date, else the title alone (the contents
        # page carries them all)
        heads = [issue.heading, *issue.shorter_headings()]
        running = next((h for h in heads if fit_size(h, head, room) is not None), heads[-1])
        size = planner.fitted(running, head, room, "the running head (the issue's title)")
        page.ops.append(Text(m.left, top, running, size, role="rule"))
        label = {"puzzles": N_("Puzzles"), "solutions": N_("Solutions"),
                 "worked": N_("Worked solutions"), "contents": N_("Contents"),
                 "notes": N_("Notes")}.get(page.kind, "")
        label = _(label) if label else ""
        page.ops.append(Text(right, top, label, head, anchor="right", role="rule"))
    folio = sizes.pt(9)
    lift = 0.25 * folio if planner.profile.is_print else 0.0  # the digits' box, not baseline
    page.ops.append(Text(page.width / 2 + (m.left - m.right) / 2, m.bottom + lift,
                         str(page.number), folio, anchor="center"))
