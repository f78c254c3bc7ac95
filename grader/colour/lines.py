"""One colour line on its own: the complete line solve (reference version) and brute force.

A cell is a bit set of what it may still be: bit 0 background, bit c colour c. The
solve walks the line forwards and backwards over (cell, blocks placed) states, with a
flag for "the previous cell ended a block", which is what forbids two touching blocks
of the same colour. It keeps every value some full placement gives a cell. The
compiled version in :mod:`grader.colour.kernels` follows it step by step; the tests
compare the two on random lines and this one with :func:`brute_force_line`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from grader.colour.model import ColourClue, clue_of_line

BACKGROUND_BIT = 1


def bit(colour: int) -> int:
    return 1 << colour


def full_mask(colours: int) -> int:
    """Every value a cell of a K-colour puzzle may take: background and colours 1..K."""
    return (1 << (colours + 1)) - 1


def solve_line(clue: ColourClue, cells: Sequence[int]) -> list[int] | None:
    """Every value each cell can still take in some placement of ``clue`` over ``cells``
    (bit sets); None when no placement fits."""
    placed = _placements(clue, cells)
    if placed is None:
        return None
    background, starts = placed
    result = [BACKGROUND_BIT if b else 0 for b in background]
    for j, (length, colour) in enumerate(clue):
        for start in starts[j]:
            for c in range(start, start + length):
                result[c] |= bit(colour)
    return result


def block_ranges(clue: ColourClue, cells: Sequence[int]) -> list[tuple[int, int]] | None:
    """Each block's first and last possible start over every full placement; None if none."""
    placed = _placements(clue, cells)
    if placed is None:
        return None
    return [(min(starts), max(starts)) for starts in placed[1]]


def _placements(clue: ColourClue, cells: Sequence[int]
                ) -> tuple[list[bool], list[list[int]]] | None:
    """(which cells may be background, each block's possible starts) over every full
    placement of the clue; None when no placement fits."""
    n, k = len(cells), len(clue)
    lengths = [length for length, _ in clue]
    colours = [colour for _, colour in clue]

    def fits(j: int, start: int) -> bool:
        end = start + lengths[j]
        return end <= n and all(cells[i] & bit(colours[j]) for i in range(start, end))

    def touch_ok(j: int) -> bool:  # block j may start right after block j-1 ends
        return j == 0 or colours[j - 1] != colours[j]

    can_bg = [bool(c & BACKGROUND_BIT) for c in cells]
    # forward: free[i][j] = first i cells hold blocks 0..j-1, cell i-1 background (or i=0)
    #          ended[i][j] = the same, block j-1 ending at cell i-1
    free = [[False] * (k + 1) for _ in range(n + 1)]
    ended = [[False] * (k + 1) for _ in range(n + 1)]
    free[0][0] = True
    for i in range(n + 1):
        for j in range(k + 1):
            if not (free[i][j] or ended[i][j]):
                continue
            if i < n and can_bg[i]:
                free[i + 1][j] = True
            if j < k and (free[i][j] or (ended[i][j] and touch_ok(j))) and fits(j, i):
                ended[i + lengths[j]][j + 1] = True
    # backward: after_free[i][j] = cells i.. can hold blocks j..k-1, any block may start at i
    #           after_end[i][j] = the same when block j-1 ended at cell i-1
    after_free = [[False] * (k + 1) for _ in range(n + 2)]
    after_end = [[False] * (k + 1) for _ in range(n + 2)]
    after_free[n][k] = after_end[n][k] = True
    for i in range(n - 1, -1, -1):
        for j in range(k, -1, -1):
            empty = can_bg[i] and after_free[i + 1][j]
            place = j < k and fits(j, i) and after_end[i + lengths[j]][j + 1]
            after_free[i][j] = empty or place
            after_end[i][j] = empty or (place and touch_ok(j))
    if not after_free[0][0]:
        return None
    background = [False] * n
    starts: list[list[int]] = [[] for _ in range(k)]
    for i in range(n + 1):
        for j in range(k + 1):
            if i < n and (free[i][j] or ended[i][j]) and can_bg[i] and after_free[i + 1][j]:
                background[i] = True
            if (j < k and (free[i][j] or (ended[i][j] and touch_ok(j))) and fits(j, i)
                    and after_end[i + lengths[j]][j + 1]):
                starts[j].append(i)
    return background, starts


def brute_force_line(clue: ColourClue, cells: Sequence[int], colours: int
                     ) -> list[int] | None:
    """The same answer by trying every colouring of the line (tiny lines only)."""
    result = [0] * len(cells)
    found = False
    for line in itertools.product(range(colours + 1), repeat=len(cells)):
        if any(not cells[i] & bit(v) for i, v in enumerate(line)):
            continue
        if clue_of_line(line) != clue:
            continue
        found = True
        for i, v in enumerate(line):
            result[i] |= bit(v)
    return result if found else None
