"""Authoring bench: the project's own drawings made into unique puzzles.

    python bench/bench_authoring.py [--pictures 30] [--levels easy,medium,hard] [--seconds 30]
    python bench/bench_authoring.py --only speed     # or uniqueness, difficulty

Three tables: (1) changes needed for uniqueness alone, by style, 10x10 to 50x50 (median
flips as % of cells); (2) difficulty targets: each picture at each level, reached or not,
with the level and flips of the nearest puzzle found; (3) speed: a 30x30 picture to a unique
puzzle, median seconds, against the complete solver's own time to decide the untouched
picture in the same run (the peer). Every result is proved unique by the complete solver.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader.authoring import Target, author, binarise  # noqa: E402
from grader.authoring.drawings import catalogue, draw  # noqa: E402
from grader.authoring.picture import load_grey  # noqa: E402
from grader.model import BoolArray, Puzzle  # noqa: E402
from grader.solver import ensure_compiled, solve  # noqa: E402

SIZES = (10, 20, 30, 40, 50)


def picture(name: str, style: str, size: int) -> BoolArray:
    out = io.BytesIO()
    draw(name, style, line_width=max(8, 400 // size + 2)).save(out, format="PNG")
    return binarise(load_grey(out.getvalue()), size, size).picture


def uniqueness_table(seconds: float) -> None:
    print("## Changes for uniqueness alone (median % of cells flipped, over the puzzles "
          "proved unique)")
    print(f"{'style':<11} " + " ".join(f"{f'{s}x{s}':<7}" for s in SIZES) + " all")
    for style in ("silhouette", "line-art"):
        shares: dict[int, list[float]] = {s: [] for s in SIZES}
        missed = 0
        for size in SIZES:
            for name, kind in catalogue():
                if kind != style:
                    continue
                result = author(picture(name, style, size), seconds=seconds)
                if not result.unique:
                    missed += 1
                    print(f"  not proved unique within {seconds:g} s: {name} {style} "
                          f"{size}x{size} ({len(result.flips)} flips so far)")
                    continue
                shares[size].append(result.flip_share)
        every = [v for values in shares.values() for v in values]
        print(f"{style:<11} " + " ".join(f"{statistics.median(shares[s]):<7.2f}" for s in SIZES)
              + f" {statistics.median(every):.2f} (max {max(every):.1f}; "
              f"{missed} not proved unique in time)")


def difficulty_table(count: int, levels: list[str], seconds: float) -> None:
    print(f"\n## Difficulty targets ({count} pictures x {len(levels)} levels, "
          f"{seconds:g} s budget each)")
    print(f"{'picture':<24} " + " ".join(f"{level:<22}" for level in levels))
    reached = {level: 0 for level in levels}
    pairs = catalogue()[:count]
    for index, (name, style) in enumerate(pairs):
        size = (15, 20, 25)[index % 3]
        source = picture(name, style, size)
        cells = []
        for level in levels:
            result = author(source, target=Target(level=level), seconds=seconds)
            got = result.grade.level if result.grade else result.verdict
            mark = "ok" if result.reached else "--"
            reached[level] += result.reached
            cells.append(f"{mark} {got:<9} {len(result.flips):>3}f {result.time_s:4.1f}s")
        print(f"{name + ' ' + style + f' {size}':<24} " + " ".join(f"{c:<22}" for c in cells),
              flush=True)
    total = sum(reached.values())
    print("reached: " + ", ".join(f"{level} {reached[level]}/{len(pairs)}" for level in levels)
          + f"; all {total}/{len(pairs) * len(levels)}")


def speed_table(seconds: float) -> None:
    print("\n## Speed: 30x30 picture to a unique puzzle (no difficulty target)")
    times, peer = [], []
    for name, style in catalogue():
        source = picture(name, style, 30)
        started = time.perf_counter()
        solve(Puzzle.from_picture(source))
        peer.append(time.perf_counter() - started)
        result = author(source, seconds=seconds)
        times.append(result.time_s)
    median, peer_median = statistics.median(times), statistics.median(peer)
    print(f"{len(times)} pictures: median {median:.3f} s, max {max(times):.2f} s; the solver "
          f"alone on the untouched picture: median {peer_median:.4f} s "
          f"(ratio {median / max(peer_median, 1e-6):.0f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pictures", type=int, default=30)
    parser.add_argument("--levels", default="easy,medium,hard")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--only", choices=("uniqueness", "difficulty", "speed"))
    args = parser.parse_args()
    ensure_compiled()
    if args.only in (None, "uniqueness"):
        uniqueness_table(args.seconds)
    if args.only in (None, "difficulty"):
        difficulty_table(args.pictures, args.levels.split(","), args.seconds)
    if args.only in (None, "speed"):
        speed_table(args.seconds)


if __name__ == "__main__":
    main()
