"""The reference line solver against brute-force enumeration of every placement."""

from __future__ import annotations

import random

import pytest

from grader.lines import brute_force_line, is_solved_line, placements, random_line, solve_line
from grader.model import EMPTY, FILLED, UNKNOWN


@pytest.mark.parametrize("seed", range(10))
def test_reference_agrees_with_brute_force(seed: int) -> None:
    # 10 x 10,000 = 100,000 random lines, contradictions included
    rng = random.Random(seed)
    contradictions = 0
    for _ in range(10_000):
        clue, cells = random_line(rng, 12)
        expected = brute_force_line(clue, cells)
        assert solve_line(clue, cells) == expected, (clue, cells)
        contradictions += expected is None
    assert contradictions > 500  # the generator really exercises the None case


def test_solve_line_examples() -> None:
    u, e, f = UNKNOWN, EMPTY, FILLED
    assert solve_line((3,), [u] * 4) == [u, f, f, u]
    assert solve_line((), [u, u]) == [e, e]
    assert solve_line((1, 1), [u, u, u]) == [f, e, f]
    assert solve_line((2,), [u, f, u, u, f]) is None
    assert solve_line((1,), [e, e]) is None
    assert solve_line((4,), [u] * 3) is None


def test_placements_count_stars_and_bars() -> None:
    # k blocks with slack s: C(k + s, k) placements
    assert len(list(placements((1, 1), 5))) == 6
    assert list(placements((), 3)) == [()]
    assert list(placements((3,), 2)) == []


def test_is_solved_line() -> None:
    assert is_solved_line((2,), [EMPTY, FILLED, FILLED])
    assert not is_solved_line((2,), [FILLED, EMPTY, FILLED])
    assert not is_solved_line((1,), [UNKNOWN, FILLED])
