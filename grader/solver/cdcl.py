# mypy: allow-untyped-defs
"""Conflict-driven search with the line solver as propagator, compiled.

Cells are variables (v = row * width + column); a literal says a cell is EMPTY
(``2v``) or FILLED (``2v + 1``). Propagation alternates learned clauses (two watched
literals) with complete line solves. Every assignment remembers its reason, so a conflict
can be explained: a line's deduction by the cells of that line known when it was solved, a
clause's by its other literals. First-UIP analysis learns a clause, the search jumps back
and asserts it (Marques-Silva and Sakallah's CDCL, with the line solve as a global
constraint: the "explanation by known cells" scheme of SAT-based nonogram solvers).
Decisions follow activity (VSIDS); a decided cell takes its target phase (its value in
the longest conflict-free trail since the last restart, CaDiCaL's and Kissat's "target
phase"), else its saved phase; Luby restarts. A solution found adds
a clause blocking its decisions, so the search goes on to count the next one.

All state lives in arrays, grouped into the bundles of :mod:`grader.solver.bundles`
(``lw`` LineWork, ``q`` Queue, ``tr`` Trail, ``cl`` Clauses, ``le`` Learning, whose fields
document every argument of the same name), so :func:`run` can stop after a bounded amount
of work and resume where it stopped. The helpers called once per line solve or per cell
take the arrays one by one (passing bundles there cost 10-15% on hard puzzles).
:func:`run` is the loop; each of its steps is a named function:
propagate, learn from a conflict (analyse, jump back, assert, restart), decide, record a
solution.
"""

from __future__ import annotations

from numba import njit

from grader.solver.kernels import (
    BITS_MAX_LENGTH,
    EMPTY,
    FILLED,
    KERNEL,
    PAIR_MAX_LENGTH,
    UNKNOWN,
    WORD_BITS,
    cached_solve,
    cached_solve_masks,
    copy_grid,
    enqueue,
    line_cell,
    line_masks,
    line_pair_masks,
    solve_pair_masks,
    stop_asked,
)
from grader.solver.reasons import explain_line

# run() outcomes
KEEP_GOING = -1  # (between the steps of run: no outcome yet)
EXHAUSTED = 0  # no (further) solution exists
FOUND = 1  # a solution is in ``found``; call again for the next
OUT_OF_WORK = 2  # budget chunk spent; call again to go on
GAVE_UP = 3  # the clause store is full of clauses it may not forget
GAVE_UP_FOUND = 4  # a solution is in ``found``, and then GAVE_UP

# reason codes besides line numbers (>= 0) and clause ids (>= lines)
DECISION = -1
FACT = -2

# scalar slots in ``tr.st``
S_LEVEL = 0  # current decision level
S_TRAIL = 1  # cells on the trail
S_CLAUSE_HEAD = 2  # trail index up to which clauses have been propagated
S_NCLAUSES = 3  # clauses in the store
S_NLITS = 4  # literals in the store
S_CONFLICTS = 5
S_DONE = 6  # 1 once the search has seen every solution
S_RESTART_AT = 7  # restart when the conflicts reach this
S_LUBY_INDEX = 8
S_DECISIONS = 9
S_KEPT = 10  # clauses kept by the last clean-up
S_CLEAN_AT = 11  # clean up when this many clauses were learned since
S_NO_CONFLICT = 12  # trail size after the last propagation without conflict
S_TARGET_SIZE = 13  # size of the trail the target phases were taken from
S_LAST_CLEAN = 14  # conflicts at the last clean-up
S_RESTART_UNIT = 15  # conflicts of a Luby unit (start_from sets RESTART_UNIT)
S_SIZE = 16

#: conflicts of one Luby unit. Whole TAAI/ICGA sets, in-process CPU against 256, same
#: runs: 512 took 443 s over seven sets (icga2018, 2020, 2022, 2023, taai2015, 2020,
#: 2021) against 491 s, and its slowest puzzle 8.6 s against 23.7 s; 1024 fell between,
#: 64, 2048, 4096 and no restarts were slower. Over all 19 sets (bench_tournaments, one
#: process a set) the total stayed equal (1,143 s against 1,147 s) with 6 puzzles over 5 s
#: against 11: the unit reshuffles which puzzles are unlucky more than it saves. Domino
#: puzzles end before the first restart.
RESTART_UNIT = 512
#: activity decay per conflict (VSIDS): 0.9 beat 0.95 (slow to forget), 0.85 and 0.8 on
#: the hard set over 10 seeds (0.85 faster on TAAI but slower on domino)
DECAY = 0.9
#: learned clauses whose literals span at most this many decision levels are kept for good
GLUE = 3
FIRST_CLEAN = 2000
CLEAN_STEP = 1000
#: clauses of LBD up to this are kept while used in the last TIER2_RECENT conflicts
TIER2_GLUE = 6
TIER2_RECENT = 10000


@njit(**KERNEL)
def _luby(i):
    """The i-th term (1-based) of the Luby sequence 1 1 2 1 1 2 4 ..."""
    size = 1
    seq = 0
    while size < i + 1:
        seq += 1
        size = 2 * size + 1
    x = i - 1
    while size - 1 != x:
        size = (size - 1) >> 1
        seq -= 1
        x = x % size
    return 1 << seq


@njit(**KERNEL)
def _assign(v, value, reason, rpos, grid, w, h, level, reasons, reason_pos, trail, trail_pos,
            st, queue, in_queue, qstate, phase, settled):
    """Put cell v on the trail with ``value``, its reason (see Trail.reasons) and the
    trail size ``rpos`` its premises are read at; queue its row and column."""
    r = v // w
    _assign_at(r, v - r * w, v, value, reason, rpos, grid, h, level, reasons, reason_pos,
               trail, trail_pos, st, queue, in_queue, qstate, phase, settled)


@njit(inline="always", **KERNEL)
def _assign_at(r, c, v, value, reason, rpos, grid, h, level, reasons, reason_pos, trail,
               trail_pos, st, queue, in_queue, qstate, phase, settled, solved=-1):
    """_assign for cell v at row r, column c (a line solve knows them: no division);
    ``solved``: the line whose solve decided it (it stays settled), else -1."""
    grid[r, c] = value
    level[v] = st[S_LEVEL]
    reasons[v] = reason
    reason_pos[v] = rpos
    trail_pos[v] = st[S_TRAIL]
    trail[st[S_TRAIL]] = v
    st[S_TRAIL] += 1
    phase[v] = value
    if r != solved:
        settled[r] = 0
    if h + c != solved:
        settled[h + c] = 0
    enqueue(r, queue, in_queue, qstate)
    enqueue(h + c, queue, in_queue, qstate)


@njit(inline="always", **KERNEL)
def _lit_value(lit, cells):
    """1 true, 0 false, -1 unassigned; ``cells``: the grid as one row (cell v at v)."""
    cell = cells[lit >> 1]
    if cell == UNKNOWN:
        return -1
    return 1 if cell == (lit & 1) + 1 else 0


@njit(**KERNEL)
def _watch(clause, slot, lit, watch_head, watch_next):
    node = 2 * clause + slot
    watch_next[node] = watch_head[lit]
    watch_head[lit] = node


@njit(**KERNEL)
def _propagate_clauses(grid, cells, w, h, level, reasons, reason_pos, trail, trail_pos, st,
                       queue, in_queue, qstate, phase, settled, lits, cinfo, watch_head,
                       watch_next, nlines):
    """Unit propagation over learned clauses for the trail not yet seen; -1 or a clause.

    ``cells``: the grid as one row (a view: a literal's cell without a division; made
    once by the caller, as this runs before every line solve).
    """
    while st[S_CLAUSE_HEAD] < st[S_TRAIL]:
        v = trail[st[S_CLAUSE_HEAD]]
        st[S_CLAUSE_HEAD] += 1
        r = v // w
        value = grid[r, v - r * w]
        false_lit = 2 * v + (1 if value == EMPTY else 0)  # the literal now false
        prev = -1
        node = watch_head[false_lit]
        while node >= 0:
            nxt = watch_next[node]
            clause = node >> 1
            start = cinfo[clause, 0]
            length = cinfo[clause, 1]
            # keep the false literal in position 1
            if lits[start] == false_lit:
                lits[start] = lits[start + 1]
                lits[start + 1] = false_lit
                # the node for position 0 is now for position 1: swap node roles
            first = lits[start]
            if _lit_value(first, cells) == 1:
                prev = node
                node = nxt
                continue
            moved = False
            for k in range(2, length):
                candidate = lits[start + k]
                if _lit_value(candidate, cells) != 0:
                    lits[start + 1] = candidate
                    lits[start + k] = false_lit
                    # unlink node from this list, link it to the candidate's
                    if prev < 0:
                        watch_head[false_lit] = nxt
                    else:
                        watch_next[prev] = nxt
                    watch_next[node] = watch_head[candidate]
                    watch_head[candidate] = node
                    moved = True
                    break
            if moved:
                node = nxt
                continue
            if _lit_value(first, cells) == 0:
                return clause
            # unit: the first literal must hold
            _assign(first >> 1, (first & 1) + 1, nlines + clause, 0, grid, w, h, level,
                    reasons, reason_pos, trail, trail_pos, st, queue, in_queue, qstate, phase,
                    settled)
            prev = node
            node = nxt
    return -1


@njit(**KERNEL)
def _propagate(grid, clues, nclues, queue, in_queue, qstate, line_in, line_out, fwd, bwd,
               empties, marks, counters, cache_keys, cache_vals, mask_keys, mask_vals, level,
               reasons, reason_pos, trail, trail_pos, st, phase, settled, lits, cinfo,
               watch_head, watch_next):
    """Clauses, then one queued line at a time, to a fixed point; returns a conflict code.

    -1: no conflict; 0 <= code < lines: that line cannot be solved; code >= lines: the
    clause code - lines is false.
    """
    h = grid.shape[0]
    w = grid.shape[1]
    nlines = h + w
    size = queue.shape[0]
    cells = grid.reshape(grid.size)
    while True:
        clause = _propagate_clauses(grid, cells, w, h, level, reasons, reason_pos, trail,
                                    trail_pos, st, queue, in_queue, qstate, phase, settled,
                                    lits, cinfo, watch_head, watch_next, nlines)
        if clause >= 0:
            return nlines + clause
        if qstate[1] == 0 or stop_asked(counters):
            return -1
        line = queue[qstate[0]]
        qstate[0] = (qstate[0] + 1) % size
        qstate[1] -= 1
        in_queue[line] = 0
        if settled[line]:
            # queued by its own deductions only: a complete line solve deduces nothing
            # more from them (a quarter of the solves on hard 25x25 puzzles; 4% of the conflict
            # search's time alone, no measurable change beside the probing search)
            continue
        settled[line] = 1  # until a cell of it is decided by anything but this solve
        n = w if line < h else h
        if n <= BITS_MAX_LENGTH:
            # bit sets in, bit sets out: only the cells the solve decides are visited
            if line < h:
                filled, empty = line_masks(grid[line], n)
            else:
                filled, empty = line_masks(grid[:, line - h], n)
            ok, can_fill, can_empty = cached_solve_masks(
                line, clues[line], nclues[line], n, filled, empty, marks[: n + 1],
                marks[n + 1:], empties, counters, mask_keys, mask_vals)
            if not ok:
                return line
            to_fill = can_fill & ~can_empty & ~filled
            decided = to_fill | (can_empty & ~can_fill & ~empty)
            rpos = st[S_TRAIL]
            x = 0
            while decided:
                if decided & 1:
                    value = FILLED if (to_fill >> x) & 1 else EMPTY
                    r, c = (line, x) if line < h else (x, line - h)
                    _assign_at(r, c, r * w + c, value, line, rpos, grid, h, level, reasons,
                               reason_pos, trail, trail_pos, st, queue, in_queue, qstate,
                               phase, settled, line)
                decided >>= 1
                x += 1
            continue
        if n <= PAIR_MAX_LENGTH:
            # the same on word pairs, uncached (Gettys' 99-cell rows: a cache of them hit a
            # third of the time and saved no time)
            k = nclues[line]
            total = k - 1
            for j in range(k):
                total += clues[line, j]
            if total > n:
                return line
            if line < h:
                nf_lo, nf_hi, ne_lo, ne_hi = line_pair_masks(grid[line], n)
            else:
                nf_lo, nf_hi, ne_lo, ne_hi = line_pair_masks(grid[:, line - h], n)
            counters[0] += 1
            ok, cf_lo, cf_hi, ce_lo, ce_hi = solve_pair_masks(
                clues[line], k, n, nf_lo, nf_hi, ne_lo, ne_hi, marks)
            if not ok:
                return line
            rpos = st[S_TRAIL]
            for half in range(2):
                unknown = nf_lo & ne_lo if half == 0 else nf_hi & ne_hi
                can_fill = cf_lo if half == 0 else cf_hi
                can_empty = ce_lo if half == 0 else ce_hi
                to_fill = can_fill & ~can_empty & unknown
                decided = to_fill | (can_empty & ~can_fill & unknown)
                x = half * WORD_BITS
                while decided:
                    if decided & 1:
                        value = FILLED if to_fill & 1 else EMPTY
                        r, c = (line, x) if line < h else (x, line - h)
                        _assign_at(r, c, r * w + c, value, line, rpos, grid, h, level,
                                   reasons, reason_pos, trail, trail_pos, st, queue,
                                   in_queue, qstate, phase, settled, line)
                    decided >>= 1
                    to_fill >>= 1
                    x += 1
            continue
        if line < h:
            for x in range(n):
                line_in[x] = grid[line, x]
        else:
            for x in range(n):
                line_in[x] = grid[x, line - h]
        ok = cached_solve(line, clues[line], nclues[line], line_in, n, line_out, fwd, bwd,
                          empties, marks, counters, cache_keys, cache_vals)
        if not ok:
            return line
        rpos = st[S_TRAIL]
        for x in range(n):
            if line_out[x] != line_in[x]:
                r, c = (line, x) if line < h else (x, line - h)
                _assign_at(r, c, r * w + c, line_out[x], line, rpos, grid, h, level, reasons,
                           reason_pos, trail, trail_pos, st, queue, in_queue, qstate, phase,
                           settled, line)


@njit(**KERNEL)
def _backjump(target, grid, w, level, trail, st, queue, in_queue, qstate):
    """Undo every assignment above decision level ``target``."""
    cells = grid.reshape(grid.size)
    keep = st[S_TRAIL]
    while keep > 0:
        v = trail[keep - 1]
        if level[v] <= target:
            break
        cells[v] = UNKNOWN
        keep -= 1
    st[S_TRAIL] = keep
    if st[S_CLAUSE_HEAD] > keep:
        st[S_CLAUSE_HEAD] = keep
    if st[S_NO_CONFLICT] > keep:
        st[S_NO_CONFLICT] = keep
    st[S_LEVEL] = target
    # the queue may hold lines from the abandoned levels; nothing in it is needed now
    size = queue.shape[0]
    while qstate[1] > 0:
        in_queue[queue[qstate[0]]] = 0
        qstate[0] = (qstate[0] + 1) % size
        qstate[1] -= 1
    qstate[0] = 0


@njit(**KERNEL)
def _add_clause(learned, count, permanent, lbd, st, lits, cinfo, watch_head, watch_next):
    """Store a clause (position 0 asserted, position 1 the deepest other); its id or -1."""
    if st[S_NCLAUSES] >= cinfo.shape[0] or st[S_NLITS] + count > lits.shape[0]:
        return -1
    clause = st[S_NCLAUSES]
    start = st[S_NLITS]
    for k in range(count):
        lits[start + k] = learned[k]
    cinfo[clause, 0] = start
    cinfo[clause, 1] = count
    cinfo[clause, 2] = permanent
    cinfo[clause, 3] = lbd
    cinfo[clause, 4] = st[S_CONFLICTS]
    st[S_NCLAUSES] += 1
    st[S_NLITS] += count
    if count >= 2:
        _watch(clause, 0, lits[start], watch_head, watch_next)
        _watch(clause, 1, lits[start + 1], watch_head, watch_next)
    return clause


@njit(**KERNEL)
def _worth_keeping(clause, st, cinfo):
    """Tiers of learned clauses: low LBD kept for good, mid LBD while used lately, the
    rest while used since the last clean-up."""
    lbd = cinfo[clause, 3]
    used = cinfo[clause, 4]
    if lbd <= GLUE:
        return True
    if lbd <= TIER2_GLUE and used >= st[S_CONFLICTS] - TIER2_RECENT:
        return True
    return used > st[S_LAST_CLEAN]


@njit(**KERNEL)
def _forget_learned(st, lits, cinfo, watch_head, watch_next, keep_glue):
    """Drop learned clauses, keep the blocking ones (call at decision level 0); returns
    how many were dropped.

    With ``keep_glue``, the learned clauses worth keeping (see _worth_keeping) stay too.
    """
    for i in range(watch_head.shape[0]):
        watch_head[i] = -1
    kept = 0
    used = 0
    for clause in range(st[S_NCLAUSES]):
        if not (cinfo[clause, 2] or (keep_glue and _worth_keeping(clause, st, cinfo))):
            continue
        start = cinfo[clause, 0]
        length = cinfo[clause, 1]
        for k in range(length):
            lits[used + k] = lits[start + k]
        cinfo[kept, 0] = used
        cinfo[kept, 1] = length
        cinfo[kept, 2] = cinfo[clause, 2]
        cinfo[kept, 3] = cinfo[clause, 3]
        cinfo[kept, 4] = cinfo[clause, 4]
        if length >= 2:
            _watch(kept, 0, lits[used], watch_head, watch_next)
            _watch(kept, 1, lits[used + 1], watch_head, watch_next)
        kept += 1
        used += length
    freed = st[S_NCLAUSES] - kept
    st[S_NCLAUSES] = kept
    st[S_NLITS] = used
    st[S_KEPT] = kept
    st[S_LAST_CLEAN] = st[S_CONFLICTS]
    return freed


@njit(**KERNEL)
def _analyze(conflict, grid, h, w, nlines, level, reasons, reason_pos, trail, trail_pos, st,
             lits, cinfo, seen, learned, activity, bump, lw, order):
    """First-UIP learning; fills ``learned`` (asserting literal first); returns its length.

    The caller picks the jump-back level: the deepest level among the other literals.
    """
    current = st[S_LEVEL]
    count = 1  # slot 0 is kept for the asserting literal
    pending = 0
    # premises of the conflict
    pending, count = _add_premises(conflict, -1, grid, h, w, nlines, level, reasons,
                                   reason_pos, trail_pos, lits, cinfo, seen, learned,
                                   count, pending, current, activity, bump, lw, order)
    if pending == 0:
        return 0  # cannot happen: a conflict always rests on the current level
    index = st[S_TRAIL] - 1
    uip = -1
    while True:
        while not seen[trail[index]]:
            index -= 1
        v = trail[index]
        seen[v] = 0
        pending -= 1
        if pending == 0:
            uip = v
            break
        if reasons[v] >= nlines:
            cinfo[reasons[v] - nlines, 4] = st[S_CONFLICTS]
        pending, count = _add_premises(reasons[v], v, grid, h, w, nlines, level, reasons,
                                       reason_pos, trail_pos, lits, cinfo, seen,
                                       learned, count, pending, current, activity, bump,
                                       lw, order)
        index -= 1
    r = uip // w
    value = grid[r, uip - r * w]
    learned[0] = 2 * uip + (1 if value == EMPTY else 0)
    for k in range(1, count):
        seen[learned[k] >> 1] = 0
    return count


@njit(**KERNEL)
def _add_premises(reason, v, grid, h, w, nlines, level, reasons, reason_pos, trail_pos, lits,
                  cinfo, seen, learned, count, pending, current, activity, bump, lw, order):
    """Mark the cells that ``reason`` rests on (for cell v, or for a conflict when v < 0)."""
    if reason < nlines:
        line = reason
        n = w if line < h else h
        explain_line(line, v, grid, h, w, reason_pos, trail_pos, lw, order, level, seen)
        line_in = lw[2]
        for i in range(n):
            if line_in[i] == UNKNOWN:
                continue
            x = line_cell(line, h, w, i)
            pending, count = _mark(x, grid, w, level, seen, learned, count, pending, current,
                                   activity, bump)
    else:
        clause = reason - nlines
        start = cinfo[clause, 0]
        for k in range(cinfo[clause, 1]):
            x = lits[start + k] >> 1
            if x == v:
                continue
            pending, count = _mark(x, grid, w, level, seen, learned, count, pending, current,
                                   activity, bump)
    return pending, count


@njit(**KERNEL)
def _mark(x, grid, w, level, seen, learned, count, pending, current, activity, bump):
    """Cell x is a premise: bump it; count it if on the current level, else learn it."""
    if seen[x] or level[x] == 0:
        return pending, count
    seen[x] = 1
    activity[x] += bump[0]
    if level[x] == current:
        pending += 1
    else:
        r = x // w
        value = grid[r, x - r * w]
        learned[count] = 2 * x + (1 if value == EMPTY else 0)
        count += 1
    return pending, count


@njit(**KERNEL)
def _update_target(st, trail, grid, w, target):
    """At a conflict: keep the values of the longest conflict-free trail as target phases.

    Deciding toward them steers the search back to the largest consistent partial
    assignment seen since the restart, which finds solutions of satisfiable searches much
    sooner (TAAI #395 over 5 tie-break seeds: 19k-233k conflicts -> 14k-99k).
    """
    size = st[S_NO_CONFLICT]
    if size <= st[S_TARGET_SIZE]:
        return
    st[S_TARGET_SIZE] = size
    cells = grid.reshape(grid.size)
    for i in range(size):
        v = trail[i]
        target[v] = cells[v]


# -- the steps of run(), on the bundles (each called once per conflict or decision; the
# helpers above take the arrays one by one, which keeps the per-line-solve calls cheap) --


@njit(**KERNEL)
def _jump_level(learned, count, level):
    """The level to jump back to: the deepest among the learned literals after the
    first, moved to position 1 (the clause's second watch)."""
    jump = 0
    deepest = 1
    for k in range(1, count):
        lv = level[learned[k] >> 1]
        if lv > jump:
            jump = lv
            deepest = k
    if count > 1:
        tmp = learned[1]
        learned[1] = learned[deepest]
        learned[deepest] = tmp
    return jump


@njit(**KERNEL)
def _glue(learned, count, level):
    """Literal block distance: how many decision levels the clause spans (capped)."""
    lbd = 0
    for k in range(count):
        lv = level[learned[k] >> 1]
        fresh = True
        for j in range(k):
            if level[learned[j] >> 1] == lv:
                fresh = False
                break
        if fresh:
            lbd += 1
            if lbd > TIER2_GLUE:
                break
    return lbd


@njit(**KERNEL)
def _decay_activities(activity, bump):
    """VSIDS: later bumps weigh more (rescaled before they overflow)."""
    bump[0] *= 1.0 / DECAY
    if bump[0] > 1e100:
        for i in range(activity.shape[0]):
            activity[i] *= 1e-100
        bump[0] *= 1e-100


@njit(**KERNEL)
def _restart_if_due(grid, q, tr, cl):
    """Luby restarts; at each, learned clauses are cleaned up when enough piled up."""
    w = grid.shape[1]
    level, _, _, trail, _, st, _, _, _ = tr
    queue, in_queue, qstate = q
    lits, cinfo, watch_head, watch_next = cl
    if st[S_CONFLICTS] < st[S_RESTART_AT]:
        return
    st[S_LUBY_INDEX] += 1
    st[S_RESTART_AT] = st[S_CONFLICTS] + st[S_RESTART_UNIT] * _luby(st[S_LUBY_INDEX])
    st[S_TARGET_SIZE] = 0
    _backjump(0, grid, w, level, trail, st, queue, in_queue, qstate)
    st[S_CLAUSE_HEAD] = 0
    if st[S_NCLAUSES] - st[S_KEPT] > st[S_CLEAN_AT]:
        _forget_learned(st, lits, cinfo, watch_head, watch_next, True)
        st[S_CLEAN_AT] += CLEAN_STEP


@njit(**KERNEL)
def _learn_from_conflict(conflict, grid, lw, q, tr, cl, le):
    """Analyse a conflict, jump back and assert the learned clause; KEEP_GOING, or
    EXHAUSTED (a conflict at level 0) or GAVE_UP."""
    h = grid.shape[0]
    w = grid.shape[1]
    nlines = h + w
    level, reasons, reason_pos, trail, trail_pos, st, phase, target, settled = tr
    queue, in_queue, qstate = q
    lits, cinfo, watch_head, watch_next = cl
    seen, learned, activity, _, bump, order, _ = le
    if st[S_LEVEL] == 0:
        st[S_DONE] = 1
        return EXHAUSTED
    st[S_CONFLICTS] += 1
    count = _analyze(conflict, grid, h, w, nlines, level, reasons, reason_pos, trail,
                     trail_pos, st, lits, cinfo, seen, learned, activity, bump, lw, order)
    if count == 0:
        return GAVE_UP
    jump = _jump_level(learned, count, level)
    lbd = _glue(learned, count, level)
    _update_target(st, trail, grid, w, target)
    _decay_activities(activity, bump)
    _backjump(jump, grid, w, level, trail, st, queue, in_queue, qstate)
    asserted = learned[0]
    if count == 1:
        _backjump(0, grid, w, level, trail, st, queue, in_queue, qstate)
        _assign(asserted >> 1, (asserted & 1) + 1, FACT, 0, grid, w, h, level, reasons,
                reason_pos, trail, trail_pos, st, queue, in_queue, qstate, phase, settled)
        return KEEP_GOING
    clause = _add_clause(learned, count, 0, lbd, st, lits, cinfo, watch_head, watch_next)
    if clause < 0:
        # the clause store is full: forget what was learned, restart, learn again
        _backjump(0, grid, w, level, trail, st, queue, in_queue, qstate)
        st[S_CLAUSE_HEAD] = 0
        if _forget_learned(st, lits, cinfo, watch_head, watch_next, False) == 0:
            return GAVE_UP
        return KEEP_GOING
    _assign(asserted >> 1, (asserted & 1) + 1, nlines + clause, 0, grid, w, h, level,
            reasons, reason_pos, trail, trail_pos, st, queue, in_queue, qstate, phase,
            settled)
    _restart_if_due(grid, q, tr, cl)
    return KEEP_GOING


@njit(**KERNEL)
def _most_active_unknown(grid, free, activity):
    """The unknown cell of highest activity (the first of equals), or -1 when the grid is
    full. Only ``free`` (the cells unknown at the start, in order) can be: the others are
    facts (Gettys from the grade's grid: 3,348 of its 5,841 cells are free)."""
    cells = grid.reshape(grid.size)
    best = -1
    best_activity = -1.0
    for i in range(free.shape[0]):
        v = free[i]
        if cells[v] == UNKNOWN and activity[v] > best_activity:
            best = v
            best_activity = activity[v]
    return best


@njit(**KERNEL)
def _record_solution(grid, q, tr, cl, le):
    """Copy the full grid to ``le.found`` and block it (some decision must differ), so
    the search goes on to the next solution; FOUND or GAVE_UP_FOUND."""
    h = grid.shape[0]
    w = grid.shape[1]
    nlines = h + w
    level, reasons, reason_pos, trail, trail_pos, st, phase, _, settled = tr
    queue, in_queue, qstate = q
    lits, cinfo, watch_head, watch_next = cl
    learned = le.learned
    copy_grid(grid, le.found)
    if st[S_LEVEL] == 0:
        st[S_DONE] = 1
        return FOUND
    count = 0
    for i in range(st[S_TRAIL] - 1, -1, -1):
        v = trail[i]
        if reasons[v] == DECISION:
            r = v // w
            value = grid[r, v - r * w]
            learned[count] = 2 * v + (1 if value == EMPTY else 0)
            count += 1
    # learned[0] is the deepest decision (last on the trail), learned[1] the next
    jump = level[learned[1] >> 1] if count > 1 else 0
    _backjump(jump, grid, w, level, trail, st, queue, in_queue, qstate)
    asserted = learned[0]
    if count == 1:
        _assign(asserted >> 1, (asserted & 1) + 1, FACT, 0, grid, w, h, level, reasons,
                reason_pos, trail, trail_pos, st, queue, in_queue, qstate, phase, settled)
        return FOUND
    clause = _add_clause(learned, count, 1, 0, st, lits, cinfo, watch_head, watch_next)
    if clause < 0:
        _backjump(0, grid, w, level, trail, st, queue, in_queue, qstate)
        st[S_CLAUSE_HEAD] = 0
        _forget_learned(st, lits, cinfo, watch_head, watch_next, False)
        clause = _add_clause(learned, count, 1, 0, st, lits, cinfo, watch_head, watch_next)
        if clause < 0:
            return GAVE_UP_FOUND
        # at level 0 now: the clause is watched; propagation will assert it
        return FOUND
    _assign(asserted >> 1, (asserted & 1) + 1, nlines + clause, 0, grid, w, h, level,
            reasons, reason_pos, trail, trail_pos, st, queue, in_queue, qstate, phase,
            settled)
    return FOUND


@njit(**KERNEL)
def _decide(v, grid, q, tr):
    """A new decision level: cell v takes its target phase, else its saved phase."""
    h = grid.shape[0]
    w = grid.shape[1]
    level, reasons, reason_pos, trail, trail_pos, st, phase, target, settled = tr
    queue, in_queue, qstate = q
    st[S_DECISIONS] += 1
    st[S_LEVEL] += 1
    value = target[v] if target[v] != 0 else phase[v]
    _assign(v, value, DECISION, 0, grid, w, h, level, reasons, reason_pos, trail, trail_pos,
            st, queue, in_queue, qstate, phase, settled)


@njit(**KERNEL)
def run(grid, lw, q, tr, cl, le, work_limit, decision_limit):
    """Search on until a solution, exhaustion, or the work or decision limit is reached.

    ``grid``: (h, w) cells, C-contiguous (the helpers also read it as one row), changed
    in place; ``lw``, ``q``, ``tr``, ``cl``, ``le``: the bundles (grader.solver.bundles);
    ``work_limit``: stop once ``lw.counters[0]`` (line
    solves) reaches it; ``decision_limit``: stop once the decisions reach it. Returns
    EXHAUSTED, FOUND (the solution in ``le.found``), OUT_OF_WORK, GAVE_UP or GAVE_UP_FOUND.
    """
    (clues, nclues, line_in, line_out, fwd, bwd, empties, marks, counters, cache_keys,
     cache_vals, mask_keys, mask_vals, _) = lw
    queue, in_queue, qstate = q
    level, reasons, reason_pos, trail, trail_pos, st, phase, _, settled = tr
    lits, cinfo, watch_head, watch_next = cl
    if st[S_DONE]:
        return EXHAUSTED
    while True:
        conflict = _propagate(grid, clues, nclues, queue, in_queue, qstate, line_in, line_out,
                              fwd, bwd, empties, marks, counters, cache_keys, cache_vals,
                              mask_keys, mask_vals, level, reasons, reason_pos, trail,
                              trail_pos, st, phase, settled, lits, cinfo, watch_head,
                              watch_next)
        if conflict >= 0:
            outcome = _learn_from_conflict(conflict, grid, lw, q, tr, cl, le)
            if outcome != KEEP_GOING:
                return outcome
            continue
        st[S_NO_CONFLICT] = st[S_TRAIL]
        if counters[0] >= work_limit or st[S_DECISIONS] >= decision_limit or \
                stop_asked(counters):
            return OUT_OF_WORK
        best = _most_active_unknown(grid, le.free, le.activity)
        if best < 0:
            return _record_solution(grid, q, tr, cl, le)
        _decide(best, grid, q, tr)


@njit(**KERNEL)
def start_from(grid, tr):
    """Take every known cell of a propagated grid as a fact at decision level 0."""
    w = grid.shape[1]
    level, reasons, _, trail, trail_pos, st, _, _, _ = tr
    for i in range(st.shape[0]):
        st[i] = 0
    st[S_RESTART_AT] = RESTART_UNIT
    st[S_RESTART_UNIT] = RESTART_UNIT
    st[S_CLEAN_AT] = FIRST_CLEAN
    for v in range(grid.shape[0] * w):
        r = v // w
        if grid[r, v - r * w] != UNKNOWN:
            level[v] = 0
            reasons[v] = FACT
            trail_pos[v] = st[S_TRAIL]
            trail[st[S_TRAIL]] = v
            st[S_TRAIL] += 1
