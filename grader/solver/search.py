"""Complete search: probing at the root, then conflict-driven search, counting to a limit.

The root gets line logic and probing to a fixed point (kernels.probe_fixpoint): most
published puzzles end there. What is left goes to two complete searches run in turns: the
conflict-driven search (grader.solver.cdcl), which learns a clause from every dead end, and
a depth-first search that probes every cell at every node. Each is strong where the other
is weak; the first to finish decides. The work is compiled; this Python loop only pools
solutions and reads the clock between bounded chunks of work.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field

import numpy as np

from grader.model import FILLED, BoolArray, CellArray, Puzzle, clues_of_picture
from grader.results import Budget, EnoughSolutions, SolutionPool, SolveResult, Verdict
from grader.solver import cdcl as learning
from grader.solver import compile_if_needed, kernels
from grader.solver.learning import ConflictSearch
from grader.solver.workspace import Workspace

#: line solves between two looks at the clock (a few milliseconds of work)
WORK_CHUNK = 5_000
#: work of the conflict-driven search for each unit of the probing search's. On a sample of
#: 200 TAAI-2011 puzzles the conflict search alone was fastest (22.3 s against 24.5 s at
#: 4:1); the probing search keeps a tenth as insurance against puzzles it suits better.
LEARNER_SHARE = 9.0
#: work the conflict-driven search does alone first: most searches end within it
HEAD_START = 50 * WORK_CHUNK
#: root probing that decides nothing for this many line solves gives way to the search:
#: a 200x200 permutation matrix (one 1 per row and column) has 200! solutions and 40,000
#: cells whose probes all fail to decide anything (a cycle of probes takes over 60 s)
ROOT_STALL_WORK = 100 * WORK_CHUNK


def _seconds(value: float) -> str:
    """A budget as a person gave it: ``check --timeout 3`` spends a few milliseconds
    reading the puzzle, which leaves 2.99633 s for the search; that is said "3"."""
    return f"{value:.0f}" if value >= 100 else f"{value:.3g}"


class _OutOfBudget(Exception):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class _Watchdog:
    """One thread for the whole process that stops each clock whose time is spent.

    A timer thread a solve cost as much as a small solve: starting one took about 1 ms of
    wall time and 0.3 ms of CPU (the first 300 puzzles of TAAI-2018, 25x25: 1.39 s of CPU
    with a time budget against 1.30 s without; the quickest take under 2 ms each). This
    thread sleeps until the earliest deadline it was given; a clock closed before its
    deadline is simply forgotten.
    """

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Forget every clock and the thread. A forked child calls it: it has none of its
        parent's threads, and starts its own watchdog when first needed."""
        self._lock = threading.Condition()
        self._deadlines: dict[_Clock, float] = {}
        self._thread: threading.Thread | None = None
        self._waking_at = float("inf")  # the deadline the thread sleeps until

    def watch(self, clock: _Clock, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        with self._lock:
            self._deadlines[clock] = deadline
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="nonopress-watchdog",
                                                daemon=True)
                self._thread.start()
            elif deadline < self._waking_at:
                self._lock.notify()  # wake it to sleep until this earlier deadline

    def forget(self, clock: _Clock) -> None:
        with self._lock:
            self._deadlines.pop(clock, None)

    def _run(self) -> None:
        with self._lock:
            while True:
                now = time.monotonic()
                for clock, deadline in list(self._deadlines.items()):
                    if deadline <= now:
                        del self._deadlines[clock]
                        clock.stop()
                self._waking_at = min(self._deadlines.values(), default=float("inf"))
                self._lock.wait(None if self._waking_at == float("inf")
                                else self._waking_at - now)


_WATCHDOG = _Watchdog()
if hasattr(os, "register_at_fork"):  # not on Windows, which does not fork
    os.register_at_fork(after_in_child=_WATCHDOG.reset)


@dataclass(eq=False)
class _Clock:
    """The budget, and a watchdog that stops the compiled loops when its time is spent.

    Between chunks of work the Python loop looks at the clock itself; a single chunk of a
    huge puzzle (the first propagation of a 2048x2048 grid, one probe's cascade) can run
    for minutes, so the process's watchdog thread also raises the kernels' stop flag in
    every workspace the search uses (the kernels release the GIL, so the thread runs on
    time).
    """

    budget: Budget
    started: float = field(default_factory=time.perf_counter)
    workspaces: list[Workspace] = field(default_factory=list)
    stopped: bool = False

    def start(self, *workspaces: Workspace) -> None:
        self.workspaces.extend(workspaces)
        if self.budget.seconds is not None:
            _WATCHDOG.watch(self, self.budget.seconds)

    def watch(self, ws: Workspace) -> None:
        self.workspaces.append(ws)
        if self.stopped:
            ws.counters[kernels.STOP] = 1

    def stop(self) -> None:
        """Stop the search now (the watchdog calls it when the time is spent)."""
        self.stopped = True
        for ws in self.workspaces:
            ws.counters[kernels.STOP] = 1

    def close(self) -> None:
        _WATCHDOG.forget(self)
        for ws in self.workspaces:
            ws.counters[kernels.STOP] = 0

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def nodes_left(self, used: int) -> int:
        """A decision limit that keeps a node budget, from ``used`` decisions so far."""
        if self.budget.nodes is None:
            return 1 << 62
        return min(used + max(self.budget.nodes, 1), 1 << 62)  # the kernels count in int64

    def check_stop(self) -> None:
        """Call right after every kernel returns: once stopped, what it returned is void."""
        if self.stopped:
            raise _OutOfBudget(f"time budget of {_seconds(self.budget.seconds or 0.0)} s spent")

    def check(self, nodes: int) -> None:
        self.check_stop()
        seconds, max_nodes = self.budget.seconds, self.budget.nodes
        if max_nodes is not None and nodes > max_nodes:
            raise _OutOfBudget(f"node budget of {max_nodes} spent")
        if seconds is not None and self.elapsed() > seconds:
            raise _OutOfBudget(f"time budget of {_seconds(seconds)} s spent")


#: distinct solutions in the order found (grader.results.SolutionPool)
_Solutions = SolutionPool[CellArray, BoolArray]


def _is_filled(grid: CellArray) -> BoolArray:
    filled: BoolArray = grid == FILLED
    return filled


def _solutions(puzzle: Puzzle, target: int) -> _Solutions:
    """The pool of the puzzle's distinct solutions, each checked against its clues."""
    return SolutionPool((puzzle.rows, puzzle.columns), _is_filled, clues_of_picture, target)


def _node(ws: Workspace, grid: CellArray, clock: _Clock, nodes: int,
          solutions: _Solutions, stall_limit: int | None = None) -> int:
    """Run one node's propagation and probing to its end, looking at the clock in between.

    ``stall_limit``: line solves of probing that decide nothing after which the node
    branches anyway (on the best cell probed so far, else the first unknown one).
    """
    kernels.reset_probe_state(ws.probe_state)
    stalled_since = ws.line_solves
    last_since_change = 0
    while True:
        status = ws.probe(grid, ws.line_solves + WORK_CHUNK)
        clock.check_stop()
        since_change = int(ws.probe_state[kernels.SINCE_CHANGE])
        if since_change < last_since_change:
            stalled_since = ws.line_solves  # the probes decided something
        last_since_change = since_change
        if (status == kernels.OUT_OF_WORK and stall_limit is not None
                and ws.line_solves - stalled_since > stall_limit and ws.queue_empty()):
            if ws.probe_state[kernels.BEST_CELL] < 0:
                unknown = np.flatnonzero(grid.ravel() == kernels.UNKNOWN)
                ws.probe_state[kernels.BEST_CELL] = int(unknown[0])
            return kernels.BRANCH
        if status == kernels.FOUND:
            count = int(ws.probe_state[kernels.FOUND_COUNT])
            ws.probe_state[kernels.FOUND_COUNT] = 0
            for index in range(count):
                solutions.add(ws.found[index])
        elif status == kernels.OUT_OF_WORK:
            clock.check(nodes)
        else:
            return status


def _probed_root(ws: Workspace, grid: CellArray, clock: _Clock, solutions: _Solutions) -> int:
    """The root of a grid said to be a fixpoint of probing: line logic only, then BRANCH
    on its first unknown cell (a probing cycle over it would decide nothing: on Gettys,
    99x59, that cycle is 145,000 line solves and about 0.16 s of its 3 s proof). A grid line
    logic still changes was not such a fixpoint: it is probed as usual."""
    kernels.reset_probe_state(ws.probe_state)
    if ws.propagate_all(grid) != 0:  # cells decided, or a line broke: probe it after all
        ws.clear_queue()
        ws.enqueue_all()
        return _node(ws, grid, clock, 1, solutions, ROOT_STALL_WORK)
    unknown = np.flatnonzero(grid.ravel() == kernels.UNKNOWN)
    if not unknown.size:
        return kernels.SOLVED
    ws.probe_state[kernels.BEST_CELL] = int(unknown[0])
    return kernels.BRANCH


class _ProbingSearch:
    """Depth-first search that probes every unknown cell at every node (LalaFrogKK style).

    Strong where conflicts teach little (random puzzles with many solutions); the
    conflict-driven search is strong where they teach much. solve() runs both in turns.
    """

    def __init__(self, ws: Workspace, root: CellArray):
        # ws.probe_state still describes the root's probing: branch on its best cell
        self.ws = ws
        self.nodes = 0
        self.stack: list[tuple[CellArray, int]] = []
        self._branch(root)

    def _branch(self, grid: CellArray) -> None:
        best = int(self.ws.probe_state[kernels.BEST_CELL])
        row, column = divmod(best, self.ws.width)
        other = grid.copy()
        other[row, column] = kernels.EMPTY
        grid[row, column] = kernels.FILLED
        self.stack.append((other, best))
        self.stack.append((grid, best))

    def step(self, clock: _Clock, solutions: _Solutions) -> bool:
        """Search one node; True when no node is left."""
        if not self.stack:
            return True
        grid, cell = self.stack.pop()
        self.nodes += 1
        self.ws.clear_queue()
        self.ws.enqueue_cell(cell // self.ws.width, cell % self.ws.width)
        status = _node(self.ws, grid, clock, self.nodes, solutions)
        if status == kernels.SOLVED:
            solutions.add(grid)
        elif status == kernels.BRANCH:
            self._branch(grid)
        return not self.stack


def _search(puzzle: Puzzle, ws: Workspace, root: CellArray, clock: _Clock,
            solutions: _Solutions, counts: dict[str, int]) -> None:
    """Both searches below the probed root, in turns: the conflict-driven search alone for
    HEAD_START units of work (line solves), then LEARNER_SHARE units for each of the
    probing search's.

    Either one finishing has seen every solution (each is complete on its own); the
    solutions of both are pooled, duplicates dropped, so counting stays exact.
    """
    learner_ws = Workspace(puzzle)
    clock.watch(learner_ws)
    learner = ConflictSearch(learner_ws, root.copy())
    prober = _ProbingSearch(ws, root)
    learner_work = prober_work = 0
    learner_alive = True
    try:
        while True:
            if learner_alive and learner_work <= LEARNER_SHARE * prober_work + HEAD_START:
                before = learner.ws.line_solves
                status = learner.step(before + WORK_CHUNK, clock.nodes_left(learner.decisions))
                clock.check_stop()
                learner_work += learner.ws.line_solves - before
                if status in (learning.FOUND, learning.GAVE_UP_FOUND):
                    solutions.add(learner.found)
                if status == learning.EXHAUSTED:
                    return
                if status in (learning.GAVE_UP, learning.GAVE_UP_FOUND):
                    learner_alive = False  # its clause store is full: the prober goes on
            else:
                before = ws.line_solves
                if prober.step(clock, solutions):
                    return
                prober_work += ws.line_solves - before
            clock.check(1 + learner.decisions + prober.nodes)
    finally:
        counts["nodes"] = 1 + learner.decisions + prober.nodes
        counts["conflicts"] = learner.conflicts
        counts["learner_line_solves"] = learner.ws.line_solves


#: bytes the solutions kept by one solve may take (each costs two bytes a cell plus ~250)
SOLUTION_MEMORY = 256 * 1024 * 1024


def solution_cap(puzzle: Puzzle) -> int:
    """Most solutions one solve keeps, whatever limit it is given (at least 2)."""
    return max(2, SOLUTION_MEMORY // (2 * puzzle.width * puzzle.height + 250))


def solve(
    puzzle: Puzzle, limit: int = 2, budget: Budget | None = None, *, first: bool = False,
    start: CellArray | None = None, probed: bool = False,
) -> SolveResult:
    """Count the solutions of ``puzzle`` up to ``limit`` (at least 2 are looked for).

    Verdicts: ``unique``, ``multiple`` (with the first two solutions), ``none``, or
    ``undecided`` when the budget ran out first. ``complete`` is False when the search
    stopped at the limit or the budget rather than exhausting every branch. With ``first``
    the search stops at the first solution it meets (verdict ``solved``), unless line logic
    and probing alone settle the puzzle, which proves it ``unique``.

    ``start``: known cells every solution agrees with (a grade's deductions so far), to
    search from instead of the blank grid: the same solutions, less to search.
    ``probed``: ``start`` is known to be a fixpoint of probing (every unknown cell was
    supposed both ways and propagated, and nothing was decided: the grader's cell
    branching found no step on it), so the root is not probed again (see _probed_root).
    The verdict never depends on it; only the work does.
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    budget = budget if budget is not None else Budget()
    # compiling (a cold cache) is not the puzzle's time; a warm cache is left to load each
    # kernel when first called, so a search that probing settles loads half of them
    compile_if_needed()
    cpu_started = time.thread_time()
    clock = _Clock(budget)
    ws = Workspace(puzzle)
    clock.start(ws)
    # one solution alone proves nothing about uniqueness: always look for a second
    cap = solution_cap(puzzle)
    solutions = _solutions(puzzle, min(max(limit, 2), cap))
    counts = {"nodes": 1}
    reason = ""
    complete = True
    grid = ws.blank()
    if start is not None:
        if start.shape != grid.shape:
            raise ValueError(f"start grid is {start.shape}, puzzle is {puzzle.size}")
        grid = np.where(start != kernels.UNKNOWN, start, grid).astype(np.uint8)
    try:
        ws.clear_queue()
        ws.enqueue_all()
        if probed and start is not None:
            status = _probed_root(ws, grid, clock, solutions)
        else:
            status = _node(ws, grid, clock, 1, solutions, ROOT_STALL_WORK)
        if status == kernels.SOLVED:
            solutions.add(grid)
        elif status == kernels.BRANCH:
            if first:
                solutions.target = 1  # a guess was needed: stop at the first solution
            _search(puzzle, ws, grid, clock, solutions, counts)
    except EnoughSolutions:
        complete = False
        reason = f"stopped at the limit of {solutions.target} solutions"
        if solutions.target == cap < limit:
            reason += f" (at most {cap} of {puzzle.size} fit the memory cap)"
    except _OutOfBudget as exc:
        reason = exc.reason
        complete = False
    finally:
        clock.close()
    found = list(solutions.found.values())
    verdict: Verdict
    if len(found) >= 2:
        verdict = "multiple"
    elif found and solutions.target == 1:
        verdict = "solved"
        reason = "stopped at the first solution"
    elif not complete:
        verdict = "undecided"
    else:
        verdict = "unique" if found else "none"
    return SolveResult(
        verdict=verdict,
        solutions=tuple(found[: max(limit, 2)]),
        time_s=clock.elapsed(),
        cpu_s=time.thread_time() - cpu_started,
        nodes=counts.pop("nodes"),
        complete=complete,
        reason=reason,
        stats={"line_solves": ws.line_solves, "cache_hits": ws.cache_hits, **counts},
    )
