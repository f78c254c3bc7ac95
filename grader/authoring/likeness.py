"""Does the puzzle read as its picture? Likeness measured at the puzzle's size, and the
choice among the renderings ``make`` has (threshold, inverted, outlines).

A photograph thresholded at 30x30 can be three quarters ink with its subject lost. The
likeness of a rendering is the correlation between the cells inked and what should ink
them: the picture's darkness (threshold), its lightness (inverted: a negative reads as its
picture), or its edges (outlines, against the grey's gradient), both taken relative to
their mean over the :data:`WINDOW` x :data:`WINDOW` cells around (the detail a person
recognises a subject by, not the dark half and the light half of the frame, which any
threshold matches). A rendering reads when its likeness is at least
:data:`LIKENESS_MIN` and at most :data:`INK_MAX` of the picture is ink before its margins
are trimmed (a figure is seen on paper, not paper on a figure). A colour puzzle is
measured the same way, on lightness.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from grader.authoring.picture import Binarised, Fit, GreyArray, binarise
from grader.model import BoolArray

Way = Literal["threshold", "inverted", "outlines"]
WAYS: tuple[Way, ...] = ("threshold", "inverted", "outlines")
#: the least likeness (a correlation, 0-1) at which a puzzle reads as its picture: the
#: skimage photographs at 30x30 measure 0.42-0.55 where the subject is lost (the rocket,
#: the coffee cup) and 0.7-0.83 where it shows (the astronaut, the retina)
LIKENESS_MIN = 0.6
#: cells a side of the neighbourhood detail is measured in
WINDOW = 5
#: the largest share of ink cells a picture can have and still read as a figure on paper
INK_MAX = 0.6


def local_detail(values: npt.NDArray[np.float64], window: int = WINDOW
                 ) -> npt.NDArray[np.float64]:
    """``values`` less their mean over the ``window`` x ``window`` cells around (edges
    repeated outwards)."""
    half = window // 2
    padded = np.pad(values, half, mode="edge")
    height, width = values.shape
    total = np.zeros_like(values, dtype=np.float64)
    for dr in range(window):
        for dc in range(window):
            total += padded[dr:dr + height, dc:dc + width]
    detail: npt.NDArray[np.float64] = values - total / (window * window)
    return detail


def correlation(first: npt.NDArray[np.float64], second: npt.NDArray[np.float64]) -> float:
    """Pearson's r of two equally long arrays (0 when either is flat)."""
    a, b = first - first.mean(), second - second.mean()
    scale = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum() / scale) if scale > 0 else 0.0


def edge_strength(grey: GreyArray) -> GreyArray:
    """How sharply the grey changes at each cell (the gradient's length)."""
    if min(grey.shape) < 2:
        return np.zeros_like(grey)
    down, across = np.gradient(grey)
    strength: GreyArray = np.hypot(down, across)
    return strength


def likeness_of(ink: BoolArray, grey: GreyArray, inside: BoolArray, way: Way) -> float:
    """How well ``ink`` (the puzzle's filled cells) shows ``grey`` (0 black - 255 white,
    cell by cell) rendered ``way``: 0 (nothing in common) to 1."""
    if not inside.any():
        return 0.0
    if way == "outlines":
        wanted = edge_strength(grey)
    elif way == "inverted":
        wanted = grey
    else:
        wanted = 255.0 - grey
    cells = local_detail(ink.astype(np.float64))[inside]
    return max(0.0, correlation(cells, local_detail(wanted)[inside]))


@dataclass(frozen=True)
class Rendering:
    """One way of turning the picture into cells, with its likeness and ink share."""

    way: Way
    binarised: Binarised
    likeness: float
    ink: float

    @property
    def reads(self) -> bool:
        return self.likeness >= LIKENESS_MIN and self.ink <= INK_MAX

    def describe(self) -> str:
        return (f"{self.way}: likeness {100 * self.likeness:.0f}%, "
                f"{100 * self.ink:.0f}% ink")


def measure(binarised: Binarised, way: Way) -> Rendering:
    picture = binarised.picture
    grey = binarised.grey if binarised.grey is not None else np.full(picture.shape, 255.0)
    inside = binarised.inside if binarised.inside is not None else np.ones_like(picture)
    share = binarised.ink_share if binarised.ink_share is not None else \
        float(picture.mean()) if picture.size else 0.0
    return Rendering(way, binarised, likeness_of(picture, grey, inside, way), share)


def renderings(grey: GreyArray, width: int, height: int, *, fit: Fit = "pad",
               threshold: float | None = None, trim: Iterable[str] = (),
               ways: Iterable[Way] = WAYS) -> list[Rendering]:
    """The picture rendered each of ``ways`` at the size, measured. A way that leaves no
    cell filled is left out."""
    from grader.errors import PuzzleError

    out = []
    for way in ways:
        try:
            binarised = binarise(grey, width, height, fit=fit, threshold=threshold,
                                 invert=way == "inverted", edges=way == "outlines",
                                 trim=tuple(trim))
        except PuzzleError:
            continue
        if binarised.picture.any():
            out.append(measure(binarised, way))
    return out


def choose(found: list[Rendering]) -> Rendering:
    """The first rendering that reads, in the order threshold, inverted, outlines (the
    plainest first); when none does, the first (what was asked for)."""
    return next((rendering for rendering in found if rendering.reads), found[0])


def unreadable(chosen: Rendering, found: list[Rendering]) -> str:
    """The warning when ``chosen`` does not read as its picture ('' when it does)."""
    if chosen.reads:
        return ""
    tried = "; ".join(r.describe() for r in found)
    return (f"the puzzle does not read as the picture at this size (likeness "
            f"{100 * chosen.likeness:.0f}%, at least {100 * LIKENESS_MIN:.0f}% reads, with at "
            f"most {100 * INK_MAX:.0f}% ink; tried {tried}): try a larger --size, --fit crop "
            "or a simpler picture")


def colour_likeness(indices: npt.NDArray[np.uint8], inks: list[tuple[int, int, int]],
                    looks: npt.NDArray[np.uint8]) -> float:
    """How well a colour puzzle (palette ``indices``, 0 = paper, printed in ``inks`` with
    white paper first) shows the picture's cells ``looks`` (RGB): the likeness of their
    lightness (CIELAB L), a negative counting as its picture."""
    from grader.colour.perception import lab

    shape = indices.shape
    printed = lab(np.asarray(inks, dtype=np.uint8)[indices].reshape(-1, 3))[:, 0]
    seen = lab(looks.reshape(-1, 3))[:, 0]
    return abs(correlation(local_detail(printed.reshape(shape)).ravel(),
                           local_detail(seen.reshape(shape)).ravel()))
