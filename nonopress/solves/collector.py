"""The collector: an ASGI app answering ``POST /api/solves`` with one solve record a request.

The studio mounts its routes (:func:`solve_routes`); ``nonopress collect`` runs it alone
under uvicorn with several worker processes (:func:`from_environment` is the factory each
worker calls). What every request passes:

* **CORS**: the ``Origin`` must be one the collector was told (``--origin``; ``null`` for a
  player opened from disk only when told so). A preflight (``OPTIONS``) from such an origin is
  answered; any other origin, or none, is refused with 403. The player sends its record as
  ``text/plain`` (no preflight) or ``application/json``; both are read as JSON.
* **Body cap**: a declared ``Content-Length`` over the cap is refused before reading, a body
  is counted as it arrives (413).
* **Rate per client**: a token bucket per client address (``scope["client"]``; behind a proxy
  uvicorn's ``--forwarded-allow-ips`` puts the solver's address there), ``rate`` records a
  second, ``burst`` at once (429 with ``Retry-After``). Each worker process keeps its own
  buckets, so with N workers a client gets at most N times the rate.
* **The record**: :func:`nonopress.solves.record.parse_record` field by field; stored by
  :class:`nonopress.solves.store.BatchWriter` once per record id.

Every refusal is one line of JSON, ``{"error": "..."}``, with a 4xx status.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import math
import os
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import exc as sa_exc
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Route

from nonopress.catalogue.database import Catalogue
from nonopress.solves.record import MAX_BYTES, RecordRefused, parse_record, unknown_puzzle
from nonopress.solves.senders import SenderDigest, catalogue_secret
from nonopress.solves.store import BatchWriter, KnownPuzzles

log = logging.getLogger("nonopress.collector")
PATH = "/api/solves"
#: the environment :func:`from_environment` reads (``nonopress collect`` sets it for its
#: workers, so that a database password never appears on a command line)
ENV_DB = "NONOPRESS_COLLECT_DB"
ENV_ORIGINS = "NONOPRESS_COLLECT_ORIGINS"
ENV_RATE = "NONOPRESS_COLLECT_RATE"
ENV_BURST = "NONOPRESS_COLLECT_BURST"
ENV_MAX_BODY = "NONOPRESS_COLLECT_MAX_BODY"
_CONTENT_TYPES = ("text/plain", "application/json")


@dataclass(frozen=True)
class CollectorSettings:
    """What a collector accepts: the origins of the pages that may send, the body cap and
    the rate a client may send at."""

    origins: frozenset[str]
    max_body: int = MAX_BYTES
    rate: float = 2.0  # records a second, sustained, per client
    burst: int = 60  # records at once per client

    def __post_init__(self) -> None:
        if self.rate <= 0 or self.burst < 1 or self.max_body < 256:
            raise ValueError("a collector needs rate > 0, burst >= 1 and max_body >= 256")


def normal_origin(text: str) -> str:
    """``https://site.example`` as a browser sends it in ``Origin`` (scheme, host, port; no
    path, no trailing slash), or ``null``; ValueError for anything else."""
    from urllib.parse import urlsplit

    text = text.strip()
    if text == "null":
        return text
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in (
            "", "/") or parts.query or parts.fragment or parts.username:
        raise ValueError(f"{text!r} is not an origin such as https://site.example")
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{parts.hostname.lower()}{port}"


class RateLimiter:
    """Token buckets by client address, at most ``clients`` remembered (the oldest go)."""

    def __init__(self, rate: float, burst: int, clients: int = 100_000):
        self.rate, self.burst, self.clients = rate, float(burst), clients
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def wait(self, client: str) -> float:
        """0 when the client may send now (a token taken), else the seconds to wait."""
        now = time.monotonic()
        with self._lock:
            tokens, then = self._buckets.get(client, (self.burst, now))
            tokens = min(self.burst, tokens + (now - then) * self.rate)
            if tokens >= 1.0:
                self._buckets[client] = (tokens - 1.0, now)
                self._buckets.move_to_end(client)
                while len(self._buckets) > self.clients:
                    self._buckets.popitem(last=False)
                return 0.0
            self._buckets[client] = (tokens, now)
            return (1.0 - tokens) / self.rate


def _line(status: int, body: dict[str, Any], headers: dict[str, str]) -> Response:
    text = json.dumps(body, ensure_ascii=True, separators=(", ", ": ")) + "\n"
    return Response(text, status_code=status, media_type="application/json",
                    headers=headers)


class Collector:
    """One collector: its settings, catalogue, known puzzles and rate buckets."""

    def __init__(self, settings: CollectorSettings,
                 catalogue: Callable[[], Catalogue | None]):
        self.settings = settings
        self._catalogue = catalogue
        self._known: KnownPuzzles | None = None
        self._writer: BatchWriter | None = None
        self._sender: SenderDigest | None = None
        self._making = threading.Lock()
        self.limiter = RateLimiter(settings.rate, settings.burst)

    def for_catalogue(self, catalogue: Catalogue
                      ) -> tuple[KnownPuzzles, BatchWriter, SenderDigest]:
        """The puzzle keys known, the writer and the sender digest of ``catalogue`` (made
        on first use, by one thread: the first requests arrive together)."""
        with self._making:
            if self._known is None or self._known.catalogue is not catalogue:
                self._sender = SenderDigest(catalogue_secret(catalogue))
                if self._writer is not None:
                    self._writer.close()
                self._writer = BatchWriter(catalogue)
                self._known = KnownPuzzles(catalogue)
            assert self._writer is not None and self._sender is not None
            return self._known, self._writer, self._sender

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    def cors(self, origin: str | None) -> dict[str, str]:
        if origin is None or origin not in self.settings.origins:
            return {"vary": "Origin"}
        return {"access-control-allow-origin": origin, "vary": "Origin"}

    async def preflight(self, request: Request) -> Response:
        origin = request.headers.get("origin")
        if origin is None or origin not in self.settings.origins:
            return _line(403, {"error": f"origin {_shown(origin)} may not send solves here"},
                         {"vary": "Origin"})
        return Response(status_code=204, headers={
            **self.cors(origin),
            "access-control-allow-methods": "POST, OPTIONS",
            "access-control-allow-headers": "content-type",
            "access-control-max-age": "86400",
        })

    async def post(self, request: Request) -> Response:
        origin = request.headers.get("origin")
        headers = self.cors(origin)
        try:
            answer = await self._post(request, origin)
        except ClientDisconnect:
            # the client went (or the server closed a body too slow): one line, no trace
            log.warning("collector: %s closed the connection before its record arrived",
                        _client(request))
            return _line(503, {"error": "the connection closed before the record arrived"},
                         headers)
        except sa_exc.DBAPIError as exc:
            # the database is down or busy: the player sends again later (it does on 5xx)
            log.warning("collector: the catalogue did not answer (%s): %s",
                        exc.__class__.__name__, _first_line(exc))
            return _line(503, {"error": "the catalogue is not answering; send again later"},
                         {**headers, "retry-after": "30"})
        except RecordRefused as refused:
            extra = {} if refused.retry_after is None else {
                "retry-after": str(refused.retry_after)}
            return _line(refused.status, {"error": str(refused)}, {**headers, **extra})
        return _line(201 if answer == "new" else 200, {"stored": answer}, headers)

    async def _post(self, request: Request, origin: str | None) -> str:
        settings = self.settings
        if origin is None or origin not in settings.origins:
            raise RecordRefused(f"origin {_shown(origin)} may not send solves here", 403)
        client = _client(request)
        wait = self.limiter.wait(client)
        if wait > 0:
            raise RecordRefused(f"too many records from {client}: wait {math.ceil(wait)} s",
                                429, math.ceil(wait))
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind not in _CONTENT_TYPES:
            raise RecordRefused(f"Content-Type {kind[:60]!r}: a record is sent as "
                                "text/plain or application/json", 415)
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > settings.max_body):
            raise RecordRefused(f"a body of {length[:20]} bytes is over the limit of "
                                f"{settings.max_body:,}", 413)
        body = await _read(request, settings.max_body)
        catalogue = self._catalogue()
        if catalogue is None:
            raise RecordRefused("this server keeps no catalogue to store solves in "
                                "(start it with --db)", 404)
        if self._known is None or self._known.catalogue is not catalogue:
            await run_in_threadpool(self.for_catalogue, catalogue)
        known, writer, sender = self.for_catalogue(catalogue)
        record = dataclasses.replace(parse_record(body, None), sender=sender(client))
        found = known.cached(record.puzzle_key)
        if found is None:
            found = await run_in_threadpool(known, record.puzzle_key)
        if not found:
            raise unknown_puzzle(record.puzzle_key)
        return await asyncio.wrap_future(writer.submit(record))


async def _read(request: Request, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise RecordRefused(f"the body is over the limit of {limit:,} bytes", 413)
        chunks.append(chunk)
    return b"".join(chunks)


def _client(request: Request) -> str:
    return request.client.host if request.client else "?"


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    return (text[0] if text else exc.__class__.__name__)[:200]


def _shown(origin: str | None) -> str:
    return "(none)" if origin is None else repr(origin[:80])


def solve_routes(collector: Collector) -> list[Route]:
    """``POST`` and ``OPTIONS /api/solves``, for the studio or a collector of its own."""

    async def endpoint(request: Request) -> Response:
        if request.method == "OPTIONS":
            return await collector.preflight(request)
        return await collector.post(request)

    return [Route(PATH, endpoint, methods=["POST", "OPTIONS"])]


def create_app(settings: CollectorSettings, location: str) -> Starlette:
    """The collector alone, storing into the catalogue at ``location`` (opened, and
    migrated, when the app starts)."""
    from nonopress.catalogue import open_catalogue

    opened: list[Catalogue] = []
    collector = Collector(settings, lambda: opened[0] if opened else None)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        opened.append(open_catalogue(location))
        try:
            yield
        finally:
            collector.close()
            opened.pop().close()

    async def not_here(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 404)
        return _line(status, {"error": f"{request.method} {request.url.path[:80]}: "
                                       f"only POST {PATH} is answered here"}, {})

    async def crashed(request: Request, exc: Exception) -> Response:
        log.exception("collector: %s %s failed", request.method, request.url.path)
        return _line(500, {"error": f"internal error ({exc.__class__.__name__})"}, {})

    from starlette.exceptions import HTTPException

    return Starlette(routes=solve_routes(collector),
                     lifespan=lifespan,
                     exception_handlers={HTTPException: not_here, Exception: crashed})


def settings_from_environment() -> tuple[CollectorSettings, str]:
    origins = frozenset(o for o in os.environ.get(ENV_ORIGINS, "").split() if o)
    settings = CollectorSettings(
        origins=origins,
        max_body=int(os.environ.get(ENV_MAX_BODY, str(MAX_BYTES))),
        rate=float(os.environ.get(ENV_RATE, "2")),
        burst=int(os.environ.get(ENV_BURST, "60")),
    )
    return settings, os.environ[ENV_DB]


def from_environment() -> Starlette:
    """The app factory each uvicorn worker calls (``nonopress collect`` sets the
    environment)."""
    settings, location = settings_from_environment()
    return create_app(settings, location)
