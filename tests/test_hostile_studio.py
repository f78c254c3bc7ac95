"""Hostile input to the studio (issue 48): each hole a row against a real server.

4 (a planted link in ``NAME-puzzles/``), 13-15 (bad input answered 4xx, never 500), 16 (the
save race), 17 (idle half-sent requests under a 1,024 open-files limit), 18 (cross-site
GETs that start work) and 19 (superseded jobs in the queue). The CLI's holes are rows of
tests/test_hostile_commands.py.
"""

from __future__ import annotations

import asyncio
import base64
import os
import resource
import socket
import struct
import subprocess
import sys
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")

from studio_support import client, make_stock, running_studio  # noqa: E402

from nonopress.studio.config import StudioConfig  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
HEART_GRID = [".##.##.", "#######", ".#####.", "..###..", "...#..."]


@pytest.fixture(scope="module")
def stock(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("hostile-studio-stock")
    make_stock(str(base / "stock.sqlite"), base)
    return base / "stock.sqlite"


@pytest.fixture
def places(tmp_path: Path) -> tuple[Path, Path]:
    """The studio's folder and a folder of someone else's files beside it."""
    work, outside = tmp_path / "work", tmp_path / "outside"
    work.mkdir()
    outside.mkdir()
    (outside / "theirs.txt").write_text("theirs\n")
    return work, outside


@pytest.fixture
def served(places: tuple[Path, Path], stock: Path) -> Iterator[StudioConfig]:
    with running_studio(StudioConfig(folder=places[0], catalogue=str(stock))) as config:
        yield config


def _outside_untouched(outside: Path) -> None:
    assert sorted(p.name for p in outside.iterdir()) == ["theirs.txt"]
    assert (outside / "theirs.txt").read_text() == "theirs\n"


# -- 4. a planted dangling link in NAME-puzzles/ ---------------------------------------
def test_catalogue_puzzles_are_never_written_through_a_planted_link(
    served: StudioConfig, places: tuple[Path, Path]
) -> None:
    work, outside = places
    with client(served) as http:
        heart = next(e for e in http.get("/api/puzzles").json()["entries"]
                     if e["title"] == "Heart")
        (work / "evil-puzzles").mkdir()
        key = heart["label"]
        from nonopress.catalogue import get, open_catalogue

        with open_catalogue(served.catalogue, create=False) as opened:
            full = get(opened, key.removeprefix("catalogue:")).key
        os.symlink(outside / "planted.yaml", work / "evil-puzzles" / f"01-{full[:16]}.yaml")
        answer = http.post("/api/issue", json={"name": "evil", "puzzles": [key],
                                               "profile": "none"})
    assert 400 <= answer.status_code < 500, answer.text
    assert "link" in answer.json()["error"]
    assert not (outside / "planted.yaml").exists()
    _outside_untouched_but(outside, "theirs.txt")


def _outside_untouched_but(outside: Path, *names: str) -> None:
    assert sorted(p.name for p in outside.iterdir()) == sorted(names)


# -- 13, 14, 15: bad input is 4xx, never 500 ----------------------------------------------
def _bomb_png(width: int, height: int) -> bytes:
    """A PNG header claiming width x height pixels (69 bytes, nothing to decode)."""
    head = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + \
            struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", b"") + \
        chunk(b"IEND", b"")


@pytest.mark.parametrize(("method", "path", "payload", "status"), [
    ("post", "/api/make", {"picture": base64.b64encode(_bomb_png(60000, 60000)).decode()},
     413),
    ("post", "/api/save", {"grid": HEART_GRID, "path": "a" * 305 + ".yaml"}, 400),
    ("post", "/api/save", {"grid": HEART_GRID, "path": "dir/" + "b" * 300 + ".non"}, 400),
    ("get", "/api/puzzles", {"title": "x" * 60_000}, 400),  # httpx stops at 64 KB
    ("get", "/api/puzzles", [("tag", f"t{n}") for n in range(3000)], 400),
    ("get", "/api/puzzles", {"size": "1" + "0" * 20 + "x5"}, 400),
    ("get", "/api/puzzles", {"stars": "1.." + "9" * 30}, 400),
    ("get", "/api/puzzles", {"unused_for": "9" * 30}, 400),
    ("get", "/api/puzzle", {"path": "catalogue:" + "9" * 30}, 400),
    ("get", "/api/puzzle", {"path": "catalogue:\u00b2"}, 400),
    ("get", "/api/puzzle", {"path": "heart.yaml", "index": "\u00b2"}, 400),
    ("post", "/api/issue", {"name": "x", "puzzles": ["catalogue:1#\u00b2"]}, 400),
    ("post", "/api/issue", {"name": "x", "puzzles": [{"path": "h.yaml", "index": 10**30}]},
     400),
])
def test_bad_input_is_answered_4xx(served: StudioConfig, method: str, path: str,
                                   payload: object, status: int) -> None:
    with client(served) as http:
        if method == "post":
            answer = http.post(path, json=payload)
        else:
            answer = http.get(path, params=payload)  # type: ignore[arg-type]
    assert answer.status_code == status, (answer.status_code, answer.text[:300])
    assert "error" in answer.json()


def test_one_catalogue_puzzle_twice_in_an_issue_builds_and_records_once(
    served: StudioConfig, places: tuple[Path, Path]
) -> None:
    with client(served) as http:
        heart = next(e for e in http.get("/api/puzzles").json()["entries"]
                     if e["title"] == "Heart")
        answer = http.post("/api/issue", json={"name": "twice", "title": "Twice",
                                               "puzzles": [heart["label"], heart["label"]],
                                               "profile": "none"})
    assert answer.status_code == 200, answer.text
    from nonopress.catalogue import history, open_catalogue

    with open_catalogue(served.catalogue, create=False) as opened:
        from nonopress.catalogue import get

        entry = get(opened, heart["label"].removeprefix("catalogue:"))
        printed = [p for p in history(opened, entry.key) if p.issue == "Twice twice"]
    assert [p.position for p in printed] == [1]


# -- 16. the save race ---------------------------------------------------------------------
def test_twenty_saves_of_one_new_name_one_wins(served: StudioConfig,
                                               places: tuple[Path, Path]) -> None:
    work = places[0]

    def save(number: int) -> int:
        grid = [row if r else "#" * 7 if number % 2 else row for r, row in enumerate(HEART_GRID)]
        with client(served) as http:
            return int(http.post("/api/save", json={"grid": grid, "path": "race.yaml",
                                                    "title": f"Save {number}"}).status_code)

    with ThreadPoolExecutor(20) as pool:
        statuses = list(pool.map(save, range(20)))
    assert sorted(statuses) == [200] + [409] * 19, statuses
    assert [p.name for p in work.iterdir() if p.name.startswith(".race")] == []  # no temp left


# -- 18. cross-site GETs that start work ----------------------------------------------------
@pytest.mark.parametrize(("headers", "status"), [
    ({}, 403),  # a script without the token
    ({"Sec-Fetch-Site": "cross-site"}, 403),  # <img src> on another site
    ({"Sec-Fetch-Site": "same-site"}, 403),  # another port or subdomain
    ({"Sec-Fetch-Site": "same-origin"}, 200),  # the page's own fetch
    ({"Sec-Fetch-Site": "none"}, 200),  # typed into the address bar
])
def test_an_api_get_needs_the_token_or_the_page_itself(
    served: StudioConfig, headers: dict[str, str], status: int
) -> None:
    (served.folder / "heart.yaml").write_text(
        (ROOT / "puzzles" / "heart.yaml").read_text())
    answer = httpx.get(f"{served.origin}/api/puzzle", params={"path": "heart.yaml"},
                       headers=headers, timeout=60)
    assert answer.status_code == status, answer.text[:300]
    health = httpx.get(f"{served.origin}/api/health", timeout=60)
    assert health.status_code == 200 and health.json()["jobs"] == 0


# -- 19. only live jobs count toward the queue --------------------------------------------
def test_superseded_jobs_never_refuse_the_newest_live_check() -> None:
    from nonopress.studio.jobs import Jobs, Superseded
    from nonopress.studio.security import RequestRefused

    async def scenario() -> list[str]:
        jobs = Jobs(workers=1, max_pending=3)
        gate = threading.Event()
        blocker = asyncio.ensure_future(jobs.run(lambda: gate.wait(30) and "slow", "other"))
        await asyncio.sleep(0.05)
        def answer(n: int) -> Callable[[], str]:
            return lambda: f"check {n}"

        checks = [asyncio.ensure_future(jobs.run(answer(n), "live"))
                  for n in range(10)]  # each supersedes the one before
        await asyncio.sleep(0.05)
        gate.set()
        outcomes = []
        for future in [blocker, *checks]:
            try:
                outcomes.append(str(await future))
            except Superseded:
                outcomes.append("superseded")
            except RequestRefused as exc:
                outcomes.append(f"refused {exc.status}")
        return outcomes

    outcomes = asyncio.run(scenario())
    assert outcomes[0] == "slow" and outcomes[-1] == "check 9", outcomes
    assert "refused 503" not in outcomes, outcomes


# -- 17. idle half-sent requests under the common 1,024 open-files limit ---------------------
@pytest.mark.slow
def test_eleven_hundred_half_sent_requests_lock_out_nobody(tmp_path: Path) -> None:
    (tmp_path / "heart.yaml").write_text((ROOT / "puzzles" / "heart.yaml").read_text())

    def limit_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))

    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    err = tmp_path / "studio.err"
    with open(err, "wb") as stderr:
        server = subprocess.Popen(
            [sys.executable, "-m", "nonopress", "studio", str(tmp_path), "--no-browser",
             "--port", str(port)], stdout=subprocess.PIPE, stderr=stderr,
            preexec_fn=limit_files)
    held: list[socket.socket] = []
    try:
        assert server.stdout is not None
        server.stdout.readline()
        token = server.stdout.readline().decode().split()[-1]
        deadline = time.monotonic() + 60
        while True:  # listening once the event loop runs
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the studio did not start"
                time.sleep(0.2)
        for _ in range(1100):  # the request line and one header, never the blank line
            connection = socket.create_connection(("127.0.0.1", port))
            connection.sendall(f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                               .encode())
            held.append(connection)
        started = time.monotonic()
        answer = httpx.get(f"http://127.0.0.1:{port}/api/puzzles", timeout=30,
                           headers={"X-Studio-Token": token})
        assert answer.status_code == 200 and time.monotonic() - started < 15
        time.sleep(12)  # past the header timeout: every half-sent request was closed
        still_open = 0
        for connection in held:  # closed: its answer (a 408 line, if any) read to the end
            connection.setblocking(False)
            try:
                while connection.recv(65536):
                    pass
            except BlockingIOError:
                still_open += 1
            except OSError:
                pass
        assert still_open == 0
        assert server.poll() is None
    finally:
        for connection in held:
            connection.close()
        server.terminate()
        server.wait(30)
    assert err.stat().st_size < 10_000, err.read_text()[:2000]  # no log flood
