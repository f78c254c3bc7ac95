"""Serving the studio: uvicorn with the limits a server on a shared machine needs.

* a connection must send its request's headers within :data:`HEADER_TIMEOUT_S` of opening
  (or of its previous answer): an idle or half-sent request is closed, it never holds a
  file descriptor for ever (uvicorn by itself only times out *between* requests);
* at most :func:`connection_cap` connections are kept, well under the process's open-files
  limit: when a new one would pass it, the oldest connection still waiting for its headers
  is closed to make room (so a flood of half-sent requests cannot lock out the editor, and
  ``accept()`` never fails with "too many open files", which uvicorn would log in a loop);
* uvicorn's own keep-alive timeout, its concurrency limit (503 past it) and h11's cap on
  a request's header size are set as well.
"""

from __future__ import annotations

import asyncio
import resource
import socket
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

#: seconds a connection has to send a request's headers (a browser sends them at once)
HEADER_TIMEOUT_S = 10.0
#: seconds an idle kept-alive connection stays open after an answer
KEEP_ALIVE_S = 5
#: connections at most, when the open-files limit leaves room for them
MAX_CONNECTIONS = 400
#: file descriptors left for everything else (the catalogue, the folder, threads, logs)
RESERVED_FILES = 200
#: the largest request head (request line and headers) h11 buffers
MAX_HEAD_BYTES = 64 * 1024
#: connections accepted in one turn of the event loop (and the listen queue): the cap is
#: applied between turns, so a burst never holds more than this many descriptors over it
ACCEPT_BURST = 64


def connection_cap() -> int:
    """The most connections kept: under half of what the open-files limit leaves."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(8, min(MAX_CONNECTIONS, (soft - RESERVED_FILES - 2 * ACCEPT_BURST) // 2))


class GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a header timeout and a connection cap."""

    header_timeout_s = HEADER_TIMEOUT_S
    cap = MAX_CONNECTIONS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.waiting_since: float | None = None
        self._header_timer: asyncio.TimerHandle | None = None
        self._wait_for_headers()
        if len(self.connections) > self.cap:
            self._make_room()

    def _wait_for_headers(self) -> None:
        self._stop_waiting()
        self.waiting_since = self.loop.time()
        self._header_timer = self.loop.call_later(self.header_timeout_s, self._too_slow)

    def _stop_waiting(self) -> None:
        if getattr(self, "_header_timer", None) is not None:
            self._header_timer.cancel()  # type: ignore[union-attr]
        self._header_timer = None
        self.waiting_since = None

    def _too_slow(self) -> None:
        self._header_timer = None
        if self.waiting_since is not None:
            self._close()

    def _close(self) -> None:
        self.waiting_since = None
        if not self.transport.is_closing():
            self.transport.close()

    def _make_room(self) -> None:
        """Close the oldest connection still waiting for its headers (this one, the
        newest, when every other one is busy with a request)."""
        waiting = [c for c in self.connections
                   if isinstance(c, GuardedH11Protocol) and c.waiting_since is not None
                   and c is not self and not c.transport.is_closing()]
        oldest = min(waiting, key=lambda c: c.waiting_since or 0.0, default=self)
        oldest._close()

    def handle_events(self) -> None:
        super().handle_events()
        if self.cycle is not None and not self.cycle.response_complete:
            self._stop_waiting()  # the headers are in: the handler's own limits apply

    def on_response_complete(self) -> None:
        super().on_response_complete()  # may start a pipelined request already sent
        idle = self.cycle is None or self.cycle.response_complete
        if idle and not self.transport.is_closing():
            self._wait_for_headers()  # the next request, if any, within the timeout

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        super().connection_lost(exc)


def server_config(app: Any, **options: Any) -> Any:
    """The uvicorn configuration the studio runs with."""
    import uvicorn

    cap = connection_cap()
    GuardedH11Protocol.cap = cap
    return uvicorn.Config(
        app, http=GuardedH11Protocol, timeout_keep_alive=KEEP_ALIVE_S,
        limit_concurrency=cap + 16, h11_max_incomplete_event_size=MAX_HEAD_BYTES,
        backlog=ACCEPT_BURST,
        **options,
    )


def serve(app: Any, sock: socket.socket) -> None:
    """Run ``app`` on the bound socket until Ctrl-C or SIGTERM."""
    import uvicorn

    server = uvicorn.Server(server_config(app, log_level="warning", lifespan="on"))
    server.run(sockets=[sock])
