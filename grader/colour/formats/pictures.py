"""Pictures with a few colours become colour puzzles (PNG, GIF, BMP via Pillow).

One pixel per cell. Transparent and near-white pixels are background; the others are
reduced to at most N colours (``--colours N``: Pillow's median cut over those pixels),
each named after the nearest colour word. Writers draw a known solution, one pixel a
cell, in the palette's colours.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

import numpy as np

from grader.colour.formats._base import ColourFormat, build_colour_puzzle, free_char
from grader.colour.model import ColourPuzzle, clues_of_colour_picture, colour_array_to_rows
from grader.colour.palette import MAX_COLOURS, NAMED_COLOURS, RGB, WHITE, Colour, Palette
from grader.errors import FormatError
from grader.formats._base import check_header

#: the plain words a reader expects, for colours that have no name of their own
BASIC_NAMES = frozenset((
    "black", "grey", "silver", "red", "maroon", "orange", "yellow", "gold", "olive", "green",
    "lime", "darkgreen", "lightgreen", "teal", "cyan", "skyblue", "blue", "navy", "purple",
    "violet", "magenta", "pink", "brown", "tan", "beige", "salmon", "khaki", "lavender"))

#: a pixel this light on every channel is background
LIGHT = 235


def nearest_name(rgb: RGB, taken: set[str]) -> str:
    """The colour word closest to ``rgb`` not yet taken (``colour_N`` if all are)."""
    def distance(item: tuple[str, RGB]) -> int:
        return sum((a - b) ** 2 for a, b in zip(item[1], rgb, strict=True))

    for name, _ in sorted(NAMED_COLOURS.items(), key=distance):
        if name not in taken and name in BASIC_NAMES:
            return name
    return f"colour_{len(taken) + 1}"


def reduce_picture(pixels: np.ndarray, colours: int) -> tuple[np.ndarray, list[RGB]]:
    """(indices 0..K with 0 = background, the K colours' RGB), K <= ``colours``."""
    from PIL import Image

    rgb = pixels[..., :3].astype(np.int32)
    background = (pixels[..., 3] < 128) | (rgb.min(axis=2) >= LIGHT)
    inked = rgb[~background].astype(np.uint8)
    indices = np.zeros(background.shape, dtype=np.uint8)
    if inked.size == 0:
        return indices, []
    strip = Image.fromarray(inked.reshape(1, -1, 3), "RGB")
    reduced = strip.quantize(colors=colours, method=Image.Quantize.MEDIANCUT)
    flat = np.asarray(reduced, dtype=np.int64).reshape(-1)
    raw_palette = reduced.getpalette() or []
    used = sorted(set(flat.tolist()))
    # order colours darkest first, so black (when present) is colour 1
    means = {i: tuple(raw_palette[3 * i:3 * i + 3]) for i in used}
    used.sort(key=lambda i: sum(means[i]))
    renumber = np.zeros(max(used) + 1, dtype=np.uint8)
    for new, old in enumerate(used, 1):
        renumber[old] = new
    indices[~background] = renumber[flat]
    return indices, [(int(means[i][0]), int(means[i][1]), int(means[i][2])) for i in used]


def palette_for(rgbs: Sequence[RGB]) -> Palette:
    """A palette for block colours ``rgbs``: each named after the nearest named colour,
    with a free character."""
    names: set[str] = set()
    chars: set[str] = {WHITE.char}
    palette_colours = []
    for rgb in rgbs:
        name = nearest_name(rgb, names)
        names.add(name)
        char = free_char(chars, "#" if name == "black" else name[0])
        chars.add(char)
        palette_colours.append(Colour(name, rgb, char))
    return Palette(tuple(palette_colours))


def read_picture(data: bytes, source: str, colours: int) -> list[ColourPuzzle]:
    from PIL import Image, UnidentifiedImageError

    if not 1 <= colours <= MAX_COLOURS:
        raise FormatError(f"--colours {colours}: must be 1 to {MAX_COLOURS}", source)
    try:
        with Image.open(io.BytesIO(data)) as image:
            check_header(*image.size, source, None)  # before the pixels are decoded
            image.load()
            rgba = image.convert("RGBA")
    except FormatError:
        raise
    except UnidentifiedImageError:
        raise FormatError("not a readable image (unknown or broken header)", source) from None
    except Exception as exc:  # Pillow raises many types
        raise FormatError(f"not a readable image: {type(exc).__name__}: {exc}", source) from None
    indices, rgbs = reduce_picture(np.asarray(rgba), colours)
    if not rgbs:
        raise FormatError("the picture has no cell darker than the background", source)
    palette = palette_for(rgbs)
    rows, cols = clues_of_colour_picture(indices)
    return [build_colour_puzzle(rows, cols, palette, source,
                                solution=colour_array_to_rows(indices, palette))]


def _writer(pil_format: str) -> Callable[[Sequence[ColourPuzzle]], bytes]:
    def write(puzzles: Sequence[ColourPuzzle]) -> bytes:
        from PIL import Image

        (puzzle,) = puzzles
        picture = puzzle.solution_array()
        if picture is None:
            raise FormatError(f"the puzzle has no known solution; the {pil_format} format "
                              "stores a picture")
        palette = puzzle.palette
        lookup = np.array([palette[i].rgb for i in range(palette.size + 1)], dtype=np.uint8)
        buffer = io.BytesIO()
        Image.fromarray(lookup[picture], "RGB").save(buffer, format=pil_format)
        return buffer.getvalue()

    return write


def _never(_data: bytes) -> bool:
    return False  # a picture is a colour puzzle only when --colours asks for it


PNG_FORMAT = ColourFormat("png", lambda d, s: read_picture(d, s, 8), _writer("PNG"), _never)
GIF_FORMAT = ColourFormat("gif", lambda d, s: read_picture(d, s, 8), _writer("GIF"), _never)
BMP_FORMAT = ColourFormat("bmp", lambda d, s: read_picture(d, s, 8), _writer("BMP"), _never)
PICTURE_FORMATS = ("png", "gif", "bmp")
