"""The fill-in kind on paper: the manifest's ``fillins`` list, building the entries (fill a
blank grid, choose the starter, grade) and drawing their pages.

Each item of ``fillins`` is a grid file (``.txt``, ``.ipuz``, ``.puz``; a blank grid is
filled with the default word list) or a mapping with ``file`` and optionally ``title``,
``note``, ``starter`` (``12A``, a word, or ``none``) and ``seed`` (for filling a blank grid).

A fill-in page holds the header (number, size, stars), the grid with the starter's letters
written in, a line naming the starter, and the word list grouped by length in columns (the
starter struck through); a list too long for the page goes on. Solutions come after the
nonogram solutions, small grids with their letters. Both back ends draw these display lists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from grader.errors import NonopressError, NotPublishable
from grader.i18n import _, ngettext
from grader.results import Budget
from layout.draw import (
    Bookmark,
    Lines,
    Op,
    Page,
    Rects,
    Segment,
    Text,
    line_widths,
    star_ops,
    stars_width,
)
from layout.fonts import DIGIT_HEIGHT, fit_text, text_width
from layout.grades import GradeInfo
from layout.kinds.paged import (
    Frame,
    PagedEntry,
    PagedLayout,
    read_items,
    solution_shelves,
)
from layout.profiles import PLAIN, Profile
from layout.units import MM

if TYPE_CHECKING:  # words loads its word lists' machinery: only an issue with fill-ins pays
    from words.fillin import FillIn
    from words.grid import Grid

FILLIN_KEYS = ("file", "title", "note", "starter", "seed")


@dataclass(frozen=True)
class FillinRef:
    """One item of the manifest's ``fillins`` list."""

    path: Path
    title: str | None = None
    note: str = ""
    starter: str | None = None
    seed: int = 0


def parse_fillin_refs(value: object, base: Path) -> tuple[FillinRef, ...]:
    """The manifest's ``fillins`` value: a list of grid files or mappings with ``file``."""
    refs = []
    for k, item, path in read_items(value, base, "fillins", "grid file", FILLIN_KEYS):
        seed = item.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise NonopressError(f"fillins item {k}: seed must be a whole number")
        starter = item.get("starter")
        title = item.get("title")
        refs.append(FillinRef(path, None if title is None else str(title).strip(),
                              str(item.get("note") or "").strip(),
                              None if starter is None else str(starter), seed))
    return tuple(refs)


MAX_CELL = 8.0 * MM
MIN_CELL = 3.0 * MM
GRID_SHARE = 0.55  # of the content height, at most, for the grid
LIST_SIZE = 9.0
LIST_LEADING = 11.0
COLUMN_GAP = 5 * MM
SOLUTION_CELL = 3.2 * MM
HEADER = 16.0
NOTE = 11.0
LETTER_RATIO = 0.62  # letters in cells, of the cell size


@dataclass(frozen=True, eq=False)
class FillinEntry(PagedEntry["FillIn"]):
    """A fill-in of the issue, numbered after the nonograms, with its grade."""

    @property
    def shown_title(self) -> str:
        """For the contents: a fill-in's title gives nothing away."""
        return f"Fill-in \u00b7 {self.title}" if self.title else "Fill-in"

    @property
    def label(self) -> str:
        text = f"No. {self.number} \u00b7 Fill-in {self.size}"
        return f"{text} \u00b7 {self.title}" if self.title else text

    @property
    def noun(self) -> str:
        return "fill-in"

    @property
    def paged(self) -> PagedLayout[FillinEntry]:
        return PAGED


def grade_info(puzzle: FillIn, budget: Budget) -> GradeInfo:
    from words.fillin_grade import grade_fillin

    grade = grade_fillin(puzzle, budget=budget)
    return GradeInfo(level=grade.level, score=grade.score, stars=grade.stars,
                     verdict=grade.verdict, rungs=dict(grade.rungs), time_s=grade.time_s,
                     steps=grade.lines())


def build_fillins(refs: Sequence[FillinRef], first_number: int, budget: Budget,
                  label: str = "") -> tuple[FillinEntry, ...]:
    """Read, fill (when blank), make and grade each fill-in; one that is not unique is an
    error, as a nonogram with several solutions is."""
    from words.fill import fill
    from words.fillin import make_fillin
    from words.formats import read_grid_file
    from words.wordlist import default_word_list

    entries: list[FillinEntry] = []
    for k, ref in enumerate(refs):
        number = first_number + k
        where = f"{ref.path.name} (puzzle {number} of the issue)"
        source = read_grid_file(ref.path)
        grid = source.grid
        if not grid.is_complete:
            result = fill(grid, default_word_list(), seed=ref.seed, budget=budget, quality=True)
            if result.status != "filled":
                raise NotPublishable(f"{where}: no fill: {result.reason}")
            grid = result.grid
        title = ref.title if ref.title is not None else source.title
        try:
            puzzle = make_fillin(grid, ref.starter, title=title, budget=budget)
        except NonopressError as exc:
            raise NonopressError(f"{where}: {exc}") from None
        grade = grade_info(puzzle, budget)
        if grade.verdict != "unique":
            raise NotPublishable(f"{where}: the fill-in has {grade.verdict} solutions: "
                                 "choose another starter")
        entries.append(FillinEntry(number, puzzle, grade, title, ref.note))
    return tuple(entries)


# -- drawing ---------------------------------------------------------------------------------
def grid_ops(grid: Grid, x: float, top: float, cell: float,
             letters: Grid | None = None, profile: Profile = PLAIN) -> list[Op]:
    """A crossword grid with its top-left corner at (x, top): blocks filled, every cell
    ruled, the letters of ``letters`` (if given) centred in their cells."""
    width, height = grid.width * cell, grid.height * cell
    blocks = [(x + c * cell, top - (r + 1) * cell, cell, cell)
              for r in range(grid.height) for c in range(grid.width) if not grid.is_white(r, c)]
    thin_w, _, border_w = line_widths(cell)
    rules: list[Segment] = [(x + j * cell, top - height, x + j * cell, top)
                            for j in range(1, grid.width)]
    rules += [(x, top - i * cell, x + width, top - i * cell) for i in range(1, grid.height)]
    thin = max(thin_w, 0.4, profile.design_line)
    ops: list[Op] = [Rects("ink", blocks), Lines("ink", thin, rules),
                     Lines("ink", border_w, _outline(x, top - height, width, height))]
    if letters is not None:
        size = LETTER_RATIO * cell
        for r, row in enumerate(letters.rows):
            for c, ch in enumerate(row):
                if ch.isalpha():
                    ops.append(Text(x + (c + 0.5) * cell,
                                    top - (r + 0.5) * cell - DIGIT_HEIGHT * size / 2,
                                    ch, size, anchor="center"))
    return ops


def _outline(x: float, y: float, w: float, h: float) -> list[Segment]:
    return [(x, y, x + w, y), (x + w, y, x + w, y + h), (x + w, y + h, x, y + h), (x, y + h, x, y)]


def _header(entry: FillinEntry, x: float, top: float, width: float,
            continued: bool = False, profile: Profile = PLAIN) -> list[Op]:
    baseline = top - 11 * profile.text_scale
    big = profile.text(10)
    number = _("No. {number}", number=entry.number)
    rest = "  " + _("Fill-in {size}", size=entry.size) + (f"  {entry.title}" if entry.title else "")
    if continued:
        rest += "  " + _("(continued)")
    star = profile.text(8.0)
    star_w = stars_width(star)
    ops: list[Op] = [Text(x, baseline, number, big, bold=True, role="accent")]
    room = width - text_width(number, big, True) - star_w - 6
    ops.append(Text(x + text_width(number, big, True), baseline, fit_text(rest, big, room), big))
    if entry.grade.stars is not None:  # no stars for a grade without a score
        ops.extend(star_ops(x + width - star_w, baseline, star, entry.grade.stars,
                            line=max(0.4, profile.design_line)))
    return ops


def _list_items(puzzle: FillIn) -> list[tuple[str, bool, bool]]:
    """(text, is heading, struck through) in reading order of the word list."""
    items: list[tuple[str, bool, bool]] = []
    starter, struck = puzzle.starter_word, False
    for length, group in puzzle.words_by_length().items():
        items.append((ngettext("{count} letter", "{count} letters", length), True, False))
        for word in group:
            strike = word == starter and not struck
            struck = struck or strike
            items.append((word, False, strike))
    return items


def grid_place(entry: FillinEntry, frame: Frame, profile: Profile = PLAIN
               ) -> tuple[float, float, float]:
    """Where the grid of a fill-in's first page goes: left x, top y and cell size."""
    scale = profile.text_scale
    top = frame.top - (HEADER + (NOTE if entry.note else 0.0)) * scale
    grid = entry.puzzle.solution
    cell = min(MAX_CELL * scale, frame.width / grid.width,
               frame.height * GRID_SHARE / grid.height)
    if cell < max(MIN_CELL, profile.min_text / LETTER_RATIO):
        raise NonopressError(f"fill-in {entry.number} ({entry.size}) is too big for the page")
    return frame.left + (frame.width - grid.width * cell) / 2, top, cell


def fillin_pages(entry: FillinEntry, frame: Frame, page_size: tuple[float, float],
                 profile: Profile = PLAIN) -> list[Page]:
    """The pages of one fill-in: grid first, then the word list in columns."""
    scale = profile.text_scale
    pages = [Page(page_size[0], page_size[1], "puzzles")]
    page = pages[0]
    page.bookmarks.append(Bookmark(entry.label))
    page.ops.extend(_header(entry, frame.left, frame.top, frame.width, profile=profile))
    y = frame.top - HEADER * scale
    if entry.note:
        small = profile.text(8)
        page.ops.append(Text(frame.left, y - 7 * scale, fit_text(entry.note, small, frame.width),
                             small))
    grid = entry.puzzle.solution
    grid_x, y, cell = grid_place(entry, frame, profile)
    page.ops.extend(grid_ops(grid, grid_x, y, cell, entry.puzzle.givens, profile))
    y -= grid.height * cell + 14 * scale
    slot = entry.puzzle.starter_slot
    if slot is not None:
        # fill-in grids carry no clue numbers: the word is named, not its slot
        line = _("Starter: {word} is written in. Place every other word of the list once.",
                 word=entry.puzzle.starter_word)
    else:
        line = _("Place every word of the list once.")
    size, leading = profile.text(LIST_SIZE), LIST_LEADING * scale
    page.ops.append(Text(frame.left, y, fit_text(line, size, frame.width), size))
    y -= 16 * scale
    items = _list_items(entry.puzzle)
    column_w = max(text_width(t, size, h) for t, h, _ in items) + COLUMN_GAP
    columns = max(1, int((frame.width + COLUMN_GAP) // column_w))
    column_w = (frame.width + COLUMN_GAP) / columns
    column, top = 0, y
    # Balanced columns: as many lines in each as the list needs, not more than the page has.
    headings = sum(1 for _, h, _ in items if h)
    need = len(items) * leading + headings * 4 * scale
    bottom = max(frame.bottom, top - need / columns - 3 * leading)
    for text, heading, strike in items:
        # a new column when this one is full, or would end in a heading alone
        if y - (2 if heading else 1) * leading < bottom:
            column, y = column + 1, top
        if column >= columns:
            page = Page(page_size[0], page_size[1], "puzzles")
            pages.append(page)
            page.ops.extend(_header(entry, frame.left, frame.top, frame.width, True, profile))
            column, top, bottom = 0, frame.top - (HEADER + 6) * scale, frame.bottom
            y = top
        x = frame.left + column * column_w
        if heading and y != top:
            y -= 4 * scale
        page.ops.append(Text(x, y - size, text, size, bold=heading,
                             role="accent" if heading else "ink"))
        if strike:
            mid = y - size + 0.3 * size
            page.ops.append(Lines("ink", max(0.6, profile.design_line),
                                  [(x, mid, x + text_width(text, size), mid)]))
        y -= leading
    return pages


def fillin_solution_pages(entries: Sequence[FillinEntry], frame: Frame,
                          page_size: tuple[float, float], gap: float,
                          after: Page | None = None, profile: Profile = PLAIN) -> list[Page]:
    """The solved grids, small, shelf after shelf, several a page; below what ``after``
    (the last solutions page) already holds when there is room, else on new pages.
    Returns the new pages only."""
    # letters in the solved grids no smaller than the profile allows
    solution_cell = max(SOLUTION_CELL * profile.text_scale, profile.min_text / LETTER_RATIO)
    heading = profile.text(14)

    def box(entry: FillinEntry, caption_h: float) -> tuple[int, int, float]:
        grid = entry.puzzle.solution
        return grid.width, grid.height, min(solution_cell, frame.width / grid.width,
                                            (frame.height - heading - 10 - caption_h)
                                            / grid.height)

    def draw(entry: FillinEntry, x: float, top: float, cell: float) -> list[Op]:
        grid = entry.puzzle.solution
        return grid_ops(grid, x, top, cell, grid, profile)

    first = entries[0].puzzle.solution if entries else None
    first_height = 0.0 if first is None else \
        first.height * min(solution_cell, frame.width / first.width)
    return solution_shelves(entries, frame, page_size, gap, after, profile,
                            _("Fill-in solutions"), first_height, box, draw)


PAGED: PagedLayout[FillinEntry] = PagedLayout(fillin_pages, fillin_solution_pages)
#: what the manifest reads (its ``fillins`` list) and how the issue builds its entries
parse_refs = parse_fillin_refs
build_entries = build_fillins
