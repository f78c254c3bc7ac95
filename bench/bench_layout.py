"""Time the PDF back end on a 100-puzzle issue of 30x30 puzzles with solutions.

    python bench/bench_layout.py [--count 100] [--size 30] [--repeat 3] [--latex]

Grading is excluded: the puzzles are random pictures with their solutions, and their grades
are given (``layout.synthetic``), so the number measured is pagination plus PDF writing,
which is what a build costs once the grade cache is warm. Target: under 5 s.
``--latex`` also times writing the LaTeX source (not compiling it).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from layout.latex import render_latex  # noqa: E402
from layout.pdf import render_pdf  # noqa: E402
from layout.plan import plan_issue  # noqa: E402
from layout.synthetic import issue_of, random_puzzle  # noqa: E402

TARGET_S = 5.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--size", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--latex", action="store_true")
    args = parser.parse_args()

    puzzles = [random_puzzle(args.size, args.size, seed) for seed in range(args.count)]
    issue = issue_of(puzzles)
    render_pdf(issue, plan_issue(issue))  # warm up: font registration, imports
    best_plan = best_pdf = best_tex = float("inf")
    pages = size = 0
    for _ in range(args.repeat):
        started = time.perf_counter()
        plan = plan_issue(issue)
        planned = time.perf_counter()
        data = render_pdf(issue, plan)
        done = time.perf_counter()
        best_plan = min(best_plan, planned - started)
        best_pdf = min(best_pdf, done - planned)
        pages, size = len(plan.pages), len(data)
        if args.latex:
            started = time.perf_counter()
            render_latex(issue, plan)
            best_tex = min(best_tex, time.perf_counter() - started)
    total = best_plan + best_pdf
    print(f"{args.count} puzzles {args.size}x{args.size} with solutions: {pages} pages, "
          f"{size / 1e6:.2f} MB")
    print(f"plan {best_plan:.2f} s + PDF {best_pdf:.2f} s = {total:.2f} s "
          f"(best of {args.repeat}; target < {TARGET_S:.0f} s; grading excluded)")
    if args.latex:
        print(f"LaTeX source: {best_tex:.2f} s")
    return 0 if total < TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
