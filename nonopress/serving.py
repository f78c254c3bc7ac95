"""One hardened HTTP server for every face that listens (the studio, ``nonopress collect``).

uvicorn by itself times a connection out only *between* requests, so a client that sends
half a request head, or a head and then a body one byte at a time, holds a connection (and
a file descriptor) for as long as it likes; a thousand of them lock everyone else out. The
protocol here (:class:`GuardedH11Protocol`, uvicorn's HTTP/1.1 over h11 with limits) adds:

* **a header deadline**: a request's head must arrive within :data:`HEADER_TIMEOUT_S` of the
  connection opening (or of its previous answer);
* **a body deadline and a minimum body rate**: once the head is in, the body must arrive
  at :data:`MIN_BODY_RATE` bytes a second on average after a grace of :data:`BODY_GRACE_S`,
  and all of it within :data:`BODY_DEADLINE_S`;
* **a connection cap** (:func:`connection_cap`, under half what the open-files limit leaves):
  past it, the oldest connection whose request is still incomplete (head or body) is closed
  to make room, so a flood of slow requests cannot lock out a real one, and ``accept()``
  never fails with "too many open files";
* **a keep-alive limit**: an idle connection is closed after :data:`KEEP_ALIVE_S`, and any
  connection after :data:`MAX_REQUESTS` requests;
* **one JSON line for what the protocol refuses**: a malformed request (a 20-digit
  Content-Length, Content-Length beside chunked encoding) gets ``400 {"error": ...}`` and a
  request too slow ``408``, never uvicorn's plain text.

:func:`server_config` is the uvicorn configuration the studio runs with;
:func:`guard_options` the same options for ``uvicorn.run`` (the collector's workers).
"""

from __future__ import annotations

import asyncio
import json
import logging
import resource
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger("nonopress.server")

#: seconds a connection has to send a request's head (a browser sends it at once)
HEADER_TIMEOUT_S = 10.0
#: seconds a body may take before the minimum rate applies
BODY_GRACE_S = 5.0
#: bytes a second a body must average after the grace (a phone on a poor line sends more)
MIN_BODY_RATE = 8 * 1024
#: seconds any body may take, however fast it comes
BODY_DEADLINE_S = 120.0
#: how often a body's progress is looked at
BODY_CHECK_S = 1.0
#: seconds an idle kept-alive connection stays open after an answer
KEEP_ALIVE_S = 5
#: requests one connection may make before it is closed (a new one costs a handshake)
MAX_REQUESTS = 1000
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


def json_answer(status: int, reason: str, message: str) -> bytes:
    """A whole HTTP/1.1 answer of one JSON line, closing the connection."""
    body = (json.dumps({"error": message}, ensure_ascii=True) + "\n").encode()
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n").encode() + body


class GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with the limits of the module's note."""

    header_timeout_s = HEADER_TIMEOUT_S
    body_grace_s = BODY_GRACE_S
    min_body_rate = MIN_BODY_RATE
    body_deadline_s = BODY_DEADLINE_S
    #: None: worked out from the open-files limit at the first connection (each worker
    #: process its own)
    cap: int | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        cls = type(self)
        if cls.cap is None:
            cls.cap = connection_cap()
        self.waiting_since: float | None = None  # an incomplete request's start
        self._header_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        self._body_since = 0.0
        self._body_bytes = 0
        self._heard = 0  # bytes of the request now being received
        self._answered = 0
        self._wait_for_headers()
        if len(self.connections) > cls.cap:
            self._make_room()

    # -- the head -----------------------------------------------------------------------
    def _wait_for_headers(self) -> None:
        self._stop_waiting()
        self.waiting_since = self.loop.time()
        self._heard = 0
        self._header_timer = self.loop.call_later(self.header_timeout_s, self._head_too_slow)

    def _stop_waiting(self) -> None:
        for name in ("_header_timer", "_body_timer"):
            timer = getattr(self, name, None)
            if timer is not None:
                timer.cancel()
            setattr(self, name, None)
        self.waiting_since = None

    def _head_too_slow(self) -> None:
        self._header_timer = None
        if self.waiting_since is None:
            return
        if self._heard:  # half a head: told why, in one line
            self._refuse(408, "Request Timeout", f"the request's head did not arrive within "
                         f"{self.header_timeout_s:g} s")
        else:  # an idle connection: closed, as keep-alive closes one
            self._close()

    # -- the body -----------------------------------------------------------------------
    def _watch_body(self) -> None:
        if self._body_timer is None:
            self._body_since = self.loop.time()
            self._body_bytes = 0
            self._body_timer = self.loop.call_later(BODY_CHECK_S, self._check_body)

    def _check_body(self) -> None:
        self._body_timer = None
        cycle = self.cycle
        if cycle is None or not cycle.more_body or self.transport.is_closing():
            return
        elapsed = self.loop.time() - self._body_since
        owed = self.min_body_rate * (elapsed - self.body_grace_s)
        if elapsed > self.body_deadline_s or self._body_bytes < owed:
            self._refuse(408, "Request Timeout",
                         f"the request's body came too slowly ({self._body_bytes} bytes in "
                         f"{elapsed:.0f} s; at least {self.min_body_rate} bytes a second "
                         f"after {self.body_grace_s:g} s, all within "
                         f"{self.body_deadline_s:g} s)")
            return
        self._body_timer = self.loop.call_later(BODY_CHECK_S, self._check_body)

    def data_received(self, data: bytes) -> None:
        self._heard += len(data)
        if self._body_timer is not None:
            self._body_bytes += len(data)
        super().data_received(data)

    # -- refusing and closing --------------------------------------------------------------
    def _refuse(self, status: int, reason: str, message: str) -> None:
        """Answer one JSON line (when no answer has begun) and close."""
        self._stop_waiting()
        if self.transport.is_closing():
            return
        if self.cycle is None or not self.cycle.response_started:
            self.transport.write(json_answer(status, reason, message))
        self.transport.close()

    def _close(self) -> None:
        self._stop_waiting()
        if not self.transport.is_closing():
            self.transport.close()

    def _make_room(self) -> None:
        """Close the oldest connection whose request is still incomplete (this one, the
        newest, when every other one is busy with a complete request)."""
        waiting = [c for c in self.connections
                   if isinstance(c, GuardedH11Protocol) and c.waiting_since is not None
                   and c is not self and not c.transport.is_closing()]
        oldest = min(waiting, key=lambda c: c.waiting_since or 0.0, default=self)
        oldest._close()

    def send_400_response(self, msg: str) -> None:
        """h11 found the request malformed: one JSON line, not uvicorn's plain text."""
        self._refuse(400, "Bad Request", "the request is not valid HTTP/1.1 (a malformed "
                     "request line or header, a Content-Length that is not a number or "
                     "beside chunked encoding)")

    # -- uvicorn's events ------------------------------------------------------------------
    def handle_events(self) -> None:
        super().handle_events()
        cycle = self.cycle
        if cycle is None or cycle.response_complete or self.transport.is_closing():
            return
        if self._header_timer is not None:  # the head is in: its deadline is met
            self._header_timer.cancel()
            self._header_timer = None
        if cycle.more_body:
            self._watch_body()  # still incomplete: waiting_since stays, for the cap
        else:
            self._stop_waiting()  # complete: the handler's own limits apply

    def on_response_complete(self) -> None:
        self._answered += 1
        if self._answered >= MAX_REQUESTS and not self.transport.is_closing():
            self.transport.close()
            return
        super().on_response_complete()  # may start a pipelined request already sent
        idle = self.cycle is None or self.cycle.response_complete
        if idle and not self.transport.is_closing():
            self._wait_for_headers()  # the next request, if any, within the deadline

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        super().connection_lost(exc)


def guard_options() -> dict[str, Any]:
    """The options of ``uvicorn.Config`` / ``uvicorn.run`` that put these limits on."""
    return {"http": GuardedH11Protocol, "timeout_keep_alive": KEEP_ALIVE_S,
            "h11_max_incomplete_event_size": MAX_HEAD_BYTES, "backlog": ACCEPT_BURST}


def server_config(app: Any, **options: Any) -> Any:
    """The uvicorn configuration of a hardened server of ``app``."""
    import uvicorn

    return uvicorn.Config(app, **guard_options(), **options)
