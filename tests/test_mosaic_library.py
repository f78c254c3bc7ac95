"""The bundled mosaics (puzzles/mosaic/, made by bench/draw_mosaics.py): each has one
solution, the picture it records, and grades as a difficulty."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import grader.mosaic as mosaic
from grader.results import Budget

FOLDER = Path(__file__).resolve().parents[1] / "puzzles" / "mosaic"


@pytest.mark.parametrize("path", sorted(FOLDER.glob("*.yaml")), ids=lambda p: p.stem)
def test_each_bundled_mosaic_is_unique_and_graded(path: Path) -> None:
    (puzzle,) = mosaic.read(path)
    assert puzzle.meta.title and puzzle.solution is not None
    result = mosaic.check(puzzle, budget=Budget(seconds=30))
    assert result.verdict == "unique"
    assert np.array_equal(result.solutions[0], puzzle.solution_array())
    graded = mosaic.grade(puzzle, Budget(seconds=60))
    assert graded.graded and graded.level in ("easy", "medium", "hard")


def test_the_set_is_there() -> None:
    assert len(list(FOLDER.glob("*.yaml"))) >= 5
