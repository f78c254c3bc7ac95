"""``make --colours N``: a picture to a unique colour puzzle, with the size, fit and trim of
black and white, steered to a level or stars, and a warning when two palette colours would
print alike.

The picture is fitted like a black-and-white one (transparent padding is background). A
picture on paper keeps near-white as background; a photograph, which has no paper, gives
its commonest edge colour to the background (:func:`reduce_with_background`). Its own
pixels are reduced to at most N block colours (median cut), empty margins are trimmed, a
fully inked line gets one background cell (:func:`clear_full_lines`), and the colour solver
is asked for two solutions: while there are two, one cell where they differ takes the other
solution's colour, at most ``max_change`` percent of the cells, which steering
(:mod:`grader.authoring.colour_steer`) shares.
"""

from __future__ import annotations

import os
import random
import time

import numpy as np
import numpy.typing as npt

from grader.authoring.clock import Clock, Progress, quiet
from grader.authoring.colour_steer import colour_puzzle, make_unique_colour, steer_colour
from grader.authoring.likeness import LIKENESS_MIN, colour_likeness
from grader.authoring.picture import SIDES, Fit, load_rgba, trim_empty_edges
from grader.authoring.result import Authored, ColourAuthored
from grader.authoring.steer import change_limit
from grader.authoring.target import Target
from grader.colour.grading import grade_colour
from grader.colour.model import ColourPuzzle
from grader.colour.palette import MAX_COLOURS as MAX_COLOURS  # the most --colours asks for
from grader.colour.palette import RGB, Palette
from grader.errors import PuzzleError
from grader.formats.pictures import palette_for, reduce_picture
from grader.model import Metadata

#: two colours closer than this (Euclidean RGB distance) look alike in print
ALIKE_RGB = 60.0
#: and two whose brightness differs by less than this look alike in grey print
ALIKE_GREY = 0.08
#: seconds one uniqueness proof may take, and one grade
SOLVE_SECONDS, GRADE_SECONDS = 5.0, 5.0
#: a picture whose edge is paper (near-white or transparent) this often keeps the paper as
#: background; a photograph's edge is not paper, and its commonest edge colour is
PAPER_EDGE = 0.5
#: a cell whose neighbours share another colour this often (of 8) is a speck
SPECK_NEIGHBOURS = 6
#: pixels closer than this (CIEDE2000) to the background's colour are background
BACKGROUND_DELTA_E = 12.0
#: what a cell cleared for a fully inked line costs per step inside its shape (a colour
#: difference of this much CIEDE2000 weighs as one step in from the edge)
INSIDE_COST = 15.0
#: and how much less one costs where it empties a row and a column at once
CROSSING_BONUS = 10.0

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


def _border(inside: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Cells of the picture (``inside``, the rest is padding) on its outer edge."""
    from grader.authoring.picture import outline

    edge: npt.NDArray[np.bool_] = outline(inside)
    return edge


def reduce_with_background(fitted: npt.NDArray[np.uint8], colours: int
                           ) -> tuple[Indices, list[RGB], str]:
    """(palette indices, 0 = background; the block colours' RGB; how) of a fitted picture.

    A picture on paper (near-white or transparent along most of its edge) keeps the paper
    as background, as black and white does. A photograph has no paper: its colours are
    reduced to ``colours`` + 1 and the one most common along the picture's edge (the sky,
    the wall, the table) becomes the background, so cells are empty as well as inked and
    the puzzle has something to solve."""
    from PIL import Image

    from grader.colour.perception import delta_e, lab
    from grader.formats.pictures import LIGHT

    rgb = fitted[..., :3]
    inside = fitted[..., 3] >= 128
    paper = ~inside | (rgb.min(axis=2) >= LIGHT)
    border = _border(inside)
    if not border.any() or paper[border].mean() >= PAPER_EDGE:
        indices, rgbs = reduce_picture(fitted, colours)
        return indices, rgbs, f"{len(rgbs)} colours by median cut, near-white is paper"
    pixels = rgb[inside]
    strip = Image.fromarray(np.ascontiguousarray(pixels.reshape(1, -1, 3)), "RGB")
    reduced = strip.quantize(colors=colours + 1, method=Image.Quantize.MEDIANCUT)
    flat = np.asarray(reduced, dtype=np.int64).reshape(-1)
    raw = reduced.getpalette() or []
    clusters = np.full(inside.shape, -1, dtype=np.int64)
    clusters[inside] = flat
    edge = clusters[border & inside]
    chosen = int(np.bincount(edge[edge >= 0]).argmax())
    back = (int(raw[3 * chosen]), int(raw[3 * chosen + 1]), int(raw[3 * chosen + 2]))
    # every pixel that looks like the background is background (median cut may have
    # split it in two: a dark sky and a darker one); the rest shares the N colours
    ground = (flat == chosen) | (delta_e(lab(pixels), lab([back])[0]) < BACKGROUND_DELTA_E)
    indices = np.zeros(inside.shape, dtype=np.uint8)
    if ground.all():
        return indices, [], f"the picture is all its background colour {_hex(back)}"
    marks, rgbs = median_cut(pixels[~ground], colours)
    placed = np.zeros(len(pixels), dtype=np.uint8)
    placed[~ground] = marks
    indices[inside] = placed
    return indices, rgbs, (f"{len(rgbs)} colours by median cut, the edge's commonest colour "
                           f"{_hex(back)} is the background")


def median_cut(pixels: npt.NDArray[np.uint8], colours: int
               ) -> tuple[Indices, list[RGB]]:
    """Each of ``pixels`` (n x 3) as one of at most ``colours`` colours numbered from 1,
    darkest first (median cut), and those colours."""
    from PIL import Image

    strip = Image.fromarray(np.ascontiguousarray(pixels.reshape(1, -1, 3)), "RGB")
    reduced = strip.quantize(colors=colours, method=Image.Quantize.MEDIANCUT)
    flat = np.asarray(reduced, dtype=np.int64).reshape(-1)
    raw = reduced.getpalette() or []
    used = sorted(set(flat.tolist()))
    means = {i: (int(raw[3 * i]), int(raw[3 * i + 1]), int(raw[3 * i + 2])) for i in used}
    used.sort(key=lambda i: sum(means[i]))
    renumber = np.zeros(max(used) + 1, dtype=np.uint8)
    for new, old in enumerate(used, 1):
        renumber[old] = new
    marks: Indices = renumber[flat]
    return marks, [means[i] for i in used]


def despeckle(indices: Indices, *, lone_ink: bool = False) -> int:
    """Give a cell the ink colour of at least 6 of its 8 neighbours when it has another one
    (in place, all at once): a lone cell of a photograph's noise within a shape is no part
    of the picture, and each makes the puzzle harder to make unique. ``lone_ink``: a lone
    ink cell on the background goes too. The number of cells changed."""
    height, width = indices.shape
    if height < 3 or width < 3:
        return 0
    padded = np.pad(indices, 1, mode="edge")
    counts = np.zeros((int(indices.max()) + 1, height, width), dtype=np.int64)
    for dr in range(3):
        for dc in range(3):
            if (dr, dc) == (1, 1):
                continue
            around = padded[dr:dr + height, dc:dc + width]
            for value in range(counts.shape[0]):
                counts[value] += around == value
    commonest = counts.argmax(axis=0)
    # a lone ink cell on the background stays (a star, an eye): only noise within a shape
    speck = (counts.max(axis=0) >= SPECK_NEIGHBOURS) & (commonest != indices) & (
        lone_ink | (commonest != 0))
    indices[speck] = commonest[speck].astype(np.uint8)
    return int(speck.sum())


def _steps_to_background(indices: Indices) -> npt.NDArray[np.int64]:
    """Each cell's distance in 4-neighbour steps to a background cell or the frame."""
    height, width = indices.shape
    steps = np.full((height, width), height + width, dtype=np.int64)
    reached = np.pad(indices == 0, 1, constant_values=True)
    frontier = reached.copy()
    for step in range(height + width):
        inner = frontier[1:-1, 1:-1]
        steps[inner & (steps > step)] = step
        if inner.all():
            break
        grown = frontier.copy()
        grown[1:, :] |= frontier[:-1, :]
        grown[:-1, :] |= frontier[1:, :]
        grown[:, 1:] |= frontier[:, :-1]
        grown[:, :-1] |= frontier[:, 1:]
        frontier = grown
    return steps


def clear_full_lines(indices: Indices, rgb: npt.NDArray[np.uint8], background: RGB
                     ) -> int:
    """Make a cell of every fully inked row and column background (in place): such a line
    is solved by adding up its clue, which is no puzzle. The cell cleared is one on a
    shape's edge (next to the background or the frame: the outline moves by a cell rather
    than a hole opening inside) that looks most like the background (CIEDE2000), a cell
    where an inked row and an inked column cross counting a little less. The number of
    cells cleared."""
    from grader.colour.perception import delta_e, lab

    likeness = delta_e(lab(rgb.reshape(-1, 3)).reshape(*rgb.shape[:2], 3),
                       lab([background])[0])
    cleared = 0
    while True:
        rows = (indices != 0).all(axis=1)
        columns = (indices != 0).all(axis=0)
        if not rows.any() and not columns.any():
            return cleared
        both = np.outer(rows, columns)
        either = rows[:, None] | columns[None, :]
        inside = _steps_to_background(indices)
        cost = np.where(either, likeness + INSIDE_COST * inside - CROSSING_BONUS * both,
                        np.inf)
        cell = np.unravel_index(int(np.argmin(cost)), cost.shape)
        indices[cell] = 0
        cleared += 1


def make_colour(source: str | os.PathLike[str] | bytes, width: int, height: int, colours: int,
                *, fit: Fit = "pad", trim: tuple[str, ...] = SIDES, seconds: float | None = 60.0,
                seed: int = 0, max_change: float = 4.0, meta: Metadata | None = None,
                progress: Progress = quiet, target: Target | None = None) -> ColourAuthored:
    """Read a picture and make it a unique colour puzzle of at most ``colours`` colours,
    steered to ``target`` (a level or stars) when one is given."""
    started = time.monotonic()
    target = target or Target()
    fitted = fit_rgba(load_rgba(source), width, height, fit)
    indices, rgbs, how = reduce_with_background(fitted, colours)
    if not rgbs:
        raise PuzzleError("no cell is darker than the paper: the picture is blank at this size")
    method = f"{how}, {fit} to {width}x{height}"
    looks = fitted[..., :3]
    if trim:
        kept = trim_empty_edges(indices != 0, trim)
        rows = np.flatnonzero((indices != 0).any(axis=1))
        columns = np.flatnonzero((indices != 0).any(axis=0))
        r0 = int(rows[0]) if "top" in trim else 0
        c0 = int(columns[0]) if "left" in trim else 0
        r0, c0 = min(r0, height - kept.shape[0]), min(c0, width - kept.shape[1])
        box = (slice(r0, r0 + kept.shape[0]), slice(c0, c0 + kept.shape[1]))
        indices, looks = np.ascontiguousarray(indices[box]), looks[box]
        if indices.shape != (height, width):
            method += f", trimmed to {indices.shape[1]}x{indices.shape[0]} (empty margins)"
    specks = despeckle(indices)
    if specks:
        method += f", {specks} speck{'s' * (specks != 1)} merged into the colour around"
    cleared = clear_full_lines(indices, looks, _background_of(looks, indices))
    if cleared:
        method += (f", {cleared} cell{'s' * (cleared != 1)} made background so no line is "
                   "fully inked")
    palette = palette_for(rgbs)
    meta = meta or Metadata()
    original = indices.copy()
    # --seconds counts from the start: reading and reducing the picture spend it too
    clock = Clock(seconds, progress, started)
    rng = random.Random(seed)
    limit = change_limit(indices.size, max_change)
    read = indices.copy()
    verdict = make_unique_colour(indices, palette, meta, clock, rng, limit)
    if verdict == "multiple":  # too noisy to make unique in the changes allowed: calmer
        calmer = read.copy()
        lone = despeckle(calmer, lone_ink=True)
        if lone and calmer.any():
            clear_full_lines(calmer, looks, _background_of(looks, calmer))
            indices, original = calmer, calmer.copy()
            method += f", {lone} lone cell{'s' * (lone != 1)} dropped to make it unique"
            verdict = make_unique_colour(indices, palette, meta, clock, rng, limit)
    graded = None
    note = ""
    if verdict == "unique":
        if target.wanted:
            clock.say(f"unique with {int((indices != original).sum())} flips; steering to "
                      f"{target.describe()}")
            steered = steer_colour(indices, palette, meta, target, clock, rng,
                                   original=original, limit=limit)
            indices, graded, note = steered.picture, steered.grade, steered.note
        else:
            graded = grade_colour(colour_puzzle(indices, palette, meta),
                                  budget=clock.budget(GRADE_SECONDS))
    puzzle = colour_puzzle(indices, palette, meta)
    changed = {(int(r), int(c)) for r, c in np.argwhere(indices != original)}
    likeness = colour_likeness(indices, [palette.background.rgb, *rgbs], looks)
    warnings = alike_colours(palette)
    if likeness < LIKENESS_MIN:
        warnings.append(f"the puzzle does not read as the picture at this size (likeness "
                        f"{100 * likeness:.0f}%, at least {100 * LIKENESS_MIN:.0f}% reads): "
                        "try a larger --size, --fit crop, other --colours or a simpler "
                        "picture")
    return Authored(puzzle=puzzle, original=original, flips=tuple(sorted(changed)),
                    verdict=verdict, grade=graded, target=target,
                    time_s=time.monotonic() - started, method=method, note=note,
                    warnings=tuple(warnings), likeness=likeness)


def _background_of(looks: npt.NDArray[np.uint8], indices: Indices) -> RGB:
    """The mean colour of the background cells (white when there are none)."""
    cells = looks[indices == 0]
    if not len(cells):
        return (255, 255, 255)
    mean = cells.reshape(-1, 3).mean(axis=0)
    return (int(mean[0]), int(mean[1]), int(mean[2]))


def repair_colour(puzzle: ColourPuzzle, *, target: Target | None = None,
                  seconds: float | None = 60.0, seed: int = 0, max_change: float = 4.0,
                  progress: Progress = quiet) -> ColourAuthored:
    """A unique version of a colour puzzle with the fewest changes to its (known or chosen)
    solution, steered to ``target`` when one is asked: the studio's Make unique, Easier and
    Harder on a colour puzzle, as ``make --colours`` makes one unique."""
    from grader.colour.model import rows_to_colour_array
    from grader.colour.solver import solve_colour

    started = time.monotonic()
    target = target or Target()
    clock = Clock(seconds, progress)
    method = "repaired towards its known solution"
    if puzzle.solution is not None:
        indices = rows_to_colour_array(list(puzzle.solution), puzzle.palette)
    else:
        found = solve_colour(puzzle, budget=clock.budget(SOLVE_SECONDS))
        if not found.solutions:
            raise PuzzleError("the puzzle has no solution: there is nothing to repair"
                              if found.verdict == "none" else
                              "no solution found within the budget")
        indices = np.ascontiguousarray(found.solutions[0], dtype=np.uint8)
        method = "repaired towards a solution the solver picked (the puzzle gave none)"
    original = indices.copy()
    rng = random.Random(seed)
    limit = change_limit(indices.size, max_change)
    verdict = make_unique_colour(indices, puzzle.palette, puzzle.meta, clock, rng, limit)
    graded, note = None, ""
    if verdict == "unique":
        if target.wanted:
            steered = steer_colour(indices, puzzle.palette, puzzle.meta, target, clock, rng,
                                   original=original, limit=limit)
            indices, graded, note = steered.picture, steered.grade, steered.note
        else:
            graded = grade_colour(colour_puzzle(indices, puzzle.palette, puzzle.meta),
                                  budget=clock.budget(GRADE_SECONDS))
    changed = {(int(r), int(c)) for r, c in np.argwhere(indices != original)}
    return Authored(puzzle=colour_puzzle(indices, puzzle.palette, puzzle.meta),
                    original=original, flips=tuple(sorted(changed)), verdict=verdict,
                    grade=graded, target=target, time_s=time.monotonic() - started,
                    method=method, note=note)
