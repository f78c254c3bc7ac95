"""How the minutes hold on puzzles no fit has read: the held-out griddlers.net puzzles.

    nice -n 19 python bench/bench_minutes.py PATH [--out DIR] [--sizes 10,15,20,25,30]
        [--seconds 60] [--chunk 100] [--write FILE]

PATH is the lufton/non-grabber scrape's ``puzzles`` folder (or its ``griddlers_net``
folder). The puzzles checked are the held-out ones (bench/held_out.py: ids ending in 7,
which no fitting script reads), square, of the ``--sizes`` sides, with a members' median
time. Each is graded by ``nonopress grade --json`` itself (run on a chunk of files at a
time, so the figures are the ones a user gets); the JSON lines are kept in ``--out`` by
grader version, so an interrupted run resumes and a changed model grades again.

The tables, black and white and colour, per size and across sizes: the median measured
and predicted minutes, the median |ln(predicted / measured)|, the share within a factor
of 2, Spearman's rho, and the share of measured times inside [minutes_low,
minutes_high]; then how sure each rho is (a seeded bootstrap interval) and how the
errors drift with the order puzzles were posted in (see :func:`uncertainty`). Puzzles
with no minutes (several solutions, none, undecided) are counted and left out of the
figures.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import numpy as np  # noqa: E402
from calibrate_human import spearman  # noqa: E402
from calibrate_times import KINDS, Timed, find_timed  # noqa: E402

from grader.atomic import atomic_write  # noqa: E402
from grader.ladder import grader_version  # noqa: E402

#: what the issue asks of each kind: median |ln|, share within 2x, rho across, rho within
TARGETS = {"black-and-white": (0.25, 0.80, 0.97, 0.85), "colour": (0.26, 0.80, 0.95, 0.80)}


def scrape_root(path: Path) -> Path:
    """The folder of griddlers.net's files: PATH itself or its ``griddlers_net``."""
    inner = path / "griddlers_net"
    return inner if inner.is_dir() else path


def held_out_puzzles(root: Path, sides: Sequence[int]) -> dict[str, list[Timed]]:
    """The held-out timed puzzles of each kind, square, of these sides."""
    return {kind: [t for t in find_timed(root, held=True, kind=kind)
                   if t.width == t.height and t.width in sides]
            for kind in KINDS}


class GradeCache:
    """``grades.jsonl`` in ``folder``: one ``grade --json`` record a line, with the grader
    version that made it; records of another version are graded again."""

    def __init__(self, folder: Path):
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / "grades.jsonl"
        self.version = grader_version()
        self.records: dict[str, dict[str, object]] = {}
        if self.path.exists():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:  # a line cut short by a kill
                    continue
                if record.get("grader_version") == self.version:
                    self.records[str(record["file"])] = record

    def add(self, records: Sequence[dict[str, object]]) -> None:
        with self.path.open("a", encoding="utf-8") as out:
            for record in records:
                record["grader_version"] = self.version
                self.records[str(record["file"])] = record
                out.write(json.dumps(record) + "\n")


def grade(files: Sequence[Path], cache: GradeCache, seconds: float, chunk: int) -> None:
    """``nonopress grade --json`` over the files the cache lacks, a chunk at a time."""
    todo = [path for path in files if str(path) not in cache.records]
    print(f"{len(files)} puzzles, {len(files) - len(todo)} already graded by this version",
          file=sys.stderr)
    for start in range(0, len(todo), chunk):
        part = todo[start:start + chunk]
        command = [sys.executable, "-m", "nonopress", "grade", "--json", "--seconds",
                   f"{seconds:g}", *map(str, part)]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        records = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
        if not records and done.returncode == 2:
            print(done.stderr.strip()[-400:], file=sys.stderr)
        cache.add(records)
        print(f"  graded {min(start + chunk, len(todo))}/{len(todo)}", file=sys.stderr,
              flush=True)


@dataclass(frozen=True)
class Row:
    name: str
    n: int
    unrated: int  # graded but with no minutes (a defect or undecided)
    measured: float
    predicted: float
    log_error: float
    within_2: float
    rho: float
    inside: float


def row(name: str, items: Sequence[tuple[Timed, dict[str, object] | None]]) -> Row:
    rated = [(t, r) for t, r in items if r is not None and r.get("minutes") is not None]
    if not rated:
        nan = float("nan")
        return Row(name, 0, len(items), nan, nan, nan, nan, nan, nan)
    measured = np.array([t.minutes for t, _ in rated])
    predicted = np.array([float(r["minutes"]) for _, r in rated])  # type: ignore[arg-type]
    low = np.array([float(r["minutes_low"]) for _, r in rated])  # type: ignore[arg-type]
    high = np.array([float(r["minutes_high"]) for _, r in rated])  # type: ignore[arg-type]
    error = np.abs(np.log(predicted / measured))
    return Row(name, len(rated), len(items) - len(rated), float(np.median(measured)),
               float(np.median(predicted)), float(np.median(error)),
               float(np.mean(error <= np.log(2))), spearman(list(predicted), list(measured)),
               float(np.mean((low <= measured) & (measured <= high))))


def table(kind: str, timed: Sequence[Timed], cache: GradeCache, sides: Sequence[int]
          ) -> list[str]:
    items = [(t, cache.records.get(str(t.path))) for t in timed]
    rows = [row("all", items)]
    rows += [row(f"{side}x{side}", [(t, r) for t, r in items if t.width == side])
             for side in sides]
    ln_target, x2_target, rho_target, within_target = TARGETS[kind]
    lines = [f"### {kind}", "",
             "| size | n | no minutes | measured (median min) | predicted (median min) | "
             "median \\|ln\\| | within 2x | Spearman rho | in range |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r.name} | {r.n} | {r.unrated} | {r.measured:.1f} | "
                     f"{r.predicted:.1f} | {r.log_error:.3f} | {r.within_2:.0%} | "
                     f"{r.rho:+.3f} | {r.inside:.0%} |")
    overall, sizes = rows[0], rows[1:]
    lowest = min((r.rho for r in sizes if r.n >= 3), default=float("nan"))
    checks = [
        ("median |ln|", overall.log_error <= ln_target, f"{overall.log_error:.3f} <= {ln_target}"),
        ("within 2x", overall.within_2 >= x2_target, f"{overall.within_2:.1%} >= {x2_target:.0%}"),
        ("rho across sizes", overall.rho >= rho_target, f"{overall.rho:.4f} >= {rho_target}"),
        ("rho within each size", lowest >= within_target,
         f"lowest {lowest:.4f} >= {within_target}"),
    ]
    lines += ["", "Targets: " + "; ".join(f"{name} {'met' if ok else 'NOT met'} ({text})"
                                           for name, ok, text in checks)]
    return lines


#: resamples for the intervals of the rho (seeded: the same table on every run)
RESAMPLES = 1000


def uncertainty(kind: str, timed: Sequence[Timed], cache: GradeCache, sides: Sequence[int]
                ) -> list[str]:
    """How sure each rho is, and what the measured times carry besides the puzzle.

    The interval is the 5th to 95th percentile of the rho over resamples of the puzzles
    (drawn with replacement, seeded). The drift is Spearman's rho between each puzzle's
    error ln(measured / predicted) and its griddlers.net id, which grows with the date it
    was posted: the members who timed an old puzzle are not those who timed a new one, and
    no grade can see which it was.
    """
    from grader.held_out import file_id

    rng = np.random.default_rng(47)
    lines = [f"#### {kind}: how sure", "",
             "| size | n | rho | 90% interval | error vs posting order (rho) |",
             "|---|---|---|---|---|"]
    groups = [("all", timed), *((f"{side}x{side}", [t for t in timed if t.width == side])
                                for side in sides)]
    for name, group in groups:
        pairs = [(t, cache.records.get(str(t.path))) for t in group]
        rated = [(t, r) for t, r in pairs if r is not None and r.get("minutes") is not None]
        if len(rated) < 5:
            continue
        predicted = np.array([float(r["minutes"]) for _, r in rated])  # type: ignore[arg-type]
        measured = np.array([t.minutes for t, _ in rated])
        ids = [file_id(t.path.name) or 0 for t, _ in rated]
        rho = spearman(list(predicted), list(measured))
        draws = [rng.integers(0, len(rated), len(rated)) for _ in range(RESAMPLES)]
        spread = [spearman(list(predicted[d]), list(measured[d])) for d in draws]
        low, high = np.percentile(spread, [5, 95])
        drift = spearman(list(np.log(measured / predicted)), ids)
        lines.append(f"| {name} | {len(rated)} | {rho:+.3f} | {low:+.3f} .. {high:+.3f} | "
                     f"{drift:+.3f} |")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path, help="the scrape's puzzles (or griddlers_net) folder")
    parser.add_argument("--out", type=Path, default=Path("/tmp/bench_minutes"))
    parser.add_argument("--sizes", default="10,15,20,25,30",
                        help="sides of the square puzzles checked (default 10,15,20,25,30)")
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="grade's time budget per puzzle (default 60, as grade's own)")
    parser.add_argument("--chunk", type=int, default=100, help="files per grade command")
    parser.add_argument("--kind", choices=KINDS, help="one kind only")
    parser.add_argument("--write", type=Path, help="the tables as Markdown to this file too")
    args = parser.parse_args(argv)
    root = scrape_root(args.path)
    if not root.is_dir():
        print(f"{args.path}: no such folder", file=sys.stderr)
        return 2
    try:
        sides = [int(v) for v in args.sizes.split(",")]
    except ValueError:
        print(f"--sizes {args.sizes!r}: sides separated by commas, e.g. 10,15,20", file=sys.stderr)
        return 2
    puzzles = held_out_puzzles(root, sides)
    kinds = [args.kind] if args.kind else list(KINDS)
    if not any(puzzles[kind] for kind in kinds):
        print(f"{root}: no held-out (id ending in 7) timed square puzzle", file=sys.stderr)
        return 2
    cache = GradeCache(args.out)
    for kind in kinds:
        grade([t.path for t in puzzles[kind]], cache, args.seconds, args.chunk)
    lines = [f"## Minutes on held-out griddlers.net puzzles (ids ending in 7, square "
             f"{sides[0]}x{sides[0]} to {sides[-1]}x{sides[-1]})", "",
             f"Graded by `nonopress grade --json --seconds {args.seconds:g}`, grader "
             f"{cache.version}.", ""]
    for kind in kinds:
        lines += [*table(kind, puzzles[kind], cache, sides), "",
                  *uncertainty(kind, puzzles[kind], cache, sides), ""]
    text = "\n".join(lines)
    print(text)
    if args.write:
        atomic_write(args.write, text.encode("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
