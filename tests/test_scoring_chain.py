"""The chain of dependent steps, kept per line as cells are decided, against the plain
definition (every step looks at every cell of its line): equal on real step logs."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from grader import formats
from grader.grading import grade
from grader.results import Budget
from grader.scoring import compact_step, work_terms

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = sorted((ROOT / "puzzles").glob("*.yaml"))


def reference_chain(compact: Sequence[Sequence[Any]], width: int, height: int) -> int:
    """A step reaches one further than the cells of its line(s) decided across it (a grid
    step: by anything), and no less than those its own axis decided there."""
    reach = [[0] * width for _ in range(height)]
    axis_of = [[""] * width for _ in range(height)]
    chain = 0
    for _rung, _technique, _openings, axis, index, _clue, cells in compact:
        if axis == "row":
            line = [(index, c) for c in range(width)]
        elif axis == "column":
            line = [(r, index) for r in range(height)]
        elif cells:
            line = [(cells[0], c) for c in range(width)] + [(r, cells[1]) for r in range(height)]
        else:
            line = []
        across = [reach[r][c] for r, c in line if axis_of[r][c] and axis_of[r][c] != axis]
        along = [reach[r][c] for r, c in line if axis_of[r][c] == axis]
        level = max([1 + max(across, default=0), *along])
        chain = max(chain, level)
        for position in range(0, len(cells), 2):
            reach[cells[position]][cells[position + 1]] = level
            axis_of[cells[position]][cells[position + 1]] = axis or "grid"
    return chain


@pytest.mark.parametrize("path", LIBRARY, ids=lambda p: p.stem)
def test_the_chain_equals_its_plain_definition_on_the_library(path: Path) -> None:
    for puzzle in formats.read(path):
        graded = grade(puzzle, budget=Budget(seconds=60))
        compact = [compact_step(step) for step in graded.steps]
        expected = reference_chain(compact, puzzle.width, puzzle.height)
        assert work_terms(compact, puzzle.width, puzzle.height).chain == expected
        if graded.solved:
            assert expected >= 1
