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

``--first-run`` measures what a new user pays instead (issue 58), from a fresh export of a
commit (``--ref``, default HEAD), a fresh virtual environment, a fresh HOME and no cache:
``pip install .`` (wall seconds and the installed size), the README's main job the first
and the second time, then the first colour grade of ``puzzles/colour/*``, the first
``fill puzzles/fillins/window-11.txt``, and the warm start-up of
``nonopress check puzzles/heart.yaml`` (CPU seconds of the whole process, median of 5):

    python bench/bench_startup.py --first-run --ref HEAD
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def child_cpu_seconds(argv: list[str], env: dict[str, str], cwd: str) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def timed(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, int]:
    """Wall and CPU seconds (user + system, children included) of one command; its status."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, check=False, timeout=3600)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):  # 1: the library's Loaded Die has two solutions
        sys.stderr.write(done.stderr[-2000:])
        raise SystemExit(f"failed ({done.returncode}): {' '.join(argv)}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.returncode


def folder_megabytes(folder: Path) -> float:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) / 1e6


def first_run(ref: str) -> int:
    """What a new user pays: install, first main job, first colour grade, first fill."""
    with tempfile.TemporaryDirectory(prefix="firstrun-") as tmp_name:
        tmp = Path(tmp_name)
        source, home, venv = tmp / "nonopress", tmp / "home", tmp / "venv"
        source.mkdir()
        home.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        env = {k: v for k, v in os.environ.items()
               if k not in ("NUMBA_CACHE_DIR", "NONOPRESS_CACHE_DIR", "VIRTUAL_ENV",
                            "PYTHONPATH", "XDG_CACHE_HOME", "PIP_CACHE_DIR")}
        env["HOME"] = str(home)
        env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        nonopress = str(venv / "bin" / "nonopress")
        rows: list[tuple[str, float, float]] = []

        def run(label: str, argv: list[str]) -> None:
            wall, cpu, _ = timed(argv, env, source)
            rows.append((label, wall, cpu))
            print(f"{label:46} {wall:8.1f} {cpu:8.1f}", flush=True)

        print(f"first run of {ref} ({subprocess.run(['git', '-C', str(ROOT), 'rev-parse', '--short', ref], capture_output=True, text=True).stdout.strip()})")  # noqa: E501
        print(f"{'step':46} {'wall s':>8} {'cpu s':>8}")
        run("pip install .", [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "."])
        site = next((venv / "lib").glob("python*/site-packages"))
        library = sorted(str(p.relative_to(source)) for p in (source / "puzzles").glob("*.yaml"))
        colour = sorted(str(p.relative_to(source)) for p in (source / "puzzles/colour").glob("*"))
        main_job = ["sh", "-c", f"{nonopress} grade {' '.join(library)}; "
                    f"{nonopress} issue puzzles/issues/sample.yaml -o issue.pdf"]
        run("README main job, first run", main_job)
        run("README main job, second run", main_job)
        run("first colour grade puzzles/colour/*", [nonopress, "grade", *colour])
        run("first fill puzzles/fillins/window-11.txt",
            [nonopress, "fill", "puzzles/fillins/window-11.txt"])
        check = [nonopress, "check", "puzzles/heart.yaml"]
        timed(check, env, source)
        cpu = statistics.median(timed(check, env, source)[1] for _ in range(5))
        floor = statistics.median(timed([str(venv / "bin" / "python"), "-c", "pass"], env,
                                        source)[1] for _ in range(5))
        numpy = statistics.median(timed([str(venv / "bin" / "python"), "-c", "import numpy"],
                                        env, source)[1] for _ in range(5))
        yaml = statistics.median(timed([str(venv / "bin" / "python"), "-c", "import yaml"],
                                       env, source)[1] for _ in range(5))
        print(f"{'warm check puzzles/heart.yaml (median of 5)':46} {'':8} {cpu:8.3f}")
        print(f"{'  python -c pass / import numpy (same run)':46} {floor:8.3f} {numpy:8.3f}")
        # what a check cannot go below: the interpreter and the YAML reader
        print(f"{'  import yaml (same run)':46} {'':8} {yaml:8.3f}")
        print(f"{'install size, site-packages MB':46} {folder_megabytes(site):8.0f}")
        jit = [site / name for name in ("numba", "llvmlite")]
        print(f"{'  of which numba + llvmlite MB':46} "
              f"{sum(folder_megabytes(p) for p in jit if p.is_dir()):8.0f}")
        print(f"{'  of which nonopress packages MB':46} "
              f"{sum(folder_megabytes(site / p) for p in ('grader', 'words', 'layout', 'nonopress')):8.0f}")  # noqa: E501
        cache = home / ".cache"
        print(f"{'user cache after the runs MB':46} "
              f"{folder_megabytes(cache) if cache.is_dir() else 0.0:8.1f}")
        shutil.rmtree(home, ignore_errors=True)
    return 0


def _cat_picture(path: Path) -> None:
    """The project's cat silhouette, drawn (no file of the checkout is needed)."""
    from grader.authoring.drawings import draw

    draw("cat", "silhouette").save(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--src", type=Path, help="a checkout whose grader package to run")
    parser.add_argument("--first-run", action="store_true",
                        help="install a commit into a fresh venv and time its first runs")
    parser.add_argument("--ref", default="HEAD", help="the commit --first-run installs")
    args = parser.parse_args(argv)
    if args.first_run:
        return first_run(args.ref)
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
