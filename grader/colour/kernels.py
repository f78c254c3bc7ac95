# mypy: allow-untyped-defs
"""Compiled kernels for colour puzzles: line solve, propagation, probing.

``numba.njit(cache=True)`` over numpy arrays; callers pass every buffer (see
:class:`grader.colour.workspace.ColourWorkspace`), nothing is allocated in the loops.
Cells are uint32 bit sets: bit 0 background, bit c colour c (c = 1..K, K <= 30).
The line solve is the dynamic programme of :func:`grader.colour.lines.solve_line`,
step by step; lines are numbered rows first (line ``i < h`` is row ``i``, ``h + j`` is
column ``j``).

Arguments shared by the kernels:

* ``lens``, ``cols`` (lines, widest clue) int64: block lengths and colours, per line;
  ``nblk`` (lines,) int64: blocks per line.
* ``table`` (4, longest + 2, widest clue + 1) uint8: the forward and backward tables.
* ``pref`` (K + 1, longest + 1) int64: per colour, how many of the first i cells refuse it.
* ``diff`` (K + 1, longest + 1) int64: per colour, the difference array of covered cells.
* ``queue``, ``inq`` (lines,): the queue of lines to solve and who is in it;
  ``qstate`` [head, size].
* ``counters`` int64: [0] line solves so far.
"""

from __future__ import annotations

import os

import numpy as np
from numba import njit

from grader.jit_cache import configure_numba_cache

# Before any kernel below is decorated: numba caches them in the user's cache folder, like
# the black-and-white solver's, never in the package's __pycache__ (which outlives
# ``pip uninstall`` and may not be writable at all).
configure_numba_cache(os.path.dirname(__file__))

#: status of propagate() and probe() when the clues and the grid disagree
CONTRADICTION = -1
SOLVED = 0
BRANCH = 1
OUT_OF_WORK = 2

LINE_SOLVES = 0
PROBE_CLOCK = 1  # counters[1]: probe()'s clock, kept across OUT_OF_WORK returns


@njit(cache=True, nogil=True)
def solve_line(cells, n, lens, cols, k, ncol, table, pref, diff, out):
    """Every value each of ``cells[:n]`` can take (into ``out``); False when none fits."""
    free = table[0]
    ended = table[1]
    afree = table[2]
    aend = table[3]
    # per colour of the clue: how many of the first i cells refuse it (pref[c, n] < 0 marks
    # a colour not computed yet in this call)
    for j in range(k):
        pref[cols[j], 0] = -1
    for j in range(k):
        c = cols[j]
        if pref[c, 0] == 0:
            continue
        b = np.uint32(1) << np.uint32(c)
        pref[c, 0] = 0
        for i in range(n):
            pref[c, i + 1] = pref[c, i] + (1 if (cells[i] & b) == 0 else 0)
    # the forward tables are set by pushes and need clearing; the backward ones are
    # written in full below (row n here)
    for i in range(n + 1):
        for j in range(k + 1):
            free[i, j] = 0
            ended[i, j] = 0
    for j in range(k + 1):
        afree[n, j] = 0
        aend[n, j] = 0
    free[0, 0] = 1
    for i in range(n + 1):
        bg = i < n and (cells[i] & 1) != 0
        for j in range(k + 1):
            if free[i, j] == 0 and ended[i, j] == 0:
                continue
            if bg:
                free[i + 1, j] = 1
            if j < k:
                end = i + lens[j]
                if (end <= n and pref[cols[j], end] == pref[cols[j], i]
                        and (free[i, j] != 0 or cols[j - 1] != cols[j])):
                    ended[end, j + 1] = 1
    afree[n, k] = 1
    aend[n, k] = 1
    for i in range(n - 1, -1, -1):
        bg = (cells[i] & 1) != 0
        for j in range(k, -1, -1):
            background = bg and afree[i + 1, j] != 0
            place = False
            if j < k:
                end = i + lens[j]
                if end <= n and pref[cols[j], end] == pref[cols[j], i] and aend[end, j + 1]:
                    place = True
            afree[i, j] = 1 if (background or place) else 0
            touch = j == 0 or cols[j - 1] != cols[j]
            aend[i, j] = 1 if (background or (place and touch)) else 0
    if afree[0, 0] == 0:
        return False
    for i in range(n + 1):
        diff[0, i] = 0
    for j in range(k):
        for i in range(n + 1):
            diff[cols[j], i] = 0
    for i in range(n + 1):
        bg = i < n and (cells[i] & 1) != 0
        for j in range(k + 1):
            if free[i, j] == 0 and ended[i, j] == 0:
                continue
            if bg and afree[i + 1, j] != 0:
                diff[0, i] += 1
                diff[0, i + 1] -= 1
            if j < k and (free[i, j] != 0 or cols[j - 1] != cols[j]):
                end = i + lens[j]
                if end <= n and pref[cols[j], end] == pref[cols[j], i] and aend[end, j + 1]:
                    diff[cols[j], i] += 1
                    diff[cols[j], end] -= 1
    for i in range(n):
        out[i] = 0
    for j in range(-1, k):
        c = 0 if j < 0 else cols[j]
        if j >= 0 and diff[c, n] == 1:
            continue  # this colour's marks are already out (several blocks share it)
        run = 0
        b = np.uint32(1) << np.uint32(c)
        for i in range(n):
            run += diff[c, i]
            if run > 0:
                out[i] |= b
        if j >= 0:
            diff[c, n] = 1  # every run has ended by cell n: the slot is free as a flag
    return True


@njit(cache=True, nogil=True)
def _push(queue, inq, qstate, line):
    if inq[line] == 0:
        lines = queue.shape[0]
        queue[(qstate[0] + qstate[1]) % lines] = line
        qstate[1] += 1
        inq[line] = 1


@njit(cache=True, nogil=True)
def clear_queue(inq, qstate):
    for i in range(inq.shape[0]):
        inq[i] = 0
    qstate[0] = 0
    qstate[1] = 0


@njit(cache=True, nogil=True)
def enqueue_all(queue, inq, qstate):
    clear_queue(inq, qstate)
    for line in range(queue.shape[0]):
        _push(queue, inq, qstate, line)


@njit(cache=True, nogil=True)
def enqueue_cell(queue, inq, qstate, h, row, column):
    _push(queue, inq, qstate, row)
    _push(queue, inq, qstate, h + column)


@njit(cache=True, nogil=True)
def propagate(grid, ncol, lens, cols, nblk, queue, inq, qstate, table, pref, diff,
              line_in, line_out, counters):
    """Solve queued lines until none changes; CONTRADICTION, else how many cells changed."""
    h, w = grid.shape
    changed = 0
    lines = queue.shape[0]
    while qstate[1] > 0:
        line = queue[qstate[0]]
        qstate[0] = (qstate[0] + 1) % lines
        qstate[1] -= 1
        inq[line] = 0
        counters[LINE_SOLVES] += 1
        # the line into the buffer by one slice copy (as fast as an element loop here)
        n = w if line < h else h
        line_in[:n] = grid[line, :] if line < h else grid[:, line - h]
        if not solve_line(line_in, n, lens[line], cols[line], nblk[line], ncol, table,
                          pref, diff, line_out):
            clear_queue(inq, qstate)
            return CONTRADICTION
        for i in range(n):
            if line_out[i] != line_in[i]:
                changed += 1
                if line < h:
                    grid[line, i] = line_out[i]
                    _push(queue, inq, qstate, h + i)
                else:
                    grid[i, line - h] = line_out[i]
                    _push(queue, inq, qstate, i)
    return changed


@njit(cache=True, nogil=True)
def undecided(grid):
    """How many cells still have more than one possible value."""
    h, w = grid.shape
    count = 0
    for r in range(h):
        for c in range(w):
            v = grid[r, c]
            if v & (v - np.uint32(1)):
                count += 1
    return count


@njit(cache=True, nogil=True)
def reset_probe(counters, line_stamp, cell_stamp):
    """Forget what probing learnt: at the start of each search node."""
    counters[PROBE_CLOCK] = 1
    for i in range(line_stamp.shape[0]):
        line_stamp[i] = 0
    for i in range(cell_stamp.shape[0]):
        cell_stamp[i] = -1


@njit(cache=True, nogil=True)
def _stamp_changes(grid, before, line_stamp, clock):
    """Mark the rows and columns where ``grid`` differs from ``before`` as changed now."""
    h, w = grid.shape
    for r in range(h):
        for c in range(w):
            if grid[r, c] != before[r, c]:
                line_stamp[r] = clock
                line_stamp[h + c] = clock


@njit(cache=True, nogil=True)
def probe(grid, ncol, lens, cols, nblk, queue, inq, qstate, table, pref, diff,
          line_in, line_out, counters, trial, union, work_limit, best, before, line_stamp,
          cell_stamp):
    """Propagate, then try each value of each undecided cell and propagate that.

    A value that leads to a contradiction is removed; a cell takes only values some
    surviving trial gives it. Repeats until nothing changes; a cell whose trials taught
    nothing is tried again only once its row or column has changed since (a heuristic:
    probing only prunes, the search stays complete). Returns CONTRADICTION, SOLVED,
    BRANCH (``best[0]`` = the cell whose trials decided most, worst value counted) or
    OUT_OF_WORK (``counters[0]`` passed ``work_limit``; progress is kept).
    ``before`` is a scratch grid; ``line_stamp`` (lines) and ``cell_stamp`` (cells) are
    int64 arrays that :func:`reset_probe` clears at the start of a node.
    """
    h, w = grid.shape
    if propagate(grid, ncol, lens, cols, nblk, queue, inq, qstate, table, pref, diff,
                 line_in, line_out, counters) == CONTRADICTION:
        return CONTRADICTION
    clock = counters[PROBE_CLOCK]  # resumes where an OUT_OF_WORK return left off
    best_score = -1
    best[0] = -1
    while True:
        progress = False
        best_score = -1
        for cell in range(h * w):
            r = cell // w
            c = cell % w
            mask = grid[r, c]
            if (mask & (mask - np.uint32(1))) == 0:
                continue
            if cell_stamp[cell] > line_stamp[r] and cell_stamp[cell] > line_stamp[h + c]:
                continue  # tried since its lines last changed, and it taught nothing
            if counters[LINE_SOLVES] > work_limit:
                counters[PROBE_CLOCK] = clock
                return OUT_OF_WORK
            for i in range(h):
                for j in range(w):
                    union[i, j] = 0
            worst = h * w
            removed = False
            for v in range(ncol + 1):
                b = np.uint32(1) << np.uint32(v)
                if (mask & b) == 0:
                    continue
                trial[:, :] = grid
                trial[r, c] = b
                clear_queue(inq, qstate)
                enqueue_cell(queue, inq, qstate, h, r, c)
                result = propagate(trial, ncol, lens, cols, nblk, queue, inq, qstate, table,
                                   pref, diff, line_in, line_out, counters)
                if result == CONTRADICTION:
                    before[:, :] = grid
                    grid[r, c] &= ~b
                    removed = True
                    break
                if result < worst:
                    worst = result
                for i in range(h):
                    for j in range(w):
                        union[i, j] |= trial[i, j]
            if removed:
                progress = True
                clear_queue(inq, qstate)
                enqueue_cell(queue, inq, qstate, h, r, c)
                if propagate(grid, ncol, lens, cols, nblk, queue, inq, qstate, table, pref,
                             diff, line_in, line_out, counters) == CONTRADICTION:
                    return CONTRADICTION
                clock += 1
                _stamp_changes(grid, before, line_stamp, clock)
                continue
            # every value survived: keep only what some trial allows
            clear_queue(inq, qstate)
            before[:, :] = grid
            narrowed = False
            for i in range(h):
                for j in range(w):
                    kept = grid[i, j] & union[i, j]
                    if kept != grid[i, j]:
                        grid[i, j] = kept
                        narrowed = True
                        enqueue_cell(queue, inq, qstate, h, i, j)
            if narrowed:
                progress = True
                if propagate(grid, ncol, lens, cols, nblk, queue, inq, qstate, table, pref,
                             diff, line_in, line_out, counters) == CONTRADICTION:
                    return CONTRADICTION
                clock += 1
                _stamp_changes(grid, before, line_stamp, clock)
            else:
                clock += 1
                cell_stamp[cell] = clock
                if worst > best_score:
                    best_score = worst
                    best[0] = cell
        if not progress:
            break
    if undecided(grid) == 0:
        return SOLVED
    if best[0] < 0:  # no candidate scored in the last sweep: pick any undecided cell
        for cell in range(h * w):
            v = grid[cell // w, cell % w]
            if v & (v - np.uint32(1)):
                best[0] = cell
                break
    return BRANCH
