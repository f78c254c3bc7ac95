"""``make --colours N``: a picture to a unique colour puzzle, with the size, fit and trim of
black and white, and a warning when two palette colours would print alike.

The picture is fitted like a black-and-white one (transparent padding is background), its
own pixels are reduced to at most N colours (median cut; near-white is background), empty
margins are trimmed, and the colour solver is asked for two solutions: while there are two,
one cell where they differ takes the other solution's colour (cells spread over the
picture first), at most ``max_change`` percent of the cells.
"""

from __future__ import annotations

import os
import random
import time

import numpy as np
import numpy.typing as npt

from grader.authoring.clock import Clock, Progress, quiet
from grader.authoring.measure import Cell
from grader.authoring.picture import SIDES, Fit, load_rgba, trim_empty_edges
from grader.authoring.result import Authored, ColourAuthored
from grader.authoring.steer import change_limit
from grader.authoring.target import Target
from grader.colour.grading import grade_colour
from grader.colour.model import ColourPuzzle, clues_of_colour_picture, colour_array_to_rows
from grader.colour.palette import MAX_COLOURS as MAX_COLOURS  # the most --colours asks for
from grader.colour.palette import RGB, Palette
from grader.errors import PuzzleError
from grader.formats.pictures import palette_for, reduce_picture
from grader.model import Metadata
from grader.results import Verdict

#: two colours closer than this (Euclidean RGB distance) look alike in print
ALIKE_RGB = 60.0
#: and two whose brightness differs by less than this look alike in grey print
ALIKE_GREY = 0.08
#: seconds one uniqueness proof may take
SOLVE_SECONDS = 5.0

Indices = npt.NDArray[np.uint8]


def fit_rgba(rgba: npt.NDArray[np.uint8], width: int, height: int,
             fit: Fit = "pad") -> npt.NDArray[np.uint8]:
    """Resample to width x height keeping the aspect; padding is transparent (background)."""
    from PIL import Image

    source_h, source_w = rgba.shape[:2]
    scale_w, scale_h = width / source_w, height / source_h
    scale = min(scale_w, scale_h) if fit == "pad" else max(scale_w, scale_h)
    inner = (max(1, round(source_w * scale)), max(1, round(source_h * scale)))
    image = Image.fromarray(rgba, mode="RGBA").resize(
        inner, Image.Resampling.BOX if scale < 1 else Image.Resampling.NEAREST)
    canvas = Image.new("RGBA", (width, height), (255, 255, 255, 0))
    canvas.paste(image, ((width - inner[0]) // 2, (height - inner[1]) // 2))
    fitted: npt.NDArray[np.uint8] = np.asarray(canvas, dtype=np.uint8)
    return fitted


def alike_colours(palette: Palette) -> list[str]:
    """Pairs of block colours (and a colour and the paper) a reader could not tell apart."""
    from grader.colour.palette import luminance

    out: list[str] = []
    named = [(palette.background.name, palette.background.rgb)] + [
        (c.name, c.rgb) for c in palette.colours]
    for i, (first, a) in enumerate(named):
        for second, b in named[i + 1:]:
            distance = float(np.linalg.norm(np.subtract(a, b, dtype=np.float64)))
            grey = abs(luminance(a) - luminance(b))
            where = "alike" if distance < ALIKE_RGB else "alike in grey print" \
                if grey < ALIKE_GREY else ""
            if where:
                out.append(f"{first} {_hex(a)} and {second} {_hex(b)} would print {where} "
                           f"(RGB distance {distance:.0f}, brightness {100 * grey:.0f}% apart)"
                           "; try fewer --colours")
    return out


def _hex(rgb: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def _puzzle(indices: Indices, palette: Palette, meta: Metadata) -> ColourPuzzle:
    rows, columns = clues_of_colour_picture(indices)
    return ColourPuzzle(rows, columns, palette, colour_array_to_rows(indices, palette), meta)


def make_colour(source: str | os.PathLike[str] | bytes, width: int, height: int, colours: int,
                *, fit: Fit = "pad", trim: tuple[str, ...] = SIDES, seconds: float | None = 60.0,
                seed: int = 0, max_change: float = 4.0, meta: Metadata | None = None,
                progress: Progress = quiet) -> ColourAuthored:
    """Read a picture and make it a unique colour puzzle of at most ``colours`` colours."""
    started = time.monotonic()
    fitted = fit_rgba(load_rgba(source), width, height, fit)
    indices, rgbs = reduce_picture(fitted, colours)
    if not rgbs:
        raise PuzzleError("no cell is darker than the paper: the picture is blank at this size")
    method = f"{len(rgbs)} colours by median cut, {fit} to {width}x{height}"
    if trim:
        kept = trim_empty_edges(indices != 0, trim)
        rows = np.flatnonzero((indices != 0).any(axis=1))
        columns = np.flatnonzero((indices != 0).any(axis=0))
        r0 = int(rows[0]) if "top" in trim else 0
        c0 = int(columns[0]) if "left" in trim else 0
        r0, c0 = min(r0, height - kept.shape[0]), min(c0, width - kept.shape[1])
        indices = np.ascontiguousarray(indices[r0 : r0 + kept.shape[0], c0 : c0 + kept.shape[1]])
        if indices.shape != (height, width):
            method += f", trimmed to {indices.shape[1]}x{indices.shape[0]} (empty margins)"
    palette = palette_for(rgbs)
    meta = meta or Metadata()
    original = indices.copy()
    # --seconds counts from the start: reading and reducing the picture spend it too
    clock = Clock(seconds, progress, started)
    rng = random.Random(seed)
    limit = change_limit(indices.size, max_change)
    flips: set[Cell] = set()
    verdict: Verdict = "undecided"
    from grader.colour.solver import solve_colour

    while not clock.out():
        result = solve_colour(_puzzle(indices, palette, meta),
                              budget=clock.budget(SOLVE_SECONDS))
        verdict = result.verdict
        if verdict != "multiple" or len(flips) >= limit:
            break
        other = result.solutions[1] if np.array_equal(result.solutions[0], indices) \
            else result.solutions[0]
        cells = [cell for cell in result.differing_cells if cell not in flips]
        if not cells:
            break
        cell = rng.choice(cells)
        indices[cell] = other[cell]
        flips.add(cell)  # each cell is changed once at most
        clock.say(f"{len(flips)} flips: {verdict}")
    puzzle = _puzzle(indices, palette, meta)
    graded = grade_colour(puzzle, budget=clock.budget(SOLVE_SECONDS)) \
        if verdict == "unique" else None
    changed = {(int(r), int(c)) for r, c in np.argwhere(indices != original)}
    return Authored(puzzle=puzzle, original=original, flips=tuple(sorted(changed)),
                    verdict=verdict, grade=graded, target=Target(),
                    time_s=time.monotonic() - started, method=method,
                    warnings=tuple(alike_colours(palette)))
