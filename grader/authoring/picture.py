"""From any picture Pillow reads to a black-and-white grid of a given size.

Alpha means white (a transparent background is paper). The picture keeps its aspect:
``pad`` fits it inside the grid with white margins, ``crop`` fills the grid and trims the
overflow. Black and white comes from Otsu's threshold (on the picture's own pixels, never
the padding) unless a fixed one is given, or from the outlines of the shapes (``edges``)
for line drawings and logos with big flat areas. Padding is background, inverted or not;
``trim`` cuts empty margins so a puzzle has no empty edge rows or columns.
"""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np
import numpy.typing as npt

from grader.errors import FormatError, PuzzleError
from grader.model import BoolArray

if TYPE_CHECKING:
    from PIL import Image

Fit = Literal["pad", "crop"]
#: refuse pictures larger than this before decoding them
MAX_PIXELS = 40_000_000
#: refuse pictures longer than this many times their width (or the other way round):
#: a grid has 2 to MAX_GRID_SIDE cells a side, so such a picture fits no grid
MAX_ASPECT = 100
#: pictures are box-reduced to at most this many pixels a side, in 8-bit, before they
#: become floats (the largest grid, traced as outlines, is 800 sub-pixels a side)
WORK_SIDE = 1600
#: the sides of a picture whose empty margins ``trim`` can cut
SIDES = ("top", "bottom", "left", "right")
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
    #: the picture's grey levels cell by cell (255 on the padding), and the cells the
    #: picture covers, both at the puzzle's size: what its likeness is measured against
    grey: GreyArray | None = None
    inside: BoolArray | None = None
    #: the share of the picture's own cells inked before trimming (None: not measured)
    ink_share: float | None = None


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


def trimmed_sides(keep: str) -> tuple[str, ...]:
    """The sides to trim when ``keep`` (e.g. 'top,left', 'all', '') names those kept."""
    names = {part.strip().lower() for part in keep.split(",") if part.strip()}
    if "all" in names:
        return ()
    unknown = names - set(SIDES)
    if unknown:
        raise PuzzleError(f"--keep-edges: unknown side {sorted(unknown)[0]!r} "
                          f"(sides: {', '.join(SIDES)}, or all)")
    return tuple(side for side in SIDES if side not in names)


def load_grey(source: str | os.PathLike[str] | bytes, name: str = "") -> GreyArray:
    """The picture as grey levels 0 (black) to 255 (white), alpha composited on white.

    The file comes through the capped reader (no FIFO hangs, no file over the input limit);
    its size is checked from the header before a pixel is decoded, it is decoded in 8-bit
    and box-reduced to at most :data:`WORK_SIDE` pixels a side before it becomes an array
    of floats: a 40-megapixel picture never takes more than a few hundred MB.
    """
    grey = _decoded(source, name, _eight_bit_grey)
    pixels: GreyArray = np.asarray(grey, dtype=np.float64)
    return pixels


def load_rgba(source: str | os.PathLike[str] | bytes, name: str = "") -> npt.NDArray[np.uint8]:
    """The picture as 8-bit RGBA (height x width x 4), read, checked and reduced as
    :func:`load_grey` does."""
    rgba = _decoded(source, name, lambda image: image.convert("RGBA"))
    pixels: npt.NDArray[np.uint8] = np.asarray(rgba, dtype=np.uint8)
    return pixels


def load_rgb(source: str | os.PathLike[str] | bytes, name: str = "") -> npt.NDArray[np.uint8]:
    """The picture in its colours (height x width x 3), transparent parts on white paper:
    how a person sees it (a preview's "original")."""
    rgba = load_rgba(source, name).astype(np.float64)
    alpha = rgba[..., 3:4] / 255.0
    rgb: npt.NDArray[np.uint8] = np.rint(rgba[..., :3] * alpha + 255.0 * (1 - alpha)
                                         ).astype(np.uint8)
    return rgb


def _decoded(source: str | os.PathLike[str] | bytes, name: str,
             convert: Callable[[Image.Image], Image.Image]) -> Image.Image:
    """Read through the capped reader, check the header, decode, convert to 8-bit, reduce."""
    from PIL import Image, UnidentifiedImageError

    from grader.inputs import read_input_bytes

    label = name or (str(source) if not isinstance(source, bytes) else "<picture>")
    data = source if isinstance(source, bytes) else read_input_bytes(source, label)
    try:
        with Image.open(io.BytesIO(data)) as image:
            _check_dimensions(*image.size, label)
            _ask_for_draft(image)
            image.load()
            return _reduced(convert(image))
    except Image.DecompressionBombError:
        raise FormatError(f"picture is over the limit of {MAX_PIXELS:,} pixels (its header "
                          "claims far more)", label) from None
    except UnidentifiedImageError as exc:
        raise FormatError(f"not a picture Pillow can read ({exc.__class__.__name__})",
                          label) from None
    except MemoryError:
        raise FormatError("picture too large to decode in memory", label) from None
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise FormatError(f"damaged picture: {exc}", label) from None


def _check_dimensions(width: int, height: int, label: str) -> None:
    """Refuse, from the header alone, what no grid can use or memory should not hold."""
    if width < 1 or height < 1:
        raise FormatError(f"picture of {width}x{height} pixels has no pixels", label)
    if width * height > MAX_PIXELS:
        raise FormatError(
            f"picture of {width}x{height} pixels is over the limit of {MAX_PIXELS:,} pixels",
            label,
        )
    if max(width, height) > MAX_ASPECT * min(width, height):
        raise FormatError(
            f"picture of {width}x{height} pixels is over {MAX_ASPECT} times longer than it "
            "is wide: no puzzle can show it", label,
        )


def _ask_for_draft(image: Image.Image) -> None:
    """JPEG can decode at 1/2, 1/4 or 1/8 of its size directly: ask for the working size."""
    with contextlib.suppress(ValueError, OSError):  # no draft: decoded in full
        image.draft(None, (WORK_SIDE, WORK_SIDE))


def _eight_bit_grey(image: Image.Image) -> Image.Image:
    """One 8-bit channel of luminance, transparent parts on white paper."""
    from PIL import Image

    has_alpha = "A" in image.getbands() or "transparency" in image.info
    if not has_alpha:
        return image.convert("L")
    rgba = image if image.mode == "RGBA" else image.convert("RGBA")
    alpha = rgba.getchannel("A")
    luminance = rgba.convert("L")
    del rgba
    return Image.composite(luminance, Image.new("L", image.size, 255), alpha)


def _reduced(grey: Image.Image) -> Image.Image:
    """Box-averaged by a whole factor to at most WORK_SIDE pixels a side."""
    factor = -(-max(grey.size) // WORK_SIDE)
    return grey.reduce(factor) if factor > 1 else grey


@dataclass(frozen=True)
class Fitted:
    """A picture resampled into a grid: grey levels (255 outside the picture), which cells
    the picture covers (the rest is padding, always background), and where it sits."""

    grey: GreyArray
    inside: BoolArray
    top: int  #: grid row of the resampled picture's first row (negative: cropped away)
    left: int
    scale_y: float  #: resampled pixels per source pixel, down and across
    scale_x: float

    def source_box(self, rows: tuple[int, int], columns: tuple[int, int],
                   shape: tuple[int, int]) -> tuple[slice, slice]:
        """The source pixels behind grid rows [r0, r1) and columns [c0, c1)."""
        def span(first: int, end: int, origin: int, scale: float, size: int) -> slice:
            low = max(0, int(np.floor((first - origin) / scale)))
            high = min(size, int(np.ceil((end - origin) / scale)))
            return slice(low, max(high, low + 1))

        return (span(*rows, self.top, self.scale_y, shape[0]),
                span(*columns, self.left, self.scale_x, shape[1]))


def fit_picture(grey: GreyArray, width: int, height: int, fit: Fit = "pad") -> Fitted:
    """Resample to width x height keeping the aspect: white margins (pad) or trimmed (crop)."""
    from PIL import Image

    source_h, source_w = grey.shape
    scale_w, scale_h = width / source_w, height / source_h
    scale = min(scale_w, scale_h) if fit == "pad" else max(scale_w, scale_h)
    inner_w = max(1, round(source_w * scale))
    inner_h = max(1, round(source_h * scale))
    image = Image.fromarray(np.clip(np.rint(grey), 0, 255).astype(np.uint8), mode="L")
    resampled = np.asarray(
        image.resize((inner_w, inner_h), Image.Resampling.BOX if scale < 1 else
                     Image.Resampling.NEAREST),
        dtype=np.float64,
    )
    out = np.full((height, width), 255.0)
    inside = np.zeros((height, width), dtype=bool)
    # place the resampled picture centred; crop whatever overflows
    top, left = (height - inner_h) // 2, (width - inner_w) // 2
    src_top, src_left = max(-top, 0), max(-left, 0)
    dst_top, dst_left = max(top, 0), max(left, 0)
    rows = min(inner_h - src_top, height - dst_top)
    cols = min(inner_w - src_left, width - dst_left)
    out[dst_top : dst_top + rows, dst_left : dst_left + cols] = resampled[
        src_top : src_top + rows, src_left : src_left + cols
    ]
    inside[dst_top : dst_top + rows, dst_left : dst_left + cols] = True
    return Fitted(out, inside, top, left, inner_h / source_h, inner_w / source_w)


def fit_grey(grey: GreyArray, width: int, height: int, fit: Fit = "pad") -> GreyArray:
    """The grey levels of :func:`fit_picture` alone."""
    return fit_picture(grey, width, height, fit).grey


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
    trim: Iterable[str] = (),
) -> Binarised:
    """Fit ``grey`` to the grid and decide each cell; the method says what was done.

    Otsu's threshold is computed on the picture's own pixels, never on the padding, and
    the padding stays background when the picture is inverted. ``trim`` names the sides
    (of :data:`SIDES`) whose empty margins are cut: the picture's margins are cropped away
    and it is fitted again, so it fills the grid, and rows or columns still empty at those
    edges are dropped (the puzzle may come out smaller than asked, never larger).
    """
    if threshold is not None and not 0 <= threshold <= 255:
        raise PuzzleError(f"threshold {threshold:g} is outside 0-255")
    sides = frozenset(trim)
    unknown = sides - set(SIDES)
    if unknown:
        raise PuzzleError(f"unknown side {sorted(unknown)[0]!r} (sides: {', '.join(SIDES)})")
    scale = EDGE_SUPERSAMPLE if edges else 1
    fitted = fit_picture(grey, width * scale, height * scale, fit)
    level = _level(fitted, threshold)
    how = f"Otsu threshold {level:.0f}" if threshold is None else f"threshold {level:.0f}"
    if invert:
        how += ", inverted"
    dark = _ink(fitted, level, invert)
    # the share of the whole picture inked, before trimming crops it to its ink: a figure
    # on paper is a minority of the frame, the ground inked is most of it
    framed = outline(dark) if edges else dark
    ink_share = float(framed[fitted.inside].mean()) if fitted.inside.any() else 0.0
    if sides and dark.any():
        rows, columns = _ink_span(dark, sides)
        if (rows, columns) != ((0, dark.shape[0]), (0, dark.shape[1])):
            # crop the picture to its ink and fit it again: it then fills the grid
            box = fitted.source_box(rows, columns, grey.shape)
            fitted = fit_picture(grey[box], width * scale, height * scale, fit)
            dark = _ink(fitted, level, invert)
    picture: BoolArray = dark
    cell_grey = fitted.grey.reshape(height, scale, width, scale).mean(axis=(1, 3))
    inside: BoolArray = np.asarray(
        fitted.inside.reshape(height, scale, width, scale).any(axis=(1, 3)))
    if edges:
        picture = np.asarray(outline(dark).reshape(height, scale, width, scale).any(axis=(1, 3)))
        how = f"outlines of the shapes ({how})"
    method = f"{how}, {fit} to {width}x{height}"
    if sides:
        if not picture.any():
            raise PuzzleError(
                f"no cell is filled at {how.split(' (')[0][0].lower()}{how.split(' (')[0][1:]}: "
                "the picture is blank "
                "at this size (try --threshold, --invert or a larger --size)"
            )
        box = trim_box(picture, sides)
        picture, cell_grey, inside = picture[box], cell_grey[box], inside[box]
        if picture.shape != (height, width):
            method += f", trimmed to {picture.shape[1]}x{picture.shape[0]} (empty margins)"
    return Binarised(np.ascontiguousarray(picture, dtype=bool), method,
                     np.ascontiguousarray(cell_grey), np.ascontiguousarray(inside), ink_share)


def _level(fitted: Fitted, threshold: float | None) -> float:
    """The threshold asked for, or Otsu's on the cells the picture covers."""
    if threshold is not None:
        return float(threshold)
    return otsu_threshold(fitted.grey[fitted.inside])


def _ink(fitted: Fitted, level: float, invert: bool) -> BoolArray:
    """Filled cells: dark ones (light ones when inverted), never the padding."""
    dark = fitted.grey < level
    if invert:
        dark = ~dark
    ink: BoolArray = dark & fitted.inside
    return ink


def _ink_span(ink: BoolArray, sides: frozenset[str]) -> tuple[tuple[int, int], tuple[int, int]]:
    """Rows [r0, r1) and columns [c0, c1) kept when the empty margins at ``sides`` go."""
    rows = np.flatnonzero(ink.any(axis=1))
    columns = np.flatnonzero(ink.any(axis=0))
    height, width = ink.shape
    return (
        (int(rows[0]) if "top" in sides else 0,
         int(rows[-1]) + 1 if "bottom" in sides else height),
        (int(columns[0]) if "left" in sides else 0,
         int(columns[-1]) + 1 if "right" in sides else width),
    )


def trim_empty_edges(picture: BoolArray, sides: Iterable[str] = SIDES) -> BoolArray:
    """``picture`` without its empty rows and columns at ``sides`` (at least 2x2 kept)."""
    trimmed: BoolArray = picture[trim_box(picture, sides)]
    return trimmed


def trim_box(picture: BoolArray, sides: Iterable[str] = SIDES) -> tuple[slice, slice]:
    """The rows and columns :func:`trim_empty_edges` keeps."""
    chosen = frozenset(sides)
    if not picture.any():
        return slice(None), slice(None)
    (r0, r1), (c0, c1) = _ink_span(picture, chosen)
    # a puzzle has at least two rows and columns: keep empty lines to make up the two
    height, width = picture.shape
    while r1 - r0 < 2:
        r0, r1 = (r0, r1 + 1) if r1 < height else (r0 - 1, r1)
    while c1 - c0 < 2:
        c0, c1 = (c0, c1 + 1) if c1 < width else (c0 - 1, c1)
    return slice(r0, r1), slice(c0, c1)


def picture_from_file(
    source: str | os.PathLike[str] | bytes,
    width: int,
    height: int,
    *,
    fit: Fit = "pad",
    threshold: float | None = None,
    invert: bool = False,
    edges: bool = False,
    trim: Iterable[str] = (),
) -> Binarised:
    """Read, fit and binarise a picture file (any format Pillow reads)."""
    grey = load_grey(source)
    try:
        return binarise(grey, width, height, fit=fit, threshold=threshold, invert=invert,
                        edges=edges, trim=trim)
    except PuzzleError as exc:  # about this picture: name it
        label = str(source) if not isinstance(source, bytes) else "<picture>"
        raise FormatError(str(exc), label) from None
