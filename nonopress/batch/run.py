"""A whole batch: find and read puzzles, skip what the database holds, grade the rest.

The parent process is the only writer of the database; every row is committed as soon
as it arrives, whichever runner (process pool or Dask) produced it.
"""

from __future__ import annotations

import math
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from grader.errors import NonopressError
from grader.kinds import kind_of
from grader.ladder import grader_version
from grader.text import shown
from grader.wording import plural
from nonopress.batch.discover import find_puzzle_files, known_suffixes, read_tasks
from nonopress.batch.lock import batch_lock
from nonopress.batch.pool import ResultCallback, WorkFunction, run_pool
from nonopress.batch.progress import Progress, format_duration
from nonopress.batch.rows import ResultRow, Task
from nonopress.batch.store import ResultStore
from nonopress.batch.worker import grade_one

DEFAULT_TIMEOUT_S = 60.0
#: duplicates named one a line after the summary (the rest are counted)
SHOWN_DUPLICATES = 10


def hard_limit_for(timeout_s: float) -> float:
    """When a worker that ignores its budget is stopped: twice the budget plus a margin."""
    return 2 * timeout_s + 30.0


@dataclass(frozen=True)
class BatchOptions:
    paths: tuple[str, ...]
    out: Path
    jobs: int = 0  # 0: every core
    timeout_s: float = DEFAULT_TIMEOUT_S
    scheduler: str | None = None  # a Dask scheduler address, "local", or None for processes
    retry_failed: bool = False  # grade again puzzles recorded as failed or undecided
    dask_processes: bool = True  # LocalCluster with worker processes (threads when False)

    def worker_count(self) -> int:
        return self.jobs if self.jobs > 0 else (os.cpu_count() or 1)


@dataclass(frozen=True)
class BatchSummary:
    found: int  # distinct puzzles read (plus unreadable files)
    skipped: int  # already in the database
    graded_now: int  # finished in this run
    database: Path

    @property
    def total(self) -> int:
        return self.found


def run_batch(
    options: BatchOptions,
    *,
    work: WorkFunction = grade_one,
    log: TextIO | None = None,
    tty: bool | None = None,
) -> BatchSummary:
    stream = log if log is not None else sys.stderr
    if not 0 < options.timeout_s < math.inf:
        raise NonopressError(
            f"--timeout must be a positive number of seconds, got {options.timeout_s:g}"
        )
    if options.scheduler is not None:
        from nonopress.batch.dask_runner import require_distributed

        require_distributed()  # fail before any work when the extra is missing
    files = find_puzzle_files(options.paths, known_suffixes())
    if not files:
        raise NonopressError(f"no puzzle files found in {', '.join(options.paths)}")
    named = frozenset(Path(p) for p in options.paths if not Path(p).is_dir())
    found = read_tasks(files, options.timeout_s, named)

    with batch_lock(options.out), ResultStore.create(options.out) as store:
        for file in found.readable_files:
            stale = store.unreadable_keys_for(file)
            if stale:
                store.forget(stale)
        # a row graded by another grader (version, ladder table, scoring weights) is stale
        outdated = store.stale_keys(grader_version())
        done = store.keys(
            ("graded",) if options.retry_failed else ("graded", "failed", "undecided")
        ) - outdated
        unreadable = [row for row in found.unreadable if row.key not in done]
        todo = [task for task in found.tasks if task.key not in done]
        total_found = len(found.tasks) + len(found.unreadable)
        skipped = total_found - len(todo) - len(unreadable)
        regrade = sum(1 for task in todo if task.key in outdated)
        again = (f" ({regrade} of them graded before by another grader: ladder table, "
                 f"weights or version changed)" if regrade else "")
        duplicates = (
            f", {plural(found.duplicates, 'duplicate')} ignored" if found.duplicates else ""
        )
        stream.write(
            f"{plural(total_found, 'puzzle')} in {plural(len(files), 'file')}{duplicates}; "
            f"{skipped} already done, {len(todo)} to grade{again}\n"
        )
        for duplicate in found.duplicate_names[:SHOWN_DUPLICATES]:
            stream.write(f"  ignored: {shown(duplicate)}\n")
        if len(found.duplicate_names) > SHOWN_DUPLICATES:
            stream.write(f"  and {len(found.duplicate_names) - SHOWN_DUPLICATES} more "
                         "duplicates\n")
        if todo and work is grade_one and options.scheduler is None:
            # once here, not in every worker at once, and before any puzzle's clock: the
            # kernels of each kind the batch holds
            for kind in {kind.name: kind for kind in map(kind_of, (t.puzzle for t in todo))
                         }.values():
                kind.prepare(stream)
        progress = Progress(len(todo) + len(unreadable), stream, tty=tty)

        def record(row: ResultRow) -> None:
            store.record(row)
            progress.update(row)

        try:
            for row in unreadable:
                record(row)
            if todo:
                _run(todo, record, options, work)
        finally:
            progress.finish()
        stream.write(_closing_line(progress, store.path) + "\n")
    return BatchSummary(total_found, skipped, progress.done, store.path)


def _run(
    tasks: list[Task], record: ResultCallback, options: BatchOptions, work: WorkFunction
) -> None:
    limit = hard_limit_for(options.timeout_s)
    if options.scheduler is None:
        run_pool(tasks, record, jobs=options.worker_count(), work=work, hard_limit_s=limit)
        return
    from nonopress.batch.dask_runner import connect, run_on_client

    with connect(
        options.scheduler, jobs=options.worker_count(), processes=options.dask_processes
    ) as client:
        run_on_client(client, tasks, record, work=work, hard_limit_s=limit)


def _closing_line(progress: Progress, database: Path) -> str:
    statuses = ", ".join(f"{n} {s}" for s, n in sorted(progress.by_status.items()))
    verdicts = ", ".join(f"{n} {v}" for v, n in sorted(progress.by_verdict.items()))
    detail = f" ({statuses}{'; verdicts: ' + verdicts if verdicts else ''})" if statuses else ""
    retry = ""
    if progress.by_status["failed"] or progress.by_status["undecided"]:
        retry = "; --retry-failed grades the failed and undecided ones again"
    return (
        f"finished {plural(progress.done, 'puzzle')} in {format_duration(progress.elapsed_s)}"
        f"{detail}; "
        f"results in {database}{retry}"
    )
