# mypy: allow-untyped-defs
"""Compiled block ranges for long lines: the grader's rungs 1-2 at the speed of the solver.

The same computation as :mod:`grader.techniques.ranges` (which stays the reference: the
tests hold this module to it on random lines), step by step in the same order, so that
the ranges *and* the owner notes that say why they narrowed come out equal. The grader
uses it for long lines only (see ``ranges.COMPILED_FROM``): on a 512x512 grid, narrowing
each changed line in Python was four fifths of the grade.

Results are plain arrays; a negative status means the line cannot be filled, and the
caller re-runs the Python reference to raise its exact message.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from grader.jit_cache import prepare_cache

prepare_cache(Path(__file__).resolve().parent)

#: cached and releasing the GIL; these kernels allocate their (small) results
OPTIONS: dict[str, Any] = {"cache": True, "nogil": True}

EMPTY = 1
FILLED = 2
UNKNOWN = 3

#: status of a line no arrangement fits (the Python reference says why)
BROKEN = -1


@njit(inline="always", **OPTIONS)
def _fits(cells, empties, start, length):
    end = start + length
    n = cells.size
    if start < 0 or end > n:
        return False
    if start > 0 and cells[start - 1] == FILLED:
        return False
    if end < n and cells[end] == FILLED:
        return False
    return empties[end] == empties[start]


@njit(**OPTIONS)
def _narrow_simple(clue, cells, lo, hi, empties, fit_lo, fit_hi):
    """ranges.narrow_simple: 1 changed, 0 unchanged, BROKEN when a block has no room."""
    k = clue.size
    changed_any = 0
    while True:
        changed = False
        for j in range(k):
            block = clue[j]
            start = lo[j]
            if j > 0:
                start = max(start, lo[j - 1] + clue[j - 1] + 1)
            if start != fit_lo[j]:
                while start + block - 1 <= hi[j] and not _fits(cells, empties, start, block):
                    start += 1
                fit_lo[j] = start
            if start + block - 1 > hi[j]:
                return BROKEN
            if start != lo[j]:
                lo[j] = start
                changed = True
        for j in range(k - 1, -1, -1):
            block = clue[j]
            end = hi[j]
            if j < k - 1:
                end = min(end, hi[j + 1] - clue[j + 1] - 1)
            if end != fit_hi[j]:
                while end - block + 1 >= lo[j] and not _fits(cells, empties, end - block + 1,
                                                              block):
                    end -= 1
                fit_hi[j] = end
            if end - block + 1 < lo[j]:
                return BROKEN
            if end != hi[j]:
                hi[j] = end
                changed = True
        if not changed:
            return changed_any
        changed_any = 1


@njit(inline="always", **OPTIONS)
def _bisect_left(values, x):
    low, high = 0, values.size
    while low < high:
        middle = (low + high) // 2
        if values[middle] < x:
            low = middle + 1
        else:
            high = middle
    return low


@njit(inline="always", **OPTIONS)
def _bisect_right(values, x):
    low, high = 0, values.size
    while low < high:
        middle = (low + high) // 2
        if x < values[middle]:
            high = middle
        else:
            low = middle + 1
    return low


@njit(**OPTIONS)
def _possible_owners(clue, lo, hi, run_start, run_end, first, last):
    """ranges.possible_owners into ``first``/``last``; BROKEN when a run has no owner."""
    runs = run_start.size
    for r in range(runs):
        start, end = run_start[r], run_end[r]
        low = _bisect_left(hi, end)
        high = _bisect_right(lo, start) - 1
        length = end - start + 1
        while low <= high and clue[low] < length:
            low += 1
        while high >= low and clue[high] < length:
            high -= 1
        if low > high:
            return BROKEN
        first[r] = low
        last[r] = high
    for r in range(1, runs):
        first[r] = max(first[r], first[r - 1])
    for r in range(runs - 2, -1, -1):
        last[r] = min(last[r], last[r + 1])
    for r in range(runs):
        if first[r] > last[r]:
            return BROKEN
    return 0


@njit(**OPTIONS)
def _narrow_owners(clue, lo, hi, run_start, run_end, note_first, note_last, first, last):
    """ranges.narrow_owners: 1 changed, 0 unchanged, BROKEN; notes per run index."""
    if _possible_owners(clue, lo, hi, run_start, run_end, first, last) == BROKEN:
        return BROKEN
    k = clue.size
    changed = 0
    for r in range(run_start.size):
        start, end = run_start[r], run_end[r]
        f, g = first[r], last[r]
        # caps: (f, start + clue[f] - 1), then (f - 1, start - 2) when f > 0
        for which in range(2):
            if which == 1 and f == 0:
                continue
            j = f if which == 0 else f - 1
            value = start + clue[f] - 1 if which == 0 else start - 2
            if value < hi[j]:
                hi[j] = value
                note_first[r] = f
                note_last[r] = g
                changed = 1
        for which in range(2):
            if which == 1 and g == k - 1:
                continue
            j = g if which == 0 else g + 1
            value = end - clue[g] + 1 if which == 0 else end + 2
            if value > lo[j]:
                lo[j] = value
                note_first[r] = f
                note_last[r] = g
                changed = 1
    for j in range(k):
        if hi[j] - lo[j] + 1 < clue[j]:
            return BROKEN
    return changed


@njit(**OPTIONS)
def filled_runs(cells):
    """(starts, ends) of the maximal runs of filled cells, as base.filled_runs."""
    n = cells.size
    starts = np.empty(n // 2 + 1, np.int64)
    ends = np.empty(n // 2 + 1, np.int64)
    count = 0
    position = 0
    while position < n:
        if cells[position] == FILLED:
            starts[count] = position
            while position < n and cells[position] == FILLED:
                position += 1
            ends[count] = position - 1
            count += 1
        else:
            position += 1
    return starts[:count].copy(), ends[:count].copy()


@njit(**OPTIONS)
def narrow_line(clue, cells, owners):
    """ranges.narrow from fresh ranges: (status, lo, hi, run_start, run_end, note_first,
    note_last); a run's notes are -1 when owner rules never narrowed for it."""
    k = clue.size
    n = cells.size
    lo = np.empty(k, np.int64)
    hi = np.empty(k, np.int64)
    position = 0
    for j in range(k):
        lo[j] = position
        position += clue[j] + 1
    position = n - 1
    for j in range(k - 1, -1, -1):
        hi[j] = position
        position -= clue[j] + 1
    empties = np.zeros(n + 1, np.int64)
    for i in range(n):
        empties[i + 1] = empties[i] + (cells[i] == EMPTY)
    fit_lo = np.full(k, -1, np.int64)
    fit_hi = np.full(k, -1, np.int64)
    if owners:
        run_start, run_end = filled_runs(cells)
    else:
        run_start = np.empty(0, np.int64)
        run_end = np.empty(0, np.int64)
    runs = run_start.size
    note_first = np.full(runs, -1, np.int64)
    note_last = np.full(runs, -1, np.int64)
    status = _narrow_simple(clue, cells, lo, hi, empties, fit_lo, fit_hi)
    if status != BROKEN and runs:
        first = np.empty(runs, np.int64)
        last = np.empty(runs, np.int64)
        while True:
            status = _narrow_owners(clue, lo, hi, run_start, run_end, note_first, note_last,
                                    first, last)
            if status != 1:
                break
            if _narrow_simple(clue, cells, lo, hi, empties, fit_lo, fit_hi) == BROKEN:
                status = BROKEN
                break
    return min(status, 0), lo, hi, run_start, run_end, note_first, note_last


@njit(**OPTIONS)
def deduction_spans(clue, cells, lo, hi):
    """What ranges.deductions_from_ranges needs to know before it builds anything:
    (status, open cells in each block's overlap, each gap's start, stop and open cells).

    The overlap of block j is hi[j] - clue[j] + 1 .. lo[j] + clue[j] - 1; gap j runs from
    the end of the ranges before block j to lo[j] (the line's end after the last block).
    BROKEN when a gap holds a filled cell."""
    k = clue.size
    n = cells.size
    unknown = np.zeros(n + 1, np.int64)
    filled = np.zeros(n + 1, np.int64)
    for i in range(n):
        unknown[i + 1] = unknown[i] + (cells[i] == UNKNOWN)
        filled[i + 1] = filled[i] + (cells[i] == FILLED)
    block_open = np.zeros(k, np.int64)
    for j in range(k):
        first = hi[j] - clue[j] + 1
        last = lo[j] + clue[j] - 1
        if first <= last:
            block_open[j] = unknown[last + 1] - unknown[first]
    gap_start = np.zeros(k + 1, np.int64)
    gap_stop = np.zeros(k + 1, np.int64)
    gap_open = np.zeros(k + 1, np.int64)
    status = 0
    reach = -1
    for j in range(k + 1):
        start = reach + 1
        stop = lo[j] if j < k else n
        gap_start[j] = start
        gap_stop[j] = stop
        if start < stop:
            if filled[stop] - filled[start]:
                status = BROKEN
            gap_open[j] = unknown[stop] - unknown[start]
        if j < k:
            reach = max(reach, hi[j])
    return status, block_open, gap_start, gap_stop, gap_open


@njit(**OPTIONS)
def open_gaps(cells):
    """(starts, ends) of each maximal stretch of unknown cells between empty cells or the
    border with no filled cell in it, as techniques.gaps.gaps."""
    n = cells.size
    starts = np.empty(n // 2 + 1, np.int64)
    ends = np.empty(n // 2 + 1, np.int64)
    count = 0
    start = 0
    holds_filled = False
    for position in range(n + 1):
        if position == n or cells[position] == EMPTY:
            if position > start and not holds_filled:
                starts[count] = start
                ends[count] = position - 1
                count += 1
            start = position + 1
            holds_filled = False
        elif cells[position] == FILLED:
            holds_filled = True
    return starts[:count].copy(), ends[:count].copy()


#: where line_summary's record starts: its length, then the number of blocks
SUMMARY_LENGTH, SUMMARY_BLOCKS = 0, 1


def summary_size(length: int) -> int:
    """Room line_summary needs for a line of ``length`` cells: a record is written only
    for a line its clue fits, so of k <= (length + 1) // 2 blocks, as many filled runs at
    most and 2k + 1 spans: 4 + 2k + 4 runs + 5 spans <= 9 + 16 (length + 1) // 2 numbers."""
    return 16 * (length // 2 + 1) + 16


@njit(**OPTIONS)
def line_summary(clue, cells, owners, out):
    """narrow_line, then deduction_spans of its ranges, in one call that writes one record
    into ``out`` (of summary_size(n) at least) and returns how many deductions the line
    has (BROKEN when it cannot be filled). The record: its length, k, lo[k], hi[k]; the
    number of filled runs, then (start, end, first owner, last owner) of each (-1, -1 if
    the owner rules never narrowed for it); the number of deductions, then (kind: 0 a
    block's overlap, 1 a gap; block or gap index; open cells; first cell; end) of each,
    blocks first. The overlap of block j is hi[j] - clue[j] + 1 .. lo[j] + clue[j] - 1;
    gap j runs from the end of the ranges before block j to lo[j] (to the line's end
    after the last block)."""
    status, lo, hi, run_start, run_end, note_first, note_last = narrow_line(clue, cells, owners)
    if status < 0:
        return BROKEN
    spans_status, block_open, gap_start, gap_stop, gap_open = deduction_spans(clue, cells, lo, hi)
    if spans_status < 0:
        return BROKEN
    k = clue.size
    at = 2
    out[SUMMARY_BLOCKS] = k
    for j in range(k):
        out[at] = lo[j]
        out[at + k] = hi[j]
        at += 1
    at += k
    runs = run_start.size
    out[at] = runs
    at += 1
    for r in range(runs):
        out[at] = run_start[r]
        out[at + 1] = run_end[r]
        out[at + 2] = note_first[r]
        out[at + 3] = note_last[r]
        at += 4
    count_at = at
    at += 1
    count = 0
    for j in range(k):
        if block_open[j]:
            out[at] = 0
            out[at + 1] = j
            out[at + 2] = block_open[j]
            out[at + 3] = hi[j] - clue[j] + 1
            out[at + 4] = lo[j] + clue[j]
            at += 5
            count += 1
    for j in range(k + 1):
        if gap_open[j]:
            out[at] = 1
            out[at + 1] = j
            out[at + 2] = gap_open[j]
            out[at + 3] = gap_start[j]
            out[at + 4] = gap_stop[j]
            at += 5
            count += 1
    out[count_at] = count
    out[SUMMARY_LENGTH] = at
    return count


#: what deduction_sizes_many sizes: rung 1's ranges, rungs 1-2's (owners), simple gaps,
#: owner branching
SIZES_SIMPLE, SIZES_OWNERS, SIZES_GAPS, SIZES_OWNER_BRANCHING = 0, 1, 2, 3


@njit(**OPTIONS)
def _gap_sizes(clue, cells, out, at, line, memo_lo, memo_hi, memo_ok):
    """techniques.gaps.find's deductions' sizes into ``out[at:]``: their count, or BROKEN
    when the line's ranges break (find would raise); its early outs are the same."""
    k = clue.size
    n = cells.size
    longest = 0
    for j in range(k):
        longest = max(longest, clue[j])
    starts, ends = open_gaps(cells)
    holds_empty = False
    for i in range(n):
        if cells[i] == EMPTY:
            holds_empty = True
            break
    short = 0
    for g in range(starts.size):
        if ends[g] - starts[g] + 1 < longest:
            short += 1
    if not holds_empty or short == 0:
        return 0
    status, lo, hi = _narrow_remembered(clue, cells, False, line, memo_lo, memo_hi, memo_ok)
    if status < 0:
        return BROKEN
    count = 0
    for g in range(starts.size):
        first = starts[g]
        last = ends[g]
        length = last - first + 1
        if length >= longest:
            continue
        reaching = False
        fits = False
        for j in range(k):
            if lo[j] <= last and hi[j] >= first:
                reaching = True
                fits = fits or clue[j] <= length
        if reaching and not fits:
            out[at + count] = length  # an open gap's cells are all unknown
            count += 1
    return count


@njit(inline="always", **OPTIONS)
def _grid_line(grid, line, column):
    """Line ``line`` of ``grid`` (rows, then columns): a row's view, or the column copied
    into ``column`` (of the grid's height)."""
    h = grid.shape[0]
    if line < h:
        return grid[line]
    for r in range(h):
        column[r] = grid[r, line - h]
    return column


@njit(**OPTIONS)
def deduction_sizes_many(kind, clues, nclues, grid, numbers, counts, sizes, memo_lo,
                         memo_hi, memo_ok):
    """The sizes of one line rung's deductions on many lines of ``grid`` in one call (the
    engine's refresh of a big grid: 100,000 calls from Python cost more than the work).

    ``kind``: SIZES_SIMPLE / SIZES_OWNERS (line_summary's deductions, blocks then gaps),
    SIZES_GAPS (techniques.gaps.find's) or SIZES_OWNER_BRANCHING (owner_branching.find's);
    ``clues``/``nclues``: every line's clue, rows
    then columns; ``numbers``: the lines; ``memo_*``: ranges kept between calls for this
    kind's narrowing (see _narrow_remembered). Writes counts[i] (BROKEN: the Python finder
    must say why) and the sizes of line i's deductions one after the other into
    ``sizes``; stops before a line whose sizes might not fit and returns how many lines
    it did.
    """
    h = grid.shape[0]
    w = grid.shape[1]
    column = np.empty(h, np.uint8)
    at = 0
    for i in range(numbers.size):
        line = numbers[i]
        n = w if line < h else h
        if at + n + 2 > sizes.size:
            return i
        cells = _grid_line(grid, line, column)
        clue = clues[line, :nclues[line]]
        if kind == SIZES_GAPS:
            count = _gap_sizes(clue, cells, sizes, at, line, memo_lo, memo_hi, memo_ok)
        elif kind == SIZES_OWNER_BRANCHING:
            count = _owner_branching_sizes(clue, cells, sizes, at, line, memo_lo, memo_hi,
                                           memo_ok)
        else:
            count = _summary_sizes(clue, cells, kind == SIZES_OWNERS, sizes, at, line,
                                   memo_lo, memo_hi, memo_ok)
        counts[i] = count
        if count > 0:
            at += count
    return numbers.size


@njit(**OPTIONS)
def _summary_sizes(clue, cells, owners, out, at, line, memo_lo, memo_hi, memo_ok):
    """line_summary's deductions' sizes into ``out[at:]`` (blocks, then gaps); their
    count or BROKEN."""
    status, lo, hi = _narrow_remembered(clue, cells, owners, line, memo_lo, memo_hi, memo_ok)
    if status < 0:
        return BROKEN
    spans_status, block_open, _, _, gap_open = deduction_spans(clue, cells, lo, hi)
    if spans_status < 0:
        return BROKEN
    count = 0
    for j in range(clue.size):
        if block_open[j]:
            out[at + count] = block_open[j]
            count += 1
    for j in range(clue.size + 1):
        if gap_open[j]:
            out[at + count] = gap_open[j]
            count += 1
    return count


@njit(**OPTIONS)
def _narrow_from(clue, cells, lo, hi, owners):
    """ranges.narrow of the ranges ``lo``/``hi`` in place: 0, or BROKEN."""
    k = clue.size
    n = cells.size
    empties = np.zeros(n + 1, np.int64)
    for i in range(n):
        empties[i + 1] = empties[i] + (cells[i] == EMPTY)
    fit_lo = np.full(k, -1, np.int64)
    fit_hi = np.full(k, -1, np.int64)
    if _narrow_simple(clue, cells, lo, hi, empties, fit_lo, fit_hi) == BROKEN:
        return BROKEN
    if not owners:
        return 0
    run_start, run_end = filled_runs(cells)
    runs = run_start.size
    if not runs:
        return 0
    note_first = np.full(runs, -1, np.int64)
    note_last = np.full(runs, -1, np.int64)
    first = np.empty(runs, np.int64)
    last = np.empty(runs, np.int64)
    while True:
        status = _narrow_owners(clue, lo, hi, run_start, run_end, note_first, note_last,
                                first, last)
        if status == BROKEN:
            return BROKEN
        if status != 1:
            return 0
        if _narrow_simple(clue, cells, lo, hi, empties, fit_lo, fit_hi) == BROKEN:
            return BROKEN


@njit(**OPTIONS)
def _narrow_remembered(clue, cells, owners, line, memo_lo, memo_hi, memo_ok):
    """narrow_line's (status, lo, hi), narrowed from the ranges ``memo_*`` keep for
    ``line`` (rows, then columns) when they keep some, and kept there. A memo without
    rows keeps nothing.

    The engine's grid only gains known cells, so the ranges of a line's last narrowing
    hold the ones of its next: the narrowing is a fixpoint of rules that only shrink
    ranges and only shrink more on a better-known line, and from any ranges that hold
    it, it reaches the same one (tests/test_line_ranges.py compares the two on lines
    revealed stage by stage). From fresh ranges the owner rules took a median of 6 passes
    on the cauldron's lines; sizing one for extreme owners went from 14 to 6 us."""
    k = clue.size
    remembering = memo_ok.size > 0
    if remembering and memo_ok[line]:
        lo = memo_lo[line, :k].copy()
        hi = memo_hi[line, :k].copy()
        status = _narrow_from(clue, cells, lo, hi, owners)
    else:
        status, lo, hi, _, _, _, _ = narrow_line(clue, cells, owners)
    status = min(status, 0)
    if remembering:
        memo_ok[line] = 1 if status == 0 else 0
        if status == 0:
            memo_lo[line, :k] = lo
            memo_hi[line, :k] = hi
    return status, lo, hi


@njit(**OPTIONS)
def _assume_owner(clue, lo, hi, start, end, owner):
    """owner_branching._assume_owner: False where it raises."""
    block = clue[owner]
    if block < end - start + 1:
        return False
    lo[owner] = max(lo[owner], end - block + 1)
    hi[owner] = min(hi[owner], start + block - 1)
    for j in range(owner):
        hi[j] = min(hi[j], start - 2)
    for j in range(owner + 1, clue.size):
        lo[j] = max(lo[j], end + 2)
    for j in range(clue.size):  # noqa: SIM110 (numba compiles no generator into all())
        if hi[j] - lo[j] + 1 < clue[j]:
            return False
    return True


@njit(**OPTIONS)
def _line_fixpoint(clue, current, lo, hi):
    """owner_branching.line_fixpoint on ``current`` in place: False where it raises."""
    k = clue.size
    while True:
        if _narrow_from(clue, current, lo, hi, True) == BROKEN:
            return False
        status, block_open, gap_start, gap_stop, gap_open = deduction_spans(clue, current,
                                                                            lo, hi)
        if status < 0:
            return False
        changed = False
        for j in range(k):
            if block_open[j]:
                for c in range(hi[j] - clue[j] + 1, lo[j] + clue[j]):
                    current[c] = FILLED  # (an overlap's known cells are filled already)
                changed = True
        for j in range(k + 1):
            if gap_open[j]:
                for c in range(gap_start[j], gap_stop[j]):
                    current[c] = EMPTY  # (a gap holds no filled cell: BROKEN above)
                changed = True
        if not changed:
            return True


@njit(**OPTIONS)
def _owner_branching_sizes(clue, cells, out, at, line, memo_lo, memo_hi, memo_ok):
    """owner_branching.find's deductions' sizes into ``out[at:]``: their count, or BROKEN
    where find raises."""
    k = clue.size
    n = cells.size
    status, lo, hi = _narrow_remembered(clue, cells, True, line, memo_lo, memo_hi, memo_ok)
    if status < 0:
        return BROKEN
    run_start, run_end = filled_runs(cells)
    runs = run_start.size
    if not runs:
        return 0
    first = np.empty(runs, np.int64)
    last = np.empty(runs, np.int64)
    if _possible_owners(clue, lo, hi, run_start, run_end, first, last) == BROKEN:
        return BROKEN
    agreed = np.empty(n, np.uint8)
    current = np.empty(n, np.uint8)
    branch_lo = np.empty(k, np.int64)
    branch_hi = np.empty(k, np.int64)
    count = 0
    for r in range(runs):
        if first[r] == last[r]:
            continue
        survivors = 0
        for owner in range(first[r], last[r] + 1):
            for j in range(k):
                branch_lo[j] = lo[j]
                branch_hi[j] = hi[j]
            if not _assume_owner(clue, branch_lo, branch_hi, run_start[r], run_end[r], owner):
                continue
            for p in range(n):
                current[p] = cells[p]
            if not _line_fixpoint(clue, current, branch_lo, branch_hi):
                continue
            for p in range(n):  # a cell the survivors disagree on goes back to unknown
                if survivors == 0:
                    agreed[p] = current[p]
                elif agreed[p] != current[p]:
                    agreed[p] = UNKNOWN
            survivors += 1
        if survivors == 0:
            return BROKEN
        size = 0
        for p in range(n):
            if cells[p] == UNKNOWN and agreed[p] != UNKNOWN:
                size += 1
        if size:
            out[at + count] = size
            count += 1
    return count


#: simple_rounds outcomes: rung 1 has no deduction left; it may have more (the rounds
#: asked for were run); a line is broken (its number is returned: the finder says why)
ROUNDS_IDLE, ROUNDS_MORE, ROUNDS_BROKEN = 0, 1, 2
#: numbers before a step's cells in simple_rounds' record (see there)
STEP_HEAD = 7


@njit(**OPTIONS)
def _grown(record, needed):
    """``record``, or a copy twice as long when ``needed`` numbers would not fit."""
    if needed <= record.size:
        return record
    bigger = np.empty(max(needed, 2 * record.size), record.dtype)
    bigger[:record.size] = record
    return bigger


@njit(**OPTIONS)
def _grown_rows(table, needed):
    """``table``, or a copy with twice the rows when ``needed`` rows would not fit."""
    if needed <= table.shape[0]:
        return table
    bigger = np.empty((max(needed, 2 * table.shape[0]), table.shape[1]), table.dtype)
    bigger[:table.shape[0]] = table
    return bigger


@njit(inline="always", **OPTIONS)
def _found_row(found, row, line, kind, j, a, b, size):
    """One deduction of a simple_rounds round: line, kind, index, range or span, size."""
    found[row, 0] = line
    found[row, 1] = kind
    found[row, 2] = j
    found[row, 3] = a
    found[row, 4] = b
    found[row, 5] = size


@njit(**OPTIONS)
def simple_rounds(clues, nclues, grid, dirty, rounds):
    """The engine's rung 1 on a big grid, ``rounds`` rounds at most in one call (the
    deadline is looked at between calls). A round: every line of ``dirty`` (rows, then
    columns) with an unknown cell is narrowed as simple.find does (line_summary without
    owners) and gives its deductions (blocks, then gaps); all of them, the biggest first
    (stable), are applied to ``grid`` on the cells still unknown (one that has none left
    is passed over), and the lines they change are the next round's ``dirty``.

    Returns (outcome, record, used, broken line). ``record[:used]`` holds the steps taken,
    each: line, kind (0 a block's overlap, 1 a gap), block or gap index j, lo[j] and hi[j]
    (a gap: its start and stop), the round's number of deductions, the number of cells,
    then the cells' positions along the line. A broken line stops before its round takes
    any step; ``dirty`` then still holds that round's lines.
    """
    h = grid.shape[0]
    w = grid.shape[1]
    lines = h + w
    column = np.empty(h, np.uint8)
    found = np.empty((256, 6), np.int64)  # line, kind, j, a, b, size
    record = np.empty(4096, np.int64)
    used = 0
    for _ in range(rounds):
        count = 0
        for line in range(lines):
            if not dirty[line]:
                continue
            cells = _grid_line(grid, line, column)
            unknown = 0
            for p in range(cells.size):
                if cells[p] == UNKNOWN:
                    unknown += 1
            if not unknown:
                continue
            clue = clues[line, :nclues[line]]
            status, lo, hi, _, _, _, _ = narrow_line(clue, cells, False)
            if status < 0:
                return ROUNDS_BROKEN, record, used, line
            spans_status, block_open, gap_start, gap_stop, gap_open = deduction_spans(
                clue, cells, lo, hi)
            if spans_status < 0:
                return ROUNDS_BROKEN, record, used, line
            k = clue.size
            found = _grown_rows(found, count + 2 * k + 1)
            for j in range(k):
                if block_open[j]:
                    _found_row(found, count, line, 0, j, lo[j], hi[j], block_open[j])
                    count += 1
            for j in range(k + 1):
                if gap_open[j]:
                    _found_row(found, count, line, 1, j, gap_start[j], gap_stop[j],
                               gap_open[j])
                    count += 1
        for line in range(lines):
            dirty[line] = 0
        if count == 0:
            return ROUNDS_IDLE, record, used, -1
        # the biggest first, ties in the order found: sizes are at most a line's length
        keys = np.empty(count, np.int64)
        for i in range(count):
            keys[i] = (max(h, w) - found[i, 5]) * count + i
        for i in np.argsort(keys):
            line = found[i, 0]
            block = found[i, 1] == 0
            j = found[i, 2]
            if block:
                clue_j = clues[line, j]
                first = found[i, 4] - clue_j + 1
                stop = found[i, 3] + clue_j
                state = FILLED
            else:
                first = found[i, 3]
                stop = found[i, 4]
                state = EMPTY
            record = _grown(record, used + STEP_HEAD + stop - first)
            head = used
            taken = 0
            for p in range(first, stop):
                if line < h:
                    if grid[line, p] != UNKNOWN:
                        continue
                    grid[line, p] = state
                    dirty[h + p] = 1
                else:
                    if grid[p, line - h] != UNKNOWN:
                        continue
                    grid[p, line - h] = state
                    dirty[p] = 1
                record[head + STEP_HEAD + taken] = p
                taken += 1
            if not taken:
                continue
            dirty[line] = 1
            record[head] = line
            record[head + 1] = 0 if block else 1
            record[head + 2] = j
            record[head + 3] = found[i, 3]
            record[head + 4] = found[i, 4]
            record[head + 5] = count
            record[head + 6] = taken
            used = head + STEP_HEAD + taken
    return ROUNDS_MORE, record, used, -1
