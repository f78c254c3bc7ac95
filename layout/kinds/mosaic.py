"""The mosaic kind on paper: the manifest's ``mosaics`` list, building the entries (read,
prove unique, grade) and drawing their pages.

Each item of ``mosaics`` is a mosaic file (``kind: mosaic`` YAML, JSON or game IDs: the
first mosaic of the file) or a mapping with ``file`` and optionally ``title`` and ``note``.
A mosaic page holds the header (number, size, stars), a line saying how to solve it, and
the grid: every cell ruled, a thicker rule every 5 cells, each clue's digit as text
centred in its cell. Solutions come after the nonogram solutions, small pictures of the
filled cells ruled as the nonograms' solutions are, at their scale. Both back ends draw
these display lists.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grader.errors import NonopressError, NotPublishable
from grader.i18n import N_, _
from grader.model import FILLED
from grader.results import Budget
from layout.draw import (
    Bookmark,
    ClueText,
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
from layout.kinds import MAX_GRID_SIDE, grid_steps, printed_steps
from layout.kinds.paged import Frame, PagedEntry, PagedLayout, read_items, solution_shelves
from layout.profiles import PLAIN, Profile
from layout.stepgrid import MAX_WIDTH_SHARE, step_grid_ops
from layout.stepgrid import legend as step_legend
from layout.units import MM

if TYPE_CHECKING:  # the engine loads on an issue that holds mosaics only
    from grader.mosaic_model import MosaicPuzzle

MOSAIC_KEYS = ("file", "title", "note")
MAX_CELL = 9.0 * MM
DIGIT_RATIO = 0.6  # a clue's digit, of the cell size
HEADER = 16.0
RULE_EVERY = 5
#: the share of the page's room a worked solution's solved grid takes, its digits legible
SOLVED_SHARE = 0.55
#: a step grid's cell when its digits need no more (they need least_text / DIGIT_RATIO)
STEP_CELL = 3.5 * MM
WHITE = (255, 255, 255)
#: the level of the rungs a long worked solution summarises (the ladder's lowest)
ROUTINE_LEVEL = "easy"
#: how a run of routine steps is summarised, for one step and for several
SUMMARY = (N_("Step {n}: routine clue logic ({counts})."),
           N_("Steps {first}-{last}: routine clue logic ({counts})."))
HOW = N_("Fill the cells so that each digit counts the filled cells of its 3x3 block (the "
         "cell itself and its neighbours).")


@dataclass(frozen=True)
class MosaicRef:
    """One item of the manifest's ``mosaics`` list."""

    path: Path
    title: str | None = None
    note: str = ""


def parse_mosaic_refs(value: object, base: Path) -> tuple[MosaicRef, ...]:
    """The manifest's ``mosaics`` value: a list of mosaic files or mappings with ``file``."""
    refs = []
    for _k, item, path in read_items(value, base, "mosaics", "mosaic file", MOSAIC_KEYS):
        title = item.get("title")
        refs.append(MosaicRef(path, None if title is None else str(title).strip(),
                              str(item.get("note") or "").strip()))
    return tuple(refs)


@dataclass(frozen=True, eq=False)
class MosaicEntry(PagedEntry["MosaicPuzzle"]):
    """A mosaic of the issue, numbered after the nonograms, with its grade and the
    solution the grade proved."""

    @property
    def shown_title(self) -> str:
        """For the contents: a mosaic's title would give its picture away."""
        return _("Mosaic")

    @property
    def label(self) -> str:
        return (_("No. {number}", number=self.number) + " \u00b7 "
                + _("Mosaic {size}", size=self.size))

    @property
    def noun(self) -> str:
        return "mosaic"

    @property
    def paged(self) -> PagedLayout[MosaicEntry]:
        return PAGED


def grade_info(puzzle: MosaicPuzzle, budget: Budget) -> GradeInfo:
    """The kind's grade (through the registry: layout never reaches the engine itself)."""
    from grader.kinds import any_kind_of
    from grader.model import as_row_strings
    from layout.build import worked_lines

    kind: Any = any_kind_of(puzzle)  # the mosaic contract: its grade and sentences
    grade = kind.grade(None, budget)
    # the worked solution's lines, as a nonogram's: in the reader's language, routine runs
    # of a long solve summarised
    routine = {rung for rung in grade.rungs if kind.rung_level(rung) == ROUTINE_LEVEL}
    steps = worked_lines(grade.steps, puzzle, routine, SUMMARY)
    solution = as_row_strings(grade.solution) if grade.solution is not None else None
    if solution is None and grade.verdict == "unique" and grade.solutions:
        solution = as_row_strings(grade.solutions[0])
    return GradeInfo(level=grade.level, score=grade.score, stars=grade.stars,
                     verdict=grade.verdict, rungs=dict(grade.rungs), time_s=grade.time_s,
                     steps=steps, solution=solution, problem=grade.problem,
                     minutes=grade.minutes, minutes_low=grade.minutes_low,
                     minutes_high=grade.minutes_high,
                     grids=worked_grids(puzzle, grade.steps, steps,
                                        lambda step: step.rung in routine))


def worked_grids(puzzle: MosaicPuzzle, steps: Sequence[Any], lines: Sequence[str],
                 routine: Callable[[Any], bool]) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """The grid after each hard step that ``lines`` prints in full (after evenly spaced
    ones when none is hard, as a colour solve's: layout.kinds.grid_steps), as rows of '#'
    filled, '.' empty, '?' not known yet and 'F'/'E' for the cells the step decided: the
    marks of a black-and-white step grid; the clues are the puzzle's own."""
    width, height = puzzle.width, puzzle.height
    if width > MAX_GRID_SIDE or height > MAX_GRID_SIDE:
        return ()
    where = printed_steps(lines)
    wanted = grid_steps([k for k in range(1, len(steps) + 1) if str(k) in where],
                        lambda k: routine(steps[k - 1]))
    cells = [["?"] * width for _ in range(height)]
    grids: list[tuple[int, tuple[str, ...]]] = []
    for k, step in enumerate(steps, start=1):
        for row, column, state in step.changes:
            cells[row][column] = "#" if state == FILLED else "."
        if k not in wanted:
            continue
        shown = [row[:] for row in cells]
        for row, column, state in step.changes:
            shown[row][column] = "F" if state == FILLED else "E"
        grids.append((where[str(k)], tuple("".join(row) for row in shown)))
    return tuple(grids)


def build_mosaics(refs: Sequence[MosaicRef], first_number: int, budget: Budget,
                  label: str = "") -> tuple[MosaicEntry, ...]:
    """Read and grade each mosaic; one that is not unique is an error, as a nonogram with
    several solutions is."""
    from grader.kinds import entry_of, read_puzzles

    entries: list[MosaicEntry] = []
    for k, ref in enumerate(refs):
        number = first_number + k
        where = f"{ref.path.name} (puzzle {number} of the issue)"
        puzzle: Any = read_puzzles(ref.path)[0]
        if entry_of(puzzle).drawing != "mosaic":
            raise NonopressError(f"{where}: not a mosaic (a nonogram goes in 'puzzles')")
        grade = grade_info(puzzle, budget)
        if grade.verdict != "unique" or grade.solution is None:
            raise NotPublishable(f"{where}: the mosaic has {grade.verdict} solutions")
        title = ref.title if ref.title is not None else puzzle.title
        entries.append(MosaicEntry(number, puzzle, grade, title, ref.note))
    return tuple(entries)


# -- drawing ---------------------------------------------------------------------------------
def rules(width: int, height: int, x: float, top: float, cell: float
          ) -> tuple[list[Segment], list[Segment], list[Segment]]:
    """The grid's thin rules, its rules every :data:`RULE_EVERY` cells and its border."""
    right, bottom = x + width * cell, top - height * cell
    thin: list[Segment] = []
    thick: list[Segment] = []
    for j in range(1, width):
        (thick if j % RULE_EVERY == 0 else thin).append((x + j * cell, bottom, x + j * cell, top))
    for i in range(1, height):
        (thick if i % RULE_EVERY == 0 else thin).append((x, top - i * cell, right, top - i * cell))
    border: list[Segment] = [(x, bottom, right, bottom), (right, bottom, right, top),
                             (right, top, x, top), (x, top, x, bottom)]
    return thin, thick, border


def grid_ops(puzzle: MosaicPuzzle, x: float, top: float, cell: float,
             profile: Profile = PLAIN) -> list[Op]:
    """The empty grid with its clue digits, top-left corner at (x, top)."""
    thin_w, thick_w, border_w = line_widths(cell)
    thin, thick, border = rules(puzzle.width, puzzle.height, x, top, cell)
    ops: list[Op] = [Lines("ink", max(thin_w, profile.design_line), thin),
                     Lines("ink", thick_w, thick), Lines("ink", border_w, border)]
    size = DIGIT_RATIO * cell
    for r, c, clue in puzzle.clue_cells():
        ops.append(Text(x + (c + 0.5) * cell, top - (r + 0.5) * cell - DIGIT_HEIGHT * size / 2,
                        str(clue), size, anchor="center"))
    return ops


def picture_ops(rows: Sequence[str], x: float, top: float, cell: float,
                profile: Profile = PLAIN) -> list[Op]:
    """A solution's picture: its filled cells ruled as a nonogram's solution is (thin grey
    rules a cell, ink rules every 5 cells, a border), so a reader counts cells to check a
    row; the thin rules left out where they would darken a small picture, as there."""
    width, height = len(rows[0]), len(rows)
    filled = [(x + c * cell, top - (r + 1) * cell, cell, cell)
              for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"]
    thin_w, thick_w, border_w = line_widths(cell, profile.design_line)
    thin, thick, border = rules(width, height, x, top, cell)
    ops: list[Op] = [Rects("ink", filled)]
    if thin and thin_w <= 0.12 * cell:
        ops.append(Lines("rule", thin_w, thin))
    if thick:
        ops.append(Lines("ink", thick_w, thick))
    ops.append(Lines("ink", border_w, border))
    return ops


def digit_ops(puzzle: MosaicPuzzle, rows: Sequence[str] | None, x: float, top: float,
              cell: float, size: float) -> list[Op]:
    """The clue digits centred in their cells, white on a filled cell (``#``) or one a
    step filled (``F``) of ``rows``, black on the others; real text, searchable."""
    black: list[tuple[float, float, str]] = []
    white: list[tuple[float, float, str]] = []
    for r, c, clue in puzzle.clue_cells():
        on_ink = rows is not None and rows[r][c] in "#F"
        (white if on_ink else black).append((x + (c + 0.5) * cell, top - (r + 0.5) * cell,
                                             str(clue)))
    ops: list[Op] = []
    if black:
        ops.append(ClueText(size, black))
    if white:
        ops.append(ClueText(size, white, rgb=WHITE))
    return ops


class MosaicWorked:
    """A mosaic's worked solution (layout.kinds.WorkedDrawing): the solved grid with its
    clues, then step grids of the clues and the cells known so far, marked as a
    black-and-white step grid's (its legend), with the clue digits over them."""

    def solved_ops(self, entry: Any, x: float, top: float, width: float, height: float,
                   profile: Profile) -> tuple[list[Op], float]:
        puzzle: MosaicPuzzle = entry.puzzle
        rows = entry.grade.solution
        assert rows is not None  # build_mosaics keeps proved mosaics only
        # about half the page, as a nonogram's solved grid, or more where its digits need it
        legible = profile.min_text / DIGIT_RATIO
        cell = min(MAX_CELL * profile.text_scale, width / puzzle.width, height / puzzle.height,
                   max(SOLVED_SHARE * height / puzzle.height, legible))
        left = x + (width - puzzle.width * cell) / 2
        ops = picture_ops(rows, left, top, cell, profile)
        if cell >= legible - 1e-9:  # else the picture alone (the puzzle page refused it)
            ops.extend(digit_ops(puzzle, rows, left, top, cell, DIGIT_RATIO * cell))
        return ops, puzzle.height * cell

    def step_legend(self, grey: bool) -> str:
        return step_legend(grey)

    def step_cell(self, rows: Sequence[str], width: float, grey: bool, least_text: float
                  ) -> float:
        """As big as its digits need at ``least_text`` points (or STEP_CELL, if more),
        within the column (``width`` times the share a step grid may take)."""
        column = width * MAX_WIDTH_SHARE
        return min(column / len(rows[0]), max(STEP_CELL, least_text / DIGIT_RATIO))

    def step_width(self, rows: Sequence[str], least_text: float) -> float:
        return len(rows[0]) * least_text / DIGIT_RATIO

    def step_grid_ops(self, puzzle: Any, rows: Sequence[str], x: float, top: float,
                      cell: float, grey: bool, least_text: float, line: float) -> list[Op]:
        """The black-and-white step grid (layout.stepgrid) with the clue digits over it,
        when they are legible; a cell a step emptied is dotted in its corner when it holds
        a clue, where the dot keeps clear of the digit."""
        mosaic: MosaicPuzzle = puzzle
        clued = {(r, c) for r, c, _ in mosaic.clue_cells()}
        plain = [
            "".join("." if ch == "E" and (r, c) in clued else ch for c, ch in enumerate(row))
            for r, row in enumerate(rows)]
        ops = step_grid_ops(plain, x, top, cell, line)
        dot = 0.28 * cell
        corner = [(x + (c + 0.8) * cell - dot / 2, top - (r + 0.8) * cell - dot / 2, dot, dot)
                  for r, row in enumerate(rows) for c, ch in enumerate(row)
                  if ch == "E" and (r, c) in clued]
        if corner:
            ops.append(Rects("step", corner))
        size = DIGIT_RATIO * cell
        if size >= least_text - 1e-9:
            ops.extend(digit_ops(mosaic, rows, x, top, cell, size))
        return ops


WORKED = MosaicWorked()


def solution_cell(profile: Profile) -> float:
    """A solution picture's cell on ``profile``: the nonograms' solutions' (layout.plan's
    rule: larger for print, larger still for large print), so the pictures of one issue
    share a scale."""
    from layout.plan import LARGE_PRINT_SOLUTION_CELL, PRINT_SOLUTION_CELL
    from layout.plan import SOLUTION_CELL as PLAN_CELL

    if profile.large_print:
        return LARGE_PRINT_SOLUTION_CELL
    return (PRINT_SOLUTION_CELL if profile.is_print else PLAN_CELL) * profile.text_scale


def _header(entry: MosaicEntry, x: float, top: float, width: float,
            profile: Profile = PLAIN) -> list[Op]:
    baseline = top - 11 * profile.text_scale
    big = profile.text(10)
    number = _("No. {number}", number=entry.number)
    rest = "  " + _("Mosaic {size}", size=entry.size)
    star = profile.text(8.0)
    star_w = stars_width(star)
    ops: list[Op] = [Text(x, baseline, number, big, bold=True, role="accent")]
    room = width - text_width(number, big, True) - star_w - 6
    ops.append(Text(x + text_width(number, big, True), baseline, fit_text(rest, big, room), big))
    if entry.grade.stars is not None:
        ops.extend(star_ops(x + width - star_w, baseline, star, entry.grade.stars,
                            line=max(0.4, profile.design_line)))
    return ops


def mosaic_page(entry: MosaicEntry, frame: Frame, page_size: tuple[float, float],
                profile: Profile = PLAIN) -> Page:
    """One mosaic's page: header, how to solve it (and the note), the grid centred."""
    scale = profile.text_scale
    page = Page(page_size[0], page_size[1], "puzzles")
    page.bookmarks.append(Bookmark(entry.label))
    page.ops.extend(_header(entry, frame.left, frame.top, frame.width, profile))
    small = profile.text(8)
    y = frame.top - HEADER * scale
    for line in (_(HOW), entry.note):
        if line:
            page.ops.append(Text(frame.left, y - 7 * scale, fit_text(line, small, frame.width),
                                 small))
            y -= 11 * scale
    y -= 6 * scale
    puzzle = entry.puzzle
    cell = min(MAX_CELL * scale, frame.width / puzzle.width,
               (y - frame.bottom) / puzzle.height)
    if DIGIT_RATIO * cell < profile.min_text:
        raise NonopressError(f"mosaic {entry.number} ({entry.size}) is too big for the page: "
                             f"its digits would be smaller than {profile.min_text:g} pt")
    x = frame.left + (frame.width - puzzle.width * cell) / 2
    page.ops.extend(grid_ops(puzzle, x, y, cell, profile))
    return page


def mosaic_solution_pages(entries: Sequence[MosaicEntry], frame: Frame,
                          page_size: tuple[float, float], gap: float,
                          after: Page | None = None, profile: Profile = PLAIN) -> list[Page]:
    """The solved pictures, small, shelf after shelf; below what ``after`` (the last
    solutions page) holds when there is room, else on new pages. Returns new pages only."""
    wanted = solution_cell(profile)

    def box(entry: MosaicEntry, caption_h: float) -> tuple[int, int, float]:
        puzzle = entry.puzzle
        return puzzle.width, puzzle.height, min(wanted, frame.width / puzzle.width)

    def draw(entry: MosaicEntry, x: float, top: float, cell: float) -> list[Op]:
        rows = entry.grade.solution
        assert rows is not None  # build_mosaics keeps proved mosaics only
        return picture_ops(rows, x, top, cell, profile)

    first_height = (entries[0].puzzle.height * min(wanted, frame.width / entries[0].puzzle.width)
                    if entries else 0.0)
    return solution_shelves(entries, frame, page_size, gap, after, profile,
                            _("Mosaic solutions"), first_height, box, draw, min_width=40.0)


def _mosaic_pages(entry: MosaicEntry, frame: Frame, page_size: tuple[float, float],
                  profile: Profile) -> list[Page]:
    return [mosaic_page(entry, frame, page_size, profile)]


PAGED: PagedLayout[MosaicEntry] = PagedLayout(_mosaic_pages, mosaic_solution_pages, WORKED)
#: what the manifest reads (its ``mosaics`` list) and how the issue builds its entries
parse_refs = parse_mosaic_refs
build_entries = build_mosaics
