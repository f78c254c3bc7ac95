"""Collector load test on loopback: solve records from concurrent clients into a catalogue.

    . .ci/postgres.sh && pg_scratch_start
    nice python bench/bench_collect.py [--db URL] [--records 10000] [--clients 50]
        [--workers 2] [--hostile 200] [--retries 0.1] [--pace R] [--timeout 600]

Starts ``nonopress collect`` (uvicorn, ``--workers`` processes) on a free loopback port over
a fresh catalogue (``--db``, default ``$NONOPRESS_TEST_POSTGRES_URL``: a new schema on that
server, dropped afterwards; a SQLite file when ``--db`` names one). ``--clients`` clients,
each from its own loopback address (127.0.0.N, so the rate limit is per client as it is for
solvers), send ``--records`` records between them, a share ``--retries`` of them sent twice
(a retry with the same record id) and some again with more progress; each client as soon as
its last answer came (closed loop, the harshest case) or ``--pace`` records a second (open
loop: what a site's traffic is like). Then ``--hostile`` requests that must be refused:
wrong types, huge numbers, unknown puzzles, foreign origins, oversized bodies, broken JSON,
unknown fields. Prints the
request latency (median, p95, p99, at the client), the rows stored against the records sent
(lost, stored twice) and the hostile requests refused in one JSON line each. Exit 1 when a
record is lost or doubled or a hostile request is not refused.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import sqlalchemy as sa  # noqa: E402

ORIGIN = "https://puzzles.example"
PUZZLES = ("cat.yaml", "heart.yaml", "house.yaml")


def record(key: str, **changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "v": 1, "record_id": str(uuid.uuid4()), "solver_id": str(uuid.uuid4()),
        "puzzle_key": key, "grader_version": "0.9.0+bench", "seconds_active": 240.0,
        "completed": True, "checks": 1, "reveals": 0, "errors_found": 0,
        "hints": {"1": 1, "2": 1, "3": 0, "4": 0}, "hint_rungs": ["simple-boxes"],
        "device": "desktop", "started_at": "2026-11-28T03:00Z",
        "player": "nonopress-player/0.9.0",
    }
    return {**base, **changes}


@contextmanager
def fresh_database(location: str) -> Iterator[str]:
    """A new schema on a PostgreSQL server (dropped afterwards), or the SQLite path."""
    if "://" not in location:
        yield location
        return
    name = f"bench_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(location.replace("postgresql://", "postgresql+psycopg://", 1))
    with admin.begin() as connection:
        connection.exec_driver_sql(f"CREATE SCHEMA {name}")
    separator = "&" if "?" in location else "?"
    try:
        yield f"{location}{separator}options=-csearch_path%3D{name}"
    finally:
        with admin.begin() as connection:
            connection.exec_driver_sql(f"DROP SCHEMA {name} CASCADE")
        admin.dispose()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def collector(db: str, port: int, workers: int, rate: float, burst: int,
              timeout: float) -> Iterator[str]:
    """``nonopress collect`` in a subprocess, answering on ``port``; stopped afterwards."""
    command = [sys.executable, "-m", "nonopress", "collect", "--db", db, "--origin", ORIGIN,
               "--port", str(port), "--workers", str(workers), "--rate", str(rate),
               "--burst", str(burst)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               cwd=ROOT, start_new_session=True)
    url = f"http://127.0.0.1:{port}/api/solves"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError("the collector stopped: "
                                   + (process.stderr.read().decode()[-800:]
                                      if process.stderr else ""))
            try:
                if httpx.options(url, headers={"origin": ORIGIN}).status_code == 204:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the collector did not start in time")
            time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    sent_ids: set[str] = field(default_factory=set)
    failures: list[str] = field(default_factory=list)


class Connection:
    """A keep-alive HTTP/1.1 connection from one loopback address, written by hand: a load
    generator must cost less than the server it measures (httpx spends more CPU a request
    than the collector does, and client and server share this machine's cores)."""

    def __init__(self, port: int, source: str):
        self.port, self.source = port, source
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, headers: dict[str, str], body: bytes) -> tuple[int, dict[str, str],
                                                                          str]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(
                "127.0.0.1", self.port, local_addr=(self.source, 0))
        assert self.reader is not None
        head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        self.writer.write(f"POST /api/solves HTTP/1.1\r\nhost: 127.0.0.1:{self.port}\r\n"
                          f"{head}content-length: {len(body)}\r\n\r\n".encode() + body)
        await self.writer.drain()
        status_line = await self.reader.readline()
        answer_headers: dict[str, str] = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            answer_headers[name.strip().lower()] = value.strip()
        text = (await self.reader.readexactly(int(answer_headers.get("content-length", "0"))))
        if answer_headers.get("connection", "").lower() == "close":
            await self.close()
        return int(status_line.split()[1]), answer_headers, text.decode("utf-8", "replace")

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = self.reader = None


async def client_run(number: int, port: int, records: list[dict[str, Any]], retries: float,
                     seed: int, tally: Tally, pace: float) -> None:
    """One client: its own loopback address, its records one after another (``pace`` > 0:
    one every 1/pace s, open loop; 0: each as soon as the last is answered); a record not
    answered 2xx is sent again (as the player does), a share sent twice."""
    rng = random.Random(seed + number)
    connection = Connection(port, f"127.0.0.{10 + number}")
    # a few records an address, as solvers send them: the collector keeps at most 6 records
    # of a puzzle from one address (nonopress/solves/store.py), however many it is sent
    per_address = 4
    headers = {"origin": ORIGIN, "content-type": "text/plain;charset=UTF-8"}
    begin = time.perf_counter() + (rng.random() / pace if pace > 0 else 0.0)
    try:
        for index, item in enumerate(records):
            if pace > 0:
                await asyncio.sleep(max(0.0, begin + index / pace - time.perf_counter()))
            if index and index % per_address == 0:  # the next solver, its own address
                await connection.close()
                step = index // per_address
                connection = Connection(port, f"127.{10 + number}.{step // 250}."
                                        f"{step % 250 + 1}")
            sends = [item]
            if rng.random() < retries:
                sends.append(item)  # a retry: the answer was lost on the way
            if rng.random() < retries / 2:
                sends.append({**item, "seconds_active": item["seconds_active"] + 30.0})
            for body in sends:
                for _ in range(20):
                    start = time.perf_counter()
                    status, answer_headers, text = await connection.post(
                        headers, json.dumps(body).encode())
                    tally.latencies.append(time.perf_counter() - start)
                    tally.statuses[status] += 1
                    if status < 300:
                        break
                    if status == 429:
                        await asyncio.sleep(float(answer_headers.get("retry-after", "1")))
                        continue
                    tally.failures.append(f"{status} {text.strip()}")
                    break
            tally.sent_ids.add(item["record_id"])
    finally:
        await connection.close()


Request = tuple[dict[str, str], bytes]


def hostile_requests(key: str, count: int, seed: int) -> list[Request]:
    """``count`` requests that must be refused, of every kind in turn."""
    rng = random.Random(seed)
    plain = {"origin": ORIGIN, "content-type": "text/plain"}
    makers: list[Callable[[], Request]] = [
        lambda: (plain, json.dumps(record(key, checks=rng.choice(
            ["3", True, 1.5, None, [1]]))).encode()),
        lambda: (plain, json.dumps(record(key, seconds_active=rng.choice(
            [1e300, -1, 10**12]))).encode()),
        lambda: (plain, json.dumps(record(key, reveals=10 ** rng.randint(6, 60))).encode()),
        lambda: (plain, json.dumps(record(uuid.uuid4().hex[:24])).encode()),
        lambda: ({"origin": f"https://evil{rng.randint(0, 999)}.example",
                  "content-type": "text/plain"}, json.dumps(record(key)).encode()),
        lambda: ({"content-type": "text/plain"}, json.dumps(record(key)).encode()),
        lambda: (plain, b"{" + b" " * rng.randint(20_000, 200_000) + b"}"),
        lambda: (plain, json.dumps(record(key, hint_rungs=["glue"] * 4000)).encode()),
        lambda: (plain, b'{"v": 1, "record_id": '),
        lambda: (plain, json.dumps({**record(key), "ip": "10.0.0.1"}).encode()),
        lambda: (plain, json.dumps(record(key, device="<script>")).encode()),
        lambda: ({**plain, "content-type": "multipart/form-data"},
                 json.dumps(record(key)).encode()),
    ]
    return [makers[i % len(makers)]() for i in range(count)]


async def send_hostile(url: str, requests: list[tuple[dict[str, str], bytes]]
                       ) -> tuple[int, list[str]]:
    """Each request on a new connection (a refused oversized body may close it), through
    httpx: an ordinary client, as an attacker's would be."""
    refused, wrong = 0, []
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.250")
    async with httpx.AsyncClient(transport=transport, timeout=30.0) as client:
        for headers, body in requests:
            answer = await client.post(url, content=body, headers=headers)
            lines = answer.text.splitlines()
            try:
                one = len(lines) == 1 and list(json.loads(lines[0])) == ["error"]
            except ValueError:
                one = False
            if 400 <= answer.status_code < 500 and answer.status_code != 429 and one:
                refused += 1
            else:
                wrong.append(f"{answer.status_code} {answer.text[:120]!r} for "
                             f"{headers} {body[:60]!r}")
    return refused, wrong


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run(db_location: str, records: int, clients: int, workers: int, hostile: int,
        retries: float, timeout: float, pace: float = 0.0, seed: int = 49) -> dict[str, Any]:
    from nonopress.catalogue import ImportOptions, add_files, open_catalogue, schema

    with fresh_database(db_location) as db:
        with open_catalogue(db) as catalogue:
            add_files(catalogue, [str(ROOT / "puzzles" / n) for n in PUZZLES],
                      ImportOptions(jobs=1))
            with catalogue.reading() as connection:
                keys = list(connection.execute(sa.select(schema.puzzles.c.key)).scalars())
        rng = random.Random(seed)
        made = [record(rng.choice(keys), seconds_active=round(rng.uniform(30, 3000), 1),
                       completed=rng.random() < 0.8) for _ in range(records)]
        shares = [made[i::clients] for i in range(clients)]
        tally = Tally()
        # each client sends ~records/clients in the run: a rate that lets the test run at
        # full speed while the buckets still hold one client back (hostile: own address)
        port = free_port()
        with collector(db, port, workers, rate=1000.0, burst=1000,
                       timeout=min(timeout, 120.0)) as url:
            started = time.perf_counter()

            async def everyone() -> None:
                await asyncio.wait_for(asyncio.gather(*(
                    client_run(n, port, share, retries, seed, tally, pace)
                    for n, share in enumerate(shares))), timeout)

            asyncio.run(everyone())
            elapsed = time.perf_counter() - started
            refused, wrong = asyncio.run(send_hostile(url, hostile_requests(keys[0], hostile,
                                                                            seed)))
        with open_catalogue(db) as catalogue, catalogue.reading() as connection:
            rows = list(connection.execute(sa.select(schema.solves.c.record_id)).scalars())
    stored = Counter(rows)
    wanted = {item["record_id"] for item in made}
    return {
        "records": records, "clients": clients, "workers": workers,
        "pace": pace or "as fast as answered",
        "requests": len(tally.latencies), "seconds": round(elapsed, 2),
        "per_second": round(len(tally.latencies) / elapsed, 1),
        "median_ms": round(1000 * statistics.median(tally.latencies), 1),
        "p95_ms": round(1000 * percentile(tally.latencies, 0.95), 1),
        "p99_ms": round(1000 * percentile(tally.latencies, 0.99), 1),
        "statuses": dict(sorted(tally.statuses.items())),
        "stored": len(rows), "lost": len(wanted - set(stored)),
        "stored_twice": sum(1 for n in stored.values() if n > 1),
        "strangers": len(set(stored) - wanted),
        "failures": tally.failures[:5],
        "hostile": hostile, "hostile_refused": refused, "hostile_wrong": wrong[:5],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default=os.environ.get("NONOPRESS_TEST_POSTGRES_URL", ""),
                        help="a PostgreSQL URL (a new schema is used) or a SQLite file")
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--hostile", type=int, default=200)
    parser.add_argument("--retries", type=float, default=0.1)
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--pace", type=float, default=0.0, metavar="R",
                        help="records a second each client sends (open loop; default 0: "
                        "each as soon as the last is answered, the harshest case)")
    args = parser.parse_args(argv)
    if not args.db:
        print("bench_collect: --db or $NONOPRESS_TEST_POSTGRES_URL (. .ci/postgres.sh && "
              "pg_scratch_start)", file=sys.stderr)
        return 2
    if not 1 <= args.clients <= 200:
        print("bench_collect: --clients 1 to 200 (one loopback address each)", file=sys.stderr)
        return 2
    figures = run(args.db, args.records, args.clients, args.workers, args.hostile,
                  args.retries, args.timeout, args.pace)
    print(json.dumps(figures, indent=1))
    pace = f" at {args.pace:g}/s each" if args.pace else " (closed loop)"
    print(f"{figures['records']} records from {figures['clients']} clients{pace} "
          f"({figures['requests']} requests with retries) in {figures['seconds']} s, "
          f"{figures['per_second']}/s: median {figures['median_ms']} ms, p95 "
          f"{figures['p95_ms']} ms, p99 {figures['p99_ms']} ms; lost {figures['lost']}, "
          f"stored twice {figures['stored_twice']}; hostile refused in one line "
          f"{figures['hostile_refused']}/{figures['hostile']}")
    bad = (figures["lost"] or figures["stored_twice"] or figures["strangers"]
           or figures["hostile_refused"] != figures["hostile"] or figures["failures"])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
