"""The crossword grid: blocks, empty cells and letters, and the slots (entries) it holds.

Text form, one row a line: ``#`` a block, ``.`` (or ``_``, ``?``) an empty white cell, a
letter a pre-filled white cell. Lines starting with ``;`` are comments. A slot is a run of
two or more white cells across or down; a run of one cell is not an entry (it is checked
by the other direction only). Slots are numbered the way crosswords number them: row by
row, one number for each cell that starts an across or a down entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from grader.errors import FormatError

BLOCK = "#"
EMPTY = "."
EMPTY_ALIASES = frozenset("._?")
MAX_SIDE = 64  # no printed crossword is larger; refuses absurd input before allocating
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

Direction = Literal["across", "down"]

#: slots a 'no such slot' message lists
MAX_SLOTS_NAMED = 60


@dataclass(frozen=True)
class Slot:
    """One entry of the grid: where it starts, which way it runs and which cells it covers."""

    index: int  # position in Grid.slots
    number: int  # the printed clue number
    direction: Direction
    row: int  # 0-based start
    column: int
    length: int

    @property
    def cells(self) -> tuple[tuple[int, int], ...]:
        """(row, column) of each cell, in reading order."""
        if self.direction == "across":
            return tuple((self.row, self.column + k) for k in range(self.length))
        return tuple((self.row + k, self.column) for k in range(self.length))

    @property
    def label(self) -> str:
        """For people: ``12 Across``."""
        return f"{self.number} {self.direction.capitalize()}"

    @property
    def short(self) -> str:
        """``12A`` / ``12D``: the form used on the command line (``--lock 12A=WORD``)."""
        return f"{self.number}{self.direction[0].upper()}"


@dataclass(frozen=True)
class Grid:
    """An immutable grid: ``rows`` are strings of ``#``, ``.`` and upper-case letters."""

    rows: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.rows or not self.rows[0]:
            raise FormatError("a grid needs at least one row and one column")
        width = len(self.rows[0])
        if width > MAX_SIDE or len(self.rows) > MAX_SIDE:
            raise FormatError(f"a grid is at most {MAX_SIDE}x{MAX_SIDE} cells")
        for k, row in enumerate(self.rows, start=1):
            if len(row) != width:
                raise FormatError(f"row {k} has {len(row)} cells, row 1 has {width}")
            bad = set(row) - set(LETTERS) - {BLOCK, EMPTY}
            if bad:
                raise FormatError(f"row {k}: unexpected character {sorted(bad)[0]!r}")

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def size(self) -> str:
        return f"{self.width}x{self.height}"

    def at(self, row: int, column: int) -> str:
        return self.rows[row][column]

    def is_white(self, row: int, column: int) -> bool:
        return self.rows[row][column] != BLOCK

    @property
    def is_complete(self) -> bool:
        """Every white cell holds a letter."""
        return all(EMPTY not in row for row in self.rows)

    @cached_property
    def slots(self) -> tuple[Slot, ...]:
        """Every entry of two or more cells, in clue-number order, across before down."""
        found: list[Slot] = []
        number = 0
        for r in range(self.height):
            for c in range(self.width):
                if not self.is_white(r, c):
                    continue
                starts: list[tuple[Direction, int]] = []
                if (c == 0 or not self.is_white(r, c - 1)) and self._run(r, c, 0, 1) >= 2:
                    starts.append(("across", self._run(r, c, 0, 1)))
                if (r == 0 or not self.is_white(r - 1, c)) and self._run(r, c, 1, 0) >= 2:
                    starts.append(("down", self._run(r, c, 1, 0)))
                if starts:
                    number += 1
                for direction, length in starts:
                    found.append(Slot(0, number, direction, r, c, length))
        found.sort(key=lambda s: (s.direction != "across", s.number))
        return tuple(
            Slot(k, s.number, s.direction, s.row, s.column, s.length)
            for k, s in enumerate(found)
        )

    def _run(self, r: int, c: int, dr: int, dc: int) -> int:
        n = 0
        while r < self.height and c < self.width and self.is_white(r, c):
            n += 1
            r, c = r + dr, c + dc
        return n

    def entry(self, slot: Slot) -> str:
        """The slot's cells as text, ``.`` where no letter is written yet."""
        return "".join(self.rows[r][c] for r, c in slot.cells)

    def find_slot(self, name: str) -> Slot:
        """A slot by its short name (``12A``, ``3D``, also ``12 across``); KeyError names it."""
        text = name.strip().upper().replace(" ", "")
        for slot in self.slots:
            if text in (slot.short, f"{slot.number}{slot.direction.upper()}"):
                return slot
        names = [slot.short for slot in self.slots]
        shown = ", ".join(names[:MAX_SLOTS_NAMED])
        more = f" and {len(names) - MAX_SLOTS_NAMED} more" if len(names) > MAX_SLOTS_NAMED else ""
        raise KeyError(f"the grid has no slot {name!r} (its slots: {shown}{more})")

    def with_letters(self, letters: dict[tuple[int, int], str]) -> Grid:
        rows = [list(row) for row in self.rows]
        for (r, c), letter in letters.items():
            rows[r][c] = letter
        return Grid(tuple("".join(row) for row in rows))

    def with_entry(self, slot: Slot, word: str) -> Grid:
        return self.with_letters(dict(zip(slot.cells, word, strict=True)))

    def blank(self) -> Grid:
        """The same blocks with every letter rubbed out."""
        return Grid(tuple("".join(BLOCK if ch == BLOCK else EMPTY for ch in row)
                          for row in self.rows))

    @cached_property
    def unchecked_cells(self) -> tuple[tuple[int, int], ...]:
        """White cells that belong to no slot (a lone white square): no word decides them."""
        covered = {cell for slot in self.slots for cell in slot.cells}
        return tuple(
            (r, c)
            for r in range(self.height)
            for c in range(self.width)
            if self.is_white(r, c) and (r, c) not in covered
        )

    def to_text(self) -> str:
        return "\n".join(self.rows) + "\n"


def parse_grid(text: str, source: str | None = None) -> Grid:
    """A grid from its text form; FormatError names the source and the line."""
    rows: list[str] = []
    first_line: int | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if first_line is None:
            first_line = number
        cells = []
        for ch in line:
            if ch == BLOCK:
                cells.append(BLOCK)
            elif ch in EMPTY_ALIASES:
                cells.append(EMPTY)
            elif ch.isascii() and ch.isalpha():
                cells.append(ch.upper())
            else:
                raise FormatError(
                    f"unexpected character {ch!r} (use # for a block, . for an empty cell, "
                    "A-Z for a letter)", source, number)
        if rows and len(cells) != len(rows[0]):
            raise FormatError(
                f"this row has {len(cells)} cells, the first row has {len(rows[0])}", source,
                number)
        rows.append("".join(cells))
        if len(rows) > MAX_SIDE or len(cells) > MAX_SIDE:
            raise FormatError(f"a grid is at most {MAX_SIDE}x{MAX_SIDE} cells", source, number)
    if not rows:
        raise FormatError("no grid found (expected rows of #, . and letters)", source)
    grid = Grid(tuple(rows))
    if not grid.slots:
        raise FormatError("the grid has no entry of two or more white cells", source,
                          first_line)
    return grid
