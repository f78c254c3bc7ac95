"""The mosaic techniques a person uses, cheapest first (the rungs of ``ladder.yaml`` here).

Each finder looks at the grid as it stands and returns :class:`Deduction` records: the
clues it read (its premises), the cells it decides, and the facts a sentence needs.

* zeros-and-nines: a 0 empties its block, a 9 fills it;
* corners-and-edges: a clue as large as its block at the border (4 in a corner, 6 on an
  edge) fills it;
* completing-clues: a clue that has all it needs empties its other cells; a clue whose
  open cells are exactly what it still needs fills them;
* overlapping-clues: two clues whose blocks share open cells, compared over the shared and
  the unshared cells (how many the shared cells may hold bounds each side);
* clue-chains: three clues, each sharing open cells with the next, compared together;
* trial: supposing a cell filled (or empty) and completing the clues around it leads to a
  contradiction, so it is the other;
* guess: nothing above decides a cell: the complete solver's answer is taken.

The comparisons count cells per region (the cells seen by the same clues), which is exact:
within a region only how many cells are filled matters to the clues, so a region every
possible count leaves empty (or full) is decided.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from grader.mosaic.solver import UNSET, Board
from grader.mosaic_model import MosaicPuzzle


class OutOfTime(Exception):
    """The grade's deadline passed inside a finder."""


class Contradiction(Exception):
    """The clues and the cells decided so far admit no solution."""

    def __init__(self, clues: Sequence[int]):
        super().__init__("the clues contradict each other")
        self.clues = tuple(clues)


@dataclass(frozen=True)
class Deduction:
    """What one finder saw: ``clues`` (indices into the puzzle's clue list) are the
    premises, ``changes`` maps cell index -> 1 (filled) or 0 (empty)."""

    technique: str
    clues: tuple[int, ...]
    changes: Mapping[int, int]
    facts: Mapping[str, Any] = field(default_factory=dict)


class Clues:
    """The puzzle's clues as constraints, and the grid (cell index -> 0, 1 or UNSET) the
    finders read; a thin view over the solver's :class:`Board` (its propagation is the
    trial rung's)."""

    def __init__(self, puzzle: MosaicPuzzle):
        self.puzzle = puzzle
        self.board = Board(puzzle)
        self.height, self.width = puzzle.height, puzzle.width
        self.size = [len(cells) for cells in self.board.cells]
        # clue -> clues whose blocks share a cell with its block
        self.neighbours: list[list[int]] = []
        for k, cells in enumerate(self.board.cells):
            near = {j for i in cells for j in self.board.cell_clues[i] if j != k}
            self.neighbours.append(sorted(near))
        #: per clue, how many of its block's cells have been decided: a comparison of
        #: clues whose blocks have not changed since it found nothing is not made again
        self.version = [0] * len(self.board.cells)
        self.unchanged: dict[tuple[int, ...], tuple[int, ...]] = {}
        self.records: list[dict[str, Any]] = []
        #: the grade's deadline (time.monotonic()); the comparing finders look at it
        self.deadline: float | None = None
        self._ticks = 0

    @functools.cached_property
    def rank(self) -> list[int]:
        """Each cell's place in the reading order of the canonical orientation of the clue
        grid (the least of its 8 turns and mirror images, as the catalogue's key takes):
        a finder that takes the first of several cells (trial) takes the same cell of the
        puzzle however it is turned, so its grade does not depend on the turn."""
        clues = self.puzzle.clue_array()
        index = np.arange(clues.size).reshape(clues.shape)
        best: tuple[tuple[tuple[int, int], bytes], np.ndarray[Any, Any]] | None = None
        for turns in range(4):
            for mirror in (False, True):
                image, cells = np.rot90(clues, turns), np.rot90(index, turns)
                if mirror:
                    image, cells = image[:, ::-1], cells[:, ::-1]
                key = ((int(image.shape[0]), int(image.shape[1])),
                       np.ascontiguousarray(image).tobytes())
                if best is None or key < best[0]:
                    best = (key, cells)
        assert best is not None
        rank = [0] * clues.size
        for place, cell in enumerate(best[1].ravel().tolist()):
            rank[cell] = place
        return rank

    def tick(self) -> None:
        """Raise OutOfTime once the deadline has passed (the clock read every 32 calls)."""
        self._ticks += 1
        if self.deadline is not None and self._ticks % 32 == 0 and (
                time.monotonic() > self.deadline):
            raise OutOfTime

    @property
    def value(self) -> bytearray:
        return self.board.value

    def open_cells(self, k: int) -> list[int]:
        value = self.board.value
        return [i for i in self.board.cells[k] if value[i] == UNSET]

    def still_needs(self, k: int) -> int:
        return self.board.need[k] - self.board.filled[k]

    def check(self, clues: Iterable[int]) -> None:
        board = self.board
        for k in clues:
            f, u, n = board.filled[k], board.unknown[k], board.need[k]
            if f > n or f + u < n:
                raise Contradiction([k])

    def set(self, cell: int, value: int) -> None:
        if self.board.value[cell] == UNSET:
            self.board.assign(cell, value, [])
            for k in self.board.cell_clues[cell]:
                self.version[k] += 1
            self.check(self.board.cell_clues[cell])

    def compared(self, clues: tuple[int, ...]) -> dict[int, int] | None:
        """None when these clues were compared with nothing found and none changed since;
        else what comparing them decides now (remembered when it is nothing)."""
        state = tuple(self.version[k] for k in clues)
        if self.unchanged.get(clues) == state:
            return None
        decided, records = compare_pair(self, *clues) if len(clues) == 2 else compare(self, clues)
        if not decided:
            self.unchanged[clues] = state
            return None
        self.records = records
        return decided


# -- rungs 1-3: one clue at a time ---------------------------------------------------------
def zeros_and_nines(view: Clues) -> list[Deduction]:
    found = []
    for k, need in enumerate(view.board.need):
        if need in (0, 9) and view.board.unknown[k]:
            value = 0 if need == 0 else 1
            found.append(Deduction("zero" if need == 0 else "nine", (k,),
                                   dict.fromkeys(view.open_cells(k), value)))
    return found


def corners_and_edges(view: Clues) -> list[Deduction]:
    found = []
    for k, need in enumerate(view.board.need):
        size = view.size[k]
        if 0 < need == size < 9 and view.board.unknown[k]:
            technique = "full-corner" if size == 4 else "full-edge"
            found.append(Deduction(technique, (k,), dict.fromkeys(view.open_cells(k), 1),
                                   {"size": size}))
    return found


def completing_clues(view: Clues) -> list[Deduction]:
    found = []
    board = view.board
    for k, need in enumerate(board.need):
        u = board.unknown[k]
        if not u:
            continue
        f = board.filled[k]
        if f == need:
            found.append(Deduction("clue-complete", (k,), dict.fromkeys(view.open_cells(k), 0),
                                   {"filled": f}))
        elif f + u == need:
            found.append(Deduction("clue-needs-all", (k,), dict.fromkeys(view.open_cells(k), 1),
                                   {"filled": f, "open": u}))
    return found


# -- rungs 4-5: clues compared -------------------------------------------------------------
def compare(view: Clues, clues: Sequence[int]) -> tuple[dict[int, int], list[dict[str, Any]]]:
    """Decided cells (index -> value) of the open cells of ``clues`` taken together, and one
    record per decided region: its clues, cells, and whether it is full or empty. Raises
    Contradiction when no count fits."""
    regions: dict[tuple[bool, ...], list[int]] = {}
    for k in clues:
        for i in view.open_cells(k):
            key = tuple(i in view.board.cells[j] for j in clues)
            cells = regions.setdefault(key, [])
            if i not in cells:
                cells.append(i)
    keys = list(regions)
    sizes = [len(regions[key]) for key in keys]
    needs = [view.still_needs(k) for k in clues]
    low = [s + 1 for s in sizes]
    high = [-1] * len(keys)
    counts = [0] * len(keys)

    def place(p: int, left: list[int]) -> bool:
        if p == len(keys):
            if any(left):
                return False
            for q, x in enumerate(counts):
                low[q] = min(low[q], x)
                high[q] = max(high[q], x)
            return True
        key = keys[p]
        top = min([sizes[p], *(left[j] for j, inside in enumerate(key) if inside)])
        # what the regions after this one can still give each clue
        fitted = False
        for x in range(top + 1):
            rest = [left[j] - x if inside else left[j] for j, inside in enumerate(key)]
            if any(rest[j] > reach[p + 1][j] for j in range(len(clues))):
                continue
            counts[p] = x
            fitted = place(p + 1, rest) or fitted
        return fitted

    reach = [[0] * len(clues) for _ in range(len(keys) + 1)]
    for p in range(len(keys) - 1, -1, -1):
        reach[p] = [reach[p + 1][j] + (sizes[p] if keys[p][j] else 0)
                    for j in range(len(clues))]
    if not place(0, needs):
        raise Contradiction(clues)
    decided: dict[int, int] = {}
    records = []
    for p, key in enumerate(keys):
        if high[p] == 0 or low[p] == sizes[p]:
            value = 1 if low[p] == sizes[p] else 0
            decided.update(dict.fromkeys(regions[key], value))
            records.append({"in": [k for k, inside in zip(clues, key, strict=True) if inside],
                            "cells": list(regions[key]), "value": value})
    return decided, records


def compare_pair(view: Clues, a: int, b: int) -> tuple[dict[int, int], list[dict[str, Any]]]:
    """:func:`compare` for two clues, in closed form: the shared cells hold between
    max(0, a - |only a|, b - |only b|) and min(|shared|, a, b) filled cells (a, b: what each
    clue still needs), and each side holds what its clue needs beyond that."""
    cells_a, cells_b = view.board.cells[a], view.board.cells[b]
    open_a, open_b = view.open_cells(a), view.open_cells(b)
    shared = [i for i in open_a if i in cells_b]
    only_a = [i for i in open_a if i not in cells_b]
    only_b = [i for i in open_b if i not in cells_a]
    need_a, need_b = view.still_needs(a), view.still_needs(b)
    low = max(0, need_a - len(only_a), need_b - len(only_b))
    high = min(len(shared), need_a, need_b)
    if low > high:
        raise Contradiction((a, b))
    decided: dict[int, int] = {}
    records: list[dict[str, Any]] = []
    for cells, inside, full, empty in (
            (only_a, [a], need_a - high == len(only_a), need_a - low == 0),
            (shared, [a, b], low == len(shared), high == 0),
            (only_b, [b], need_b - high == len(only_b), need_b - low == 0)):
        if cells and (full or empty):
            value = 1 if full else 0
            decided.update(dict.fromkeys(cells, value))
            records.append({"in": inside, "cells": list(cells), "value": value})
    return decided, records


def _shares(view: Clues, a: int, b: int) -> bool:
    value = view.board.value
    cells = view.board.cells[b]
    return any(value[i] == UNSET and i in cells for i in view.board.cells[a])


def overlapping_clues(view: Clues) -> list[Deduction]:
    found = []
    open_clues = [k for k, u in enumerate(view.board.unknown) if u]
    for a in open_clues:
        view.tick()
        for b in view.neighbours[a]:
            if b <= a or not view.board.unknown[b] or not _shares(view, a, b):
                continue
            decided = view.compared((a, b))
            if decided:
                found.append(Deduction("overlap", (a, b), decided, {"regions": view.records}))
    return found


def clue_chains(view: Clues) -> list[Deduction]:
    found = []
    seen: set[tuple[int, ...]] = set()
    for b, u in enumerate(view.board.unknown):
        if not u:
            continue
        view.tick()
        near = [k for k in view.neighbours[b] if view.board.unknown[k] and _shares(view, b, k)]
        for x, a in enumerate(near):
            for c in near[x + 1:]:
                key = tuple(sorted((a, b, c)))
                if key in seen:
                    continue
                seen.add(key)
                decided = view.compared(key)
                if decided:
                    # the premises in chain order: the middle clue shares with both ends
                    found.append(Deduction("chain", (a, b, c), decided,
                                           {"regions": view.records}))
    return found


# -- rung 6: trial -------------------------------------------------------------------------
def trial(view: Clues) -> list[Deduction]:
    """The first cell (in the reading order of the clue grid's canonical orientation, near
    the clues) whose one value leads by completing clues to a contradiction; one
    deduction, so the log keeps the cheap steps it enables."""
    board = view.board
    # in the canonical orientation's reading order: the same cell however the grid is turned
    candidates = sorted({i for k, u in enumerate(board.unknown) if u
                         for i in board.cells[k] if board.value[i] == UNSET},
                        key=view.rank.__getitem__)
    for i in candidates:
        view.tick()
        for supposed in (1, 0):
            mark = len(board.trail)
            queue: list[int] = []
            board.assign(i, supposed, queue)
            consistent = board.propagate(queue)
            reach = len(board.trail) - mark
            broken = [k for k in board.cell_clues[i]]
            board.undo(mark)
            if not consistent:
                return [Deduction("contradiction", tuple(broken), {i: 1 - supposed},
                                  {"supposed": supposed, "decided": reach})]
    return []


FINDERS = {
    "zeros-and-nines": zeros_and_nines,
    "corners-and-edges": corners_and_edges,
    "completing-clues": completing_clues,
    "overlapping-clues": overlapping_clues,
    "clue-chains": clue_chains,
    "trial": trial,
}

__all__ = ["FINDERS", "Clues", "Contradiction", "Deduction", "OutOfTime", "compare",
           "compare_pair"]
