"""Time the complete solver (and optionally the SAT peer) on puzzle files.

    python bench/bench_solver.py FILES_OR_DIRS_OR_FILE#N... [--vs sat] [--repeat N] [--timeout S]
        [--sample N --seed S] [--first N] [--shard K/N] [--tie-break-seeds 0,1,2,...]

Per puzzle: verdict and median CPU time (time.process_time, the machines are shared) over
``--repeat`` runs; with ``--vs sat`` the SAT peer's count and time on the same puzzle in the
same run, and the ratio (the peer has no time limit: leave out files it cannot finish).
Totals and medians at the end; ``--shard K/N`` takes every N-th puzzle from the K-th (1-based),
so N processes can share a long run (add up their totals). The numba cache is warmed on a tiny
puzzle first so compile time is not counted (it is reported separately).

``--tie-break-seeds`` runs the solver once per seed of the conflict search's random initial
activities (``learning.TIE_BREAK_SEED``, fixed at 0 in use) and reports the median time over
them, with every seed's time and conflicts, and each seed's total at the end: how much of a
puzzle's (and a set's) time is the luck of its search path rather than its difficulty.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from grader import formats
from grader.errors import NonopressError
from grader.model import Puzzle
from grader.results import Budget

SKIP_SUFFIXES = {".md", ".json", ".png", ".mk"}


def collect(paths: list[str]) -> list[tuple[str, Puzzle]]:
    """Every readable puzzle under the given files and folders, labelled path or path#N;
    ``FILE#N`` names the N-th puzzle of a many-puzzle file alone."""
    files: list[Path] = []
    wanted: list[str] = []
    for name in paths:
        path = Path(name)
        if "#" in name and not path.exists():
            wanted.append(name)
            path = Path(name.rsplit("#", 1)[0])
            if path not in files:
                files.append(path)
        elif path.is_dir():
            files.extend(p for p in sorted(path.rglob("*")) if p.is_file())
        else:
            files.append(path)
    puzzles: list[tuple[str, Puzzle]] = []
    for file in files:
        if file.suffix.lower() in SKIP_SUFFIXES:
            continue
        try:
            found = formats.read(file)
        except NonopressError as exc:
            print(f"skip {file}: {exc}", file=sys.stderr)
            continue
        for index, puzzle in enumerate(found, 1):
            label = f"{file}#{index}" if len(found) > 1 else str(file)
            if f"{file}#{index}" in wanted or not any(
                    w.startswith(f"{file}#") for w in wanted):
                puzzles.append((label, puzzle))
    return puzzles


def time_solver(puzzle: Puzzle, repeat: int, timeout: float) -> tuple[str, float]:
    from grader.solver import solve

    times = []
    verdict = ""
    for _ in range(repeat):
        start = time.process_time()
        result = solve(puzzle, limit=2, budget=Budget(seconds=timeout))
        times.append(time.process_time() - start)
        verdict = result.verdict
    return verdict, statistics.median(times)


def time_seeds(puzzle: Puzzle, seeds: list[int], timeout: float
               ) -> tuple[str, list[float], str]:
    """The verdict, the CPU time of each of ``seeds`` (one run each), and each seed's
    ``seconds/conflicts``."""
    from grader.solver import learning, solve

    kept = learning.TIE_BREAK_SEED
    times: list[float] = []
    shown: list[str] = []
    verdicts: set[str] = set()
    try:
        for seed in seeds:
            learning.TIE_BREAK_SEED = seed
            start = time.process_time()
            result = solve(puzzle, limit=2, budget=Budget(seconds=timeout))
            times.append(time.process_time() - start)
            verdicts.add(result.verdict)
            shown.append(f"{times[-1]:.2f}/{result.stats.get('conflicts', 0)}")
    finally:
        learning.TIE_BREAK_SEED = kept
    # seeds change the path, never the verdict (undecided aside)
    decided = verdicts - {"undecided"}
    verdict = decided.pop() if len(decided) == 1 else "/".join(sorted(verdicts))
    return verdict, times, " ".join(shown)


def time_sat(puzzle: Puzzle) -> tuple[str, float]:
    """The SAT peer's verdict and CPU time (no time limit: CaDiCaL cannot be interrupted)."""
    from grader.solver.sat_peer import count_solutions

    start = time.process_time()
    count, _ = count_solutions(puzzle, limit=2)
    return {0: "none", 1: "unique"}.get(count, "multiple"), time.process_time() - start


def _shard(text: str) -> tuple[int, int]:
    part, _, parts = text.partition("/")
    try:
        k, n = int(part), int(parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected K/N, got {text!r}") from None
    if not 1 <= k <= n:
        raise argparse.ArgumentTypeError(f"expected 1 <= K <= N, got {text!r}")
    return k, n


def _seeds(text: str) -> list[int]:
    try:
        seeds = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seeds like 0,1,2, got {text!r}") from None
    if any(seed < 0 for seed in seeds):
        raise argparse.ArgumentTypeError(f"seeds must be at least 0, got {text!r}")
    return seeds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="+", metavar="FILES_OR_DIRS")
    parser.add_argument("--vs", choices=["sat"], help="also run this peer, same puzzles")
    parser.add_argument("--repeat", type=int, default=1, help="runs per puzzle (median)")
    parser.add_argument("--timeout", type=float, default=60.0, help="solver budget, seconds")
    parser.add_argument("--sample", type=int, help="a random sample of this many puzzles")
    parser.add_argument("--seed", type=int, default=0, help="seed of --sample")
    parser.add_argument("--first", type=int, help="only the first N puzzles")
    parser.add_argument("--shard", type=_shard, help="K/N: the K-th of N interleaved parts")
    parser.add_argument("--tie-break-seeds", type=_seeds, metavar="S,S,...",
                        help="one run per seed of the conflict search's tie-break (instead "
                             "of --repeat); the median, and each seed's total")
    args = parser.parse_args(argv)

    start = time.process_time()
    from grader.solver import solve

    solve(Puzzle.from_picture(["#.", ".#"]))
    print(f"# import + first solve (numba compile or cache load): "
          f"{time.process_time() - start:.2f} s CPU")

    puzzles = collect(args.paths)
    if args.sample is not None and args.sample < len(puzzles):
        puzzles = sorted(random.Random(args.seed).sample(puzzles, args.sample))
    if args.first is not None:
        puzzles = puzzles[: args.first]
    if args.shard is not None:
        part, parts = args.shard
        puzzles = puzzles[part - 1 :: parts]
    ours: list[float] = []
    theirs: list[float] = []
    seed_times: list[list[float]] = []  # per puzzle, per seed
    disagreements = 0
    for label, puzzle in puzzles:
        per_seed = ""
        if args.tie_break_seeds:
            verdict, times, per_seed = time_seeds(puzzle, args.tie_break_seeds, args.timeout)
            seconds = statistics.median(times)
            seed_times.append(times)
        else:
            verdict, seconds = time_solver(puzzle, args.repeat, args.timeout)
        ours.append(seconds)
        line = f"{label}\t{puzzle.size}\t{verdict}\t{seconds:.4f}"
        if per_seed:
            line += f"\tseeds {per_seed}"
        if args.vs == "sat":
            sat_verdict, sat_seconds = time_sat(puzzle)
            theirs.append(sat_seconds)
            ratio = sat_seconds / max(seconds, 1e-6)
            line += f"\tsat {sat_verdict}\t{sat_seconds:.4f}\tx{ratio:.1f}"
            if sat_verdict != verdict and verdict != "undecided":
                disagreements += 1
                line += "\tDISAGREE"
        print(line, flush=True)
    if not ours:
        print("no puzzles")
        return 1
    each = " (each puzzle at its median over the seeds)" if args.tie_break_seeds else ""
    print(f"# {len(ours)} puzzles: total {sum(ours):.2f} s, median {statistics.median(ours):.4f}"
          f" s, max {max(ours):.3f} s{each}")
    for column, seed in enumerate(args.tie_break_seeds or []):
        times = [per_puzzle[column] for per_puzzle in seed_times]
        print(f"# seed {seed}: total {sum(times):.2f} s, max {max(times):.3f} s, "
              f"over 5 s {sum(t > 5 for t in times)}")
    if theirs:
        print(f"# sat: total {sum(theirs):.2f} s, median {statistics.median(theirs):.4f} s, "
              f"max {max(theirs):.3f} s")
        print(f"# ratio sat/ours: total x{sum(theirs) / max(sum(ours), 1e-9):.1f}, "
              f"median x{statistics.median(theirs) / max(statistics.median(ours), 1e-9):.1f};"
              f" disagreements {disagreements}")
        per_puzzle = [mine / max(peer, 1e-9) for mine, peer in zip(ours, theirs, strict=True)]
        print(f"# median of the per-puzzle ratios ours/sat: {statistics.median(per_puzzle):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
