"""The colour puzzle: clues of (length, colour) blocks over a palette.

Blocks of different colours may touch; blocks of the same colour need a gap. A cell
is 0 (background) or a colour index 1..K. Black and white is the one-colour case: a
one-colour :class:`ColourPuzzle` converts to and from :class:`grader.model.Puzzle`, and
readers hand such files to the black-and-white code, which stays as fast as it was.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from numbers import Integral
from typing import TYPE_CHECKING, Any

from grader.colour.palette import Palette
from grader.errors import PuzzleError
from grader.model import (
    Metadata,
    Puzzle,
    PuzzleShape,
    check_clue_lengths,
    check_size,
    picture_width,
)

Block = tuple[int, int]  #: (length, colour index 1..K)
ColourClue = tuple[Block, ...]
if TYPE_CHECKING:  # numpy is imported where arrays are made (see grader.model)
    import numpy as np
    import numpy.typing as npt

    ColourArray = npt.NDArray[np.uint8]  #: (height, width) of colour indices, 0 = background


def clue_of_line(line: Iterable[int]) -> ColourClue:
    """The clue of one line of colour indices (0 = background)."""
    blocks: list[Block] = []
    run, colour = 0, 0
    for value in line:
        value = int(value)
        if value == colour:
            run += value != 0
            continue
        if colour:
            blocks.append((run, colour))
        run, colour = (1, value) if value else (0, 0)
    if colour:
        blocks.append((run, colour))
    return tuple(blocks)


def colour_clue_length(clue: ColourClue) -> int:
    """The fewest cells a clue needs: blocks, and a gap only between same-colour neighbours."""
    gaps = sum(1 for a, b in itertools.pairwise(clue) if a[1] == b[1])
    return sum(length for length, _ in clue) + gaps


def format_colour_clue(clue: ColourClue, palette: Palette) -> str:
    """``2r 1b 3`` style: a colour's char after each length (none for a one-colour palette)."""
    if not clue:
        return "0"
    if palette.size == 1:
        return " ".join(str(n) for n, _ in clue)
    return " ".join(f"{n}{palette[c].char}" for n, c in clue)


def _normalise(clue: Any, palette: Palette, what: str) -> ColourClue:
    blocks: list[Block] = []
    try:
        items = list(clue)
    except TypeError:
        raise PuzzleError(f"{what}: a clue must be a list of (length, colour)") from None
    for item in items:
        try:
            length, colour = item
        except (TypeError, ValueError):
            raise PuzzleError(f"{what}: {item!r} is not a (length, colour) block") from None
        for value in (length, colour):
            if isinstance(value, bool) or not isinstance(value, Integral):
                raise PuzzleError(f"{what}: {value!r} is not a whole number")
        if length < 1:
            raise PuzzleError(f"{what}: block length {length} must be at least 1")
        if not 1 <= colour <= palette.size:
            raise PuzzleError(f"{what}: colour {colour} is not in the palette")
        blocks.append((int(length), int(colour)))
    return tuple(blocks)


@dataclass(frozen=True)
class ColourPuzzle(PuzzleShape):
    """A colour nonogram: palette, clues, optionally its known solution, and metadata.

    ``solution`` is a tuple of row strings of the palette's chars.
    """

    rows: tuple[ColourClue, ...]
    columns: tuple[ColourClue, ...]
    palette: Palette
    solution: tuple[str, ...] | None = None
    meta: Metadata = field(default_factory=Metadata)

    def __post_init__(self) -> None:
        check_size(len(self.columns), len(self.rows))
        rows = tuple(_normalise(c, self.palette, f"row {i + 1}") for i, c in enumerate(self.rows))
        cols = tuple(_normalise(c, self.palette, f"column {i + 1}")
                     for i, c in enumerate(self.columns))
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "columns", cols)
        check_clue_lengths(rows, cols, colour_clue_length,
                           lambda clue: format_colour_clue(clue, self.palette))
        for colour in range(1, self.palette.size + 1):
            in_rows = sum(n for clue in rows for n, c in clue if c == colour)
            in_cols = sum(n for clue in cols for n, c in clue if c == colour)
            if in_rows != in_cols:
                raise PuzzleError(
                    f"row clues colour {in_rows} cells {self.palette[colour].name} but column "
                    f"clues colour {in_cols}")
        if self.solution is not None:
            solution = tuple(self.solution)
            object.__setattr__(self, "solution", solution)
            picture = self.solution_array()
            assert picture is not None
            if clues_of_colour_picture(picture) != (rows, cols):
                raise PuzzleError("the known solution does not satisfy the clues")

    # -- shape (width, height, size, title: PuzzleShape) ---------------------------------
    @property
    def colours(self) -> int:
        return self.palette.size

    # -- derived -------------------------------------------------------------------------
    def solution_array(self) -> ColourArray | None:
        if self.solution is None:
            return None
        return rows_to_colour_array(self.solution, self.palette)

    def key(self) -> str:
        """A content hash of clues and colours (not names): survives renames."""
        def text(clues: tuple[ColourClue, ...]) -> str:
            return "|".join(" ".join(f"{n}:{self.palette[c].hex}" for n, c in clue)
                            for clue in clues)
        import hashlib  # here: loading OpenSSL is a start-up cost a check need not pay

        return hashlib.sha256((text(self.rows) + "/" + text(self.columns)).encode()
                              ).hexdigest()[:24]

    def with_solution(self, picture: ColourArray | None) -> ColourPuzzle:
        if picture is None:
            return replace(self, solution=None)
        return replace(self, solution=colour_array_to_rows(picture, self.palette))

    def to_black_and_white(self) -> Puzzle:
        """The same puzzle as a black-and-white one (only for a one-colour palette)."""
        if self.palette.size != 1:
            raise PuzzleError(f"a {self.palette.size}-colour puzzle is not black and white")
        rows = tuple(tuple(n for n, _ in clue) for clue in self.rows)
        cols = tuple(tuple(n for n, _ in clue) for clue in self.columns)
        solution = None
        picture = self.solution_array()
        if picture is not None:
            solution = tuple("".join("#" if v else "." for v in row) for row in picture.tolist())
        return Puzzle(rows, cols, solution, self.meta)

    @classmethod
    def from_black_and_white(cls, puzzle: Puzzle, palette: Palette | None = None
                             ) -> ColourPuzzle:
        palette = palette or Palette.black_and_white()
        if palette.size != 1:
            raise PuzzleError("a black-and-white puzzle needs a one-colour palette")
        rows = tuple(tuple((n, 1) for n in clue) for clue in puzzle.rows)
        cols = tuple(tuple((n, 1) for n in clue) for clue in puzzle.columns)
        solution = None
        if puzzle.solution is not None:
            solution = tuple(row.replace("#", palette[1].char).replace(".", palette[0].char)
                             for row in puzzle.solution)
        return cls(rows, cols, palette, solution, puzzle.meta)

    @classmethod
    def from_picture(cls, picture: ColourArray, palette: Palette,
                     meta: Metadata | None = None) -> ColourPuzzle:
        """The puzzle whose intended picture is ``picture`` (colour indices)."""
        if picture.ndim != 2:
            raise PuzzleError("a picture must be two-dimensional")
        check_size(int(picture.shape[1]), int(picture.shape[0]))
        if picture.size and int(picture.max()) > palette.size:
            raise PuzzleError("the picture uses a colour the palette does not have")
        rows, cols = clues_of_colour_picture(picture)
        return cls(rows, cols, palette, colour_array_to_rows(picture, palette),
                   meta or Metadata())


AnyPuzzle = Puzzle | ColourPuzzle


def clues_of_colour_picture(picture: ColourArray
                            ) -> tuple[tuple[ColourClue, ...], tuple[ColourClue, ...]]:
    rows = tuple(clue_of_line(r) for r in picture.tolist())
    cols = tuple(clue_of_line(c) for c in picture.T.tolist())
    return rows, cols


def rows_to_colour_array(rows: Sequence[str], palette: Palette) -> ColourArray:
    """Row strings of the palette's chars to an array of colour indices."""
    picture_width(rows)
    import numpy as np

    lookup = {palette[i].char: i for i in range(palette.size + 1)}
    try:
        return np.array([[lookup[ch] for ch in row] for row in rows], dtype=np.uint8)
    except KeyError as exc:
        raise PuzzleError(f"the picture uses {exc.args[0]!r}, which is no colour's char"
                          ) from None


def colour_array_to_rows(picture: ColourArray, palette: Palette) -> tuple[str, ...]:
    chars = [palette[i].char for i in range(palette.size + 1)]
    return tuple("".join(chars[v] for v in row) for row in picture.tolist())


def __getattr__(name: str) -> Any:
    # ColourArray made on first use at run time (see grader.model.__getattr__)
    if name == "ColourArray":
        import numpy as np
        import numpy.typing as npt

        globals()[name] = npt.NDArray[np.uint8]
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
