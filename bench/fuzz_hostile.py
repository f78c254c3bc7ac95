"""Fuzz the readers and commands with mutated seed inputs, each run under the README's bound.

    nice python bench/fuzz_hostile.py --count 10000 [--seed 34] [--start 0] [--jobs 1]
    python bench/fuzz_hostile.py --replay 1234 [--seed 34]      # one input again, kept

Seeds (made here, from the project's own writers): PDFs for ``preflight``, pictures for
``make``, ipuz / puz / text grids for ``fill``, YAML / JSON / webpbn XML / .non / Olsak
.g puzzles (black-and-white and colour) for the puzzle readers (``check``) and for
``render`` (PNG, SVG, PDF), a catalogue export for ``library import``, and one request a
route of the studio's API (``api``: every route, its JSON body or query mutated as JSON
values, as bytes and as repeated parameters, answered by the app in the child through
Starlette's TestClient; a 5xx answer counts as a traceback). Input ``i`` is
the seed ``i mod seeds`` mutated by a generator seeded with ``(--seed, i)``: byte flips,
insertions, deletions, duplicated chunks, truncation, and splices of hostile tokens (long
numbers, deep brackets, control and bidi characters, NaN, huge exponents). So a run is
reproducible and resumable (``--start``), and any input can be made again (``--replay``).

Each input runs in a child forked from this process (the modules and the solvers' kernels
are loaded once, here) with 1 GB of address space and 10 s of CPU, as the README promises;
a wall-clock limit catches a hang that spends no CPU. Counted per command: clean outcomes
(exit status 0, 1 or 2 of the table, an error as one line), tracebacks, hangs, runs over
the bound (killed by the CPU limit, MemoryError), crashes (a signal), errors of more than
one line, and other exit statuses. Every finding is written to ``--keep`` (input and
stderr) and listed at the end; the exit status is 1 when there was any.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import resource
import signal
import statistics
import struct
import sys
import tempfile
import time
import traceback
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MEMORY_BOUND = 1 << 30
CPU_BOUND_S = 10
#: a child that spends no CPU (blocked) is a hang after this long
WALL_LIMIT_S = 60.0
TRACEBACK_STATUS = 70
KINDS = ("ok", "traceback", "hang", "over_bound", "crash", "not_one_line", "other_status")

#: hostile tokens spliced into seeds
TOKENS = (
    b"9" * 400, b"9" * 5000, b"-1", b"0", b"4294967296", b"1e308", b"1e99999", b"NaN",
    b"Infinity", b"-0", b"[" * 2000, b"{" * 2000, b"<a>" * 2000, b"- " * 2000,
    b"\x1b]0;pwned\x07", b"\x1b[2J", b"\xe2\x80\xae", b"\x00", b"\xff\xfe", b"&a",
    b"*a", b"!!python/object:os.system", b"<<" * 500,
    b"/FirstChar " + b"9" * 400, b"/MediaBox [0 0 " + b"9" * 400 + b" 1e300]",
    b"/Width 100000000 /Height 100000000", b"999999x999999", b"\r\n", b"\t" * 100,
)


@dataclass(frozen=True)
class Seed:
    name: str  #: the file name the mutated input gets (its suffix picks the reader)
    data: bytes
    argv: Callable[[str], list[str]]  #: the command for a file name


# -- seeds -------------------------------------------------------------------------------
def _puzzle_seeds() -> list[Seed]:
    from grader import formats
    from grader.formats import read_any, write_any

    heart = formats.read(ROOT / "puzzles" / "heart.yaml")[0]
    ladybird = read_any(ROOT / "puzzles" / "colour" / "ladybird.yaml")[0]

    def check(name: str) -> list[str]:
        return ["check", name, "--timeout", "3"]

    seeds = [Seed(f"heart.{suffix}", formats.write(heart, fmt), check)
             for suffix, fmt in (("yaml", "yaml"), ("json", "json"), ("xml", "xml"),
                                 ("non", "non"), ("g", "g"))]
    seeds += [Seed(f"ladybird.{suffix}", write_any([ladybird], fmt), check)
              for suffix, fmt in (("yaml", "yaml"), ("xml", "xml"), ("g", "g"))]
    return seeds


def _grid_seeds() -> list[Seed]:
    from grader.results import Budget
    from words.fill import fill as fill_grid
    from words.formats import read_grid_file, write_grid
    from words.wordlist import default_word_list

    blank = read_grid_file(ROOT / "puzzles" / "fillins" / "diamond-9.txt").grid
    filled = fill_grid(blank, default_word_list(), seed=0, budget=Budget(seconds=30))
    grid = filled.grid if filled.grid is not None else blank

    def fill(name: str) -> list[str]:
        return ["fill", name, "--timeout", "3"]

    return [Seed("grid.ipuz", write_grid(grid, "ipuz", title="Fuzz"), fill),
            Seed("grid.puz", write_grid(grid, "puz", title="Fuzz"), fill),
            Seed("grid.txt", (ROOT / "puzzles" / "fillins" / "diamond-9.txt").read_bytes(),
                 fill)]


def _picture_seeds() -> list[Seed]:
    import io

    from PIL import Image

    image = Image.new("L", (40, 40), 255)
    image.paste(0, (8, 4, 32, 36))
    image.paste(255, (14, 10, 26, 30))
    seeds = []
    for fmt, suffix in (("PNG", "png"), ("GIF", "gif"), ("BMP", "bmp"), ("JPEG", "jpg")):
        buffer = io.BytesIO()
        image.save(buffer, format=fmt)
        seeds.append(Seed(f"picture.{suffix}", buffer.getvalue(), lambda name: [
            "make", name, "--size", "12x12", "--seconds", "3", "-q", "-o", "made.non"]))
    return seeds


def _pdf_seeds(folder: Path) -> list[Seed]:
    from nonopress.cli import main

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "heart.yaml").write_bytes((ROOT / "puzzles" / "heart.yaml").read_bytes())
    seeds = []
    for profile in ("kdp", "pdfx"):
        manifest = folder / f"{profile}.yaml"
        manifest.write_text(f"title: Fuzz\nprofile: {profile}\npuzzles: [heart.yaml]\n")
        pdf = folder / f"{profile}.pdf"
        with contextlib.redirect_stderr(open(os.devnull, "w")):
            main(["issue", str(manifest), "-o", str(pdf), "--no-cache", "-q"])
        seeds.append(Seed(f"issue-{profile}.pdf", pdf.read_bytes(), lambda name, p=profile: [
            "preflight", name, "--profile", p]))
    return seeds


def _render_seeds() -> list[Seed]:
    from grader import formats
    from grader.formats import read_any, write_any

    heart = formats.read(ROOT / "puzzles" / "heart.yaml")[0]
    ladybird = read_any(ROOT / "puzzles" / "colour" / "ladybird.yaml")[0]

    def render(drawing: str) -> Callable[[str], list[str]]:
        return lambda name: ["render", name, f"out.{drawing}", "--seconds", "3"]

    return [Seed("heart.non", formats.write(heart, "non"), render("png")),
            Seed("heart.yaml", formats.write(heart, "yaml"), render("svg")),
            Seed("ladybird.yaml", write_any([ladybird], "yaml"), render("pdf")),
            Seed("ladybird.xml", write_any([ladybird], "xml"), render("png"))]


#: the catalogue every ``library import`` and ``api`` input starts from (made once a run)
STOCK = "stock.sqlite"


def _stock(folder: Path) -> Path:
    """A small catalogue (Heart, House, the ladybird; Heart printed once), graded."""
    import datetime as dt

    from grader.formats import read_any
    from nonopress.catalogue import (
        ImportOptions,
        Printed,
        add_files,
        open_catalogue,
        record_printings,
    )

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / STOCK
    if not path.exists():
        with open_catalogue(str(path)) as catalogue, \
                contextlib.redirect_stderr(open(os.devnull, "w")):
            add_files(catalogue, [str(ROOT / "puzzles" / name) for name in
                                  ("heart.yaml", "house.yaml", "colour/ladybird.yaml")],
                      ImportOptions(jobs=1, timeout_s=30, tags=("fuzz",)))
            heart = read_any(ROOT / "puzzles" / "heart.yaml")[0]
            record_printings(catalogue, "Issue 1", [Printed(heart, 1, 2)],
                             date=dt.date(2026, 3, 1), profile="kdp")
    return path


def _import_seeds(folder: Path) -> list[Seed]:
    from nonopress.catalogue import open_catalogue
    from nonopress.catalogue.transfer import export_lines

    with open_catalogue(str(_stock(folder)), create=False) as catalogue:
        text = "".join(line + "\n" for line in export_lines(catalogue))
    return [Seed("export.jsonl", text.encode("utf-8"), lambda name: [
        "library", "--db", "new.sqlite", "import", name])]


def make_seeds(folder: Path) -> list[Seed]:
    """Round three's seeds, in their order (an input of a round-three run is made again
    from its number: tests/test_hostile_preflight.py)."""
    return [*_pdf_seeds(folder), *_picture_seeds(), *_grid_seeds(), *_puzzle_seeds()]


def all_seeds(folder: Path, surfaces: int = 5) -> list[Seed]:
    """The seeds of a run: round three's, then (``surfaces`` 4) round four's: ``render``,
    ``library import`` and the studio's API, then (5) round five's: the collector's
    protocol edge (``wire``) and output folders with planted links (``links``)."""
    seeds = make_seeds(folder)
    if surfaces >= 4:
        seeds += [*_render_seeds(), *_import_seeds(folder), *api_seeds()]
    if surfaces >= 5:
        seeds += [*wire_seeds(), *link_seeds()]
    return seeds


# -- round five: the collector's protocol edge and planted links --------------------------
def wire_seeds() -> list[Seed]:
    """Raw HTTP/1.1 requests to the collector (a record by Content-Length and chunked, a
    preflight, a GET), sent as bytes to the hardened server (nonopress/serving.py)."""
    from grader.formats import read_any

    key = read_any(ROOT / "puzzles" / "heart.yaml")[0].key()
    record = next(payload for _, path, payload in ROUTES if path == "/api/solves")
    body = json.dumps(dict(record, puzzle_key=key)).encode()
    head = (b"POST /api/solves HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://fuzz.example"
            b"\r\nContent-Type: text/plain\r\n")
    requests = [
        head + b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body,
        head + b"Transfer-Encoding: chunked\r\n\r\n" + f"{len(body):x}".encode()
        + b"\r\n" + body + b"\r\n0\r\n\r\n",
        b"OPTIONS /api/solves HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://fuzz.example"
        b"\r\nAccess-Control-Request-Method: POST\r\n\r\n",
        b"GET /api/solves HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    ]
    return [Seed("request.wire", data, lambda name: ["wire", name]) for data in requests]


#: the files a site (web) and a set (render --to) write, where a link may be planted
LINK_TARGETS = {"web": ("index.html", "archive.html", "latest.json", "player.js",
                        "player.css", "puzzle-01.json", "puzzle-01.html"),
                "render": ("heart.svg", "heart-solution.svg", "feed.json")}


def link_seeds() -> list[Seed]:
    return [Seed("links.plant", json.dumps({"command": command}).encode(),
                 lambda name: ["links", name]) for command in LINK_TARGETS]


def plant_links(data: bytes, rng: random.Random) -> bytes:
    """Which outputs of the seed's command get a link, and whether each dangles."""
    command = json.loads(data)["command"]
    names = rng.sample(LINK_TARGETS[command], rng.randint(1, 3))
    return json.dumps({"command": command, "links": [[n, rng.random() < 0.4]
                                                     for n in names]}).encode()


def run_links(plan_file: str) -> int:
    """The child's part for a ``links`` input: plant the links, run the command into the
    folder, and exit 71 when a file outside it changed or appeared (a finding)."""
    import hashlib
    import shutil

    from nonopress.cli import main as cli

    plan = json.loads(Path(plan_file).read_bytes())
    outside, out = Path("outside"), Path("out")
    outside.mkdir()
    out.mkdir()
    shutil.copy(ROOT / "puzzles" / "heart.yaml", "heart.yaml")
    for number, (name, dangling) in enumerate(plan["links"]):
        target = outside / f"victim-{number}"
        if not dangling:
            target.write_text("theirs\n")
        os.symlink(os.path.abspath(target), out / name)

    def seen() -> dict[str, str]:
        return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted(outside.iterdir())}

    before = seen()
    argv = (["web", "heart.yaml", "-o", "out", "--no-cache", "-q"] if plan["command"] == "web"
            else ["render", "heart.yaml", "--to", "out", "--formats", "svg"])
    status = cli(argv)
    if seen() != before:
        print(f"{plan['command']} wrote through a planted link: {seen()} != {before}",
              file=sys.stderr)
        return 71
    return status


def run_wire(request_file: str, template: Path) -> int:
    """The child's part for a ``wire`` input: the bytes sent to the collector, served by the
    hardened server on loopback (its deadlines shortened to a second); a 5xx answer, or a
    4xx that is not one JSON line, is a finding."""
    import shutil
    import socket
    import threading

    import uvicorn

    from nonopress import serving
    from nonopress.solves.collector import CollectorSettings, create_app

    shutil.copy(template / "catalogue.sqlite", "catalogue.sqlite")
    serving.GuardedH11Protocol.header_timeout_s = 1.0
    serving.GuardedH11Protocol.body_grace_s = 1.0
    app = create_app(CollectorSettings(frozenset({"https://fuzz.example"})),
                     "catalogue.sqlite")
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.bind(("127.0.0.1", 0))
    server = uvicorn.Server(serving.server_config(app, log_level="critical",
                                                  lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]},
                              daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    answer = b""
    with socket.create_connection(listener.getsockname(), timeout=8) as connection:
        with contextlib.suppress(OSError):  # the server may answer and close before all
            connection.sendall(Path(request_file).read_bytes())  # is sent: its answer counts
            connection.shutdown(socket.SHUT_WR)  # nothing more: it answers and closes
        with contextlib.suppress(OSError):
            while chunk := connection.recv(65536):
                answer += chunk
    server.should_exit = True
    thread.join(10)
    found = re.match(rb"HTTP/1\.1 (\d{3})", answer)
    status = int(found[1]) if found else 0
    print(f"HTTP {status} wire")
    if status >= 500:
        print(f"HTTP {status}: {answer[:500]!r}", file=sys.stderr)
        return TRACEBACK_STATUS
    if status >= 400:
        body = answer.split(b"\r\n\r\n", 1)[-1]
        try:
            json.loads(body)["error"]
            one_line = b"\n" not in body.strip()
        except (ValueError, KeyError, TypeError):
            one_line = False
        if not one_line:
            print(f"HTTP {status} without one JSON line: {answer[:300]!r}", file=sys.stderr)
            return 3
    return 0


# -- the studio's API ----------------------------------------------------------------------
HEART_GRID = [".##.##.", "#######", ".#####.", "..###..", "...#..."]
#: (method, path, the body (POST) or query (GET) a page would send): every route
ROUTES: tuple[tuple[str, str, dict[str, object]], ...] = (
    ("POST", "/api/check", {"grid": HEART_GRID, "seconds": 1, "channel": "live"}),
    ("POST", "/api/grade", {"grid": HEART_GRID, "seconds": 2, "title": "Heart"}),
    ("POST", "/api/replay", {"rows": [[2, 2], [7], [5], [3], [1]],
                             "columns": [[1], [3], [4], [4], [4], [3], [1]], "seconds": 2}),
    ("POST", "/api/repair", {"grid": ["##..", "##..", "..##", "..##"], "mode": "flips",
                             "level": "easy", "seconds": 2}),
    ("POST", "/api/make", {"picture": "PICTURE", "width": 12, "height": 12, "fit": "pad",
                           "threshold": 128, "seconds": 2, "title": "Made"}),
    ("GET", "/api/puzzles", {"level": "easy", "size": "5x5..10x10", "tag": "fuzz",
                             "stars": "1..3", "unused_for": "2", "title": "He",
                             "kind": "bw", "unused_since": "2026-01-01",
                             "never_printed": "1"}),
    ("GET", "/api/puzzle", {"path": "heart.yaml", "index": "1"}),
    ("GET", "/api/puzzle", {"path": "catalogue:1"}),
    ("POST", "/api/open", {"name": "heart.yaml", "content": "HEART", "index": 1}),
    ("POST", "/api/save", {"grid": HEART_GRID, "path": "saved.yaml", "overwrite": False,
                           "givens": [[0, 1, True]]}),
    ("POST", "/api/issue", {"name": "fuzz", "title": "Fuzz", "puzzles": ["heart.yaml",
                                                                          "catalogue:2"],
                            "profile": "none", "page": "Letter", "order": "level"}),
    ("GET", "/api/issue/1/page/1", {}),
    ("GET", "/api/file", {"path": "heart.yaml"}),
    ("POST", "/api/solves", {"v": 1, "record_id": "2f1c7a52-8a4e-4b57-9d7e-0c6f3b2d9e11",
                             "solver_id": "7b3e5c1a-2d4f-4e8a-9b6c-1a2b3c4d5e6f",
                             "puzzle_key": "HEARTKEY", "grader_version": "fuzz",
                             "seconds_active": 95.5, "completed": True, "checks": 1,
                             "reveals": 0, "errors_found": 0,
                             "hints": {"1": 0, "2": 0, "3": 0, "4": 0}, "hint_rungs": [],
                             "device": "desktop", "started_at": "2026-11-28T02:30Z",
                             "player": "nonopress-player/1"}),
    ("GET", "/api/health", {}),
    ("GET", "/api/profiles", {}),
    ("POST", "/api/play", {"grid": HEART_GRID, "title": "Heart", "seconds": 2}),
    ("GET", "/player/player.js", {}),
    ("GET", "/", {}),
    ("GET", "/static/api.js", {}),
)
#: hostile JSON values put in place of a field's value
HOSTILE_VALUES: tuple[object, ...] = (
    None, True, -1, 0, 2**64, 10**30, -(10**30), 1e308, 0.5, "", "x" * 5000, "\u00b2",
    "9" * 400, "NaN", "1e309", "../../etc/passwd", "/etc/passwd", "a/../../b.yaml",
    ".hidden.yaml", "\x00", "\x1b]0;pwned\x07", "\u202e", "catalogue:99999999999999999999",
    "catalogue:-1", "heart.yaml#0", [], {}, [[]], [None], ["#" * 200] * 200, {"a": [1]},
    "a" * 300 + ".yaml", "x/" * 100 + "y.yaml", "9x9..1x1", "1..", "..", "99999x99999",
)


def api_seeds() -> list[Seed]:
    """One seed a route: its file is the JSON of (method, path, body or query)."""
    import base64
    import io

    from PIL import Image

    image = Image.new("L", (40, 40), 255)
    image.paste(0, (8, 4, 32, 36))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    picture = base64.b64encode(buffer.getvalue()).decode()
    heart = base64.b64encode((ROOT / "puzzles" / "heart.yaml").read_bytes()).decode()
    from grader.formats import read_any

    key = read_any(ROOT / "puzzles" / "heart.yaml")[0].key()
    seeds = []
    for method, path, payload in ROUTES:
        text = json.dumps({"method": method, "path": path, "payload": payload})
        text = text.replace('"PICTURE"', json.dumps(picture)).replace(
            '"HEART"', json.dumps(heart)).replace('"HEARTKEY"', json.dumps(key))
        seeds.append(Seed("request.api", text.encode(), lambda name: ["api", name]))
    return seeds


def _hostile_json(value: object, rng: random.Random, depth: int = 0) -> object:
    """``value`` with one of its fields (at any depth) replaced, dropped or repeated."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(sorted(value))
        out = dict(value)
        edit = rng.randrange(4)
        if edit == 0:
            del out[key]
        elif edit == 1:
            out[key] = rng.choice(HOSTILE_VALUES)
        elif edit == 2:
            out["unknown" + str(rng.randrange(3))] = rng.choice(HOSTILE_VALUES)
        else:
            out[key] = _hostile_json(out[key], rng, depth + 1)
        return out
    if isinstance(value, list) and value and rng.random() < 0.7:
        out_list = list(value)
        spot = rng.randrange(len(out_list))
        edit = rng.randrange(3)
        if edit == 0:
            out_list[spot] = _hostile_json(out_list[spot], rng, depth + 1)
        elif edit == 1:
            out_list = out_list * rng.choice((2, 50))
        else:
            del out_list[spot]
        return out_list
    if isinstance(value, str) and value and rng.random() < 0.5:
        out_text = bytearray(value.encode("utf-8", "surrogatepass"))
        _token_for_number(out_text, rng)
        return out_text.decode("utf-8", "replace")
    return rng.choice(HOSTILE_VALUES)


def mutate_request(data: bytes, rng: random.Random) -> bytes:
    request = json.loads(data)
    for _ in range(rng.randint(1, 3)):
        request["payload"] = _hostile_json(request["payload"], rng)
    if rng.random() < 0.1:
        request["path"] = rng.choice(("/api/issue/99999999999999999999/page/1",
                                      "/api/issue/1/page/-1", "/api/../etc/passwd",
                                      "/static/../api.py", "/api/nothing"))
    if rng.random() < 0.05:
        request["method"] = rng.choice(("GET", "POST", "PUT", "DELETE", "HEAD"))
    if request["method"] == "GET" and rng.random() < 0.15:  # a parameter many times over
        request["repeat"] = [rng.choice(("tag", "level", "path", "size", "x")),
                             rng.choice((2, 50, 3000))]
    request["raw"] = rng.random() < 0.15  # the body's bytes mutated, not its values
    if request["raw"]:
        body = bytearray(json.dumps(request["payload"]).encode())
        _byte_edit(body, rng)
        request["body"] = body.decode("latin-1")
    return json.dumps(request).encode()


def mutate_export(data: bytes, rng: random.Random) -> bytes:
    """An export whose lines stay JSON: a field of a puzzle or printing line (or the
    header's) given a hostile value, dropped or added; lines repeated or dropped."""
    lines = data.decode("utf-8").splitlines()
    for _ in range(rng.randint(1, 3)):
        number = rng.randrange(len(lines))
        item = json.loads(lines[number])
        if rng.random() < 0.1:
            lines[number:number + 1] = [lines[number]] * rng.choice((2, 100))
            continue
        for key in ("puzzle", "printing"):
            if isinstance(item, dict) and isinstance(item.get(key), dict):
                item[key] = _hostile_json(item[key], rng)
                break
        else:
            item = _hostile_json(item, rng)
        lines[number] = json.dumps(item)
    return ("\n".join(lines) + "\n").encode()


def api_template(folder: Path) -> Path:
    """The folder every API input's studio serves (copied for each): puzzles and a copy
    of the catalogue."""
    import shutil

    template = folder / "studio"
    if not template.exists():
        template.mkdir(parents=True)
        for name in ("heart.yaml", "house.yaml", "loaded-die.yaml"):
            shutil.copy(ROOT / "puzzles" / name, template / name)
        (template / "colour").mkdir()
        shutil.copy(ROOT / "puzzles" / "colour" / "ladybird.yaml", template / "colour")
        shutil.copy(_stock(folder), template / "catalogue.sqlite")
    return template


def run_api(request_file: str, template: Path) -> int:
    """The child's part for an ``api`` input: one request to the app (its own folder and
    catalogue), through Starlette's TestClient; 5xx is a finding (exit 70)."""
    import shutil

    from starlette.testclient import TestClient

    from nonopress.studio.app import create_app
    from nonopress.studio.config import StudioConfig

    request = json.loads(Path(request_file).read_bytes())
    folder = Path("studio")
    shutil.copytree(template, folder)
    config = StudioConfig(folder=folder, catalogue=str(folder / "catalogue.sqlite"),
                          workers=1, check_seconds=2, grade_seconds=3, make_seconds=3,
                          issue_seconds=6)
    app = create_app(config)
    method, path, payload = request["method"], request["path"], request["payload"]
    headers = {"X-Studio-Token": config.token, "Host": f"127.0.0.1:{config.port}"}
    with TestClient(app, base_url=config.origin, raise_server_exceptions=False) as client:
        if method in ("GET", "HEAD", "DELETE"):
            items = payload.items() if isinstance(payload, dict) else [("q", payload)]
            # at most 4,000 characters a value and 60,000 in all: httpx sends no longer
            # query (a real server's h11 refuses a head over 64 KB: tests/test_hostile_studio)
            params = [(str(k)[:200], (v if isinstance(v, str) else json.dumps(v))[:4000])
                      for k, v in items]
            name, times = request.get("repeat") or ("tag", 0)
            params += [(name, f"{name}{n}") for n in range(times)]
            while params and sum(len(k) + 3 * len(v) + 2 for k, v in params) > 60_000:
                params.pop()
            answer = client.request(method, path, params=params, headers=headers)
        else:
            body = request["body"].encode("latin-1") if request.get("raw") else \
                json.dumps(payload).encode()
            answer = client.request(method, path, content=body,
                                    headers={**headers, "Content-Type": "application/json"})
    print(f"HTTP {answer.status_code} {method} {path}")
    if answer.status_code >= 500:
        print(f"HTTP {answer.status_code}: {answer.text[:500]}", file=sys.stderr)
        return TRACEBACK_STATUS
    if answer.status_code >= 400 and method != "HEAD":  # HEAD: headers only, no body
        try:
            json.loads(answer.text)["error"]
        except (ValueError, KeyError, TypeError):
            if path.startswith("/api/"):
                print(f"HTTP {answer.status_code} without a JSON error: {answer.text[:200]}",
                      file=sys.stderr)
                return 3
    return 0


# -- mutation ----------------------------------------------------------------------------
TEXT_SUFFIXES = (".yaml", ".json", ".xml", ".non", ".g", ".txt", ".ipuz", ".jsonl")
PICTURE_SUFFIXES = (".png", ".gif", ".bmp", ".jpg")
_NUMBER = re.compile(rb"[0-9]+(?:\.[0-9]+)?")


def _token_for_number(out: bytearray, rng: random.Random) -> None:
    numbers = list(_NUMBER.finditer(out))
    token = rng.choice(TOKENS)
    if numbers:
        match = rng.choice(numbers)
        out[match.start():match.end()] = rng.choice((token, b"9" * rng.choice((7, 41, 400)),
                                                     b"-" + match.group(), b"0",
                                                     str(rng.randrange(1 << 31)).encode()))
    else:
        where = rng.randrange(len(out) + 1)
        out[where:where] = token


def _lines_edit(out: bytearray, rng: random.Random) -> None:
    lines = bytes(out).split(b"\n")
    if len(lines) < 2:
        return
    a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
    edit = rng.randrange(3)
    if edit == 0:  # a line many times over
        lines[a:a + 1] = [lines[a]] * rng.choice((2, 50, 5000))
    elif edit == 1:
        del lines[a]
    else:
        lines[a], lines[b] = lines[b], lines[a]
    out[:] = b"\n".join(lines)


def _byte_edit(out: bytearray, rng: random.Random) -> None:
    where = rng.randrange(len(out) + 1)
    edit = rng.randrange(5)
    if edit == 0 and out:  # flip bits
        for _ in range(rng.randint(1, 8)):
            spot = rng.randrange(len(out))
            out[spot] ^= 1 << rng.randrange(8)
    elif edit == 1:  # random bytes
        out[where:where] = rng.randbytes(rng.randint(1, 32))
    elif edit == 2:  # delete a chunk
        del out[where:where + rng.randint(1, 64)]
    elif edit == 3 and out:  # a chunk duplicated, maybe many times
        start = rng.randrange(len(out))
        chunk = out[start:start + rng.randint(1, 256)]
        out[where:where] = chunk * rng.choice((1, 2, 10, 1000))
    else:  # truncated
        del out[where:]


def _png_header(out: bytearray, rng: random.Random) -> None:
    """A PNG whose IHDR claims another size (its checksum made right): decoders trust it."""
    if out[:8] != b"\x89PNG\r\n\x1a\n" or len(out) < 33:
        return
    width = rng.choice((1, 7, 6300, 100_000, 39_000_000, (1 << 31) - 1))
    height = rng.choice((1, 7, 6300, 100_000, 39_000_000, (1 << 31) - 1))
    out[16:24] = struct.pack(">II", width, height)
    out[29:33] = struct.pack(">I", zlib.crc32(bytes(out[12:29])) & 0xFFFFFFFF)


#: picture sizes a decoder may be asked for: honest, tiny, and big but cheap to store
PICTURE_SIDES = (1, 2, 40, 640, 6300, 20_000, 1_000_000, 39_000_000)


def _new_picture(out: bytearray, rng: random.Random) -> None:
    """A well-formed picture of an extreme size or mode in place of the seed: byte edits
    rarely make one a decoder accepts. At most 40 M pixels, mostly one colour, so its
    file stays small (a 6300x6300 1-bit PNG is 15 KB) while its pixels are many."""
    import io

    from PIL import Image

    width, height = rng.choice(PICTURE_SIDES), rng.choice(PICTURE_SIDES)
    while width * height > 40_000_000:
        height = max(height // 10, 1)
    mode = rng.choice(("1", "L", "P", "RGB", "RGBA", "I;16", "LA"))
    image = Image.new(mode, (width, height), 0)
    if width > 4 and height > 4:
        image.paste(255 if mode in ("1", "L", "P", "I;16") else (255,) * len(mode),
                    (width // 4, height // 4, width // 2, height // 2))
    fmt = rng.choice(("PNG", "GIF", "TIFF", "BMP")) if mode in ("1", "L", "P") else "PNG"
    buffer = io.BytesIO()
    try:
        image.save(buffer, format=fmt, optimize=False)
    except (OSError, ValueError, OverflowError, struct.error):  # a size or mode the
        buffer = io.BytesIO()  # format cannot hold (GIF and BMP sides are 16 bits)
        image.convert("L").save(buffer, format="PNG")
    out[:] = buffer.getvalue()


def _deflated(unit: bytes, times: int) -> bytes:
    """``unit * times`` Flate-compressed, without holding it whole."""
    packer = zlib.compressobj(9)
    block = unit * max(1, (1 << 20) // len(unit))
    parts, left = [], times * len(unit)
    while left > 0:
        piece = block[:left]
        parts.append(packer.compress(piece))
        left -= len(piece)
    parts.append(packer.flush())
    return b"".join(parts)


def _new_pdf(out: bytearray, rng: random.Random) -> None:
    """A well-formed PDF shaped to cost: one long content stream (up to 20 M operators,
    Flate-compressed), thousands of pages sharing a stream, forms calling forms (fan-out
    and depth), or odd page boxes. Byte edits of a seed rarely keep a PDF readable."""
    import io

    import pikepdf

    pdf = pikepdf.new()
    kind = rng.randrange(4)
    box = [0, 0, 612, 792]
    if kind == 3:
        box = [rng.choice((0, -1e30, 1e30, 0.0001)), 0, rng.choice((612, 1e38, 0, -612)),
               rng.choice((792, 1e38, 1))]
    if kind == 0:
        count = rng.choice((1_000, 1_000_000, 20_000_000))
        stream = pikepdf.Stream(pdf, _deflated(b"0 0 m 1 1 l S\n", count))
        stream.Filter = pikepdf.Name.FlateDecode
        pages, content = 1, stream
    else:
        pages = rng.choice((1, 100, 5_000)) if kind == 1 else 1
        content = pdf.make_stream(b"0 0 m 1 1 l S\n")
    resources = pikepdf.Dictionary()
    if kind == 2:
        fanout, depth = rng.choice(((50, 4), (2_000, 2), (3, 12)))
        inner: pikepdf.Object | None = None
        for _ in range(depth):
            body = b"" if inner is None else b"/F Do\n" * fanout
            form = pdf.make_stream(body)
            form.Type, form.Subtype = pikepdf.Name.XObject, pikepdf.Name.Form
            form.BBox = [0, 0, 10, 10]
            if inner is not None:
                form.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(F=inner))
            inner = form
        content = pdf.make_stream(b"/F Do\n" * fanout)
        resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(F=inner))
    for _ in range(pages):
        page = pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=box, Contents=content,
                                  Resources=resources)
        pdf.pages.append(pikepdf.Page(page))
    buffer = io.BytesIO()
    pdf.save(buffer)
    out[:] = buffer.getvalue()


def mutate(data: bytes, rng: random.Random, text: bool, picture: bool = False) -> bytes:
    """``data`` changed by one to three random edits; text seeds mostly keep their
    encoding and shape (numbers, lines), so the edits reach past the parser's first check;
    a picture seed is often replaced by a well-formed picture of an extreme size."""
    out = bytearray(data)
    edits = ((_token_for_number, 5), (_lines_edit, 3), (_byte_edit, 2)) if text else \
        ((_byte_edit, 5), (_token_for_number, 3), (_png_header, 2))
    if data[:5] == b"%PDF-" and rng.random() < 0.3:  # a PDF shaped to cost, as it is
        _new_pdf(out, rng)
        return bytes(out)
    if picture and rng.random() < 0.3:  # a new picture, maybe then edited
        _new_picture(out, rng)
        edits = ((_png_header, 1),) if rng.random() < 0.3 else ()
        if not edits:
            return bytes(out)
    functions, weights = zip(*edits, strict=True)
    for edit in rng.choices(functions, weights, k=rng.randint(1, 3)):
        edit(out, rng)
    return bytes(out)


def input_of(index: int, seed: int, seeds: list[Seed]) -> tuple[Seed, bytes]:
    rng = random.Random(f"{seed}:{index}")
    base = seeds[index % len(seeds)]
    if base.name.endswith(".api"):
        return base, mutate_request(base.data, rng)
    if base.name.endswith(".plant"):
        return base, plant_links(base.data, rng)
    if base.name.endswith(".wire"):
        return base, mutate(base.data, rng, True)
    if base.name.endswith(".jsonl") and rng.random() < 0.7:
        return base, mutate_export(base.data, rng)
    if base.argv(base.name)[0] == "render" and rng.random() < 0.4:  # the puzzle still
        out = bytearray(base.data)  # reads: only its numbers change (sizes, clues)
        _token_for_number(out, rng)
        return base, bytes(out)
    return base, mutate(base.data, rng, base.name.endswith(TEXT_SUFFIXES),
                        base.name.endswith(PICTURE_SUFFIXES))


# -- running -----------------------------------------------------------------------------
@dataclass
class Running:
    index: int
    seed: Seed
    folder: Path
    pid: int
    started: float
    cpu: float = 0.0


def start_child(index: int, base: Seed, data: bytes, workroot: Path,
                template: Path | None = None) -> Running:
    folder = workroot / f"input-{index}"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / base.name).write_bytes(data)
    argv = base.argv(base.name)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: bounded, its output in files, never returns
        status = TRACEBACK_STATUS
        try:
            os.chdir(folder)
            resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BOUND, MEMORY_BOUND))
            resource.setrlimit(resource.RLIMIT_CPU, (CPU_BOUND_S, CPU_BOUND_S + 1))
            for fd, name in ((1, "stdout"), (2, "stderr")):
                target = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                os.dup2(target, fd)
                os.close(target)
            from grader import inputs
            from nonopress.cli import main

            inputs.WAIT_SECONDS = 0.3
            if argv[0] == "api":
                assert template is not None
                status = run_api(argv[1], template)
            elif argv[0] == "wire":
                assert template is not None
                status = run_wire(argv[1], template)
            elif argv[0] == "links":
                status = run_links(argv[1])
            else:
                status = main(argv)
        except BaseException:
            traceback.print_exc()
            status = TRACEBACK_STATUS
        finally:
            with contextlib.suppress(BaseException):
                sys.stdout.flush()
                sys.stderr.flush()
            os._exit(status if 0 <= status < 256 else TRACEBACK_STATUS)
    return Running(index, base, folder, pid, time.monotonic())


def classify(status: int, err: str) -> str:
    if os.WIFSIGNALED(status):
        if os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL) or "bad_alloc" in err:
            return "over_bound"  # the CPU limit, or C++ code (qpdf) out of memory
        return "crash"
    code = os.WEXITSTATUS(status)
    if "MemoryError" in err:
        return "over_bound"
    if "Traceback" in err or code == TRACEBACK_STATUS:
        return "traceback"
    if code not in (0, 1, 2):
        return "other_status"
    errors = [line for line in err.splitlines() if line.strip()
              and "warning" not in line]
    if code == 2 and len(errors) != 1:
        return "not_one_line"
    return "ok"


@dataclass
class Finding:
    index: int
    command: str
    kind: str
    detail: str


def live(args: argparse.Namespace) -> int:
    """The API's inputs over real HTTP to one ``nonopress studio`` (uvicorn, its header
    timeout and connection cap) run under 1 GB of memory and a 1,024 open-files limit:
    5xx answers, requests that got no answer, and whether the server is still up and
    answering at the end."""
    import shutil
    import subprocess

    import httpx

    workroot = Path(tempfile.mkdtemp(prefix="nonopress-fuzz-live-"))
    seeds = [seed for seed in all_seeds(workroot / "seeds") if seed.name.endswith(".api")]
    folder = workroot / "studio"
    shutil.copytree(api_template(workroot / "seeds"), folder)

    def bounded() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BOUND, MEMORY_BOUND))
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))

    probe = __import__("socket").socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    err = open(workroot / "studio.err", "wb")  # noqa: SIM115
    server = subprocess.Popen(
        [sys.executable, "-m", "nonopress", "studio", str(folder), "--no-browser", "--port",
         str(port), "--db", str(folder / "catalogue.sqlite")], stdout=subprocess.PIPE,
        stderr=err, preexec_fn=bounded)
    assert server.stdout is not None
    server.stdout.readline()
    token = server.stdout.readline().decode().split()[-1]
    base = f"http://127.0.0.1:{port}"
    counts: Counter[str] = Counter()
    statuses: Counter[int] = Counter()
    started = time.monotonic()
    with httpx.Client(base_url=base, timeout=WALL_LIMIT_S,
                      headers={"X-Studio-Token": token}) as client:
        for _ in range(600):  # up once the event loop runs
            with contextlib.suppress(httpx.TransportError):
                client.get("/api/health")
                break
            time.sleep(0.1)
        for index in range(args.start, args.start + args.count):
            rng = random.Random(f"{args.seed}:live:{index}")
            request = json.loads(mutate_request(rng.choice(seeds).data, rng))
            method, path, payload = request["method"], request["path"], request["payload"]
            try:
                if method in ("GET", "HEAD", "DELETE"):
                    items = payload.items() if isinstance(payload, dict) else [("q", payload)]
                    params = [(str(k)[:200], (v if isinstance(v, str) else json.dumps(v))
                               [:4000]) for k, v in items][:200]
                    answer = client.request(method, path, params=params)
                else:
                    body = request["body"].encode("latin-1") if request.get("raw") else \
                        json.dumps(payload).encode()
                    answer = client.request(method, path, content=body,
                                            headers={"Content-Type": "application/json"})
            except httpx.HTTPError as exc:
                counts["no_answer"] += 1
                print(f"  #{index} {method} {path}: no answer ({type(exc).__name__})")
                continue
            statuses[answer.status_code] += 1
            if answer.status_code >= 500:
                counts["server_error"] += 1
                print(f"  #{index} {method} {path}: {answer.status_code} "
                      f"{answer.text[:120]}")
            else:
                counts["ok"] += 1
        alive = server.poll() is None and client.get("/api/health").status_code == 200
    server.terminate()
    server.wait(30)
    err.close()
    logged = (workroot / "studio.err").stat().st_size
    print(f"fuzz_hostile --live: {args.count} requests (seed {args.seed}) to one studio "
          f"under 1 GB and 1,024 files in {time.monotonic() - started:.0f} s: "
          f"{counts['ok']} answered below 500, {counts['server_error']} 5xx, "
          f"{counts['no_answer']} without an answer; server "
          f"{'up and answering' if alive else 'DOWN'} at the end; {logged} bytes on its "
          "stderr")
    print("HTTP statuses: " + " ".join(f"{code}:{n}" for code, n in sorted(statuses.items())))
    _remove(workroot)
    return 0 if alive and not counts["server_error"] and not counts["no_answer"] else 1


def run(args: argparse.Namespace) -> int:
    from grader.colour.solver import warm_up
    from grader.solver import ensure_compiled
    from nonopress.cli import build_parser
    from words.wordlist import default_word_list

    ensure_compiled()  # loaded once here, inherited by every child
    warm_up()
    default_word_list()
    build_parser()  # every command module imported here too, not by each child
    import starlette.testclient  # noqa: F401  (the API's children fork with it loaded)

    import nonopress.studio.app  # noqa: F401

    workroot = Path(tempfile.mkdtemp(prefix="nonopress-fuzz-"))
    seeds = all_seeds(workroot / "seeds", args.surfaces)
    if args.only:
        seeds = [seed for seed in seeds if seed.argv(seed.name)[0] in args.only]
    template = api_template(workroot / "seeds")
    keep = Path(args.keep)
    keep.mkdir(parents=True, exist_ok=True)
    counts: dict[str, Counter[str]] = {}
    findings: list[Finding] = []
    cpu_times: list[float] = []
    exits: dict[str, Counter[int]] = {}  # command -> exit status -> inputs
    running: dict[int, Running] = {}
    pending = iter(range(args.start, args.start + args.count))
    done = 0
    started = time.monotonic()
    log = open(keep / "findings.jsonl", "a", encoding="utf-8")  # noqa: SIM115
    while True:
        while len(running) < args.jobs:
            index = next(pending, None)
            if index is None:
                break
            base, data = input_of(index, args.seed, seeds)
            child = start_child(index, base, data, workroot, template)
            running[child.pid] = child
        if not running:
            break
        pid, status, usage = os.wait4(-1, os.WNOHANG)
        if pid == 0:
            now = time.monotonic()
            for child in list(running.values()):
                if now - child.started > WALL_LIMIT_S:
                    os.kill(child.pid, signal.SIGKILL)
                    os.waitpid(child.pid, 0)
                    del running[child.pid]
                    done += 1
                    _record(child, "hang", "", counts, findings, keep, log)
            time.sleep(0.005)
            continue
        child = running.pop(pid)
        done += 1
        cpu_times.append(usage.ru_utime + usage.ru_stime)
        err = (child.folder / "stderr").read_text("utf-8", "replace")
        kind = classify(status, err)
        if os.WIFEXITED(status):
            command = child.seed.argv("")[0]
            code = os.WEXITSTATUS(status)
            if command in ("api", "wire"):  # the HTTP status answered, not the exit status
                found = re.match(rb"HTTP (\d+)", _read(child.folder / "stdout"))
                code = int(found[1]) if found else code
            exits.setdefault(command, Counter())[code] += 1
        _record(child, kind, err, counts, findings, keep, log)
        if kind == "ok":
            _remove(child.folder)
        if args.progress and done % args.progress == 0:
            print(f"{done}/{args.count} inputs, {len(findings)} findings, "
                  f"{time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    log.close()
    _remove(workroot)
    _summary(counts, findings, cpu_times, time.monotonic() - started, args)
    print("exit statuses (api: HTTP statuses): " + "; ".join(
        f"{command} " + " ".join(f"{code}:{n}" for code, n in sorted(counter.items()))
        for command, counter in sorted(exits.items())))
    return 1 if findings else 0


def _record(child: Running, kind: str, err: str, counts: dict[str, Counter[str]],
            findings: list[Finding], keep: Path, log: object) -> None:
    command = child.seed.argv(child.seed.name)[0]
    counts.setdefault(command, Counter())[kind] += 1
    if kind == "ok":
        return
    lines = [line for line in err.strip().splitlines() if line.strip()]
    detail = lines[-1][:200] if lines else ""
    finding = Finding(child.index, command, kind, detail)
    findings.append(finding)
    target = keep / f"{child.index}-{kind}-{child.seed.name}"
    with contextlib.suppress(OSError):
        target.write_bytes((child.folder / child.seed.name).read_bytes())
        target.with_name(target.name + ".stderr").write_text(err, encoding="utf-8")
    print(json.dumps(finding.__dict__), file=log, flush=True)  # type: ignore[call-overload]


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()[:200]
    except OSError:
        return b""


def _remove(folder: Path) -> None:
    import shutil

    shutil.rmtree(folder, ignore_errors=True)


def _summary(counts: dict[str, Counter[str]], findings: list[Finding],
             cpu_times: list[float], wall: float, args: argparse.Namespace) -> None:
    total = Counter[str]()
    for counter in counts.values():
        total.update(counter)
    print(f"fuzz_hostile: {sum(total.values())} inputs (seed {args.seed}, from {args.start}) "
          f"in {wall:.0f} s; median child CPU "
          f"{statistics.median(cpu_times) if cpu_times else 0:.2f} s, "
          f"max {max(cpu_times, default=0):.2f} s")
    print("command     " + " ".join(f"{kind:>12}" for kind in KINDS))
    for command, counter in sorted(counts.items()):
        print(f"{command:<12}" + " ".join(f"{counter[kind]:>12}" for kind in KINDS))
    print("total       " + " ".join(f"{total[kind]:>12}" for kind in KINDS))
    for finding in findings[:50]:
        print(f"  #{finding.index} {finding.command} {finding.kind}: {finding.detail}")
    if findings:
        print(f"inputs and their stderr kept in {args.keep}")


def replay(args: argparse.Namespace) -> int:
    """Write input ``--replay`` into ``--keep`` and print the command that runs it."""
    workroot = Path(tempfile.mkdtemp(prefix="nonopress-fuzz-seeds-"))
    seeds = all_seeds(workroot, args.surfaces)
    if args.only:
        seeds = [seed for seed in seeds if seed.argv(seed.name)[0] in args.only]
    base, data = input_of(args.replay, args.seed, seeds)
    keep = Path(args.keep)
    keep.mkdir(parents=True, exist_ok=True)
    path = keep / f"replay-{args.replay}-{base.name}"
    path.write_bytes(data)
    print(" ".join(["nonopress", *base.argv(str(path))]))
    _remove(workroot)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300, help="inputs to run (default 300)")
    parser.add_argument("--seed", type=int, default=34, help="the run's seed (default 34)")
    parser.add_argument("--start", type=int, default=0,
                        help="first input's number: resume a run where it stopped")
    parser.add_argument("--jobs", type=int, default=1, help="children at a time (default 1)")
    parser.add_argument("--keep", default=os.path.join(tempfile.gettempdir(),
                                                       "nonopress-fuzz-findings"),
                        help="folder for the inputs that found something")
    parser.add_argument("--progress", type=int, default=100, metavar="N",
                        help="a progress line every N inputs (0: none)")
    parser.add_argument("--live", action="store_true",
                        help="send --count API inputs over HTTP to one real studio instead")
    parser.add_argument("--surfaces", type=int, choices=(3, 4, 5), default=5,
                        help="3: round three's seeds only (its runs' numbers), 4: and "
                        "render, library import and the studio's API, 5: and the "
                        "collector's protocol edge and planted links (default)")
    parser.add_argument("--only", action="append", default=[], metavar="COMMAND",
                        help="only the seeds of this command (check, fill, make, preflight, "
                        "render, library, api, wire, links; repeatable)")
    parser.add_argument("--replay", type=int, metavar="I",
                        help="write input I (of --seed) and print its command; run nothing")
    args = parser.parse_args()
    if args.replay is not None:
        return replay(args)
    if args.live:
        return live(args)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
