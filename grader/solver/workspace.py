"""A puzzle's clues as arrays for the compiled kernels, plus the scratch buffers they reuse."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from grader.model import CellArray, Puzzle, clue_table
from grader.solver import kernels
from grader.solver.bundles import FollowMemo, LineWork, Probing, Queue
from grader.solver.reasons import wide_scratch_shape

IntArray = npt.NDArray[np.int64]


#: most memory follow_cells' memo may take (per cell and state: a bit per line, and its
#: outcome):
#: 650 kB for Gettys (99x59), 84 MB for a 512x512 grid, which gets none
MEMO_BYTES = 32 << 20


def cache_slots(cells: int) -> int:
    """A power of two near 8 slots a cell, from 512 to 2**20.

    Small on purpose: a fresh table is touched all over, and on small puzzles the page
    faults of a larger one cost more than the extra hits save (13x13 domino: -9% time).
    """
    return int(min(max(512, 1 << (8 * cells - 1).bit_length()), 1 << 20))


class Workspace:
    """Everything the kernels need for one puzzle; not thread-safe (buffers are shared)."""

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        self.height = puzzle.height
        self.width = puzzle.width
        self.clues, self.nclues = clue_table(list(puzzle.rows) + list(puzzle.columns))
        lines = self.height + self.width
        longest = max(self.height, self.width)
        blocks = int(self.nclues.max()) if lines else 0
        self.queue = np.zeros(lines, dtype=np.int64)
        self.in_queue = np.zeros(lines, dtype=np.uint8)
        self.qstate = np.zeros(2, dtype=np.int64)
        self.line_in = np.zeros(longest, dtype=np.uint8)
        self.line_out = np.zeros(longest, dtype=np.uint8)
        self.fwd = np.zeros((blocks + 1, longest + 1), dtype=np.uint8)
        self.bwd = np.zeros((blocks + 1, longest + 1), dtype=np.uint8)
        self.empties = np.zeros(longest + 1, dtype=np.int64)
        self.marks = np.zeros(2 * (longest + 2), dtype=np.int64)
        # line solves, cache hits, explaining, and the stop flag (kernels.STOP)
        self.counters = np.zeros(4, dtype=np.int64)
        slots = cache_slots(self.height * self.width)
        if longest <= kernels.CACHE_MAX_LENGTH:
            key_words, value_words = 2, 2
        elif longest <= kernels.WIDE_CACHE_MAX_LENGTH:
            key_words, value_words = kernels.WIDE_KEY_WORDS, kernels.WIDE_KEY_WORDS - 1
        else:
            slots, key_words, value_words = 1, 2, 2
        self.cache_keys = np.zeros((slots, key_words), dtype=np.uint64)
        self.cache_vals = np.zeros((slots, value_words), dtype=np.uint64)
        # the conflict search's cache, for lines short enough to be bit sets
        shortest = min(self.height, self.width)
        slots = cache_slots(self.height * self.width) if shortest <= kernels.BITS_MAX_LENGTH else 1
        self.mask_keys = np.zeros((slots, 3), dtype=np.int64)
        self.mask_vals = np.zeros((slots, 2), dtype=np.int64)
        self.trial_filled = np.zeros((self.height, self.width), dtype=np.uint8)
        self.trial_empty = np.zeros((self.height, self.width), dtype=np.uint8)
        self.found = np.zeros((2, self.height, self.width), dtype=np.uint8)
        self.probe_state = np.zeros(kernels.STATE_SIZE, dtype=np.int64)
        #: lines a supposition solved (kernels.follow_cells): a few rounds of all lines
        self.touched = np.zeros(4 * lines + 1, dtype=np.int64)
        self.follow_memo: FollowMemo | None = None
        #: the same arrays, bundled for the conflict search (grader.solver.bundles)
        self.line_work = LineWork(
            self.clues, self.nclues, self.line_in, self.line_out, self.fwd, self.bwd,
            self.empties, self.marks, self.counters, self.cache_keys, self.cache_vals,
            self.mask_keys, self.mask_vals,
            np.zeros(wide_scratch_shape(longest), dtype=np.int64),
        )
        self.lines_queued = Queue(self.queue, self.in_queue, self.qstate)
        self.probing = Probing(self.trial_filled, self.trial_empty, self.found, self.probe_state)

    def blank(self) -> CellArray:
        """The start of a solve: every cell unknown but the puzzle's givens."""
        return self.puzzle.start_cells()

    @property
    def line_solves(self) -> int:
        """Line solves asked for, cache hits included."""
        return int(self.counters[0])

    @property
    def cache_hits(self) -> int:
        return int(self.counters[1])

    def propagate_all(self, grid: CellArray) -> int:
        """Line logic to a fixed point from scratch; cells decided, or -1 on contradiction."""
        return int(
            kernels.propagate_all(
                grid, self.clues, self.nclues, self.queue, self.in_queue, self.qstate,
                self.line_in, self.line_out, self.fwd, self.bwd, self.empties, self.marks,
                self.counters, self.cache_keys, self.cache_vals,
            )
        )

    def follow_cell(self, grid: CellArray, row: int, column: int, state: int,
                    rounds: int) -> tuple[int, int, int]:
        """A supposition followed round by round (see kernels.follow_cell), ``grid``
        changed in place: (round it broke in or 0, broken line or -1, cells decided)."""
        result = np.zeros(2, dtype=np.int64)
        broke = kernels.follow_cell(
            grid, row, column, state, rounds, self.clues, self.nclues, self.queue,
            self.in_queue, self.qstate, self.line_in, self.line_out, self.fwd, self.bwd,
            self.empties, self.marks, self.counters, self.cache_keys, self.cache_vals, result,
        )
        return int(broke), int(result[0]), int(result[1])

    def follow_cells(self, grid: CellArray, cells: npt.NDArray[np.int64],
                     rounds: int) -> npt.NDArray[np.int64]:
        """Each cell supposed FILLED, then EMPTY, on a copy of ``grid`` (see
        kernels.follow_cells): a row per cell, (state that broke or 0, round, line, decided)."""
        out = np.zeros((cells.size, 4), dtype=np.int64)
        kernels.follow_cells(
            grid, cells, rounds, np.empty_like(grid), self.clues, self.nclues, self.queue,
            self.in_queue, self.qstate, self.line_in, self.line_out, self.fwd, self.bwd,
            self.empties, self.marks, self.counters, self.cache_keys, self.cache_vals,
            np.zeros(2, dtype=np.int64), self.touched, self._follow_memo(), out,
        )
        return out

    def _follow_memo(self) -> FollowMemo:
        """follow_cells' memo, made on first use; one holding nothing when its line sets
        would take more than MEMO_BYTES."""
        if self.follow_memo is None:
            lines = self.height + self.width
            words = (lines + 63) // 64
            cells = self.height * self.width
            if cells * 2 * (words + 4) * 8 > MEMO_BYTES:
                cells = 0
            self.follow_memo = FollowMemo(
                grid=np.zeros((self.height, self.width) if cells else (0, 0), dtype=np.uint8),
                stamps=np.zeros(lines, dtype=np.int64),
                state=np.array([0, -1], dtype=np.int64),
                made=np.full((cells, 2), -1, dtype=np.int64),
                outcome=np.zeros((cells, 2, 3), dtype=np.int64),
                lines=np.zeros((cells, 2, words), dtype=np.uint64),
            )
        return self.follow_memo

    def branch_cells(self, grid: CellArray, cells: npt.NDArray[np.int64], start: int,
                     out: npt.NDArray[np.int64], agreed: npt.NDArray[np.int64]) -> int:
        """Cell branching on ``cells[start:]`` until ``agreed`` may overflow (see
        kernels.branch_cells); the index it stopped at."""
        return int(kernels.branch_cells(
            grid, cells, start, np.empty_like(grid), np.empty_like(grid), self.clues,
            self.nclues, self.queue, self.in_queue, self.qstate, self.line_in, self.line_out,
            self.fwd, self.bwd, self.empties, self.marks, self.counters, self.cache_keys,
            self.cache_vals, np.zeros(2, dtype=np.int64), out, agreed,
        ))

    def enqueue_cell(self, row: int, column: int) -> None:
        kernels.enqueue_cell(row, column, self.height, self.queue, self.in_queue, self.qstate)

    def enqueue_all(self) -> None:
        for line in range(self.height + self.width):
            kernels.enqueue(line, self.queue, self.in_queue, self.qstate)

    def queue_empty(self) -> bool:
        return int(self.qstate[1]) == 0

    def clear_queue(self) -> None:
        kernels.clear_queue(self.queue, self.in_queue, self.qstate)

    def probe(self, grid: CellArray, work_limit: int) -> int:
        """One resumable call of the probing fixpoint (see kernels.probe_fixpoint)."""
        return int(
            kernels.probe_fixpoint(grid, self.line_work, self.lines_queued, self.probing,
                                   work_limit)
        )
