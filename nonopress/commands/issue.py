"""``nonopress issue``: build a magazine issue from a manifest, as PDF and/or LaTeX."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from grader.text import shown, shown_lines
from layout.profiles import profile_choices, profile_help
from nonopress.app import CACHE_NAME
from nonopress.commands.common import add_language_argument, positive_float

if TYPE_CHECKING:
    from layout.preflight import PreflightReport
    from layout.profiles import Profile

HELP = "typeset the puzzles of an issue manifest as a print-ready PDF and/or LaTeX"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("manifest", metavar="MANIFEST", help="the issue's YAML manifest")
    parser.add_argument("-o", "--output", metavar="FILE.pdf", help="write the PDF here")
    parser.add_argument(
        "--latex",
        metavar="FILE.tex",
        help="also write the issue as LaTeX (TikZ); compiled to FILE.pdf when latexmk or "
        "pdflatex is installed",
    )
    parser.add_argument(
        "--no-compile", action="store_true", help="write the LaTeX source without compiling it"
    )
    parser.add_argument(
        "--booklet",
        action="store_true",
        help="saddle-stitch booklet: pad the page count to a multiple of 4",
    )
    parser.add_argument(
        "--impose",
        action="store_true",
        help="saddle-stitch imposition: pad to a multiple of 4 pages and print each sheet "
        "side with two pages in folding order (implies --booklet)",
    )
    parser.add_argument(
        "--grey", action="store_true", help="grey and black only (pure K ink in CMYK)"
    )
    parser.add_argument(
        "--profile",
        choices=profile_choices(),
        help="print for a printer's rules (overrides the manifest's profile:): "
        f"{profile_help()}; the PDF written is then checked with the preflight",
    )
    parser.add_argument(
        "--page", metavar="SIZE",
        help="page (trim) size, overriding the manifest: A4, A5, Letter, 6x9in, 8.5x11in, ...",
    )
    parser.add_argument(
        "--large-print", action="store_true",
        help="large print: every character at least 14 pt, body text 16 pt",
    )
    parser.add_argument(
        "--pad", action="store_true",
        help="a bound book (a printer with a least page count): pad a short book to it "
        "with puzzle-free Notes pages",
    )
    add_language_argument(parser, manifest=True)
    cache = parser.add_mutually_exclusive_group()
    cache.add_argument(
        "--cache-dir",
        metavar="DIR",
        help=f"keep computed grades in DIR/{CACHE_NAME} (default: beside the output)",
    )
    cache.add_argument("--no-cache", action="store_true", help="grade every puzzle afresh")
    parser.add_argument(
        "--grade-seconds",
        type=positive_float,
        default=30.0,
        metavar="S",
        help="time budget for grading each puzzle (default 30)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="print warnings only")
    library = parser.add_argument_group("catalogue")
    library.add_argument(
        "--db", metavar="FILE|URL",
        help="the catalogue (nonopress library): fills the manifest's from_library section, "
        "warns about puzzles printed before and records what this issue prints (default: "
        "$NONOPRESS_LIBRARY or nonopress-library.sqlite in this folder, when there is one)",
    )
    library.add_argument(
        "--no-record", action="store_true",
        help="a proof: do not record the printing in the catalogue",
    )


def run(args: argparse.Namespace) -> int:
    """The arguments as a call of the issue pipeline (nonopress.app.issue), its answer as
    lines on stderr and the exit status."""
    from grader.errors import NonopressError
    from grader.solver import announce_compiling
    from nonopress.app.issue import (
        IssueOptions,
        Targets,
        Voice,
        load_manifest,
        make_issue,
        open_library,
    )

    if not args.output and not args.latex:
        raise NonopressError("say where to write the issue: -o FILE.pdf and/or --latex FILE.tex")
    targets = Targets(pdf=Path(args.output) if args.output else None,
                      latex=Path(args.latex) if args.latex else None,
                      compile=not args.no_compile)
    targets.check()
    manifest = load_manifest(args.manifest)
    library = open_library(args.db, manifest)
    options = IssueOptions(
        grey=args.grey, booklet=args.booklet, impose=args.impose, pad=args.pad,
        profile=args.profile, large_print=args.large_print, page=args.page,
        grade_seconds=args.grade_seconds, cache=_cache_file(args),
    )

    def say(message: str) -> None:
        if not args.quiet:
            print(shown(message), file=sys.stderr)

    def warn(message: str) -> None:
        print(shown(f"nonopress issue: warning: {message}"), file=sys.stderr)

    announce_compiling(sys.stderr)  # a first compile is said, before the first grade
    from grader.i18n import use

    with use(args.language or manifest.language):
        written = make_issue(manifest, targets, options, library=library,
                             record=not args.no_record,
                             voice=Voice(say, warn, lambda path, profile, report:
                                         _preflight_said(path, profile, report, say)))
    return 0 if written.passed else 1


def _cache_file(args: argparse.Namespace) -> Path | None:
    """Where grades are kept: --cache-dir, else beside the output (None: --no-cache)."""
    from grader.errors import NonopressError

    if args.no_cache:
        return None
    folder = Path(args.cache_dir) if args.cache_dir else Path(args.output or args.latex).parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise NonopressError(f"--cache-dir {folder}: {exc.strerror or exc}") from None
    return folder / CACHE_NAME


def _preflight_said(path: Path, profile: Profile, report: PreflightReport,
                    say: Callable[[str], None]) -> None:
    """A written PDF's preflight: a line when it passes (and its warnings), else every
    rule it fails, whatever --quiet says."""
    if report.passed:
        warnings = f" ({len(report.warned)} warning(s))" if report.warned else ""
        say(f"preflight {profile.describe()}: {path} passes{warnings}")
        for result in report.warned:
            for finding in result.findings[:3]:
                print(shown(f"nonopress issue: preflight warning: {result.rule}: "
                            f"{finding.describe()}"), file=sys.stderr)
    else:
        print(shown(f"nonopress issue: preflight {profile.describe()}: {path} fails "
                    f"{len(report.failed)} rule(s):"), file=sys.stderr)
        print(shown_lines(report.lines(3)[1:]), file=sys.stderr)
