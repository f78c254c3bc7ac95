"""The puzzle model refuses nonsense on construction, with specific errors."""

from __future__ import annotations

import numpy as np
import pytest

from grader.errors import PuzzleError
from grader.model import (
    EMPTY,
    FILLED,
    MAX_SIDE,
    UNKNOWN,
    Grid,
    Metadata,
    Puzzle,
    check_size,
    clue_length,
    clue_of,
    normalise_clue,
)


def test_valid_puzzle_and_derived_values() -> None:
    puzzle = Puzzle(((2,), (1, 1)), ((2,), (1,), (1,)), ("##.", "#.#"), Metadata(title="T"))
    assert (puzzle.width, puzzle.height, puzzle.size, puzzle.title) == (3, 2, "3x2", "T")
    picture = puzzle.solution_array()
    assert picture is not None and picture.tolist() == [[True, True, False], [True, False, True]]


def test_lone_zero_means_empty_line() -> None:
    puzzle = Puzzle(((0,), (1,)), ((1,), ()))
    assert puzzle.rows == ((), (1,))


@pytest.mark.parametrize(
    ("rows", "columns", "message"),
    [
        (((3,),), ((1,), (1,)), "row 1 clue 3 needs 3 cells but the line has 2"),
        (((1, 1),), ((1,), (1,)), "row 1 clue 1 1 needs 3 cells"),
        (((1,), (1,)), ((2, 1),), "column 1 clue 2 1 needs 4 cells but the line has 2"),
        (((1,), (1,)), ((1,), ()), "row clues fill 2 cells but column clues fill 1"),
        (((-1,),), ((1,),), "negative number -1"),
        (((1.5,),), ((1,),), "is not a whole number"),
        ((("1",),), ((1,),), "is not a whole number"),
        (((True,),), ((1,),), "is not a whole number"),
        (((1, 0),), ((1,), ()), "0 can only stand alone"),
        ((), ((1,),), "height must be at least 1"),
        (((1,),), (), "width must be at least 1"),
    ],
)
def test_invalid_puzzles_are_refused(
    rows: tuple[tuple[object, ...], ...], columns: tuple[tuple[object, ...], ...], message: str
) -> None:
    with pytest.raises(PuzzleError, match=message):
        Puzzle(rows, columns)  # type: ignore[arg-type]


def test_solution_must_match_clues_and_shape() -> None:
    with pytest.raises(PuzzleError, match="does not satisfy the clues"):
        Puzzle(((1,),), ((1,), ()), (".#",))
    with pytest.raises(PuzzleError, match="is not 2x1"):
        Puzzle(((1,),), ((1,), ()), ("#",))
    with pytest.raises(PuzzleError, match=r"only '#' and '\.'"):
        Puzzle(((1,),), ((1,), ()), ("#?",))


def test_a_goal_that_disagrees_with_its_clues_names_the_lines() -> None:
    # the clues of a plus sign, the goal picture of an x: rows 1, 2, 4, 5 and columns
    # 1, 2, 4, 5 disagree, the middle ones agree
    plus = Puzzle.from_picture(["..#..", "..#..", "#####", "..#..", "..#.."])
    cross = ("#...#", ".#.#.", "..#..", ".#.#.", "#...#")
    with pytest.raises(PuzzleError) as caught:
        Puzzle(plus.rows, plus.columns, cross)
    assert str(caught.value) == (
        "the known solution does not satisfy the clues of row 1 (clue 1, picture 1 1), "
        "row 2 (clue 1, picture 1 1), row 3 (clue 5, picture 1), row 4 (clue 1, picture 1 1), "
        "row 5 (clue 1, picture 1 1), column 1 (clue 1, picture 1 1) and 4 more"
    )


@pytest.mark.parametrize(
    ("width", "height", "message"),
    [
        (0, 5, "width must be at least 1"),
        (5, -1, "height must be at least 1"),
        (10**9, 10**9, "larger than the limit"),
        (MAX_SIDE + 1, 1, "larger than the limit"),
        (4096, 4096, "more than"),
        (2.0, 2, "must be a whole number"),
        (True, 2, "must be a whole number"),
    ],
)
def test_check_size_refuses_empty_and_absurd(width: object, height: object,
                                            message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        check_size(width, height)  # type: ignore[arg-type]


def test_absurd_grid_is_refused_before_allocation() -> None:
    with pytest.raises(PuzzleError):
        Grid.unknown(10**9, 10**9)
    with pytest.raises(PuzzleError):
        Puzzle.from_picture(np.zeros((0, 3), dtype=bool))


def test_clue_helpers() -> None:
    assert clue_of([True, True, False, True]) == (2, 1)
    assert clue_of([False, False]) == ()
    assert clue_length((3, 1, 2)) == 8 and clue_length(()) == 0
    assert normalise_clue([0]) == () and normalise_clue(np.array([2, 3])) == (2, 3)


def test_from_picture_derives_clues() -> None:
    puzzle = Puzzle.from_picture(["#.#", "###"])
    assert puzzle.rows == ((1, 1), (3,)) and puzzle.columns == ((2,), (1,), (2,))
    assert puzzle.solution == ("#.#", "###")


def test_puzzle_is_immutable_and_hashable_by_value() -> None:
    a = Puzzle.from_picture(["#."])
    b = Puzzle.from_picture(["#."])
    assert a == b and hash(a) == hash(b) and a.key() == b.key()
    with pytest.raises(AttributeError):
        a.rows = ()  # type: ignore[misc]
    assert a.with_meta(title="x").key() == a.key()  # the key ignores metadata


def test_grid_states() -> None:
    grid = Grid.from_rows(["#.?", "..#"])
    assert grid.cells.tolist() == [[FILLED, EMPTY, UNKNOWN], [EMPTY, EMPTY, FILLED]]
    assert grid.to_rows() == ["#.?", "..#"] and grid.unknown_count() == 1
    assert not grid.is_complete()
    with pytest.raises(PuzzleError):
        Grid.from_rows(["#x"])
