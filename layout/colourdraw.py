"""Colour puzzles in the shared display list: clue squares, solution cells and the legend.

A colour puzzle prints like a black-and-white one (same blocks, rules, headers and pages);
only its clues and solved cells differ. Each clue number sits on a square of its block's
colour, white digits on dark colours. With grey ink (``--grey``, and the KDP profile's
black interior) nothing needs colour ink: each colour is a light grey tint, lighter for
lighter colours, and a symbol (A, B, ...) follows every clue number and marks the solved
cells large enough to hold it; the legend says which symbol is which colour.
"""

from __future__ import annotations

import numpy as np

from grader.colour.model import ColourArray, ColourPuzzle
from grader.colour.palette import RGB, Palette, luminance
from layout.draw import ClueText, Op, Rect, Rects, Text, filled_runs
from layout.fonts import text_width

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
