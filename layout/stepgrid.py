"""A small grid in a worked solution: where the solve stands after a hard step.

Filled cells are inked, cells not yet known are tinted, and the cells the step itself
decided are marked in the ``step`` role (filled ones as a square, emptied ones as a dot):
the accent blue in colour, a mid grey in grey print, where black would hide them among the
filled cells. So a reader sees what the sentence above it did.
"""

from __future__ import annotations

from collections.abc import Sequence

from grader.i18n import N_, _
from layout.draw import Lines, Op, Rects, Segment
from layout.units import MM

#: the largest cell of a step grid, and the share of the text width it may take
MAX_CELL = 2.2 * MM
MAX_WIDTH_SHARE = 0.35
#: what the marks mean, printed once above the first grid of a worked solution
LEGEND = N_("Grids: black = filled, grey = not known yet, "
          "blue square = filled by this step, blue dot = emptied by this step.")
GREY_LEGEND = N_("Grids: black = filled, light grey = not known yet, "
               "mid-grey square = filled by this step, dot = emptied by this step.")


COLOUR_LEGEND = N_("Grids: each known cell in its colour, hatched = not known yet, "
                 "dot = decided by this step (a dot on white: emptied).")
GREY_COLOUR_LEGEND = N_("Grids: each known cell in its colour's grey (and symbol), hatched = "
                      "not known yet, dot = decided by this step (a dot on white: emptied).")
#: A colour solution in a grade (and the grade cache), and a colour step grid's known
#: cells: each cell's colour index as one character (0 = empty)
INDEX_CHARS = "0123456789abcdefghijklmnopqrstuvwxyz"
#: a colour step grid's cell the step itself decided: '_' emptied, 'A' colour 1, 'B' 2, ...
#: (other cells: '?' not known yet, '.' empty, INDEX_CHARS[k] colour k)
STEP_MARKS = "_ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def legend(grey: bool, colour: bool = False) -> str:
    """What the marks of a step grid mean in the ink the issue prints."""
    if colour:
        return _(GREY_COLOUR_LEGEND if grey else COLOUR_LEGEND)
    return _(GREY_LEGEND if grey else LEGEND)


def grid_rules(x: float, top: float, cell: float, width: int, height: int, line: float
           ) -> list[Op]:
    """The grid's thin lines, and heavier ones every five cells."""
    thin: list[Segment] = []
    for j in range(width + 1):
        thin.append((x + j * cell, top - height * cell, x + j * cell, top))
    for i in range(height + 1):
        thin.append((x, top - i * cell, x + width * cell, top - i * cell))
    thick: list[Segment] = [s for j in range(0, width + 1, 5)
                            for s in [(x + j * cell, top - height * cell, x + j * cell, top)]]
    thick += [(x, top - i * cell, x + width * cell, top - i * cell)
              for i in range(0, height + 1, 5)]
    return [Lines("rule", line, thin), Lines("ink", max(0.6, line + 0.35), thick)]


def step_cell(rows: Sequence[str], width: float) -> float:
    """The cell size of a step grid that fits ``width`` (at most MAX_CELL)."""
    return min(MAX_CELL, width * MAX_WIDTH_SHARE / max(len(rows[0]), 1))


def step_grid_ops(rows: Sequence[str], x: float, top: float, cell: float,
                  line: float = 0.25) -> list[Op]:
    """The grid ``rows`` (see GradeInfo.grids) with its top-left corner at (x, top); no line
    thinner than ``line`` (the profile's thinnest)."""
    filled: list[tuple[float, float, float, float]] = []
    unknown: list[tuple[float, float, float, float]] = []
    accent: list[tuple[float, float, float, float]] = []
    dot = 0.4 * cell
    for r, row in enumerate(rows):
        y = top - (r + 1) * cell
        for c, mark in enumerate(row):
            left = x + c * cell
            if mark in "#":
                filled.append((left, y, cell, cell))
            elif mark == "?":
                unknown.append((left, y, cell, cell))
            elif mark == "F":
                accent.append((left, y, cell, cell))
            elif mark == "E":
                accent.append((left + (cell - dot) / 2, y + (cell - dot) / 2, dot, dot))
    height, width = len(rows), len(rows[0])
    return [Rects("tint", unknown), Rects("ink", filled), Rects("step", accent),
            *grid_rules(x, top, cell, width, height, line)]
