# mypy: allow-untyped-defs
"""Why a line solve made a deduction: the few known cells of the line it really needs.

Conflict analysis (grader.solver.cdcl) asks, for a cell a line solve decided or for a line
that could not be solved, which of that line's cells known at the time are the premises.
Fewer premises make shorter learned clauses and longer jumps back.

A deduction "cell t is FILLED" is the failure of the line with t EMPTY (and the other way
round), so every explanation is that of a failure. A clue is a small automaton over the
line's cells (a state per cell of a block and per gap: at most n + 2 states, one bit each,
in one word for lines of up to AUTOMATON_MAX_LENGTH cells, in several beyond): a failure is
"no state reachable from the start is accepting". Known cells are dropped one at a time,
latest first, while the line still fails; a try re-runs the sweep over the states only
where it changes, usually a few cells: no line solve at all.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from grader.solver.kernels import EMPTY, FILLED, KERNEL, UNKNOWN

#: longest line whose automaton fits one word (n + 2 states, sign bit spare); longer lines
#: spread it over several
AUTOMATON_MAX_LENGTH = 61


@njit(**KERNEL)
def _automaton(clue, k):
    """The clue's states as bit masks: (block cells, last cells of blocks, gaps, accepting).

    States in order: the leading gap, then for each block one state per cell followed by
    the gap after it. A filled cell moves to the next block cell; an empty one stays in a
    gap or leaves a block's last cell for the gap after it.
    """
    one = np.int64(1)
    ones = np.int64(0)
    lasts = np.int64(0)
    gaps = one
    s = 1
    for j in range(k):
        for _ in range(clue[j]):
            ones |= one << s
            s += 1
        lasts |= one << (s - 1)
        gaps |= one << s
        s += 1
    accept = one << (s - 1)
    if k > 0:
        accept |= one << (s - 2)
    return ones, lasts, gaps, accept


@njit(**KERNEL)
def _forward(states, value, ones, lasts, gaps):
    """States after reading a cell of ``value`` (UNKNOWN: either)."""
    out = np.int64(0)
    if value != EMPTY:
        out |= (states << 1) & ones
    if value != FILLED:
        out |= (states & gaps) | ((states & lasts) << 1)
    return out


@njit(**KERNEL)
def _explain_by_automaton(clue, k, line_in, n, target, assumed, reach, order, known):
    """Leave in ``line_in`` only the cells the failure needs; the rest become UNKNOWN.

    ``order[:known]`` lists the cells that may go, latest first; the others stay (they
    cost nothing). Each in turn goes if the line still fails without it: the same
    explanation as dropping them one by one and re-solving the line, but each try
    re-runs the forward sweep only from that cell on, and only until it meets the
    previous sweep again. ``reach`` holds 2(n + 1) words. Sound by construction: the
    cells kept alone still make the line fail. The clue must fit in n cells (explain_line
    sees to that).
    """
    ones, lasts, gaps, accept = _automaton(clue, k)
    # reach[i]: states after cells 0..i-1 with the cells kept so far
    states = np.int64(1)
    reach[0] = states
    for i in range(n):
        value = assumed if i == target else line_in[i]
        states = _forward(states, value, ones, lasts, gaps)
        reach[i + 1] = states
    if states & accept:
        return  # no failure to explain (cannot happen): every known cell stays
    trial = reach[n + 1:]
    for q in range(known):
        p = order[q]
        # dropping cell p only widens the states from p + 1 on (never narrows them)
        states = _forward(reach[p], UNKNOWN, ones, lasts, gaps)
        i = p + 1
        while i < n and states != reach[i]:
            trial[i] = states
            value = assumed if i == target else line_in[i]
            states = _forward(states, value, ones, lasts, gaps)
            i += 1
        if i == n and states != reach[n] and states & accept:
            continue  # needed: without it a placement fits
        line_in[p] = UNKNOWN
        for x in range(p + 1, i):
            reach[x] = trial[x]
        if i == n:
            reach[n] = states


@njit(**KERNEL)
def explain_line(line, v, grid, h, w, reason_pos, trail_pos, lw, order, level, seen):
    """The cells of ``line`` a deduction (of cell v; v < 0: a conflict) really needs.

    Starts from every cell known when the line was solved. Cells that cost nothing in the
    learned clause (facts of level 0, cells already in it) are always kept. Leaves the
    needed cells known in ``lw.line_in`` and the target UNKNOWN; returns the count of
    cells that were candidates.
    Shorter explanations make shorter learned clauses and longer jumps back.

    ``line``: row (< h) or column (h + column); ``v``: the cell explained, -1 for a
    conflict; ``grid``: (h, w) cells; ``reason_pos``, ``trail_pos``, ``level``: the
    Trail's arrays; ``lw``: the LineWork bundle (line_in receives the premises; empties
    and marks are scratch; counters[2] counts explanations); ``order``: (longest,)
    scratch; ``seen``: cells already in the learned clause (they cost nothing).
    """
    clues, nclues, line_in = lw.clues, lw.nclues, lw.line_in
    empties, marks, counters = lw.empties, lw.marks, lw.counters
    if line < h:
        n = w
        first = line * w
        step = 1
    else:
        n = h
        first = line - h
        step = w
    limit = reason_pos[v] if v >= 0 else 1 << 62
    target = -1
    known = 0
    when = empties  # trail positions of the cells in ``order``
    for i in range(n):
        x = first + i * step
        cell = grid[line, i] if line < h else grid[i, first]
        if x == v:
            target = i
            line_in[i] = UNKNOWN
            continue
        at = trail_pos[x]
        if cell == UNKNOWN or at >= limit:
            line_in[i] = UNKNOWN
            continue
        line_in[i] = cell
        if level[x] == 0 or seen[x]:
            continue
        # insertion by trail position, latest first
        j = known
        while j > 0 and when[j - 1] < at:
            order[j] = order[j - 1]
            when[j] = when[j - 1]
            j -= 1
        order[j] = i
        when[j] = at
        known += 1
    wanted = UNKNOWN
    if v >= 0:
        r = v // w
        wanted = grid[r, v - r * w]
    k = nclues[line]
    # about a line solve's work: counted as one (the searches share work by this count)
    counters[0] += 1
    counters[2] += 1
    assumed = EMPTY if wanted == FILLED else FILLED
    total = 0
    for j in range(k):
        total += clues[line, j]
    if k > 0 and total + k - 1 > n:
        # the clue does not fit at all, whatever is known (its automaton might not fit)
        for q in range(known):
            line_in[order[q]] = UNKNOWN
    elif n <= AUTOMATON_MAX_LENGTH:
        _explain_by_automaton(clues[line], k, line_in, n, target, assumed, marks, order,
                              known)
    elif total + k + 1 <= 2 * WORD_BITS:
        _explain_pair(clues[line], k, line_in, n, target, assumed, order, known, lw.wide)
    else:
        _explain_wide(clues[line], k, line_in, n, target, assumed, order, known, lw.wide)
    return known


#: bits of a word the wide automaton uses (the sign bit and one more stay clear)
WORD_BITS = 62
_WORD_MASK = (1 << WORD_BITS) - 1


@njit(inline="always", **KERNEL)
def _set_pair_bit(lo, hi, s):
    if s < WORD_BITS:
        return lo | (np.int64(1) << s), hi
    return lo, hi | (np.int64(1) << (s - WORD_BITS))


@njit(inline="always", **KERNEL)
def _pair_up(lo, hi):
    """(lo, hi) one state up, across the words."""
    return (lo << 1) & _WORD_MASK, ((hi << 1) | (lo >> (WORD_BITS - 1))) & _WORD_MASK


@njit(inline="always", **KERNEL)
def _pair_forward(lo, hi, value, ones_lo, ones_hi, lasts_lo, lasts_hi, gaps_lo, gaps_hi):
    """_forward on states held in two words (inlined: a pair returned across a call is
    slow)."""
    out_lo = np.int64(0)
    out_hi = np.int64(0)
    if value != EMPTY:
        up_lo, up_hi = _pair_up(lo, hi)
        out_lo |= up_lo & ones_lo
        out_hi |= up_hi & ones_hi
    if value != FILLED:
        up_lo, up_hi = _pair_up(lo & lasts_lo, hi & lasts_hi)
        out_lo |= (lo & gaps_lo) | up_lo
        out_hi |= (hi & gaps_hi) | up_hi
    return out_lo, out_hi


@njit(**KERNEL)
def _explain_pair(clue, k, line_in, n, target, assumed, order, known, wide):
    """_explain_by_automaton for clues of 62 to 2 WORD_BITS states (rows of Gettys, 99
    cells): the states in a pair of words, with no loop over words per cell. Rows 0..n
    of ``wide`` hold the kept states before each cell, rows n+1.. the trial's (two
    columns each)."""
    zero = np.int64(0)
    ones_lo = ones_hi = lasts_lo = lasts_hi = zero
    gaps_lo, gaps_hi = np.int64(1), zero
    s = 1
    for j in range(k):
        for _ in range(clue[j]):
            ones_lo, ones_hi = _set_pair_bit(ones_lo, ones_hi, s)
            s += 1
        lasts_lo, lasts_hi = _set_pair_bit(lasts_lo, lasts_hi, s - 1)
        gaps_lo, gaps_hi = _set_pair_bit(gaps_lo, gaps_hi, s)
        s += 1
    accept_lo, accept_hi = _set_pair_bit(zero, zero, s - 1)
    if k > 0:
        accept_lo, accept_hi = _set_pair_bit(accept_lo, accept_hi, s - 2)
    trial = n + 1
    lo, hi = np.int64(1), zero
    wide[0, 0] = lo
    wide[0, 1] = hi
    for i in range(n):
        value = assumed if i == target else line_in[i]
        lo, hi = _pair_forward(lo, hi, value, ones_lo, ones_hi, lasts_lo, lasts_hi,
                               gaps_lo, gaps_hi)
        wide[i + 1, 0] = lo
        wide[i + 1, 1] = hi
    if (lo & accept_lo) | (hi & accept_hi):
        return
    for q in range(known):
        p = order[q]
        lo, hi = _pair_forward(wide[p, 0], wide[p, 1], UNKNOWN, ones_lo, ones_hi,
                               lasts_lo, lasts_hi, gaps_lo, gaps_hi)
        i = p + 1
        while i < n and (lo != wide[i, 0] or hi != wide[i, 1]):
            wide[trial + i, 0] = lo
            wide[trial + i, 1] = hi
            value = assumed if i == target else line_in[i]
            lo, hi = _pair_forward(lo, hi, value, ones_lo, ones_hi, lasts_lo, lasts_hi,
                                   gaps_lo, gaps_hi)
            i += 1
        if i == n and (lo != wide[n, 0] or hi != wide[n, 1]) and \
                (lo & accept_lo) | (hi & accept_hi):
            continue  # needed: without it a placement fits
        line_in[p] = UNKNOWN
        for x in range(p + 1, i):
            wide[x, 0] = wide[trial + x, 0]
            wide[x, 1] = wide[trial + x, 1]
        if i == n:
            wide[n, 0] = lo
            wide[n, 1] = hi


@njit(**KERNEL)
def _wide_automaton(clue, k, ones, lasts, gaps, accept):
    """_automaton for longer lines: each mask spread over the words of its row."""
    for x in range(ones.shape[0]):
        ones[x] = 0
        lasts[x] = 0
        gaps[x] = 0
        accept[x] = 0
    one = np.int64(1)
    gaps[0] = one
    s = 1
    for j in range(k):
        for _ in range(clue[j]):
            ones[s // WORD_BITS] |= one << (s % WORD_BITS)
            s += 1
        lasts[(s - 1) // WORD_BITS] |= one << ((s - 1) % WORD_BITS)
        gaps[s // WORD_BITS] |= one << (s % WORD_BITS)
        s += 1
    accept[(s - 1) // WORD_BITS] |= one << ((s - 1) % WORD_BITS)
    if k > 0:
        accept[(s - 2) // WORD_BITS] |= one << ((s - 2) % WORD_BITS)


def wide_scratch_shape(longest: int) -> tuple[int, int]:
    """Shape of LineWork.wide for lines of up to ``longest`` cells: the reachable states
    before each cell twice (kept and trial) and the automaton's four masks, in words of
    WORD_BITS (a clue that fits in n cells has at most n + 2 states)."""
    if longest <= AUTOMATON_MAX_LENGTH:
        return 1, 1
    return 2 * (longest + 1) + 4, (longest + 2 + WORD_BITS - 1) // WORD_BITS


@njit(**KERNEL)
def _wide_forward(src, i, dst, j, value, ones, lasts, gaps):
    """_forward over words: row j of ``dst`` = the states after row i of ``src`` reads a
    cell of ``value``. Rows by index, not by view: a view per cell costs more than the step.
    """
    carry = np.int64(0)  # top bit of the previous word of the states
    carry_last = np.int64(0)  # of ``states & lasts``
    for x in range(src.shape[1]):
        word = src[i, x]
        in_last = word & lasts[x]
        result = np.int64(0)
        if value != EMPTY:
            result |= (((word << 1) & _WORD_MASK) | carry) & ones[x]
        if value != FILLED:
            result |= (word & gaps[x]) | ((in_last << 1) & _WORD_MASK) | carry_last
        carry = (word >> (WORD_BITS - 1)) & 1
        carry_last = (in_last >> (WORD_BITS - 1)) & 1
        dst[j, x] = result


@njit(**KERNEL)
def _same_rows(a, b, i):
    x = 0
    while x < a.shape[1] and a[i, x] == b[i, x]:
        x += 1
    return x == a.shape[1]


@njit(**KERNEL)
def _meets_accept(a, i, accept):
    x = 0
    while x < a.shape[1] and not a[i, x] & accept[x]:
        x += 1
    return x < a.shape[1]


@njit(**KERNEL)
def _explain_wide(clue, k, line_in, n, target, assumed, order, known, wide):
    """_explain_by_automaton for lines too long for one word: the same explanation.
    ``wide``: scratch of wide_scratch_shape(n) or larger."""
    total = 0
    for j in range(k):
        total += clue[j]
    words = (total + k + 1 + WORD_BITS - 1) // WORD_BITS
    reach = wide[: n + 1, :words]
    trial = wide[n + 1: 2 * (n + 1), :words]
    masks = 2 * (n + 1)
    ones = wide[masks, :words]
    lasts = wide[masks + 1, :words]
    gaps = wide[masks + 2, :words]
    accept = wide[masks + 3, :words]
    _wide_automaton(clue, k, ones, lasts, gaps, accept)
    for y in range(words):
        reach[0, y] = 0
    reach[0, 0] = 1
    for i in range(n):
        value = assumed if i == target else line_in[i]
        _wide_forward(reach, i, reach, i + 1, value, ones, lasts, gaps)
    if _meets_accept(reach, n, accept):
        return
    for q in range(known):
        p = order[q]
        _wide_forward(reach, p, trial, p + 1, UNKNOWN, ones, lasts, gaps)
        i = p + 1
        while i < n and not _same_rows(trial, reach, i):
            value = assumed if i == target else line_in[i]
            _wide_forward(trial, i, trial, i + 1, value, ones, lasts, gaps)
            i += 1
        if i == n and not _same_rows(trial, reach, n) and _meets_accept(trial, n, accept):
            continue  # needed: without it a placement fits
        line_in[p] = UNKNOWN
        for x in range(p + 1, i + 1):
            for y in range(words):
                reach[x, y] = trial[x, y]
