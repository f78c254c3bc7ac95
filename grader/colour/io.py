"""Read and write files that may hold colour puzzles.

:func:`read_any` gives the black-and-white reader of :mod:`grader.formats` the first
go, so black-and-white files cost what they always did; only when that reader refuses a
file that looks like colour (or ``colours`` asks to reduce a picture to N colours) does
the colour reader of the same format read it. A colour file whose clues use one colour
comes back as a black-and-white :class:`~grader.model.Puzzle`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from grader import formats
from grader.colour.formats import COLOUR_FORMATS
from grader.colour.formats.pictures import PICTURE_FORMATS, read_picture
from grader.colour.model import AnyPuzzle, ColourPuzzle
from grader.errors import BundleError, FormatError
from grader.inputs import read_input_bytes
from grader.model import Puzzle

__all__ = ["colour_capable", "read_any", "write_any"]


def colour_capable() -> list[str]:
    """Names of the formats that can hold colour puzzles."""
    return sorted(name for name, spec in COLOUR_FORMATS.items() if spec.writer is not None)


def _one_colour_is_plain(puzzle: ColourPuzzle) -> AnyPuzzle:
    """One black colour on white is black and white: hand it to the faster code."""
    palette = puzzle.palette
    if palette.size == 1 and palette[1].rgb == (0, 0, 0) and palette[0].rgb == (255, 255, 255):
        return puzzle.to_black_and_white()
    return puzzle


def read_any(source: str | os.PathLike[str] | bytes, *, format: str | None = None,
             name: str | None = None, colours: int | None = None) -> list[AnyPuzzle]:
    """Every puzzle in ``source`` (a path, or the content as bytes), colour or not.

    ``colours`` reads a picture as a colour puzzle of at most that many colours.
    """
    if isinstance(source, bytes):
        data, label = source, name or "<input>"
    else:
        label = name or os.fspath(source)
        data = read_input_bytes(source, label)  # capped; FIFOs only with a deadline
    spec = formats.get_format(format) if format else formats.detect(
        data, label if name or not isinstance(source, bytes) else None)
    if colours is not None and spec.name in PICTURE_FORMATS:
        return [_one_colour_is_plain(p) for p in read_picture(data, label, colours)]
    colour = COLOUR_FORMATS.get(spec.name)
    try:
        return list(formats.read(data, format=spec.name, name=label))
    except BundleError:
        raise  # some black-and-white puzzles read: the file is black and white
    except FormatError:
        if colour is None or not colour.looks_colour(data):
            raise
    puzzles = formats.run_reader(colour.reader, data, label, f"colour {spec.name}")
    return [_one_colour_is_plain(p) for p in puzzles]


def write_any(puzzles: AnyPuzzle | Sequence[AnyPuzzle], format: str) -> bytes:
    """The file content holding ``puzzles`` in ``format``; colour needs a colour format."""
    items = [puzzles] if isinstance(puzzles, (Puzzle, ColourPuzzle)) else list(puzzles)
    if all(isinstance(p, Puzzle) for p in items):
        return formats.write([p for p in items if isinstance(p, Puzzle)], format)
    spec = formats.get_format(format)
    colour = COLOUR_FORMATS.get(spec.name)
    if colour is None or colour.writer is None:
        raise FormatError(f"the {spec.name} format cannot hold colour puzzles; use one of "
                          f"{', '.join(colour_capable())}")
    if len(items) > 1 and not colour.holds_many:
        raise FormatError(f"the {spec.name} format holds one puzzle, and there are "
                          f"{len(items)}")
    colour_items = [p if isinstance(p, ColourPuzzle) else ColourPuzzle.from_black_and_white(p)
                    for p in items]
    return colour.writer(colour_items)
