"""The one list of kinds: every engine, page and face asks it instead of branching on a kind
(Tatham's ``list.c``, python-chess's ``VARIANTS``). A new kind adds its module beside
``bw``, ``colour`` and ``fillin`` and one line to :data:`KINDS`."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from grader.errors import FormatError
from grader.kinds import bw, colour, fillin, mosaic
from grader.kinds.contract import AnyPuzzle, Kind, KindEntry, PuzzleKind, StoredKind
from grader.model import Metadata, Puzzle

if TYPE_CHECKING:
    from pathlib import Path

    from grader.colour.palette import Palette

#: every kind, in the order an issue numbers them (pictures first, then fill-ins)
KINDS: tuple[KindEntry, ...] = (
    bw.ENTRY,
    colour.ENTRY,
    fillin.ENTRY,
    mosaic.ENTRY,
)

#: every kind by its tag
BY_TAG: dict[str, KindEntry] = {entry.tag: entry for entry in KINDS}
#: the kinds library and catalogue records store, by tag (``PuzzleKind.tag``)
STORED: dict[str, StoredKind] = {entry.tag: entry.stored for entry in KINDS
                                 if entry.stored is not None}
#: the manifest lists of the kinds not read as puzzle files (the fill-ins' ``fillins``)
SECTION_KEYS: tuple[str, ...] = tuple(entry.manifest_key for entry in KINDS
                                      if entry.manifest_key != "puzzles")
#: the tags a stored kind may have (the catalogue's ``kind`` column, ``--kind`` choices)
TAGS: tuple[str, ...] = tuple(STORED)


def entry_of(puzzle: object) -> KindEntry:
    """The registry entry of ``puzzle``'s kind: the one place that asks which kind it is.
    The kind whose model is nearest the puzzle's own class wins (a kind whose model
    subclasses another kind's is found whatever its place in the list); the first kind for
    a puzzle no model claims (a stand-in a test builds)."""
    found = [(distance, k) for k, entry in enumerate(KINDS)
             if (distance := entry.distance(puzzle)) is not None]
    return KINDS[min(found)[1]] if found else KINDS[0]


def kind_of(puzzle: AnyPuzzle) -> PuzzleKind:
    """The contract of a line puzzle (either nonogram kind)."""
    return cast(PuzzleKind, entry_of(puzzle).contract(puzzle))


def any_kind_of(puzzle: object) -> Kind:
    """The core contract of a puzzle of any kind (a fill-in too)."""
    return entry_of(puzzle).contract(puzzle)


def cache_key(puzzle: object) -> str:
    """The key caches keep a puzzle's grade and hints under: its kind's tag and its content
    hash (kinds' hashes never meet). The caches add the grader version and the budget."""
    return f"{entry_of(puzzle).tag}:{puzzle.key()}"  # type: ignore[attr-defined]


def puzzle_from_rows(rows: Sequence[str], meta: Metadata, palette: Palette | None = None
                     ) -> AnyPuzzle:
    """The puzzle whose solution is ``rows``: ``#``/``.`` for black and white, the
    palette's chars for a colour one."""
    if palette is None:
        from grader.model import rows_to_array

        return Puzzle.from_picture(rows_to_array(list(rows)), meta)
    from grader.colour.model import ColourPuzzle, rows_to_colour_array

    return ColourPuzzle.from_picture(rows_to_colour_array(list(rows), palette), palette, meta)


def read_puzzles(source: str | Path | bytes, format: str | None = None,
                 name: str | None = None, colours: int | None = None) -> list[AnyPuzzle]:
    """The puzzles of a file or of bytes, of whichever kind the file holds (the formats
    registry decides; ``colours`` reads pictures as colour puzzles of at most N colours).
    A kind whose files grader.formats does not read (the entry's ``claims``) reads first."""
    from grader.formats import read_any
    from grader.inputs import read_input_bytes

    own = [entry for entry in KINDS if entry.claims is not None and entry.read is not None]
    if not own:
        return read_any(source, format=format, name=name, colours=colours)
    if isinstance(source, bytes):
        data, label = source, name or "<input>"
    else:
        label = name or os.fspath(source)
        data = read_input_bytes(source, label)
    for entry in own:
        assert entry.claims is not None and entry.read is not None
        if entry.claims(data, label):
            return cast(list[AnyPuzzle], entry.read(data, label, format))
    return read_any(data, format=format, name=label, colours=colours)


def own_format_for_path(path: str | Path) -> tuple[KindEntry, str] | None:
    """The kind and format a file name's suffix names when it is one of a kind's own
    suffixes (``.mosaic``: the mosaic's game IDs), else None."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    for entry in KINDS:
        if entry.suffix_format and suffix in (s.lower() for s in entry.suffixes):
            return entry, entry.suffix_format
    return None


def write_puzzles(puzzles: Sequence[AnyPuzzle], format_name: str) -> bytes:
    """``puzzles`` in one file of ``format_name`` (a colour puzzle needs a colour format;
    a kind with a writer of its own writes its puzzles)."""
    from grader.formats import write_any

    entries = {entry_of(puzzle).tag: entry_of(puzzle) for puzzle in puzzles}
    own = [entry for entry in entries.values() if entry.write is not None]
    if own:
        if len(entries) > 1:
            raise FormatError(f"one file holds one kind of puzzle, not {', '.join(entries)}")
        assert own[0].write is not None
        return own[0].write(list(puzzles), format_name)

    return write_any(list(puzzles), format_name)
