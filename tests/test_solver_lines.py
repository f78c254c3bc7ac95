"""The compiled line solve and propagation against the reference line solver."""

from __future__ import annotations

import random

import numpy as np
import pytest

from grader.lines import random_line, solve_line
from grader.model import EMPTY, FILLED, UNKNOWN, Grid, Puzzle
from grader.solver import line_solve, propagate


@pytest.mark.parametrize("seed", range(4))
def test_compiled_agrees_with_reference(seed: int) -> None:
    # 4 x 5,000 = 20,000 random lines of 1-200 cells; bench/check_lines.py runs a million
    rng = random.Random(1000 + seed)
    contradictions = 0
    for _ in range(5_000):
        clue, cells = random_line(rng, 200)
        expected = solve_line(clue, cells)
        got = line_solve(clue, np.array(cells, dtype=np.uint8))
        if expected is None:
            contradictions += 1
            assert got is None, (clue, cells)
        else:
            assert got is not None and got.tolist() == expected, (clue, cells)
    assert 200 < contradictions < 4_800


def _assert_same_as_reference(clue: tuple[int, ...], cells: list[int]) -> None:
    expected = solve_line(clue, cells)
    got = line_solve(clue, np.array(cells, dtype=np.uint8))
    if expected is None:
        assert got is None, (clue, cells)
    else:
        assert got is not None and got.tolist() == expected, (clue, cells)


@pytest.mark.parametrize("seed", range(2))
def test_bit_parallel_solve_agrees_with_reference(seed: int) -> None:
    # lines of up to 64 cells: the bit-parallel solve below 63, the table above it
    rng = random.Random(2000 + seed)
    lengths: set[int] = set()
    for _ in range(5_000):
        clue, cells = random_line(rng, 64)
        lengths.add(len(cells))
        _assert_same_as_reference(clue, cells)
    assert {1, 62, 63} <= lengths


def test_bit_parallel_solve_at_its_longest_line() -> None:
    # 62 cells fill the word but for its sign bit: one block over the whole line
    whole = line_solve((62,), np.full(62, UNKNOWN, dtype=np.uint8))
    assert whole is not None and (whole == FILLED).all()
    ends = np.full(62, UNKNOWN, dtype=np.uint8)
    ends[0] = ends[61] = FILLED
    got = line_solve((1, 1), ends)
    assert got is not None
    assert got.tolist() == [FILLED] + [EMPTY] * 60 + [FILLED]
    assert line_solve((31, 31), np.full(62, UNKNOWN, dtype=np.uint8)) is None


def test_line_solve_leaves_input_alone() -> None:
    cells = np.full(5, UNKNOWN, dtype=np.uint8)
    result = line_solve((4,), cells)
    assert result is not None
    assert result.tolist() == [UNKNOWN, FILLED, FILLED, FILLED, UNKNOWN]
    assert (cells == UNKNOWN).all()


def test_line_solve_empty_clue_and_contradiction() -> None:
    assert line_solve((), np.full(3, UNKNOWN, dtype=np.uint8)).tolist() == [EMPTY] * 3  # type: ignore[union-attr]
    assert line_solve((), np.array([FILLED], dtype=np.uint8)) is None


def test_propagate_reaches_line_fixed_point() -> None:
    picture = ["#####", "#...#", "#.#.#", "#...#", "#####"]
    puzzle = Puzzle.from_picture(picture)
    blank = Grid.for_puzzle(puzzle).cells
    result = propagate(puzzle, blank)
    assert result is not None
    assert Grid(result).to_rows() == picture
    assert (blank == UNKNOWN).all()  # works on a copy


def test_propagate_stops_where_line_logic_stops() -> None:
    puzzle = Puzzle.from_picture(["#.", ".#"])  # two solutions: nothing to deduce
    result = propagate(puzzle, Grid.for_puzzle(puzzle).cells)
    assert result is not None and (result == UNKNOWN).all()


def test_propagate_reports_contradiction() -> None:
    puzzle = Puzzle.from_picture(["#.", ".#"])
    grid = Grid.from_rows(["##", "??"]).cells
    assert propagate(puzzle, grid) is None


def test_line_solve_on_masks_agrees_with_the_cells_version_cached_or_not() -> None:
    from grader.solver import kernels

    rng = random.Random(7)
    keys = np.zeros((4, 3), dtype=np.int64)  # a tiny table: slots are shared and replaced
    values = np.zeros((4, 2), dtype=np.int64)
    counters = np.zeros(3, dtype=np.int64)
    scratch = np.zeros((3, 64), dtype=np.int64)
    asked = []
    for _ in range(600):
        clue, cells = random_line(rng, 62)
        asked.append((clue, cells))
    for number in range(1200):  # each line twice in a row: the second answer is the cached one
        line = number // 2
        clue, cells = asked[line]
        n = len(cells)
        blocks = np.array(clue or [0], dtype=np.int64)
        filled, empty = kernels.line_masks(np.array(cells, dtype=np.uint8), n)
        expected = solve_line(clue, cells)
        got = kernels.cached_solve_masks(line, blocks, len(clue), n, filled, empty,
                                         scratch[0], scratch[1], scratch[2], counters,
                                         keys, values)
        ok, can_fill, can_empty = got
        assert ok == (expected is not None), (clue, cells)
        if expected is not None:
            states = [((can_empty >> i) & 1) | (((can_fill >> i) & 1) << 1) for i in range(n)]
            assert states == expected, (clue, cells)
    assert counters[0] == 1200 and counters[1] == 600


def test_wide_cache_answers_as_the_line_solve_does() -> None:
    # a grid with lines over 52 cells keys its cache by five words: every line of up to
    # 128 cells is cached (the second ask of each is a hit), longer ones are solved each time
    from grader.solver import kernels

    rng = random.Random(11)
    keys = np.zeros((4, kernels.WIDE_KEY_WORDS), dtype=np.uint64)  # tiny: slots replaced
    values = np.zeros((4, kernels.WIDE_KEY_WORDS - 1), dtype=np.uint64)
    counters = np.zeros(3, dtype=np.int64)
    longest = 140
    fwd = np.zeros((longest + 1, longest + 1), dtype=np.uint8)
    bwd = np.zeros_like(fwd)
    empties = np.zeros(longest + 1, dtype=np.int64)
    marks = np.zeros(2 * (longest + 2), dtype=np.int64)
    out = np.zeros(longest, dtype=np.uint8)
    asked = [random_line(rng, longest) for _ in range(500)]
    cacheable = 0
    for number in range(3 * len(asked)):
        # each line twice (the second a hit), then its cells under another line number (a miss)
        clue, cells = asked[number // 3]
        line = number // 3 + (rng.randrange(1_000, 9_000) if number % 3 == 2 else 0)
        n = len(cells)
        cacheable += n <= kernels.WIDE_CACHE_MAX_LENGTH and number % 3 == 1
        blocks = np.array([*clue, 0], dtype=np.int64)
        expected = solve_line(clue, cells)
        ok = kernels.cached_solve(line, blocks, len(clue), np.array(cells, dtype=np.uint8), n,
                                  out, fwd, bwd, empties, marks, counters, keys, values)
        assert ok == (expected is not None), (clue, cells)
        if expected is not None:
            assert out[:n].tolist() == expected, (clue, cells)
    assert counters[0] == 3 * len(asked)
    assert counters[1] == cacheable and cacheable > 400


def _line_of_about(rng: random.Random, n: int) -> tuple[tuple[int, ...], list[int]]:
    while True:
        clue, cells = random_line(rng, n)
        if len(cells) >= n - 3:
            return tuple(clue), cells


@pytest.mark.parametrize("seed", range(2))
def test_one_word_two_word_and_table_solves_agree_with_reference(seed: int) -> None:
    # around every boundary: one word (up to 62), two words (63-125), tables (126 and up)
    rng = random.Random(3000 + seed)
    for n in [*range(60, 68), *range(122, 132), 189, 190, 253]:
        for _ in range(40):
            clue, cells = _line_of_about(rng, n)
            _assert_same_as_reference(clue, cells)


@pytest.mark.parametrize("n", [63, 125, 126, 200])
def test_blocks_across_word_boundaries(n: int) -> None:
    # a block longer than half the line overlaps itself in the middle, across the words
    length = n - 26
    got = line_solve((length,), np.full(n, UNKNOWN, dtype=np.uint8))
    assert got is not None
    assert got.tolist() == [UNKNOWN] * 26 + [FILLED] * (n - 52) + [UNKNOWN] * 26
    ends = np.full(n, UNKNOWN, dtype=np.uint8)
    ends[0] = ends[n - 1] = FILLED
    both = line_solve((1, 1), ends)
    assert both is not None and both.tolist() == [FILLED] + [EMPTY] * (n - 2) + [FILLED]


def test_two_word_solve_with_the_most_blocks_a_line_holds() -> None:
    # 32 single cells in 63: the two-word solve's rows use all of its scratch
    n = 63
    got = line_solve((1,) * 32, np.full(n, UNKNOWN, dtype=np.uint8))
    assert got is not None and got.tolist() == [FILLED, EMPTY] * 31 + [FILLED]
    _assert_same_as_reference((1,) * 31, [UNKNOWN] * n)


def test_table_solve_agrees_with_reference() -> None:
    from grader.solver import kernels

    rng = random.Random(11)
    for _ in range(300):
        clue, cells = _line_of_about(rng, 150)
        n, k = len(cells), len(clue)
        out = np.zeros(n, dtype=np.uint8)
        tables = [np.zeros((k + 1, n + 1), dtype=np.uint8) for _ in range(2)]
        marks = np.zeros(2 * (n + 1), dtype=np.int64)  # the table's own needs only
        ok = kernels.solve_line_table(np.array(clue or [0], dtype=np.int64), k,
                                     np.array(cells, dtype=np.uint8), n, out, tables[0],
                                     tables[1], np.zeros(n + 1, dtype=np.int64), marks)
        expected = solve_line(clue, cells)
        assert ok == (expected is not None)
        if expected is not None:
            assert out.tolist() == expected
