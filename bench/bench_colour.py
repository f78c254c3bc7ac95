"""Colour puzzles: cross-check against the SAT peer, and speed against it.

    python bench/bench_colour.py crosscheck [--count 2000] [--seed 1] [--max-side 8]
    python bench/bench_colour.py speed [--count 40] [--seed 1] [--repeat 3] [FILES...]

``crosscheck``: random small colour puzzles (1-4 colours, pictures of random density, a
third with the columns of a column-shuffled picture so that many have no solution); the
compiled solver's verdict against the SAT peer's count. Prints the tally and every
disagreement; exit status 1 if there is one.

``speed``: magazine-size colour puzzles (20x20 to 30x30, 2-5 colours, drawn as smooth
blobs like real pictures; plus any colour puzzle FILES given) solved warm, median CPU
time of ``--repeat`` runs (only unique ones: a magazine prints no other), and the SAT
peer's time on the same puzzle in the same run.
Prints per puzzle and the medians, the slowest solve and the median ratio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

from grader.colour.model import ColourPuzzle
from grader.colour.palette import Colour, Palette
from grader.colour.sat_peer import count_colour_solutions
from grader.colour.solver import solve_colour, warm_up
from grader.formats import read_any
from grader.results import Budget

COLOURS = (
    Colour("black", (0, 0, 0), "#"), Colour("red", (220, 30, 30), "r"),
    Colour("blue", (30, 60, 200), "b"), Colour("green", (40, 150, 60), "g"),
    Colour("yellow", (240, 210, 40), "y"),
)
VERDICT_OF_COUNT = {0: "none", 1: "unique", 2: "multiple"}


def random_small(rng: np.random.Generator, max_side: int) -> ColourPuzzle:
    k = int(rng.integers(1, 5))
    h, w = int(rng.integers(1, max_side + 1)), int(rng.integers(1, max_side + 1))
    picture = np.where(rng.random((h, w)) < rng.random(),
                       rng.integers(1, k + 1, size=(h, w)), 0).astype(np.uint8)
    palette = Palette(COLOURS[:k])
    puzzle = ColourPuzzle.from_picture(picture, palette)
    if rng.random() < 0.33 and w > 1:
        shuffled = ColourPuzzle.from_picture(picture[:, rng.permutation(w)], palette)
        puzzle = ColourPuzzle(puzzle.rows, shuffled.columns, palette)
    return puzzle


def crosscheck(args: argparse.Namespace) -> int:
    rng = np.random.default_rng(args.seed)
    warm_up()
    tally: Counter[str] = Counter()
    wrong = 0
    solver_s = sat_s = 0.0
    for number in range(args.count):
        puzzle = random_small(rng, args.max_side)
        started = time.process_time()
        result = solve_colour(puzzle, budget=Budget.unlimited())
        solver_s += time.process_time() - started
        started = time.process_time()
        count, _ = count_colour_solutions(puzzle, 2)
        sat_s += time.process_time() - started
        expected = VERDICT_OF_COUNT[count]
        tally[expected] += 1
        if result.verdict != expected:
            wrong += 1
            print(f"WRONG #{number}: solver {result.verdict}, SAT {expected}: "
                  f"rows {puzzle.rows} columns {puzzle.columns}")
    print(f"{args.count} puzzles (seed {args.seed}): {dict(tally)}; wrong verdicts: {wrong}")
    print(f"CPU: solver {solver_s:.2f} s, SAT {sat_s:.2f} s")
    return 1 if wrong else 0


def blob_picture(rng: np.random.Generator, h: int, w: int, k: int) -> np.ndarray:
    """A picture of smooth shapes: blurred noise cut into background and k colour bands."""
    noise = rng.random((h + 8, w + 8))
    for _ in range(3):  # box blur: shapes a few cells wide, like drawn pictures
        noise = (noise + np.roll(noise, 1, 0) + np.roll(noise, -1, 0)
                 + np.roll(noise, 1, 1) + np.roll(noise, -1, 1)) / 5
    field = noise[4:4 + h, 4:4 + w]
    cuts = np.quantile(field, np.linspace(0.2, 1.0, k + 1)[:-1])
    return np.searchsorted(cuts, field, side="right").astype(np.uint8)


def magazine_puzzles(rng: np.random.Generator, count: int) -> list[tuple[str, ColourPuzzle]]:
    """``count`` blob pictures whose puzzles are unique, as a magazine prints them (the
    others are drawn and thrown away, as an editor would; about half are)."""
    out: list[tuple[str, ColourPuzzle]] = []
    drawn = 0
    while len(out) < count:
        drawn += 1
        h, w = int(rng.integers(20, 31)), int(rng.integers(20, 31))
        k = int(rng.integers(2, 6))
        picture = blob_picture(rng, h, w, k)
        puzzle = ColourPuzzle.from_picture(picture, Palette(COLOURS[:k]))
        if solve_colour(puzzle, budget=Budget(seconds=10)).verdict == "unique":
            out.append((f"blob{drawn}-{w}x{h}-{k}c", puzzle))
    print(f"drew {drawn} pictures for {count} unique puzzles")
    return out


def speed(args: argparse.Namespace) -> int:
    rng = np.random.default_rng(args.seed)
    warm_up()
    puzzles = magazine_puzzles(rng, args.count)
    for name in args.files:
        for puzzle in read_any(name):
            if isinstance(puzzle, ColourPuzzle):
                puzzles.append((Path(name).name, puzzle))
    warm_up()
    times, ratios, verdicts = [], [], Counter()
    print(f"{'puzzle':<24} {'verdict':<9} {'solver ms':>9} {'SAT ms':>9} {'ratio':>7}")
    for label, puzzle in puzzles:
        runs = []
        for _ in range(args.repeat):
            started = time.process_time()
            result = solve_colour(puzzle, budget=Budget(seconds=60))
            runs.append(time.process_time() - started)
        solver = statistics.median(runs)
        started = time.process_time()
        count, _ = count_colour_solutions(puzzle, 2)
        sat = time.process_time() - started
        if result.verdict != VERDICT_OF_COUNT[count]:
            print(f"WRONG {label}: solver {result.verdict}, SAT {VERDICT_OF_COUNT[count]}")
            return 1
        verdicts[result.verdict] += 1
        times.append(solver)
        ratios.append(sat / max(solver, 1e-6))
        print(f"{label:<24} {result.verdict:<9} {solver * 1e3:9.2f} {sat * 1e3:9.1f} "
              f"{ratios[-1]:7.1f}")
    median = statistics.median(times) * 1e3
    print(f"{len(puzzles)} puzzles {dict(verdicts)}: solver median {median:.2f} ms, "
          f"slowest {max(times) * 1e3:.2f} ms; SAT/solver median ratio "
          f"{statistics.median(ratios):.1f}x (min {min(ratios):.1f}x)")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    cross = sub.add_parser("crosscheck")
    cross.add_argument("--count", type=int, default=2000)
    cross.add_argument("--seed", type=int, default=1)
    cross.add_argument("--max-side", type=int, default=8)
    fast = sub.add_parser("speed")
    fast.add_argument("--count", type=int, default=40)
    fast.add_argument("--seed", type=int, default=1)
    fast.add_argument("--repeat", type=int, default=3)
    fast.add_argument("files", nargs="*")
    args = parser.parse_args()
    return crosscheck(args) if args.mode == "crosscheck" else speed(args)


if __name__ == "__main__":
    sys.exit(main())
