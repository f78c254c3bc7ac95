"""The complete mosaic solver: propagation over the clues' blocks, then two depth-first
searches taking turns (restarts with doubling node caps), counting solutions to a limit
under a budget.

Each clue is a constraint "exactly k of these cells are filled". Propagation keeps, per
clue, how many of its cells are filled and how many unknown: a clue with all it needs
empties the rest, a clue whose unknown cells are exactly what it still needs fills them,
and a clue that has too many or cannot reach its count is a contradiction; then every
touched clue is compared with its neighbours over their shared and unshared cells. Moves
go on a trail and are undone by walking it back, so a search node costs only the cells it
touches. The searches: one over the cells in reading order with a memo of refuted
positions (a dynamic programme over the rows: fast on pictures), one branching in the
tightest clue, steered by where contradictions were found, jumping back over choices a
contradiction did not use and learning a nogood from each, as SAT solvers do (fast on
random noise, where the reading-order search alone took seconds to SAT's tenth of a
second: a wrong choice there is refuted many rows later, and the memo never meets the
same position twice). The verdict is never wrong: when the budget runs out first it is
``undecided``; the clock is read at every node and inside the first, grid-wide pass of
pair comparisons.
bench/bench_mosaic.py measures it against a SAT solver (CaDiCaL).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from grader.model import EMPTY, FILLED, UNKNOWN, BoolArray, CellArray
from grader.mosaic_model import MosaicPuzzle
from grader.results import Budget, SolveResult, Verdict

#: cell values on the board (``UNSET``: not decided yet)
UNSET = 2
#: search nodes of each search's first turn (doubled at every turn after)
FIRST_RUN_NODES = 32
#: the reading-order search's turns have this fraction of the tight search's nodes
READING_SHARE = 4
#: nogoods longer than this are not kept (rarely of use again, and slow to watch)
LEARN = 30


class OutOfBudget(Exception):
    """The budget ran out mid-search."""


class _RunOver(Exception):
    """One search's turn used its nodes: the other search takes its turn."""


class Board:
    """The clues as constraints over cell indices (row * width + column), with the counts
    propagation keeps and a trail to undo assignments. Also used by the grader's probing
    (trial) rung, which needs the same propagation."""

    def __init__(self, puzzle: MosaicPuzzle):
        self.height, self.width = puzzle.height, puzzle.width
        n = self.height * self.width
        self.cells: list[list[int]] = []
        self.need: list[int] = []
        self.where: list[tuple[int, int]] = []
        self.cell_clues: list[list[int]] = [[] for _ in range(n)]
        for r, c, clue in puzzle.clue_cells():
            members = [rr * self.width + cc
                       for rr in range(max(r - 1, 0), min(r + 2, self.height))
                       for cc in range(max(c - 1, 0), min(c + 2, self.width))]
            k = len(self.cells)
            self.cells.append(members)
            self.need.append(clue)
            self.where.append((r, c))
            for i in members:
                self.cell_clues[i].append(k)
        #: clue index of the first clue of each row (clues are in reading order)
        self.row_start = [0] * (self.height + 1)
        counts = [0] * (self.height + 1)
        for r, _ in self.where:
            counts[r + 1] += 1
        for r in range(self.height):
            self.row_start[r + 1] = self.row_start[r] + counts[r + 1]
        self.value = bytearray([UNSET]) * n
        #: the open cells as the bits of one int, kept with ``value``: a pair of clues is
        #: compared by counting the open cells of three masks (AND, bit_count), not by
        #: filtering three lists of cells, which was most of a search node's time
        self.open_bits = (1 << n) - 1
        self.bit = [1 << i for i in range(n)]
        self.filled = [0] * len(self.cells)
        self.unknown = [len(m) for m in self.cells]
        #: per clue, the cells of its block as the bits of one int; and the clue whose
        #: centre is cell i, by i
        self.mask = [sum(self.bit[i] for i in members) for members in self.cells]
        self.clue_at = {r * self.width + c: k for k, (r, c) in enumerate(self.where)}
        self.trail: list[int] = []
        self._pairs: list[list[tuple[int, int]] | None] = [None] * len(self.cells)
        #: time.monotonic() past which pair comparisons raise OutOfBudget (None: never)
        self.deadline: float | None = None
        #: per clue, how many contradictions it took part in (the tight search's
        #: tie-breaker: branch where the search has failed before)
        self.weight = [1] * len(self.cells)
        #: when ``explain`` is set, per decided cell the search levels (bits of an int)
        #: whose choices implied its value, and after a contradiction those of the cells
        #: it came from (``conflict``): the tight search's backjumping reads them
        self.explain = False
        self.why = [0] * n
        self.conflict = 0
        #: for learning (when ``explain`` is set): per decided cell its search level, its
        #: place on the trail and the cells of the rule that set it (None: a choice); the
        #: cells of the rule a contradiction broke
        self.level = 0
        self.depth = [0] * n
        self.place = [0] * n
        self.source: list[list[int] | None] = [None] * n
        self.broken: list[int] = []
        #: learned nogoods: lists of literals ``2 * cell + value`` that cannot all hold
        #: (the tight search learns them from its contradictions); the first two of each
        #: are watched (``watches[literal]`` lists the nogoods watching it), and
        #: propagation looks at the trail from ``checked`` on
        self.nogoods: list[list[int]] = []
        self.watches: list[list[int]] = [[] for _ in range(2 * n)]
        self.checked = 0

    # -- assignments ---------------------------------------------------------------------
    def assign(self, i: int, v: int, queue: list[int], why: int = 0,
               source: list[int] | None = None) -> None:
        self.value[i] = v
        self.why[i] = why
        self.source[i] = source
        self.depth[i] = self.level
        self.place[i] = len(self.trail)
        self.open_bits ^= self.bit[i]
        self.trail.append(i)
        filled, unknown = self.filled, self.unknown
        for k in self.cell_clues[i]:
            unknown[k] -= 1
            if v:
                filled[k] += 1
            queue.append(k)

    def undo(self, mark: int) -> None:
        trail, value, filled, unknown = self.trail, self.value, self.filled, self.unknown
        bit = self.bit
        opened = 0
        while len(trail) > mark:
            i = trail.pop()
            v = value[i]
            value[i] = UNSET
            opened |= bit[i]
            for k in self.cell_clues[i]:
                unknown[k] += 1
                if v:
                    filled[k] -= 1
        self.open_bits |= opened
        if self.checked > mark:
            self.checked = mark

    def propagate(self, queue: list[int]) -> bool:
        """Apply the clue rules until nothing changes; False on a contradiction."""
        need, filled, unknown, cells, value = (self.need, self.filled, self.unknown,
                                               self.cells, self.value)
        trail = self.trail
        while True:
            if self.checked < len(trail):  # the learned nogoods first: they are few
                if not self.nogoods:
                    self.checked = len(trail)
                elif self.watch(trail[self.checked], queue):
                    self.checked += 1
                else:
                    queue.clear()
                    return False
                continue
            if not queue:
                break
            k = queue.pop()
            f, u, n = filled[k], unknown[k], need[k]
            if f > n or f + u < n:
                queue.clear()
                self.weight[k] += 1
                if self.explain:
                    self.conflict = self.reasons(cells[k])
                    self.broken = cells[k]
                return False
            if u and (f == n or f + u == n):
                v = 1 if f < n else 0
                why = self.reasons(cells[k]) if self.explain else 0
                for i in cells[k]:
                    if value[i] == UNSET:
                        self.assign(i, v, queue, why, cells[k])
        return True

    def watch(self, i: int, queue: list[int]) -> bool:
        """Cell ``i`` was decided: the learned nogoods watching its value move their watch
        to another literal, or (their last one open) set that cell to the other value, or
        (all of them holding) are a contradiction."""
        lit = 2 * i + self.value[i]
        watching = self.watches[lit]
        if not watching:
            return True
        value, nogoods, watches = self.value, self.nogoods, self.watches
        keep: list[int] = []
        for at, g in enumerate(watching):
            nogood = nogoods[g]
            if len(nogood) == 1:  # this value is refuted outright
                if self.explain:
                    self.conflict, self.broken = self.why[i], [i]
                keep.extend(watching[at:])
                watches[lit] = keep
                return False
            if nogood[0] == lit:
                nogood[0], nogood[1] = nogood[1], nogood[0]
            other = nogood[0]
            if value[other >> 1] == (other & 1) ^ 1:
                keep.append(g)  # already broken by its other watched literal
                continue
            for j in range(2, len(nogood)):
                x = nogood[j]
                if value[x >> 1] != x & 1:  # open or the other value: watch it
                    nogood[1], nogood[j] = x, lit
                    watches[x].append(g)
                    break
            else:
                keep.append(g)
                cells = [x >> 1 for x in nogood]
                if value[other >> 1] != UNSET:  # every literal holds
                    if self.explain:
                        self.conflict, self.broken = self.reasons(cells), cells
                    keep.extend(watching[at + 1:])
                    watches[lit] = keep
                    return False
                why = self.reasons(cells) if self.explain else 0
                self.assign(other >> 1, (other & 1) ^ 1, queue, why, cells)
        watches[lit] = keep
        return True

    def learn(self) -> None:
        """After a contradiction (``broken``): the nogood it teaches, found by walking the
        trail back from the broken rule's cells to the one cell of this level that all of
        its consequences passed through (the first unique implication point), as SAT
        solvers learn clauses. Cells decided before the search are facts and left out."""
        level, depth, place, source, value, trail = (self.level, self.depth, self.place,
                                                     self.source, self.value, self.trail)
        seen: set[int] = set()
        literals: list[int] = []
        pending = 0
        for c in self.broken:
            if value[c] != UNSET and c not in seen:
                seen.add(c)
                if depth[c] == level:
                    pending += 1
                elif depth[c]:
                    literals.append(2 * c + value[c])
        at = len(trail) - 1
        while pending:
            while trail[at] not in seen:
                at -= 1
            c = trail[at]
            at -= 1
            pending -= 1
            reason = source[c]
            if not pending or reason is None:
                literals.append(2 * c + value[c])
                break
            here = place[c]
            for d in reason:
                if d not in seen and value[d] != UNSET and place[d] < here:
                    seen.add(d)
                    if depth[d] == level:
                        pending += 1
                    elif depth[d]:
                        literals.append(2 * d + value[d])
        if not literals or len(literals) > LEARN:
            return
        # watch the literal of this level (undone first) and the latest other one
        literals.reverse()
        rest = sorted(literals[1:], key=lambda x: -depth[x >> 1])
        nogood = [literals[0], *rest]
        g = len(self.nogoods)
        self.nogoods.append(nogood)
        self.watches[nogood[0]].append(g)
        if len(nogood) > 1:
            self.watches[nogood[1]].append(g)

    def reasons(self, cells: list[int], more: list[int] | None = None) -> int:
        """The search levels the decided cells among ``cells`` (and ``more``) depend on."""
        value, why = self.value, self.why
        levels = 0
        for i in cells:
            if value[i] != UNSET:
                levels |= why[i]
        for i in more or ():
            if value[i] != UNSET:
                levels |= why[i]
        return levels

    def pairs(self, a: int) -> list[tuple[int, int]]:
        """For clue ``a``, per neighbouring clue ``b`` (centre at most two rows and two
        columns away): (b, the mask of the cells both blocks hold). Made the first time
        ``a`` is compared, then kept; a clue propagation settles first never pays for it.
        The cells of each part are listed only when a comparison decides some."""
        rows = self._pairs[a]
        if rows is None:
            mask, at = self.mask, self.clue_at
            ra, ca = self.where[a]
            mask_a = mask[a]
            rows = []
            for r in range(max(ra - 2, 0), min(ra + 3, self.height)):
                base = r * self.width
                for c in range(max(ca - 2, 0), min(ca + 3, self.width)):
                    b = at.get(base + c, -1)
                    if b >= 0 and b != a:
                        rows.append((b, mask_a & mask[b]))
            self._pairs[a] = rows
        return rows

    def compare_pairs(self, mark: int | None) -> bool:
        """Propagation a step stronger: every clue touched since trail position ``mark``
        (None: every clue) compared with each neighbouring clue over their shared and
        unshared open cells (the overlapping-clues rung), until nothing changes; False on
        a contradiction (its clues get a point of ``weight``)."""
        need, filled, unknown = self.need, self.filled, self.unknown
        trail, cell_clues, deadline = self.trail, self.cell_clues, self.deadline
        pairs, cached = self.pairs, self._pairs
        done = len(trail) if mark is None else mark
        touched: set[int] = set(range(len(self.cells))) if mark is None else set()
        while touched or done < len(trail):
            for i in trail[done:]:
                touched.update(cell_clues[i])
            done = len(trail)
            for a in sorted(touched):
                u_a = unknown[a]
                if not u_a:
                    continue
                if deadline is not None and time.monotonic() > deadline:
                    raise OutOfBudget  # a first pass over a large grid takes seconds
                need_a = need[a] - filled[a]
                open_bits = self.open_bits
                for b, both_m in cached[a] or pairs(a):
                    u_b = unknown[b]
                    if not u_b or (b < a and b in touched):
                        continue  # a pair is symmetric: compared once a pass
                    shared = (both_m & open_bits).bit_count()
                    if not shared:
                        continue
                    # a's open cells are the shared ones and its own: one count gives both
                    only_a, only_b = u_a - shared, u_b - shared
                    need_b = need[b] - filled[b]
                    # low = max(0, need_a - only_a, need_b - only_b), high = min(shared,
                    # need_a, need_b), without the builtins' calls (this is the hot loop)
                    low, other = need_a - only_a, need_b - only_b
                    if other > low:
                        low = other
                    if low < 0:
                        low = 0
                    high = shared if shared < need_a else need_a
                    if need_b < high:
                        high = need_b
                    if low > high:
                        self.weight[a] += 1
                        self.weight[b] += 1
                        if self.explain:
                            self.conflict = self.reasons(self.cells[a], self.cells[b])
                            self.broken = self.cells[a] + self.cells[b]
                        return False
                    fill_a = only_a > 0 and need_a - high == only_a
                    empty_a = only_a > 0 and need_a == low
                    fill_s, empty_s = low == shared, high == 0
                    fill_b = only_b > 0 and need_b - high == only_b
                    empty_b = only_b > 0 and need_b == low
                    if not (fill_a or empty_a or fill_s or empty_s or fill_b or empty_b):
                        continue
                    queue: list[int] = []
                    self._settle(a, b, both_m, fill_a, empty_a, fill_s, empty_s, fill_b,
                                 empty_b, queue)
                    if queue and not self.propagate(queue):
                        return False
                    u_a = unknown[a]
                    if not u_a:
                        break
                    need_a = need[a] - filled[a]
                    open_bits = self.open_bits
            touched = set()
        return True

    def _settle(self, a: int, b: int, both_m: int, fill_a: bool, empty_a: bool, fill_s: bool,
                empty_s: bool, fill_b: bool, empty_b: bool, queue: list[int]) -> None:
        """Decide the open cells of the parts a comparison of ``a`` and ``b`` settled."""
        value, bit = self.value, self.bit
        why, source = 0, None
        if self.explain:
            why = self.reasons(self.cells[a], self.cells[b])
            source = self.cells[a] + self.cells[b]
        if fill_a or empty_a or fill_s or empty_s:
            for i in self.cells[a]:
                if value[i] == UNSET:
                    if bit[i] & both_m:
                        if fill_s or empty_s:
                            self.assign(i, 1 if fill_s else 0, queue, why, source)
                    elif fill_a or empty_a:
                        self.assign(i, 1 if fill_a else 0, queue, why, source)
        if fill_b or empty_b:
            for i in self.cells[b]:
                if value[i] == UNSET and not bit[i] & both_m:
                    self.assign(i, 1 if fill_b else 0, queue, why, source)

    def start(self, cells: CellArray | None = None) -> bool:
        """Set the known cells (EMPTY/FILLED of a grid) and propagate every clue."""
        queue = list(range(len(self.cells)))
        if cells is not None:
            for i, state in enumerate(np.asarray(cells).ravel().tolist()):
                if state in (EMPTY, FILLED) and self.value[i] == UNSET:
                    self.assign(i, 1 if state == FILLED else 0, queue)
        return self.propagate(queue)

    # -- reading -------------------------------------------------------------------------
    def grid(self) -> CellArray:
        """The board as a grid of EMPTY/FILLED/UNKNOWN."""
        lookup = np.array([EMPTY, FILLED, UNKNOWN], dtype=np.uint8)
        values = np.frombuffer(bytes(self.value), dtype=np.uint8)
        cells: CellArray = lookup[values].reshape(self.height, self.width)
        return cells


def solve(puzzle: MosaicPuzzle, limit: int = 2, budget: Budget | None = None,
          start: CellArray | None = None) -> SolveResult:
    """Count the solutions of ``puzzle`` up to ``limit`` (from ``start``'s decided cells,
    when given, which every solution must agree with). Never a wrong verdict: ``undecided``
    when the budget runs out before a proof.

    A grid wider than it is high is searched on its side: the search keeps two rows of
    state, so it runs along the longer side (a block is the same turned over)."""
    if puzzle.width > puzzle.height:
        turned = MosaicPuzzle(tuple(zip(*puzzle.clues, strict=True)))
        result = solve(turned, limit, budget, None if start is None else start.T.copy())
        return replace(result, solutions=tuple(s.T.copy() for s in result.solutions))
    budget = budget or Budget()
    began, cpu_began = time.monotonic(), time.thread_time()
    deadline = None if budget.seconds is None else began + budget.seconds
    nodes = 0
    run_cap = 0

    def tick() -> None:
        # the clock is read at every node: a node with pair comparisons on a large grid
        # costs milliseconds, so reading it every few hundred let a budget overrun by seconds
        nonlocal nodes
        nodes += 1
        if budget.nodes is not None and nodes > budget.nodes:
            raise OutOfBudget
        if nodes > run_cap:
            raise _RunOver
        if deadline is not None and time.monotonic() > deadline:
            raise OutOfBudget

    #: every distinct solution any run found (each is a real solution, whichever run)
    seen: dict[bytes, bytearray] = {}
    dead: set[bytes] = set()
    proved = False
    depth = sys.getrecursionlimit()
    sys.setrecursionlimit(max(depth, min(puzzle.height * puzzle.width + 1000, 50000)))
    try:
        # Two complete searches take turns, each with twice the nodes of its last turn
        # (a restart): the one that branches in the tightest clue, backjumping and
        # learning (fast on noise, where a wrong choice shows many rows later, and on
        # pictures), then the reading-order search with its memo, on a quarter of the
        # nodes (it was the faster on pictures before the tight search learned; on noise
        # it never is, and there the turns it took cost up to half the time). Either
        # proves the count alone; learned nogoods and the clues' weights carry over.
        cap = FIRST_RUN_NODES
        run = 0
        board = Board(puzzle)
        board.deadline = deadline
        proved = not (board.start(start) and board.compare_pairs(None))
        started = len(board.trail)
        while not proved and len(seen) < limit:
            for reading_order in (False, True):
                run_cap = nodes + (cap // READING_SHARE if reading_order else cap)
                board.undo(started)  # a turn cut short leaves its choices on the board
                board.explain = False
                board.level = 0
                found: list[bytearray] = []
                try:
                    if reading_order:
                        _search(board, 0, limit, tick, dead, found)
                    else:
                        board.explain = True
                        _search_tight(board, limit, tick, found, random.Random(run))
                    proved = True
                except _RunOver:
                    pass
                for values in found:
                    seen.setdefault(bytes(values), values)
                if proved or len(seen) >= limit:
                    break
            cap *= 2
            run += 1
    except OutOfBudget:
        pass
    finally:
        sys.setrecursionlimit(depth)
    elapsed = time.monotonic() - began
    cpu = time.thread_time() - cpu_began
    solutions = []
    for values in seen.values():
        picture: BoolArray = (np.frombuffer(bytes(values), dtype=np.uint8) == 1).reshape(
            puzzle.height, puzzle.width)
        if not puzzle.satisfied_by(picture):  # propagation is exact; anything else is a bug
            raise RuntimeError("solver bug: a reported solution does not satisfy the clues")
        solutions.append(picture)
    if len(solutions) < limit and not proved:
        return SolveResult("undecided", (), elapsed, nodes, False,
                           "the budget ran out before a proof", cpu_s=cpu)
    verdict: Verdict
    if len(solutions) >= 2:
        verdict = "multiple"
    elif solutions:
        verdict = "solved" if limit == 1 else "unique"
    else:
        verdict = "none"
    return SolveResult(verdict, tuple(solutions[:limit]), elapsed, nodes,
                       len(solutions) < limit, cpu_s=cpu)


def _search_tight(board: Board, limit: int, tick: Callable[[], None], found: list[bytearray],
                  rng: random.Random) -> None:
    """Depth-first search branching on an open cell of the tightest clue: the one whose
    open cells are closest to all filled or all empty (least slack, then fewest open
    cells; ties broken by ``rng``, which differs from one restart to the next), trying
    first the value most of its open cells need. Its choices force the most by
    propagation, so a wrong one is refuted near where it was made.

    It jumps back over choices a refutation did not use (conflict-directed backjumping):
    each decided cell carries the levels whose choices implied it, a contradiction the
    levels of the cells it came from; when both values of a choice are refuted without
    it, the choices since the last one named are skipped. Choices in far parts of the
    grid, which the tightest clue hops between, are not tried again for a contradiction
    they took no part in. Each contradiction also teaches a nogood (:meth:`Board.learn`)
    that prunes the rest of the search and the restarts after it."""
    value, need, filled, unknown, cells, weight = (board.value, board.need, board.filled,
                                                   board.unknown, board.cells, board.weight)
    order = list(range(len(cells)))
    rng.shuffle(order)
    trail = board.trail

    def search(level: int) -> int | None:
        """None when the subtree held a solution; else the levels its refutation used."""
        tick()
        best = -1
        best_score = float("inf")
        for k in order:
            u = unknown[k]
            if u:
                rest = need[k] - filled[k]
                slack = u - rest
                if rest < slack:  # min(), without the builtin's call: this is per node
                    slack = rest
                score = (slack + u * 0.1) / weight[k]
                if score < best_score:
                    best, best_score = k, score
        if best < 0:  # no clue has an open cell: the rest are cells no clue sees
            at = value.find(UNSET)
            if at < 0:
                found.append(bytearray(value))
                return None
            first = 1
        else:
            at = next(i for i in cells[best] if value[i] == UNSET)
            first = 1 if 2 * (need[best] - filled[best]) >= unknown[best] else 0
        here = 1 << level
        why = here
        solved = False
        for v in (first, 1 - first):
            mark = len(trail)
            queue: list[int] = []
            board.level = level + 1
            board.assign(at, v, queue, why)
            if board.propagate(queue) and board.compare_pairs(mark):
                used = search(level + 1)
            else:
                used = board.conflict
                if LEARN:
                    board.learn()
            board.undo(mark)
            if len(found) >= limit:
                return None
            if used is None:
                solved, why = True, here
            elif solved or used & here:
                # the other value is forced by this refutation: its own refutation
                # then names the levels this one used, never this level
                why = used & ~here
            else:
                return used  # refuted without this choice: so is the other value
        return None if solved else used

    search(0)


def _search(board: Board, at: int, limit: int, tick: Callable[[], None],
            dead: set[bytes], found: list[bytearray]) -> None:
    """Depth-first search over the cells in reading order, from cell ``at``; solutions go
    to ``found`` until it holds ``limit``.

    In reading order every cell before ``at`` is decided, and a clue more than a row above
    is complete; so what the rest of the search can do depends only on the cells from
    ``at`` on and on how many cells the clues of the rows around ``at`` have filled. A
    position that led to no solution is remembered by those and not searched again: the
    memo makes the search a dynamic programme over the rows, and a wrong choice whose
    contradiction shows a row later costs one pass, not one per way to fill the row."""
    value = board.value
    n = len(value)
    while at < n and value[at] != UNSET:
        at += 1
    if at == n:
        found.append(bytearray(value))
        return
    tick()
    row = at // board.width
    first, last = board.row_start[max(row - 1, 0)], board.row_start[min(row + 2, board.height)]
    filled = board.filled
    key = bytes(value[at:]) + bytes(filled[k] for k in range(first, last))
    if key in dead:
        return
    before = len(found)
    trail = board.trail
    for v in (1, 0):
        mark = len(trail)
        queue: list[int] = []
        board.assign(at, v, queue)
        if board.propagate(queue) and board.compare_pairs(mark):
            _search(board, at + 1, limit, tick, dead, found)
        board.undo(mark)
        if len(found) >= limit:
            return
    if len(found) == before:
        dead.add(key)


__all__ = ["Board", "OutOfBudget", "solve"]
