"""Human techniques on one colour line: they only *find* deductions (the grader applies).

Cells are bit sets (bit 0 background, bit c colour c). The rungs, as people use them on
colour puzzles:

* ``colour-absent`` (simple-boxes rung): a colour the line's clue does not hold is in
  none of its cells; seen across rows and columns this is *colour at the intersection*
  (a cell can only take colours both its row and its column hold). It reports
  ``colour-empty-line`` for a line whose clue is empty and ``colour-at-intersection``
  when it leaves a cell empty: each has its own sentence in the ladder table.
* ``colour-overlap`` (simple-boxes): each block's leftmost and rightmost positions, packed
  with a gap only between neighbours of the *same* colour (blocks of different colours
  may touch); where the two overlap the block's colour is certain
  (``colour-overlap-touching`` when the clue has blocks of different colours side by side,
  whose sentence says they need no gap).
* ``colour-reach`` (simple-boxes): a cell no block of colour c can reach is not c; a cell
  no block reaches at all is background.
* ``colour-extreme-owners`` (extreme-owners): push the blocks as far left and as far right
  as they go while every cell already known to be coloured is covered by a block of its
  colour; each block's overlap between the two is certain, cells no block of a colour
  reaches lose that colour.
* ``colour-line-analysis`` (line-analysis): everything the line implies on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from grader.colour.lines import BACKGROUND_BIT, bit, block_ranges, solve_line
from grader.colour.model import ColourClue
from grader.errors import Contradiction


@dataclass(frozen=True)
class ColourDeduction:
    """Cells one line decides: ``changes`` are (position, new bit set); ``facts`` what the
    sentence needs."""

    technique: str
    changes: tuple[tuple[int, int], ...]
    facts: dict[str, object]


def _changed(before: Sequence[int], after: Sequence[int]) -> tuple[tuple[int, int], ...]:
    return tuple((i, new) for i, (old, new) in enumerate(zip(before, after, strict=True))
                 if new != old)


def colour_absent(clue: ColourClue, cells: Sequence[int], colours: int
                  ) -> ColourDeduction | None:
    present = {c for _, c in clue}
    absent = [c for c in range(1, colours + 1) if c not in present]
    if not absent:
        return None
    keep = ~sum(bit(c) for c in absent)
    after = [v & keep for v in cells]
    changes = _changed(cells, after)
    if not changes:
        return None
    if any(v == 0 for v in after):
        raise Contradiction("a cell can take no colour its row and its column both hold")
    name = ("colour-empty-line" if not clue
            else "colour-at-intersection" if any(v == BACKGROUND_BIT for _, v in changes)
            else "colour-absent")
    return ColourDeduction(name, changes, {"absent": absent})


def packed_extremes(clue: ColourClue, cells: Sequence[int]) -> tuple[list[int], list[int]]:
    """Each block's leftmost and rightmost start, packing blocks without looking at what
    must be covered: a block skips cells that refuse its colour, and keeps a gap only
    from a neighbour of its own colour."""
    n = len(cells)
    left: list[int] = []
    position = 0
    for j, (length, colour) in enumerate(clue):
        if j and clue[j - 1][1] == colour:
            position += 1
        start = position
        while start + length <= n:
            bad = [i for i in range(start, start + length) if not cells[i] & bit(colour)]
            if not bad:
                break
            start = bad[-1] + 1
        if start + length > n:
            raise Contradiction("a block does not fit")
        left.append(start)
        position = start + length
    right: list[int] = [0] * len(clue)
    end = n  # one past the last cell the block may use
    for j in range(len(clue) - 1, -1, -1):
        length, colour = clue[j]
        if j + 1 < len(clue) and clue[j + 1][1] == colour:
            end -= 1
        stop = end
        while stop - length >= 0:
            bad = [i for i in range(stop - length, stop) if not cells[i] & bit(colour)]
            if not bad:
                break
            stop = bad[0]
        if stop - length < 0:
            raise Contradiction("a block does not fit")
        right[j] = stop - length
        end = stop - length
    for j in range(len(clue)):
        if left[j] > right[j]:
            raise Contradiction("a block's leftmost position lies right of its rightmost")
    return left, right


def colour_overlap(clue: ColourClue, cells: Sequence[int]) -> ColourDeduction | None:
    left, right = packed_extremes(clue, cells)
    after = list(cells)
    blocks = []
    for j, (length, colour) in enumerate(clue):
        first, last = right[j], left[j] + length - 1
        if first > last:
            continue
        newly = False
        for i in range(first, last + 1):
            if not after[i] & bit(colour):
                raise Contradiction("two blocks claim the same cell")
            if after[i] != bit(colour):
                after[i] = bit(colour)
                newly = True
        if newly:
            blocks.append({"block": j, "length": length, "colour": colour,
                           "cells": (first, last)})
    changes = _changed(cells, after)
    if not changes:
        return None
    touching = any(clue[j][1] != clue[j + 1][1] for j in range(len(clue) - 1))
    return ColourDeduction("colour-overlap-touching" if touching else "colour-overlap",
                           changes, {"blocks": blocks, "touching": touching})


def colour_reach(clue: ColourClue, cells: Sequence[int]) -> ColourDeduction | None:
    left, right = packed_extremes(clue, cells)
    reach = [BACKGROUND_BIT] * len(cells)
    for j, (length, colour) in enumerate(clue):
        for i in range(left[j], right[j] + length):
            reach[i] |= bit(colour)
    after = [v & r for v, r in zip(cells, reach, strict=True)]
    if any(v == 0 for v in after):
        raise Contradiction("a coloured cell no block can reach")
    changes = _changed(cells, after)
    if not changes:
        return None
    removed = {position: cells[position] & ~value for position, value in changes}
    return ColourDeduction("colour-reach", changes, {"removed": removed})


def colour_line_analysis(clue: ColourClue, cells: Sequence[int]) -> ColourDeduction | None:
    after = solve_line(clue, cells)
    if after is None:
        raise Contradiction("no placement of the clue fits the line")
    changes = _changed(cells, after)
    if not changes:
        return None
    return ColourDeduction("colour-line-analysis", changes, {})


def colour_extreme_owners(clue: ColourClue, cells: Sequence[int]) -> ColourDeduction | None:
    """Each block between its leftmost and rightmost start over the placements that cover
    every known coloured cell: the overlap gets the block's colour, the rest of the line
    keeps only the colours of the blocks that reach it."""
    ranges = block_ranges(clue, cells)
    if ranges is None:
        raise Contradiction("no placement of the clue fits the line")
    reach = [BACKGROUND_BIT] * len(cells)
    for (first, last), (length, colour) in zip(ranges, clue, strict=True):
        for i in range(first, last + length):
            reach[i] |= bit(colour)
    after = [v & r for v, r in zip(cells, reach, strict=True)]
    blocks = []
    for j, ((first, last), (length, colour)) in enumerate(zip(ranges, clue, strict=True)):
        overlap = range(last, first + length)
        if any(after[i] != bit(colour) for i in overlap):
            blocks.append({"block": j, "length": length, "colour": colour,
                           "range": (first, last + length - 1),
                           "cells": (overlap.start, overlap.stop - 1)})
        for i in overlap:
            after[i] = bit(colour)
    changes = _changed(cells, after)
    if not changes:
        return None
    return ColourDeduction("colour-extreme-owners", changes, {"blocks": blocks})
