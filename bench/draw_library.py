"""Draw the project's own puzzle library and write ``puzzles/*.yaml`` and the README table.

Every picture below is original pixel art drawn for Nonopress, either as text or with a
few geometric primitives. Clues are derived from the picture (never typed by hand), and
each puzzle's ``expected`` solution count and ``difficulty`` come from measuring it
(``bench/library_measure.py``: an independent SAT count, line logic, probing).

    python bench/draw_library.py            # redraw, measure and write every puzzle
    python bench/draw_library.py snail fish # only these (the README table is left alone)
    python bench/draw_library.py --show cat # print the picture and its measure, write nothing
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from library_measure import Measure, measure  # noqa: E402

from grader.atomic import atomic_write  # noqa: E402
from grader.authoring.picture import trim_empty_edges  # noqa: E402
from grader.model import Clue, Metadata, Puzzle  # noqa: E402
from grader.solver.sat_peer import count_solutions  # noqa: E402

LIBRARY = ROOT / "puzzles"
AUTHOR = "Nonopress"
LICENSE = "MIT"


Point = tuple[float, float]


def edges(points: Sequence[Point]) -> list[tuple[Point, Point]]:
    """The sides of a closed polygon."""
    return list(itertools.pairwise([*points, points[0]]))


# -- a tiny canvas ---------------------------------------------------------------------
class Canvas:
    """A bool picture drawn with cell-centre tests: a cell is inked when its centre is inside."""

    def __init__(self, width: int, height: int):
        self.width, self.height = width, height
        self.ink = np.zeros((height, width), dtype=bool)
        ys, xs = np.mgrid[0:height, 0:width]
        self.x = xs + 0.5
        self.y = ys + 0.5

    def paint(self, mask: np.ndarray, value: bool = True) -> Canvas:
        self.ink[mask] = value
        return self

    def ellipse(self, cx: float, cy: float, rx: float, ry: float, value: bool = True) -> Canvas:
        return self.paint(((self.x - cx) / rx) ** 2 + ((self.y - cy) / ry) ** 2 <= 1.0, value)

    def leaf(
        self, cx: float, cy: float, angle: float, half_length: float, half_width: float
    ) -> Canvas:
        """An ellipse whose long axis points along ``angle`` (radians)."""
        u = (self.x - cx) * math.cos(angle) + (self.y - cy) * math.sin(angle)
        v = -(self.x - cx) * math.sin(angle) + (self.y - cy) * math.cos(angle)
        return self.paint((u / half_length) ** 2 + (v / half_width) ** 2 <= 1.0)

    def disc(self, cx: float, cy: float, r: float, value: bool = True) -> Canvas:
        return self.ellipse(cx, cy, r, r, value)

    def ring(self, cx: float, cy: float, outer: float, inner: float) -> Canvas:
        d = np.hypot(self.x - cx, self.y - cy)
        return self.paint((d <= outer) & (d > inner))

    def rect(self, x0: int, y0: int, x1: int, y1: int, value: bool = True) -> Canvas:
        """Cells x0..x1-1, y0..y1-1."""
        self.ink[y0:y1, x0:x1] = value
        return self

    def polygon(self, points: Sequence[Point], value: bool = True) -> Canvas:
        inside = np.zeros_like(self.ink)
        for (x0, y0), (x1, y1) in edges(points):
            crosses = (y0 > self.y) != (y1 > self.y)
            with np.errstate(divide="ignore", invalid="ignore"):
                at = x0 + (self.y - y0) * (x1 - x0) / (y1 - y0)
            inside ^= crosses & (self.x < at)
        return self.paint(inside, value)

    def line(
        self, x0: float, y0: float, x1: float, y1: float, width: float = 1.0, value: bool = True
    ) -> Canvas:
        dx, dy = x1 - x0, y1 - y0
        length2 = dx * dx + dy * dy or 1.0
        t = np.clip(((self.x - x0) * dx + (self.y - y0) * dy) / length2, 0.0, 1.0)
        d = np.hypot(self.x - (x0 + t * dx), self.y - (y0 + t * dy))
        return self.paint(d <= width / 2, value)

    def text(self, x: int, y: int, art: str, value: bool = True) -> Canvas:
        """Paste text art ('#' inked, anything else left alone) with its top-left at x, y."""
        for dy, row in enumerate(art.strip("\n").splitlines()):
            for dx, ch in enumerate(row):
                if ch == "#":
                    self.ink[y + dy, x + dx] = value
        return self

    def toggle(self, *cells: tuple[int, int]) -> Canvas:
        """Flip single cells given as (x, y): hand touch-ups."""
        for x, y in cells:
            self.ink[y, x] = not self.ink[y, x]
        return self


def make_unique(ink: np.ndarray, seed: int, limit: int = 200) -> np.ndarray:
    """Touch up a picture the way a setter does: while the clues allow another solution,
    flip one cell (chosen by ``seed``) where the two solutions differ."""
    rng = np.random.default_rng(seed)
    ink = ink.copy()
    for _ in range(limit):
        count, found = count_solutions(Puzzle.from_picture(ink))
        if count == 1:
            return ink
        other = next(s for s in found if not np.array_equal(s, ink))
        rows, cols = np.nonzero(other != ink)
        pick = int(rng.integers(len(rows)))
        ink[rows[pick], cols[pick]] = not ink[rows[pick], cols[pick]]
    raise RuntimeError("could not make the picture unique")


def art(text: str) -> np.ndarray:
    rows = text.strip("\n").splitlines()
    if len({len(r) for r in rows}) != 1:
        raise ValueError(f"ragged art: row lengths {[len(r) for r in rows]}")
    return np.array([[ch == "#" for ch in row] for row in rows], dtype=bool)


# -- the pictures ----------------------------------------------------------------------
Drawing = Callable[[], np.ndarray]
PICTURES: dict[str, tuple[str, Drawing]] = {}


def picture(slug: str, title: str) -> Callable[[Drawing], Drawing]:
    def register(draw: Drawing) -> Drawing:
        PICTURES[slug] = (title, draw)
        return draw

    return register


@picture("house", "House")
def house() -> np.ndarray:
    return art(
        """
..#..
.###.
#####
##.##
##.##
"""
    )


@picture("heart", "Heart")
def heart() -> np.ndarray:
    return art(
        """
.##.##.
#######
.#####.
..###..
...#...
"""
    )


@picture("loaded-die", "Loaded Die")
def loaded_die() -> np.ndarray:
    # The two middle pips sit on a diagonal: swapping them keeps every clue (2x2 checker).
    return art(
        """
##########
#........#
#.#....#.#
#........#
#...#....#
#....#...#
#........#
#.#....#.#
#........#
##########
"""
    )


@picture("cat", "Cat")
def cat() -> np.ndarray:
    return art(
        """
#........#
##......##
###....###
##########
#..####..#
#.#.##.#.#
##########
####..####
.###..###.
..######..
"""
    )


@picture("mug", "Mug of Tea")
def mug() -> np.ndarray:
    return art(
        """
...#..#...
..#..#....
...#..#...
.######...
.#######..
.######.#.
.######.#.
.#######..
..#####...
##########
"""
    )


@picture("umbrella", "Umbrella")
def umbrella() -> np.ndarray:
    return art(
        """
.......#.......
.....#####.....
...#########...
..###########..
.#############.
.#############.
###############
#.###.###.###.#
.....#.#.#.....
.......#.......
.......#.......
.......#.......
.......#.......
....#..#.......
.....##........
"""
    )


@picture("lighthouse", "Lighthouse")
def lighthouse() -> np.ndarray:
    return art(
        """
....##....
...####...
..#.##.#..
.#..##..#.
..######..
...#..#...
...####...
...####...
..#....#..
..######..
..######..
.#......#.
.########.
##########
#.##.###.#
"""
    )


@picture("key", "Old Key")
def old_key() -> np.ndarray:
    c = Canvas(20, 10)
    c.ring(4.5, 5.0, 4.5, 2.2)
    c.rect(9, 4, 19, 6)
    c.rect(13, 6, 14, 9).rect(15, 6, 17, 8).rect(18, 6, 19, 9)
    return c.ink


@picture("fish", "Fish")
def fish() -> np.ndarray:
    c = Canvas(20, 15)
    c.ellipse(8.5, 8.5, 8.2, 5.2)
    c.polygon([(14.5, 8.5), (20, 3), (20, 14)])
    c.polygon([(6, 4), (9, 0.5), (12, 0.5), (11, 4)])
    c.polygon([(7, 12.5), (9, 14.8), (11, 14.8), (10, 12.5)])
    c.disc(4.5, 7.0, 1.0, value=False)
    c.line(7.0, 5.0, 8.0, 12.0, 1.0, value=False)
    c.line(0.5, 9.5, 2.5, 9.5, 1.0, value=False)
    return c.ink


@picture("snail", "Snail")
def snail() -> np.ndarray:
    c = Canvas(20, 20)
    c.disc(11.5, 8.5, 7.6)
    spiral = [
        (11.5 + r * math.cos(t), 8.5 + r * math.sin(t))
        for t in np.linspace(0.0, 4.2 * math.pi, 80)
        for r in [0.3 + t * 6.6 / (4.2 * math.pi)]
    ]
    for (x0, y0), (x1, y1) in itertools.pairwise(spiral):
        c.line(x0, y0, x1, y1, 0.9, value=False)
    c.rect(0, 15, 20, 18)
    c.polygon([(0, 15), (1.5, 9.5), (4.5, 9.5), (5, 15)])
    c.line(1.5, 10.0, 0.5, 5.5, 1.0).line(4.0, 10.0, 5.0, 5.5, 1.0)
    c.rect(0, 18, 20, 20, value=False)
    c.rect(2, 18, 19, 19)
    return c.ink


@picture("owl", "Owl")
def owl() -> np.ndarray:
    c = Canvas(25, 25)
    c.ellipse(12.5, 14.5, 9.0, 9.5)
    c.polygon([(4, 9), (3, 1), (9, 6)]).polygon([(21, 9), (22, 1), (16, 6)])
    c.ellipse(12.5, 7.5, 8.0, 5.0)
    for x in (8.5, 16.5):
        c.disc(x, 8.5, 3.6, value=False).disc(x, 8.5, 1.6)
    c.polygon([(11, 11), (14, 11), (12.5, 14)], value=False)
    for row, xs in ((16, (7, 11, 15)), (19, (9, 13))):  # feathers: rows of small vees
        for x in xs:
            c.paint((c.y - 0.5 == row) & ((c.x - 0.5 == x) | (c.x - 1.5 == x + 1)), value=False)
            c.toggle((x + 1, row + 1))
    c.rect(0, 24, 25, 25, value=False)
    c.rect(8, 23, 10, 25).rect(15, 23, 17, 25)
    c.rect(0, 24, 25, 25)
    return c.ink


@picture("clock", "Alarm Clock")
def alarm_clock() -> np.ndarray:
    c = Canvas(30, 30)
    c.ring(15.0, 16.0, 12.5, 10.5)
    c.disc(6.0, 4.5, 3.5).disc(24.0, 4.5, 3.5)
    c.disc(15.0, 16.0, 11.0, value=False)
    for hour in range(12):
        angle = hour * math.pi / 6
        r0 = 8.0 if hour % 3 else 7.0
        c.line(
            15.0 + r0 * math.sin(angle),
            16.0 - r0 * math.cos(angle),
            15.0 + 9.5 * math.sin(angle),
            16.0 - 9.5 * math.cos(angle),
            1.0,
        )
    c.line(15.0, 16.0, 15.0, 9.0, 1.2).line(15.0, 16.0, 20.0, 19.0, 1.2)
    c.line(8.0, 25.0, 5.0, 29.5, 1.5).line(22.0, 25.0, 25.0, 29.5, 1.5)
    c.rect(13, 1, 17, 3)
    return c.ink


@picture("sailboat", "Sailboat")
def sailboat() -> np.ndarray:
    c = Canvas(30, 30)
    c.rect(14, 1, 15, 22)
    c.polygon([(13.5, 3), (13.5, 20), (3, 20)])
    c.polygon([(15.5, 5), (15.5, 20), (25, 20)])
    c.polygon([(15, 1), (19, 2), (15, 3)])
    c.polygon([(2, 22), (28, 22), (24, 26), (6, 26)])
    c.line(8, 24, 22, 24, 1.0, value=False)
    for x in range(0, 30, 7):  # waves
        c.rect(x, 27, x + 4, 28).rect(x + 4, 28, x + 7, 29)
    c.rect(0, 29, 30, 30)
    c.disc(4.5, 5.5, 2.5)
    return c.ink


@picture("yin-yang", "Yin and Yang")
def yin_yang() -> np.ndarray:
    c = Canvas(30, 30)
    c.ring(15.0, 15.0, 14.6, 13.4)
    right = (c.x > 15.0) & (np.hypot(c.x - 15.0, c.y - 15.0) <= 13.4)
    c.paint(right)
    c.disc(15.0, 8.3, 6.7, value=False)
    c.disc(15.0, 21.7, 6.7)
    c.disc(15.0, 8.3, 2.0)
    c.disc(15.0, 21.7, 2.0, value=False)
    return c.ink


@picture("teapot", "Teapot")
def teapot() -> np.ndarray:
    c = Canvas(35, 25)
    c.ellipse(17.5, 16.0, 11.0, 8.5)
    c.rect(0, 23, 35, 25, value=False)
    c.rect(9, 23, 26, 24)
    c.ellipse(17.5, 7.5, 6.5, 1.6)
    c.line(17.5, 7.0, 17.5, 4.0, 1.0).disc(17.5, 3.5, 1.6)
    c.polygon([(7, 13), (1, 7), (0, 6), (2.5, 6), (8, 10)])
    c.ring(28.5, 15.0, 5.2, 3.0)
    c.line(9.0, 18.5, 26.0, 18.5, 1.0, value=False)
    for x in (11.5, 17.5, 23.5):  # a band of little hearts
        c.text(int(x) - 2, 13, "##.##\n#####\n.###.\n..#..", value=False)
    return c.ink


@picture("turtle", "Sea Turtle")
def turtle() -> np.ndarray:
    c = Canvas(35, 35)
    c.ellipse(17.5, 18.0, 10.5, 12.5)
    c.ellipse(17.5, 3.5, 3.5, 3.5)
    c.disc(15.5, 3.0, 0.8, value=False).disc(19.5, 3.0, 0.8, value=False)
    for side in (-1, 1):
        c.polygon(
            [
                (17.5 + side * 8, 10),
                (17.5 + side * 17, 6),
                (17.5 + side * 17, 9),
                (17.5 + side * 10, 15),
            ]
        )
        c.polygon(
            [
                (17.5 + side * 8, 26),
                (17.5 + side * 14, 31),
                (17.5 + side * 11, 33),
                (17.5 + side * 6, 29),
            ]
        )
    c.polygon([(16, 30), (19, 30), (17.5, 35)])
    # shell plates: a hexagon in the middle and spokes to the rim
    hexagon = [
        (17.5 + 4.5 * math.cos(a), 18.0 + 5.0 * math.sin(a)) for a in np.arange(6) * math.pi / 3
    ]
    for (x0, y0), (x1, y1) in edges(hexagon):
        c.line(x0, y0, x1, y1, 1.0, value=False)
    for x0, y0 in hexagon:
        c.line(x0, y0, 17.5 + (x0 - 17.5) * 2.2, 18.0 + (y0 - 18.0) * 2.3, 1.0, value=False)
    return c.ink


@picture("sunflower", "Sunflower")
def sunflower() -> np.ndarray:
    c = Canvas(40, 40)
    cx, cy = 20.0, 14.0
    for k in range(12):
        a = k * math.pi / 6 + 0.2
        c.leaf(cx + 9.5 * math.cos(a), cy + 9.5 * math.sin(a), a, 4.0, 1.9)
    c.disc(cx, cy, 7.5, value=False)
    c.disc(cx, cy, 6.5)
    for k in range(12):  # seeds spiralling out from the middle
        a = k * 2.4
        r = 1.0 + 0.45 * k
        x, y = int(cx + r * math.cos(a)), int(cy + r * math.sin(a))
        c.ink[y, x] = False
    c.rect(19, 25, 21, 40)
    c.leaf(13.5, 30.0, 0.5, 6.0, 2.0).leaf(26.5, 27.0, -0.5, 6.0, 2.0)
    c.rect(0, 39, 40, 40)
    return c.ink


def qr_code_picture(seed: int, size: int = 25) -> np.ndarray:
    """A made-up QR-like code: three finder squares, timing lines, seeded data modules."""
    c = Canvas(size, size)
    rng = np.random.default_rng(seed)
    c.ink[:, :] = rng.random((size, size)) < 0.5
    finder = "#######\n#.....#\n#.###.#\n#.###.#\n#.###.#\n#.....#\n#######"
    for x, y in ((0, 0), (size - 7, 0), (0, size - 7)):
        c.rect(max(x - 1, 0), max(y - 1, 0), x + 8, y + 8, value=False)
        c.text(x, y, finder)
    for i in range(8, size - 8):  # timing patterns
        c.ink[6, i] = c.ink[i, 6] = i % 2 == 0
    return c.ink


def maze_picture(seed: int, cells: int = 10) -> np.ndarray:
    """A perfect maze (randomised depth-first search) with walls one cell thick."""
    side = 2 * cells + 1
    ink = np.ones((side, side), dtype=bool)
    rng = np.random.default_rng(seed)
    stack = [(0, 0)]
    seen = {(0, 0)}
    ink[1, 1] = False
    while stack:
        x, y = stack[-1]
        options = [
            (x + dx, y + dy)
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= x + dx < cells and 0 <= y + dy < cells and (x + dx, y + dy) not in seen
        ]
        if not options:
            stack.pop()
            continue
        nx, ny = options[int(rng.integers(len(options)))]
        ink[2 * ny + 1, 2 * nx + 1] = False
        ink[y + ny + 1, x + nx + 1] = False
        seen.add((nx, ny))
        stack.append((nx, ny))
    ink[1, 0] = ink[side - 2, side - 1] = False  # entrance and exit
    return ink


@picture("qr-code", "QR Code")
def qr_code() -> np.ndarray:
    return make_unique(qr_code_picture(seed=3), seed=3)


@picture("pocket-qr", "Pocket QR Code")
def pocket_qr() -> np.ndarray:
    # the smallest QR size (21x21); its seed is one `nonopress grade` calls medium
    return make_unique(qr_code_picture(seed=3, size=21), seed=3)


@picture("maze", "Maze")
def maze() -> np.ndarray:
    return maze_picture(seed=0)


def night_sky_picture(seed: int, size: int = 30) -> np.ndarray:
    c = Canvas(size, size)
    c.disc(22.0, 7.0, 5.0).disc(19.5, 5.5, 4.2, value=False)  # crescent moon
    skyline = [(0, 19), (4, 22), (7, 16), (12, 21), (15, 13), (19, 18), (24, 20), (27, 17)]
    for (x0, top), (x1, _) in itertools.pairwise([*skyline, (size, 0)]):
        c.rect(x0, top, x1, size)
    c.rect(16, 10, 17, 13)  # an aerial
    rng = np.random.default_rng(seed)
    for y in range(15, size - 1, 2):  # lit windows
        for x in range(1, size - 1, 2):
            if c.ink[y - 1, x] and c.ink[y, x] and rng.random() < 0.4:
                c.ink[y, x] = False
    for _ in range(16):  # stars
        x, y = int(rng.integers(0, size)), int(rng.integers(0, 14))
        if not c.ink[max(y - 1, 0) : y + 2, max(x - 1, 0) : x + 2].any():
            c.ink[y, x] = True
    return c.ink


@picture("night-sky", "City at Night")
def night_sky() -> np.ndarray:
    return make_unique(night_sky_picture(seed=0), seed=0)


def television_picture(seed: int, size: int = 35) -> np.ndarray:
    """An old television, its screen full of snow (seeded noise)."""
    c = Canvas(size, size)
    c.line(17.5, 7.5, 9.5, 0.5, 1.0).line(17.5, 7.5, 25.5, 0.5, 1.0)
    c.ellipse(17.5, 7.5, 3.0, 1.5)
    c.rect(1, 9, 34, 32)
    c.rect(3, 11, 27, 30, value=False)
    rng = np.random.default_rng(seed)
    c.ink[12:29, 4:26] = rng.random((17, 22)) < 0.5
    for y in (13, 19):  # dials
        c.disc(30.5, y + 0.5, 2.0, value=False).disc(30.5, y + 0.5, 0.8)
    for y in range(24, 30, 2):  # speaker slots
        c.rect(29, y, 33, y + 1, value=False)
    c.rect(4, 32, 7, 35).rect(28, 32, 31, 35)
    return c.ink


@picture("television", "Television Snow")
def television() -> np.ndarray:
    return make_unique(television_picture(seed=28), seed=28)


@picture("bicycle", "Bicycle")
def bicycle() -> np.ndarray:
    c = Canvas(40, 25)
    for x in (9.0, 31.0):
        c.ring(x, 16.0, 8.0, 6.6)
        c.disc(x, 16.0, 1.0)
    frame = [(9.0, 16.0), (17.0, 8.0), (29.0, 8.0), (20.0, 16.0)]
    for (x0, y0), (x1, y1) in edges(frame):
        c.line(x0, y0, x1, y1, 1.0)
    c.line(29.0, 8.0, 31.0, 16.0, 1.0).line(28.0, 4.0, 29.0, 8.0, 1.0)
    c.line(26.5, 3.5, 31.0, 3.5, 1.0)
    c.line(17.0, 8.0, 16.0, 4.5, 1.0).rect(13, 3, 19, 5)
    c.disc(20.0, 16.0, 1.6)
    c.line(20.0, 16.0, 22.0, 19.5, 1.0).rect(21, 19, 24, 20)
    return c.toggle((11, 12)).ink


def dither(shade: np.ndarray) -> np.ndarray:
    """Floyd-Steinberg error diffusion of a 0..1 darkness map to ink."""
    work = shade.astype(float).copy()
    height, width = work.shape
    ink = np.zeros_like(work, dtype=bool)
    for y in range(height):
        for x in range(width):
            ink[y, x] = work[y, x] >= 0.5
            error = work[y, x] - ink[y, x]
            for dx, dy, weight in ((1, 0, 7), (-1, 1, 3), (0, 1, 5), (1, 1, 1)):
                if 0 <= x + dx < width and y + dy < height:
                    work[y + dy, x + dx] += error * weight / 16
    return ink


def moon_picture(light: float, size: int) -> np.ndarray:
    """A cratered full moon lit from angle ``light`` (radians), dithered, its left and right
    edges outlined."""
    c = Canvas(size, size)
    r = size / 2 - 1.0
    dx, dy = (c.x - size / 2) / r, (c.y - size / 2) / r
    inside = dx**2 + dy**2 <= 1.0
    dz = np.sqrt(np.clip(1.0 - dx**2 - dy**2, 0.0, 1.0))
    brightness = np.clip(0.8 * (dx * math.cos(light) + dy * math.sin(light)) + 0.6 * dz, 0.0, 1.0)
    shade = np.where(inside, 1.0 - brightness, 0.0)
    for cx, cy, cr in ((0.3, -0.3, 0.25), (-0.35, 0.25, 0.18), (0.2, 0.45, 0.15)):
        crater = (dx - cx) ** 2 + (dy - cy) ** 2 <= cr**2
        shade = np.where(crater, np.clip(shade + 0.35, 0.0, 1.0), shade)
    edge = inside & ~np.roll(inside, 1, axis=1) | inside & ~np.roll(inside, -1, axis=1)
    return dither(shade) | edge


@picture("moon", "Moon")
def moon() -> np.ndarray:
    return make_unique(moon_picture(light=2.4, size=25), seed=0)


@picture("harvest-moon", "Harvest Moon")
def harvest_moon() -> np.ndarray:
    # lit from low on the right; a light and size `nonopress grade` calls medium
    return make_unique(moon_picture(light=1.2, size=28), seed=0)


# -- writing ---------------------------------------------------------------------------
def flow_clues(key: str, clues: Sequence[Clue], width: int = 100) -> str:
    """``key: [[1, 2], [3], []]`` wrapped to ``width`` columns."""
    items = ["[" + ", ".join(map(str, clue)) + "]" for clue in clues]
    lines: list[str] = []
    current = f"{key}: ["
    for i, item in enumerate(items):
        piece = item + ("]" if i == len(items) - 1 else ",")
        if len(current) + 1 + len(piece) > width and not current.endswith("["):
            lines.append(current)
            current = "  " + piece
        else:
            current += ("" if current.endswith("[") else " ") + piece
    lines.append(current)
    return "\n".join(lines)


def puzzle_yaml(slug: str, puzzle: Puzzle, result: Measure) -> str:
    assert puzzle.solution is not None
    expected = 1 if result.solutions == 1 else 2
    lines = [
        f"title: {puzzle.meta.title}",
        f"author: {puzzle.meta.author}",
        f"license: {puzzle.meta.license}",
        f"source: {puzzle.meta.source}",
        f"difficulty: {result.difficulty}",
        f"expected: {{solutions: {expected}}}",
        flow_clues("rows", puzzle.rows),
        flow_clues("columns", puzzle.columns),
        "solution: |",
        *("  " + row for row in puzzle.solution),
    ]
    return "\n".join(lines) + "\n"


def build(slug: str) -> tuple[Puzzle, Measure, float]:
    title, draw = PICTURES[slug]
    meta = Metadata(title=title, author=AUTHOR, license=LICENSE, source=f"nonopress:{slug}")
    # no empty rows or columns at the edges, as `make` trims them (an issue warns of them)
    puzzle = Puzzle.from_picture(trim_empty_edges(draw()), meta)
    started = time.perf_counter()
    result = measure(puzzle)
    return puzzle, result, time.perf_counter() - started


def readme(rows: list[tuple[str, Puzzle, Measure]]) -> str:
    table = [
        "| file | title | size | solutions | difficulty |",
        "|------|-------|------|-----------|------------|",
    ]
    by_area = sorted(rows, key=lambda row: (row[1].width * row[1].height, row[0]))
    for slug, puzzle, result in by_area:
        solutions = "1" if result.solutions == 1 else "2 or more"
        table.append(
            f"| `{slug}.yaml` | {puzzle.title} | {puzzle.size} | {solutions} "
            f"| {result.difficulty} |"
        )
    return README_TEMPLATE.format(table="\n".join(table))


README_TEMPLATE = """\
# The Nonopress puzzle library

Original black-and-white nonograms drawn by the Nonopress developers, one puzzle per file
in the project's YAML format. They serve as examples, as test oracles (each file records
its known solution and how many solutions the clues allow) and as material for sample issues.

Sizes are width x height. `difficulty` was measured, not guessed, by
`bench/draw_library.py` (which also draws the pictures and derives every clue from them):

- **easy**: the left-right overlap rule (simple boxes and simple spaces), iterated over
  rows and columns, finishes the grid;
- **medium**: needs the complete analysis of single lines;
- **hard**: line logic stalls; probing single cells (suppose filled, suppose empty,
  propagate with line logic) finishes the grid;
- **fiendish**: probing stalls too, yet the solution is unique;
- **ambiguous**: the clues allow two or more solutions (a defect a checker must report;
  `expected: {{solutions: 2}}` means "two or more").

These levels come from one fixed measure, independent of the grader; `nonopress grade` uses
the finer technique ladder of the design notes and may name a puzzle's level differently.
The solution count comes from the SAT peer (`grader.solver.sat_peer`, python-sat) and is
checked again by `tests/test_library.py` (SAT, and a plain backtracking count on the small
puzzles). `issues/sample.yaml` is not part of the library: it is the layout's sample issue.

{table}

## Format

```yaml
title: Heart
author: Nonopress
license: MIT
source: nonopress:heart
difficulty: easy
expected: {{solutions: 1}}   # 1, or 2 meaning "two or more"
rows: [[2, 2], [7], [5], [3], [1]]
columns: [[1], [3], [4], [4], [4], [3], [1]]
solution: |
  .##.##.
  #######
  .#####.
  ..###..
  ...#...
```

## Licence

MIT, the project's own licence. Drawn by the Nonopress developers; you may use, copy, modify
and publish these puzzles, in print or otherwise, under the terms of the MIT licence.
"""


def show(puzzle: Puzzle) -> None:
    """Print the picture; where another solution differs, mark its cells 'o' (in) / 'x' (out)."""
    _, found = count_solutions(puzzle)
    picture = puzzle.solution_array()
    assert picture is not None
    other = next((s for s in found if not np.array_equal(s, picture)), picture)
    marks = {(True, True): "#", (False, False): ".", (False, True): "o", (True, False): "x"}
    for r in range(puzzle.height):
        print("".join(marks[bool(picture[r, c]), bool(other[r, c])] for c in range(puzzle.width)))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("slugs", nargs="*", help="puzzles to redraw (default: all)")
    parser.add_argument("--show", action="store_true", help="print and measure; write nothing")
    args = parser.parse_args(argv)
    unknown = [s for s in args.slugs if s not in PICTURES]
    if unknown:
        parser.error(f"no picture named {', '.join(unknown)}; have {', '.join(PICTURES)}")
    slugs = args.slugs or list(PICTURES)
    rows = []
    for slug in slugs:
        puzzle, result, seconds = build(slug)
        print(
            f"{slug:16} {puzzle.size:>6} solutions={result.solutions} "
            f"{result.difficulty:9} unknown after lines={result.unknown_after_lines} "
            f"after probing={result.unknown_after_probing} ({seconds:.1f}s)"
        )
        if args.show:
            show(puzzle)
            continue
        atomic_write(LIBRARY / f"{slug}.yaml", puzzle_yaml(slug, puzzle, result))
        rows.append((slug, puzzle, result))
    if not args.show and not args.slugs:
        atomic_write(LIBRARY / "README.md", readme(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
