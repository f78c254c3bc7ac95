"""Serving the studio: the project's one hardened server (``nonopress/serving.py``: header
and body deadlines, a minimum body rate, a connection cap closing the oldest incomplete
request, a keep-alive limit, protocol errors in one JSON line), the one ``nonopress
collect`` runs too."""

from __future__ import annotations

import socket
from typing import Any

from nonopress.serving import server_config

__all__ = ["serve", "server_config"]


def serve(app: Any, sock: socket.socket) -> None:
    """Run ``app`` on the bound socket until Ctrl-C or SIGTERM."""
    import uvicorn

    server = uvicorn.Server(server_config(app, log_level="warning", lifespan="on"))
    server.run(sockets=[sock])
