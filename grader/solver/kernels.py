# mypy: allow-untyped-defs
"""Compiled kernels: complete line solve and propagation over a queue of changed lines.

Everything here is ``numba.njit(cache=True)`` over numpy arrays and allocates nothing in
its inner loops: callers pass scratch buffers (see :class:`grader.solver.workspace.Workspace`).
The line solve is the same dynamic programme as :func:`grader.lines.solve_line` (prefix and
suffix reachability). Its rows are bit sets, one fill each: in one word for lines of up to
62 cells (about 0.2 us for 25 cells), in a pair of words up to 125 (0.5 us for 95 cells).
Longer lines use tables (O(length x blocks), with a difference array for the "can be
filled" marks).

Lines are numbered rows first: line ``i < h`` is row ``i``, line ``h + j`` is column ``j``.

Kernel arguments keep one name for one thing in every kernel:

* ``clue`` (int64 blocks of one line, possibly zero-padded), ``k`` (how many blocks count),
  ``n`` (the line's length), ``line`` (a line number), ``h`` and ``w`` (grid height, width);
* ``cells``, ``line_in`` (uint8 states of one line, read), ``out``, ``line_out`` (written);
* ``filled``, ``empty`` (bit sets of a line's known cells, bit x = cell x), ``fits``,
  ``scratch`` (scratch words of the bit-set solves);
* ``grid`` (the (h, w) uint8 grid, changed in place), ``source``, ``target`` (grids
  copied from and to);
* ``state`` (the probing fixpoint's slots CURSOR ... FOUND_COUNT, so a call can resume),
  ``work_limit`` (stop once ``counters[0]``, the line solves, reaches it);
* the shared buffers ``clues``, ``nclues``, ``fwd``, ``bwd``, ``empties``, ``marks``,
  ``counters``, ``cache_keys``, ``cache_vals``, ``mask_keys``, ``mask_vals`` (the fields
  of :class:`grader.solver.bundles.LineWork`) and ``queue``, ``in_queue``, ``qstate``
  (:class:`grader.solver.bundles.Queue`), documented there; the bundles themselves
  ``lw`` (LineWork), ``q`` (Queue) and ``probing`` (Probing: ``trial_filled``,
  ``trial_empty``, ``found``, ``state``), as the loops called once per node take them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from grader.jit_cache import prepare_cache

# Before any function below is compiled or loaded: numba caches in the user's cache folder
# (never inside the installed package) and never loads code older than its callees. Every
# compiled module imports this one first.
prepare_cache(Path(__file__).resolve().parent)

#: numba options of every kernel: cached, releasing the GIL, and without reference
#: counting. The kernels allocate nothing (callers pass every buffer), so the atomic
#: increments and decrements numba puts around each array view, bundle field and call
#: only cost: a fifth of the conflict search's time on hard 25x25 puzzles.
KERNEL: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}

EMPTY = np.uint8(1)
FILLED = np.uint8(2)
UNKNOWN = np.uint8(3)

#: propagate() result when the clues and the grid disagree
CONTRADICTION = -1


#: longest line the bit-parallel line solve takes: positions 0..n in one int64, sign bit spare
BITS_MAX_LENGTH = 62


@njit(**KERNEL)
def _fill_up(seeds, passable):
    """Positions reachable from ``seeds`` by steps i -> i+1 onto ``passable`` bits.

    Kogge-Stone fill: six doubling steps cover any distance below 64.
    """
    g = seeds
    p = passable
    g |= p & (g << 1)
    p &= p << 1
    g |= p & (g << 2)
    p &= p << 2
    g |= p & (g << 4)
    p &= p << 4
    g |= p & (g << 8)
    p &= p << 8
    g |= p & (g << 16)
    p &= p << 16
    g |= p & (g << 32)
    return g


@njit(**KERNEL)
def _fill_down(seeds, passable):
    """Positions reachable from ``seeds`` by steps i -> i-1 onto ``passable`` bits."""
    g = seeds
    p = passable
    g |= p & (g >> 1)
    p &= p >> 1
    g |= p & (g >> 2)
    p &= p >> 2
    g |= p & (g >> 4)
    p &= p >> 4
    g |= p & (g >> 8)
    p &= p >> 8
    g |= p & (g >> 16)
    p &= p >> 16
    g |= p & (g >> 32)
    return g


@njit(**KERNEL)
def _runs_from(bits, length):
    """Starts s whose ``length`` bits s..s+length-1 are all set in ``bits`` (non-negative)."""
    result = bits
    have = 1  # result: runs of ``have`` set bits
    run = bits  # runs of ``step`` set bits
    step = 1
    remaining = length - 1
    # add the missing length by doubling runs, lowest binary digits first
    while remaining > 0:
        if remaining & 1:
            result &= run >> have
            have += step
        run &= run >> step
        step <<= 1
        remaining >>= 1
    return result


@njit(**KERNEL)
def _spread(starts, length):
    """Cells s..s+length-1 for every start s in ``starts``."""
    result = starts
    have = 1
    run = starts
    step = 1
    remaining = length - 1
    while remaining > 0:
        if remaining & 1:
            result |= run << have
            have += step
        run |= run << step
        step <<= 1
        remaining >>= 1
    return result


@njit(**KERNEL)
def _starts_after(fwd, j, not_filled, position_mask):
    """Where block j may start after blocks 0..j-1: position fwd[j] plus an empty gap."""
    if j == 0:
        return fwd[0]
    return ((fwd[j] & not_filled) << 1) & position_mask


# inlined where used: a tuple result across a compiled call costs a third of a solve
@njit(inline="always", **KERNEL)
def solve_masks(clue, k, n, filled, empty, fwd, bwd, fits):
    """The complete line solve on bit sets: (ok, cells that may be filled, may be empty).

    ``filled``/``empty``: bit i set when cell i is known FILLED/EMPTY (n <= BITS_MAX_LENGTH).
    Bit i of a position set stands for position i (0..n), of a cell set for cell i.
    fwd[j]: positions i where blocks 0..j-1 fit in cells[0:i] (cell i-1 empty or the end
    of block j-1); bwd[j]: positions i where blocks j..k-1 fit in cells[i:n]; fits[j]:
    starts where block j lies on no EMPTY cell. The same recurrences as the table
    version, a word at a time: a table row is one fill, so a solve is O(k log n). When
    ok, every cell is in one of the two sets (a placement exists).
    """
    cell_mask = (np.int64(1) << n) - 1
    position_mask = (np.int64(1) << (n + 1)) - 1
    not_filled = cell_mask & ~filled
    not_empty = cell_mask & ~empty
    # a step i -> i+1 (forward) passes cell i; i+1 -> i (backward) passes cell i too
    pass_up = (not_filled << 1) & position_mask
    fwd[0] = _fill_up(np.int64(1), pass_up)
    for j in range(k):
        length = clue[j]
        fit = _runs_from(not_empty, length)
        fits[j] = fit
        starts = _starts_after(fwd, j, not_filled, position_mask)
        ends = ((starts & fit) << length) & position_mask
        fwd[j + 1] = _fill_up(ends, pass_up)
    if not (fwd[k] >> n) & 1:
        return False, np.int64(0), np.int64(0)
    bwd[k] = _fill_down(np.int64(1) << n, not_filled)
    can_empty = fwd[k] & (bwd[k] >> 1) & not_filled
    can_fill = np.int64(0)
    for j in range(k - 1, -1, -1):
        length = clue[j]
        after = bwd[k] if j == k - 1 else (bwd[j + 1] >> 1) & not_filled
        starts = (after >> length) & fits[j]
        bwd[j] = _fill_down(starts, not_filled)
        # a start both ways: block j can lie there; cells around it may be empty
        before = _starts_after(fwd, j, not_filled, position_mask)
        can_fill |= _spread(before & starts, length)
        can_empty |= fwd[j] & (bwd[j] >> 1) & not_filled
    return True, can_fill & cell_mask, can_empty


@njit(inline="always", **KERNEL)
def line_masks(cells, n):
    """(filled, empty) bit sets of ``cells[:n]``."""
    filled = np.int64(0)
    empty = np.int64(0)
    for i in range(n):
        if cells[i] == FILLED:
            filled |= np.int64(1) << i
        elif cells[i] == EMPTY:
            empty |= np.int64(1) << i
    return filled, empty


@njit(**KERNEL)
def solve_line_bits(clue, k, cells, n, out, fwd, bwd, fits):
    """solve_line_into for lines of at most BITS_MAX_LENGTH cells, through solve_masks."""
    filled, empty = line_masks(cells, n)
    ok, can_fill, can_empty = solve_masks(clue, k, n, filled, empty, fwd, bwd, fits)
    if not ok:
        return False
    for i in range(n):
        out[i] = ((can_empty >> i) & 1) | (((can_fill >> i) & 1) << 1)
    return True


#: bits a word of the two-word line solve holds (the sign bit stays clear)
WORD_BITS = 63
WORD_MASK = np.int64(0x7FFFFFFFFFFFFFFF)


#: longest line the two-word solve takes: positions 0..n in two words of 63 bits
PAIR_MAX_LENGTH = 2 * WORD_BITS - 1


# The two-word helpers return pairs: inlined, as a tuple result across a call is slow.
@njit(inline="always", **KERNEL)
def _p_up(lo, hi, s, top):
    """(lo, hi) shifted s positions up; positions past ``top`` in hi drop."""
    if s >= WORD_BITS:
        return np.int64(0), (lo << (s - WORD_BITS)) & top
    return (lo << s) & WORD_MASK, ((hi << s) | (lo >> (WORD_BITS - s))) & top


@njit(inline="always", **KERNEL)
def _p_down(lo, hi, s):
    """(lo, hi) shifted s positions down."""
    if s >= WORD_BITS:
        return hi >> (s - WORD_BITS), np.int64(0)
    return (lo >> s) | ((hi << (WORD_BITS - s)) & WORD_MASK), hi >> s


@njit(inline="always", **KERNEL)
def _p_fill_up(lo, hi, pass_lo, pass_hi):
    lo = _fill_up(lo, pass_lo)
    hi = _fill_up(hi | ((lo >> (WORD_BITS - 1)) & pass_hi & 1), pass_hi)
    return lo, hi


@njit(inline="always", **KERNEL)
def _p_fill_down(lo, hi, pass_lo, pass_hi):
    hi = _fill_down(hi, pass_hi)
    lo = _fill_down(lo | ((hi & (pass_lo >> (WORD_BITS - 1)) & 1) << (WORD_BITS - 1)), pass_lo)
    return lo, hi


@njit(inline="always", **KERNEL)
def _p_runs_from(lo, hi, length):
    out_lo, out_hi = lo, hi
    run_lo, run_hi = lo, hi
    have = 1
    step = 1
    remaining = length - 1
    while remaining > 0:
        if remaining & 1:
            s_lo, s_hi = _p_down(run_lo, run_hi, have)
            out_lo &= s_lo
            out_hi &= s_hi
            have += step
        s_lo, s_hi = _p_down(run_lo, run_hi, step)
        run_lo &= s_lo
        run_hi &= s_hi
        step <<= 1
        remaining >>= 1
    return out_lo, out_hi


@njit(inline="always", **KERNEL)
def _p_spread(lo, hi, length, top):
    out_lo, out_hi = lo, hi
    run_lo, run_hi = lo, hi
    have = 1
    step = 1
    remaining = length - 1
    while remaining > 0:
        if remaining & 1:
            s_lo, s_hi = _p_up(run_lo, run_hi, have, top)
            out_lo |= s_lo
            out_hi |= s_hi
            have += step
        s_lo, s_hi = _p_up(run_lo, run_hi, step, top)
        run_lo |= s_lo
        run_hi |= s_hi
        step <<= 1
        remaining >>= 1
    return out_lo, out_hi


@njit(inline="always", **KERNEL)
def line_pair_masks(cells, n):
    """(not filled, not empty) bit sets of ``cells[:n]`` as word pairs (see solve_pair_masks)."""
    nf_lo = np.int64(0)
    nf_hi = np.int64(0)
    ne_lo = np.int64(0)
    ne_hi = np.int64(0)
    for i in range(n):
        if i < WORD_BITS:
            bit = np.int64(1) << i
            if cells[i] != FILLED:
                nf_lo |= bit
            if cells[i] != EMPTY:
                ne_lo |= bit
        else:
            bit = np.int64(1) << (i - WORD_BITS)
            if cells[i] != FILLED:
                nf_hi |= bit
            if cells[i] != EMPTY:
                ne_hi |= bit
    return nf_lo, nf_hi, ne_lo, ne_hi


@njit(**KERNEL)
def solve_line_pair(clue, k, cells, n, out, scratch):
    """solve_line_into for lines of BITS_MAX_LENGTH+1 to PAIR_MAX_LENGTH cells, through
    solve_pair_masks."""
    nf_lo, nf_hi, ne_lo, ne_hi = line_pair_masks(cells, n)
    ok, cf_lo, cf_hi, ce_lo, ce_hi = solve_pair_masks(clue, k, n, nf_lo, nf_hi, ne_lo, ne_hi,
                                                      scratch)
    if not ok:
        return False
    for i in range(n):
        if i < WORD_BITS:
            out[i] = ((ce_lo >> i) & 1) | (((cf_lo >> i) & 1) << 1)
        else:
            b = i - WORD_BITS
            out[i] = ((ce_hi >> b) & 1) | (((cf_hi >> b) & 1) << 1)
    return True


# inlined where used (a tuple result, see solve_masks)
@njit(inline="always", **KERNEL)
def solve_pair_masks(clue, k, n, nf_lo, nf_hi, ne_lo, ne_hi, scratch):
    """solve_masks for lines of BITS_MAX_LENGTH+1 to PAIR_MAX_LENGTH cells, on word pairs:
    (ok, may be filled lo, hi, may be empty lo, hi) from the cells not filled and not empty.

    Position or cell i is bit i of ``lo`` (i < 63) or bit i - 63 of ``hi``. The fwd and fits
    rows live in ``scratch`` (4k+2 entries), two words each. The clue must fit in n cells.
    """
    top = (np.int64(1) << (n - WORD_BITS + 1)) - 1  # hi bits of positions up to n
    fwd = 0  # rows 0..k of the forward sets; the backward ones are needed one at a time
    fits = 2 * (k + 1)
    pu_lo, pu_hi = _p_up(nf_lo, nf_hi, 1, top)
    lo, hi = _p_fill_up(np.int64(1), np.int64(0), pu_lo, pu_hi)
    scratch[fwd] = lo
    scratch[fwd + 1] = hi
    for j in range(k):
        length = clue[j]
        f_lo, f_hi = _p_runs_from(ne_lo, ne_hi, length)
        scratch[fits + 2 * j] = f_lo
        scratch[fits + 2 * j + 1] = f_hi
        if j > 0:
            lo, hi = _p_up(lo & nf_lo, hi & nf_hi, 1, top)
        lo, hi = _p_up(lo & f_lo, hi & f_hi, length, top)
        lo, hi = _p_fill_up(lo, hi, pu_lo, pu_hi)
        scratch[fwd + 2 * (j + 1)] = lo
        scratch[fwd + 2 * (j + 1) + 1] = hi
    end_word, end_bit = (lo, n) if n < WORD_BITS else (hi, n - WORD_BITS)
    if not (end_word >> end_bit) & 1:
        return False, np.int64(0), np.int64(0), np.int64(0), np.int64(0)
    start_lo = np.int64(0)
    start_hi = np.int64(1) << (n - WORD_BITS)
    b_lo, b_hi = _p_fill_down(start_lo, start_hi, nf_lo, nf_hi)
    s_lo, s_hi = _p_down(b_lo, b_hi, 1)
    ce_lo = lo & s_lo & nf_lo
    ce_hi = hi & s_hi & nf_hi
    cf_lo = np.int64(0)
    cf_hi = np.int64(0)
    for j in range(k - 1, -1, -1):
        length = clue[j]
        if j < k - 1:
            b_lo, b_hi = _p_down(b_lo, b_hi, 1)
            b_lo &= nf_lo
            b_hi &= nf_hi
        st_lo, st_hi = _p_down(b_lo, b_hi, length)
        st_lo &= scratch[fits + 2 * j]
        st_hi &= scratch[fits + 2 * j + 1]
        b_lo, b_hi = _p_fill_down(st_lo, st_hi, nf_lo, nf_hi)
        # a start both ways: block j can lie there; cells around it may be empty
        fw_lo = scratch[fwd + 2 * j]
        fw_hi = scratch[fwd + 2 * j + 1]
        if j > 0:
            be_lo, be_hi = _p_up(fw_lo & nf_lo, fw_hi & nf_hi, 1, top)
        else:
            be_lo, be_hi = fw_lo, fw_hi
        sp_lo, sp_hi = _p_spread(be_lo & st_lo, be_hi & st_hi, length, top)
        cf_lo |= sp_lo
        cf_hi |= sp_hi
        s_lo, s_hi = _p_down(b_lo, b_hi, 1)
        ce_lo |= fw_lo & s_lo & nf_lo
        ce_hi |= fw_hi & s_hi & nf_hi
    return True, cf_lo, cf_hi, ce_lo, ce_hi


@njit(**KERNEL)
def solve_line_into(clue, k, cells, n, out, fwd, bwd, empties, marks):
    """Narrow ``cells[:n]`` for ``clue[:k]`` into ``out[:n]``; False when nothing fits.

    Lines of up to BITS_MAX_LENGTH cells go to the one-word bit-parallel solve, up to
    PAIR_MAX_LENGTH to the two-word one, longer ones to the table. ``fwd``/``bwd`` hold
    (k+1, n+1), ``empties`` n+1 and ``marks`` 2(n+2) entries (the two-word solve needs
    4k+2 of them, and k blocks that fit in n cells number at most (n+1)/2).
    """
    total = 0
    for j in range(k):
        total += clue[j]
    if k > 0 and total + k - 1 > n:
        return False
    if n <= BITS_MAX_LENGTH:
        return solve_line_bits(clue, k, cells, n, out, marks[: n + 1], marks[n + 1:], empties)
    if n <= PAIR_MAX_LENGTH:
        return solve_line_pair(clue, k, cells, n, out, marks)
    return solve_line_table(clue, k, cells, n, out, fwd, bwd, empties, marks)


@njit(**KERNEL)
def solve_line_table(clue, k, cells, n, out, fwd, bwd, empties, marks):
    """The dynamic programme over tables, for lines of any length.

    fwd[j, i]: blocks 0..j-1 fit in cells[0:i] (cell i-1 empty or the end of block j-1).
    bwd[j, i]: blocks j..k-1 fit in cells[i:n] (cell i empty or the start of block j).
    Each table row is computed only in the window where it can matter (the line's slack
    wide): below it the value is 0, above it no placement of the other blocks fits, and
    the rows are zeroed first so reads outside a window see 0. ``marks`` holds 2(n+1).
    """
    total = 0
    for j in range(k):
        total += clue[j]
    if k > 0 and total + k - 1 > n:
        return False
    fwd[: k + 1, : n + 1] = 0
    bwd[: k + 1, : n + 1] = 0
    empties[0] = 0
    for i in range(n):
        empties[i + 1] = empties[i] + (1 if cells[i] == EMPTY else 0)
    # forward; a row's window starts where blocks 0..j-1 with their gaps end at the earliest
    hi = n if k == 0 else n - (total + k - 1)
    fwd[0, 0] = 1
    for i in range(1, hi + 1):
        fwd[0, i] = fwd[0, i - 1] and cells[i - 1] != FILLED
    prefix = 0
    suffix = total
    for j in range(1, k + 1):
        length = clue[j - 1]
        prefix += length + (1 if j > 1 else 0)
        suffix -= length
        lo = prefix
        hi = n if j == k else n - (suffix + k - j)
        for i in range(max(lo, 1), hi + 1):
            value = 0
            if cells[i - 1] != FILLED and fwd[j, i - 1]:
                value = 1
            else:
                start = i - length
                if start >= 0 and empties[i] == empties[start]:
                    if j == 1:
                        value = fwd[0, start]
                    elif start >= 1 and cells[start - 1] != FILLED:
                        value = fwd[j - 1, start - 1]
            fwd[j, i] = value
    if not fwd[k, n]:
        return False
    # backward; a row's window starts where blocks 0..j-1 (and a gap, but for j = k) end
    bwd[k, n] = 1
    stop = total + k - 1 if k > 0 else 0
    for i in range(n - 1, stop - 1, -1):
        bwd[k, i] = bwd[k, i + 1] and cells[i] != FILLED
    prefix = total
    suffix = 0
    for j in range(k - 1, -1, -1):
        length = clue[j]
        prefix -= length  # blocks 0..j-1
        suffix += length  # blocks j..k-1
        lo = prefix + j
        hi = n - (suffix + k - j - 1)
        for i in range(min(hi, n - 1), lo - 1, -1):
            value = 0
            if cells[i] != FILLED and bwd[j, i + 1]:
                value = 1
            else:
                end = i + length
                if end <= n and empties[end] == empties[i]:
                    if j == k - 1:
                        value = bwd[k, end]
                    elif end < n and cells[end] != FILLED:
                        value = bwd[j + 1, end + 1]
            bwd[j, i] = value
    # cells some placement leaves empty (second half of marks), and filled (first half)
    for i in range(2 * (n + 1)):
        marks[i] = 0
    base = n + 1
    prefix = 0
    suffix = total
    for j in range(k + 1):
        if j > 0:
            prefix += clue[j - 1] + (1 if j > 1 else 0)
            suffix -= clue[j - 1]
        hi = n - 1 if j == k else (n - (total + k - 1) - 1 if j == 0 else n - (suffix + k - j))
        for c in range(prefix, min(hi, n - 1) + 1):
            if fwd[j, c] and bwd[j, c + 1] and cells[c] != FILLED:
                marks[base + c] = 1
    prefix = 0
    suffix = total
    for j in range(k):
        length = clue[j]
        suffix -= length  # blocks j+1..k-1
        first = prefix + j
        last = n - length - (suffix + k - j - 1)
        prefix += length
        for start in range(first, last + 1):
            end = start + length
            if empties[end] != empties[start]:
                continue
            if j == 0:
                if not fwd[0, start]:
                    continue
            elif not (start >= 1 and cells[start - 1] != FILLED and fwd[j, start - 1]):
                continue
            if j == k - 1:
                if not bwd[k, end]:
                    continue
            elif not (end < n and cells[end] != FILLED and bwd[j + 1, end + 1]):
                continue
            marks[start] += 1
            marks[end] -= 1
    running = 0
    for c in range(n):
        running += marks[c]
        state = marks[base + c]
        if running > 0:
            state |= 2
        if state == 0:
            return False
        out[c] = state
    return True


@njit(inline="always", **KERNEL)
def copy_grid(source, target):
    """target[:, :] = source, by hand: numba's array assignment needs reference counting
    (it may copy through a temporary), which the kernels go without (see KERNEL)."""
    for r in range(source.shape[0]):
        for c in range(source.shape[1]):
            target[r, c] = source[r, c]


@njit(**KERNEL)
def enqueue(line, queue, in_queue, qstate):
    """Append ``line`` to the circular queue unless it is already waiting."""
    if in_queue[line]:
        return
    size = queue.shape[0]
    queue[(qstate[0] + qstate[1]) % size] = line
    qstate[1] += 1
    in_queue[line] = 1


@njit(**KERNEL)
def enqueue_cell(r, c, h, queue, in_queue, qstate):
    enqueue(r, queue, in_queue, qstate)
    enqueue(h + c, queue, in_queue, qstate)


@njit(**KERNEL)
def clear_queue(queue, in_queue, qstate):
    size = queue.shape[0]
    while qstate[1] > 0:
        in_queue[queue[qstate[0]]] = 0
        qstate[0] = (qstate[0] + 1) % size
        qstate[1] -= 1
    qstate[0] = 0


#: longest line the cache packs: 32 cells in one key word, 20 more beside the line number
CACHE_MAX_LENGTH = 52
#: longest line the wide cache packs: a grid with a line longer than CACHE_MAX_LENGTH
#: gets a table of WIDE_KEY_WORDS-word keys (four words of cells, then the line number
#: plus one), used for all its lines (Gettys, 99 x 59: its short look-ahead 2.3 -> 1.5 s)
WIDE_CACHE_MAX_LENGTH = 128
WIDE_KEY_WORDS = 5


@njit(**KERNEL)
def _pack(cells, start, stop):
    packed = np.uint64(0)
    for x in range(start, stop):
        packed = (packed << np.uint64(2)) | np.uint64(cells[x])
    return packed


@njit(**KERNEL)
def _unpack(packed, out, start, stop):
    for x in range(stop - 1, start - 1, -1):
        out[x] = np.uint8(packed & np.uint64(3))
        packed = packed >> np.uint64(2)


@njit(**KERNEL)
def cached_solve(line, clue, k, line_in, n, line_out, fwd, bwd, empties, marks, counters,
                 cache_keys, cache_vals):
    """solve_line_into behind a hash table keyed by line number and cell states.

    A key is two words: cells 0-31 at 2 bits each, and the line number beside cells 32-51,
    so a hit is exact (never a collision). A slot's value packs the result the same way, a
    first word of 0 meaning "contradiction". Longer lines, or a one-slot table, go uncached.
    """
    counters[0] += 1
    size = cache_keys.shape[0]
    if size < 2:
        return solve_line_into(clue, k, line_in, n, line_out, fwd, bwd, empties, marks)
    if cache_keys.shape[1] == WIDE_KEY_WORDS:
        return _cached_solve_wide(line, clue, k, line_in, n, line_out, fwd, bwd, empties,
                                  marks, counters, cache_keys, cache_vals)
    if n > CACHE_MAX_LENGTH:
        return solve_line_into(clue, k, line_in, n, line_out, fwd, bwd, empties, marks)
    split = min(n, 32)
    key_low = _pack(line_in, 0, split)
    key_high = (np.uint64(line) << np.uint64(40)) | _pack(line_in, split, n)
    mixed = key_low * np.uint64(0x9E3779B97F4A7C15) + key_high * np.uint64(0xC2B2AE3D27D4EB4F)
    slot = np.int64(mixed >> np.uint64(40)) & (size - 1)
    if cache_keys[slot, 0] == key_low and cache_keys[slot, 1] == key_high:
        counters[1] += 1
        if cache_vals[slot, 0] == np.uint64(0):
            return False
        _unpack(cache_vals[slot, 0], line_out, 0, split)
        _unpack(cache_vals[slot, 1], line_out, split, n)
        return True
    ok = solve_line_into(clue, k, line_in, n, line_out, fwd, bwd, empties, marks)
    cache_keys[slot, 0] = key_low
    cache_keys[slot, 1] = key_high
    if ok:
        cache_vals[slot, 0] = _pack(line_out, 0, split)
        cache_vals[slot, 1] = _pack(line_out, split, n)
    else:
        cache_vals[slot, 0] = np.uint64(0)
    return ok


@njit(**KERNEL)
def _cached_solve_wide(line, clue, k, line_in, n, line_out, fwd, bwd, empties, marks,
                       counters, cache_keys, cache_vals):
    """cached_solve on a table of WIDE_KEY_WORDS-word keys: cells 0-31, 32-63, 64-95 and
    96-127 at 2 bits each, then line + 1 (0 marks a free slot); exact. A first value word
    of 0 means "contradiction" (a line of one cell or more never packs to 0)."""
    if n > WIDE_CACHE_MAX_LENGTH:
        return solve_line_into(clue, k, line_in, n, line_out, fwd, bwd, empties, marks)
    key0 = _pack(line_in, 0, min(n, 32))
    key1 = _pack(line_in, 32, min(n, 64))
    key2 = _pack(line_in, 64, min(n, 96))
    key3 = _pack(line_in, 96, n)
    tag = np.uint64(line + 1)
    mixed = (key0 * np.uint64(0x9E3779B97F4A7C15) + key1 * np.uint64(0xC2B2AE3D27D4EB4F)
             + key2 * np.uint64(0x165667B19E3779F9) + key3 * np.uint64(0x27D4EB2F165667C5)
             + tag * np.uint64(0x85EBCA77C2B2AE63))
    slot = np.int64(mixed >> np.uint64(40)) & (cache_keys.shape[0] - 1)
    if cache_keys[slot, 4] == tag and cache_keys[slot, 0] == key0 and \
            cache_keys[slot, 1] == key1 and cache_keys[slot, 2] == key2 and \
            cache_keys[slot, 3] == key3:
        counters[1] += 1
        if cache_vals[slot, 0] == np.uint64(0):
            return False
        _unpack(cache_vals[slot, 0], line_out, 0, min(n, 32))
        _unpack(cache_vals[slot, 1], line_out, 32, min(n, 64))
        _unpack(cache_vals[slot, 2], line_out, 64, min(n, 96))
        _unpack(cache_vals[slot, 3], line_out, 96, n)
        return True
    ok = solve_line_into(clue, k, line_in, n, line_out, fwd, bwd, empties, marks)
    cache_keys[slot, 0] = key0
    cache_keys[slot, 1] = key1
    cache_keys[slot, 2] = key2
    cache_keys[slot, 3] = key3
    cache_keys[slot, 4] = tag
    if ok:
        cache_vals[slot, 0] = _pack(line_out, 0, min(n, 32))
        cache_vals[slot, 1] = _pack(line_out, 32, min(n, 64))
        cache_vals[slot, 2] = _pack(line_out, 64, min(n, 96))
        cache_vals[slot, 3] = _pack(line_out, 96, n)
    else:
        cache_vals[slot, 0] = np.uint64(0)
    return ok


# inlined where used (a tuple result, see solve_masks)
@njit(inline="always", **KERNEL)
def cached_solve_masks(line, clue, k, n, filled, empty, fwd, bwd, fits, counters, mask_keys,
                       mask_vals):
    """solve_masks behind a hash table keyed by (line, filled, empty): exact, never a collision.

    A slot holds its key in ``mask_keys[slot]`` (line + 1, filled, empty; line 0 marks a
    free slot) and the result in ``mask_vals[slot]`` (can fill, can empty; -1 for "no
    placement fits"). Counts like cached_solve: counters[0] solves asked, [1] hits.
    """
    counters[0] += 1
    size = mask_keys.shape[0]
    mixed = (filled * np.int64(-7046029254386353131) + empty * np.int64(-4658895280553007687)
             + line * np.int64(0x27D4EB2F165667C5))
    slot = (mixed >> np.int64(29)) & (size - 1)
    if mask_keys[slot, 0] == line + 1 and mask_keys[slot, 1] == filled and \
            mask_keys[slot, 2] == empty:
        counters[1] += 1
        can_fill = mask_vals[slot, 0]
        return can_fill >= 0, can_fill, mask_vals[slot, 1]
    ok, can_fill, can_empty = solve_masks(clue, k, n, filled, empty, fwd, bwd, fits)
    mask_keys[slot, 0] = line + 1
    mask_keys[slot, 1] = filled
    mask_keys[slot, 2] = empty
    mask_vals[slot, 0] = can_fill if ok else np.int64(-1)
    mask_vals[slot, 1] = can_empty
    return ok, can_fill, can_empty


#: counters[STOP] != 0 asks every loop to return at once: a watchdog thread sets it when the
#: time budget is spent (the kernels release the GIL), so no propagation of a huge puzzle
#: outlives its budget. What the loops return after it is set means nothing.
STOP = 3


@njit(inline="always", **KERNEL)
def stop_asked(counters):
    return counters.shape[0] > STOP and counters[STOP] != 0


@njit(inline="always", **KERNEL)
def write_back(grid, line, h, n, line_in, line_out, queue, in_queue, qstate):
    """Copy a solved line's new cells into the grid, queueing each crossing line; the
    count of cells decided."""
    decided = 0
    for x in range(n):
        if line_out[x] != line_in[x]:
            decided += 1
            if line < h:
                grid[line, x] = line_out[x]
                enqueue(h + x, queue, in_queue, qstate)
            else:
                grid[x, line - h] = line_out[x]
                enqueue(x, queue, in_queue, qstate)
    return decided


@njit(**KERNEL)
def propagate_queue(grid, clues, nclues, queue, in_queue, qstate, line_in, line_out,
                    fwd, bwd, empties, marks, counters, cache_keys, cache_vals):
    """Line-solve queued lines until none changes; returns cells decided or CONTRADICTION.

    A line is re-queued only when a crossing cell changed. ``counters[0]`` counts line
    solves (the work measure the callers budget with), ``counters[1]`` cache hits. The
    queue is empty on return.
    """
    h = grid.shape[0]
    w = grid.shape[1]
    size = queue.shape[0]
    decided = 0
    while qstate[1] > 0:
        if stop_asked(counters):
            clear_queue(queue, in_queue, qstate)
            return CONTRADICTION
        line = queue[qstate[0]]
        qstate[0] = (qstate[0] + 1) % size
        qstate[1] -= 1
        in_queue[line] = 0
        k = nclues[line]
        if line < h:
            n = w
            unknown = 0
            for c in range(n):
                line_in[c] = grid[line, c]
                if line_in[c] == UNKNOWN:
                    unknown += 1
        else:
            n = h
            unknown = 0
            for r in range(n):
                line_in[r] = grid[r, line - h]
                if line_in[r] == UNKNOWN:
                    unknown += 1
        ok = cached_solve(line, clues[line], k, line_in, n, line_out, fwd, bwd, empties,
                          marks, counters, cache_keys, cache_vals)
        if not ok:
            clear_queue(queue, in_queue, qstate)
            return CONTRADICTION
        if unknown == 0:
            continue
        decided += write_back(grid, line, h, n, line_in, line_out, queue, in_queue, qstate)
    qstate[0] = 0
    return decided


@njit(**KERNEL)
def propagate_all(grid, clues, nclues, queue, in_queue, qstate, line_in, line_out,
                  fwd, bwd, empties, marks, counters, cache_keys, cache_vals):
    """Queue every line, then propagate (the start of a solve)."""
    clear_queue(queue, in_queue, qstate)
    for line in range(nclues.shape[0]):
        enqueue(line, queue, in_queue, qstate)
    return propagate_queue(grid, clues, nclues, queue, in_queue, qstate, line_in, line_out,
                           fwd, bwd, empties, marks, counters, cache_keys, cache_vals)


@njit(**KERNEL)
def follow_cell(grid, r, c, state, rounds, clues, nclues, queue, in_queue, qstate, line_in,
                line_out, fwd, bwd, empties, marks, counters, cache_keys, cache_vals, result):
    """Suppose cell (r, c) is ``state`` in ``grid`` (changed in place) and line-solve round
    by round: round 1 is its row, then its column; each next round the lines that cells
    decided in the round before cross, in the order they were first crossed (a line still
    waiting is not queued twice; a line solved sees what the lines before it decided).

    Returns the round a line broke in (``result`` = [line, cells decided before]), or 0
    when none broke within ``rounds`` rounds. With a grid at a fixpoint of line logic
    and enough rounds, the grid ends as whole-grid line logic would leave it.
    """
    untracked = result[1:]
    untracked[0] = -1
    return _follow(grid, r, c, state, rounds, clues, nclues, queue, in_queue, qstate, line_in,
                   line_out, fwd, bwd, empties, marks, counters, cache_keys, cache_vals, result,
                   untracked)


@njit(**KERNEL)
def _follow(grid, r, c, state, rounds, clues, nclues, queue, in_queue, qstate, line_in,
            line_out, fwd, bwd, empties, marks, counters, cache_keys, cache_vals, result,
            touched):
    """follow_cell, listing the lines it solved in ``touched[1:]`` with their count in
    ``touched[0]`` (-1: not listed, or more than fit; only they can have changed)."""
    h = grid.shape[0]
    w = grid.shape[1]
    size = queue.shape[0]
    clear_queue(queue, in_queue, qstate)
    grid[r, c] = state
    enqueue(r, queue, in_queue, qstate)
    enqueue(h + c, queue, in_queue, qstate)
    decided = 0
    for number in range(1, rounds + 1):
        waiting = qstate[1]
        if waiting == 0:
            break
        for _ in range(waiting):
            line = queue[qstate[0]]
            qstate[0] = (qstate[0] + 1) % size
            qstate[1] -= 1
            in_queue[line] = 0
            solved = touched[0]
            if 0 <= solved < touched.shape[0] - 1:
                touched[1 + solved] = line
                touched[0] = solved + 1
            else:
                touched[0] = -1
            if line < h:
                n = w
                for x in range(n):
                    line_in[x] = grid[line, x]
            else:
                n = h
                for x in range(n):
                    line_in[x] = grid[x, line - h]
            ok = cached_solve(line, clues[line], nclues[line], line_in, n, line_out, fwd, bwd,
                              empties, marks, counters, cache_keys, cache_vals)
            if not ok:
                clear_queue(queue, in_queue, qstate)
                result[0] = line
                result[1] = decided
                return number
            decided += write_back(grid, line, h, n, line_in, line_out, queue, in_queue,
                                  qstate)
    clear_queue(queue, in_queue, qstate)
    result[0] = -1
    result[1] = decided
    return 0


@njit(**KERNEL)
def _restore(grid, scratch, r, c, touched):
    """Undo a follow in ``scratch``: the lines it solved and the supposed cell, from
    ``grid`` (everything when the follow did not list them)."""
    h = grid.shape[0]
    w = grid.shape[1]
    if touched[0] < 0:
        copy_grid(grid, scratch)
        return
    scratch[r, c] = grid[r, c]
    for i in range(1, touched[0] + 1):
        line = touched[i]
        if line < h:
            for x in range(w):
                scratch[line, x] = grid[line, x]
        else:
            for x in range(h):
                scratch[x, line - h] = grid[x, line - h]


@njit(**KERNEL)
def _stamp_changed_lines(grid, memo):
    """Stamp the lines where ``grid`` differs from the memo's last grid (a new stamp if
    any does), and keep ``grid`` as the last one."""
    h = grid.shape[0]
    w = grid.shape[1]
    stamp = memo.state[0] + 1
    changed = False
    for r in range(h):
        for c in range(w):
            if grid[r, c] != memo.grid[r, c]:
                memo.stamps[r] = stamp
                memo.stamps[h + c] = stamp
                memo.grid[r, c] = grid[r, c]
                changed = True
    if changed:
        memo.state[0] = stamp


@njit(**KERNEL)
def _remembered(memo, v, s):
    """True when (cell v, state s) was followed and none of its lines changed since."""
    made = memo.made[v, s]
    if made < 0:
        return False
    for x in range(memo.lines.shape[2]):
        bits = memo.lines[v, s, x]
        line = 64 * x
        while bits:
            if bits & np.uint64(1) and memo.stamps[line] > made:
                return False
            bits >>= np.uint64(1)
            line += 1
    return True


@njit(**KERNEL)
def _remember(memo, v, s, broke, result, touched):
    """Keep a follow's outcome and the set of lines it solved (not when too many to list)."""
    if touched[0] < 0:
        memo.made[v, s] = -1
        return
    memo.made[v, s] = memo.state[0]
    memo.outcome[v, s, 0] = broke
    memo.outcome[v, s, 1] = result[0]
    memo.outcome[v, s, 2] = result[1]
    for x in range(memo.lines.shape[2]):
        memo.lines[v, s, x] = 0
    for i in range(1, touched[0] + 1):
        line = touched[i]
        memo.lines[v, s, line >> 6] |= np.uint64(1) << np.uint64(line & 63)


@njit(**KERNEL)
def follow_cells(grid, cells, rounds, scratch, clues, nclues, queue, in_queue, qstate,
                 line_in, line_out, fwd, bwd, empties, marks, counters, cache_keys,
                 cache_vals, result, touched, memo, out):
    """follow_cell for each cell of ``cells`` (v = row * width + column) on a copy of
    ``grid`` (in ``scratch``), supposed FILLED, then EMPTY if that did not break (the
    short look-ahead's order). ``out[i]``: the state that broke (0: neither), the round,
    the broken line and the cells decided before; ``result``: follow_cell's (2,) scratch;
    ``touched``: a list of solved lines (see _follow), whose cells alone are copied back
    after each supposition. ``memo`` (a FollowMemo; one with no cells keeps nothing):
    a supposition none of whose lines changed since an earlier call is not followed
    again (between two scans of the short look-ahead on Gettys, 99x59, a median 2% of
    the lines change). ``grid`` is not changed.
    """
    w = grid.shape[1]
    remembering = memo.made.shape[0] == grid.size
    if remembering:
        if memo.state[1] != rounds:
            for v in range(grid.size):
                memo.made[v, 0] = -1
                memo.made[v, 1] = -1
            memo.state[1] = rounds
        _stamp_changed_lines(grid, memo)
    copy_grid(grid, scratch)
    for i in range(cells.size):
        v = cells[i]
        r = v // w
        c = v - r * w
        out[i, 0] = 0
        for s in range(2):
            state = FILLED if s == 0 else EMPTY
            if remembering and _remembered(memo, v, s):
                broke = memo.outcome[v, s, 0]
                result[0] = memo.outcome[v, s, 1]
                result[1] = memo.outcome[v, s, 2]
            else:
                touched[0] = 0
                broke = _follow(scratch, r, c, state, rounds, clues, nclues, queue, in_queue,
                                qstate, line_in, line_out, fwd, bwd, empties, marks, counters,
                                cache_keys, cache_vals, result, touched)
                _restore(grid, scratch, r, c, touched)
                if remembering:
                    _remember(memo, v, s, broke, result, touched)
            if broke:
                out[i, 0] = state
                out[i, 1] = broke
                out[i, 2] = result[0]
                out[i, 3] = result[1]
                break


@njit(**KERNEL)
def branch_cells(grid, cells, start, filled, empty, clues, nclues, queue, in_queue, qstate,
                 line_in, line_out, fwd, bwd, empties, marks, counters, cache_keys,
                 cache_vals, result, out, agreed):
    """Cell branching from ``cells[start]`` on: each cell supposed FILLED and EMPTY and
    followed to the end (follow_cell with rounds enough), on copies of ``grid`` (into
    ``filled``/``empty``). ``out[i]``: whether the FILLED supposition broke, whether the
    EMPTY one did, and how many unknown cells both decided alike; those cells' (v, value)
    pairs go one after the other into ``agreed``. Stops before a cell whose pairs might
    not fit; returns the index it stopped at. ``grid`` is not changed.
    """
    h = grid.shape[0]
    w = grid.shape[1]
    rounds = h * w + 1
    at = 0
    for i in range(start, cells.size):
        if at + h * w > agreed.shape[0]:
            return i
        r = cells[i] // w
        c = cells[i] - r * w
        copy_grid(grid, filled)
        broke_filled = follow_cell(filled, r, c, FILLED, rounds, clues, nclues, queue,
                                   in_queue, qstate, line_in, line_out, fwd, bwd, empties,
                                   marks, counters, cache_keys, cache_vals, result)
        copy_grid(grid, empty)
        broke_empty = follow_cell(empty, r, c, EMPTY, rounds, clues, nclues, queue,
                                  in_queue, qstate, line_in, line_out, fwd, bwd, empties,
                                  marks, counters, cache_keys, cache_vals, result)
        out[i, 0] = 1 if broke_filled else 0
        out[i, 1] = 1 if broke_empty else 0
        count = 0
        if not broke_filled and not broke_empty:
            for y in range(h):
                for x in range(w):
                    value = filled[y, x]
                    if grid[y, x] == UNKNOWN and value != UNKNOWN and value == empty[y, x]:
                        agreed[at, 0] = y * w + x
                        agreed[at, 1] = value
                        at += 1
                        count += 1
        out[i, 2] = count
    return cells.size


#: probe_fixpoint() outcomes
SOLVED = 0
INCONSISTENT = 1
BRANCH = 2
OUT_OF_WORK = 3
FOUND = 4

# probe state slots (an int64 array kept by the caller between calls)
CURSOR = 0
SINCE_CHANGE = 1
BEST_CELL = 2
BEST_SCORE = 3
BEST_FILLED = 4
BEST_EMPTY = 5
FOUND_COUNT = 6
STATE_SIZE = 7


@njit(**KERNEL)
def reset_probe_state(state):
    state[CURSOR] = 0
    state[SINCE_CHANGE] = 0
    state[BEST_CELL] = -1
    state[BEST_SCORE] = -1
    state[BEST_FILLED] = 0
    state[BEST_EMPTY] = 0
    state[FOUND_COUNT] = 0


@njit(**KERNEL)
def probe_fixpoint(grid, lw, q, probing, work_limit):
    """Propagate queued lines, then probe every unknown cell both ways until nothing changes.

    Probing a cell: suppose it filled and propagate, then suppose it empty and propagate.
    Both contradict: the grid has no solution. One contradicts: the cell takes the other
    value. Neither: cells both suppositions agree on are decided. When a whole cycle over
    the cells decides nothing, the cell whose probes decided most (product of the two
    counts) is the branching cell. A supposition that completes the grid is a solution:
    it is copied to ``found`` and the call returns FOUND (the caller collects it, resets
    ``state[FOUND_COUNT]`` and calls again). Resumable: stops with OUT_OF_WORK once
    ``counters[0]`` (line solves) reaches ``work_limit``, keeping its place in ``state``.

    ``grid``: (h, w) cells, changed in place; ``lw``, ``q``, ``probing``: the LineWork,
    Queue and Probing bundles (grader.solver.bundles, which documents every field);
    ``work_limit``: see above. Returns SOLVED, INCONSISTENT, BRANCH, OUT_OF_WORK or FOUND.
    """
    (clues, nclues, line_in, line_out, fwd, bwd, empties, marks, counters, cache_keys,
     cache_vals, _, _, _) = lw
    queue, in_queue, qstate = q
    trial_filled, trial_empty, found, state = probing
    h = grid.shape[0]
    w = grid.shape[1]
    total = h * w
    if qstate[1] > 0:
        d = propagate_queue(grid, clues, nclues, queue, in_queue, qstate, line_in, line_out,
                            fwd, bwd, empties, marks, counters, cache_keys, cache_vals)
        if d < 0:
            return INCONSISTENT
        if d > 0:
            state[SINCE_CHANGE] = 0
            state[BEST_CELL] = -1
            state[BEST_SCORE] = -1
    while True:
        if state[FOUND_COUNT] > 0:
            return FOUND
        if state[SINCE_CHANGE] >= total:
            if state[BEST_CELL] < 0:
                return SOLVED
            return BRANCH
        if counters[0] >= work_limit or stop_asked(counters):
            return OUT_OF_WORK
        cell = state[CURSOR]
        state[CURSOR] = (cell + 1) % total
        state[SINCE_CHANGE] += 1
        r = cell // w
        c = cell - r * w
        if grid[r, c] != UNKNOWN:
            continue
        copy_grid(grid, trial_filled)
        trial_filled[r, c] = FILLED
        enqueue_cell(r, c, h, queue, in_queue, qstate)
        d_filled = propagate_queue(trial_filled, clues, nclues, queue, in_queue, qstate,
                                   line_in, line_out, fwd, bwd, empties, marks, counters,
                                   cache_keys, cache_vals)
        copy_grid(grid, trial_empty)
        trial_empty[r, c] = EMPTY
        enqueue_cell(r, c, h, queue, in_queue, qstate)
        d_empty = propagate_queue(trial_empty, clues, nclues, queue, in_queue, qstate,
                                  line_in, line_out, fwd, bwd, empties, marks, counters,
                                  cache_keys, cache_vals)
        if d_filled < 0 and d_empty < 0:
            return INCONSISTENT
        if d_filled < 0 or d_empty < 0:
            # the surviving supposition is already propagated: adopt it
            if d_filled < 0:
                copy_grid(trial_empty, grid)
            else:
                copy_grid(trial_filled, grid)
            state[SINCE_CHANGE] = 0
            state[BEST_CELL] = -1
            state[BEST_SCORE] = -1
            continue
        agreed = 0
        open_filled = 0
        open_empty = 0
        for rr in range(h):
            for cc in range(w):
                a = trial_filled[rr, cc]
                b = trial_empty[rr, cc]
                if a == UNKNOWN:
                    open_filled += 1
                if b == UNKNOWN:
                    open_empty += 1
                if grid[rr, cc] == UNKNOWN and a == b and a != UNKNOWN:
                    grid[rr, cc] = a
                    enqueue_cell(rr, cc, h, queue, in_queue, qstate)
                    agreed += 1
        if open_filled == 0:
            copy_grid(trial_filled, found[state[FOUND_COUNT]])
            state[FOUND_COUNT] += 1
        if open_empty == 0:
            copy_grid(trial_empty, found[state[FOUND_COUNT]])
            state[FOUND_COUNT] += 1
        if agreed > 0:
            d = propagate_queue(grid, clues, nclues, queue, in_queue, qstate, line_in,
                                line_out, fwd, bwd, empties, marks, counters, cache_keys,
                                cache_vals)
            if d < 0:
                return INCONSISTENT
            state[SINCE_CHANGE] = 0
            state[BEST_CELL] = -1
            state[BEST_SCORE] = -1
            continue
        score = (d_filled + 1) * (d_empty + 1)
        if score > state[BEST_SCORE]:
            state[BEST_SCORE] = score
            state[BEST_CELL] = cell
            state[BEST_FILLED] = d_filled
            state[BEST_EMPTY] = d_empty


@njit(**KERNEL)
def line_cell(line, h, w, i):
    """The cell number (row * width + column) of the i-th cell of a line."""
    if line < h:
        return line * w + i
    return i * w + (line - h)
