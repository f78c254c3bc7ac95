"""Mosaic: the complete solver against the SAT oracle, verdicts and speed, in one run.

    python bench/bench_mosaic.py [--count 2000] [--made 30] [--seed 1] [--seconds 10]
                                 [--write bench/results/mosaic-DATE.md]

Three sets, each solved by ``grader.mosaic.solver.solve`` (limit 2, the budget
``--seconds``) and by the SAT peer (python-sat, CaDiCaL: encode, solve, block, solve again)
on the same puzzle in the same process:

* ``small``: ``--count`` random mosaics of 3x3 to 12x12, pictures of random density, a
  random share (15-100%) of their clues shown: unique, ambiguous and (clues of one picture
  shown over another's blocks) contradictory ones. Every verdict is checked against SAT's
  count; a disagreement (other than the solver's ``undecided``) is a failure, exit 1.
* ``sparse``: ``--sparse`` 15x15 to 30x30 pictures (smooth blobs, as drawings are) with
  30-100% of their clues shown (mostly several solutions).
* ``noise``: ``--noise`` 15x15 to 25x25 pictures of random noise (no shapes) with 40-100%
  of their clues shown: the worst case found for the solver.
* ``made``: ``--made`` mosaics made by ``grader.mosaic.making`` (10x10 to 15x15, easy to
  fiendish, irredundant clues: one solution, what a magazine prints).

With ``--tatham PATH`` (a checkout of kohend/simon-puzzles, or of the collection it forked),
its Mosaic is built here with bench/tatham_mosaic_driver.c (bench/tatham_peer.py) and
measured beside ours: its solver on the ``made`` set, and ``--tatham-count`` mosaics of its
generator at 10x10, 15x15 and 20x20 (its time, the clues it keeps, the level our grader
gives them, our check's verdict and time, its solver's time). Its solver loops when clue
completion stalls: a call past ``--tatham-limit`` seconds counts as stuck.

Per set: the tally of verdicts, the median and worst CPU seconds of each side (the
solver's thread time; SAT's likewise, encoding and counting: its C code runs in this thread), and
how many of them the solver left undecided (its budget is wall-clock seconds: on a shared
machine it gets fewer CPU seconds than that).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from grader.atomic import atomic_write
from grader.mosaic.making import generate, random_picture
from grader.mosaic.sat_peer import count_solutions
from grader.mosaic.solver import solve
from grader.mosaic_model import MosaicPuzzle
from grader.results import Budget

VERDICT_OF_COUNT = {0: "none", 1: "unique", 2: "multiple"}


def small(rng: np.random.Generator) -> MosaicPuzzle:
    h, w = int(rng.integers(3, 13)), int(rng.integers(3, 13))
    picture = rng.random((h, w)) < rng.random()
    shown = rng.random((h, w)) < rng.uniform(0.15, 1.0)
    puzzle = MosaicPuzzle.from_picture(picture, shown)
    if rng.random() < 0.15:  # half the clues from another picture: often no solution
        other = MosaicPuzzle.from_picture(rng.random((h, w)) < rng.random(), shown)
        mixed = rng.random((h, w)) < 0.5
        puzzle = MosaicPuzzle(tuple(
            tuple(b if mixed[r, c] else a for c, (a, b) in enumerate(zip(ra, rb, strict=True)))
            for r, (ra, rb) in enumerate(zip(puzzle.clues, other.clues, strict=True))))
    return MosaicPuzzle(puzzle.clues)


def sparse(rng: np.random.Generator) -> MosaicPuzzle:
    side = int(rng.integers(15, 31))
    picture = random_picture(side, side, int(rng.integers(1 << 30)), ink=rng.uniform(0.3, 0.7))
    shown = rng.random((side, side)) < rng.uniform(0.3, 1.0)
    return MosaicPuzzle(MosaicPuzzle.from_picture(picture, shown).clues)


def noise(rng: np.random.Generator) -> MosaicPuzzle:
    side = int(rng.integers(15, 26))
    picture = rng.random((side, side)) < 0.5
    shown = rng.random((side, side)) < rng.uniform(0.4, 1.0)
    return MosaicPuzzle(MosaicPuzzle.from_picture(picture, shown).clues)


#: what making each ``made`` mosaic gave: (size, level asked, level reached, clues kept,
#: clues in all, cells changed, seconds)
MAKING: list[tuple[str, str, str, int, int, int, float]] = []


def made(rng: np.random.Generator, index: int) -> MosaicPuzzle:
    side = (10, 12, 15)[index % 3]
    level = ("easy", "medium", "hard", "fiendish")[index % 4]
    result = generate(side, side, level, seed=int(rng.integers(1 << 30)))
    MAKING.append((result.puzzle.size, level, result.grade.level, result.puzzle.clue_count(),
                   result.clues_total, len(result.changed), result.time_s))
    return MosaicPuzzle(result.puzzle.clues)


def making_table() -> list[str]:
    """Per level asked: how many reached it, the clues kept, the seconds making took."""
    lines = ["| level asked | made | reached | levels given | clues kept (median) | "
             "cells changed | seconds (median, worst) |", "|---|---|---|---|---|---|---|"]
    for level in ("easy", "medium", "hard", "fiendish"):
        rows = [m for m in MAKING if m[1] == level]
        if not rows:
            continue
        given = Counter(m[2] for m in rows)
        kept = statistics.median(m[3] / m[4] for m in rows)
        seconds = [m[6] for m in rows]
        lines.append(f"| {level} | {len(rows)} | {sum(m[2] == level for m in rows)} | "
                     f"{', '.join(f'{k} {v}' for k, v in sorted(given.items()))} | "
                     f"{kept:.0%} | {sum(m[5] for m in rows)} | "
                     f"{statistics.median(seconds):.1f}, {max(seconds):.1f} |")
    return lines


def run_one(puzzle: MosaicPuzzle, seconds: float) -> tuple[str, float, str, float]:
    cpu = time.thread_time()
    result = solve(puzzle, 2, Budget(seconds=seconds))
    ours = time.thread_time() - cpu
    cpu = time.thread_time()  # CaDiCaL runs in this thread: its CPU time is counted
    count, _ = count_solutions(puzzle, 2)
    theirs = time.thread_time() - cpu
    return result.verdict, ours, VERDICT_OF_COUNT[count], theirs


def measure(name: str, puzzles: list[MosaicPuzzle], seconds: float) -> tuple[list[str], int]:
    tally: Counter[str] = Counter()
    ours_s: list[float] = []
    sat_s: list[float] = []
    wrong = 0
    undecided = 0
    faster = 0
    for puzzle in puzzles:
        ours, ours_t, truth, sat_t = run_one(puzzle, seconds)
        tally[truth] += 1
        ours_s.append(ours_t)
        sat_s.append(sat_t)
        faster += ours_t < sat_t
        if ours == "undecided":
            undecided += 1
        elif ours != truth:
            wrong += 1
            print(f"  DISAGREE {name}: solver {ours}, SAT {truth}: {puzzle.size} "
                  f"{'/'.join(puzzle.rows_text())}", file=sys.stderr)
    cells = [p.width * p.height for p in puzzles]
    line = (f"| {name} | {len(puzzles)} | {min(cells)}-{max(cells)} | "
            f"{', '.join(f'{k} {v}' for k, v in sorted(tally.items()))} | "
            f"{statistics.median(ours_s):.4f} | {max(ours_s):.3f} | "
            f"{statistics.median(sat_s):.4f} | {max(sat_s):.3f} | {faster} | {undecided} | "
            f"{wrong} |")
    print(line, flush=True)
    return [line], wrong


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):.4f}, {max(values):.4f}" if values else "-"


def tatham_tables(driver: Any, made_set: list[MosaicPuzzle], count: int, seconds: float
                  ) -> list[str]:
    """Its solver on our made mosaics, then its generator's mosaics read by ours."""
    from grader import mosaic

    lines = ["| puzzles | its solver: solved, unsolved, stuck | its s (median, worst, solved) | "
             "our check s (median, worst) |", "|---|---|---|---|"]
    outcome: Counter[str] = Counter()
    its: list[float] = []
    ours: list[float] = []
    for puzzle in made_set:
        word, spent = driver.solve(mosaic.write(puzzle, "tatham").decode().strip())
        outcome[word] += 1
        if word == "solved":
            its.append(spent)
        cpu = time.thread_time()
        solve(puzzle, 2, Budget(seconds=seconds))
        ours.append(time.thread_time() - cpu)
    lines.append(f"| made: {len(made_set)} | {outcome['solved']}, {outcome['unsolved']}, "
                 f"{outcome['stuck']} | {_spread(its)} | {_spread(ours)} |")
    lines += ["", "| its generator | made | its s (median, worst) | clues kept (median) | "
              "our verdicts | our levels | its solver s (median, worst) | "
              "our check s (median, worst) |", "|---|---|---|---|---|---|---|---|"]
    for side in (10, 15, 20):
        made_s: list[float] = []
        kept: list[float] = []
        verdicts: Counter[str] = Counter()
        levels: Counter[str] = Counter()
        its, ours = [], []
        for seed in range(count):
            game_id, spent = driver.generate(side, side, f"nonopress-{side}-{seed}")
            made_s.append(spent)
            if game_id is None:
                verdicts["not made in 60 s"] += 1
                continue
            (puzzle,) = mosaic.read((game_id + "\n").encode(), format="tatham")
            kept.append(puzzle.clue_count() / (side * side))
            cpu = time.thread_time()
            checked = solve(puzzle, 2, Budget(seconds=seconds))
            ours.append(time.thread_time() - cpu)
            verdicts[checked.verdict] += 1
            levels[mosaic.grade(puzzle, Budget(seconds=seconds)).level] += 1
            word, spent = driver.solve(game_id)
            if word == "solved":
                its.append(spent)
        lines.append(f"| {side}x{side} | {count} | {_spread(made_s)} | "
                     f"{statistics.median(kept) if kept else 0:.0%} | "
                     f"{', '.join(f'{k} {v}' for k, v in sorted(verdicts.items()))} | "
                     f"{', '.join(f'{k} {v}' for k, v in sorted(levels.items()))} | "
                     f"{_spread(its)} ({len(its)} solved) | {_spread(ours)} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--sparse", type=int, default=100)
    parser.add_argument("--noise", type=int, default=100)
    parser.add_argument("--made", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--write", type=Path)
    parser.add_argument("--tatham", type=Path, metavar="PATH",
                        help="a checkout of kohend/simon-puzzles: time its Mosaic beside ours")
    parser.add_argument("--tatham-count", type=int, default=10,
                        help="mosaics its generator makes at each size")
    parser.add_argument("--tatham-limit", type=float, default=3.0,
                        help="wall seconds one call of its solver may take (it loops when stuck)")
    args = parser.parse_args(argv)
    driver = None
    if args.tatham is not None:
        from tatham_peer import Driver, TathamError, build

        try:
            driver = Driver(build(args.tatham), args.tatham_limit)
        except TathamError as exc:
            print(f"bench_mosaic: {exc}", file=sys.stderr)
            return 2
    rng = np.random.default_rng(args.seed)
    head = ["| set | puzzles | cells | SAT's verdicts | solver median s | solver worst s | "
            "SAT median s | SAT worst s | solver faster | solver undecided | wrong |",
            "|---|---|---|---|---|---|---|---|---|---|---|"]
    print("\n".join(head), flush=True)
    lines = list(head)
    wrong = 0
    sets = [("small", [small(rng) for _ in range(args.count)]),
            ("sparse", [sparse(rng) for _ in range(args.sparse)]),
            ("noise", [noise(rng) for _ in range(args.noise)]),
            ("made", [made(rng, i) for i in range(args.made)])]
    for name, puzzles in sets:
        if puzzles:
            found, bad = measure(name, puzzles, args.seconds)
            lines += found
            wrong += bad
    if MAKING:
        table = making_table()
        print("\n" + "\n".join(table))
        lines += ["", "Making the `made` set (grader.mosaic.making, 10x10 to 15x15, wall seconds):",
                  "", *table]
    if driver is not None:
        table = tatham_tables(driver, dict(sets)["made"], args.tatham_count, args.seconds)
        driver.close()
        print("\n" + "\n".join(table))
        lines += ["", f"The collection's Mosaic (`--tatham`, its calls limited to "
                  f"{args.tatham_limit:g} s), CPU seconds:", "", *table]
    if args.write:
        command = "python bench/bench_mosaic.py " + " ".join(argv or sys.argv[1:])
        text = ["# Mosaic: complete solver against the SAT oracle", "",
                f"`{command}` (seed {args.seed}, budget {args.seconds:g} s a puzzle; "
                "CPU seconds of the thread, both sides; SAT: python-sat CaDiCaL 1.5.3, "
                "encoding and counting to 2).", "", *lines, ""]
        atomic_write(args.write, "\n".join(text))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
