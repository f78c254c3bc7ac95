"""Does ``nonopress check --timeout T`` keep its promise on huge puzzles?

Random puzzles of 500x500 to 2048x2048 (half the cells filled: no line logic gets far, so
the search runs until the budget ends it) and a dense 2048x2048 one (85% filled: the first
propagation is long). Each is checked by a fresh ``nonopress check --timeout T --json``;
the table gives the time the solver reports, the command's wall time, and the peer: the
same command on a 5x5 puzzle in the same run (start-up and imports). Overrun is the
reported time minus T; the command's extra time beyond that is reading the file and
start-up.

    python bench/bench_budget.py                 # T = 1 s, every size
    python bench/bench_budget.py --timeout 5 --sizes 1000 2048
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from grader import formats
from grader.model import Puzzle


def make_puzzle(side: int, density: float, seed: int) -> Puzzle:
    rng = np.random.default_rng(seed)
    return Puzzle.from_picture(rng.random((side, side)) < density).with_solution(None)


def check(path: Path, timeout: float) -> tuple[float, float, str]:
    """(reported solve time, wall time of the command, verdict)."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "nonopress", "check", "--json", "--timeout", str(timeout),
         str(path)],
        capture_output=True, text=True, check=True,
    )
    wall = time.perf_counter() - started
    record = json.loads(done.stdout.splitlines()[0])
    return float(record["time_s"]), wall, str(record["verdict"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=1.0)
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 1000, 2048])
    parser.add_argument("--repeat", type=int, default=3, help="runs per puzzle (median)")
    args = parser.parse_args()
    cases = [(f"{n}x{n} random 50%", make_puzzle(n, 0.5, 1)) for n in args.sizes]
    if 2048 in args.sizes:
        cases.append(("2048x2048 dense 85%", make_puzzle(2048, 0.85, 2)))
    with tempfile.TemporaryDirectory() as folder:
        peer = Path(folder, "peer.non")
        peer.write_bytes(formats.write(make_puzzle(5, 0.6, 3), "non"))
        check(peer, args.timeout)  # compile or load the kernels once, outside the table
        peer_wall = statistics.median(check(peer, args.timeout)[1] for _ in range(args.repeat))
        print(f"T = {args.timeout:g} s; peer (5x5, start-up and imports): {peer_wall:.2f} s wall")
        print(f"{'puzzle':22} {'verdict':10} {'solver s':>9} {'overrun s':>10} "
              f"{'wall s':>7} {'wall - peer':>12}")
        for name, puzzle in cases:
            path = Path(folder, "case.non")
            path.write_bytes(formats.write(puzzle, "non"))
            runs = [check(path, args.timeout) for _ in range(args.repeat)]
            solver = statistics.median(r[0] for r in runs)
            wall = statistics.median(r[1] for r in runs)
            print(f"{name:22} {runs[0][2]:10} {solver:9.3f} {solver - args.timeout:10.3f} "
                  f"{wall:7.2f} {wall - peer_wall:12.2f}")


if __name__ == "__main__":
    main()
