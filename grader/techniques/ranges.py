"""Block ranges: the stretch of cells each block of a clue can still occupy.

Shared by rungs 1-3. ``lo[j]`` is the first cell block ``j`` can start at, ``hi[j]`` the last
cell it can reach. Ranges only ever shrink; a block left with no room is a Contradiction.

Lines of :data:`COMPILED_FROM` cells or more are narrowed by the compiled twin of this
module, :mod:`grader.solver.line_ranges`, step for step the same; a change to the narrowing
here must be made there too (``tests/test_line_ranges.py`` compares the two on random lines).
"""

from __future__ import annotations

import threading
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from grader.errors import Contradiction
from grader.model import Clue, format_clue
from grader.techniques.base import (
    EMPTY,
    FILLED,
    UNKNOWN,
    LineCells,
    LineDeduction,
    PendingDeductions,
    cells_array,
    filled_runs,
)

Array = npt.NDArray[np.int64]
#: filled run (first, last cell) -> (first, last block that could own it) when the owner
#: rules narrowed a range because of it
OwnerNotes = dict[tuple[int, int], tuple[int, int]]


@dataclass
class Ranges:
    """Mutable working ranges of one line, with why owner rules narrowed them."""

    lo: list[int]
    hi: list[int]
    owner_notes: OwnerNotes = field(default_factory=dict)

    @classmethod
    def initial(cls, clue: Clue, length: int) -> Ranges:
        """Ranges from the clue alone: every block pushed fully left, then fully right."""
        lo, hi = [], []
        position = 0
        for block in clue:
            lo.append(position)
            position += block + 1
        position = length - 1
        for block in reversed(clue):
            hi.append(position)
            position -= block + 1
        hi.reverse()
        return cls(lo, hi)

    def copy(self) -> Ranges:
        return Ranges(list(self.lo), list(self.hi), dict(self.owner_notes))


def _empty_counts(cells: LineCells) -> list[int]:
    """counts[i] = how many of cells[0:i] are EMPTY."""
    counts = [0]
    for state in cells:
        counts.append(counts[-1] + (state == EMPTY))
    return counts


def _fits(cells: LineCells, empties: list[int], start: int, length: int) -> bool:
    """Block of ``length`` can sit at ``start`` on its own: no empty cell under it, no
    filled cell touching either end (that would make a longer run)."""
    end = start + length
    if start < 0 or end > len(cells):
        return False
    if start > 0 and cells[start - 1] == FILLED:
        return False
    if end < len(cells) and cells[end] == FILLED:
        return False
    return empties[end] == empties[start]


def _no_room(clue: Clue, j: int) -> Contradiction:
    return Contradiction(f"block {j + 1} (the {clue[j]}) of {format_clue(clue)} has no room")


def narrow_simple(
    clue: Clue,
    cells: LineCells,
    ranges: Ranges,
    empties: list[int] | None = None,
    checked: tuple[list[int], list[int]] | None = None,
) -> bool:
    """Rung 1: empty cells cut ranges, neighbours push them, touching runs exclude starts.

    Narrows ``ranges`` in place to a fixpoint; True when anything changed. ``checked``
    remembers, for the same cells, the extreme positions already found to fit, so that
    repeated calls (between owner rules) only test blocks that moved.
    """
    lo, hi = ranges.lo, ranges.hi
    if empties is None:
        empties = _empty_counts(cells)
    fit_lo, fit_hi = checked if checked is not None else ([-1] * len(clue), [-1] * len(clue))
    changed_any = False
    while True:
        changed = False
        for j, block in enumerate(clue):
            start = lo[j]
            if j > 0:
                start = max(start, lo[j - 1] + clue[j - 1] + 1)
            if start != fit_lo[j]:
                while start + block - 1 <= hi[j] and not _fits(cells, empties, start, block):
                    start += 1
                fit_lo[j] = start
            if start + block - 1 > hi[j]:
                raise _no_room(clue, j)
            if start != lo[j]:
                lo[j] = start
                changed = True
        for j in range(len(clue) - 1, -1, -1):
            block = clue[j]
            end = hi[j]
            if j < len(clue) - 1:
                end = min(end, hi[j + 1] - clue[j + 1] - 1)
            if end != fit_hi[j]:
                while end - block + 1 >= lo[j] and not _fits(
                    cells, empties, end - block + 1, block
                ):
                    end -= 1
                fit_hi[j] = end
            if end - block + 1 < lo[j]:
                raise _no_room(clue, j)
            if end != hi[j]:
                hi[j] = end
                changed = True
        if not changed:
            return changed_any
        changed_any = True


def possible_owners(
    clue: Clue, ranges: Ranges, runs: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """(first, last) block that could own each filled run, in order.

    Owners never go backwards along the line, so each run's first owner is at least the
    previous run's, and its last at most the next run's.
    """
    owners: list[tuple[int, int]] = []
    for start, end in runs:
        # Ranges keep the blocks' order: the blocks reaching the run are one stretch.
        low = bisect_left(ranges.hi, end)
        high = bisect_right(ranges.lo, start) - 1
        length = end - start + 1
        while low <= high and clue[low] < length:
            low += 1
        while high >= low and clue[high] < length:
            high -= 1
        if low > high:
            raise Contradiction(f"no block of {format_clue(clue)} can hold cells {start}-{end}")
        owners.append((low, high))
    for i in range(1, len(owners)):
        owners[i] = (max(owners[i][0], owners[i - 1][0]), owners[i][1])
    for i in range(len(owners) - 2, -1, -1):
        owners[i] = (owners[i][0], min(owners[i][1], owners[i + 1][1]))
    for (start, end), (first, last) in zip(runs, owners, strict=False):
        if first > last:
            raise Contradiction(f"no block of {format_clue(clue)} can hold cells {start}-{end}")
    return owners


def narrow_owners(
    clue: Clue, cells: LineCells, ranges: Ranges, runs: list[tuple[int, int]] | None = None
) -> bool:
    """Rung 2: extreme owners of each filled run narrow the ranges; True on change.

    Blocks before the first possible owner lie wholly left of the run, blocks after the
    last wholly right; the first owner cannot lie wholly right of it and the last not
    wholly left, so each either covers the run or keeps clear on its own side.
    """
    if runs is None:
        runs = filled_runs(cells)
    if not runs:
        return False
    owners = possible_owners(clue, ranges, runs)
    lo, hi = ranges.lo, ranges.hi
    changed = False

    for run, (first, last) in zip(runs, owners, strict=True):
        start, end = run
        # Only the neighbours of the extreme owners are pushed here: rung 1's neighbour
        # rule carries the push on to the blocks beyond them.
        caps = [(first, start + clue[first] - 1)]
        if first > 0:
            caps.append((first - 1, start - 2))
        floors = [(last, end - clue[last] + 1)]
        if last < len(clue) - 1:
            floors.append((last + 1, end + 2))
        for j, value in caps:
            if value < hi[j]:
                hi[j] = value
                ranges.owner_notes[run] = (first, last)
                changed = True
        for j, value in floors:
            if value > lo[j]:
                lo[j] = value
                ranges.owner_notes[run] = (first, last)
                changed = True
    for j, block in enumerate(clue):
        if hi[j] - lo[j] + 1 < block:
            raise _no_room(clue, j)
    return changed


def narrow(clue: Clue, cells: LineCells, ranges: Ranges, *, owners: bool) -> None:
    """Narrow to the fixpoint of rung 1, or of rungs 1 and 2 together."""
    empties = _empty_counts(cells)
    checked = ([-1] * len(clue), [-1] * len(clue))
    narrow_simple(clue, cells, ranges, empties, checked)
    if not owners:
        return
    runs = filled_runs(cells)
    while narrow_owners(clue, cells, ranges, runs):
        narrow_simple(clue, cells, ranges, empties, checked)


#: lines at least this long are narrowed by the compiled kernels of
#: grader.solver.line_ranges (equal results, held to the Python code here by the tests).
#: Rungs 1-2 on one line cost 15-20 us compiled against 60-270 us in Python for 20-100
#: cells, but loading numba costs a process about 0.4 s: shorter lines, an everyday
#: puzzle's, stay in Python (grading a 40x40 loads no numba)
COMPILED_FROM = 64


@lru_cache(maxsize=1)
def line_kernels() -> ModuleType:
    """grader.solver.line_ranges, imported on first use (a function-level import costs a
    microsecond or two each time: the cauldron's 100,000 line searches paid 4 % for it)."""
    from grader.solver import line_ranges

    return line_ranges


def _compiled_ranges(clue: Clue, cells: LineCells, owners: bool) -> Ranges:
    status, lo, hi, starts, ends, firsts, lasts = line_kernels().narrow_line(
        _clue_array(clue), cells_array(cells), owners)
    if status < 0:  # the reference raises with the words that name the problem
        ranges = Ranges.initial(clue, len(cells))
        narrow(clue, cells, ranges, owners=owners)
        raise AssertionError("the compiled ranges broke a line the reference fills")
    return Ranges(lo.tolist(), hi.tolist(), _notes(starts, ends, firsts, lasts))


def _notes(starts: Array, ends: Array, firsts: Array, lasts: Array) -> OwnerNotes:
    """Owner notes from the kernel's per-run arrays (first owner -1: no note)."""
    return {(s, e): (f, g) for s, e, f, g in zip(starts.tolist(), ends.tolist(),
                                                 firsts.tolist(), lasts.tolist(), strict=True)
            if f >= 0}


@lru_cache(maxsize=1 << 12)
def _clue_array(clue: Clue) -> Array:
    return np.array(clue, dtype=np.int64)


@lru_cache(maxsize=1 << 15)
def _narrowed(
    clue: Clue, cells: tuple[int, ...], owners: bool
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[tuple[int, int], tuple[int, int]], ...]]:
    if len(cells) >= COMPILED_FROM:
        ranges = _compiled_ranges(clue, cells, owners)
    else:
        ranges = Ranges.initial(clue, len(cells))
        narrow(clue, cells, ranges, owners=owners)
    return tuple(ranges.lo), tuple(ranges.hi), tuple(ranges.owner_notes.items())


def narrowed(clue: Clue, cells: LineCells, *, owners: bool) -> Ranges:
    """Fresh ranges narrowed to the fixpoint of rung 1 (or of rungs 1 and 2).

    The narrowing with owners is memoised by clue and cells: the rungs from extreme owners
    up start from the same narrowing of the same line. Rung 1 alone is cheaper to redo
    than to look up (the memo cost easy puzzles, which rarely repeat a line, 15 %)."""
    if not owners:
        if len(cells) >= COMPILED_FROM:
            return _compiled_ranges(clue, cells, owners)
        ranges = Ranges.initial(clue, len(cells))
        narrow(clue, cells, ranges, owners=False)
        return ranges
    lo, hi, notes = _narrowed(clue, tuple(cells), owners)
    return Ranges(list(lo), list(hi), dict(notes))


def deductions_from_ranges(clue: Clue, cells: LineCells, ranges: Ranges) -> list[LineDeduction]:
    """Overlaps of each block's extreme positions are filled; cells in no range empty.

    The techniques are ``simple-boxes`` and ``simple-spaces``, or ``owner-boxes`` and
    ``owner-spaces`` when extreme owners narrowed the ranges that decide them.
    """
    spans = _open_spans(clue, cells, ranges) if len(cells) >= COMPILED_FROM else None
    if spans is None:
        return _build_deductions(clue, cells, ranges, range(len(clue)),
                                 _gaps(clue, cells, ranges))
    return _build_deductions(clue, cells, ranges, *spans) if spans != ([], []) else []


def line_deductions(clue: Clue, cells: LineCells, *, owners: bool) -> Sequence[LineDeduction]:
    """Every deduction of rung 1 (or of rungs 1 and 2 together) on one line: the
    deductions of :func:`narrowed` ranges; for a long line from one compiled call, and
    built only when read (the engine reads those of the line it takes a step from)."""
    if len(cells) < COMPILED_FROM:
        return deductions_from_ranges(clue, cells, narrowed(clue, cells, owners=owners))
    kernels = line_kernels()
    out = _thread_buffer("summary", kernels.summary_size(len(cells)), 4096)
    count = kernels.line_summary(_clue_array(clue), cells_array(cells), owners, out)
    if count < 0:  # the reference raises with the words for it
        return deductions_from_ranges(clue, cells, narrowed(clue, cells, owners=owners))
    if not count:
        return []
    record = out[:out[kernels.SUMMARY_LENGTH]].tolist()  # the buffer is the next line's
    spans = record[-5 * count:]
    return PendingDeductions(spans[2::5], lambda: _deductions_of_summary(clue, cells, record))


#: line rungs whose deductions deduction_sizes_many can size in one compiled call
SIZES_KINDS = {"simple": 0, "owners": 1, "gaps": 2, "owner-branching": 3}  # line_ranges.SIZES_*
#: whether each kind's narrowing uses the owner rules (kinds alike share a RangesMemo)
SIZES_OWNERS = {"simple": False, "owners": True, "gaps": False, "owner-branching": True}
#: most bytes one RangesMemo may take (a 512x512 grid's: about 1.6 MB)
MEMO_BYTES = 32 << 20


@dataclass
class RangesMemo:
    """Each line's ranges after its last narrowing (rows, then columns), kept between
    deduction_sizes_many calls on one grid that only gains known cells: the next
    narrowing of the line starts from them (line_ranges._narrow_remembered)."""

    lo: Array
    hi: Array
    ok: npt.NDArray[np.uint8]

    @classmethod
    def for_clues(cls, clues: Array) -> RangesMemo | None:
        """A memo for the lines of a clue table, or None when it would take more than
        MEMO_BYTES."""
        if 2 * clues.size * 8 > MEMO_BYTES:
            return None
        return cls(np.zeros_like(clues), np.zeros_like(clues),
                   np.zeros(clues.shape[0], dtype=np.uint8))


_NO_MEMO = (np.zeros((0, 0), dtype=np.int64), np.zeros((0, 0), dtype=np.int64),
            np.zeros(0, dtype=np.uint8))
#: numbers one deduction_sizes_many call writes at most (the lines after wait a call)
_SIZES_ROOM = 1 << 16


def deduction_sizes_many(
    kind: str, clues: npt.NDArray[np.int64], nclues: npt.NDArray[np.int64],
    grid: npt.NDArray[np.uint8], numbers: list[int], memo: RangesMemo | None = None,
) -> list[list[int] | None]:
    """The sizes of the deductions a line rung (``kind``, see SIZES_KINDS) has on each of
    ``numbers`` (rows, then columns, of ``grid``), as its finder would list them; None
    for a line its finder would find broken (ask the finder for the words). The same
    narrowing as the finders' (equal sizes on any line: tests hold them so), without a
    call from Python a line. ``memo``: the ranges of earlier calls of kinds with the same
    SIZES_OWNERS on this grid, as it was with fewer known cells (kept up to date)."""
    kernels = line_kernels()
    code = SIZES_KINDS[kind]
    kept = (memo.lo, memo.hi, memo.ok) if memo is not None else _NO_MEMO
    lines = np.array(numbers, dtype=np.int64)
    counts = np.zeros(len(numbers), dtype=np.int64)
    sizes = _thread_buffer("sizes", max(grid.shape) + 2, _SIZES_ROOM)
    result: list[list[int] | None] = []
    done = 0
    while done < len(numbers):
        upto = done + kernels.deduction_sizes_many(
            code, clues, nclues, grid, lines[done:], counts[done:], sizes, *kept)
        chunk = counts[done:upto].tolist()
        flat = sizes[:sum(c for c in chunk if c > 0)].tolist()
        at = 0
        for count in chunk:
            if count < 0:
                result.append(None)
                continue
            result.append(flat[at:at + count])
            at += count
        done = upto
    return result


def _deductions_of_summary(clue: Clue, cells: LineCells, record: list[int]) -> list[LineDeduction]:
    """The deductions a line_summary record describes (see there for its layout)."""
    k = record[1]
    lo, hi = record[2:2 + k], record[2 + k:2 + 2 * k]
    at = 2 + 2 * k
    runs = record[at]
    notes = {(record[i], record[i + 1]): (record[i + 2], record[i + 3])
             for i in range(at + 1, at + 1 + 4 * runs, 4) if record[i + 2] >= 0}
    at += 1 + 4 * runs
    spans = [record[i:i + 5] for i in range(at + 1, len(record), 5)]
    blocks = [j for kind, j, *_ in spans if kind == 0]
    gaps = [(j, start, stop) for kind, j, _, start, stop in spans if kind == 1]
    return _build_deductions(clue, cells, Ranges(lo, hi, notes), blocks, gaps)


_buffers = threading.local()


def _thread_buffer(name: str, size: int, floor: int) -> npt.NDArray[np.int64]:
    """This thread's buffer ``name`` (line_summary records, batch sizes), of ``size`` at
    least and never under ``floor``."""
    buffer: npt.NDArray[np.int64] | None = getattr(_buffers, name, None)
    if buffer is None or buffer.size < size:
        buffer = np.empty(max(size, floor), dtype=np.int64)
        setattr(_buffers, name, buffer)
    return buffer


def _build_deductions(
    clue: Clue, cells: LineCells, ranges: Ranges, blocks: Iterable[int],
    gaps: Iterable[tuple[int, int, int]],
) -> list[LineDeduction]:
    """The deductions of the given blocks' overlaps and gaps (those without an unknown
    cell give none), with the owner notes that narrowed them."""
    found: list[LineDeduction] = []
    lo, hi = ranges.lo, ranges.hi
    notes = _notes_by_block(clue, ranges)
    for j in blocks:
        block = clue[j]
        first, last = hi[j] - block + 1, lo[j] + block - 1
        changes = tuple((c, FILLED) for c in range(first, last + 1) if cells[c] == UNKNOWN)
        if changes:
            facts: dict[str, Any] = {
                "block": j,
                "length": block,
                "range": (lo[j], hi[j]),
                "covers": (first, last),
            }
            if j in notes:
                facts["owners"] = notes[j]
            boxes = "owner-boxes" if j in notes else "simple-boxes"
            found.append(LineDeduction(boxes, changes, facts))
    all_notes = _unique([n for block_notes in notes.values() for n in block_notes]) if notes else []
    for j, start, stop in gaps:
        changes = tuple((c, EMPTY) for c in range(start, stop) if cells[c] == UNKNOWN)
        if changes:
            facts = {"stretch": (start, stop - 1), "after_block": j - 1}
            if j < len(clue):
                facts["before_block"] = j
            if all_notes:
                # the runs whose owners are the blocks on either side of the gap
                near = [n for n in all_notes if n["first"] <= j and n["last"] >= j - 1]
                facts["owners"] = near or all_notes
            spaces = "owner-spaces" if all_notes else "simple-spaces"
            found.append(LineDeduction(spaces, changes, facts))
    return found


def _gaps(clue: Clue, cells: LineCells, ranges: Ranges) -> list[tuple[int, int, int]]:
    """(j, start, stop) of each stretch of cells in no block's range: gap j ends where
    block j's range starts (the line's end for j = the number of blocks); Contradiction
    when one holds a filled cell. (A list, not a generator: resuming one per gap cost the
    magazine puzzles 4 %.)"""
    # Ranges keep the blocks' order, so the cells in no range are the gaps between the
    # running end of the ranges so far and the next range's start.
    lo, hi = ranges.lo, ranges.hi
    found: list[tuple[int, int, int]] = []
    reach = -1
    for j in range(len(clue) + 1):
        start = reach + 1
        stop = lo[j] if j < len(clue) else len(cells)
        if start < stop:
            for position in range(start, stop):
                if cells[position] == FILLED:
                    raise Contradiction(
                        f"cell {position + 1} is filled but no block of {format_clue(clue)} "
                        "reaches it"
                    )
            found.append((j, start, stop))
        if j < len(clue):
            reach = max(reach, hi[j])
    return found


def _open_spans(
    clue: Clue, cells: LineCells, ranges: Ranges
) -> tuple[list[int], list[tuple[int, int, int]]] | None:
    """The blocks and gaps of a long line that hold unknown cells, found by the compiled
    kernel (most long lines, most of the time, have none: nothing is built for them);
    None when a gap holds a filled cell, for the Python code to say so."""
    status, block_open, starts, stops, gap_open = line_kernels().deduction_spans(
        _clue_array(clue), cells_array(cells),
        np.array(ranges.lo, dtype=np.int64), np.array(ranges.hi, dtype=np.int64))
    if status < 0:
        return None
    blocks = np.flatnonzero(block_open).tolist()
    gaps = [(j, int(starts[j]), int(stops[j])) for j in np.flatnonzero(gap_open).tolist()]
    return blocks, gaps


def _notes_by_block(clue: Clue, ranges: Ranges) -> dict[int, list[dict[str, Any]]]:
    """For each block, the runs it might own whose extreme owners narrowed the line."""
    result: dict[int, list[dict[str, Any]]] = {}
    for (start, end), (first, last) in sorted(ranges.owner_notes.items()):
        for j in range(first, last + 1):
            result.setdefault(j, []).append({"run": (start, end), "first": first, "last": last})
    return result


def _unique(notes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = []
    for note in notes:
        if note not in result:
            result.append(note)
    return result


def apply_line(cells: LineCells, deductions: Sequence[LineDeduction]) -> list[int]:
    """The line with every deduction applied; Contradiction when two disagree."""
    result = list(cells)
    for deduction in deductions:
        for position, state in deduction.changes:
            merged = result[position] & state
            if not merged:
                raise Contradiction(f"cell {position + 1} would be both filled and empty")
            result[position] = merged
    return result
