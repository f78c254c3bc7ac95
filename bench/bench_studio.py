"""Studio bench: server time of ``POST /api/check`` on 30x30 puzzles, as the page sends them.

    python bench/bench_studio.py [--edits 8] [--random 10]

The editor's case: a 30x30 drawing (the project's 34 drawings, silhouettes and line art,
read at 30x30) changed one cell at a time, each change checked. Each request goes over
loopback HTTP to a real uvicorn server (Host and token checks, JSON, the worker thread),
timed at the client: that is the server's whole time plus the loopback hop. Random 30x30
pictures (density 0.6, harder than drawings) are a second table. Prints median and p95 of
the request and of the solver's own ``time_s``. The browser's click-to-verdict latency is
measured by ``tests/test_studio_browser.py::test_live_update_latency_on_a_30x30`` (run it
with ``-s`` to see it).
"""

from __future__ import annotations

import argparse
import io
import socket
import statistics
import sys
import threading
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import uvicorn  # noqa: E402

from grader.authoring import binarise  # noqa: E402
from grader.authoring.drawings import catalogue, draw  # noqa: E402
from grader.authoring.picture import load_grey  # noqa: E402
from grader.solver import ensure_compiled  # noqa: E402
from nonopress.studio.app import create_app  # noqa: E402
from nonopress.studio.config import StudioConfig  # noqa: E402

SIZE = 30


def rows(picture: np.ndarray) -> list[str]:
    return ["".join("#" if v else "." for v in row) for row in picture]


def drawings() -> list[np.ndarray]:
    pictures = []
    for name, style in catalogue():
        out = io.BytesIO()
        draw(name, style, line_width=max(8, 400 // SIZE + 2)).save(out, format="PNG")
        pictures.append(binarise(load_grey(out.getvalue()), SIZE, SIZE).picture)
    return pictures


def edited(pictures: list[np.ndarray], edits: int, seed: int) -> list[list[str]]:
    """Each picture, then the picture after each of ``edits`` single-cell changes."""
    rng = np.random.default_rng(seed)
    grids = []
    for picture in pictures:
        current = picture.copy()
        grids.append(rows(current))
        for _ in range(edits):
            r, c = rng.integers(0, SIZE, size=2)
            current[r, c] = not current[r, c]
            grids.append(rows(current))
    return grids


def measure(session: httpx.Client, grids: list[list[str]]) -> tuple[list[float], list[float],
                                                                     dict[str, int]]:
    request_ms, solver_ms, verdicts = [], [], {}
    for grid in grids:
        started = time.perf_counter()
        answer = session.post("/api/check", json={"grid": grid, "channel": "bench"})
        request_ms.append((time.perf_counter() - started) * 1000)
        record = answer.json()
        solver_ms.append(record["time_s"] * 1000)
        verdicts[record["verdict"]] = verdicts.get(record["verdict"], 0) + 1
    return request_ms, solver_ms, verdicts


def p95(values: list[float]) -> float:
    return sorted(values)[round(0.95 * (len(values) - 1))]


def report(name: str, request_ms: list[float], solver_ms: list[float],
           verdicts: dict[str, int]) -> None:
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items()))
    print(f"{name:28} {len(request_ms):4}  request median {statistics.median(request_ms):6.1f} ms"
          f"  p95 {p95(request_ms):6.1f} ms   solver median {statistics.median(solver_ms):6.1f}"
          f" ms  p95 {p95(solver_ms):6.1f} ms   ({kinds})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=8, help="single-cell edits per drawing")
    parser.add_argument("--random", type=int, default=10, help="random 30x30 pictures")
    args = parser.parse_args()
    ensure_compiled()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    config = StudioConfig(folder=Path.cwd(), port=sock.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(create_app(config), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        with httpx.Client(base_url=config.origin, headers={"X-Studio-Token": config.token},
                          timeout=60) as session:
            measure(session, [rows(np.zeros((SIZE, SIZE), bool))] * 5)  # warm the path
            grids = edited(drawings(), args.edits, seed=1)
            report("drawings + single edits", *measure(session, grids))
            rng = np.random.default_rng(7)
            randoms = [rows(rng.random((SIZE, SIZE)) < 0.6) for _ in range(args.random)]
            report("random, density 0.6", *measure(session, randoms))
    finally:
        server.should_exit = True
        thread.join(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
