"""Check the compiled line solve against the reference on many random lines.

    python bench/check_lines.py [--lines 1000000] [--max-length 200] [--seed 0]

Prints the number of lines checked, how many were contradictions, and any disagreement
(exit status 1 if there was one). The reference is pure Python: a million lines of up to
200 cells take several minutes of CPU.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np

from grader.lines import random_line, solve_line
from grader.solver import line_solve


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--max-length", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    start = time.process_time()
    contradictions = 0
    disagreements = 0
    for number in range(1, args.lines + 1):
        clue, cells = random_line(rng, args.max_length)
        expected = solve_line(clue, cells)
        got = line_solve(clue, np.array(cells, dtype=np.uint8))
        contradictions += expected is None
        same = got is None if expected is None else got is not None and got.tolist() == expected
        if not same:
            disagreements += 1
            print(f"DISAGREE clue={clue} cells={cells} reference={expected} compiled={got}")
        if number % 100_000 == 0:
            print(f"{number} lines checked, {time.process_time() - start:.0f} s CPU", flush=True)
    print(f"checked {args.lines} lines of 1-{args.max_length} cells (seed {args.seed}): "
          f"{contradictions} contradictions, {disagreements} disagreements, "
          f"{time.process_time() - start:.0f} s CPU")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
