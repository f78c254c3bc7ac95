"""The puzzle model: immutable clues and metadata, and a mutable grid of cell states.

Cell states are bitmasks of what a cell may still be, so that line logic can
intersect possibilities with ``&`` and a zero means a contradiction:

* ``EMPTY``   (1): the cell is known to be empty (white, a space),
* ``FILLED``  (2): the cell is known to be filled (black, a box),
* ``UNKNOWN`` (3): either is still possible.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from numbers import Integral
from typing import TYPE_CHECKING, Any, Self, TypeVar

from grader.errors import PuzzleError
from grader.text import clean

EMPTY = 1
FILLED = 2
UNKNOWN = 3

#: Refuse anything larger before memory is allocated for it.
MAX_SIDE = 4096
MAX_CELLS = 4096 * 1024
#: lines named in a message before "and N more"
MAX_NAMED_LINES = 6

Clue = tuple[int, ...]
#: A cell printed in the grid: (row, column, filled), 0-based.
Given = tuple[int, int, bool]
if TYPE_CHECKING:
    # numpy is imported where arrays are made, not with the model: reading and checking a
    # small puzzle (grader.solver.quick) needs no numpy, whose import is most of a start-up
    import numpy as np
    import numpy.typing as npt
    from typing_extensions import TypeIs

    BoolArray = npt.NDArray[np.bool_]
    CellArray = npt.NDArray[np.uint8]
    IntArray = npt.NDArray[np.int64]
#: a clue of either kind (numbers, or numbers with colours)
C = TypeVar("C")


def check_clue_lengths(rows: Sequence[C], columns: Sequence[C], length: Callable[[C], int],
                       text: Callable[[C], str]) -> None:
    """Raise PuzzleError for the first clue longer than its line (either kind's clues:
    ``length`` counts the cells a clue needs, ``text`` writes it)."""
    for kind, clues, room in (("row", rows, len(columns)), ("column", columns, len(rows))):
        for i, clue in enumerate(clues):
            if length(clue) > room:
                raise PuzzleError(f"{kind} {i + 1} clue {text(clue)} needs {length(clue)} "
                                  f"cells but the line has {room}")


def check_size(width: int, height: int) -> None:
    """Raise PuzzleError for an empty or absurd size; cheap, allocates nothing."""
    for name, value in (("width", width), ("height", height)):
        if isinstance(value, bool) or not isinstance(value, Integral):  # numpy's too
            raise PuzzleError(f"{name} must be a whole number, got {value!r}")
        if value < 1:
            raise PuzzleError(f"{name} must be at least 1, got {value}")
        if value > MAX_SIDE:
            raise PuzzleError(f"{name} {value} is larger than the limit of {MAX_SIDE}")
    if width * height > MAX_CELLS:
        raise PuzzleError(f"{width}x{height} has more than {MAX_CELLS} cells")


def clue_of(line: Iterable[bool]) -> Clue:
    """The clue of one line of a picture (True = filled)."""
    blocks: list[int] = []
    run = 0
    for filled in line:
        if filled:
            run += 1
        elif run:
            blocks.append(run)
            run = 0
    if run:
        blocks.append(run)
    return tuple(blocks)


def normalise_clue(numbers: Iterable[Any], what: str = "clue") -> Clue:
    """Validate one clue's numbers; a lone 0 (the usual way to write a blank line) means ()."""
    given = list(numbers)
    if set(map(type, given)) <= {int} and (not given or min(given) > 0):
        return tuple(given)  # the common case, checked at C speed
    values: list[int] = []
    for number in given:
        if isinstance(number, bool) or not isinstance(number, Integral):
            raise PuzzleError(f"{what}: {number!r} is not a whole number")
        if number < 0:
            raise PuzzleError(f"{what}: negative number {number}")
        values.append(int(number))
    if values == [0]:
        return ()
    if 0 in values:
        raise PuzzleError(f"{what}: 0 can only stand alone, for an empty line")
    return tuple(values)


def clue_length(clue: Clue) -> int:
    """The fewest cells a clue needs: its blocks plus one gap between each two."""
    return sum(clue) + max(len(clue) - 1, 0)


@dataclass(frozen=True)
class Metadata:
    """What a puzzle file says about a puzzle besides its clues."""

    title: str = ""
    author: str = ""
    copyright: str = ""
    license: str = ""
    source: str = ""  # catalogue or source id, e.g. "webpbn.com #1"

    def __post_init__(self) -> None:
        # lone surrogates from JSON escapes would break every later print or write
        for name, value in self.__dict__.items():
            if isinstance(value, str):
                object.__setattr__(self, name, clean(value))

    def as_dict(self) -> dict[str, str]:
        return {k: v for k, v in self.__dict__.items() if v}


class Shaped:
    """Size, title and metadata edits shared by every puzzle model (the nonograms, the
    mosaic): a plain mixin over ``width``, ``height`` and ``meta``, not a dataclass, so the
    puzzles' own dataclass fields stay theirs."""

    meta: Metadata

    @property
    def width(self) -> int:
        raise NotImplementedError

    @property
    def height(self) -> int:
        raise NotImplementedError

    @property
    def size(self) -> str:
        return f"{self.width}x{self.height}"

    @property
    def title(self) -> str:
        return self.meta.title

    def with_meta(self, **changes: str) -> Self:
        return replace(self, meta=replace(self.meta, **changes))  # type: ignore[type-var]


class PuzzleShape(Shaped):
    """The line puzzles' shape: as many columns as column clues, rows as row clues (the
    black-and-white and the colour puzzle)."""

    rows: tuple[Any, ...]
    columns: tuple[Any, ...]

    @property
    def width(self) -> int:
        return len(self.columns)

    @property
    def height(self) -> int:
        return len(self.rows)


@dataclass(frozen=True)
class Puzzle(PuzzleShape):
    """A black-and-white nonogram: clues, optionally its known solution, and metadata.

    Immutable and validated on construction. ``solution`` is a tuple of row strings of
    ``#`` (filled) and ``.`` (empty); use :meth:`solution_array` for numpy.
    """

    rows: tuple[Clue, ...]
    columns: tuple[Clue, ...]
    solution: tuple[str, ...] | None = None
    meta: Metadata = field(default_factory=Metadata)
    #: cells printed in the grid (filled or marked empty), sorted; they start every solve
    givens: tuple[Given, ...] = ()

    def __post_init__(self) -> None:
        check_size(len(self.columns), len(self.rows))
        rows = tuple(normalise_clue(c, f"row {i + 1}") for i, c in enumerate(self.rows))
        cols = tuple(normalise_clue(c, f"column {i + 1}") for i, c in enumerate(self.columns))
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "columns", cols)
        check_clue_lengths(rows, cols, clue_length, format_clue)
        row_total = sum(map(sum, rows))
        col_total = sum(map(sum, cols))
        if row_total != col_total:
            raise PuzzleError(
                f"row clues fill {row_total} cells but column clues fill {col_total}"
            )
        if self.solution is not None:
            self._check_solution(tuple(self.solution))
        if self.givens:
            self._check_givens()

    def _check_givens(self) -> None:
        cells: dict[tuple[int, int], bool] = {}
        for given in self.givens:
            if len(given) != 3:
                raise PuzzleError(f"a given must be (row, column, filled), not {given!r}")
            row, column, filled = int(given[0]), int(given[1]), bool(given[2])
            if not (0 <= row < self.height and 0 <= column < self.width):
                raise PuzzleError(f"given cell ({row + 1}, {column + 1}) is outside the grid")
            if cells.get((row, column), filled) != filled:
                raise PuzzleError(f"given cell ({row + 1}, {column + 1}) is both filled and empty")
            cells[(row, column)] = filled
        if self.solution is not None:  # checked first: rows of '#' and '.'
            for (row, column), filled in cells.items():
                if (self.solution[row][column] == "#") != filled:
                    raise PuzzleError(
                        f"given cell ({row + 1}, {column + 1}) disagrees with the solution"
                    )
        object.__setattr__(
            self, "givens", tuple((r, c, f) for (r, c), f in sorted(cells.items()))
        )

    def _check_solution(self, solution: tuple[str, ...]) -> None:
        if len(solution) != self.height or any(len(r) != self.width for r in solution):
            raise PuzzleError(f"the solution is not {self.width}x{self.height}")
        if any(set(r) - {"#", "."} for r in solution):
            raise PuzzleError("the solution may hold only '#' and '.'")
        object.__setattr__(self, "solution", solution)
        wrong = picture_mismatches(self.rows, self.columns,
                                   [[ch == "#" for ch in row] for row in solution])
        if wrong:
            shown = ", ".join(wrong[:MAX_NAMED_LINES])
            extra = len(wrong) - MAX_NAMED_LINES
            more = f" and {extra} more" if extra > 0 else ""
            raise PuzzleError(f"the known solution does not satisfy the clues of {shown}{more}")

    # -- derived -------------------------------------------------------------------------
    def solution_array(self) -> BoolArray | None:
        """The known solution as a (height, width) bool array, True = filled."""
        if self.solution is None:
            return None
        return rows_to_array(self.solution)

    def key(self) -> str:
        """A content hash of the clues alone: survives renames and metadata edits."""
        text = "|".join(" ".join(map(str, c)) for c in self.rows)
        text += "/" + "|".join(" ".join(map(str, c)) for c in self.columns)
        if self.givens:  # puzzles without givens keep the keys they always had
            text += "/" + "|".join(f"{r},{c},{int(f)}" for r, c, f in self.givens)
        import hashlib  # here: loading OpenSSL is a start-up cost a check need not pay

        return hashlib.sha256(text.encode()).hexdigest()[:24]

    def with_givens(self, givens: Iterable[Given]) -> Puzzle:
        return replace(self, givens=tuple(givens))

    def start_cells(self) -> CellArray:
        """The grid a solve starts from: UNKNOWN everywhere but the givens."""
        import numpy as np

        cells = np.full((self.height, self.width), UNKNOWN, dtype=np.uint8)
        for row, column, filled in self.givens:
            cells[row, column] = FILLED if filled else EMPTY
        return cells

    def start_rows(self) -> list[list[int]]:
        """:meth:`start_cells` as lists of rows (for work in plain Python, without numpy)."""
        cells = [[UNKNOWN] * self.width for _ in range(self.height)]
        for row, column, filled in self.givens:
            cells[row][column] = FILLED if filled else EMPTY
        return cells

    def with_solution(self, picture: BoolArray | Sequence[str] | None) -> Puzzle:
        if picture is None:
            return replace(self, solution=None)
        return replace(self, solution=as_row_strings(picture))

    @classmethod
    def from_picture(
        cls, picture: BoolArray | Sequence[str], meta: Metadata | None = None
    ) -> Puzzle:
        """The puzzle whose unique intended picture is ``picture`` (True or '#' = filled)."""
        array = picture if is_array(picture) else rows_to_array(picture)
        if array.ndim != 2:
            raise PuzzleError("a picture must be two-dimensional")
        check_size(int(array.shape[1]), int(array.shape[0]))
        rows, cols = clues_of_picture(array)
        return cls(rows, cols, as_row_strings(array), meta or Metadata())


def picture_mismatches(
    rows: Sequence[Clue], columns: Sequence[Clue], picture: BoolArray | Sequence[Sequence[bool]]
) -> list[str]:
    """ "row 2 (clue 1 1, picture 2)" for each line where ``picture`` (an array, or rows
    of booleans) disagrees with its clue."""
    grid: list[list[bool]] = (picture.tolist() if is_array(picture)
                              else [list(row) for row in picture])
    found = []
    for axis, clues, lines in (("row", rows, grid),
                               ("column", columns, list(zip(*grid, strict=True)))):
        for index, (clue, line) in enumerate(zip(clues, lines, strict=True)):
            drawn = clue_of(line)
            if drawn != tuple(clue):
                found.append(
                    f"{axis} {index + 1} (clue {format_clue(tuple(clue))}, "
                    f"picture {format_clue(drawn)})"
                )
    return found


def format_clue(clue: Clue) -> str:
    return " ".join(map(str, clue)) if clue else "0"


def _clues_of_rows(picture: BoolArray) -> tuple[Clue, ...]:
    """:func:`clue_of` for every row at once (vectorised: 2048x2048 in milliseconds)."""
    import numpy as np

    height, width = picture.shape
    padded = np.zeros((height, width + 2), dtype=np.int8)
    padded[:, 1:-1] = picture
    edges = np.diff(padded, axis=1)
    start_rows, start_columns = np.nonzero(edges == 1)
    _, end_columns = np.nonzero(edges == -1)  # row-major order: ends pair with starts
    lengths = (end_columns - start_columns).tolist()
    offsets = np.concatenate(([0], np.cumsum(np.bincount(start_rows, minlength=height))))
    bounds = offsets.tolist()
    return tuple(tuple(lengths[bounds[r]:bounds[r + 1]]) for r in range(height))


def clue_table(clues: Sequence[Sequence[int]]) -> tuple[IntArray, IntArray]:
    """Clues as a zero-padded (lines, widest clue) table and a count per line (what the
    compiled kernels read)."""
    import numpy as np

    widest = max((len(c) for c in clues), default=0)
    table = np.zeros((len(clues), max(widest, 1)), dtype=np.int64)
    counts = np.zeros(len(clues), dtype=np.int64)
    for i, clue in enumerate(clues):
        counts[i] = len(clue)
        table[i, : len(clue)] = clue
    return table, counts


def clues_of_picture(picture: BoolArray) -> tuple[tuple[Clue, ...], tuple[Clue, ...]]:
    import numpy as np

    array = np.asarray(picture, dtype=bool)
    return _clues_of_rows(array), _clues_of_rows(array.T)


def picture_width(rows: Sequence[str]) -> int:
    """The width of a picture given as row strings (of either kind), checked: at least one
    row, all of one length, within the size limits."""
    if not rows:
        raise PuzzleError("a picture needs at least one row")
    width = len(rows[0])
    if any(len(r) != width for r in rows):
        raise PuzzleError("picture rows differ in length")
    check_size(width, len(rows))
    return width


def rows_to_array(rows: Sequence[str]) -> BoolArray:
    """Row strings of '#'/'.' (also '1'/'0', 'X'/'-') to a bool array."""
    import numpy as np

    width = picture_width(rows)
    text = "".join(rows).encode()
    flat = np.frombuffer(text, dtype=np.uint8)
    return np.isin(flat, np.frombuffer(b"#1Xx*", dtype=np.uint8)).reshape(len(rows), width)


#: the characters :func:`rows_to_array` reads as filled
FILLED_CHARS = frozenset("#1Xx*")


def as_row_strings(picture: BoolArray | Sequence[str]) -> tuple[str, ...]:
    if is_array(picture):
        rows = picture.tolist()
        return tuple("".join("#" if v else "." for v in row) for row in rows)
    text = list(picture)  # row strings: what rows_to_array reads, without numpy
    picture_width(text)
    return tuple("".join("#" if ch in FILLED_CHARS else "." for ch in row) for row in text)


def is_array(value: object) -> TypeIs[np.ndarray[Any, Any]]:
    """``value`` is a numpy array (asked without importing numpy: none exists before)."""
    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(value, numpy.ndarray)


class Grid:
    """The working state of a solve: a (height, width) uint8 array of EMPTY/FILLED/UNKNOWN.

    Mutable on purpose; in the grader only the engine changes it.
    """

    __slots__ = ("cells",)

    def __init__(self, cells: CellArray):
        self.cells = cells

    @classmethod
    def unknown(cls, height: int, width: int) -> Grid:
        import numpy as np

        check_size(width, height)
        return cls(np.full((height, width), UNKNOWN, dtype=np.uint8))

    @classmethod
    def for_puzzle(cls, puzzle: Puzzle) -> Grid:
        """The grid a solve of ``puzzle`` starts from (its givens already decided)."""
        return cls(puzzle.start_cells())

    @classmethod
    def from_picture(cls, picture: BoolArray) -> Grid:
        import numpy as np

        return cls(np.where(picture, FILLED, EMPTY).astype(np.uint8))

    @classmethod
    def from_rows(cls, rows: Sequence[str]) -> Grid:
        """Row strings of '#', '.' and '?'."""
        import numpy as np

        lookup = {"#": FILLED, ".": EMPTY, "?": UNKNOWN}
        try:
            return cls(np.array([[lookup[ch] for ch in row] for row in rows], dtype=np.uint8))
        except KeyError as exc:
            raise PuzzleError(f"grid text may hold only '#', '.' and '?', not {exc}") from None

    @property
    def height(self) -> int:
        return int(self.cells.shape[0])

    @property
    def width(self) -> int:
        return int(self.cells.shape[1])

    def copy(self) -> Grid:
        return Grid(self.cells.copy())

    def is_complete(self) -> bool:
        return not bool((self.cells == UNKNOWN).any())

    def unknown_count(self) -> int:
        return int((self.cells == UNKNOWN).sum())

    def picture(self) -> BoolArray:
        """Filled cells as a bool array (unknown counts as not filled)."""
        picture: BoolArray = self.cells == FILLED
        return picture

    def to_rows(self) -> list[str]:
        """Row strings of '#' (filled), '.' (empty) and '?' (unknown)."""
        import numpy as np

        chars = np.array([" ", ".", "#", "?"])
        return ["".join(row) for row in chars[self.cells]]

    def __eq__(self, other: object) -> bool:
        import numpy as np

        return isinstance(other, Grid) and np.array_equal(self.cells, other.cells)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Grid({self.width}x{self.height}, {self.unknown_count()} unknown)"

    def __str__(self) -> str:
        return "\n".join(self.to_rows())


def __getattr__(name: str) -> Any:
    # the array aliases made on first use (``from grader.model import CellArray`` at run
    # time, in the modules that work on arrays and import numpy anyway)
    if name in ("BoolArray", "CellArray", "IntArray"):
        import numpy as np
        import numpy.typing as npt

        aliases = {"BoolArray": npt.NDArray[np.bool_], "CellArray": npt.NDArray[np.uint8],
                   "IntArray": npt.NDArray[np.int64]}
        globals().update(aliases)
        return aliases[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
