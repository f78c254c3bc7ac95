"""Fill the 72 benchmark crossword grids with the default word list: one row per grid.

    python bench/bench_fill.py [GRID_DIR] [--timeout 10] [--seed 0] [--min-zipf Z]
                               [--words FILE] [--quality] [--markdown]

GRID_DIR holds one ``.txt`` grid a file (default ``../shared/crossword-grids/txt`` beside
the repository). Each grid gets its own time budget; the table gives the outcome, the time,
the nodes and restarts, and the fill score (mean word score, 0-100). Goal: every grid filled
or proved unfillable, each in under 1 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader.results import Budget  # noqa: E402
from words.fill import fill  # noqa: E402
from words.grid import parse_grid  # noqa: E402
from words.wordlist import default_word_list, load_word_list  # noqa: E402

DEFAULT_DIR = ROOT.parent / "shared" / "crossword-grids" / "txt"
GOAL_S = 1.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=str(DEFAULT_DIR))
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--words", help="a word list file instead of the default list")
    parser.add_argument("--only", help="grids whose name contains this")
    parser.add_argument("--quality", action="store_true",
                        help="try a fill from common words first (fill(..., quality=True))")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args()

    started = time.perf_counter()
    words = load_word_list(args.words) if args.words else default_word_list()
    load_s = time.perf_counter() - started
    paths = sorted(Path(args.folder).glob("*.txt"))
    if args.only:
        paths = [p for p in paths if args.only in p.stem]
    if not paths:
        print(f"no .txt grids in {args.folder}", file=sys.stderr)
        return 2
    print(f"# word list: {words.name}, {len(words)} words, loaded in {load_s:.2f} s")
    bar = "|" if args.markdown else ""
    header = ["grid", "size", "slots", "result", "time_s", "nodes", "restarts", "score", "min"]
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
    else:
        print("\t".join(header))
    times: list[float] = []
    outcomes: dict[str, int] = {}
    for path in paths:
        grid = parse_grid(path.read_text(), str(path))
        result = fill(grid, words, seed=args.seed, budget=Budget(seconds=args.timeout),
                      quality=args.quality)
        times.append(result.time_s)
        outcomes[result.status] = outcomes.get(result.status, 0) + 1
        row = [path.stem, grid.size, str(len(grid.slots)), result.status,
               f"{result.time_s:.3f}", str(result.nodes), str(result.restarts),
               f"{result.score:.1f}" if result.status == "filled" else "-",
               f"{result.min_score:.0f}" if result.status == "filled" else "-"]
        if args.markdown:
            print(f"{bar} " + " | ".join(row) + f" {bar}")
        else:
            print("\t".join(row), flush=True)
        if result.status != "filled":
            print(f"#   {path.stem}: {result.reason}")
    decided = outcomes.get("filled", 0) + outcomes.get("none", 0)
    fast = sum(1 for t in times if t < GOAL_S)
    print(f"# {len(paths)} grids: " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))
          + f"; decided {decided}/{len(paths)}; under {GOAL_S:g} s: {fast}/{len(paths)}; "
          f"median {statistics.median(times):.3f} s, max {max(times):.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
