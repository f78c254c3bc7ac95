"""A small process pool that knows which puzzle each worker is on.

``concurrent.futures.ProcessPoolExecutor`` cannot say which task killed a worker (every
future fails with BrokenProcessPool) and cannot stop one task that overruns. Here each
worker has its own pipe and runs one task at a time, so a worker that dies is recorded
against exactly its puzzle and replaced, and a worker past the hard time limit is killed
and replaced without touching the others. Workers die with the parent (Linux
PR_SET_PDEATHSIG), so a ``kill -9`` of the batch leaves no orphans behind.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess

from nonopress.batch.rows import ResultRow, Task, failed_row, out_of_time_row

WorkFunction = Callable[[Task], ResultRow]
ResultCallback = Callable[[ResultRow], None]

_PR_SET_PDEATHSIG = 1
_POLL_S = 1.0


def _die_with_parent(parent_pid: int) -> None:
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent_pid:  # the parent died before prctl took effect
        os._exit(1)


def _worker_main(conn: Connection, work: WorkFunction, parent_pid: int) -> None:
    _die_with_parent(parent_pid)
    # Ctrl-C goes to the whole process group; only the parent decides what to do.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            row = work(task)
        except Exception as exc:  # the work function should not raise; be safe if it does
            row = failed_row(task, f"{type(exc).__name__}: {exc}")
        conn.send(row)


def describe_exit(exitcode: int | None) -> str:
    if exitcode is None:
        return "worker process vanished"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"worker process died ({name})"
    return f"worker process exited with status {exitcode}"


class _Worker:
    def __init__(self, context: multiprocessing.context.BaseContext, work: WorkFunction):
        parent_end, child_end = multiprocessing.Pipe(duplex=True)
        self.conn = parent_end
        self.process: BaseProcess = context.Process(  # type: ignore[attr-defined]
            target=_worker_main, args=(child_end, work, os.getpid()), daemon=True
        )
        self.process.start()
        child_end.close()  # so the parent sees EOF when the child goes
        self.task: Task | None = None
        self.started = 0.0

    def assign(self, task: Task) -> None:
        self.task = task
        self.started = time.monotonic()
        self.conn.send(task)

    def stop(self, *, wait_s: float) -> None:
        if self.process.is_alive() and self.task is None:
            with contextlib.suppress(OSError):
                self.conn.send(None)
            self.process.join(wait_s)
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()


def _context() -> multiprocessing.context.BaseContext:
    # fork starts workers fastest and lets tests pass functions defined in test modules.
    if "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def run_pool(
    tasks: Iterable[Task],
    on_result: ResultCallback,
    *,
    jobs: int,
    work: WorkFunction,
    hard_limit_s: float,
) -> None:
    """Run ``work`` over ``tasks`` in ``jobs`` processes; ``on_result`` gets every row."""
    pending = deque(tasks)
    context = _context()
    workers = [_Worker(context, work) for _ in range(max(1, min(jobs, len(pending))))]
    finished = False
    try:
        while True:
            for worker in workers:
                if worker.task is None and pending:
                    worker.assign(pending.popleft())
            busy = [w for w in workers if w.task is not None]
            if not busy:
                break
            now = time.monotonic()
            next_deadline = min(w.started + hard_limit_s for w in busy)
            timeout = min(max(next_deadline - now, 0.0), _POLL_S)
            wait([w.conn for w in busy] + [w.process.sentinel for w in busy], timeout)
            for index, worker in enumerate(workers):
                replacement = _collect(worker, on_result, hard_limit_s, context, work)
                if replacement is not None:
                    workers[index] = replacement
        finished = True
    finally:
        for worker in workers:
            worker.stop(wait_s=5.0 if finished else 0.0)


def _collect(
    worker: _Worker,
    on_result: ResultCallback,
    hard_limit_s: float,
    context: multiprocessing.context.BaseContext,
    work: WorkFunction,
) -> _Worker | None:
    """Take a finished row from ``worker``; a new worker when it died or had to be killed."""
    task = worker.task
    if task is None:
        return None
    elapsed = time.monotonic() - worker.started
    if worker.conn.poll():
        try:
            row: ResultRow = worker.conn.recv()
        except (EOFError, OSError):
            pass  # died while answering: treated as a crash below
        else:
            worker.task = None
            on_result(row)
            return None
    if not worker.process.is_alive():
        worker.task = None
        worker.stop(wait_s=0.0)
        on_result(failed_row(task, describe_exit(worker.process.exitcode), time_s=elapsed))
        return _Worker(context, work)
    if elapsed > hard_limit_s:
        worker.task = None
        worker.stop(wait_s=0.0)
        message = f"no answer within the hard limit of {hard_limit_s:g} s; worker stopped"
        on_result(out_of_time_row(task, message, time_s=elapsed))
        return _Worker(context, work)
    return None
