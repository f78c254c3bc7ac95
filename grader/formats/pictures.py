"""Pictures of a solution: PBM (P1 text, P4 binary) and PNG/GIF/BMP via Pillow.

One pixel per cell; a picture becomes the puzzle it is the solution of. PBM: 1 = black
= filled. Other images: dark pixels (luminance below half) are filled, transparent pixels
empty. Writers need the puzzle's known solution.

PNG, GIF and BMP are read as colour puzzles too (:func:`read_colour_picture`, which
reduces a picture to at most N colours) and colour puzzles are written as pictures.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from grader.colour.model import ColourPuzzle, clues_of_colour_picture, colour_array_to_rows
from grader.colour.palette import MAX_COLOURS, RGB, WHITE, Colour, Palette
from grader.errors import FormatError
from grader.formats._base import (
    ColourFormat,
    FormatSpec,
    build_colour_puzzle,
    check_header,
    free_char,
    need_solution,
    puzzle_from_picture,
)
from grader.model import BoolArray, Puzzle, as_row_strings, rows_to_array


class _Cursor:
    """Reads PBM header tokens, skipping whitespace and comments, tracking the line."""

    def __init__(self, data: bytes, source: str):
        self.data = data
        self.source = source
        self.pos = 0

    @property
    def line(self) -> int:
        return self.data[: self.pos].count(b"\n") + 1

    def skip_space(self) -> None:
        data = self.data
        while self.pos < len(data):
            char = data[self.pos : self.pos + 1]
            if char == b"#":
                end = data.find(b"\n", self.pos)
                self.pos = len(data) if end < 0 else end + 1
            elif char.isspace():
                self.pos += 1
            else:
                return

    def number(self, what: str) -> int:
        self.skip_space()
        start = self.pos
        while self.pos < len(self.data) and self.data[self.pos : self.pos + 1].isdigit():
            self.pos += 1
        token = self.data[start : self.pos]
        if not token:
            raise FormatError(f"PBM header: expected the {what}", self.source, self.line)
        if len(token) > 6:
            raise FormatError(f"PBM header: {what} is absurdly large", self.source, self.line)
        return int(token)


def read_pbm(data: bytes, source: str) -> list[Puzzle]:
    magic = data[:2]
    if magic not in (b"P1", b"P4"):
        raise FormatError("not a PBM file (expected P1 or P4)", source, 1)
    cursor = _Cursor(data, source)
    cursor.pos = 2
    width = cursor.number("width")
    height = cursor.number("height")
    check_header(width, height, source, cursor.line)
    if magic == b"P1":
        cursor.skip_space()
        body = re.sub(rb"#[^\n]*", b"", data[cursor.pos :])
        digits = bytes(b for b in body if not chr(b).isspace())
        if len(digits) < width * height:
            raise FormatError(
                f"P1 image ends after {len(digits)} of {width * height} pixels", source,
                data.count(b"\n") + 1,
            )
        cells = digits[: width * height]
        if cells.strip(b"01"):
            raise FormatError("P1 pixels must be 0 or 1", source, cursor.line)
        picture = np.frombuffer(cells, dtype=np.uint8).reshape(height, width) == ord("1")
    else:
        start = cursor.pos + 1  # exactly one whitespace byte after the height
        row_bytes = (width + 7) // 8
        raster = data[start : start + row_bytes * height]
        if len(raster) < row_bytes * height:
            raise FormatError(
                f"P4 image is truncated ({len(raster)} of {row_bytes * height} bytes)",
                source, cursor.line,
            )
        bits = np.unpackbits(np.frombuffer(raster, dtype=np.uint8).reshape(height, row_bytes),
                             axis=1)
        picture = bits[:, :width].astype(bool)
    return [puzzle_from_picture(as_row_strings(picture), source, 1)]


def _picture(puzzle: Puzzle, name: str) -> BoolArray:
    return rows_to_array(need_solution(puzzle, name))


def write_pbm(puzzles: Sequence[Puzzle]) -> bytes:
    """Plain (P1) PBM, at most 70 characters a line as the spec asks."""
    (puzzle,) = puzzles
    picture = _picture(puzzle, "pbm")
    lines = ["P1", f"{puzzle.width} {puzzle.height}"]
    for row in picture.tolist():
        text = "".join("1" if v else "0" for v in row)
        lines.extend(text[i : i + 70] for i in range(0, len(text), 70))
    return ("\n".join(lines) + "\n").encode("ascii")


def write_pbm_raw(puzzles: Sequence[Puzzle]) -> bytes:
    """Raw (P4) PBM: rows packed 8 pixels a byte, most significant bit first."""
    (puzzle,) = puzzles
    picture = _picture(puzzle, "pbm4")
    header = f"P4\n{puzzle.width} {puzzle.height}\n".encode("ascii")
    return header + np.packbits(picture, axis=1).tobytes()


_PBM_HEADER = re.compile(rb"P[14](?:\s|#[^\n]*\n)+\d+(?:\s|#[^\n]*\n)+\d+\s")


def sniff_pbm(data: bytes) -> bool:
    return _PBM_HEADER.match(data) is not None


def sniff_bmp(data: bytes) -> bool:
    """``BM``, then a DIB header of one of the known sizes at offset 14."""
    return data[:2] == b"BM" and int.from_bytes(data[14:18], "little") in (12, 40, 52, 56,
                                                                           64, 108, 124)


def _rgba_pixels(data: bytes, source: str) -> np.ndarray[Any, Any]:
    """The picture's RGBA pixels (height x width x 4), its size checked before they are
    decoded; anything Pillow cannot read is one FormatError."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
            check_header(width, height, source, None)  # before the pixels are decoded
            image.load()
            rgba = image.convert("RGBA")
    except FormatError:
        raise
    except UnidentifiedImageError:
        raise FormatError("not a readable image (unknown or broken header)", source) from None
    except Exception as exc:  # Pillow raises many types (OSError, SyntaxError, ...)
        raise FormatError(f"not a readable image: {type(exc).__name__}: {exc}", source) from None
    return np.asarray(rgba)


def read_image(data: bytes, source: str) -> list[Puzzle]:
    pixels = _rgba_pixels(data, source).astype(np.int32)
    luminance = (pixels[..., 0] * 299 + pixels[..., 1] * 587 + pixels[..., 2] * 114) // 1000
    picture = (luminance < 128) & (pixels[..., 3] >= 128)
    return [puzzle_from_picture(as_row_strings(picture), source, None)]


def _image_writer(pil_format: str, name: str) -> Callable[[Sequence[Puzzle]], bytes]:
    def write(puzzles: Sequence[Puzzle]) -> bytes:
        from PIL import Image

        (puzzle,) = puzzles
        picture = _picture(puzzle, name)
        image = Image.fromarray(np.where(picture, 0, 255).astype(np.uint8))  # 8-bit grey
        buffer = io.BytesIO()
        image.convert("1").save(buffer, format=pil_format)
        return buffer.getvalue()

    return write


def _sniffer(*magics: bytes) -> Callable[[bytes], bool]:
    return lambda data: data.startswith(magics)


# -- colour --------------------------------------------------------------------------------------
#: a pixel this light on every channel is background
LIGHT = 235


def nearest_name(rgb: RGB, taken: set[str]) -> str:
    """The everyday colour word that looks nearest ``rgb`` (CIEDE2000), not yet taken and
    never the paper's "white" (``colour_N`` if every word is taken)."""
    from grader.colour.perception import colour_word

    return colour_word(rgb, taken | {WHITE.name}) or f"colour_{len(taken) + 1}"


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


def read_colour_picture(data: bytes, source: str, colours: int) -> list[ColourPuzzle]:
    """A picture as a colour puzzle of at most ``colours`` colours."""
    if not 1 <= colours <= MAX_COLOURS:
        raise FormatError(f"--colours {colours}: must be 1 to {MAX_COLOURS}", source)
    indices, rgbs = reduce_picture(_rgba_pixels(data, source), colours)
    if not rgbs:
        raise FormatError("the picture has no cell darker than the background", source)
    palette = palette_for(rgbs)
    rows, cols = clues_of_colour_picture(indices)
    return [build_colour_puzzle(rows, cols, palette, source,
                                solution=colour_array_to_rows(indices, palette))]


def _colour_image_writer(pil_format: str) -> Callable[[Sequence[ColourPuzzle]], bytes]:
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


def _never_colour(_data: bytes) -> bool:
    return False  # a picture is a colour puzzle only when --colours asks for it


PICTURE_FORMATS = ("png", "gif", "bmp")


def _read_colour_default(data: bytes, source: str) -> list[ColourPuzzle]:
    """A colour picture read as at most 8 colours (``--colours N`` asks for other counts)."""
    return read_colour_picture(data, source, 8)


PBM_SPEC = FormatSpec(
    name="pbm",
    description="PBM picture of the solution (reads P1 and P4, writes P1)",
    suffixes=(".pbm",),
    reader=read_pbm,
    writer=write_pbm,
    sniff=sniff_pbm,
    binary=True,
)
PBM_RAW_SPEC = FormatSpec(
    name="pbm4",
    description="PBM picture of the solution, written as raw P4",
    suffixes=(),
    reader=read_pbm,
    writer=write_pbm_raw,
    binary=True,
)
def _image_spec(name: str, pil_format: str, sniff: Callable[[bytes], bool]) -> FormatSpec:
    """A picture format Pillow reads and writes: black and white by luminance, or colour."""
    return FormatSpec(
        name=name,
        description=f"{pil_format} picture of the solution (dark pixel = filled cell)",
        suffixes=(f".{name}",),
        reader=read_image,
        writer=_image_writer(pil_format, name),
        colour=ColourFormat(_read_colour_default, _colour_image_writer(pil_format),
                            _never_colour),
        sniff=sniff,
        binary=True,
    )


PNG_SPEC = _image_spec("png", "PNG", _sniffer(b"\x89PNG\r\n\x1a\n"))
GIF_SPEC = _image_spec("gif", "GIF", _sniffer(b"GIF87a", b"GIF89a"))
BMP_SPEC = _image_spec("bmp", "BMP", sniff_bmp)
