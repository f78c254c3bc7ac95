"""Calibrate the difficulty score against the corpus.

    python bench/calibrate.py [--seconds 60] [--tournaments 40] [--save FILE] [--load FILE]

Grades every puzzle of the public corpus (and the first ``--tournaments`` of the
tournament sets) and prints:

* the distribution of levels and of scores per level;
* the puzzles whose hardest rung is each rung of the ladder;
* that no puzzle needing cell branching scores below one needing only rungs 1-2;
* Spearman's rank correlation between the score and (a) Batenburg's count of alternating
  row/column sweeps of the complete line solve, over the puzzles line logic solves, and
  (b) pbnsolve's classification in ``verdicts.json`` (line = 0, lookahead = 1).

``--save`` writes the per-puzzle results as JSON lines; ``--load`` reads them back to
print the report without grading again.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader import formats  # noqa: E402
from grader.atomic import atomic_write  # noqa: E402
from grader.grading import LEVELS, RUNGS, grade  # noqa: E402
from grader.model import UNKNOWN, Puzzle  # noqa: E402
from grader.results import Budget  # noqa: E402
from grader.techniques.line_analysis import cached_line_solve  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"


def load(key: str) -> Puzzle:
    path, _, index = key.partition("#")
    return formats.read(CORPUS / path)[int(index or 1) - 1]


def sweep_count(puzzle: Puzzle) -> int | None:
    """Batenburg's measure: alternating sweeps (all rows, then all columns, ...) of the
    complete line solve until the grid is solved; None when line logic gets stuck."""
    cells = np.full((puzzle.height, puzzle.width), UNKNOWN, dtype=np.uint8)
    sweeps = 0
    stale = 0
    while (cells == UNKNOWN).any():
        changed = False
        by_rows = sweeps % 2 == 0
        clues = puzzle.rows if by_rows else puzzle.columns
        view = cells if by_rows else cells.T
        for index, clue in enumerate(clues):
            line = tuple(view[index].tolist())
            solved = cached_line_solve(clue, line)
            if solved is None:
                return None
            if solved != line:
                view[index] = solved
                changed = True
        sweeps += 1
        stale = 0 if changed else stale + 1
        if stale == 2:
            return None
    return sweeps


def ranks(values: list[float]) -> np.ndarray:
    """Ranks from 1, ties sharing their average rank."""
    order = np.argsort(values, kind="stable")
    result = np.empty(len(values))
    sorted_values = np.asarray(values)[order]
    start = 0
    while start < len(values):
        end = start
        while end + 1 < len(values) and sorted_values[end + 1] == sorted_values[start]:
            end += 1
        result[order[start : end + 1]] = (start + end) / 2 + 1
        start = end + 1
    return result


def spearman(xs: list[float], ys: list[float]) -> float:
    if len(xs) < 3:
        return float("nan")
    return float(np.corrcoef(ranks(xs), ranks(ys))[0, 1])


def grade_corpus(seconds: float, tournaments: int) -> list[dict[str, Any]]:
    verdicts = json.loads((CORPUS / "verdicts.json").read_text())
    keys = [k for k in verdicts if not k.startswith("tournaments/")]
    keys += [k for k in verdicts if k.startswith("tournaments/")][:tournaments]
    rows = []
    for key in keys:
        try:
            puzzle = load(key)
        except Exception as exc:  # the report lists unreadable files, it does not stop
            print(f"skipped {key}: {exc}", file=sys.stderr)
            continue
        started = time.perf_counter()
        result = grade(puzzle, budget=Budget(seconds=seconds))
        row = {
            "key": key,
            "size": puzzle.size,
            "cells": puzzle.width * puzzle.height,
            "solutions": verdicts[key].get("solutions"),
            "pbnsolve": verdicts[key].get("pbnsolve"),
            "verdict": result.verdict,
            "level": result.level,
            "score": result.score,
            "stars": result.stars,
            "rungs": result.rungs,
            "time_s": round(time.perf_counter() - started, 3),
            "sweeps": sweep_count(puzzle) if result.verdict == "unique" else None,
        }
        rows.append(row)
        print(
            f"{key:55s} {row['level']:15s} {row['score']:6.3f} {row['time_s']:7.2f}s",
            file=sys.stderr,
            flush=True,
        )
    return rows


def hardest(row: dict[str, Any]) -> str | None:
    used = [rung for rung in RUNGS if row["rungs"].get(rung)]
    return used[-1] if used else None


def report(rows: list[dict[str, Any]]) -> None:
    print(f"{len(rows)} puzzles graded in {sum(r['time_s'] for r in rows):.1f} s\n")
    print("Levels:")
    levels = Counter(r["level"] for r in rows)
    for level in (*LEVELS, "undecided"):
        scores = sorted(r["score"] for r in rows if r["level"] == level)
        if scores:
            print(
                f"  {level:15s} {levels[level]:5d}  score min {scores[0]:.3f}  median "
                f"{statistics.median(scores):.3f}  max {scores[-1]:.3f}"
            )
    print("\nStars:", dict(sorted(Counter(r["stars"] for r in rows).items())))
    print("\nPuzzles by hardest rung (unique ones):")
    by_rung: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        if row["verdict"] == "unique":
            by_rung[hardest(row) or "none"].append(row["key"])
    for rung in (*RUNGS, "none"):
        names = by_rung.get(rung, [])
        if names:
            shown = ", ".join(names[:12]) + (
                f" and {len(names) - 12} more" if len(names) > 12 else ""
            )
            print(f"  {rung:16s} {len(names):4d}: {shown}")
    easy = [
        r["score"]
        for r in rows
        if r["verdict"] == "unique" and hardest(r) in ("simple-boxes", "extreme-owners")
    ]
    branching = [
        r["score"]
        for r in rows
        if r["verdict"] == "unique" and hardest(r) in ("cell-branching", "recursion")
    ]
    if easy and branching:
        ok = min(branching) > max(easy)
        print(
            f"\nCell branching never below rungs 1-2: {ok} (lowest {min(branching):.3f}, "
            f"highest rungs 1-2 {max(easy):.3f})"
        )
    line_solvable = [r for r in rows if r.get("sweeps")]
    print(
        f"\nSpearman(score, Batenburg sweeps) over {len(line_solvable)} line-solvable puzzles: "
        f"{spearman([r['score'] for r in line_solvable], [r['sweeps'] for r in line_solvable]):.3f}"
    )
    classified = [
        r for r in rows if r["verdict"] == "unique" and r["pbnsolve"] in ("line", "lookahead")
    ]
    rho = spearman(
        [r["score"] for r in classified],
        [float(r["pbnsolve"] == "lookahead") for r in classified],
    )
    print(f"Spearman(score, pbnsolve line=0/lookahead=1) over {len(classified)} unique: {rho:.3f}")
    agree = sum(
        (r["pbnsolve"] == "lookahead") == (hardest(r) in ("cell-branching", "recursion"))
        for r in classified
    )
    print(
        f"pbnsolve 'lookahead' <=> ladder needs cell branching or more: {agree} of "
        f"{len(classified)} agree"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="budget per puzzle")
    parser.add_argument(
        "--tournaments",
        type=int,
        default=40,
        help="how many tournament puzzles to include (they are slow)",
    )
    parser.add_argument("--save", type=Path, help="write per-puzzle results (JSON lines)")
    parser.add_argument("--load", type=Path, help="report on saved results instead")
    args = parser.parse_args(argv)
    if args.load:
        rows = [json.loads(line) for line in args.load.read_text().splitlines() if line]
    else:
        if not CORPUS.is_dir():
            print(f"the corpus is not at {CORPUS}", file=sys.stderr)
            return 2
        rows = grade_corpus(args.seconds, args.tournaments)
        if args.save:
            atomic_write(args.save, "".join(json.dumps(r) + "\n" for r in rows))
    report(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
