"""The solver's kernels read as plain Python: CI runs this file once more with
``NUMBA_DISABLE_JIT=1`` (see ``.ci/run``), so what the code says is what it computes.

Small cases only (the kernels are slow uncompiled): each is checked against an answer
found another way (the reference line solve, a brute-force count of solutions).
"""

from __future__ import annotations

import os
from itertools import product

import numpy as np
import pytest

from grader.lines import solve_line
from grader.model import EMPTY, FILLED, UNKNOWN, Puzzle, clue_of, clues_of_picture
from grader.results import Budget
from grader.solver import line_solve, propagate, solve

# the line-cache hashes multiply with wrap-around on purpose (numba's int64 arithmetic)
pytestmark = [
    pytest.mark.nojit,
    pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning"),
]

JIT_OFF = os.environ.get("NUMBA_DISABLE_JIT") == "1"


def _count_solutions(puzzle: Puzzle) -> int:
    count = 0
    for bits in product((False, True), repeat=puzzle.width * puzzle.height):
        picture = np.array(bits, dtype=bool).reshape(puzzle.height, puzzle.width)
        count += clues_of_picture(picture) == (puzzle.rows, puzzle.columns)
    return count


def test_the_mode_is_reported() -> None:
    # not an assertion on speed: says in the log which reading of the kernels ran
    print("kernels uncompiled" if JIT_OFF else "kernels compiled")


@pytest.mark.parametrize("seed", range(3))
def test_line_solve_agrees_with_the_reference(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(60):
        n = int(rng.integers(1, 16))
        picture = rng.random(n) < 0.55
        clue = clue_of(picture.tolist())
        cells = np.where(picture, FILLED, EMPTY).astype(np.uint8)
        cells[rng.random(n) < 0.7] = UNKNOWN
        if rng.random() < 0.2:  # sometimes a line that cannot hold its clue
            cells[int(rng.integers(n))] = rng.choice([EMPTY, FILLED])
        expected = solve_line(clue, [int(v) for v in cells])
        got = line_solve(clue, cells)
        assert (None if got is None else [int(v) for v in got]) == expected


@pytest.mark.parametrize("seed", range(4))
def test_solve_counts_like_brute_force(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    for _ in range(5):
        height, width = (int(v) for v in rng.integers(2, 5, size=2))
        puzzle = Puzzle.from_picture(rng.random((height, width)) < 0.5)
        expected = min(_count_solutions(puzzle), 2)
        result = solve(puzzle, limit=2, budget=Budget(seconds=None))
        assert result.verdict == ("none", "unique", "multiple")[expected]
        for solution in result.solutions:
            assert clues_of_picture(solution) == (puzzle.rows, puzzle.columns)


def test_search_below_line_logic_and_a_contradiction() -> None:
    # a 7x7 that line logic cannot finish: probing and the conflict search take over
    fiendish = Puzzle.from_picture(
        [".##.#.#", "#...###", "###.###", "...##..", ".#####.", "#####.#", "#..#..#"]
    )
    blank = np.full((7, 7), UNKNOWN, dtype=np.uint8)
    settled = propagate(fiendish, blank)
    assert settled is not None and (settled == UNKNOWN).any()
    result = solve(fiendish, budget=Budget(seconds=None))
    assert result.verdict == "unique"
    assert np.array_equal(result.solutions[0], fiendish.solution_array())
    impossible = Puzzle(rows=((2,), ()), columns=((1,), (), (1,)))
    assert solve(impossible, budget=Budget(seconds=None)).verdict == "none"
