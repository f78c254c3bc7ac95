"""Helpers for the studio's tests: a folder of puzzles (or a catalogue of them) and a real
uvicorn server on it."""

from __future__ import annotations

import datetime as dt
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from grader.formats import read_any, write_any
from grader.model import Metadata, Puzzle
from nonopress.catalogue import ImportOptions, Printed, add_files, open_catalogue, record_printings
from nonopress.studio.app import create_app
from nonopress.studio.config import StudioConfig
from nonopress.studio.server import server_config

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
    server = uvicorn.Server(server_config(create_app(config), log_level="warning"))
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


def make_stock(location: str, base: Path) -> None:
    """A catalogue at ``location``: Heart (tagged love, printed in "Issue 1" on 2026-03-01),
    House, and the house upside down as "Mirror house" (one design stored twice)."""
    stock = base / "stock"
    stock.mkdir()
    house = read_any(LIBRARY / "house.yaml")[0]
    assert isinstance(house, Puzzle) and house.solution is not None
    mirrored = Puzzle.from_picture(list(house.solution)[::-1],
                                   Metadata(title="Mirror house"))
    assert mirrored.key() != house.key()
    (stock / "mirror-house.yaml").write_bytes(write_any(mirrored, "yaml"))
    (stock / "house.yaml").write_bytes((LIBRARY / "house.yaml").read_bytes())
    with open_catalogue(location) as catalogue:
        options = ImportOptions(jobs=1, timeout_s=60)
        add_files(catalogue, [str(stock)], options)
        add_files(catalogue, [str(LIBRARY / "heart.yaml")],
                  ImportOptions(jobs=1, timeout_s=60, tags=("love",)))
        heart = read_any(LIBRARY / "heart.yaml")[0]
        record_printings(catalogue, "Issue 1", [Printed(heart, 1, 3)],
                         date=dt.date(2026, 3, 1), profile="kdp")


@contextmanager
def studio_tab(browser: Any, url: str, height: int = 800) -> Iterator[Any]:
    """A tab of the studio at ``url`` (1280 CSS px wide), once its script has started; at
    the end no script error may have happened in it."""
    context = browser.new_context(viewport={"width": 1280, "height": height})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.goto(url)
    tab.wait_for_function("() => window.__studio !== undefined")
    yield tab
    context.close()
    assert errors == []
