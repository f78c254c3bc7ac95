"""The studio is a server: what every request passes before a handler sees it.

* the Host header must name this server (a page on another site that rebinds its DNS name
  to 127.0.0.1 sends its own name: refused);
* a request that changes anything (not GET/HEAD) needs an ``Origin`` of this server or the
  session's token in ``X-Studio-Token`` (a form or script on another site has neither);
* a GET of the API (it may start a solve: ``/api/puzzle``, ``/api/puzzles``) needs the token
  or a browser's ``Sec-Fetch-Site`` of ``same-origin`` or ``none`` (an ``<img>`` on another
  site says ``cross-site`` and would fill the job queue the editor's own checks need);
* a body whose declared length is over the cap is refused before it is read (the handlers
  read bodies through :func:`read_body`, which counts as it reads);
* every answer carries a content security policy and no-sniff / no-frame headers.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from typing import Any

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from nonopress.studio.config import StudioConfig

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: paths that check the Origin themselves against their own list (the solve collector:
#: a web player on another origin sends there, without the session's token)
OWN_ORIGIN_CHECK = frozenset({"/api/solves"})
TOKEN_HEADER = "x-studio-token"
#: Sec-Fetch-Site values of the page's own requests and of an address typed by the user
SAME_SITE = frozenset({"same-origin", "none"})
#: GETs of the API anyone may send (they start nothing)
OPEN_PATHS = frozenset({"/api/health"})


class RequestRefused(Exception):
    """A request refused with a status and a JSON error (never a traceback page)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def content_security_policy() -> str:
    """Scripts from this server only, plus the replay page's own inline script and style
    (allowed by hash: the replay is shown in a sandboxed frame from ``srcdoc``)."""
    from grader.explain_html import SCRIPT, STYLE

    return "; ".join((
        "default-src 'self'",
        f"script-src 'self' {_sha256(SCRIPT)}",
        f"style-src 'self' {_sha256(STYLE)}",
        "img-src 'self' data: blob:",
        "connect-src 'self'",
        "frame-src 'self' about:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ))


def _json_refusal(status: int, message: str) -> tuple[Message, Message]:
    body = json.dumps({"error": message}).encode()
    start: Message = {
        "type": "http.response.start",
        "status": status,
        "headers": [(b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode())],
    }
    return start, {"type": "http.response.body", "body": body}


class GuardMiddleware:
    """Host, Origin/token and declared-length checks, and security headers on answers."""

    def __init__(self, app: ASGIApp, config: StudioConfig):
        self.app = app
        self.config = config
        self.hosts = config.allowed_hosts()
        self.origins = config.allowed_origins()
        self.policy = content_security_policy().encode()

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        host = headers.get("host", "")
        if host.lower() not in self.hosts:
            return 421, (f"Host {host[:80]!r} is not this studio's address "
                         f"({self.config.origin}); refused")
        token = headers.get(TOKEN_HEADER, "")
        token_ok = bool(token) and hmac.compare_digest(token.encode("latin-1"),
                                                       self.config.token.encode())
        path = str(scope.get("path", ""))
        if scope.get("method", "GET") in ("GET", "HEAD") and path.startswith("/api/") \
                and path not in OPEN_PATHS and not token_ok:
            site = headers.get("sec-fetch-site")
            if site not in SAME_SITE:
                return 403, ("an API request from "
                             f"{'another site' if site else 'a script'} needs the session "
                             f"token in the {TOKEN_HEADER} header")
        if (scope.get("method", "GET") not in SAFE_METHODS
                and path not in OWN_ORIGIN_CHECK):
            origin = headers.get("origin")
            if origin is not None and origin not in self.origins and not token_ok:
                return 403, f"cross-origin request from {origin[:80]!r} refused"
            if origin is None and not token_ok:
                return 403, ("a request that changes anything needs this page's Origin or "
                             f"the session token in the {TOKEN_HEADER} header")
        length = headers.get("content-length")
        if length is not None:
            if not length.isdigit():
                return 400, "Content-Length is not a number"
            if int(length) > self.config.max_body_bytes:
                return 413, (f"request body of {int(length):,} bytes is over the limit of "
                             f"{self.config.max_body_bytes:,} bytes")
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = self.refusal(scope)
        if refused is not None:
            start, body = _json_refusal(*refused)
            await send(self._with_headers(start))
            await send(body)
            return

        async def send_guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = self._with_headers(message)
            await send(message)

        await self.app(scope, receive, send_guarded)

    def _with_headers(self, message: Message) -> Message:
        headers = [(k, v) for k, v in message.get("headers", [])
                   if k.lower() != b"content-security-policy"]
        headers += [
            (b"content-security-policy", self.policy),
            (b"x-content-type-options", b"nosniff"),
            (b"x-frame-options", b"DENY"),
            (b"referrer-policy", b"no-referrer"),
            (b"cache-control", b"no-store"),
        ]
        return {**message, "headers": headers}


async def read_body(request: Request, limit: int) -> bytes:
    """The body, counted as it arrives: a chunked body over ``limit`` is refused too."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise RequestRefused(413, f"request body over the limit of {limit:,} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def read_json(request: Request, limit: int) -> dict[str, Any]:
    """The body as a JSON object, or RequestRefused naming what is wrong."""
    data = await read_body(request, limit)
    if not data:
        raise RequestRefused(400, "the request needs a JSON object as its body")
    try:
        value = json.loads(data)
    except (ValueError, RecursionError) as exc:
        raise RequestRefused(400, f"the body is not valid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise RequestRefused(400, "the body must be a JSON object")
    return value
