"""Tournament sets (TAAI / TCGA / ICGA): one `nonopress check` process per set, with SAT checks.

    python bench/bench_tournaments.py SET.txt... [--timeout S] [--first] [--sample N]
        [--seed S] [--no-sat] [--json OUT]

The sets are public in the NonogramRecord repository (zxkyjimmy/NonogramRecord, GPL-3.0:
read them from where you put them, never copy them into this project); two of them are in
``../shared/corpus/tournaments/question``. For each set: CPU seconds of the whole checking
process (the kernel's accounting of the finished child, start-up included once), verdict
counts, median and maximum per-puzzle CPU time (the records' ``cpu_s``), the ten slowest
puzzles, and the SAT peer's count on every unique puzzle and on a seeded sample of
``--sample`` others (disagreements are listed and make the exit status 1). ``--first``
runs ``nonopress solve --first`` instead and checks every solution found against the clues.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from grader import formats
from grader.errors import BundleError
from grader.model import Puzzle, clues_of_picture, rows_to_array

#: the first line `nonopress solve` prints for a puzzle of a many-puzzle file
HEADER = re.compile(r"^.*#(?P<index>\d+)(?: \(.*\))?: (?P<verdict>\w+), (?P<seconds>[\d.]+) s")


def child_run(argv: list[str]) -> tuple[float, str, int]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(argv, capture_output=True, text=True, cwd=tmp, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.stderr.strip():
        print(done.stderr.strip(), file=sys.stderr)
    return cpu, done.stdout, done.returncode


def read_set(path: Path) -> dict[int, Puzzle]:
    try:
        return dict(enumerate(formats.read(path, format="taai"), 1))
    except BundleError as exc:
        return dict(exc.readable)


def sat_count(puzzle: Puzzle) -> int:
    from grader.solver.sat_peer import count_solutions

    return count_solutions(puzzle, limit=2)[0]


def check_set(path: Path, args: argparse.Namespace) -> dict[str, Any]:
    command = [sys.executable, "-m", "nonopress", "check", "--json", "--timeout", str(args.timeout),
               str(path.resolve())]
    cpu, out, status = child_run(command)
    records = [json.loads(line) for line in out.splitlines() if line.strip()]
    verdicts: dict[str, int] = {}
    for record in records:
        verdicts[record["verdict"]] = verdicts.get(record["verdict"], 0) + 1
    # per puzzle, CPU seconds where the records have them (wall-clock times grow with the
    # machine's load, which would make a busy run's slowest puzzles look slower than they are)
    timed = "cpu_s" if records and all("cpu_s" in r for r in records) else "time_s"
    times = [record[timed] for record in records]
    slowest = sorted(records, key=lambda r: -r[timed])[:10]
    report: dict[str, Any] = {
        "set": path.stem, "puzzles": len(records), "cpu_s": round(cpu, 2), "exit": status,
        "verdicts": verdicts,
        "median_s": round(statistics.median(times), 4) if times else None,
        "max_s": round(max(times), 3) if times else None,
        "per_puzzle": timed,
        "slowest": [(r["index"], r["verdict"], r[timed]) for r in slowest],
    }
    if not args.no_sat:
        puzzles = read_set(path)
        unique = [r for r in records if r["verdict"] == "unique"]
        others = [r for r in records if r["verdict"] in ("multiple", "none")]
        sample = random.Random(args.seed).sample(others, min(args.sample, len(others)))
        disagreements = []
        for record in unique + sample:
            count = sat_count(puzzles[record["index"]])
            expected = {"unique": 1, "multiple": 2, "none": 0}[record["verdict"]]
            if count != expected:
                disagreements.append((record["index"], record["verdict"], count))
        report["sat_checked"] = len(unique) + len(sample)
        report["sat_disagreements"] = disagreements
    return report


def first_set(path: Path, args: argparse.Namespace) -> dict[str, Any]:
    command = [sys.executable, "-m", "nonopress", "solve", "--first", "--timeout",
               str(args.timeout), str(path.resolve())]
    cpu, out, status = child_run(command)
    puzzles = read_set(path)
    blocks: list[tuple[re.Match[str], list[str]]] = []
    for line in out.splitlines():
        header = HEADER.match(line)
        if header:
            blocks.append((header, []))
        elif blocks:
            blocks[-1][1].append(line)
    solved, wrong, times = 0, [], []
    for header, grid in blocks:
        index, verdict = int(header["index"]), header["verdict"]
        times.append(float(header["seconds"]))
        if verdict in ("solved", "unique", "multiple"):
            # the first grid (a multiple puzzle prints two side by side, with a header line)
            picture = rows_to_array([line.split()[0] for line in grid
                                     if line and set(line.split()[0]) <= set("#.")])
            puzzle = puzzles[index]
            if clues_of_picture(picture) == (puzzle.rows, puzzle.columns):
                solved += 1
            else:
                wrong.append(index)
    return {
        "set": path.stem, "puzzles": len(blocks), "cpu_s": round(cpu, 2), "exit": status,
        "solved_and_checked": solved, "wrong": wrong,
        "median_s": round(statistics.median(times), 4) if times else None,
        "max_s": round(max(times), 3) if times else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", type=Path)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--first", action="store_true")
    parser.add_argument("--sample", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-sat", action="store_true")
    parser.add_argument("--json", type=Path, help="also write the reports there")
    args = parser.parse_args(argv)
    reports = []
    failed = False
    for path in args.sets:
        report = first_set(path, args) if args.first else check_set(path, args)
        reports.append(report)
        print(json.dumps(report), flush=True)
        failed |= bool(report.get("sat_disagreements") or report.get("wrong"))
    if args.json:
        args.json.write_text(json.dumps(reports, indent=1) + "\n")
    print(f"\n{'set':10} {'n':>5} {'cpu s':>8} {'median':>8} {'max':>8}  verdicts / checks")
    for r in reports:
        extra = (f"{r['solved_and_checked']} solved and checked, {len(r['wrong'])} wrong"
                 if args.first else
                 f"{r['verdicts']} sat {r.get('sat_checked', '-')} "
                 f"disagree {len(r.get('sat_disagreements', []))}")
        print(f"{r['set']:10} {r['puzzles']:5} {r['cpu_s']:8.1f} {r['median_s']:8.4f} "
              f"{r['max_s']:8.3f}  {extra}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
