"""Read and write puzzle files in the formats the nonogram world uses.

Public API::

    read(source, *, format=None, name=None) -> list[Puzzle]   # path or bytes
    read_file(path) -> list[Puzzle]
    write(puzzles, format) -> bytes
    detect(data, name=None) -> FormatSpec
    FORMATS: dict[str, FormatSpec]                        # name -> spec

Detection tries the file name's suffix first, then the content. Every problem with an
input is a :class:`~grader.errors.FormatError` naming the source (and line when known).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from grader.errors import FormatError, PuzzleError
from grader.formats import (
    json_format,
    nin,
    non,
    olsak,
    picross,
    picture_text,
    pictures,
    pynogram,
    taai,
    tatham,
    webpbn,
    yaml_format,
)
from grader.formats._base import FormatSpec
from grader.inputs import read_input_bytes
from grader.model import Puzzle

T = TypeVar("T")

__all__ = [
    "FORMATS",
    "FormatSpec",
    "detect",
    "format_for_path",
    "get_format",
    "read",
    "read_file",
    "write",
]

#: Every format, in the order content sniffing tries them (most distinctive first).
_SPECS: tuple[FormatSpec, ...] = (
    pictures.PBM_SPEC,
    pictures.PNG_SPEC,
    pictures.GIF_SPEC,
    pictures.BMP_SPEC,
    olsak.G_SPEC,
    webpbn.SPEC,
    pynogram.SPEC,
    json_format.SPEC,
    tatham.SPEC,
    picross.SPEC,
    taai.SPEC,
    non.SPEC,
    yaml_format.SPEC,
    olsak.MK_SPEC,
    nin.SPEC,
    picture_text.SPEC,
    pictures.PBM_RAW_SPEC,
)

FORMATS: dict[str, FormatSpec] = {spec.name: spec for spec in _SPECS}


def get_format(name: str) -> FormatSpec:
    """The spec called ``name`` (case-insensitive); a FormatError lists the known names."""
    spec = FORMATS.get(name.lower())
    if spec is None:
        known = ", ".join(sorted(FORMATS))
        raise FormatError(f"unknown format {name!r} (known: {known})")
    return spec


def format_for_path(path: str | os.PathLike[str]) -> FormatSpec | None:
    """The one format a file name's suffix stands for, if there is exactly one."""
    suffix = Path(path).suffix.lower()
    if not suffix:
        return None
    matches = [spec for spec in _SPECS if suffix in spec.suffixes]
    return matches[0] if len(matches) == 1 else None


def detect(data: bytes, name: str | os.PathLike[str] | None = None) -> FormatSpec:
    """The format of ``data``: by the suffix of ``name`` when it tells, else by content."""
    if name is not None:
        by_suffix = format_for_path(name)
        if by_suffix is not None:
            return by_suffix
    if not data.strip():
        raise FormatError("empty input", str(name) if name is not None else None, 1)
    for spec in _SPECS:
        if spec.sniff is not None and spec.sniff(data):
            return spec
    raise FormatError(
        "cannot tell the format from the name or the content",
        str(name) if name is not None else None,
    )


def read(
    source: str | os.PathLike[str] | bytes,
    *,
    format: str | None = None,
    name: str | None = None,
) -> list[Puzzle]:
    """Every puzzle in ``source``: a path to read from disk, or the content as bytes.

    ``format`` forces a format by name; ``name`` labels errors (and helps detection when
    ``source`` is bytes).
    """
    if isinstance(source, bytes):
        data = source
        label = name or "<input>"
    else:
        label = name or os.fspath(source)
        data = read_input_bytes(source, label)
    spec = get_format(format) if format else detect(data, label if name or not
                                                     isinstance(source, bytes) else None)
    return run_reader(spec.reader, data, label, spec.name)


def run_reader(reader: Callable[[bytes, str], list[T]], data: bytes, label: str,
               kind: str) -> list[T]:
    """``reader``'s puzzles, every failure turned into one FormatError naming ``label``.

    ``kind`` names the format in the messages ("xml", "colour xml").
    """
    try:
        puzzles = reader(data, label)
    except FormatError as exc:
        raise exc.located(label) from None
    except PuzzleError as exc:
        raise FormatError(str(exc), label) from None
    except RecursionError:
        raise FormatError(f"{kind}: input nested too deeply", label) from None
    except Exception as exc:  # a reader bug must not become a traceback
        raise FormatError(
            f"cannot read as {kind} (reader failed: {type(exc).__name__}: {exc})", label
        ) from exc
    if not puzzles:
        raise FormatError(f"no puzzle found (read as {kind})", label)
    return puzzles


def read_file(path: str | os.PathLike[str]) -> list[Puzzle]:
    """Every puzzle in the file at ``path`` (format from its suffix, else its content)."""
    return read(path)


#: formats that carry given cells (printed in the grid); others refuse a puzzle with givens
GIVENS_FORMATS = frozenset(("yaml", "json"))


def write(puzzles: Puzzle | Sequence[Puzzle], format: str) -> bytes:
    """The file content holding ``puzzles`` in ``format``."""
    spec = get_format(format)
    items = [puzzles] if isinstance(puzzles, Puzzle) else list(puzzles)
    if not items:
        raise FormatError("nothing to write: no puzzles")
    if spec.writer is None:
        raise FormatError(f"the {spec.name} format can be read but not written")
    if spec.name not in GIVENS_FORMATS and any(p.givens for p in items):
        raise FormatError(
            f"the {spec.name} format cannot hold given cells; write yaml or json"
        )
    if len(items) > 1 and not spec.holds_many:
        raise FormatError(
            f"the {spec.name} format holds one puzzle, and there are {len(items)}"
        )
    return spec.writer(items)
