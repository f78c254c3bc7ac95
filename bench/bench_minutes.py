"""How the minutes hold on puzzles no fit has read: the held-out griddlers.net puzzles.

    nice -n 19 python bench/bench_minutes.py PATH [--out DIR] [--sizes 10,15,20,25,30]
        [--by-area] [--kind KIND] [--seconds 60] [--chunk 100] [--write FILE]

PATH is the lufton/non-grabber scrape's ``puzzles`` folder (or its ``griddlers_net``
folder). The puzzles checked are the held-out ones (bench/held_out.py: ids ending in 7,
which no fitting script reads), square, of the ``--sizes`` sides (``--by-area``: of every
shape up to 50 a side, in the fits' strata), with a members' median time. Each is graded
by ``nonopress grade --json`` itself (run on a chunk of files at a time, so the figures
are the ones a user gets); the JSON lines are kept in ``--out`` by grader version, so an
interrupted run resumes and a changed model grades again.

The tables, black and white and colour, per size and across sizes: the median measured
and predicted minutes, the median |ln(measured / predicted)| and the sd of that ratio,
the share within a factor of 2, Spearman's rho with how sure it is (a seeded bootstrap
interval), the share of measured times inside [minutes_low, minutes_high], and how the
error drifts with the order puzzles were posted in (see :func:`row`); under each, the
rho within a size pooled over the sizes (:func:`pooled_rho`) and issue 59's targets.
Puzzles with no minutes (several solutions, none, undecided) are counted and left out of
the figures.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import numpy as np  # noqa: E402
from calibrate_human import spearman  # noqa: E402
from calibrate_times import AREA_BANDS, KINDS, NAMED_SIZES, Timed, find_timed  # noqa: E402

from grader.atomic import atomic_write  # noqa: E402
from grader.ladder import grader_version  # noqa: E402


def scrape_root(path: Path) -> Path:
    """The folder of griddlers.net's files: PATH itself or its ``griddlers_net``."""
    inner = path / "griddlers_net"
    return inner if inner.is_dir() else path


#: the fits' strata (bench/calibrate_times.py), the rows of ``--by-area``
STRATA = (*NAMED_SIZES, *(label for _, label in AREA_BANDS))
#: with ``--by-area``, puzzles up to this many cells a side (as the fits read)
MAX_SIDE = 50


def held_out_puzzles(root: Path, sides: Sequence[int], *, by_area: bool = False
                     ) -> dict[str, list[Timed]]:
    """The held-out timed puzzles of each kind, square, of these sides (``by_area``: of
    every shape up to :data:`MAX_SIDE` a side)."""
    def wanted(t: Timed) -> bool:
        if by_area:
            return max(t.width, t.height) <= MAX_SIDE
        return t.width == t.height and t.width in sides

    return {kind: [t for t in find_timed(root, held=True, kind=kind) if wanted(t)]
            for kind in KINDS}


#: a row of a table: its name and which puzzles it holds
Group = tuple[str, Callable[[Timed], bool]]


def groups_of(sides: Sequence[int], *, by_area: bool = False) -> list[Group]:
    """The rows under "all": one a side, or (``by_area``) the fits' strata: the named
    square sizes, then the other shapes in bands of area."""
    def in_stratum(name: str) -> Callable[[Timed], bool]:
        return lambda t: t.stratum == name

    def of_side(side: int) -> Callable[[Timed], bool]:
        return lambda t: t.width == side

    if by_area:
        return [(name, in_stratum(name)) for name in STRATA]
    return [(f"{side}x{side}", of_side(side)) for side in sides]


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
    log_error: float  # median |ln(measured / predicted)|
    spread: float  # sd of ln(measured / predicted)
    within_2: float
    rho: float
    inside: float
    low: float  # the 5th and 95th percentiles of the rho over seeded resamples
    high: float
    drift: float  # Spearman's rho of ln(measured / predicted) with the griddlers.net id


#: resamples for the intervals of the rho (seeded: the same table on every run)
RESAMPLES = 1000


def row(name: str, measured: np.ndarray, predicted: np.ndarray, ranges: np.ndarray,
        ids: Sequence[int], unrated: int, rng: np.random.Generator) -> Row:
    """The figures of one group: ``ranges`` holds each puzzle's (low, high) minutes.

    The interval is the 5th to 95th percentile of the rho over resamples of the puzzles
    (drawn with replacement). The drift is Spearman's rho between each puzzle's error
    ln(measured / predicted) and its griddlers.net id, which grows with the date it was
    posted: the members who timed an old puzzle are not those who timed a new one, and no
    grade can see which it was.
    """
    nan = float("nan")
    if len(measured) < 3:
        return Row(name, len(measured), unrated, nan, nan, nan, nan, nan, nan, nan, nan, nan,
                   nan)
    error = np.log(measured / predicted)
    rho = spearman(list(predicted), list(measured))
    draws = [rng.integers(0, len(measured), len(measured)) for _ in range(RESAMPLES)]
    # a resample of one repeated value has no rho: left out
    low, high = np.nanpercentile([spearman(list(predicted[d]), list(measured[d])) for d in draws],
                                 [5, 95])
    inside = (ranges[:, 0] <= measured) & (measured <= ranges[:, 1])
    return Row(name, len(measured), unrated, float(np.median(measured)),
               float(np.median(predicted)), float(np.median(np.abs(error))),
               float(np.std(error, ddof=1)), float(np.mean(np.abs(error) <= np.log(2))), rho,
               float(np.mean(inside)), float(low), float(high), spearman(list(error), list(ids)))


def pooled_rho(rows: Sequence[Row]) -> float:
    """The rho within a size, pooled over the sizes weighted by their counts: one figure
    for how a model orders puzzles of one size, less at the mercy of one small size's
    sample than the lowest of them."""
    counted = [(r.n, r.rho) for r in rows if r.n >= 3]
    total = sum(n for n, _ in counted)
    return sum(n * rho for n, rho in counted) / total if total else float("nan")


def rows_of(items: Sequence[tuple[Timed, dict[str, object] | None]], groups: Sequence[Group]
            ) -> list[Row]:
    """The row of all the items, then one a group (seeded resamples: the same every run)."""
    from grader.held_out import file_id

    rng = np.random.default_rng(47)
    parts = [("all", items), *((name, [(t, r) for t, r in items if holds(t)])
                               for name, holds in groups)]
    rows = []
    for name, group in parts:
        rated = [(t, r) for t, r in group if r is not None and r.get("minutes") is not None]
        measured = np.array([t.minutes for t, _ in rated])
        predicted = np.array([float(r["minutes"]) for _, r in rated])  # type: ignore[arg-type]
        ranges = np.array([(float(r["minutes_low"]), float(r["minutes_high"]))  # type: ignore[arg-type]
                           for _, r in rated]).reshape(-1, 2)
        ids = [file_id(t.path.name) or 0 for t, _ in rated]
        rows.append(row(name, measured, predicted, ranges, ids, len(group) - len(rated), rng))
    return rows


@dataclass(frozen=True)
class Targets:
    """What issue 59 asks of a kind on the held-out puzzles."""

    log_error: float  # median |ln| at most
    spread: float  # sd of the ln ratio at most
    across: float  # rho across sizes at least
    pooled: float  # pooled within-size rho at least
    floor: float  # no size whose interval's upper bound is under this


TARGETS = {"black-and-white": Targets(0.15, 0.18, 0.97, 0.91, 0.85),
           "colour": Targets(0.18, 0.22, 0.95, 0.88, 0.80)}


def checks(kind: str, rows: Sequence[Row]) -> list[tuple[str, bool, str]]:
    """Each target of the kind: its name, whether it is met, and the figure against it."""
    target = TARGETS[kind]
    overall, sizes = rows[0], [r for r in rows[1:] if r.n >= 3]
    pooled = pooled_rho(sizes)
    short = [r.name for r in sizes if r.high < target.floor]
    return [
        ("median |ln|", overall.log_error <= target.log_error,
         f"{overall.log_error:.3f} <= {target.log_error}"),
        ("sd of ln", overall.spread <= target.spread, f"{overall.spread:.3f} <= {target.spread}"),
        ("rho across sizes", overall.rho >= target.across, f"{overall.rho:.4f} >= {target.across}"),
        ("pooled rho within a size", pooled >= target.pooled,
         f"{pooled:.4f} >= {target.pooled}"),
        (f"no size's 90% upper bound under {target.floor}", not short,
         ", ".join(short) or "none"),
    ]


def table(kind: str, timed: Sequence[Timed], cache: GradeCache, groups: Sequence[Group],
          *, targets: bool = True) -> list[str]:
    """The kind's figures per size and across sizes, with how sure each rho is, the
    drift with the posting order, and (``targets``: for the square sizes) the pooled rho
    within a size and the targets."""
    rows = rows_of([(t, cache.records.get(str(t.path))) for t in timed], groups)
    lines = [f"### {kind}", "",
             "| size | n | no minutes | measured (median min) | predicted (median min) | "
             "median \\|ln\\| | sd of ln | within 2x | rho | 90% interval | in range | "
             "drift |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r.name} | {r.n} | {r.unrated} | {r.measured:.1f} | "
                     f"{r.predicted:.1f} | {r.log_error:.3f} | {r.spread:.3f} | "
                     f"{r.within_2:.0%} | {r.rho:+.3f} | {r.low:+.3f} .. {r.high:+.3f} | "
                     f"{r.inside:.0%} | {r.drift:+.3f} |")
    if not targets:
        return lines
    lines += ["", f"Pooled rho within a size (weighted by count): {pooled_rho(rows[1:]):+.3f}",
              "", "Targets: " + "; ".join(f"{name} {'met' if ok else 'NOT met'} ({text})"
                                          for name, ok, text in checks(kind, rows))]
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
    parser.add_argument("--by-area", action="store_true",
                        help=f"every held-out timed puzzle up to {MAX_SIDE} a side, in the "
                             "fits' strata (the named square sizes, other shapes by area)")
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
    puzzles = held_out_puzzles(root, sides, by_area=args.by_area)
    groups = groups_of(sides, by_area=args.by_area)
    kinds = [args.kind] if args.kind else list(KINDS)
    if not any(puzzles[kind] for kind in kinds):
        print(f"{root}: no held-out (id ending in 7) timed puzzle of those sizes",
              file=sys.stderr)
        return 2
    cache = GradeCache(args.out)
    for kind in kinds:
        grade([t.path for t in puzzles[kind]], cache, args.seconds, args.chunk)
    which = (f"every shape up to {MAX_SIDE} a side, by area" if args.by_area else
             f"square {sides[0]}x{sides[0]} to {sides[-1]}x{sides[-1]}")
    lines = [f"## Minutes on held-out griddlers.net puzzles (ids ending in 7, {which})", "",
             f"Graded by `nonopress grade --json --seconds {args.seconds:g}`, grader "
             f"{cache.version}.", ""]
    for kind in kinds:
        lines += [*table(kind, puzzles[kind], cache, groups, targets=not args.by_area), ""]
    text = "\n".join(lines)
    print(text)
    if args.write:
        atomic_write(args.write, text.encode("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
