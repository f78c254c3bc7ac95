"""A page as a display list: filled rectangles, line paths, text and stars, in points.

The plan builds these once; the PDF and LaTeX back ends only translate them, so both print
the same issue. Coordinates are PDF space: origin at the bottom-left of the trimmed page.
Colours are roles (``ink``, ``tint``, ``accent``, ``paper``), mapped to RGB or to pure K ink
by the back end.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from grader.model import BoolArray, Puzzle
from layout.geometry import BlockGeometry

#: "step": the cells a worked solution's step decided (the accent in colour, a mid grey
#: in grey print, where the accent is black like the filled cells around them)
Role = Literal["ink", "tint", "accent", "paper", "rule", "step"]
Anchor = Literal["left", "center", "right"]
Rect = tuple[float, float, float, float]  # x, y (bottom-left), width, height
RGB = tuple[int, int, int]  # a colour puzzle's own colour, 0-255 a channel
Segment = tuple[float, float, float, float]  # x1, y1, x2, y2


@dataclass
class Rects:
    """Filled rectangles drawn as one path."""

    role: Role
    rects: list[Rect]
    #: a colour puzzle's colour, drawn instead of the role's (neutral ones as pure K ink)
    rgb: RGB | None = None


@dataclass
class Lines:
    """Stroked segments of one line style, drawn as one path."""

    role: Role
    width: float
    segments: list[Segment]


@dataclass
class Text:
    """A line of text; ``y`` is the baseline."""

    x: float
    y: float
    text: str
    size: float
    bold: bool = False
    anchor: Anchor = "left"
    role: Role = "ink"


@dataclass
class ClueText:
    """All clue numbers of one puzzle at one size, centred on their (x, y): one text object."""

    size: float
    items: list[tuple[float, float, str]]
    #: digits on a colour puzzle's clue square: white on dark colours (None: ink)
    rgb: RGB | None = None


@dataclass
class Polygons:
    role: Role
    fill: bool
    width: float
    polygons: list[list[tuple[float, float]]]


@dataclass
class Bookmark:
    title: str
    level: int = 0


Op = Rects | Lines | Text | ClueText | Polygons


@dataclass(frozen=True)
class Block:
    """Where a puzzle block was placed: lets tests (and readers) find every cell."""

    number: int
    x: float
    top: float
    cell: float
    geometry: BlockGeometry
    solution_shown: bool

    def cell_centre(self, row: int, column: int) -> tuple[float, float]:
        grid_x = self.x + self.geometry.row_slots * self.cell
        grid_top = self.top - self.geometry.col_slots * self.cell
        return grid_x + (column + 0.5) * self.cell, grid_top - (row + 0.5) * self.cell


@dataclass
class Page:
    """One trimmed page: its size, what is drawn on it and the bookmarks that point at it."""

    width: float
    height: float
    kind: str
    ops: list[Op] = field(default_factory=list)
    bookmarks: list[Bookmark] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    number: int = 0  # folio, 1-based, set when the issue is paginated


def line_widths(cell: float, minimum: float = 0.2) -> tuple[float, float, float]:
    """Thin, thick (every 5 cells) and border line widths for a cell size; no line under
    ``minimum`` (a printer's thinnest line), the thick ones kept visibly heavier."""
    thin = min(max(0.045 * cell, 0.2), 0.6)
    if minimum <= thin:
        return thin, 2.4 * thin, 3.4 * thin
    return minimum, max(2.4 * thin, minimum + 0.6), max(3.4 * thin, minimum + 1.1)


def filled_runs(picture: BoolArray) -> list[tuple[int, int, int]]:
    """(row, first column, length) of every horizontal run of filled cells."""
    padded = np.zeros((picture.shape[0], picture.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = picture
    edges = np.diff(padded, axis=1)
    # starts and ends in row-major order: each row has as many of one as of the other, so
    # the k-th start and the k-th end bound the same run (one pass for the whole picture)
    rows, starts = np.nonzero(edges == 1)
    _, ends = np.nonzero(edges == -1)
    return list(zip(rows.tolist(), starts.tolist(), (ends - starts).tolist(), strict=True))


def given_ops(puzzle: Puzzle, grid_x: float, grid_top: float, cell: float) -> list[Op]:
    """Given cells printed in the puzzle's grid: filled ones inked, empty ones as a dot."""
    filled = np.zeros((puzzle.height, puzzle.width), dtype=bool)
    dot = 0.22 * cell
    dots: list[Rect] = []
    for row, column, is_filled in puzzle.givens:
        if is_filled:
            filled[row, column] = True
        else:
            dots.append((grid_x + (column + 0.5) * cell - dot / 2,
                         grid_top - (row + 0.5) * cell - dot / 2, dot, dot))
    boxes = [(grid_x + c * cell, grid_top - (r + 1) * cell, n * cell, cell)
             for r, c, n in filled_runs(filled)]
    return [Rects("ink", boxes + dots)] if boxes or dots else []


def translate_page(page: Page, dx: float, dy: float = 0.0) -> None:
    """Move everything on ``page`` ``dx`` points to the right (mirrored margins) and ``dy``
    up (a lone puzzle centred on its page)."""
    moved: list[Op] = []
    for op in page.ops:
        if isinstance(op, Rects):
            moved.append(Rects(op.role, [(x + dx, y + dy, w, h) for x, y, w, h in op.rects],
                               op.rgb))
        elif isinstance(op, Lines):
            moved.append(Lines(op.role, op.width, [(a + dx, b + dy, c + dx, d + dy)
                                                   for a, b, c, d in op.segments]))
        elif isinstance(op, Text):
            moved.append(Text(op.x + dx, op.y + dy, op.text, op.size, op.bold, op.anchor,
                              op.role))
        elif isinstance(op, ClueText):
            moved.append(ClueText(op.size, [(x + dx, y + dy, s) for x, y, s in op.items],
                                  op.rgb))
        else:
            moved.append(Polygons(op.role, op.fill, op.width,
                                  [[(x + dx, y + dy) for x, y in p] for p in op.polygons]))
    page.ops = moved
    page.blocks = [
        Block(b.number, b.x + dx, b.top + dy, b.cell, b.geometry, b.solution_shown)
        for b in page.blocks
    ]


#: A five-pointed star of radius 1 around the origin, point up (computed once: a 300-page
#: book draws 15,000 stars).
_UNIT_STAR = tuple(
    ((1.0 if k % 2 == 0 else 0.45) * math.cos(math.pi / 2 + k * math.pi / 5),
     (1.0 if k % 2 == 0 else 0.45) * math.sin(math.pi / 2 + k * math.pi / 5))
    for k in range(10)
)


def star(cx: float, cy: float, radius: float) -> list[tuple[float, float]]:
    """A five-pointed star's ten corners, point up."""
    return [(cx + radius * ux, cy + radius * uy) for ux, uy in _UNIT_STAR]


def star_ops(
    x: float, y: float, size: float, stars: int, total: int = 5, line: float = 0.4
) -> list[Op]:
    """``total`` stars of height ``size`` from (x, baseline y), the first ``stars`` filled,
    outlined ``line`` points wide."""
    radius = size / 2
    centres = [(x + radius + k * size * 1.1, y + radius * 0.9) for k in range(total)]
    filled = [star(cx, cy, radius) for cx, cy in centres[:stars]]
    hollow = [star(cx, cy, radius) for cx, cy in centres[stars:]]
    ops: list[Op] = []
    if filled:
        ops.append(Polygons("accent", True, line, filled))
    if hollow:
        ops.append(Polygons("accent", False, line, hollow))
    return ops


def stars_width(size: float, total: int = 5) -> float:
    return size * (1.1 * (total - 1) + 1)



def outline(x: float, y: float, w: float, h: float) -> list[Segment]:
    """The four sides of a rectangle, as segments."""
    return [(x, y, x + w, y), (x + w, y, x + w, y + h), (x + w, y + h, x, y + h), (x, y + h, x, y)]
