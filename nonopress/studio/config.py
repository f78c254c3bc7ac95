"""What one studio session serves and the limits it keeps."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from pathlib import Path

#: the page is for loopback unless asked otherwise
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8737
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]", "::1")


@dataclass(frozen=True)
class StudioConfig:
    """A session: the folder, where it is served, its token and its limits."""

    folder: Path
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    #: what a script sends as ``X-Studio-Token`` instead of a same-origin ``Origin``
    token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    #: JSON bodies larger than this are refused before they are read in full
    max_body_bytes: int = 2 * 1024 * 1024
    #: a picture's upload (base64 inside JSON) is capped by the body; its pixels here,
    #: from the header, before it is decoded
    max_picture_pixels: int = 12_000_000
    #: the largest grid the page or a script may send
    max_side: int = 120
    #: seconds a live check / a grade / a make or repair / an issue may spend
    check_seconds: float = 3.0
    grade_seconds: float = 10.0
    make_seconds: float = 30.0
    issue_seconds: float = 120.0
    #: threads that run solves (numba releases the GIL) and jobs waiting at most
    workers: int = 2
    max_pending: int = 12
    #: the catalogue to show as the library (``--db``: a file or a database URL); None: the
    #: folder's own nonopress-library.sqlite when there is one, else the folder's files
    catalogue: str | None = None
    #: extra Host header names accepted (for --host 0.0.0.0: the machine's names)
    extra_hosts: tuple[str, ...] = ()
    #: origins beside the studio's own whose pages (a web player built with --collect) may
    #: send solve records to POST /api/solves (``--collect-origin``)
    collect_origins: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "folder", Path(self.folder).resolve())

    @property
    def origin(self) -> str:
        return f"http://{self.url_host}:{self.port}"

    @property
    def url_host(self) -> str:
        if self.host in ("0.0.0.0", "::"):
            return "127.0.0.1"
        return f"[{self.host}]" if ":" in self.host else self.host

    @property
    def url(self) -> str:
        return f"{self.origin}/"

    def allowed_hosts(self) -> frozenset[str]:
        """Host header values this server answers (anything else: DNS rebinding)."""
        names = {self.url_host, *self.extra_hosts}
        if self.host in LOOPBACK_NAMES or self.host in ("0.0.0.0", "::"):
            names.update(("127.0.0.1", "localhost", "[::1]"))
        return frozenset({f"{name}:{self.port}" for name in names} | names)

    def allowed_origins(self) -> frozenset[str]:
        """Origin header values of this server's own pages."""
        return frozenset(f"http://{host}" for host in self.allowed_hosts()
                         if host.endswith(f":{self.port}"))
