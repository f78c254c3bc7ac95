"""Picture -> mosaic: unique, at the level asked, with irredundant clues."""

from __future__ import annotations

import numpy as np
import pytest

from grader.errors import PuzzleError
from grader.mosaic.making import finishes, generate, level_for_stars, make, top_rung
from grader.mosaic.solver import solve
from grader.mosaic_model import MosaicPuzzle

HEART = [".##.##.", "#######", ".#####.", "..###..", "...#..."]


def picture(rows: list[str]) -> np.ndarray:
    return np.array([[ch == "#" for ch in row] for row in rows], dtype=bool)


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_the_picture_is_the_unique_solution_at_the_level_asked(level: str) -> None:
    made = make(picture(HEART), level)
    assert made.grade.verdict == "unique"
    assert made.puzzle.solution == tuple(HEART)
    result = solve(made.puzzle)
    assert result.verdict == "unique" and np.array_equal(result.solutions[0], picture(HEART))
    assert made.reached or made.grade.level in ("easy", "medium")
    assert made.grade.level in ("easy", "medium", level)
    assert made.puzzle.clue_count() < made.clues_total


def test_every_clue_left_is_needed_at_that_level() -> None:
    made = make(picture(HEART), "medium")
    top = top_rung("medium")
    assert finishes(made.puzzle, top)
    shown = made.puzzle.clue_array() >= 0
    for r, c in zip(*np.nonzero(shown), strict=True):
        fewer = shown.copy()
        fewer[r, c] = False
        assert not finishes(made.puzzle.with_clues(fewer), top)


def test_every_clue_when_asked() -> None:
    made = make(picture(HEART), "easy", every_clue=True)
    assert made.puzzle.clue_count() == made.clues_total == 35


def test_cells_change_only_when_no_clue_set_is_unique() -> None:
    # in a 2x2 grid every block is the whole grid: one filled cell could be any of four
    strip = picture(["#.", ".."])
    assert solve(MosaicPuzzle.from_picture(strip)).verdict == "multiple"
    made = make(strip, "easy")
    assert made.changed
    assert made.grade.verdict == "unique"
    assert solve(MosaicPuzzle.from_picture(picture(HEART))).verdict == "unique"
    assert make(picture(HEART), "medium").changed == ()


def test_a_level_every_clue_cannot_reach_is_reported_not_reached() -> None:
    made = make(picture(HEART), "easy")  # every clue shown, the heart needs a comparison
    assert not made.reached and made.grade.level == "medium"
    assert made.grade.verdict == "unique"


def test_stars_name_a_level_on_the_one_scale() -> None:
    assert level_for_stars(1) == "easy"
    assert level_for_stars(3) == "medium"
    assert level_for_stars(5) == "fiendish"
    with pytest.raises(PuzzleError):
        level_for_stars(6)


def test_generation_is_seeded() -> None:
    first, again = generate(8, 6, "medium", seed=3), generate(8, 6, "medium", seed=3)
    assert first.puzzle == again.puzzle and first.puzzle.size == "8x6"
    assert first.grade.verdict == "unique"
