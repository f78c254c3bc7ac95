"""A colour puzzle's clues as arrays for the compiled kernels, and their scratch buffers."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from grader.colour import kernels
from grader.colour.lines import full_mask
from grader.colour.model import ColourArray, ColourPuzzle

MaskArray = npt.NDArray[np.uint32]


class ColourWorkspace:
    """Everything the kernels need for one puzzle; not thread-safe (buffers are shared)."""

    def __init__(self, puzzle: ColourPuzzle):
        self.puzzle = puzzle
        self.height = puzzle.height
        self.width = puzzle.width
        self.ncol = puzzle.palette.size
        clues = list(puzzle.rows) + list(puzzle.columns)
        lines = len(clues)
        widest = max(1, max(len(c) for c in clues))
        longest = max(self.height, self.width)
        self.lens = np.zeros((lines, widest), dtype=np.int64)
        self.cols = np.zeros((lines, widest), dtype=np.int64)
        self.nblk = np.zeros(lines, dtype=np.int64)
        for i, clue in enumerate(clues):
            self.nblk[i] = len(clue)
            for j, (length, colour) in enumerate(clue):
                self.lens[i, j] = length
                self.cols[i, j] = colour
        self.table = np.zeros((4, longest + 2, widest + 1), dtype=np.uint8)
        self.pref = np.zeros((self.ncol + 1, longest + 1), dtype=np.int64)
        self.diff = np.zeros((self.ncol + 1, longest + 1), dtype=np.int64)
        self.line_in = np.zeros(longest, dtype=np.uint32)
        self.line_out = np.zeros(longest, dtype=np.uint32)
        self.queue = np.zeros(lines, dtype=np.int64)
        self.inq = np.zeros(lines, dtype=np.uint8)
        self.qstate = np.zeros(2, dtype=np.int64)
        self.counters = np.zeros(2, dtype=np.int64)
        self.trial = np.zeros((self.height, self.width), dtype=np.uint32)
        self.union = np.zeros((self.height, self.width), dtype=np.uint32)
        self.best = np.zeros(1, dtype=np.int64)
        self.before = np.zeros((self.height, self.width), dtype=np.uint32)
        self.line_stamp = np.zeros(lines, dtype=np.int64)
        self.cell_stamp = np.zeros(self.height * self.width, dtype=np.int64)

    @property
    def line_solves(self) -> int:
        return int(self.counters[kernels.LINE_SOLVES])

    def blank(self) -> MaskArray:
        """A grid where every cell may still be anything."""
        return np.full((self.height, self.width), full_mask(self.ncol), dtype=np.uint32)

    def propagate(self, grid: MaskArray, everything: bool = True) -> int:
        """Line logic to a fixed point (all lines, or those queued); CONTRADICTION or changes."""
        if everything:
            kernels.enqueue_all(self.queue, self.inq, self.qstate)
        return int(kernels.propagate(
            grid, self.ncol, self.lens, self.cols, self.nblk, self.queue, self.inq,
            self.qstate, self.table, self.pref, self.diff, self.line_in, self.line_out,
            self.counters))

    def clear_queue(self) -> None:
        kernels.clear_queue(self.inq, self.qstate)

    def enqueue_all(self) -> None:
        kernels.enqueue_all(self.queue, self.inq, self.qstate)

    def enqueue_cell(self, row: int, column: int) -> None:
        kernels.enqueue_cell(self.queue, self.inq, self.qstate, self.height, row, column)

    def reset_probe(self) -> None:
        """Start a new search node: probing forgets which cells taught nothing."""
        kernels.reset_probe(self.counters, self.line_stamp, self.cell_stamp)

    def probe(self, grid: MaskArray, work_limit: int) -> int:
        """Propagate the queued lines, then probe to a fixed point (see kernels.probe)."""
        return int(kernels.probe(
            grid, self.ncol, self.lens, self.cols, self.nblk, self.queue, self.inq,
            self.qstate, self.table, self.pref, self.diff, self.line_in, self.line_out,
            self.counters, self.trial, self.union, work_limit, self.best, self.before,
            self.line_stamp, self.cell_stamp))

    def solve_line(self, cells: MaskArray, line: int) -> MaskArray | None:
        """The compiled line solve of line ``line`` over ``cells`` (for tests and tools)."""
        out = np.zeros(len(cells), dtype=np.uint32)
        ok = kernels.solve_line(
            np.ascontiguousarray(cells, dtype=np.uint32), len(cells), self.lens[line],
            self.cols[line], self.nblk[line], self.ncol, self.table, self.pref, self.diff, out)
        return out if ok else None


def decided_picture(grid: MaskArray) -> ColourArray:
    """Colour indices of a grid whose every cell has one value."""
    values = grid.astype(np.uint64)
    # the index of the one set bit: log2 of a power of two
    return np.log2(values).round().astype(np.uint8)
