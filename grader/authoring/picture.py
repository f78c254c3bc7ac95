"""From any picture Pillow reads to a black-and-white grid of a given size.

Alpha means white (a transparent background is paper). The picture keeps its aspect:
``pad`` fits it inside the grid with white margins, ``crop`` fills the grid and trims the
overflow. Black and white comes from Otsu's threshold unless a fixed one is given, or from
the outlines of the shapes (``edges``) for line drawings and logos with big flat areas.
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from grader.errors import FormatError, PuzzleError
from grader.model import BoolArray

Fit = Literal["pad", "crop"]
#: refuse pictures larger than this before decoding them
MAX_PIXELS = 40_000_000
#: the largest grid `make` builds (the solver budgets are tuned to this)
MAX_GRID_SIDE = 200
#: outlines are traced at this many sub-pixels per cell side
EDGE_SUPERSAMPLE = 4

GreyArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Binarised:
    """A picture turned into cells, and how: ``method`` is a sentence for the report."""

    picture: BoolArray
    method: str


def otsu_threshold(grey: GreyArray) -> float:
    """The grey level (0-255) that best separates dark from light (Otsu 1979)."""
    values = np.clip(np.rint(grey), 0, 255).astype(np.int64).ravel()
    hist = np.bincount(values, minlength=256).astype(np.float64)
    total = hist.sum()
    if total == 0:
        return 128.0
    levels = np.arange(256, dtype=np.float64)
    weight_dark = np.cumsum(hist)
    weight_light = total - weight_dark
    mass_dark = np.cumsum(hist * levels)
    mean_dark = np.divide(mass_dark, weight_dark, out=np.zeros(256), where=weight_dark > 0)
    mean_light = np.divide(
        mass_dark[-1] - mass_dark, weight_light, out=np.zeros(256), where=weight_light > 0
    )
    between = weight_dark * weight_light * (mean_dark - mean_light) ** 2
    if not between.any():  # one flat grey: nothing to separate
        return 128.0
    # cells at or below the level are dark: the threshold sits just above it
    return float(np.argmax(between)) + 0.5


def parse_size(text: str) -> tuple[int, int]:
    """'30x25' -> (30, 25): width by height."""
    parts = text.lower().replace("×", "x").split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise PuzzleError(f"size {text!r} is not WIDTHxHEIGHT, e.g. 30x25")
    width, height = (int(p) for p in parts)
    for side in (width, height):
        if not 2 <= side <= MAX_GRID_SIDE:
            raise PuzzleError(f"size {text}: each side must be 2 to {MAX_GRID_SIDE} cells")
    return width, height


def load_grey(source: str | os.PathLike[str] | bytes, name: str = "") -> GreyArray:
    """The picture as grey levels 0 (black) to 255 (white), alpha composited on white."""
    from PIL import Image, UnidentifiedImageError

    label = name or (str(source) if not isinstance(source, bytes) else "<picture>")
    try:
        handle = io.BytesIO(source) if isinstance(source, bytes) else open(source, "rb")  # noqa: SIM115
    except OSError as exc:
        raise FormatError(f"cannot read: {exc.strerror or exc}", label) from None
    try:
        with handle, Image.open(handle) as image:
            width, height = image.size
            if width * height > MAX_PIXELS:
                raise FormatError(
                    f"picture of {width}x{height} pixels is over the limit of "
                    f"{MAX_PIXELS:,} pixels", label,
                )
            image.load()
            rgba = image.convert("RGBA")
    except (UnidentifiedImageError, Image.DecompressionBombError) as exc:
        raise FormatError(f"not a picture Pillow can read ({exc.__class__.__name__})",
                          label) from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise FormatError(f"damaged picture: {exc}", label) from None
    pixels = np.asarray(rgba, dtype=np.float64)
    luminance = pixels[..., 0] * 0.299 + pixels[..., 1] * 0.587 + pixels[..., 2] * 0.114
    alpha = pixels[..., 3] / 255.0
    grey: GreyArray = luminance * alpha + 255.0 * (1.0 - alpha)
    return grey


def fit_grey(grey: GreyArray, width: int, height: int, fit: Fit = "pad") -> GreyArray:
    """Resample to width x height keeping the aspect: white margins (pad) or trimmed (crop)."""
    from PIL import Image

    source_h, source_w = grey.shape
    scale_w, scale_h = width / source_w, height / source_h
    scale = min(scale_w, scale_h) if fit == "pad" else max(scale_w, scale_h)
    inner_w = max(1, round(source_w * scale))
    inner_h = max(1, round(source_h * scale))
    image = Image.fromarray(np.clip(grey, 0, 255).astype(np.uint8), mode="L")
    resampled = np.asarray(
        image.resize((inner_w, inner_h), Image.Resampling.BOX if scale < 1 else
                     Image.Resampling.NEAREST),
        dtype=np.float64,
    )
    out = np.full((height, width), 255.0)
    # place the resampled picture centred; crop whatever overflows
    top, left = (height - inner_h) // 2, (width - inner_w) // 2
    src_top, src_left = max(-top, 0), max(-left, 0)
    dst_top, dst_left = max(top, 0), max(left, 0)
    rows = min(inner_h - src_top, height - dst_top)
    cols = min(inner_w - src_left, width - dst_left)
    out[dst_top : dst_top + rows, dst_left : dst_left + cols] = resampled[
        src_top : src_top + rows, src_left : src_left + cols
    ]
    return out


def outline(mask: BoolArray) -> BoolArray:
    """Cells of ``mask`` that touch (4-neighbourhood) a cell outside it or the border."""
    padded = np.pad(mask, 1, constant_values=False)
    inner = (
        padded[:-2, 1:-1] & padded[2:, 1:-1] & padded[1:-1, :-2] & padded[1:-1, 2:]
    )
    edge: BoolArray = mask & ~inner
    return edge


def binarise(
    grey: GreyArray,
    width: int,
    height: int,
    *,
    fit: Fit = "pad",
    threshold: float | None = None,
    invert: bool = False,
    edges: bool = False,
) -> Binarised:
    """Fit ``grey`` to the grid and decide each cell; the method says what was done."""
    if threshold is not None and not 0 <= threshold <= 255:
        raise PuzzleError(f"threshold {threshold:g} is outside 0-255")
    scale = EDGE_SUPERSAMPLE if edges else 1
    fitted = fit_grey(grey, width * scale, height * scale, fit)
    level = otsu_threshold(fitted) if threshold is None else float(threshold)
    how = f"Otsu threshold {level:.0f}" if threshold is None else f"threshold {level:.0f}"
    dark = fitted < level
    if invert:
        dark = ~dark
        how += ", inverted"
    if edges:
        lines = outline(dark)
        picture = lines.reshape(height, scale, width, scale).any(axis=(1, 3))
        method = f"outlines of the shapes ({how})"
    else:
        picture = dark
        method = how
    return Binarised(np.ascontiguousarray(picture, dtype=bool),
                     f"{method}, {fit} to {width}x{height}")


def picture_from_file(
    source: str | os.PathLike[str] | bytes,
    width: int,
    height: int,
    *,
    fit: Fit = "pad",
    threshold: float | None = None,
    invert: bool = False,
    edges: bool = False,
) -> Binarised:
    """Read, fit and binarise a picture file (any format Pillow reads)."""
    grey = load_grey(source)
    return binarise(grey, width, height, fit=fit, threshold=threshold, invert=invert,
                    edges=edges)
