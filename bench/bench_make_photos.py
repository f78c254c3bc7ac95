"""`nonopress make` on the eight scikit-image sample photos: ink share, edges, flips, time.

    python bench/bench_make_photos.py [--size 30x30] [--env DIR] [--keep DIR]

scikit-image is not a dependency of nonopress: the benchmark installs it (``pip install
scikit-image``) in its own virtual environment (``--env``, default ``.bench-skimage`` in the
system's temporary folder), exports astronaut, camera, coffee, horse, chelsea, rocket, logo
and coins there as PNG, and runs this checkout's ``nonopress make`` on each, one process at
a time. It prints per picture the puzzle's size, the share of filled cells (target: 10-90 %),
empty edge rows and columns, flips, level, the threshold line of the report and the process's
CPU seconds.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

PHOTOS = ("astronaut", "camera", "coffee", "horse", "chelsea", "rocket", "logo", "coins")

EXPORT = r"""
import sys
from pathlib import Path
import numpy as np
from PIL import Image
import skimage.data as data
out = Path(sys.argv[1])
for name in sys.argv[2:]:
    pixels = np.asarray(getattr(data, name)())
    if pixels.dtype == bool:
        pixels = np.where(pixels, 255, 0).astype(np.uint8)
    Image.fromarray(pixels).save(out / f"{name}.png")
"""


def export_photos(env: Path, folder: Path) -> None:
    python = env / "bin" / "python"
    if not python.exists():
        venv.create(env, with_pip=True)
    probe = subprocess.run([str(python), "-c", "import skimage, PIL"], capture_output=True,
                           check=False)
    if probe.returncode != 0:
        subprocess.run([str(python), "-m", "pip", "install", "-q", "scikit-image"], check=True)
    subprocess.run([str(python), "-c", EXPORT, str(folder), *PHOTOS], check=True)


def make(picture: Path, size: str, out: Path) -> tuple[dict[str, object], float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-m", "nonopress", "make", str(picture), "--size", size, "-q",
         "--json", "-o", str(out), "--seconds", "30"],
        capture_output=True, text=True, check=False, timeout=600,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = done.stdout.strip().splitlines()
    report: dict[str, object] = json.loads(lines[0]) if lines else {"error": done.stderr}
    return report, cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="30x30")
    parser.add_argument("--env", type=Path, default=Path(tempfile.gettempdir()) / ".bench-skimage")
    parser.add_argument("--keep", type=Path, help="keep the photos and puzzles in this folder")
    args = parser.parse_args(argv)
    from grader import formats
    from grader.diagnose import empty_borders

    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench-photos-"))
    folder.mkdir(parents=True, exist_ok=True)
    export_photos(args.env, folder)
    shares: list[float] = []
    cpus: list[float] = []
    print(f"{'picture':<10} {'size':>6} {'ink %':>6} {'edges':>6} {'flips':>6} "
          f"{'level':<15} {'cpu s':>6}  picture line")
    for name in PHOTOS:
        out = folder / f"{name}.yaml"
        report, cpu = make(folder / f"{name}.png", args.size, out)
        if "error" in report:
            print(f"{name:<10} failed: {str(report['error']).strip()}")
            continue
        puzzle = formats.read(out)[0]
        solution = puzzle.solution_array()
        share = 100.0 * float(solution.mean()) if solution is not None else 0.0
        shares.append(share)
        cpus.append(cpu)
        edges = "none" if not empty_borders(puzzle) else "EMPTY"
        flips = report.get("flips")
        print(f"{name:<10} {puzzle.size:>6} {share:6.1f} {edges:>6} "
              f"{len(flips) if isinstance(flips, list) else '?':>6} {report.get('level')!s:<15} "
              f"{cpu:6.2f}  {report.get('method')}")
    inside = sum(10.0 <= s <= 90.0 for s in shares)
    print(f"ink share within 10-90 %: {inside} of {len(PHOTOS)}; "
          f"median CPU {statistics.median(cpus) if cpus else 0:.2f} s a picture")
    return 0 if inside == len(PHOTOS) else 1


if __name__ == "__main__":
    raise SystemExit(main())
