"""Median grading time per puzzle, by group of the public corpus.

    python bench/bench_grade.py [--repeat 3] [--seconds 120] [--only GROUP] [--extra FILE...]
                                [--solver-first-cells N] [--json OUT]

Groups: the largest magazine puzzles (jwilk, 25x25 to 30x30 and 40x20, solvable by line
logic; target for a 30x30: median under 0.5 s), jwilk's only 30x30 (it needs cell branching),
the puzzles that
need cell branching (jwilk's eight, domino/, webpbn #6574 "Forever"; target: seconds), and
the other webpbn puzzles, and the huge ones (a side of 100 cells or more: the 512x512
cauldron, which line logic solves; target: under 3 s). ``--extra`` adds files of your own
(e.g. webpbn #22336 "Gettys", 99x59, from a copy of the site you fetched) as a group of
their own. Each puzzle is graded ``--repeat`` times in this process after
one warm-up grade (numba compiles or loads its cache once per process, not per puzzle), with
the line-solve memo cleared before each, and its median CPU time is kept; the table gives
the median and the maximum of those per group. ``--solver-first-cells`` grades with
another size above which the solver is asked first (grading.SOLVER_FIRST_CELLS), to
measure that choice; ``--json`` keeps every puzzle's median and level.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader import formats, grading  # noqa: E402
from grader.grading import grade  # noqa: E402
from grader.model import Puzzle  # noqa: E402
from grader.results import Budget  # noqa: E402
from grader.techniques.line_analysis import cached_line_solve  # noqa: E402
from grader.techniques.ranges import _narrowed  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"


def load(key: str) -> Puzzle:
    path, _, index = key.partition("#")
    return formats.read(CORPUS / path)[int(index or 1) - 1]


def groups() -> dict[str, list[str]]:
    verdicts = json.loads((CORPUS / "verdicts.json").read_text())
    magazine: list[str] = []
    thirty: list[str] = []
    branching: list[str] = []
    webpbn: list[str] = []
    huge: list[str] = []
    for key, info in sorted(verdicts.items()):
        if info.get("solutions") != 1:
            continue
        if key.startswith("patterns/"):
            puzzle = load(key)
            if max(puzzle.width, puzzle.height) >= 100:
                huge.append(key)
        if key.startswith("jwilk/"):
            puzzle = load(key)
            if info.get("pbnsolve") == "lookahead":
                branching.append(key)
            elif puzzle.width * puzzle.height >= 625:
                magazine.append(key)
            if puzzle.width == 30 and puzzle.height == 30:
                thirty.append(key)
        elif key.startswith("domino/") or key.endswith("06574-forever.non"):
            branching.append(key)
        elif key.startswith("webpbn/"):
            webpbn.append(key)
    return {
        "magazine >=25x25": magazine,
        "jwilk 30x30": thirty,
        "cell branching": branching,
        "webpbn": webpbn,
        "huge": huge,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=120.0, help="budget per grade")
    parser.add_argument("--only", action="append", default=[], metavar="GROUP",
                        help="only this group (repeatable): magazine, 30x30, branching, "
                        "webpbn, huge, extra")
    parser.add_argument("--extra", nargs="+", default=[], type=Path, metavar="FILE",
                        help="puzzle files graded as a group of their own")
    parser.add_argument("--solver-first-cells", type=int, metavar="N",
                        help="ask the solver first above N cells (default "
                        f"{grading.SOLVER_FIRST_CELLS})")
    parser.add_argument("--json", type=Path, metavar="OUT",
                        help="write each puzzle's group, median CPU s and level here")
    args = parser.parse_args(argv)
    if args.solver_first_cells is not None:
        grading.SOLVER_FIRST_CELLS = args.solver_first_cells
    if not CORPUS.is_dir():
        print(f"the corpus is not at {CORPUS}", file=sys.stderr)
        return 2
    budget = Budget(seconds=args.seconds)
    grade(load("webpbn/1.non"), budget=budget)  # warm-up
    print(f"{'group':18s} {'puzzles':>7s} {'median s':>9s} {'max s':>8s}  slowest")
    chosen = groups()
    rows: list[dict[str, object]] = []
    if args.extra:
        chosen["extra"] = [str(path.resolve()) for path in args.extra]
    for name, keys in chosen.items():
        if args.only and not any(word in name for word in args.only):
            continue
        medians: list[tuple[float, str, str]] = []
        for key in keys:
            puzzle = formats.read(key)[0] if name == "extra" else load(key)
            times = []
            level = ""
            for _ in range(args.repeat):
                cached_line_solve.cache_clear()  # time a first grade, not a replay
                _narrowed.cache_clear()
                started = time.process_time()
                level = grade(puzzle, budget=budget).level
                times.append(time.process_time() - started)
            medians.append((statistics.median(times), key, level))
            rows.append({"group": name, "puzzle": key, "seconds": round(medians[-1][0], 4),
                         "level": level})
        if not medians:
            continue
        values = [m[0] for m in medians]
        slowest = max(medians)
        print(
            f"{name:18s} {len(values):7d} {statistics.median(values):9.3f} {max(values):8.2f}"
            f"  {Path(slowest[1]).name if name == 'extra' else slowest[1]} ({slowest[2]})"
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
