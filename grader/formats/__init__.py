"""Read and write puzzle files in the formats the nonogram world uses.

Public API::

    read(source, *, format=None, name=None) -> list[Puzzle]   # path or bytes
    read_file(path) -> list[Puzzle]
    write(puzzles, format) -> bytes
    read_any(source, *, format=None, name=None, colours=None) -> list[Puzzle | ColourPuzzle]
    write_any(puzzles, format) -> bytes                   # either kind
    detect(data, name=None) -> FormatSpec
    FORMATS: dict[str, FormatSpec]                        # name -> spec (loads them all)
    FORMAT_NAMES: tuple[str, ...]                         # every name, none loaded

Each format is one module that reads and writes both kinds where the format can hold
colour (its spec's ``colour``: webpbn XML, Olsak ``.g``, pynogram, YAML, JSON and the
pictures). :func:`read_any` gives the black-and-white reader the first go, so black-and-white
files cost what they always did; only when it refuses a file that looks like colour (or
``colours`` asks to reduce a picture to N colours) does the same module's colour reader read
it. A colour file whose clues use one black colour on white comes back as a
black-and-white :class:`~grader.model.Puzzle`.

Detection tries the file name's suffix first, then the content. Every problem with an
input is a :class:`~grader.errors.FormatError` naming the source (and line when known).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from grader.colour.model import AnyPuzzle, ColourPuzzle
from grader.errors import BundleError, FormatError, PuzzleError
from grader.formats._base import FormatSpec
from grader.inputs import read_input_bytes
from grader.model import Puzzle

if TYPE_CHECKING:
    #: every format by name (all their modules are imported on first use: see __getattr__)
    FORMATS: dict[str, FormatSpec]
    _SPECS: tuple[FormatSpec, ...]

T = TypeVar("T")

__all__ = [
    "FORMATS",
    "FORMAT_NAMES",
    "FormatSpec",
    "colour_capable",
    "detect",
    "format_for_path",
    "get_format",
    "read",
    "read_any",
    "read_file",
    "write",
    "write_any",
]

#: Every format as (name, suffixes, module, spec), in the order content sniffing tries them
#: (most distinctive first). Written out here rather than read from the modules so that a
#: file whose suffix names its format imports that format's module alone (a ``check`` of
#: one YAML file loads no XML, picture or .non reader); tests/test_formats.py holds each
#: line equal to its module's spec. Modules not listed are found and loaded at import
#: (:func:`_found_specs`) and sniffed after these, before the loose sniffers.
_TABLE: tuple[tuple[str, tuple[str, ...], str, str], ...] = (
    ("pbm", (".pbm",), "pictures", "PBM_SPEC"),
    ("png", (".png",), "pictures", "PNG_SPEC"),
    ("gif", (".gif",), "pictures", "GIF_SPEC"),
    ("bmp", (".bmp",), "pictures", "BMP_SPEC"),
    ("g", (".g",), "olsak", "G_SPEC"),
    ("xml", (".xml", ".pbn"), "webpbn", "SPEC"),
    ("pynogram", (".ini",), "pynogram", "SPEC"),
    ("json", (".json", ".jsonl"), "json_format", "SPEC"),
    ("tatham", (".pattern",), "tatham", "SPEC"),
    ("picross", (), "picross", "SPEC"),
    ("taai", (), "taai", "SPEC"),
    ("non", (".non", ".nonpack"), "non", "SPEC"),
    ("yaml", (".yaml", ".yml"), "yaml_format", "SPEC"),
)
#: the loose sniffers, tried last: a line of two numbers, a text picture, raw PBM
_LOOSE: tuple[tuple[str, tuple[str, ...], str, str], ...] = (
    ("mk", (".mk",), "olsak", "MK_SPEC"),
    ("nin", (".nin",), "nin", "SPEC"),
    ("picture", (), "picture_text", "SPEC"),
    ("pbm4", (), "pictures", "PBM_RAW_SPEC"),
)

#: the pictures a reader may reduce to N colours (``colours``; grader.formats.pictures)
PICTURE_FORMATS = ("png", "gif", "bmp")


def _found_specs(path: Sequence[str], package: str, named: set[str]
                 ) -> tuple[FormatSpec, ...]:
    """The ``SPEC`` (or ``SPECS``) of every format module of this package not named in the
    tables above, by module name: a new format is its module and its test, and its sniffer
    is tried after the distinctive formats and before the loose ones."""
    import importlib
    import pkgutil

    found: list[FormatSpec] = []
    for info in sorted(pkgutil.iter_modules(path), key=lambda info: info.name):
        if info.name.startswith("_") or info.name in named:
            continue
        module = importlib.import_module(f"{package}.{info.name}")
        specs = getattr(module, "SPECS", None)
        found.extend(specs if specs is not None else [module.SPEC])
    return tuple(found)


_EXTRA: tuple[FormatSpec, ...] = _found_specs(
    __path__, __name__, {module for _, _, module, _ in _TABLE + _LOOSE})

#: every format's name (for a command's ``--format`` choices), none of their modules loaded
FORMAT_NAMES: tuple[str, ...] = (
    *(name for name, *_ in _TABLE), *(spec.name for spec in _EXTRA),
    *(name for name, *_ in _LOOSE))


def _load(entry: tuple[str, tuple[str, ...], str, str]) -> FormatSpec:
    import importlib

    spec: FormatSpec = getattr(importlib.import_module(f"{__name__}.{entry[2]}"), entry[3])
    return spec


def _all_specs() -> tuple[FormatSpec, ...]:
    """Every format's spec in sniffing order (every format module loaded)."""
    if "_SPECS" in globals():
        done: tuple[FormatSpec, ...] = globals()["_SPECS"]
        return done
    specs = (*map(_load, _TABLE), *_EXTRA, *map(_load, _LOOSE))
    globals().update(_SPECS=specs, FORMATS={spec.name: spec for spec in specs})
    return specs


def __getattr__(name: str) -> Any:
    # FORMATS and _SPECS load every format module, on first use only
    if name in ("FORMATS", "_SPECS"):
        _all_specs()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def get_format(name: str) -> FormatSpec:
    """The spec called ``name`` (case-insensitive); a FormatError lists the known names."""
    wanted = name.lower()
    for entry in _TABLE + _LOOSE:
        if entry[0] == wanted:
            return _load(entry)
    for spec in _EXTRA:
        if spec.name == wanted:
            return spec
    known = ", ".join(sorted(FORMAT_NAMES))
    raise FormatError(f"unknown format {name!r} (known: {known})")


def format_for_path(path: str | os.PathLike[str]) -> FormatSpec | None:
    """The one format a file name's suffix stands for, if there is exactly one (only its
    module is loaded)."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()  # no pathlib: a check's start-up
    if not suffix:
        return None
    listed = [entry for entry in _TABLE + _LOOSE if suffix in entry[1]]
    found = [spec for spec in _EXTRA if suffix in spec.suffixes]
    if len(listed) + len(found) != 1:
        return None
    return _load(listed[0]) if listed else found[0]


def detect(data: bytes, name: str | os.PathLike[str] | None = None) -> FormatSpec:
    """The format of ``data``: by the suffix of ``name`` when it tells, else by content."""
    if name is not None:
        by_suffix = format_for_path(name)
        if by_suffix is not None:
            return by_suffix
    if not data.strip():
        raise FormatError("empty input", str(name) if name is not None else None, 1)
    for spec in _all_specs():
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


# -- either kind ----------------------------------------------------------------------------
def colour_capable() -> list[str]:
    """Names of the formats that can hold colour puzzles."""
    return sorted(spec.name for spec in _all_specs()
                  if spec.colour is not None and spec.colour.writer is not None)


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
    spec = get_format(format) if format else detect(
        data, label if name or not isinstance(source, bytes) else None)
    if colours is not None and spec.name in PICTURE_FORMATS:
        from grader.formats import pictures

        return [_one_colour_is_plain(p)
                for p in pictures.read_colour_picture(data, label, colours)]
    colour = spec.colour
    try:
        plain = run_reader(spec.reader, data, label, spec.name)
        return list[AnyPuzzle](plain)
    except BundleError:
        raise  # some black-and-white puzzles read: the file is black and white
    except FormatError:
        if colour is None or not colour.looks_colour(data):
            raise
    puzzles = run_reader(colour.reader, data, label, f"colour {spec.name}")
    return [_one_colour_is_plain(p) for p in puzzles]


def write_any(puzzles: AnyPuzzle | Sequence[AnyPuzzle], format: str) -> bytes:
    """The file content holding ``puzzles`` in ``format``; colour needs a colour format."""
    items = [puzzles] if isinstance(puzzles, (Puzzle, ColourPuzzle)) else list(puzzles)
    plain = [p for p in items if isinstance(p, Puzzle)]
    if len(plain) == len(items):
        return write(plain, format)
    spec = get_format(format)
    colour = spec.colour
    if colour is None or colour.writer is None:
        raise FormatError(f"the {spec.name} format cannot hold colour puzzles; use one of "
                          f"{', '.join(colour_capable())}")
    if len(items) > 1 and not spec.holds_many:
        raise FormatError(f"the {spec.name} format holds one puzzle, and there are "
                          f"{len(items)}")
    colour_items = [p if isinstance(p, ColourPuzzle) else ColourPuzzle.from_black_and_white(p)
                    for p in items]
    return colour.writer(colour_items)
