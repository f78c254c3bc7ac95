"""Poisoning the solves: how far can one sender move what is printed?

    nice python bench/bench_poison.py [--db FILE] [--forged 11,100,1000] [--json]

Collected solve records are unauthenticated (docs/solves.md): anyone who can reach the
collector can send any record, with any solver id. A sender can change its address only at
a cost (a new IPv4 address, another /64 of IPv6), so the collector counts by address. This
bench sends records through the collector's own ASGI app (``nonopress.solves.collector``),
each request from the address it names, as uvicorn would give it, into a fresh SQLite
catalogue, and measures:

1. **A puzzle's median** (``library solves --json``'s ``median_minutes``): Heart with 10
   genuine one-minute solves from 10 addresses, then N forged records of 6,000 s from ONE
   address with N invented solver ids (and N from N addresses of one IPv6 /64): the median
   before and after, and whether Heart heads "the audience disagrees most".
2. **The refit** (``calibrate --from-solves --json``): 14 random rated puzzles (12 fitted, 2
   held out by the rule), 6 genuine clean solves each from its own address, times around the
   model's minutes; then 65 forged clean solves from ONE address, spread over the puzzles,
   timed to steepen the line (ln forged = 0.5 + 2 ln model, the "1.93x" attack of issue
   57): the largest factor by which any puzzle's refitted minutes move, and what
   ``calibrate --write`` does with it.

Exit 1 when a bound of issue 57 is broken: the median moved past 2x, or the refit's minutes
past 1.3x without the write being refused.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import random
import shutil
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ORIGIN = "https://puzzles.example"
ATTACKER = "203.0.113.66"


def record(key: str, seconds: float, **changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "v": 1, "record_id": str(uuid.uuid4()), "solver_id": str(uuid.uuid4()),
        "puzzle_key": key, "grader_version": "0.9.0+bench", "seconds_active": seconds,
        "completed": True, "checks": 0, "reveals": 0, "errors_found": 0,
        "hints": {"1": 0, "2": 0, "3": 0, "4": 0}, "hint_rungs": [],
        "device": "desktop", "started_at": "2026-11-28T03:00Z",
        "player": "nonopress-player/0.9.0",
    }
    return {**base, **changes}


class Sender:
    """Records sent through the collector's app, each request from the address given."""

    def __init__(self, catalogue: Any):
        from starlette.applications import Starlette

        from nonopress.solves.collector import Collector, CollectorSettings, solve_routes

        # a rate no sender meets: what is measured is what gets stored, not the rate limit
        settings = CollectorSettings(frozenset({ORIGIN}), rate=1e6, burst=1_000_000)
        self.collector = Collector(settings, lambda: catalogue)
        self.app = Starlette(routes=solve_routes(self.collector))
        self.answers: dict[int, int] = {}

    def send(self, host: str, body: dict[str, Any]) -> int:
        from starlette.testclient import TestClient

        client = TestClient(self.app, client=(host, 40000))
        status = client.post("/api/solves", content=json.dumps(body),
                             headers={"origin": ORIGIN, "content-type": "text/plain"}
                             ).status_code
        self.answers[status] = self.answers.get(status, 0) + 1
        return status

    def close(self) -> None:
        self.collector.close()


@contextlib.contextmanager
def catalogue_of(files: list[Path], folder: Path) -> Iterator[Any]:
    from nonopress.catalogue import ImportOptions, add_files, open_catalogue

    with open_catalogue(str(folder / "poison.sqlite")) as opened:
        with contextlib.redirect_stderr(io.StringIO()):
            add_files(opened, [str(f) for f in files], ImportOptions(jobs=1))
        yield opened


def heart_row(catalogue: Any, key: str) -> tuple[float | None, int | None]:
    """Heart's median minutes in ``library solves --json`` and its place among the
    disagreements (None: not listed)."""
    from nonopress.solves.reports import solves_report

    report = solves_report(catalogue).to_json()
    row = next(p for p in report["puzzles"] if p["key"] == key)
    places = [p["key"] for p in report["disagreements"]]
    return row["median_minutes"], places.index(key) + 1 if key in places else None


def median_attack(folder: Path, forged: int, ipv6: bool) -> dict[str, Any]:
    from grader.formats import read_any

    heart = read_any(ROOT / "puzzles" / "heart.yaml")[0].key()
    work = Path(tempfile.mkdtemp(dir=folder))
    with catalogue_of([ROOT / "puzzles" / n for n in ("heart.yaml", "cat.yaml")],
                      work) as catalogue:
        sender = Sender(catalogue)
        rng = random.Random(57)
        for n in range(10):
            assert sender.send(f"198.51.100.{n + 1}",
                               record(heart, round(rng.uniform(55, 65), 1))) == 201
        before, place_before = heart_row(catalogue, heart)
        stored = 0
        for n in range(forged):
            host = f"2001:db8:57:1::{n + 1:x}" if ipv6 else ATTACKER
            stored += sender.send(host, record(heart, 6000.0)) == 201
        after, place = heart_row(catalogue, heart)
        sender.close()
    ratio = (after / before) if before and after else None
    return {"forged": forged, "from": "one /64, an address each" if ipv6 else "one address",
            "stored": stored, "median_before": before, "median_after": after,
            "factor": None if ratio is None else round(ratio, 3),
            "disagreement_place": [place_before, place]}


def rated_puzzles(fit: int, held: int, seed: int = 57) -> list[Any]:
    """Random black-and-white pictures graded unique at a rated level, ``fit`` fitted and
    ``held`` held out by the refit's rule."""
    from grader.kinds import kind_of
    from grader.model import Metadata, Puzzle
    from grader.results import Budget
    from grader.scoring import RATED_LEVELS
    from nonopress.solves.refit import held_out

    rng = random.Random(seed)
    groups: dict[bool, list[Any]] = {False: [], True: []}
    want = {False: fit, True: held}
    for number in range(3000):
        if all(len(groups[g]) >= want[g] for g in groups):
            break
        side = rng.choice((5, 8, 10, 12, 15))
        ink = rng.uniform(0.45, 0.7)
        rows = ["".join("#" if rng.random() < ink else "." for _ in range(side))
                for _ in range(side)]
        puzzle = Puzzle.from_picture(rows, Metadata(title=f"Random {number}"))
        group = held_out(puzzle.key())
        if len(groups[group]) >= want[group]:
            continue
        grade = kind_of(puzzle).grade(None, Budget(seconds=10))
        if grade.verdict == "unique" and grade.level in RATED_LEVELS:
            groups[group].append(puzzle)
    return groups[False] + groups[True]


def refit_minutes(catalogue: Any) -> tuple[dict[str, float], Any]:
    """Every observed puzzle's refitted minutes, and the refit."""
    from nonopress.solves import refit

    result = refit.from_solves(catalogue, None, 5, 30.0)
    return ({o.key: refit.predicted(result.after, o, result.weights)
             for o in (*result.train, *result.held)}, result)


def store_zero_second_solves(catalogue: Any, key: str, count: int) -> None:
    """``count`` completed records of 0 active seconds, stored as a collector before the
    floor of issue 57 stored them (straight into the table)."""
    import datetime as dt

    from nonopress.catalogue import schema
    from nonopress.solves import parse_record

    stamp = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    rows = []
    for _ in range(count):
        row = parse_record(json.dumps(record(key, 60.0)).encode(), None).row()
        rows.append({**row, "seconds_active": 0.0, "received_at": stamp,
                     "updated_at": stamp})
    with catalogue.writing() as connection:
        connection.execute(schema.solves.insert(), rows)


def refit_attack(folder: Path, forged: int = 65, genuine: int = 6,
                 zeros: int = 0) -> dict[str, Any]:
    from grader.kinds import write_puzzles
    from grader.minutes import default_model
    from grader.scoring import default_weights
    from nonopress.cli import main
    from nonopress.solves.refit import Observed, features, held_out, predicted

    puzzles = rated_puzzles(12, 2)
    source = folder / "random.yaml"
    source.write_bytes(write_puzzles(puzzles, "yaml"))
    weights, model = default_weights(), default_model()
    minutes = {}
    for puzzle in puzzles:
        facts = features(puzzle, 30.0)
        assert facts is not None
        minutes[puzzle.key()] = predicted(model, Observed(0, puzzle.key(), "", "", 1.0, 0,
                                                          False, *facts), weights)
    work = Path(tempfile.mkdtemp(dir=folder))
    with catalogue_of([source], work) as catalogue:
        sender = Sender(catalogue)
        rng = random.Random(2026)
        address = 0
        for key, truth in minutes.items():
            for _ in range(genuine):
                address += 1
                seconds = max(5.0, round(truth * 60 * math.exp(rng.gauss(0, 0.15)), 1))
                host = f"198.51.{100 + address // 250}.{address % 250 + 1}"
                assert sender.send(host, record(key, seconds)) == 201
        try:
            clean, _ = refit_minutes(catalogue)
        except ValueError:  # too few genuine solves to fit: measured against the truth
            clean = dict(minutes)
        if zeros:  # hole 4: at a held-out puzzle, where the old refit divided by them
            store_zero_second_solves(catalogue, next(p.key() for p in puzzles
                                                     if held_out(p.key())), zeros)
        keys = sorted(minutes)
        stored = 0
        for n in range(forged):
            key = keys[n % len(keys)]
            steep = math.exp(0.5 + 2.0 * math.log(minutes[key]))
            stored += sender.send(ATTACKER, record(key, max(5.0, round(steep * 60, 1)))) == 201
        sender.close()
        try:
            attacked, _ = refit_minutes(catalogue)
        except ValueError as exc:  # the refit refuses: nothing moved
            attacked, refused = {}, str(exc)
        else:
            refused = ""
    worst = max((math.exp(abs(math.log(attacked[k] / clean[k]))) for k in clean
                 if k in attacked), default=1.0)
    scoring = work / "scoring.yaml"
    shutil.copy(ROOT / "grader" / "scoring.yaml", scoring)
    with contextlib.redirect_stdout(io.StringIO()), \
            contextlib.redirect_stderr(io.StringIO()) as err:
        status = main(["calibrate", "--from-solves", "--db", str(work / "poison.sqlite"),
                       "--timeout", "30", "--json", "--write", str(scoring)])
    return {"forged": forged, "from": "one address", "stored": stored,
            "genuine_per_puzzle": genuine, "puzzles": len(attacked),
            "refit_refused": refused[:200], "largest_factor": round(worst, 4),
            "write_status": status, "write_said": err.getvalue().strip()[:300]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--forged", default="11,100,1000",
                        help="the numbers of forged records sent at the one puzzle")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-refit", action="store_true", help="the medians only")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="poison-"))
    try:
        medians = [median_attack(folder, int(n), ipv6) for n in args.forged.split(",")
                   for ipv6 in (False, True)]
        refits = [] if args.no_refit else [refit_attack(folder, genuine=g) for g in (6, 3)]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    broken = [m for m in medians if m["factor"] is not None and
              math.exp(abs(math.log(m["factor"]))) > 2.0]
    broken += [r for r in refits if r["largest_factor"] > 1.3 and r["write_status"] == 0]
    if args.json:
        print(json.dumps({"medians": medians, "refits": refits, "bounds_kept": not broken},
                         indent=1))
    else:
        for m in medians:
            print(f"median: {m['forged']:>5} forged x 6000 s from {m['from']}: "
                  f"{m['stored']} stored; Heart {m['median_before']} -> {m['median_after']} "
                  f"min (x{m['factor']}); place among the disagreements, before and after: "
                  f"{m['disagreement_place']}")
        for r in refits:
            refused = f" (refused: {r['refit_refused']})" if r["refit_refused"] else ""
            print(f"refit: {r['genuine_per_puzzle']} genuine clean solves a puzzle, "
                  f"{r['forged']} forged from {r['from']} ({r['stored']} stored), "
                  f"{r['puzzles']} puzzles fitted{refused}: minutes move at "
                  f"most x{r['largest_factor']}; calibrate --write: status "
                  f"{r['write_status']} {r['write_said']}")
        print("bounds kept" if not broken else f"BOUNDS BROKEN: {broken}")
    return 0 if not broken else 1


if __name__ == "__main__":
    sys.exit(main())
