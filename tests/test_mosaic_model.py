"""The mosaic model: clues validated with errors naming row and column."""

from __future__ import annotations

import numpy as np
import pytest

from grader.errors import PuzzleError
from grader.mosaic_model import MosaicPuzzle, block_size, block_sums


def test_block_sizes_are_nine_six_and_four() -> None:
    assert block_size(1, 1, 5, 5) == 9
    assert block_size(0, 2, 5, 5) == 6
    assert block_size(4, 4, 5, 5) == 4
    assert block_size(0, 0, 1, 3) == 2  # a grid one cell high


def test_a_five_in_a_corner_is_refused_naming_its_cell() -> None:
    with pytest.raises(PuzzleError, match=r"row 1, column 1: clue 5 cannot fit its block of 4"):
        MosaicPuzzle.from_rows(["5..", "...", "..."])


def test_a_seven_on_an_edge_names_row_and_column() -> None:
    with pytest.raises(PuzzleError, match=r"row 2, column 3: clue 7 cannot fit its block of 6"):
        MosaicPuzzle.from_rows(["...", "..7", "..."])


def test_ragged_rows_are_refused() -> None:
    with pytest.raises(PuzzleError, match=r"row 3 has 2 cells but row 1 has 3"):
        MosaicPuzzle.from_rows(["...", "...", ".."])


def test_a_non_digit_names_row_and_column() -> None:
    with pytest.raises(PuzzleError, match=r"row 2, column 2: 'x' is neither a digit"):
        MosaicPuzzle.from_rows(["...", ".x.", "..."])


def test_a_known_solution_must_satisfy_the_clues() -> None:
    with pytest.raises(PuzzleError, match=r"row 1, column 1: the known solution fills 1"):
        MosaicPuzzle(((2, None), (None, None)), ("#.", ".."))


def test_from_picture_counts_each_block() -> None:
    picture = np.array([[1, 1, 0], [0, 1, 0], [0, 0, 0]], dtype=bool)
    puzzle = MosaicPuzzle.from_picture(picture)
    assert puzzle.rows_text() == ["332", "332", "111"]
    assert (block_sums(picture) == puzzle.clue_array()).all()
    assert puzzle.satisfied_by(picture)
    assert not puzzle.satisfied_by(~picture)


def test_with_clues_keeps_only_the_shown_ones_and_the_key_follows_the_clues() -> None:
    puzzle = MosaicPuzzle.from_picture(np.eye(3, dtype=bool))
    shown = np.zeros((3, 3), dtype=bool)
    shown[1, 1] = True
    fewer = puzzle.with_clues(shown)
    assert fewer.rows_text() == ["...", ".3.", "..."]
    assert fewer.clue_count() == 1
    assert fewer.key() != puzzle.key()
    assert fewer.with_meta(title="Other").key() == fewer.key()
