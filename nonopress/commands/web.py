"""``nonopress web``: an issue (or loose puzzles) as a static site with a player."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from nonopress.commands.common import add_language_argument, positive_float

HELP = "write a static web site that plays the puzzles of an issue manifest or puzzle files"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sources", nargs="+", metavar="MANIFEST|PUZZLE",
                        help="an issue's YAML manifest, or puzzle files")
    parser.add_argument("-o", "--output", metavar="DIR", required=True,
                        help="the site's folder (made when missing)")
    parser.add_argument("--until", metavar="DATE",
                        help="leave out puzzles dated after DATE (YYYY-MM-DD): a site built "
                        "every night publishes each puzzle on its day")
    parser.add_argument("--collect", metavar="URL",
                        help="send anonymous solve records to this collector (off by default; "
                        "solvers can turn it off on the page)")
    cache = parser.add_mutually_exclusive_group()
    cache.add_argument("--cache-dir", metavar="DIR",
                       help="keep grades and hint tables here (default: beside the site)")
    cache.add_argument("--no-cache", action="store_true", help="grade every puzzle afresh")
    parser.add_argument("--grade-seconds", type=positive_float, default=30.0, metavar="S",
                        help="time budget for grading each puzzle (default 30)")
    add_language_argument(parser, manifest=True)
    parser.add_argument("-q", "--quiet", action="store_true", help="print warnings only")
    parser.add_argument(
        "--db", metavar="FILE|URL",
        help="the catalogue a from_library section was picked from (nonopress issue picks it "
        "and writes the choice under chosen:; default: $NONOPRESS_LIBRARY or "
        "nonopress-library.sqlite in this folder, when there is one)")


def run(args: argparse.Namespace) -> int:
    from grader.errors import NonopressError
    from grader.results import Budget
    from nonopress.web.pages import collect_url
    from nonopress.web.site import SiteOptions, build_site, manifest_of, parse_day

    until = parse_day(args.until, "--until") if args.until else None
    if args.collect:
        try:
            collect_url(args.collect)
        except ValueError as exc:
            raise NonopressError(f"--collect {exc}") from None
    output = Path(args.output)
    cache_dir = None
    if not args.no_cache:
        # like the site's folder (made with its parents), a cache folder named is made
        cache_dir = Path(args.cache_dir) if args.cache_dir else output.resolve().parent
        try:
            cache_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise NonopressError(f"--cache-dir {cache_dir}: {exc.strerror or exc}") from None
    options = SiteOptions(output=output, cache_dir=cache_dir,
                          budget=Budget(seconds=args.grade_seconds), until=until,
                          collect=args.collect)

    def say(text: str) -> None:
        if not args.quiet:
            print(f"nonopress web: {text}", file=sys.stderr)

    manifest = manifest_of(args.sources)
    library = None
    if manifest.from_library is not None:
        from nonopress.app.issue import open_library

        if not isinstance(manifest.from_library, dict) or not manifest.from_library.get("chosen"):
            raise NonopressError(f"{manifest.source}: from_library has no chosen puzzles yet: "
                                 "nonopress issue picks and books them (and writes them "
                                 "under chosen:); then publish them with nonopress web")
        library = open_library(args.db, manifest)
    from grader.i18n import use

    with use(args.language or manifest.language):
        report = build_site(manifest, options, progress=say, library=library)
    for warning in report.warnings:
        print(f"nonopress web: warning: {warning}", file=sys.stderr)
    held = f", {report.held_back} not yet due" if report.held_back else ""
    if report.removed:
        held += f", {len(report.removed)} file(s) of puzzles no longer due removed"
    if not args.quiet:
        print(f"{output}/index.html: {report.published} puzzle page(s){held}")
    return 0
