# mypy: allow-untyped-defs
"""Why a line solve made a deduction: the few known cells of the line it really needs.

Conflict analysis (grader.solver.cdcl) asks, for a cell a line solve decided or for a line
that could not be solved, which of that line's cells known at the time are the premises.
Fewer premises make shorter learned clauses and longer jumps back.
"""

from __future__ import annotations

from numba import njit

from grader.solver.kernels import UNKNOWN, cached_solve, line_cell


@njit(cache=True, nogil=True)
def explain_line(line, v, grid, h, w, reason_pos, trail_pos, lw, order, level, seen):
    """The cells of ``line`` a deduction (of cell v; v < 0: a conflict) really needs.

    Starts from every cell known when the line was solved and drops, latest first, each
    one without which the line solve still makes the deduction (still fails, for a
    conflict). Cells that cost nothing in the learned clause (facts of level 0, cells
    already in it) are never dropped. Leaves the needed cells known in ``line_in``
    (lw[2]); returns the count.
    Shorter explanations make shorter learned clauses and longer jumps back.
    """
    clues, nclues, line_in, line_out, fwd, bwd, empties, marks, counters, ckeys, cvals = lw
    n = w if line < h else h
    limit = reason_pos[v] if v >= 0 else 1 << 62
    target = -1
    known = 0
    for i in range(n):
        x = line_cell(line, h, w, i)
        r = x // w
        cell = grid[r, x - r * w]
        if x == v:
            target = i
            line_in[i] = UNKNOWN
        elif cell == UNKNOWN or trail_pos[x] >= limit:
            line_in[i] = UNKNOWN
        else:
            line_in[i] = cell
            if level[x] == 0 or seen[x]:
                continue
            # insertion by trail position, latest first
            j = known
            while j > 0 and trail_pos[line_cell(line, h, w, order[j - 1])] < trail_pos[x]:
                order[j] = order[j - 1]
                j -= 1
            order[j] = i
            known += 1
    wanted = UNKNOWN
    if v >= 0:
        r = v // w
        wanted = grid[r, v - r * w]
    k = nclues[line]
    # drop chunks of premises, latest first; a chunk that is needed is halved, down to
    # single cells (few solves when, as usual, most known cells do not matter)
    j = 0
    size = max(1, known // 2)
    while j < known:
        size = min(size, known - j)
        for q in range(j, j + size):
            line_in[order[q]] = UNKNOWN
        counters[2] += 1
        ok = cached_solve(line, clues[line], k, line_in, n, line_out, fwd, bwd, empties,
                          marks, counters, ckeys, cvals)
        still = (not ok) if v < 0 else (not ok or line_out[target] == wanted)
        if still:
            j += size
            size *= 2
            continue
        for q in range(j, j + size):
            x = line_cell(line, h, w, order[q])
            r = x // w
            line_in[order[q]] = grid[r, x - r * w]
        if size == 1:
            j += 1
        else:
            size //= 2
    return known
