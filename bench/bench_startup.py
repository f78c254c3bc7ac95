"""Start-up cost of the command line: CPU seconds of whole `nonopress` processes.

    python bench/bench_startup.py [--repeat N] [--src DIR] [--ref COMMIT]

Commands: --version, check of heart.yaml (issue 58's figure), check and grade of an easy
and a hard puzzle, and a warm ``make`` of a 25x25 puzzle from a drawn picture. Runs each
command ``--repeat`` times as a fresh process (after one warm-up run that fills numba's
cache and writes the bytecode) and prints the median and minimum CPU time (user + system,
from the kernel's accounting of the finished child), beside the floors measured in the same
run: an interpreter that imports nothing (``python -c pass``, and ``-S`` without the site
module) and one that imports PyYAML alone. The code runs as after ``pip install .``: from
PYTHONPATH in a bare venv that sees this interpreter's packages, without an editable
install's finder (which imports pathlib and re before any command), through what pip's
``nonopress`` script runs. ``--src DIR`` runs the checkout in DIR instead of this one;
``--ref COMMIT`` runs an export of that commit too, each repeat of the two one after the
other, so that a before and after see the same load:

    python bench/bench_startup.py --ref main

``--first-run`` measures what a new user pays instead (issue 58), from a fresh export of a
commit (``--ref``, default HEAD), a fresh virtual environment, a fresh HOME and no cache:
``pip install .`` (wall seconds and the installed size), the README's main job the first
and the second time, then the first colour grade of ``puzzles/colour/*``, the first
``fill puzzles/fillins/window-11.txt``, and the warm start-up of
``nonopress check puzzles/heart.yaml`` (CPU seconds of the whole process, median of 5):

    python bench/bench_startup.py --first-run --ref HEAD

(without ``nice``: the install step runs under nice itself, the first runs at the user's
priority; under ``nice`` on a busy machine their wall time is mostly waiting)
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


def child_cpu_seconds(argv: list[str], env: dict[str, str], cwd: str,
                      timeout: float = 600) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False, timeout=timeout)
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
        # the build (minutes of CPU) yields to the machine's other work; run this script
        # itself without nice, so that the first runs below are timed as a user waits
        nice = ["nice", "-n", "10"] if shutil.which("nice") else []
        run("pip install . (under nice)",
            [*nice, str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "."])
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


#: what the ``nonopress`` script pip writes runs (``-c`` leaves the arguments after it)
CONSOLE_SCRIPT = "import re, sys; from nonopress.cli import entry_point; sys.exit(entry_point())"


def bare_venv(folder: Path) -> Path:
    """A virtual environment that sees this interpreter's packages through a ``.pth`` line
    (a path only: the ``.pth`` files there, an editable install's finder among them, are not
    run), so the code comes from PYTHONPATH and starts as after ``pip install .``; its
    python."""
    import site

    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    target = next((folder / "lib").glob("python*/site-packages"))
    (target / "deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    return folder / "bin" / "python"


def side_by_side(args: argparse.Namespace) -> int:
    """Each command's CPU seconds for this checkout (or --src) and, with --ref, for that
    commit, the two runs of each repeat one after the other so that the load falls alike."""
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        python = bare_venv(tmp / "venv")
        sides = {"this": (args.src or ROOT).resolve()}
        if args.ref:
            export = tmp / "ref"
            export.mkdir()
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.ref], check=True,
                                     capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", str(export)], input=archive, check=True)
            sides[args.ref] = export
        # bytecode written as an install has it (a developer's shell may forbid it)
        base = {k: v for k, v in os.environ.items()
                if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
        envs = {side: {**base, "PYTHONPATH": str(folder)} for side, folder in sides.items()}
        easy, hard, heart = tmp / "heart.non", tmp / "loaded-die.non", tmp / "heart.yaml"
        shutil.copyfile(ROOT / "puzzles/heart.yaml", heart)
        nonopress = [str(python), "-c", CONSOLE_SCRIPT]
        for source, target in (("heart", easy), ("loaded-die", hard)):
            subprocess.run([*nonopress, "convert", str(ROOT / f"puzzles/{source}.yaml"),
                            str(target)], env=envs["this"], cwd=tmp, check=True)
        picture = tmp / "cat-25.png"
        _cat_picture(picture)
        floors = {  # what no command can go below: the interpreter, and the YAML reader
            "python -c pass (floor)": [str(python), "-c", "pass"],
            "python -S -c pass (no site)": [str(python), "-S", "-c", "pass"],
            "python -c 'import yaml'": [str(python), "-c", "import yaml"],
        }
        cases = {
            "nonopress --version": [*nonopress, "--version"],
            "nonopress check heart.yaml": [*nonopress, "check", str(heart)],
            "nonopress check heart.non": [*nonopress, "check", str(easy)],
            "nonopress check loaded-die.non": [*nonopress, "check", str(hard)],
            "nonopress grade heart.non": [*nonopress, "grade", str(easy)],
            # a warm make on a 25x25 picture (issue 36: under 1 s of CPU, whole process)
            "nonopress make cat 25x25": [*nonopress, "make", str(picture), "--size", "25x25",
                                         "-q", "-o", str(tmp / "cat.yaml")],
        }
        print(f"{'command':32} {'side':>8} {'median cpu s':>13} {'min cpu s':>10}")
        for label, command in {**floors, **cases}.items():
            if args.only and label in cases and args.only not in label:
                continue
            runs = {side: envs[side] for side in (sides if label in cases else ["this"])}
            for env in runs.values():  # the first run fills numba's cache and the bytecode
                child_cpu_seconds(command, env, tmp_name, timeout=3600)  # compiles, if cold
            times: dict[str, list[float]] = {side: [] for side in runs}
            for _ in range(args.repeat):
                for side, env in runs.items():
                    times[side].append(child_cpu_seconds(command, env, tmp_name))
            for side, seconds in times.items():
                print(f"{label:32} {side:>8} {statistics.median(seconds):13.3f} "
                      f"{min(seconds):10.3f}", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--src", type=Path, help="a checkout to run instead of this one")
    parser.add_argument("--only", default="",
                        help="time only the commands whose label holds this text ('check "
                             "heart': no kernel to compile for a --ref export)")
    parser.add_argument("--first-run", action="store_true",
                        help="install a commit into a fresh venv and time its first runs")
    parser.add_argument("--ref", default=None,
                        help="the commit --first-run installs (default HEAD); without "
                             "--first-run, a commit to time side by side with this checkout")
    args = parser.parse_args(argv)
    if args.first_run:
        return first_run(args.ref or "HEAD")
    return side_by_side(args)


if __name__ == "__main__":
    sys.exit(main())
