"""The catalogue's two figures: importing N puzzles against grading them with ``batch``, and
``library find`` over a catalogue of 10,000 rows.

    python bench/bench_catalogue.py --import 10000 --jobs 2          # the issue's N
    python bench/bench_catalogue.py --import 300 --find-rows 10000   # a shared machine
    python bench/bench_catalogue.py --db postgresql://u:p@host/db --import 0

Import: N random pictures (10x10 to 20x20, seeded) are made into unique-or-not puzzles, one
file each; ``nonopress batch`` and ``nonopress library add`` each run once as a command on
the same files with the same jobs and timeout (both start from an empty database; the solver
is compiled before either clock starts). The ratio library/batch is what the issue bounds at
1.10. Find: ``--find-rows`` graded rows are written straight into a fresh catalogue (levels,
sizes, scores, minutes and tags spread as in a real stock), then each filter below is asked
``--repeat`` times through the Python API the command uses; the median is printed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LEVELS = ("easy", "medium", "hard", "fiendish")
TAGS = ("animals", "vehicles", "food", "christmas", "sea", "buildings", "people", "abstract")


def make_stock(folder: Path, count: int, seed: int) -> None:
    import numpy as np

    from grader.formats import write
    from grader.model import Metadata, Puzzle

    rng = np.random.default_rng(seed)
    for number in range(count):
        width, height = (int(v) for v in rng.integers(10, 21, size=2))
        picture = rng.random((height, width)) < 0.6
        puzzle = Puzzle.from_picture(picture, Metadata(title=f"Random {number}"))
        (folder / f"p{number:05d}.yaml").write_bytes(write(puzzle, "yaml"))


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr[-2000:]}")
    return elapsed


def bench_import(count: int, jobs: int, timeout: float, seed: int) -> None:
    from grader.solver import ensure_compiled

    ensure_compiled(sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        stock = Path(tmp, "stock")
        stock.mkdir()
        make_stock(stock, count, seed)
        common = ["--jobs", str(jobs), "--timeout", str(timeout)]
        nonopress = [sys.executable, "-m", "nonopress"]
        batch = timed([*nonopress, "batch", str(stock), "--out", str(Path(tmp, "results")),
                       *common])
        library = timed([*nonopress, "library", "--db", str(Path(tmp, "lib.sqlite")), "add",
                         str(stock), *common])
    print(f"import {count} puzzles, {jobs} jobs: batch {batch:.1f} s, library add "
          f"{library:.1f} s, ratio {library / batch:.3f}")


def fill_rows(db: str | None, rows: int, seed: int) -> str:
    from nonopress.catalogue import open_catalogue, schema

    rng = random.Random(seed)
    location = db or str(Path(tempfile.mkdtemp(), "find.sqlite"))
    with open_catalogue(location) as catalogue, catalogue.writing() as connection:
        connection.execute(schema.bookings.delete())
        connection.execute(schema.tags.delete())
        connection.execute(schema.puzzles.delete())
        batch = []
        for number in range(rows):
            size = rng.choice((10, 15, 15, 20, 20, 25, 25, 30, 40))
            level = rng.choice(LEVELS)
            score = round(rng.uniform(0, 5), 3)
            batch.append({
                "key": f"{number:024x}", "kind": rng.choice(("bw",) * 9 + ("colour",)),
                "shape_key": f"{rng.getrandbits(80):020x}", "width": size, "height": size,
                "colours": 1, "title": f"Puzzle {number}", "author": rng.choice(
                    ("Ann", "Bo", "Cy", "Di")), "copyright": "", "licence": "CC0-1.0",
                "source": "", "file": f"p{number}.yaml", "file_index": 1, "puzzle": "",
                "status": "graded", "verdict": "unique", "level": level, "score": score,
                "stars": 1 + int(score), "minutes": round(size * size / 60 + score * 5, 1),
                "problem": "", "added_at": "2026-11-26T00:00:00Z"})
        connection.execute(schema.puzzles.insert(), batch)
        from sqlalchemy import select

        ids = list(connection.execute(select(schema.puzzles.c.id)).scalars())
        connection.execute(schema.tags.insert(), [
            {"puzzle_id": i, "tag": t} for i in ids for t in rng.sample(TAGS, 2)])
    return location


def bench_find(db: str | None, rows: int, repeat: int, seed: int) -> None:
    from nonopress.catalogue import Filters, find, open_catalogue

    location = fill_rows(db, rows, seed)
    questions = {
        "--level medium": Filters(levels=("medium",)),
        "--level medium --size 15x15..25x25 --tag animals": Filters(
            levels=("medium",), widths=(15, 25), heights=(15, 25), tags=("animals",)),
        "--minutes 5..15 --unused-for 12": Filters(minutes=(5, 15), unused_for=12),
        "(everything)": Filters(),
    }
    with open_catalogue(location) as catalogue:
        for name, filters in questions.items():
            times = []
            for _ in range(repeat):
                start = time.perf_counter()
                found = find(catalogue, filters)
                times.append(time.perf_counter() - start)
            print(f"find {name} over {rows} rows ({catalogue.dialect}): {len(found)} found, "
                  f"median {statistics.median(times) * 1000:.1f} ms of {repeat}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--import", dest="count", type=int, default=300,
                        help="puzzles to import (0: skip; the issue's figure is 10000)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--find-rows", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--db", help="the catalogue for the find figure (default: a new "
                        "SQLite file); its puzzles are replaced")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.count:
        bench_import(args.count, args.jobs, args.timeout, args.seed)
    if args.find_rows:
        bench_find(args.db, args.find_rows, args.repeat, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
