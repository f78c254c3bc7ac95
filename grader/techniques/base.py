"""What every technique returns: Steps, and the one-line deductions they are made from.

Techniques only *find* deductions; the engine applies them. A line technique works on one
clue and one line of cell states and returns :class:`LineDeduction` objects with positions
inside the line; the engine places them in the grid as :class:`Step` objects.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, overload

import numpy as np
import numpy.typing as npt

from grader.model import EMPTY, FILLED, UNKNOWN, CellArray, Clue, Puzzle

if TYPE_CHECKING:
    from grader.results import SolveResult

Axis = Literal["row", "column"]
LineCells = Sequence[int]

#: the rung of a Step a grid technique found: the engine fills in its own rung's name
UNPLACED = ""


@dataclass(frozen=True)
class LineRef:
    """A row or a column, 0-based."""

    axis: Axis
    index: int

    @property
    def label(self) -> str:
        """For people: numbered from 1 ("Row 7"), in the reader's language."""
        from grader.i18n import _

        if self.axis == "row":
            return _("Row {n}", n=self.index + 1)
        return _("Column {n}", n=self.index + 1)

    @property
    def named(self) -> str:
        """The line as a sentence names it ("row 7"), in the reader's language."""
        from grader.i18n import _

        if self.axis == "row":
            return _("row {n}", n=self.index + 1)
        return _("column {n}", n=self.index + 1)

    def cell(self, position: int) -> tuple[int, int]:
        """(row, column) of a position along this line."""
        return (self.index, position) if self.axis == "row" else (position, self.index)


@dataclass(frozen=True)
class LineDeduction:
    """Cells one line decides on its own: ``changes`` are (position, new state)."""

    technique: str
    changes: tuple[tuple[int, int], ...]
    facts: Mapping[str, Any] = field(default_factory=dict, compare=False)


class LineCellList(list[int]):
    """A line's cells as the list every finder reads, with the array they were copied
    from: the compiled finders of long lines take that instead of converting back."""

    __slots__ = ("array",)

    def __init__(self, array: npt.NDArray[np.uint8]):
        super().__init__(array.tolist())
        self.array = array


def cells_array(cells: LineCells) -> npt.NDArray[np.uint8]:
    """The cells as a uint8 array (without a copy when they came with one)."""
    if isinstance(cells, LineCellList):
        return cells.array
    return np.array(cells, dtype=np.uint8)


class PendingDeductions(Sequence[LineDeduction]):
    """A line's deductions, counted and sized now but built when first read.

    The engine only needs each line's count and biggest deduction to choose a step;
    of the many lines that have some, one is taken. ``sizes`` are the deductions' numbers
    of changes, in the order ``build`` returns them.
    """

    def __init__(self, sizes: list[int], build: Callable[[], list[LineDeduction]]):
        self.sizes = sizes
        self._build: Callable[[], list[LineDeduction]] | None = build
        self._built: list[LineDeduction] = []

    def _items(self) -> list[LineDeduction]:
        if self._build is not None:
            self._built = self._build()
            self._build = None
            if [len(d.changes) for d in self._built] != self.sizes:
                raise AssertionError("pending deductions were sized wrongly")
        return self._built

    def __len__(self) -> int:
        return len(self.sizes)

    @overload
    def __getitem__(self, index: int) -> LineDeduction: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[LineDeduction]: ...

    def __getitem__(self, index: int | slice) -> LineDeduction | Sequence[LineDeduction]:
        return self._items()[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


def deduction_sizes(found: Sequence[LineDeduction]) -> list[int]:
    """How many cells each deduction decides (without building pending ones)."""
    if isinstance(found, PendingDeductions):
        return found.sizes
    return [len(d.changes) for d in found]


@dataclass(frozen=True)
class Step:
    """One deduction of the solve, as the engine applied it.

    ``changes`` are (row, column, state) with 0-based coordinates; ``facts`` hold what a
    sentence needs (blocks, ranges, failed branches); ``openings`` is how many deductions
    of the same rung were available when this one was taken.
    """

    rung: str
    technique: str
    changes: tuple[tuple[int, int, int], ...]
    line: LineRef | None = None
    clue: Clue | None = None
    cell: tuple[int, int] | None = None
    facts: Mapping[str, Any] = field(default_factory=dict, compare=False)
    openings: int = 1

    @property
    def cells_decided(self) -> int:
        return len(self.changes)


@dataclass
class GridContext:
    """What a grid rung may use besides the grid: the engine's deadline (monotonic time)
    and the complete solver's answer for the puzzle, once some rung has asked for it
    (the grader reads it for the verdict, so the puzzle is never solved twice)."""

    deadline: float | None = None
    nodes: int | None = None
    proof: SolveResult | None = None
    #: the last grid on which cell branching tried every unknown cell and decided
    #: nothing: a fixpoint of probing, which the solver's root need not probe again
    probed: CellArray | None = None

    def prove(self, puzzle: Puzzle, cells: CellArray | None = None) -> SolveResult:
        """The complete solver's answer (up to two solutions) within the time left, kept.

        ``cells``: the grade's grid, whose deductions every solution agrees with: the
        search starts from it (Gettys, 99x59: its root probing 0.38 -> 0.25 s), and does
        not probe it again when cell branching left it as it was (``probed``).
        Its verdict may be ``undecided`` when the budget runs out first.
        """
        if self.proof is None:
            from grader.results import Budget
            from grader.solver import solve  # compiled: loaded only when a puzzle needs it

            seconds = None
            if self.deadline is not None:
                seconds = max(self.deadline - time.monotonic(), 0.001)
            probed = (cells is not None and self.probed is not None
                      and bool(np.array_equal(self.probed, cells)))
            self.proof = solve(puzzle, limit=2, budget=Budget(seconds=seconds, nodes=self.nodes),
                               start=cells, probed=probed)
        return self.proof


class SeveralSolutions(Exception):
    """A grid rung found two solutions: the ladder cannot decide the puzzle."""

    def __init__(self, examples: tuple[CellArray, CellArray]):
        super().__init__("the puzzle has several solutions")
        self.examples = examples


def filled_runs(cells: LineCells) -> list[tuple[int, int]]:
    """(first, last) positions of each maximal run of FILLED cells."""
    runs: list[tuple[int, int]] = []
    start = -1
    for position, state in enumerate(cells):
        if state == FILLED:
            if start < 0:
                start = position
        elif start >= 0:
            runs.append((start, position - 1))
            start = -1
    if start >= 0:
        runs.append((start, len(cells) - 1))
    return runs


def changes_between(before: LineCells, after: LineCells) -> tuple[tuple[int, int], ...]:
    """Positions that were UNKNOWN before and are decided after."""
    return tuple(
        (position, state)
        for position, (old, state) in enumerate(zip(before, after, strict=False))
        if old == UNKNOWN and state != UNKNOWN
    )


def spans(positions: Sequence[int]) -> list[tuple[int, int]]:
    """Sorted positions grouped into (first, last) stretches of consecutive ones."""
    result: list[tuple[int, int]] = []
    for position in sorted(positions):
        if result and position == result[-1][1] + 1:
            result[-1] = (result[-1][0], position)
        else:
            result.append((position, position))
    return result


__all__ = [
    "EMPTY",
    "FILLED",
    "UNKNOWN",
    "UNPLACED",
    "Axis",
    "GridContext",
    "LineCells",
    "LineDeduction",
    "LineRef",
    "SeveralSolutions",
    "Step",
    "changes_between",
    "filled_runs",
    "spans",
]
