"""Measure a picture puzzle: solution count (SAT) and which kind of logic finishes it.

Used by ``bench/draw_library.py`` to set each library puzzle's ``expected`` count and
``difficulty``. The count comes from the SAT peer (:mod:`grader.solver.sat_peer`); the
logic is pure Python on purpose (the reference line solve, independent of the compiled
solver and of the grader), which is fine for a script run once per drawing.

Difficulty ladder, cheapest first:

* ``easy``: the left-right overlap rule alone (for each block, its leftmost and
  rightmost placements consistent with the line; cells both cover are filled, cells no
  block can reach are empty), iterated over rows and columns, finishes the grid;
* ``medium``: the complete line solve (:func:`grader.lines.solve_line`) is needed;
* ``hard``: line logic stalls, probing single cells (filled / empty, each propagated
  with line logic) finishes the grid;
* ``fiendish``: probing stalls too, yet the solution is unique;
* ``ambiguous``: two or more solutions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from grader.lines import reachable_prefixes, solve_line
from grader.model import EMPTY, FILLED, UNKNOWN, Clue, Grid, Puzzle
from grader.solver.sat_peer import count_solutions

LineRule = Callable[[Clue, Sequence[int]], "list[int] | None"]


# -- line logic ------------------------------------------------------------------------
def overlap_line(clue: Clue, cells: Sequence[int]) -> list[int] | None:
    """The left-right overlap rule on one line (weaker than the complete line solve)."""
    n, k = len(cells), len(clue)
    forward = reachable_prefixes(clue, cells)
    if not forward[k][n]:
        return None
    left = _leftmost_starts(clue, cells)
    mirrored = list(reversed(cells))
    right = [
        n - start - length
        for start, length in zip(
            reversed(_leftmost_starts(tuple(reversed(clue)), mirrored)), clue, strict=True
        )
    ]
    result = list(cells)
    reach = [False] * n
    for j, length in enumerate(clue):
        for c in range(right[j], left[j] + length):
            result[c] = FILLED if result[c] != EMPTY else 0
        for c in range(left[j], right[j] + length):
            reach[c] = True
    for c in range(n):
        if not reach[c]:
            result[c] = EMPTY if result[c] != FILLED else 0
    return None if 0 in result else result


def _leftmost_starts(clue: Clue, cells: Sequence[int]) -> list[int]:
    """Block starts of the leftmost placement consistent with the line (assumed to exist)."""
    n, k = len(cells), len(clue)
    suffix = reachable_prefixes(tuple(reversed(clue)), list(reversed(cells)))
    starts: list[int] = []
    position = 0
    for j, length in enumerate(clue):
        for start in range(position, n - length + 1):
            if start > position and cells[start - 1] == FILLED:
                raise AssertionError("inconsistent line passed to _leftmost_starts")
            if EMPTY in cells[start : start + length]:
                continue
            end = start + length
            if end == n:
                fits = j == k - 1
            else:
                fits = cells[end] != FILLED and suffix[k - j - 1][n - end - 1]
            if fits:
                starts.append(start)
                position = end + 1
                break
    return starts


def propagate(puzzle: Puzzle, grid: Grid, rule: LineRule, cache: dict[object, object]) -> bool:
    """Apply ``rule`` to rows and columns until nothing changes; False on a contradiction."""
    cells = grid.cells
    pending = {("r", r) for r in range(puzzle.height)} | {("c", c) for c in range(puzzle.width)}
    while pending:
        kind, index = pending.pop()
        line = cells[index, :] if kind == "r" else cells[:, index]
        clue = puzzle.rows[index] if kind == "r" else puzzle.columns[index]
        key = (rule.__name__, clue, line.tobytes())
        if key not in cache:
            cache[key] = rule(clue, line.tolist())
        result = cache[key]
        if result is None:
            return False
        assert isinstance(result, list)
        for position, state in enumerate(result):
            if state != line[position]:
                line[position] = state
                pending.add(("c", position) if kind == "r" else ("r", position))
    return True


def probe(puzzle: Puzzle, grid: Grid, cache: dict[object, object]) -> bool:
    """Probe unknown cells both ways with line logic until the grid is complete or stuck.

    Returns False on a contradiction (cannot happen for a puzzle that has a solution).
    """
    progress = True
    while progress and not grid.is_complete():
        progress = False
        for r, c in np.argwhere(grid.cells == UNKNOWN).tolist():
            if grid.cells[r, c] != UNKNOWN:
                continue
            outcomes = []
            for state in (FILLED, EMPTY):
                trial = grid.copy()
                trial.cells[r, c] = state
                outcomes.append(trial if propagate(puzzle, trial, solve_line, cache) else None)
            if outcomes[0] is None and outcomes[1] is None:
                return False
            if outcomes[0] is None or outcomes[1] is None:
                survivor = outcomes[1] if outcomes[0] is None else outcomes[0]
                assert survivor is not None
                grid.cells[:] = survivor.cells
            else:
                agreed = outcomes[0].cells == outcomes[1].cells
                changed = agreed & (grid.cells != outcomes[0].cells)
                if not changed.any():
                    continue
                grid.cells[changed] = outcomes[0].cells[changed]
            progress = True
            if not propagate(puzzle, grid, solve_line, cache):
                return False
    return True


@dataclass(frozen=True)
class Measure:
    solutions: int
    difficulty: str
    unknown_after_lines: int  # cells line logic leaves unknown
    unknown_after_probing: int


def measure(puzzle: Puzzle) -> Measure:
    count, _ = count_solutions(puzzle)
    cache: dict[object, object] = {}
    simple = Grid.for_puzzle(puzzle)
    propagate(puzzle, simple, overlap_line, cache)
    grid = Grid.for_puzzle(puzzle)
    propagate(puzzle, grid, solve_line, cache)
    after_lines = grid.unknown_count()
    probe(puzzle, grid, cache)
    after_probing = grid.unknown_count()
    if count >= 2:
        difficulty = "ambiguous"
    elif simple.is_complete():
        difficulty = "easy"
    elif after_lines == 0:
        difficulty = "medium"
    elif after_probing == 0:
        difficulty = "hard"
    else:
        difficulty = "fiendish"
    return Measure(count, difficulty, after_lines, after_probing)
