"""Time a 500-puzzle KDP 8.5x11 in book end to end, as a publisher builds one.

    nice python bench/bench_book.py [--count 500] [--size 15] [--work DIR] [--only CASE]
                                    [--cached-only] [--repeat N]

Two manifests of the same puzzles: one entry per file (500 files) and 500 entries
``{file: all.yaml, index: i}`` into one 500-puzzle file. Each is built with
``nonopress issue MANIFEST --profile kdp --page 8.5x11in -o book.pdf`` (the preflight runs as
part of it) twice: from scratch (no grade cache) and again with every grade cached. Each
build is a fresh process, so the figure is what the user waits for; each is run --repeat
times (default 1) and the median quoted (the machine is shared: quote the load it had).

Targets: with grades cached under 5 s including the preflight; from scratch under 20 s.
The puzzles are random 15x15 pictures (density 0.6) kept only when unique, made once into
--work (default: a folder under the system's temporary folder) and reused.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CACHED_TARGET_S = 5.0
SCRATCH_TARGET_S = 20.0


def make_puzzles(folder: Path, count: int, size: int) -> None:
    """``count`` unique ``size`` x ``size`` puzzles: one file each and all in one file."""
    from grader.formats import write
    from grader.solver import solve
    from layout.synthetic import random_puzzle

    if (folder / "all.yaml").exists() and len(list(folder.glob("p*.yaml"))) == count:
        return
    folder.mkdir(parents=True, exist_ok=True)
    puzzles = []
    seed = 0
    while len(puzzles) < count:
        seed += 1
        puzzle = random_puzzle(size, size, seed, density=0.6)
        if solve(puzzle).verdict == "unique":
            puzzles.append(puzzle)
    for number, puzzle in enumerate(puzzles, 1):
        (folder / f"p{number:03d}.yaml").write_bytes(write(puzzle, "yaml"))
    (folder / "all.yaml").write_bytes(write(puzzles, "yaml"))
    many = "".join(f"  - {{file: p{n:03d}.yaml}}\n" for n in range(1, count + 1))
    (folder / "files.yaml").write_text(f"title: Bench book\npuzzles:\n{many}")
    one = "".join(f"  - {{file: all.yaml, index: {n}}}\n" for n in range(1, count + 1))
    (folder / "one-file.yaml").write_text(f"title: Bench book\npuzzles:\n{one}")


def build(folder: Path, manifest: str, cache: Path, scratch: bool) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the child, its last line) of one build."""
    if scratch and cache.exists():
        shutil.rmtree(cache)
    cache.mkdir(exist_ok=True)
    command = [sys.executable, "-m", "nonopress", "issue", manifest, "--profile", "kdp",
               "--page", "8.5x11in", "-o", str(cache / "book.pdf"), "--cache-dir", str(cache),
               "-q"]
    before = os.times()
    started = time.perf_counter()
    run = subprocess.run(command, cwd=folder, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system)
    lines = (run.stdout + run.stderr).strip().splitlines()
    if run.returncode not in (0, 1):
        raise SystemExit(f"{manifest}: exit {run.returncode}: {' | '.join(lines[-3:])}")
    return wall, cpu, lines[-1] if lines else ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--size", type=int, default=15)
    parser.add_argument("--work", type=Path,
                        default=Path(tempfile.gettempdir()) / "nonopress-bench-book")
    parser.add_argument("--only", choices=["files", "one-file"])
    parser.add_argument("--cached-only", action="store_true",
                        help="only the builds with every grade cached (after one untimed "
                        "build that grades what the cache lacks)")
    parser.add_argument("--repeat", type=int, default=1, metavar="N",
                        help="run each build N times and quote the median (default 1)")
    args = parser.parse_args()
    folder = args.work / f"{args.count}x{args.size}"
    make_puzzles(folder, args.count, args.size)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    ok = True
    for name in ("files", "one-file"):
        if args.only and name != args.only:
            continue
        cache = folder / f"cache-{name}"
        if args.cached_only:  # one untimed build grades what the cache lacks (or is stale)
            build(folder, f"{name}.yaml", cache, False)
        for scratch in (False,) if args.cached_only else (True, False):
            runs = [build(folder, f"{name}.yaml", cache, scratch)
                    for _ in range(max(args.repeat, 1))]
            wall = statistics.median(run[0] for run in runs)
            cpu = statistics.median(run[1] for run in runs)
            last = runs[-1][2]
            target = SCRATCH_TARGET_S if scratch else CACHED_TARGET_S
            kind = "from scratch" if scratch else "grades cached"
            ok = ok and wall < target
            each = ", ".join(f"{run[0]:.2f}" for run in runs)
            print(f"{name:8} {kind:13} {wall:6.2f} s wall, {cpu:6.2f} s CPU median "
                  f"(runs {each}; target < {target:.0f} s)  {last}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
