"""Grade a whole archive with `nonopress batch` machinery at 1 and 2 processes; report speed-up.

    python bench/bench_batch.py [PATHS...] [--jobs 1 2] [--timeout S] [--scheduler local]

Without PATHS it grades the public corpus beside the repository (``../shared/corpus``)
except ``tournaments/`` (2,000 random 25x25 puzzles, most with several solutions: hours
of work, not a benchmark run). Each run starts from an empty results database in a
temporary folder and is timed end to end (finding and reading files, worker start-up,
grading, one committed row per puzzle), so puzzles/second is what a user sees.

The per-puzzle budget (``--timeout``) caps the hard puzzles; a puzzle that runs out is
recorded ``undecided``, which the table shows, so compare runs with the same budget.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nonopress.batch.run import BatchOptions, run_batch  # noqa: E402
from nonopress.batch.store import ResultStore  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
SKIPPED = {"tournaments"}


def default_paths() -> list[str]:
    if not CORPUS.is_dir():
        sys.exit(f"the corpus is not at {CORPUS}; name the files or folders to grade")
    return [str(p) for p in sorted(CORPUS.iterdir()) if p.is_dir() and p.name not in SKIPPED]


def one_run(
    paths: list[str], jobs: int, timeout_s: float, scheduler: str | None
) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="bench-batch-") as folder:
        options = BatchOptions(
            paths=tuple(paths),
            out=Path(folder),
            jobs=jobs,
            timeout_s=timeout_s,
            scheduler=scheduler,
        )
        started = time.perf_counter()
        run_batch(options, log=io.StringIO(), tty=False)
        wall = time.perf_counter() - started
        with ResultStore.open_existing(folder) as store:
            rows = list(store.rows())
    puzzles = [r for r in rows if not r.key.startswith("unreadable-")]
    return {
        "jobs": jobs,
        "wall_s": wall,
        "puzzles": len(puzzles),
        "rate": len(puzzles) / wall,
        "work_s": sum(r.time_s for r in puzzles),
        "statuses": Counter(r.status for r in rows),
        "verdicts": {r.key: r.verdict for r in puzzles},
        "slowest": sorted(puzzles, key=lambda r: -r.time_s)[:5],
        "failed": [r for r in rows if r.status == "failed"],
        "labels": {r.key: r.label for r in puzzles},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="*", help="files or folders (default: the corpus)")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--timeout", type=float, default=5.0, help="budget per puzzle (s)")
    parser.add_argument("--scheduler", help="a Dask scheduler address or 'local'")
    args = parser.parse_args()
    paths = args.paths or default_paths()
    print(f"grading {', '.join(Path(p).name for p in paths)} (budget {args.timeout:g} s a puzzle)")

    runs = []
    for jobs in args.jobs:
        run = one_run(paths, jobs, args.timeout, args.scheduler)
        runs.append(run)
        statuses = ", ".join(f"{n} {s}" for s, n in sorted(run["statuses"].items()))  # type: ignore[attr-defined]
        print(
            f"jobs={jobs}: {run['puzzles']} puzzles in {run['wall_s']:.1f} s wall = "
            f"{run['rate']:.2f} puzzles/s; grading time summed over puzzles "
            f"{run['work_s']:.1f} s ({statuses})"
        )
        for row in run["failed"]:  # type: ignore[attr-defined]
            print(f"    failed: {row.label}: {row.error}")
        for row in run["slowest"]:  # type: ignore[attr-defined]
            print(
                f"    slowest: {row.label} {row.width}x{row.height} {row.time_s:.2f} s {row.status}"
            )
    base = runs[0]
    for run in runs[1:]:
        speedup = float(base["wall_s"]) / float(run["wall_s"])  # type: ignore[arg-type]
        same = run["verdicts"] == base["verdicts"]
        for key, verdict in sorted(base["verdicts"].items()):  # type: ignore[attr-defined]
            other = run["verdicts"].get(key)  # type: ignore[attr-defined]
            if other != verdict:  # puzzles near the budget can end either way
                print(f"    verdict differs: {run['labels'][key]}: {verdict} vs {other}")  # type: ignore[index]
        print(
            f"speed-up jobs={run['jobs']} over jobs={base['jobs']}: {speedup:.2f}x "
            f"(verdicts {'identical' if same else 'DIFFER'})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
