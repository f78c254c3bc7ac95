"""The arrays the compiled kernels share, grouped into named bundles.

Each bundle is a NamedTuple of numpy arrays: numba passes it to a compiled function as one
argument and reads its fields by name at no cost, and the same object works uncompiled
(``NUMBA_DISABLE_JIT=1``). The field comments are the documentation of every kernel
argument of that name; kernels in ``kernels.py`` take the same names one by one.

Sizes: ``h`` x ``w`` grid, ``lines = h + w`` (rows first, then columns; line ``l >= h`` is
column ``l - h``), ``longest = max(h, w)``, ``cells = h * w``; a cell ``v = row * w +
column``; a literal ``2v`` says cell v is EMPTY, ``2v + 1`` FILLED.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
ByteArray = npt.NDArray[np.uint8]
WordArray = npt.NDArray[np.uint64]
FloatArray = npt.NDArray[np.float64]


class LineWork(NamedTuple):
    """A puzzle's clues, and the line solve's scratch buffers and caches."""

    clues: IntArray  # (lines, widest clue): each line's blocks, zero-padded
    nclues: IntArray  # (lines,): how many blocks each line has
    line_in: ByteArray  # (longest,): a line's cells copied in (and the explained premises)
    line_out: ByteArray  # (longest,): the solved line
    fwd: ByteArray  # (blocks + 1, longest + 1): which prefixes hold the first j blocks
    bwd: ByteArray  # (blocks + 1, longest + 1): the same from the end of the line
    empties: IntArray  # (longest + 1,): prefix counts of empty cells; explain: trail times
    marks: IntArray  # (2 (longest + 2),): scratch of the bit-parallel solve and explain
    counters: IntArray  # (4,): line solves asked for, cache hits, explanations, stop flag
    cache_keys: WordArray  # (slots, 2 or 5): line solve cache keyed by line and cell states
    cache_vals: WordArray  # (slots, 2 or 4): the solved cells of each key
    mask_keys: IntArray  # (slots, 3): bit-set line solve cache, keyed by line and masks
    mask_vals: IntArray  # (slots, 2): the cells that can be filled / can be empty
    wide: IntArray  # (rows, words): explanation scratch of lines over 61 cells (reasons.py)


class Queue(NamedTuple):
    """Lines waiting to be solved again (each at most once)."""

    queue: IntArray  # (lines,): ring buffer of line numbers
    in_queue: ByteArray  # (lines,): 1 for a line in the queue
    qstate: IntArray  # (2,): head position, number of lines queued


class Trail(NamedTuple):
    """The conflict search's assignments, in order, with why and at which level."""

    level: IntArray  # (cells,): decision level at which each cell was assigned
    reasons: IntArray  # (cells,): line number, lines + clause id, DECISION or FACT
    reason_pos: IntArray  # (cells,): trail size when its line was solved (its premises)
    trail: IntArray  # (cells,): the assigned cells in order
    trail_pos: IntArray  # (cells,): each cell's position on the trail
    st: IntArray  # (S_SIZE,): the scalar state, slots S_* of cdcl.py
    phase: ByteArray  # (cells,): the last value each cell took (saved phase)
    target: ByteArray  # (cells,): value in the longest conflict-free trail; 0: none
    settled: ByteArray  # (lines,): 1 while a line holds no cell its last solve did not see


class Clauses(NamedTuple):
    """Learned and blocking clauses, with two watched literals each."""

    lits: IntArray  # (literals,): every clause's literals, one after the other
    cinfo: IntArray  # (clauses, 5): start, length, permanent, LBD, conflicts at last use
    watch_head: IntArray  # (2 cells,): first watch node of each literal, -1: none
    watch_next: IntArray  # (2 clauses,): next node; node 2c + s watches slot s of clause c


class Learning(NamedTuple):
    """Conflict analysis scratch, decision activities, and where a solution is put."""

    seen: ByteArray  # (cells,): cells marked during one analysis
    learned: IntArray  # (cells + 1,): the clause being learned, asserting literal first
    activity: FloatArray  # (cells,): VSIDS activity of each cell
    free: IntArray  # (unknown,): the cells unknown when the search started, in order
    bump: FloatArray  # (1,): the current activity increment
    order: IntArray  # (longest,): explain_line's cells to try dropping, latest first
    found: ByteArray  # (h, w): the last solution found


class Probing(NamedTuple):
    """The probing fixpoint's copies of the grid, and its state between calls."""

    trial_filled: ByteArray  # (h, w): the grid with the probed cell FILLED, propagated
    trial_empty: ByteArray  # (h, w): the same with the probed cell EMPTY
    found: ByteArray  # (2, h, w): solutions met while probing (state[FOUND_COUNT] of them)
    state: IntArray  # (STATE_SIZE,): slots CURSOR ... FOUND_COUNT of kernels.py, to resume


class FollowMemo(NamedTuple):
    """What each supposition of kernels.follow_cells gave, and the lines it solved: a
    later call reuses it while none of those lines changed (its path is theirs alone).
    Lines are stamped with the call that last saw them change."""

    grid: ByteArray  # (h, w): the grid of the last call (0 before the first)
    stamps: IntArray  # (lines,): the stamp of the call that last saw each line change
    state: IntArray  # (2,): the current stamp, and the rounds the memo was made with
    made: IntArray  # (cells, 2): stamp when (cell, FILLED / EMPTY) was followed; -1: never
    outcome: IntArray  # (cells, 2, 3): the round it broke in (0: none), the line, decided
    lines: WordArray  # (cells, 2, (lines + 63) // 64): bit set of the lines it solved

