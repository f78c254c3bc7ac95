"""The colour kind on paper: clue squares, solution cells, the legend and step grids.

A colour puzzle prints like a black-and-white one (same blocks, rules, headers and pages);
only its clues and solved cells differ. Each clue number sits on a square of its block's
colour, white digits on dark colours. With grey ink (``--grey``, and the KDP profile's
black interior) nothing needs colour ink: each colour is a light grey tint, lighter for
lighter colours, and a symbol (A, B, ...) follows every clue number and marks the solved
cells large enough to hold it; the legend says which symbol is which colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

import numpy as np

from grader.colour.model import ColourArray, ColourPuzzle
from grader.colour.palette import RGB, Palette, luminance
from grader.techniques.base import Step
from layout.draw import ClueText, Lines, Op, Rect, Rects, Segment, Text, filled_runs
from layout.fonts import text_width
from layout.geometry import BlockGeometry
from layout.kinds import (
    MAX_GRID_SIDE,
    ROUTINE_RUNGS,
    KindDrawing,
    Picture,
    grid_steps,
    printed_steps,
    step_rows,
)
from layout.stepgrid import INDEX_CHARS, STEP_MARKS, grid_rules, legend, step_cell

if TYPE_CHECKING:
    from grader.colour.model import AnyPuzzle
    from grader.kinds import PuzzleKind

WHITE_RGB: RGB = (255, 255, 255)
BLACK_RGB: RGB = (0, 0, 0)
#: grey print: tints (fractions of black) from the lightest colour's to the darkest's, all
#: light enough for black digits; the symbols tell close tints apart. The lightest is twice
#: the clue background's tint (layout.pdf GREY_OF["tint"], 0.12): at 0.12 the lightest
#: colour's swatch and clue squares vanished into the clue band (issue 46)
GREY_LIGHTEST = 0.24
GREY_DARKEST = 0.48
#: a clue square stops short of its cell's edges, so that touching blocks stay apart
SQUARE_INSET = 0.07
#: symbols in solved cells, as a fraction of the cell
CELL_SYMBOL = 0.6


def fill_of(palette: Palette, index: int, grey: bool) -> RGB:
    """The printed fill of colour ``index`` (0 = background): its RGB, or a grey tint."""
    if index == 0:
        return WHITE_RGB
    if not grey:
        return palette[index].rgb
    if palette.size == 1:
        return BLACK_RGB  # black and white needs no symbols
    order = sorted(range(1, palette.size + 1), key=lambda i: -luminance(palette[i].rgb))
    tint = GREY_LIGHTEST + order.index(index) * (GREY_DARKEST - GREY_LIGHTEST) / (
        palette.size - 1)
    level = round(255 * (1 - tint))
    return (level, level, level)


def digit_colour(fill: RGB) -> RGB:
    """White digits on dark fills, black on light ones."""
    return WHITE_RGB if luminance(fill) < 0.5 else BLACK_RGB


def uses_symbols(puzzle: ColourPuzzle, grey: bool) -> bool:
    """Whether grey print needs symbols to tell this puzzle's colours apart."""
    return grey and puzzle.palette.size > 1


def clue_label(length: int, colour: int, palette: Palette, symbols: bool) -> str:
    """The text printed for one block: its length, and its colour's symbol in grey print."""
    return f"{length}{palette[colour].symbol}" if symbols else str(length)


def colour_clue_ops(puzzle: ColourPuzzle, row_slots: int, col_slots: int, x: float,
                    top: float, cell: float, size: float, grey: bool) -> list[Op]:
    """Every clue block of ``puzzle`` as a square of its colour with its number on it; an
    empty line shows a 0 on the tint. (x, top) is the block's top-left corner."""
    palette = puzzle.palette
    symbols = uses_symbols(puzzle, grey)
    grid_x, grid_top = x + row_slots * cell, top - col_slots * cell
    inset = SQUARE_INSET * cell
    squares: dict[RGB, list[Rect]] = {}
    digits: dict[RGB, list[tuple[float, float, str]]] = {}

    def block(cx: float, cy: float, length: int, colour: int) -> None:
        fill = fill_of(palette, colour, grey)
        squares.setdefault(fill, []).append(
            (cx - cell / 2 + inset, cy - cell / 2 + inset, cell - 2 * inset, cell - 2 * inset))
        digits.setdefault(digit_colour(fill), []).append(
            (cx, cy, clue_label(length, colour, palette, symbols)))

    for j, clue in enumerate(puzzle.columns):
        cx = grid_x + (j + 0.5) * cell
        if not clue:
            digits.setdefault(BLACK_RGB, []).append((cx, grid_top + 0.5 * cell, "0"))
        for i, (length, colour) in enumerate(clue):
            block(cx, top - (col_slots - len(clue) + i + 0.5) * cell, length, colour)
    for r, clue in enumerate(puzzle.rows):
        cy = grid_top - (r + 0.5) * cell
        if not clue:
            digits.setdefault(BLACK_RGB, []).append((grid_x - 0.5 * cell, cy, "0"))
        for i, (length, colour) in enumerate(clue):
            block(x + (row_slots - len(clue) + i + 0.5) * cell, cy, length, colour)
    ops: list[Op] = [Rects("ink", rects, rgb=fill) for fill, rects in squares.items()]
    ops.extend(ClueText(size, items, rgb=ink) for ink, items in digits.items())
    return ops


def colour_solution_ops(picture: ColourArray, palette: Palette, grid_x: float,
                        grid_top: float, cell: float, grey: bool, least_text: float
                        ) -> list[Op]:
    """The solved cells, merged into runs per colour; in grey print each cell also holds
    its colour's symbol when the cell is big enough for ``least_text`` points."""
    ops: list[Op] = []
    symbols = grey and palette.size > 1 and CELL_SYMBOL * cell >= least_text
    for colour in range(1, palette.size + 1):
        mask = np.asarray(picture == colour)
        if not mask.any():
            continue
        fill = fill_of(palette, colour, grey)
        ops.append(Rects("ink", [(grid_x + c * cell, grid_top - (r + 1) * cell, n * cell, cell)
                                 for r, c, n in filled_runs(mask)], rgb=fill))
        if symbols:
            rows, columns = np.nonzero(mask)
            ops.append(ClueText(CELL_SYMBOL * cell, [
                (grid_x + (int(c) + 0.5) * cell, grid_top - (int(r) + 0.5) * cell,
                 palette[colour].symbol) for r, c in zip(rows, columns, strict=True)],
                rgb=digit_colour(fill)))
    return ops


def legend_ops(palette: Palette, grey: bool, x: float, baseline: float, size: float,
               width: float) -> list[Op]:
    """One line naming the puzzle's colours: a swatch, then the name (``A = red`` in grey
    print), as many as fit ``width``."""
    ops: list[Op] = []
    swatch = size * 1.1
    right = x + width
    for index in range(1, palette.size + 1):
        colour = palette[index]
        symbol = colour.symbol if grey and palette.size > 1 else ""
        words = f"{symbol} = {colour.name}" if symbol else colour.name
        need = swatch + size * 0.4 + text_width(words, size) + size * 1.2
        if x + need > right + 0.01:
            break
        fill = fill_of(palette, index, grey)
        ops.append(Rects("ink", [(x, baseline - size * 0.15, swatch, swatch)], rgb=fill))
        ops.append(Text(x + swatch + size * 0.4, baseline, words, size))
        x += need
    return ops


def legend_fits(palette: Palette, grey: bool, size: float, width: float) -> bool:
    """Whether the whole legend fits one line of ``width`` at ``size`` points."""
    return len(legend_ops(palette, grey, 0.0, 0.0, size, width)) == 2 * palette.size


#: the largest share of the text width a grey colour grid may take to hold its symbols
SYMBOL_WIDTH_SHARE = 0.6


def colour_step_cell(rows: Sequence[str], width: float, grey: bool, least_text: float
                     ) -> float:
    """A colour step grid's cell: as a black-and-white one's, but in grey print as big as
    a symbol at ``least_text`` points needs, when the grid still fits its share."""
    cell = step_cell(rows, width)
    if grey:
        symbol_cell = least_text / CELL_SYMBOL
        if symbol_cell * len(rows[0]) <= width * SYMBOL_WIDTH_SHARE:
            cell = max(cell, symbol_cell)
    return cell


def colour_step_grid_ops(rows: Sequence[str], palette: Palette, x: float, top: float,
                         cell: float, grey: bool, least_text: float, line: float = 0.25
                         ) -> list[Op]:
    """A colour puzzle's step grid (rows as :meth:`ColourDrawing.worked_grids` writes
    them) with its top-left corner at (x, top): known cells in their colour (a grey tint,
    with its symbol where the cell holds ``least_text`` points, in grey print), unknown
    ones hatched, a dot on every cell the step decided (white on dark colours)."""
    height, width = len(rows), len(rows[0])
    picture = np.zeros((height, width), dtype=np.uint8)
    hatch: list[Segment] = []
    dots: dict[tuple[int, int, int], list[tuple[float, float, float, float]]] = {}
    symbols = grey and CELL_SYMBOL * cell >= least_text
    dot = 0.3 * cell
    for r, row in enumerate(rows):
        y = top - (r + 1) * cell
        for c, mark in enumerate(row):
            left = x + c * cell
            if mark == "?":
                hatch.append((left + 0.2 * cell, y + 0.2 * cell, left + 0.8 * cell,
                              y + 0.8 * cell))
                continue
            stepped = mark in STEP_MARKS
            index = STEP_MARKS.index(mark) if stepped else (
                0 if mark == "." else INDEX_CHARS.index(mark))
            picture[r, c] = index
            if stepped:
                ink = digit_colour(fill_of(palette, index, grey))
                # beside the symbol when there is one, else in the middle
                cx = left + (0.78 * cell if symbols and index else 0.5 * cell)
                cy = y + (0.22 * cell if symbols and index else 0.5 * cell)
                dots.setdefault(ink, []).append((cx - dot / 2, cy - dot / 2, dot, dot))
    ops = colour_solution_ops(picture, palette, x, top, cell, grey,
                              least_text if symbols else float("inf"))
    if hatch:
        ops.append(Lines("rule", line, hatch))
    ops.extend(Rects("ink", rects, rgb=ink) for ink, rects in dots.items())
    ops.extend(grid_rules(x, top, cell, width, height, line))
    return ops


class ColourDrawing:
    """Each clue number on a square of its block's colour, solved cells in their colours, a
    legend of the colours; in grey print grey tints with symbols (above)."""

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

    def legend_ops(self, puzzle: AnyPuzzle, grey: bool, x: float, baseline: float,
                   size: float, width: float) -> list[Op]:
        return legend_ops(cast("ColourPuzzle", puzzle).palette, grey, x, baseline, size, width)

    def legend_fits(self, puzzle: AnyPuzzle, grey: bool, size: float, width: float) -> bool:
        return legend_fits(cast("ColourPuzzle", puzzle).palette, grey, size, width)

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
        steps when none is hard: :func:`~layout.kinds.grid_steps`), as rows of
        ``STEP_MARKS``, INDEX_CHARS, '.' and '?'. A cell is known once one value (a colour,
        or empty) is left to it."""
        start = kind.start_cells()
        height, width = start.shape
        if (width > MAX_GRID_SIDE or height > MAX_GRID_SIDE
                or kind.colours() >= len(STEP_MARKS)):
            return ()
        where = printed_steps(lines)
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
        wanted = grid_steps(deciding, lambda k: steps[k - 1].rung in ROUTINE_RUNGS)
        cells[:] = start
        grids: list[tuple[int, tuple[str, ...]]] = []
        for k, step in enumerate(steps, start=1):
            for row, column, value in step.changes:
                cells[row, column] &= value
            if k not in wanted:
                continue
            grids.append((where[str(k)], step_rows(cells, step, _colour_mark)))
        return tuple(grids)

    def step_legend(self, grey: bool) -> str:
        return legend(grey, colour=True)

    def step_cell(self, rows: Sequence[str], width: float, grey: bool, least_text: float
                  ) -> float:
        return colour_step_cell(rows, width, grey, least_text)

    def step_width(self, rows: Sequence[str], least_text: float) -> float:
        return 0.0  # its symbols are left out of a grid too small for them

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


DRAWING: KindDrawing = ColourDrawing()
