"""Solves and grades run on worker threads, never on the event loop; the newest wins.

The compiled solver releases the GIL, so threads run solves in parallel while the event
loop goes on answering. A request may name a ``channel`` (the page uses one for its live
check): a newer request on the same channel supersedes the older ones, which are dropped
before they start, or answered as superseded when they finish (their own budget bounds
them). Past ``max_pending`` jobs waiting or running, a new one is refused as busy rather
than queued without end.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from nonopress.studio.security import RequestRefused

T = TypeVar("T")

#: the longest channel name kept (a client's own label)
MAX_CHANNEL = 64
#: jobs held at most, superseded ones included, as a multiple of the live cap
SUPERSEDED_FACTOR = 8
#: channels remembered at most (the oldest are forgotten: a hostile client cannot grow it)
MAX_CHANNELS = 256


class Superseded(RequestRefused):
    def __init__(self) -> None:
        super().__init__(409, "superseded by a newer request on the same channel")


class Jobs:
    """A bounded pool of worker threads with newest-request-wins channels."""

    def __init__(self, workers: int, max_pending: int):
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="studio-job")
        self._max_pending = max_pending
        self._pending = 0
        self._lock = threading.Lock()
        self._latest: dict[str, int] = {}
        self._jobs: dict[int, str | None] = {}  #: waiting or running: number -> channel
        self._numbers = itertools.count(1)

    @property
    def pending(self) -> int:
        return self._pending

    def _live(self) -> int:
        """Jobs waiting or running that still count: a superseded one (a newer request took
        its channel) is dropped before it starts or answered 409 when it ends, and never
        keeps the newest live check out. Called under the lock."""
        return sum(1 for number, channel in self._jobs.items()
                   if channel is None or self._latest.get(channel) == number)

    def _newest(self, channel: str | None, number: int) -> bool:
        with self._lock:
            return channel is None or self._latest.get(channel) == number

    async def run(self, func: Callable[[], T], channel: str | None = None) -> T:
        """``func()`` on a worker thread; Superseded when a newer job took its channel,
        RequestRefused(503) when too many are waiting."""
        if channel is not None:
            channel = str(channel)[:MAX_CHANNEL]
        with self._lock:
            number = next(self._numbers)
            if channel is not None:  # the channel's older jobs are superseded from now
                self._latest.pop(channel, None)
                self._latest[channel] = number
                while len(self._latest) > MAX_CHANNELS:
                    self._latest.pop(next(iter(self._latest)))
            live = self._live()
            # superseded jobs still queued are dropped as they reach a worker; a flood of
            # them is held to a multiple of the cap all the same
            if live >= self._max_pending or self._pending >= SUPERSEDED_FACTOR * \
                    self._max_pending:
                raise RequestRefused(503, f"busy: {live} jobs are waiting or running; try "
                                          "again in a moment")
            self._pending += 1
            self._jobs[number] = channel

        def job() -> T:
            if not self._newest(channel, number):
                raise Superseded()
            return func()

        try:
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(self._pool, job)
        finally:
            with self._lock:
                self._pending -= 1
                self._jobs.pop(number, None)
        if not self._newest(channel, number):
            raise Superseded()
        return result

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
