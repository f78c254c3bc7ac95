"""How layout draws and describes each kind of puzzle: one strategy a kind, registered here.

A kind names its strategy (``kind_of(puzzle).drawing``), as each game of Simon Tatham's
collection hands its own ``redraw`` to the one midend; layout owns the strategies. The
plan, the pages and both back ends ask :func:`drawing_of` and never which kind they hold: a
new kind that prints like an existing one names that drawing, one that prints otherwise
registers its own with :func:`register`.

A strategy draws a block's clues and cells (the rules, tint and pages are the same for
every kind), names the palette of its legend, and describes a grade for print: its
solution as a record the grade cache keeps, and the small grids of a worked solution.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

import numpy as np

from grader.errors import NonopressError
from grader.kinds import PuzzleKind, kind_of
from grader.ladder import default_ladder
from grader.model import EMPTY, FILLED, BoolArray, Puzzle, rows_to_array
from grader.techniques.base import Step
from layout.colourdraw import (
    colour_clue_ops,
    colour_solution_ops,
    uses_symbols,
)
from layout.draw import (
    ClueText,
    Lines,
    Op,
    Rect,
    Rects,
    Segment,
    filled_runs,
    given_ops,
    line_widths,
    outline,
)
from layout.geometry import BlockGeometry
from layout.profiles import PLAIN, Profile
from layout.stepgrid import (
    INDEX_CHARS,
    STEP_MARKS,
    colour_step_cell,
    colour_step_grid_ops,
    legend,
    step_cell,
    step_grid_ops,
)

if TYPE_CHECKING:
    from grader.colour.model import AnyPuzzle, ColourArray, ColourPuzzle
    from grader.colour.palette import Palette

#: Grids drawn in a worked solution, after its first hard steps (a reader sees where the
#: solve stands when it needs more than routine line logic).
MAX_WORKED_GRIDS = 8
#: Puzzles wider or taller than this get no step grids (they would be unreadably small).
MAX_GRID_SIDE = 40
#: A colour solve with no hard step (line logic alone, as most colour puzzles) still shows
#: where it stands this many times, after evenly spaced steps.
COLOUR_ROUTINE_GRIDS = 6

#: Rungs whose steps a worked solution may summarise: the routine line logic (the rungs
#: of the ladder table's lowest level).
ROUTINE_RUNGS = default_ladder().routine()

Picture = Any  # BoolArray for black and white, ColourArray (palette indices) for colour


class KindDrawing(Protocol):
    """What layout asks of a kind to print it."""

    #: put before the puzzle's key in the grade cache (kinds' keys never meet)
    key_prefix: str

    def symbols(self, puzzle: AnyPuzzle, grey: bool) -> bool:
        """Whether each clue number carries a symbol (one more character to fit a cell)."""
        ...

    def clue_ops(self, puzzle: AnyPuzzle, geometry: BlockGeometry, x: float, top: float,
                 cell: float, size: float, grey: bool) -> tuple[list[Op], list[Op]]:
        """The clues of the block whose top-left corner is (x, top): what goes under the
        rules and what over them."""
        ...

    def cell_ops(self, puzzle: AnyPuzzle, solution: Picture | None, grid_x: float,
                 grid_top: float, cell: float, grey: bool, least_text: float) -> list[Op]:
        """The grid's cells: the solution when given, else what the puzzle prints in its
        empty grid (given cells)."""
        ...

    def legend_palette(self, puzzle: AnyPuzzle) -> Palette | None:
        """The palette a legend under the puzzle's header names; None: no legend."""
        ...

    def solution_record(self, puzzle: AnyPuzzle, rows: tuple[str, ...] | None
                        ) -> tuple[str, ...] | None:
        """The kind's solution rows (``kind.proved_rows``) as the grade record keeps them."""
        ...

    def picture(self, puzzle: AnyPuzzle, record: tuple[str, ...]) -> Picture | None:
        """The picture of a grade record's solution; None when it is not one of this
        puzzle's (a record written by hand or by another version)."""
        ...

    def worked_grids(self, kind: PuzzleKind, steps: Sequence[Step], lines: Sequence[str]
                     ) -> tuple[tuple[int, tuple[str, ...]], ...]:
        """The small grids of a worked solution: (index of the step line, rows)."""
        ...

    def step_legend(self, grey: bool) -> str:
        """What the marks of the step grids mean."""
        ...

    def step_cell(self, rows: Sequence[str], width: float, grey: bool, least_text: float
                  ) -> float:
        """The cell of a step grid that fits ``width``."""
        ...

    def step_grid_ops(self, puzzle: AnyPuzzle, rows: Sequence[str], x: float, top: float,
                      cell: float, grey: bool, least_text: float, line: float) -> list[Op]:
        """A step grid with its top-left corner at (x, top)."""
        ...


def _step_rows(cells: np.ndarray[Any, Any], step: Step, mark: Any) -> tuple[str, ...]:
    """The grid as rows of ``mark(value, decided by this step)`` characters."""
    changed = {(r, c) for r, c, _ in step.changes}
    height, width = cells.shape
    return tuple("".join(mark(int(cells[r, c]), (r, c) in changed) for c in range(width))
                 for r in range(height))


def _printed(lines: Sequence[str]) -> dict[str, int]:
    """Step number -> index of the line that prints the step in full."""
    return {line.split(". ", 1)[0]: i for i, line in enumerate(lines) if ". " in line}


class BlackAndWhiteDrawing:
    """Clue numbers in the tint, filled cells inked and merged into runs, givens printed."""

    key_prefix = ""

    def symbols(self, puzzle: AnyPuzzle, grey: bool) -> bool:
        return False

    def clue_ops(self, puzzle: AnyPuzzle, geometry: BlockGeometry, x: float, top: float,
                 cell: float, size: float, grey: bool) -> tuple[list[Op], list[Op]]:
        plain = cast(Puzzle, puzzle)
        return [], [ClueText(size, list(geometry.clue_centres(plain, x, top, cell)))]

    def cell_ops(self, puzzle: AnyPuzzle, solution: Picture | None, grid_x: float,
                 grid_top: float, cell: float, grey: bool, least_text: float) -> list[Op]:
        plain = cast(Puzzle, puzzle)
        if solution is None:
            return given_ops(plain, grid_x, grid_top, cell) if plain.givens else []
        runs = filled_runs(cast(BoolArray, solution))
        return [Rects("ink", [(grid_x + c * cell, grid_top - (r + 1) * cell, n * cell, cell)
                              for r, c, n in runs])]

    def legend_palette(self, puzzle: AnyPuzzle) -> Palette | None:
        return None

    def solution_record(self, puzzle: AnyPuzzle, rows: tuple[str, ...] | None
                        ) -> tuple[str, ...] | None:
        return rows

    def picture(self, puzzle: AnyPuzzle, record: tuple[str, ...]) -> Picture | None:
        return rows_to_array(record)

    def worked_grids(self, kind: PuzzleKind, steps: Sequence[Step], lines: Sequence[str]
                     ) -> tuple[tuple[int, tuple[str, ...]], ...]:
        """The grid after each hard step (beyond routine line logic) that ``lines`` prints
        in full, as rows of '#', '.', '?' and 'F'/'E' for the cells the step decided."""
        def mark(value: int, decided: bool) -> str:
            if decided:
                return "F" if value == FILLED else "E"
            return "#" if value == FILLED else "." if value == EMPTY else "?"

        cells = kind.start_cells().copy()
        height, width = cells.shape
        if width > MAX_GRID_SIDE or height > MAX_GRID_SIDE:
            return ()
        where = _printed(lines)
        grids: list[tuple[int, tuple[str, ...]]] = []
        for k, step in enumerate(steps, start=1):
            for row, column, state in step.changes:
                cells[row, column] = state
            if step.rung in ROUTINE_RUNGS or str(k) not in where:
                continue
            grids.append((where[str(k)], _step_rows(cells, step, mark)))
            if len(grids) == MAX_WORKED_GRIDS:
                break
        return tuple(grids)

    def step_legend(self, grey: bool) -> str:
        return legend(grey)

    def step_cell(self, rows: Sequence[str], width: float, grey: bool, least_text: float
                  ) -> float:
        return step_cell(rows, width)

    def step_grid_ops(self, puzzle: AnyPuzzle, rows: Sequence[str], x: float, top: float,
                      cell: float, grey: bool, least_text: float, line: float) -> list[Op]:
        return step_grid_ops(rows, x, top, cell, line)


class ColourDrawing:
    """Each clue number on a square of its block's colour, solved cells in their colours, a
    legend of the colours; in grey print grey tints with symbols (layout.colourdraw)."""

    key_prefix = "colour-"

    def symbols(self, puzzle: AnyPuzzle, grey: bool) -> bool:
        return uses_symbols(cast("ColourPuzzle", puzzle), grey)

    def clue_ops(self, puzzle: AnyPuzzle, geometry: BlockGeometry, x: float, top: float,
                 cell: float, size: float, grey: bool) -> tuple[list[Op], list[Op]]:
        ops = colour_clue_ops(cast("ColourPuzzle", puzzle), geometry.row_slots,
                              geometry.col_slots, x, top, cell, size, grey)
        # the squares under the rules, the digits over them
        return ([op for op in ops if isinstance(op, Rects)],
                [op for op in ops if isinstance(op, ClueText)])

    def cell_ops(self, puzzle: AnyPuzzle, solution: Picture | None, grid_x: float,
                 grid_top: float, cell: float, grey: bool, least_text: float) -> list[Op]:
        if solution is None:
            return []
        return colour_solution_ops(cast("ColourArray", solution),
                                   cast("ColourPuzzle", puzzle).palette, grid_x, grid_top,
                                   cell, grey, least_text)

    def legend_palette(self, puzzle: AnyPuzzle) -> Palette | None:
        return cast("ColourPuzzle", puzzle).palette

    def solution_record(self, puzzle: AnyPuzzle, rows: tuple[str, ...] | None
                        ) -> tuple[str, ...] | None:
        """Each cell's colour index as one character (:data:`INDEX_CHARS`), so that
        renaming a colour's char (the cache key ignores it) changes nothing."""
        if rows is None:
            return None
        palette = cast("ColourPuzzle", puzzle).palette
        index = {palette[i].char: INDEX_CHARS[i] for i in range(palette.size + 1)}
        return tuple("".join(index[ch] for ch in row) for row in rows)

    def picture(self, puzzle: AnyPuzzle, record: tuple[str, ...]) -> Picture | None:
        colour = cast("ColourPuzzle", puzzle)
        allowed = set(INDEX_CHARS[:colour.colours + 1])
        if len(record) != colour.height or not all(
                len(row) == colour.width and set(row) <= allowed for row in record):
            return None
        return np.array([[INDEX_CHARS.index(ch) for ch in row] for row in record],
                        dtype=np.uint8)

    def worked_grids(self, kind: PuzzleKind, steps: Sequence[Step], lines: Sequence[str]
                     ) -> tuple[tuple[int, tuple[str, ...]], ...]:
        """The grid after each hard step that ``lines`` prints in full (after evenly spaced
        steps when none is hard), as rows of ``STEP_MARKS``, INDEX_CHARS, '.' and '?'. A
        cell is known once one value (a colour, or empty) is left to it."""
        start = kind.start_cells()
        height, width = start.shape
        if (width > MAX_GRID_SIDE or height > MAX_GRID_SIDE
                or kind.colours() >= len(STEP_MARKS)):
            return ()
        where = _printed(lines)
        cells = start.copy()
        deciding = []  # printed steps that leave at least one cell known (a grid with a mark)
        for k, step in enumerate(steps, start=1):
            known = 0
            for row, column, value in step.changes:
                before = int(cells[row, column])
                cells[row, column] &= value
                after = int(cells[row, column])
                known += after != before and not after & (after - 1)
            if known and str(k) in where:
                deciding.append(k)
        chosen = [k for k in deciding if steps[k - 1].rung not in ROUTINE_RUNGS]
        if not chosen and deciding:
            count = min(COLOUR_ROUTINE_GRIDS, len(deciding))
            chosen = sorted({deciding[round((j + 1) * len(deciding) / count) - 1]
                             for j in range(count)})
        wanted = set(chosen[:MAX_WORKED_GRIDS])
        cells[:] = start
        grids: list[tuple[int, tuple[str, ...]]] = []
        for k, step in enumerate(steps, start=1):
            for row, column, value in step.changes:
                cells[row, column] &= value
            if k not in wanted:
                continue
            grids.append((where[str(k)], _step_rows(cells, step, _colour_mark)))
        return tuple(grids)

    def step_legend(self, grey: bool) -> str:
        return legend(grey, colour=True)

    def step_cell(self, rows: Sequence[str], width: float, grey: bool, least_text: float
                  ) -> float:
        return colour_step_cell(rows, width, grey, least_text)

    def step_grid_ops(self, puzzle: AnyPuzzle, rows: Sequence[str], x: float, top: float,
                      cell: float, grey: bool, least_text: float, line: float) -> list[Op]:
        return colour_step_grid_ops(rows, cast("ColourPuzzle", puzzle).palette, x, top, cell,
                                    grey, least_text, line)


def _colour_mark(value: int, decided: bool) -> str:
    """A colour step grid's character for a cell's bit set of values left."""
    if value & (value - 1):  # more than one value left
        return "?"
    index = value.bit_length() - 1
    if decided:
        return STEP_MARKS[index]
    return "." if index == 0 else INDEX_CHARS[index]


#: the drawing strategies by the name a kind gives (``PuzzleKind.drawing``)
DRAWINGS: dict[str, KindDrawing] = {
    "black-and-white": BlackAndWhiteDrawing(),
    "colour": ColourDrawing(),
}


def register(name: str, drawing: KindDrawing) -> None:
    """Make ``drawing`` the strategy of the kinds that name ``name``."""
    DRAWINGS[name] = drawing


def drawing_of(puzzle: AnyPuzzle) -> KindDrawing:
    """The strategy that draws ``puzzle``, as its kind names it."""
    kind = kind_of(puzzle)
    try:
        return DRAWINGS[kind.drawing]
    except KeyError:
        raise NonopressError(f"layout has no drawing {kind.drawing!r} for puzzles of the "
                             f"{kind.name} kind") from None


def puzzle_ops(
    puzzle: AnyPuzzle,
    geometry: BlockGeometry,
    x: float,
    top: float,
    cell: float,
    solution: Picture | None = None,
    profile: Profile = PLAIN,
    grey: bool = False,
) -> list[Op]:
    """A puzzle block with its top-left corner at (x, top): clues (if the geometry has clue
    slots), grid rules and, when ``solution`` is given, its cells. ``profile`` sets the
    thinnest line and the clue digit size; ``grey`` prints a colour puzzle's colours as grey
    tints with symbols. The clues and cells are the kind's drawing's, the rest is shared."""
    drawing = drawing_of(puzzle)
    grid_x = x + geometry.row_slots * cell
    grid_top = top - geometry.col_slots * cell
    grid_w = geometry.width * cell
    grid_h = geometry.height * cell
    grid_bottom = grid_top - grid_h
    has_clues = geometry.row_slots > 0
    ops: list[Op] = []
    clue_areas: list[Rect] = []
    under: list[Op] = []
    over: list[Op] = []
    if has_clues:
        clue_areas = [
            (grid_x, grid_top, grid_w, geometry.col_slots * cell),
            (x, grid_bottom, geometry.row_slots * cell, grid_h),
        ]
        ops.append(Rects("tint", clue_areas))
        under, over = drawing.clue_ops(puzzle, geometry, x, top, cell,
                                       geometry.digit_ratio_for(profile.large_print) * cell,
                                       grey)
        ops.extend(under)
    ops.extend(drawing.cell_ops(puzzle, solution, grid_x, grid_top, cell, grey,
                                max(profile.min_text, 4.0)))
    thin_w, thick_w, border_w = line_widths(cell, profile.design_line)
    # A printer's thinnest line would darken a small solution picture: its 5-cell rules
    # and the picture itself are enough to read it.
    skip_thin = not has_clues and thin_w > 0.12 * cell
    thin: list[Segment] = []
    thick: list[Segment] = []
    # Vertical rules run up through the column clues, horizontal ones left through the row
    # clues: the thick ones every 5 cells counted from the top-left.
    for j in range(1, geometry.width):
        xj = grid_x + j * cell
        (thick if j % 5 == 0 else thin).append((xj, grid_bottom, xj, top))
    for i in range(1, geometry.height):
        yi = grid_top - i * cell
        (thick if i % 5 == 0 else thin).append((x, yi, grid_x + grid_w, yi))
    for ax, ay, aw, ah in clue_areas:
        thick.extend(outline(ax, ay, aw, ah))
    if thin and not skip_thin:
        ops.append(Lines("rule", thin_w, thin))
    if thick:
        ops.append(Lines("ink", thick_w, thick))
    ops.append(Lines("ink", border_w, outline(grid_x, grid_bottom, grid_w, grid_h)))
    ops.extend(over)
    return ops

