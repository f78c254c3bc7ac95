"""Steering a mosaic by its clues (grader/mosaic/steering.py, the studio's Make unique,
Easier and Harder): clues of its picture shown or hidden, the picture kept."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from grader import mosaic
from grader.errors import PuzzleError
from grader.mosaic.steering import steer
from grader.mosaic_model import MosaicPuzzle
from grader.results import Budget

ROOT = Path(__file__).resolve().parents[1]


def _read(name: str) -> MosaicPuzzle:
    (puzzle,) = mosaic.read(ROOT / "puzzles" / "mosaic" / name)
    assert isinstance(puzzle, MosaicPuzzle)
    return puzzle


def test_easier_shows_clues_until_the_easy_rungs_finish() -> None:
    cat = _read("cat-picture.yaml")
    assert mosaic.grade(cat).level == "medium"
    steered = steer(cat, "easy", budget=Budget(seconds=60))
    assert steered.reached and steered.grade.level == "easy" and steered.unique
    assert steered.added and not steered.removed and not steered.changed
    assert steered.puzzle.solution == cat.solution
    # the clues it showed are all needed: hiding any one leaves the easy rungs stuck
    from grader.mosaic.making import finishes

    shown = steered.puzzle.clue_array() >= 0
    for r, c in steered.added:
        fewer = shown.copy()
        fewer[r, c] = False
        full = MosaicPuzzle.from_picture(steered.puzzle.solution_array())  # type: ignore[arg-type]
        assert not finishes(full.with_clues(fewer), "completing-clues")


def test_harder_trades_clues_when_none_can_go() -> None:
    heart = _read("heart.yaml")
    before = mosaic.grade(heart)
    steered = steer(heart, "hard", budget=Budget(seconds=60))
    assert steered.unique and steered.grade.score is not None and before.score is not None
    assert steered.grade.score > before.score and steered.added and steered.removed
    assert not steered.reached  # no clue set of the heart needs chains: said, not hidden


def test_clues_no_picture_fits_are_refused() -> None:
    bad = MosaicPuzzle.from_rows(["0..", ".9.", "..."])
    with pytest.raises(PuzzleError, match="no picture"):
        steer(bad)


def test_make_unique_keeps_the_clues_the_editor_kept() -> None:
    heart = _read("heart.yaml")
    shown = heart.clue_array() >= 0
    shown[1, 0] = False  # the 4 at row 2, column 1 taken away
    edited = heart.with_clues(shown)
    steered = steer(edited, budget=Budget(seconds=30))
    assert steered.unique
    kept = edited.clue_array()
    assert np.array_equal(steered.puzzle.clue_array()[kept >= 0], kept[kept >= 0])


def test_make_unique_keeps_to_one_budget_for_all_its_searches() -> None:
    """Make unique proves uniqueness again after every clue it shows: the budget bounds all
    of those searches together, not each one (a 30x30 of noise with a tenth of its clues
    took 85 s against a 1 s budget), and running out is said, never a wrong verdict."""
    import time

    rng = np.random.default_rng(3)
    noise = MosaicPuzzle.from_picture(rng.random((30, 30)) < 0.5, rng.random((30, 30)) < 0.1)
    began = time.monotonic()
    with pytest.raises(PuzzleError, match="in the budget"):
        steer(noise, budget=Budget(seconds=1.0))
    assert time.monotonic() - began < 20
