"""Time the preflight against the PDF back end that wrote the file, in the same run.

    python bench/bench_preflight.py [--count 60] [--size 25] [--repeat 5]

A synthetic issue (random pictures, grades given: ``layout.synthetic``) is laid out and
written under each print profile (kdp at 8.5x11 in, pdfx at A4); the preflight then reads
every content stream of the result. Printed: medians of ``--repeat`` runs, milliseconds a
page, and the preflight's time as a ratio of the render's (the peer measured beside it).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from layout.manifest import Manifest  # noqa: E402
from layout.pdf import render_pdf  # noqa: E402
from layout.plan import plan_issue  # noqa: E402
from layout.preflight import preflight  # noqa: E402
from layout.printsetup import apply_profile  # noqa: E402
from layout.profiles import Profile  # noqa: E402
from layout.synthetic import issue_of, random_puzzle  # noqa: E402
from layout.units import parse_page_size  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--size", type=int, default=25)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    puzzles = [random_puzzle(args.size, args.size, seed) for seed in range(args.count)]
    for name, page in (("kdp", "8.5x11in"), ("pdfx", "A4")):
        manifest = Manifest(source=Path("bench.yaml"), puzzles=(), profile=Profile(name),
                            page=parse_page_size(page), pad_pages=True)
        manifest, _ = apply_profile(manifest)
        issue = issue_of(puzzles, replace(manifest))
        renders, checks = [], []
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / f"{name}.pdf"
            for _ in range(args.repeat):
                started = time.perf_counter()
                plan = plan_issue(issue)
                path.write_bytes(render_pdf(issue, plan))
                rendered = time.perf_counter()
                report = preflight(path, name)
                renders.append(rendered - started)
                checks.append(time.perf_counter() - rendered)
        pages = report.pages
        render_s, check_s = statistics.median(renders), statistics.median(checks)
        verdict = "passes" if report.passed else f"FAILS {[r.rule for r in report.failed]}"
        print(f"{name}: {args.count} puzzles {args.size}x{args.size}, {pages} pages, {verdict}; "
              f"plan+render {render_s * 1000 / pages:.1f} ms/page, preflight "
              f"{check_s * 1000 / pages:.1f} ms/page, ratio {check_s / render_s:.2f} "
              f"(medians of {args.repeat})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
