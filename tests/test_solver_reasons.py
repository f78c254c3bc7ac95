"""Line explanations (grader.solver.reasons) against the reference line solve.

An explanation is sound when its premises alone, every other cell of the line unknown,
still force the deduction (or still contradict the clue).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import pytest

from grader.lines import random_line, solve_line
from grader.model import UNKNOWN, clue_table
from grader.solver.bundles import LineWork
from grader.solver.reasons import explain_line, wide_scratch_shape


class Explained:
    """explain_line's answer on one line: the premises (UNKNOWN elsewhere), which known
    cells were free (level 0 or already in the clause: kept whatever they are worth), and
    the others, latest on the trail first."""

    def __init__(self, premises: list[int], free: set[int], latest_first: list[int]):
        self.premises = premises
        self.free = free
        self.latest_first = latest_first


def _explain(clue: Sequence[int], cells: Sequence[int], target: int,
             rng: random.Random) -> Explained:
    """explain_line on a one-row grid holding ``cells``; cell ``target`` (-1: a conflict)
    is the deduction. The known cells get a random trail order and levels, some of them
    free."""
    n = len(cells)
    grid = np.array([cells], dtype=np.uint8)
    clues, nclues = clue_table([tuple(clue)] + [()] * n)
    known_cells = [i for i in range(n) if cells[i] != UNKNOWN and i != target]
    rng.shuffle(known_cells)
    trail_pos = np.zeros(n, dtype=np.int64)
    level = np.zeros(n, dtype=np.int64)
    seen = np.zeros(n, dtype=np.uint8)
    free = set()
    for position, i in enumerate(known_cells):
        trail_pos[i] = position
        level[i] = 1 + position // 3
        draw = rng.random()
        if draw < 0.1:
            level[i] = 0
            free.add(i)
        elif draw < 0.2:
            seen[i] = 1
            free.add(i)
    reason_pos = np.zeros(n, dtype=np.int64)
    if target >= 0:
        trail_pos[target] = reason_pos[target] = len(known_cells)
        level[target] = 1 + len(known_cells) // 3
    blocks = max(len(clue), 1)
    lw = LineWork(
        clues, nclues, np.zeros(n, dtype=np.uint8), np.zeros(n, dtype=np.uint8),
        np.zeros((blocks + 1, n + 1), dtype=np.uint8),
        np.zeros((blocks + 1, n + 1), dtype=np.uint8), np.zeros(n + 1, dtype=np.int64),
        np.zeros(2 * (n + 1), dtype=np.int64), np.zeros(3, dtype=np.int64),
        np.zeros((1, 2), dtype=np.uint64), np.zeros((1, 2), dtype=np.uint64),
        np.zeros((1, 3), dtype=np.int64), np.zeros((1, 2), dtype=np.int64),
        np.zeros(wide_scratch_shape(n), dtype=np.int64),
    )
    order = np.zeros(n, dtype=np.int64)
    explain_line(0, target, grid, 1, n, reason_pos, trail_pos, lw, order, level, seen)
    costly = [i for i in reversed(known_cells) if i not in free]
    return Explained(lw.line_in[:n].tolist(), free, costly)


def _forces(clue: Sequence[int], line: list[int], target: int, value: int) -> bool:
    """The line alone contradicts the clue, or forces cell ``target`` to ``value``."""
    narrowed = solve_line(clue, line)
    return narrowed is None or (target >= 0 and narrowed[target] == value)


def _check_one(clue: Sequence[int], cells: list[int], rng: random.Random) -> str:
    """Explain one deduction (or the contradiction) of a random line; which case it was."""
    n = len(cells)
    solved = solve_line(clue, cells)
    target, value, case = -1, UNKNOWN, "conflict"
    line = list(cells)
    if solved is not None:
        deduced = [i for i in range(n) if cells[i] == UNKNOWN and solved[i] != UNKNOWN]
        if not deduced:
            return "nothing"
        target = rng.choice(deduced)
        value = solved[target]
        line[target] = value  # the grid holds the deduced value; the premises must force it
        case = "deduction"
    explained = _explain(clue, line, target, rng)
    premises = explained.premises
    # sound: the premises alone force the deduction
    assert _forces(clue, premises, target, value), (clue, cells, target, premises)
    # premises are known cells with their values; the target is not one of them
    assert all(p in (UNKNOWN, c) for p, c in zip(premises, cells, strict=True))
    assert sum(p != UNKNOWN for p in premises) <= sum(c != UNKNOWN for c in cells)
    # the same explanation as dropping premises one at a time, latest first, while the
    # reference line solve still forces the deduction
    expected = list(line)
    if target >= 0:
        expected[target] = UNKNOWN
    for i in explained.latest_first:
        expected[i] = UNKNOWN
        if not _forces(clue, expected, target, value):
            expected[i] = cells[i]
    assert premises == expected, (clue, cells, target, premises, expected)
    # free cells are all kept; of the others, none could go
    for i in range(n):
        if cells[i] == UNKNOWN:
            continue
        if i in explained.free:
            assert premises[i] == cells[i]
        elif premises[i] != UNKNOWN:
            fewer = list(premises)
            fewer[i] = UNKNOWN
            assert not _forces(clue, fewer, target, value), (clue, cells, target, premises, i)
    return case


@pytest.mark.parametrize(("seed", "longest", "lines"),
                         [(0, 64, 3_000), (1, 64, 3_000), (2, 64, 3_000), (3, 200, 600),
                          (4, 124, 1_500)])
def test_explanations_are_sound_and_minimal(seed: int, longest: int, lines: int) -> None:
    # random lines of 1-64 cells: one word of automaton states up to 61 cells, two beyond;
    # fewer of up to 124 cells (two words of states, or more for a dense clue) and of up
    # to 200 cells (up to four words)
    rng = random.Random(3000 + seed)
    cases = {"conflict": 0, "deduction": 0, "nothing": 0}
    for _ in range(lines):
        clue, cells = random_line(rng, longest)
        cases[_check_one(clue, cells, rng)] += 1
    assert cases["conflict"] > lines // 10 and cases["deduction"] > lines // 10, cases
