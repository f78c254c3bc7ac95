"""What every technique returns: Steps, and the one-line deductions they are made from.

Techniques only *find* deductions; the engine applies them. A line technique works on one
clue and one line of cell states and returns :class:`LineDeduction` objects with positions
inside the line; the engine places them in the grid as :class:`Step` objects.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from grader.model import EMPTY, FILLED, UNKNOWN, Clue

#: the rungs of the ladder, cheapest first (names used in JSON, tables and scoring.yaml)
RUNGS: tuple[str, ...] = (
    "simple-boxes",
    "extreme-owners",
    "owner-branching",
    "line-analysis",
    "cell-branching",
    "recursion",
)

Axis = Literal["row", "column"]
LineCells = Sequence[int]


def rung_index(name: str) -> int:
    """Position of a rung in the ladder; ValueError names the valid rungs."""
    try:
        return RUNGS.index(name)
    except ValueError:
        raise ValueError(f"unknown rung {name!r}; choose from {', '.join(RUNGS)}") from None


@dataclass(frozen=True)
class LineRef:
    """A row or a column, 0-based."""

    axis: Axis
    index: int

    @property
    def label(self) -> str:
        """For people: numbered from 1."""
        return f"{self.axis.capitalize()} {self.index + 1}"

    def cell(self, position: int) -> tuple[int, int]:
        """(row, column) of a position along this line."""
        return (self.index, position) if self.axis == "row" else (position, self.index)


@dataclass(frozen=True)
class LineDeduction:
    """Cells one line decides on its own: ``changes`` are (position, new state)."""

    technique: str
    changes: tuple[tuple[int, int], ...]
    facts: Mapping[str, Any] = field(default_factory=dict, compare=False)


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
    "RUNGS",
    "UNKNOWN",
    "Axis",
    "LineCells",
    "LineDeduction",
    "LineRef",
    "Step",
    "changes_between",
    "filled_runs",
    "rung_index",
    "spans",
]
