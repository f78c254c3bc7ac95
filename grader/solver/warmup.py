"""Compile the solver's kernels (or load them from numba's cache) before any puzzle is timed.

numba compiles a function on its first call. Without a warm-up, the first run after
installing would spend 20-30 s (more on a busy machine) inside the first puzzle: its
time column would say 18 s, its budget might run out on the compiler. Every front end
calls :func:`ensure_compiled` before it starts a clock; the command line passes a stream
so that a person hears once that the solver is compiling, with progress on a terminal.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

import numpy as np

from grader import jit_cache
from grader.jit_cache import is_cold, prepare_cache
from grader.model import Puzzle
from grader.solver import kernels, line_ranges
from grader.solver.learning import ConflictSearch
from grader.solver.linesolve import line_solve
from grader.solver.propagation import branch_many, follow, follow_many, propagate
from grader.solver.workspace import Workspace

#: work limit of the warm-up calls (the tiny puzzle needs far less)
_WORK = 5_000
#: seconds between two updates of the progress line on a terminal
_TICK = 0.5

_compiled = False
_lock = threading.Lock()


def _tiny() -> Puzzle:
    return Puzzle.from_picture(["#.", ".#"])


def _line_solve() -> None:
    line_solve((1,), np.full(3, kernels.UNKNOWN, dtype=np.uint8))


def _propagation() -> None:
    puzzle = _tiny()
    propagate(puzzle, np.full((2, 2), kernels.UNKNOWN, dtype=np.uint8))
    follow(puzzle, np.full((2, 2), kernels.UNKNOWN, dtype=np.uint8), 0, 0, int(kernels.FILLED), 3)
    follow_many(puzzle, np.full((2, 2), kernels.UNKNOWN, dtype=np.uint8),
                np.arange(4, dtype=np.int64), 3)
    list(branch_many(puzzle, np.full((2, 2), kernels.UNKNOWN, dtype=np.uint8),
                     np.arange(4, dtype=np.int64)))


def _probing() -> None:
    ws = Workspace(_tiny())
    grid = ws.blank()
    ws.clear_queue()
    ws.enqueue_all()
    ws.enqueue_cell(0, 0)
    kernels.reset_probe_state(ws.probe_state)
    ws.probe(grid, _WORK)


def _line_ranges() -> None:
    clue = np.array([1], dtype=np.int64)
    cells = np.array([kernels.UNKNOWN, kernels.FILLED, kernels.UNKNOWN], dtype=np.uint8)
    out = np.empty(line_ranges.summary_size(cells.size), dtype=np.int64)
    for owners in (False, True):
        _, lo, hi, *_ = line_ranges.narrow_line(clue, cells, owners)
        line_ranges.deduction_spans(clue, cells, lo, hi)
        line_ranges.line_summary(clue, cells, owners, out)
    line_ranges.open_gaps(cells)
    clues = clue.reshape(1, 1)
    grid = cells.reshape(1, cells.size)
    numbers = np.zeros(1, dtype=np.int64)
    sizes = np.empty(2 * cells.size + 4, dtype=np.int64)
    no_memo = (np.zeros((0, 0), np.int64), np.zeros((0, 0), np.int64), np.zeros(0, np.uint8))
    for kind in (line_ranges.SIZES_SIMPLE, line_ranges.SIZES_OWNERS, line_ranges.SIZES_GAPS,
                 line_ranges.SIZES_OWNER_BRANCHING):
        line_ranges.deduction_sizes_many(kind, clues, numbers + 1, grid, numbers,
                                         numbers.copy(), sizes, *no_memo)
    # the 1x3 grid's four lines: the row's clue 1, the columns' none
    line_clues = np.array([[1], [0], [0], [0]], dtype=np.int64)
    line_counts = np.array([1, 0, 0, 0], dtype=np.int64)
    line_ranges.simple_rounds(line_clues, line_counts, grid.copy(), np.ones(4, np.uint8), 2)


def _conflict_search() -> None:
    ws = Workspace(_tiny())
    ConflictSearch(ws, ws.blank()).step(_WORK)


#: (what a person is told, the call that compiles it), cheapest first
STAGES: tuple[tuple[str, Callable[[], None]], ...] = (
    ("line solve", _line_solve),
    ("propagation", _propagation),
    ("probing", _probing),
    ("conflict search", _conflict_search),
    ("the grader's line ranges", _line_ranges),
)


class _Progress:
    """One line on stderr; on a terminal, rewritten with the stage and the seconds spent."""

    def __init__(self, stream: TextIO):
        self.stream = stream
        try:
            self.tty = bool(stream.isatty())
        except (AttributeError, OSError, ValueError):  # no terminal, or a closed stream
            self.tty = False
        self.started = time.monotonic()
        self.stage = ""
        self.index = 0
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # a closed or broken stderr must not stop the work
            pass

    def _line(self) -> str:
        spent = time.monotonic() - self.started
        return (
            f"\rnonopress: compiling the solver (once after installing): "
            f"{self.index}/{len(STAGES)} {self.stage}, {spent:.0f} s\x1b[K"
        )

    def start(self) -> None:
        if not self.tty:
            self._write(
                "nonopress: compiling the solver (once after installing, 20-60 s); "
                "later runs start at once\n"
            )
            return
        self._ticker = threading.Thread(target=self._tick, daemon=True)
        self._ticker.start()

    def _tick(self) -> None:
        while not self._stop.wait(_TICK):
            self._write(self._line())

    def enter(self, index: int, stage: str) -> None:
        self.index, self.stage = index, stage
        if self.tty:
            self._write(self._line())

    def finish(self) -> None:
        spent = time.monotonic() - self.started
        if self._ticker is not None:
            self._stop.set()
            self._ticker.join()
        done = f"nonopress: solver compiled in {spent:.0f} s (cached for later runs)\n"
        self._write(("\r" + done[:-1] + "\x1b[K\n") if self.tty else done)


def ensure_compiled(notice: TextIO | None = None) -> float:
    """Compile every kernel the solver and the grader call (or load them from the cache),
    once a process; seconds spent (0 when it was done already).

    With ``notice`` (by default the stream given to ``grader.solver.announce_compiling``;
    the command line gives stderr), a cold cache is announced there once, with the stage
    and the seconds spent when ``notice`` is a terminal.
    """
    global _compiled
    notice = notice if notice is not None else jit_cache.compile_notice
    if _compiled:
        return 0.0
    with _lock:
        if _compiled:
            return 0.0
        started = time.monotonic()
        cold = is_cold(prepare_cache(Path(__file__).resolve().parent))
        progress = _Progress(notice) if notice is not None and cold else None
        if progress is not None:
            progress.start()
        try:
            for index, (stage, compile_stage) in enumerate(STAGES, 1):
                if progress is not None:
                    progress.enter(index, stage)
                compile_stage()
        finally:
            if progress is not None:
                progress.finish()
        _compiled = True
        return time.monotonic() - started
