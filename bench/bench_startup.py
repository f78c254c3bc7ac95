"""Start-up cost of the command line: CPU seconds of whole `nonopress` processes.

    python bench/bench_startup.py [--repeat N] [--src DIR]

Commands: --version, check and grade of an easy and a hard puzzle, and a warm ``make`` of
a 25x25 puzzle from a drawn picture. Runs each command ``--repeat`` times as a fresh
process (after one warm-up run that fills numba's cache) and prints the median and minimum
CPU time (user + system, from the kernel's accounting of the finished child), beside the
floor of an interpreter that imports nothing (``python -c pass``), measured in the same
run. ``--src DIR`` runs the ``grader`` package found in DIR instead of the installed one,
to compare a checkout of an older commit:

    git worktree add /tmp/before HEAD~3
    python bench/bench_startup.py --src /tmp/before
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def child_cpu_seconds(argv: list[str], env: dict[str, str], cwd: str) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _cat_picture(path: Path) -> None:
    """The project's cat silhouette, drawn (no file of the checkout is needed)."""
    from grader.authoring.drawings import draw

    draw("cat", "silhouette").save(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--src", type=Path, help="a checkout whose grader package to run")
    args = parser.parse_args(argv)
    env = dict(os.environ)
    if args.src is not None:
        env["PYTHONPATH"] = str(args.src.resolve())
    with tempfile.TemporaryDirectory() as tmp:
        easy = Path(tmp) / "heart.non"
        hard = Path(tmp) / "loaded-die.non"
        nonopress = [sys.executable, "-m", "nonopress"]
        for source, target in (("heart", easy), ("loaded-die", hard)):
            subprocess.run([*nonopress, "convert", str(ROOT / f"puzzles/{source}.yaml"),
                            str(target)], env=env, cwd=tmp, check=True)
        picture = Path(tmp) / "cat-25.png"
        _cat_picture(picture)
        cases = {
            "python -c pass (floor)": [sys.executable, "-c", "pass"],
            "nonopress --version": [*nonopress, "--version"],
            "nonopress check heart.non": [*nonopress, "check", str(easy)],
            "nonopress check loaded-die.non": [*nonopress, "check", str(hard)],
            "nonopress grade heart.non": [*nonopress, "grade", str(easy)],
            # a warm make on a 25x25 picture (issue 36: under 1 s of CPU, whole process)
            "nonopress make cat 25x25": [*nonopress, "make", str(picture), "--size", "25x25",
                                         "-q", "-o", str(Path(tmp) / "cat.yaml")],
        }
        print(f"{'command':34} {'median cpu s':>13} {'min cpu s':>10}")
        for label, command in cases.items():
            # the first run fills numba's cache; from a temporary folder, so that `-m nonopress`
            # finds the installed package (or --src), not one in the working directory
            child_cpu_seconds(command, env, tmp)
            times = [child_cpu_seconds(command, env, tmp) for _ in range(args.repeat)]
            print(f"{label:34} {statistics.median(times):13.3f} {min(times):10.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
