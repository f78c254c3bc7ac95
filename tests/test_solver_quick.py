"""The plain-Python line-logic path of the solver: same verdicts, no numba for easy puzzles."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from grader import formats
from grader.model import Puzzle
from grader.results import Budget
from grader.solver.quick import MAX_CELLS, prove_by_line_logic
from grader.solver.search import solve as compiled_solve

LIBRARY = Path(__file__).resolve().parents[1] / "puzzles"
RING = [".###.", "#.#.#", "#####", "#.#.#", ".###."]


def test_line_solvable_puzzle_is_proved_unique_with_its_solution() -> None:
    puzzle = formats.read(LIBRARY / "heart.yaml")[0]
    result = prove_by_line_logic(puzzle, Budget())
    assert result is not None and result.verdict == "unique" and result.complete
    assert np.array_equal(result.solutions[0], puzzle.solution_array())


@pytest.mark.parametrize(
    "picture",
    [
        ["#.", ".#"],  # two solutions: line logic stalls
        ["#..", ".#.", "..#"],  # a permutation: line logic stalls
    ],
)
def test_puzzles_line_logic_cannot_finish_are_handed_over(picture: list[str]) -> None:
    assert prove_by_line_logic(Puzzle.from_picture(picture), Budget()) is None


def test_contradictions_are_left_to_the_compiled_solver() -> None:
    # row 1 is full, so column 2 holds a filled cell, but its clue is empty: no solution
    puzzle = Puzzle(rows=((2,), ()), columns=((2,), ()))
    assert prove_by_line_logic(puzzle, Budget()) is None


def test_large_puzzles_and_spent_budgets_are_handed_over() -> None:
    side = int(MAX_CELLS**0.5) + 1
    big = Puzzle.from_picture(np.ones((side, side), dtype=bool))
    assert prove_by_line_logic(big, Budget()) is None
    assert prove_by_line_logic(Puzzle.from_picture(RING), Budget(seconds=0.0)) is None


@pytest.mark.parametrize("path", sorted(LIBRARY.glob("*.yaml")), ids=lambda p: p.stem)
def test_agrees_with_the_compiled_solver_on_the_library(path: Path) -> None:
    puzzle = formats.read(path)[0]
    quick = prove_by_line_logic(puzzle, Budget())
    compiled = compiled_solve(puzzle, budget=Budget(seconds=60))
    if quick is None:
        return
    assert compiled.verdict == "unique"
    assert np.array_equal(quick.solutions[0], compiled.solutions[0])


def test_first_solution_mode_stops_at_one_and_never_claims_uniqueness() -> None:
    from grader.solver import solve

    # 5 disjoint 2x2 diagonals: 32 solutions, the search must guess
    picture = np.zeros((10, 10), dtype=bool)
    for i in range(5):
        picture[2 * i, 2 * i] = picture[2 * i + 1, 2 * i + 1] = True
    puzzle = Puzzle.from_picture(picture)
    first = solve(puzzle, budget=Budget(seconds=60), first=True)
    assert first.verdict == "solved" and len(first.solutions) == 1
    assert Puzzle.from_picture(first.solutions[0]).rows == puzzle.rows
    assert Puzzle.from_picture(first.solutions[0]).columns == puzzle.columns
    # settled without a guess: that is a proof of uniqueness, so it says so
    heart = formats.read(LIBRARY / "heart.yaml")[0]
    assert solve(heart, first=True).verdict == "unique"
    assert compiled_solve(heart, first=True).verdict == "unique"
    # no solution stays none
    assert solve(Puzzle(rows=((2,), ()), columns=((2,), ())), first=True).verdict == "none"


def test_givens_are_where_line_logic_starts() -> None:
    # two diagonals: ambiguous alone, unique once one cell is printed
    puzzle = Puzzle.from_picture(["#.", ".#"])
    given = puzzle.with_givens([(0, 0, True)])
    result = prove_by_line_logic(given, Budget())
    assert result is not None and result.verdict == "unique"
    assert result.solutions[0].tolist() == [[True, False], [False, True]]
    # a given that contradicts the only solution is never "unique"
    heart = formats.read(LIBRARY / "heart.yaml")[0].with_solution(None)
    wrong = heart.with_givens([(0, 0, not bool(formats.read(LIBRARY / "heart.yaml")[0]
                                                .solution_array()[0, 0]))])
    assert prove_by_line_logic(wrong, Budget()) is None


def test_a_proof_in_plain_python_reads_as_arrays_and_rows_alike() -> None:
    # the quick path holds its solution as rows (no numpy); readers see arrays as ever
    from dataclasses import replace

    from grader.results import PictureRows, SolveResult

    puzzle = formats.read(LIBRARY / "heart.yaml")[0]
    result = prove_by_line_logic(puzzle, Budget())
    assert result is not None
    assert result.solution_rows() == [list(puzzle.solution or ())]
    assert isinstance(result.solutions, tuple) and result.solutions[0].dtype == np.bool_
    assert np.array_equal(result.solutions[0], puzzle.solution_array())
    assert replace(result, nodes=5).solutions[0].shape == (5, 7)
    pair = SolveResult("multiple", PictureRows((((True, False),), ((False, False),))))
    arrays = SolveResult("multiple", (np.array([[True, False]]), np.array([[False, False]])))
    assert pair.differing_cells == arrays.differing_cells == [(0, 0)]
    assert pair.solution_rows() == arrays.solution_rows() == [["#."], [".."]]
    assert pair.solutions[1].tolist() == [[False, False]]
