"""What the colour solver proves: a light module (no numba), for front ends to import."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from grader.colour.model import ColourArray, colour_array_to_rows
from grader.colour.palette import Palette
from grader.results import Verdict


@dataclass(frozen=True)
class ColourSolveResult:
    """What the complete solver proved about a colour puzzle (never a wrong verdict:
    ``undecided`` when the budget ran out first)."""

    verdict: Verdict
    solutions: tuple[ColourArray, ...] = ()
    time_s: float = 0.0
    nodes: int = 0
    complete: bool = True
    reason: str = ""
    stats: dict[str, int] = field(default_factory=dict)
    #: CPU seconds of this solve alone (the solving thread's; not compiling or loading)
    cpu_s: float = 0.0

    @property
    def differing_cells(self) -> list[tuple[int, int]]:
        """(row, column) cells, 0-based, where the first two solutions differ."""
        if len(self.solutions) < 2:
            return []
        rows, cols = np.nonzero(self.solutions[0] != self.solutions[1])
        return list(zip(rows.tolist(), cols.tolist(), strict=True))

    def solution_rows(self, palette: Palette) -> list[list[str]]:
        return [list(colour_array_to_rows(s, palette)) for s in self.solutions]
