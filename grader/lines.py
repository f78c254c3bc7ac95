"""One-line logic, the readable reference version.

A line is a sequence of cell states (``EMPTY``, ``FILLED``, ``UNKNOWN`` from
:mod:`grader.model`) and a clue. :func:`solve_line` returns everything the line implies
on its own (the complete line solve), or ``None`` when no placement of the clue fits.
The compiled solver must agree with this module; tests compare both against
:func:`brute_force_line`, which enumerates every placement.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from grader.model import EMPTY, FILLED, UNKNOWN, Clue, clue_of

if TYPE_CHECKING:
    import random

Cells = Sequence[int]


def _prefix_counts(cells: Cells, state: int) -> list[int]:
    """counts[i] = how many of cells[0:i] are exactly ``state``."""
    counts = [0]
    for cell in cells:
        counts.append(counts[-1] + (cell == state))
    return counts


def reachable_prefixes(clue: Clue, cells: Cells) -> list[list[bool]]:
    """fits[j][i]: the first j blocks can be placed in cells[0:i], every other cell empty.

    Cell i-1 is either empty or the last cell of block j-1; the cell after a block is
    handled by the transition that places the block (it must be able to be empty).
    """
    n, k = len(cells), len(clue)
    empties = _prefix_counts(cells, EMPTY)
    fits = [[False] * (n + 1) for _ in range(k + 1)]
    fits[0][0] = True
    for i in range(1, n + 1):
        fits[0][i] = fits[0][i - 1] and cells[i - 1] != FILLED
    for j in range(1, k + 1):
        length = clue[j - 1]
        for i in range(1, n + 1):
            # cell i-1 left empty after the first j blocks
            if cells[i - 1] != FILLED and fits[j][i - 1]:
                fits[j][i] = True
                continue
            # block j-1 occupies cells[i-length:i]
            start = i - length
            if start < 0 or empties[i] - empties[start]:
                continue
            if j == 1:
                fits[j][i] = fits[0][start]
            else:
                fits[j][i] = start >= 1 and cells[start - 1] != FILLED and fits[j - 1][start - 1]
    return fits


def solve_line(clue: Clue, cells: Cells) -> list[int] | None:
    """The complete line solve: each cell narrowed to what some valid placement allows.

    Returns the new cell states (a list of the same length), or ``None`` when the clue
    cannot be placed in the line at all.
    """
    n, k = len(cells), len(clue)
    forward = reachable_prefixes(clue, cells)
    if not forward[k][n]:
        return None
    # The backward pass is the forward pass over the mirrored line and clue.
    mirrored = reachable_prefixes(tuple(reversed(clue)), list(reversed(cells)))

    def suffix_fits(j: int, i: int) -> bool:
        """Blocks j..k-1 can be placed in cells[i:n]."""
        return mirrored[k - j][n - i]

    can_be_empty = [False] * n
    can_be_filled = [False] * n
    for c in range(n):
        if cells[c] != FILLED:
            can_be_empty[c] = any(forward[j][c] and suffix_fits(j, c + 1) for j in range(k + 1))
    empties = _prefix_counts(cells, EMPTY)
    for j, length in enumerate(clue):
        for start in range(n - length + 1):
            end = start + length
            if empties[end] - empties[start]:
                continue
            if j == 0:
                left_ok = forward[0][start]
            else:
                left_ok = start >= 1 and cells[start - 1] != FILLED and forward[j][start - 1]
            if not left_ok:
                continue
            if j == k - 1:
                right_ok = suffix_fits(k, end)
            else:
                right_ok = end < n and cells[end] != FILLED and suffix_fits(j + 1, end + 1)
            if right_ok:
                for c in range(start, end):
                    can_be_filled[c] = True
    result = []
    for c in range(n):
        state = (EMPTY if can_be_empty[c] else 0) | (FILLED if can_be_filled[c] else 0)
        if state == 0:
            return None
        result.append(state)
    return result


def placements(clue: Clue, length: int) -> Iterator[tuple[int, ...]]:
    """Every tuple of block start positions that fits ``clue`` into ``length`` cells."""
    k = len(clue)
    slack = length - (sum(clue) + max(k - 1, 0))
    if slack < 0:
        return
    if k == 0:
        yield ()
        return
    # Choose where the k blocks sit among k + slack "slots" (stars and bars).
    for chosen in combinations(range(k + slack), k):
        # a slot is either a block or one spare cell; convert slots to cell positions
        position = 0
        starts = []
        previous_slot = -1
        for j, slot in enumerate(chosen):
            position += slot - previous_slot - 1  # spare cells before this block
            starts.append(position)
            position += clue[j] + 1
            previous_slot = slot
        yield tuple(starts)


def render_placement(clue: Clue, starts: Sequence[int], length: int) -> list[int]:
    line = [EMPTY] * length
    for block, start in zip(clue, starts, strict=True):
        for c in range(start, start + block):
            line[c] = FILLED
    return line


def brute_force_line(clue: Clue, cells: Cells) -> list[int] | None:
    """The complete line solve by enumerating every placement: slow, obviously right."""
    n = len(cells)
    union = [0] * n
    found = False
    for starts in placements(clue, n):
        line = render_placement(clue, starts, n)
        if all(line[c] & cells[c] for c in range(n)):
            found = True
            for c in range(n):
                union[c] |= line[c]
    return union if found else None


def is_solved_line(clue: Clue, cells: Cells) -> bool:
    """True when the line holds no unknown cell and its filled runs are exactly ``clue``."""
    if UNKNOWN in cells:
        return False
    runs: list[int] = []
    run = 0
    for cell in cells:
        if cell == FILLED:
            run += 1
        elif run:
            runs.append(run)
            run = 0
    if run:
        runs.append(run)
    return tuple(runs) == tuple(clue)


def random_line(rng: random.Random, max_length: int) -> tuple[Clue, list[int]]:
    """A random clue and partial line of 1..max_length cells, for cross-checking solvers.

    Half are a random picture's clue with some cells revealed (one sometimes flipped, which
    may contradict); half are an arbitrary clue over random cells (often contradictory).
    """
    n = rng.randint(1, max_length)
    if rng.random() < 0.5:
        density = rng.uniform(0.2, 0.8)
        picture = [rng.random() < density for _ in range(n)]
        clue = clue_of(picture)
        reveal = rng.uniform(0.0, 0.6)
        cells = [
            (FILLED if filled else EMPTY) if rng.random() < reveal else UNKNOWN
            for filled in picture
        ]
        if rng.random() < 0.3:
            i = rng.randrange(n)
            cells[i] = EMPTY if cells[i] == FILLED else FILLED
        return clue, cells
    k = rng.randint(0, max(1, n // 3))
    clue = tuple(rng.randint(1, max(1, n // max(k, 1))) for _ in range(k))
    known = rng.uniform(0.0, 0.4)
    cells = [rng.choice((EMPTY, FILLED)) if rng.random() < known else UNKNOWN for _ in range(n)]
    return clue, cells
