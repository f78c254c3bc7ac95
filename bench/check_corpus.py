"""Check every corpus puzzle with a known solution count (all 2,000 tournament puzzles too).

    python bench/check_corpus.py [CORPUS] [--timeout S] [--only PREFIX]

Reads ``verdicts.json`` beside the corpus files, solves each puzzle whose count is known,
and prints every mismatch (an ``undecided`` verdict, a budget running out, is listed apart),
then totals. Every solution reported is checked against the clues without the solver.
Exit status 1 when any verdict is wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from grader import formats
from grader.model import Puzzle, clues_of_picture
from grader.results import Budget
from grader.solver import solve

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
EXPECTED = {1: "unique", 2: "multiple"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per puzzle")
    parser.add_argument("--only", default="", help="keys starting with this, e.g. tournaments/")
    args = parser.parse_args(argv)
    table = json.loads((args.corpus / "verdicts.json").read_text())
    files: dict[str, list[Puzzle]] = {}
    tally: Counter[str] = Counter()
    wrong = 0
    cpu = 0.0
    for key, entry in table.items():
        if entry["solutions"] not in EXPECTED or not key.startswith(args.only):
            continue
        name, _, index = key.partition("#")
        if name not in files:
            files[name] = formats.read(args.corpus / name)
        puzzle = files[name][int(index or 1) - 1]
        start = time.process_time()
        result = solve(puzzle, budget=Budget(seconds=args.timeout))
        cpu += time.process_time() - start
        for solution in result.solutions:
            if clues_of_picture(solution) != (puzzle.rows, puzzle.columns):
                print(f"BAD SOLUTION {key}")
                wrong += 1
        expected = EXPECTED[entry["solutions"]]
        if result.verdict == "undecided":
            tally["undecided"] += 1
            print(f"undecided {key}: {result.reason}", flush=True)
        elif result.verdict != expected:
            wrong += 1
            print(f"WRONG {key}: {result.verdict}, expected {expected}", flush=True)
        else:
            tally["agree"] += 1
    print(f"{sum(tally.values())} puzzles: {tally['agree']} agree, {tally['undecided']} "
          f"undecided, {wrong} wrong; {cpu:.1f} s CPU")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
