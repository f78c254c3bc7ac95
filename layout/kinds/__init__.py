"""How layout draws each kind of puzzle: one module a kind under ``layout/kinds/``.

A kind's registry entry (grader.kinds.registry) names its drawing, and the drawing is the
module ``layout/kinds/NAME.py``, found by that name: a new kind adds its module and nothing
here changes, as each game of Simon Tatham's collection hands its own ``redraw`` to the one
midend. The plan, the pages and both back ends ask :func:`drawing_of` (or an entry's
``drawing``) and never which kind they hold.

A line puzzle's module gives a :class:`KindDrawing` (``DRAWING``): it draws a block's clues
and cells (the rules, tint and pages are the same for every line puzzle, :func:`puzzle_ops`),
its legend, and describes a grade for print: its solution as a record the grade cache
keeps, and the small grids of a worked solution. A kind that lays out pages of its own (the
fill-in) gives a :class:`PagedDrawing` (``PAGED``) and builds its entries itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

from grader.errors import NonopressError
from grader.kinds import PuzzleKind, kind_of
from grader.ladder import default_ladder
from grader.techniques.base import Step
from layout.draw import Lines, Op, Page, Rect, Rects, Segment, line_widths, outline
from layout.geometry import BlockGeometry
from layout.profiles import PLAIN, Profile

if TYPE_CHECKING:
    import numpy as np

    from grader.colour.model import AnyPuzzle
    from grader.colour.palette import Palette

#: Grids drawn in a worked solution, after its first hard steps (a reader sees where the
#: solve stands when it needs more than routine line logic).
MAX_WORKED_GRIDS = 8
#: Puzzles wider or taller than this get no step grids (they would be unreadably small).
MAX_GRID_SIDE = 40
#: A colour or mosaic solve with no hard step (routine logic alone, as most colour
#: puzzles and easy mosaics) still shows where it stands this many times, after evenly
#: spaced steps.
COLOUR_ROUTINE_GRIDS = 6

#: Rungs whose steps a worked solution may summarise: the routine line logic (the rungs
#: of the ladder table's lowest level).
ROUTINE_RUNGS = default_ladder().routine()

Picture = Any  # BoolArray for black and white, ColourArray (palette indices) for colour


class StepGrids(Protocol):
    """How a kind draws the small grids of a worked solution (the plan's worked pages ask
    it, whichever way the kind lays out its puzzle pages)."""

    def step_legend(self, grey: bool) -> str:
        """What the marks of the step grids mean."""
        ...

    def step_cell(self, rows: Sequence[str], width: float, grey: bool, least_text: float
                  ) -> float:
        """The cell of a step grid that fits ``width``."""
        ...

    def step_width(self, rows: Sequence[str], least_text: float) -> float:
        """The least width a step grid needs to be read (its clues at ``least_text``
        points); 0 when any width will do. The steps stand in fewer columns when one is
        narrower."""
        ...

    def step_grid_ops(self, puzzle: Any, rows: Sequence[str], x: float, top: float,
                      cell: float, grey: bool, least_text: float, line: float) -> list[Op]:
        """A step grid with its top-left corner at (x, top)."""
        ...


class KindDrawing(StepGrids, Protocol):
    """What layout asks of a kind to print it."""

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

    def legend_ops(self, puzzle: AnyPuzzle, grey: bool, x: float, baseline: float,
                   size: float, width: float) -> list[Op]:
        """The legend's line (as many of its names as fit ``width``)."""
        ...

    def legend_fits(self, puzzle: AnyPuzzle, grey: bool, size: float, width: float) -> bool:
        """Whether the whole legend fits one line of ``width`` at ``size`` points."""
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


def step_rows(cells: np.ndarray[Any, Any], step: Step, mark: Any) -> tuple[str, ...]:
    """The grid as rows of ``mark(value, decided by this step)`` characters."""
    changed = {(r, c) for r, c, _ in step.changes}
    height, width = cells.shape
    return tuple("".join(mark(int(cells[r, c]), (r, c) in changed) for c in range(width))
                 for r in range(height))


def printed_steps(lines: Sequence[str]) -> dict[str, int]:
    """Step number -> index of the line that prints the step in full."""
    return {line.split(". ", 1)[0]: i for i, line in enumerate(lines) if ". " in line}


def grid_steps(deciding: Sequence[int], routine: Callable[[int], bool]) -> set[int]:
    """The step numbers a worked solution draws a grid after, of the printed steps that
    decide a cell (``deciding``, in order): the first :data:`MAX_WORKED_GRIDS` that are not
    ``routine``; when every one is, :data:`COLOUR_ROUTINE_GRIDS` evenly spaced ones."""
    chosen = [k for k in deciding if not routine(k)]
    if not chosen and deciding:
        count = min(COLOUR_ROUTINE_GRIDS, len(deciding))
        chosen = sorted({deciding[round((j + 1) * len(deciding) / count) - 1]
                         for j in range(count)})
    return set(chosen[:MAX_WORKED_GRIDS])


class WorkedDrawing(StepGrids, Protocol):
    """What a kind that lays out pages of its own gives the plan's worked-solution pages
    (the same pages as the line puzzles': heading, grade, step lines and step grids): the
    solved puzzle the page opens with, and its step grids."""

    def solved_ops(self, entry: Any, x: float, top: float, width: float, height: float,
                   profile: Profile) -> tuple[list[Op], float]:
        """The solved puzzle centred in ``width`` below ``top``, at most ``height`` tall
        (the room left on the page; the step lines follow it): what it draws and how tall
        it is."""
        ...


class PagedDrawing(Protocol):
    """What layout asks of a kind that lays out pages of its own (a fill-in: its grid and
    its word list), numbered after the puzzle blocks: the entries are the issue's entries
    whose ``drawing`` this is, in issue order. ``worked``: its worked solutions, None for
    a kind whose grade logs no steps (the fill-in)."""

    @property
    def worked(self) -> WorkedDrawing | None: ...

    def pages(self, entries: Sequence[Any], area: Any, page_size: tuple[float, float],
              profile: Profile) -> tuple[list[Page], dict[int, int]]:
        """The entries' pages, and the index among them where each entry's number starts."""
        ...

    def solution_pages(self, entries: Sequence[Any], area: Any,
                       page_size: tuple[float, float], gap: float, solutions: list[Page],
                       profile: Profile) -> list[Page]:
        """``solutions`` with the entries' solutions added (below the last page's, if room)."""
        ...


_LOADED: dict[str, Any] = {}


def drawing_module(name: str) -> Any:
    """The module that draws the kinds naming ``name`` (``layout/kinds/NAME.py``): a new
    kind's drawing is its module, found by the name its registry entry gives."""
    module = _LOADED.get(name)
    if module is None:
        import importlib

        if not name.isidentifier():
            raise NonopressError(f"layout has no drawing {name!r}")
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError:
            raise NonopressError(f"layout has no drawing {name!r} (layout/kinds/{name}.py)"
                                 ) from None
        _LOADED[name] = module
    return module


#: drawings put in place of a kind's own (tests draw a kind differently)
DRAWINGS: dict[str, KindDrawing] = {}


def register(name: str, drawing: KindDrawing) -> None:
    """Draw the kinds that name ``name`` with ``drawing`` instead of their module's."""
    DRAWINGS[name] = drawing


def drawing_named(name: str) -> KindDrawing:
    """The line-puzzle drawing of the kinds that name ``name``."""
    found = DRAWINGS.get(name)
    return found if found is not None else cast(KindDrawing, drawing_module(name).DRAWING)


def drawing_of(puzzle: AnyPuzzle) -> KindDrawing:
    """The drawing of ``puzzle``, as its kind names it."""
    return drawing_named(kind_of(puzzle).drawing)


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

