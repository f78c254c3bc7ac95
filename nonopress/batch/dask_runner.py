"""Run a batch on a Dask distributed cluster: an existing scheduler, or a local one.

The workers only compute rows; the parent collects them as they finish and writes the
database, exactly as with the process pool, so results and resume behave the same.
Dask is an optional extra and is imported only here, only when asked for.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator, Sequence
from typing import Any

from grader.errors import NonopressError
from nonopress.batch.pool import ResultCallback, WorkFunction
from nonopress.batch.rows import Task, failed_row, out_of_time_row

LOCAL = "local"
#: One future in flight per worker thread: the hard time limit counts from submission, so
#: a future must not sit queued behind others (and millions of puzzles never flood the
#: scheduler).
_IN_FLIGHT_PER_THREAD = 1
_WAIT_FOR_WORKERS_S = 120.0


def require_distributed() -> Any:
    """The ``distributed`` module, or a NonopressError saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise NonopressError(
            "--scheduler needs Dask distributed; install it with: pip install 'nonopress[dask]'"
        ) from None
    return distributed


@contextlib.contextmanager
def connect(scheduler: str, *, jobs: int, processes: bool = True) -> Iterator[Any]:
    """A connected ``distributed.Client``: ``local`` starts a LocalCluster of ``jobs`` workers."""
    distributed = require_distributed()
    cluster = None
    try:
        if scheduler == LOCAL:
            cluster = distributed.LocalCluster(
                n_workers=jobs,
                threads_per_worker=1,
                processes=processes,
                dashboard_address=None,
                silence_logs=logging.ERROR,  # restarts of stuck workers are expected
            )
            client = distributed.Client(cluster)
        else:
            client = distributed.Client(scheduler, timeout="30s")
    except (OSError, TimeoutError) as exc:
        if cluster is not None:
            cluster.close()
        raise NonopressError(f"cannot reach the Dask scheduler {scheduler}: {exc}") from None
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run_on_client(
    client: Any,
    tasks: Sequence[Task],
    on_result: ResultCallback,
    *,
    work: WorkFunction,
    hard_limit_s: float,
) -> None:
    """Submit ``tasks`` to ``client`` a window at a time; ``on_result`` gets every row."""
    distributed = require_distributed()
    try:
        client.wait_for_workers(1, timeout=_WAIT_FOR_WORKERS_S)
    except TimeoutError:
        raise NonopressError(
            f"no Dask worker joined the scheduler within {_WAIT_FOR_WORKERS_S:g} s"
        ) from None
    threads = max(1, sum(client.nthreads().values()))
    window = threads * _IN_FLIGHT_PER_THREAD
    queue = iter(tasks)
    running: dict[Any, tuple[Task, float]] = {}
    completed = distributed.as_completed()

    def submit_more() -> None:
        while len(running) < window:
            task = next(queue, None)
            if task is None:
                return
            future = client.submit(work, task, pure=False)
            running[future] = (task, time.monotonic())
            completed.add(future)

    try:
        submit_more()
        while running:
            for future in _wait_batch(completed, 1.0):
                if future in running:
                    _finish(future, running.pop(future), on_result)
            _expire(client, running, on_result, hard_limit_s)
            submit_more()
    finally:
        for future in running:
            future.cancel()


def _wait_batch(completed: Any, seconds: float) -> list[Any]:
    """Futures that finish within ``seconds``; none when time is up (to check deadlines)."""
    deadline = time.monotonic() + seconds
    while not completed.has_ready():
        if time.monotonic() >= deadline:
            return []
        time.sleep(0.02)
    return list(completed.next_batch(block=False))


def _finish(future: Any, started: tuple[Task, float], on_result: ResultCallback) -> None:
    task, start = started
    elapsed = time.monotonic() - start
    try:
        row = future.result()
    except Exception as exc:  # KilledWorker, a worker without nonopress, a cancelled future
        row = failed_row(task, f"{type(exc).__name__}: {exc}", time_s=elapsed)
    on_result(row)


def _expire(
    client: Any, running: dict[Any, tuple[Task, float]], on_result: ResultCallback, limit: float
) -> None:
    """Record futures that have run past the hard limit, and restart the workers running them."""
    now = time.monotonic()
    overdue = [future for future, (_, start) in running.items() if now - start > limit]
    if not overdue:
        return
    executing = _executing(client)
    stuck_workers: set[str] = set()
    for future in overdue:
        task, start = running[future]
        if future.key not in executing:
            # Still waiting for a thread (behind a stuck task, or a restarting worker):
            # its clock starts again from now.
            running[future] = (task, now)
            continue
        del running[future]
        future.cancel()
        stuck_workers.add(executing[future.key])
        message = f"no answer within the hard limit of {limit:g} s; task cancelled"
        on_result(out_of_time_row(task, message, time_s=now - start))
    # A thread cannot be stopped, a worker process can; the nanny starts a fresh one and
    # Dask reruns whatever else that worker held. Workers without a nanny keep the thread.
    with contextlib.suppress(Exception):
        client.restart_workers(sorted(stuck_workers), raise_for_error=False)


def _executing(client: Any) -> dict[str, str]:
    """Key -> worker address of every task running right now (not merely assigned)."""
    per_worker = client.run(_executing_keys, on_error="ignore")
    return {
        key: address
        for address, keys in per_worker.items()
        if isinstance(keys, list)
        for key in keys
    }


def _executing_keys(dask_worker: Any) -> list[str]:
    return [str(task.key) for task in dask_worker.state.executing]
