"""The kinds of puzzle: the contract every kind meets (:mod:`grader.kinds.contract`), one
module a kind (:mod:`~grader.kinds.bw`, :mod:`~grader.kinds.colour`,
:mod:`~grader.kinds.fillin`) and the one list that names them all
(:mod:`grader.kinds.registry`). A command asks :func:`kind_of` (or the registry), never
which kind it holds."""

from grader.kinds.bw import BlackAndWhite
from grader.kinds.colour import Colour, palette_record
from grader.kinds.contract import (
    AnyPuzzle,
    CoreGrade,
    Kind,
    KindEntry,
    KindGrade,
    MinuteFigures,
    NoSolution,
    PuzzleKind,
    StoredKind,
)
from grader.kinds.fillin import FillinKind
from grader.kinds.registry import (
    BY_TAG,
    KINDS,
    SECTION_KEYS,
    STORED,
    TAGS,
    any_kind_of,
    cache_key,
    entry_of,
    kind_of,
    own_format_for_path,
    puzzle_from_rows,
    read_puzzles,
    write_puzzles,
)

__all__ = [
    "BY_TAG", "KINDS", "SECTION_KEYS", "STORED", "TAGS", "AnyPuzzle", "BlackAndWhite",
    "Colour", "CoreGrade", "FillinKind", "Kind", "KindEntry", "KindGrade", "MinuteFigures",
    "NoSolution",
    "PuzzleKind", "StoredKind", "any_kind_of", "cache_key", "entry_of", "kind_of",
    "own_format_for_path", "palette_record", "puzzle_from_rows", "read_puzzles", "write_puzzles",
]
