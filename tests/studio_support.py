"""Helpers for the studio's tests: a folder of puzzles and a real uvicorn server on it."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import httpx
import uvicorn

from nonopress.studio.app import create_app
from nonopress.studio.config import StudioConfig

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "puzzles"
BUNDLED = ("heart.yaml", "house.yaml", "loaded-die.yaml", "colour/ladybird.yaml")


def puzzle_folder(base: Path) -> Path:
    """A folder holding a few bundled puzzles (black-and-white, ambiguous, colour)."""
    folder = base / "work"
    for name in BUNDLED:
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(LIBRARY / name, target)
    return folder


@contextmanager
def running_studio(config: StudioConfig) -> Iterator[StudioConfig]:
    """The studio served by uvicorn on a free loopback port, in a thread, for real HTTP."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    config = replace(config, host="127.0.0.1", port=sock.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(create_app(config), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the studio did not start")
        time.sleep(0.05)
    try:
        yield config
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def client(config: StudioConfig, **kwargs: object) -> httpx.Client:
    """A script's client: the session token in its header."""
    return httpx.Client(base_url=config.origin, headers={"X-Studio-Token": config.token},
                        timeout=60, **kwargs)  # type: ignore[arg-type]
