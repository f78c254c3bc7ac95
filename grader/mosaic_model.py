"""The mosaic (Fill-a-Pix) model: an immutable grid of clues, each a digit or none.

A clue at (row, column) counts the filled cells of the 3x3 block centred on it: itself and
its up to eight neighbours (six on an edge, four in a corner). Solved, the filled cells show
a picture. Values only: no search, no engine (``docs/structure.json``: the Model part).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from grader.errors import PuzzleError
from grader.model import (
    BoolArray,
    Metadata,
    Shaped,
    as_row_strings,
    check_size,
    rows_to_array,
)

#: the character of a cell without a clue, in text and YAML rows
NO_CLUE = "."
#: a cell without a clue in a clue array
NONE = -1
ClueArray = npt.NDArray[np.int8]
#: one row of clues: a digit 0-9 or None
ClueRow = tuple[int | None, ...]


def block_cells(row: int, column: int, height: int, width: int) -> Iterator[tuple[int, int]]:
    """The cells of the 3x3 block centred on (row, column) that lie in the grid."""
    for r in range(max(row - 1, 0), min(row + 2, height)):
        for c in range(max(column - 1, 0), min(column + 2, width)):
            yield r, c


def block_size(row: int, column: int, height: int, width: int) -> int:
    """How many cells the block centred on (row, column) holds: 9, 6 on an edge, 4 in a
    corner (fewer still in a grid one cell wide)."""
    rows = min(row + 2, height) - max(row - 1, 0)
    columns = min(column + 2, width) - max(column - 1, 0)
    return rows * columns


def block_sums(picture: BoolArray) -> npt.NDArray[np.int8]:
    """Every cell's clue for ``picture``: the filled cells of its block (vectorised)."""
    height, width = picture.shape
    padded = np.zeros((height + 2, width + 2), dtype=np.int8)
    padded[1:-1, 1:-1] = picture
    total = np.zeros((height, width), dtype=np.int8)
    for dr in range(3):
        for dc in range(3):
            total += padded[dr:dr + height, dc:dc + width]
    return total


def parse_clue_rows(rows: Sequence[str]) -> tuple[ClueRow, ...]:
    """Text rows of digits and ``.`` to clue rows; a PuzzleError names the row and column
    of the first character that is neither (1-based)."""
    parsed: list[ClueRow] = []
    for r, text in enumerate(rows):
        if not isinstance(text, str):
            raise PuzzleError(f"row {r + 1}: {text!r} is not a row of digits and '.'")
        row: list[int | None] = []
        for c, char in enumerate(text):
            if char == NO_CLUE:
                row.append(None)
            elif char.isascii() and char.isdigit():
                row.append(int(char))
            else:
                raise PuzzleError(f"row {r + 1}, column {c + 1}: {char!r} is neither a digit "
                                  f"0-9 nor '{NO_CLUE}'")
        parsed.append(tuple(row))
    return tuple(parsed)


@dataclass(frozen=True)
class MosaicPuzzle(Shaped):
    """A mosaic: clue rows (a digit or None per cell), optionally its known solution (row
    strings of ``#``/``.``), and metadata. Immutable and validated on construction."""

    clues: tuple[ClueRow, ...]
    solution: tuple[str, ...] | None = None
    meta: Metadata = field(default_factory=Metadata)

    def __post_init__(self) -> None:
        rows = tuple(tuple(row) for row in self.clues)
        if not rows or not rows[0]:
            raise PuzzleError("a mosaic needs at least one row of at least one cell")
        width = len(rows[0])
        for r, row in enumerate(rows):
            if len(row) != width:
                raise PuzzleError(f"row {r + 1} has {len(row)} cells but row 1 has {width}: "
                                  "every row must be as long as the first")
        check_size(width, len(rows))
        for r, row in enumerate(rows):
            for c, clue in enumerate(row):
                if clue is None:
                    continue
                if isinstance(clue, bool) or not isinstance(clue, (int, np.integer)):
                    raise PuzzleError(f"row {r + 1}, column {c + 1}: clue {clue!r} is not a "
                                      "digit")
                room = block_size(r, c, len(rows), width)
                if not 0 <= clue <= room:
                    raise PuzzleError(f"row {r + 1}, column {c + 1}: clue {clue} cannot fit "
                                      f"its block of {room} cells")
        object.__setattr__(self, "clues", tuple(tuple(None if v is None else int(v)
                                                      for v in row) for row in rows))
        if self.solution is not None:
            self._check_solution(tuple(self.solution))

    def _check_solution(self, solution: tuple[str, ...]) -> None:
        if len(solution) != self.height or any(len(r) != self.width for r in solution):
            raise PuzzleError(f"the solution is not {self.width}x{self.height}")
        if any(set(r) - {"#", "."} for r in solution):
            raise PuzzleError("the solution may hold only '#' and '.'")
        object.__setattr__(self, "solution", solution)
        sums = block_sums(rows_to_array(solution))
        for r, row in enumerate(self.clues):
            for c, clue in enumerate(row):
                if clue is not None and int(sums[r, c]) != clue:
                    raise PuzzleError(f"row {r + 1}, column {c + 1}: the known solution fills "
                                      f"{int(sums[r, c])} cells of the block, not {clue}")

    # -- shape ---------------------------------------------------------------------------
    @property
    def width(self) -> int:
        return len(self.clues[0])

    @property
    def height(self) -> int:
        return len(self.clues)

    # -- derived -------------------------------------------------------------------------
    def clue_array(self) -> ClueArray:
        """The clues as a (height, width) int8 array, :data:`NONE` where there is none."""
        return np.array([[NONE if v is None else v for v in row] for row in self.clues],
                        dtype=np.int8)

    def clue_cells(self) -> list[tuple[int, int, int]]:
        """(row, column, clue) of every clue, in reading order."""
        return [(r, c, v) for r, row in enumerate(self.clues) for c, v in enumerate(row)
                if v is not None]

    def clue_count(self) -> int:
        return sum(v is not None for row in self.clues for v in row)

    def rows_text(self) -> list[str]:
        """The clue rows as text: digits and ``.``."""
        return ["".join(NO_CLUE if v is None else str(v) for v in row) for row in self.clues]

    def solution_array(self) -> BoolArray | None:
        return None if self.solution is None else rows_to_array(self.solution)

    def key(self) -> str:
        """A content hash of the clues alone: survives renames and metadata edits."""
        text = "mosaic/" + "|".join(self.rows_text())
        return hashlib.sha256(text.encode()).hexdigest()[:24]

    def shape_key(self) -> str:
        """A 20-hex-digit key equal for the clue grid and its seven rotations and mirror
        images: one puzzle, however it was turned (the catalogue's duplicates). Digits are
        compared as they are (no renumbering, unlike a colour picture's palette), and the
        hash is seeded apart from picture keys, so a mosaic never matches a nonogram."""
        base = self.clue_array()
        best: tuple[tuple[int, int], bytes] | None = None
        for turns in range(4):
            for image in (np.rot90(base, turns), np.rot90(base, turns)[:, ::-1]):
                rank = ((int(image.shape[0]), int(image.shape[1])),
                        np.ascontiguousarray(image).tobytes())
                best = rank if best is None or rank < best else best
        assert best is not None
        digest = hashlib.blake2b(digest_size=10, person=b"mosaic-clues")
        digest.update(f"{best[0][0]}x{best[0][1]}:".encode("ascii"))
        digest.update(best[1])
        return digest.hexdigest()

    def with_solution(self, picture: BoolArray | Sequence[str] | None) -> MosaicPuzzle:
        return replace(self, solution=None if picture is None else as_row_strings(picture))

    def with_clues(self, shown: BoolArray) -> MosaicPuzzle:
        """This puzzle with only the clues where ``shown`` is True kept (a known solution
        stays: it satisfies any subset of its clues)."""
        rows = tuple(tuple(v if shown[r, c] else None for c, v in enumerate(row))
                     for r, row in enumerate(self.clues))
        return replace(self, clues=rows)

    def satisfied_by(self, picture: BoolArray) -> bool:
        """Whether ``picture`` (True = filled) agrees with every clue."""
        clues = self.clue_array()
        shown = clues != NONE
        return bool((block_sums(np.asarray(picture, dtype=bool))[shown] == clues[shown]).all())

    @classmethod
    def from_rows(cls, rows: Sequence[str], meta: Metadata | None = None) -> MosaicPuzzle:
        """A mosaic from text rows of digits and ``.`` (errors name row and column)."""
        return cls(parse_clue_rows(rows), meta=meta or Metadata())

    @classmethod
    def from_picture(cls, picture: BoolArray | Sequence[str], shown: BoolArray | None = None,
                     meta: Metadata | None = None) -> MosaicPuzzle:
        """The mosaic whose intended solution is ``picture``, showing every clue (or those
        where ``shown`` is True)."""
        array = (np.asarray(picture, dtype=bool) if isinstance(picture, np.ndarray)
                 else rows_to_array(picture))
        if array.ndim != 2:
            raise PuzzleError("a picture must be two-dimensional")
        check_size(int(array.shape[1]), int(array.shape[0]))
        sums = block_sums(array)
        keep = np.ones(array.shape, dtype=bool) if shown is None else np.asarray(shown, bool)
        rows = tuple(tuple(int(sums[r, c]) if keep[r, c] else None
                           for c in range(array.shape[1])) for r in range(array.shape[0]))
        return cls(rows, as_row_strings(array), meta or Metadata())


__all__ = ["NONE", "NO_CLUE", "MosaicPuzzle", "block_cells", "block_size", "block_sums",
           "parse_clue_rows"]
