"""``nonopress issue``: build a magazine issue from a manifest, as PDF and/or LaTeX."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from grader.text import shown, shown_lines
from layout.profiles import Profile, profile_choices, profile_help

if TYPE_CHECKING:
    from layout.preflight.scan import PageScan
from nonopress.commands.common import positive_float

#: CPU seconds the preflight may spend on the PDF the issue command just wrote.
OWN_PDF_SECONDS = 120.0

HELP = "typeset the puzzles of an issue manifest as a print-ready PDF and/or LaTeX"
CACHE_NAME = "nonopress-grades.json"


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
    from grader.atomic import atomic_write
    from grader.errors import NonopressError
    from grader.results import Budget
    from grader.wording import plural
    from layout.build import build_issue
    from layout.gradecache import GradeCache
    from layout.manifest import load_manifest
    from layout.pdf import render_pdf
    from layout.plan import plan_issue
    from layout.printsetup import apply_profile
    from layout.profiles import parse_profile_name
    from layout.units import parse_page_size

    if not args.output and not args.latex:
        raise NonopressError("say where to write the issue: -o FILE.pdf and/or --latex FILE.tex")
    if args.grade_seconds <= 0:
        raise NonopressError("--grade-seconds must be positive")
    compiled_pdf = Path(args.latex).with_suffix(".pdf") if args.latex else None
    if (
        compiled_pdf is not None
        and args.output
        and not args.no_compile
        and os.path.realpath(compiled_pdf) == os.path.realpath(args.output)
    ):
        raise NonopressError(
            f"--latex {args.latex} compiles to {compiled_pdf}, the same file as -o: "
            "choose another name for one of them"
        )
    for target in (args.output, args.latex):
        if target and not Path(os.path.realpath(target)).parent.is_dir():
            raise NonopressError(f"{target}: the folder {Path(target).parent} does not exist")
    manifest = load_manifest(args.manifest)
    library = None
    if _may_use_catalogue(args.db, Path(args.manifest)):  # the catalogue loads sqlalchemy
        from nonopress.catalogue.issue_link import IssueLibrary

        library = IssueLibrary.open(args.db, manifest)
    if library is not None:
        manifest = library.fill(manifest)
        library.warn_reprints(manifest)
    manifest = replace(
        manifest,
        grey=manifest.grey or args.grey,
        booklet=manifest.booklet or args.booklet or args.impose,
        impose=manifest.impose or args.impose,
        pad_pages=manifest.pad_pages or args.pad,
        profile=replace(
            manifest.profile,
            name=parse_profile_name(args.profile) if args.profile else manifest.profile.name,
            large_print=manifest.profile.large_print or args.large_print,
        ),
    )
    if args.page:
        manifest = replace(manifest, page=parse_page_size(args.page))
    manifest, changes = apply_profile(manifest)
    for change in changes:
        print(shown(f"nonopress issue: warning: {change}"), file=sys.stderr)
    from layout.puzzlefiles import PuzzleFiles

    files = PuzzleFiles()  # each puzzle file read once, however many entries name it
    if args.no_cache:
        cache = GradeCache(None)
    else:
        folder = Path(args.cache_dir) if args.cache_dir else Path(args.output or args.latex).parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise NonopressError(f"--cache-dir {folder}: {exc.strerror or exc}") from None
        cache = GradeCache(folder / CACHE_NAME)

    def write(path: str, data: bytes | str) -> None:
        try:
            atomic_write(path, data)
        except OSError as exc:
            raise NonopressError(f"cannot write {path}: {exc.strerror or exc}") from None

    def say(message: str) -> None:
        if not args.quiet:
            print(shown(message), file=sys.stderr)

    from grader.solver import announce_compiling

    announce_compiling(sys.stderr)  # a first compile is said, before the first grade
    issue = build_issue(
        manifest,
        cache=cache,
        budget=Budget(seconds=args.grade_seconds),
        progress=say,
        files=files,
    )
    try:
        cache.save()
    except OSError as exc:  # a cache that cannot be written costs time, not the issue
        print(f"nonopress issue: warning: grade cache not saved: {exc}", file=sys.stderr)
    plan = plan_issue(issue)
    for warning in plan.warnings:
        print(shown(f"nonopress issue: warning: {warning}"), file=sys.stderr)
    summary = f"{plural(len(plan.pages), 'page')}, {plural(len(issue.entries), 'puzzle')}"
    if issue.fillins:
        summary += f", {plural(len(issue.fillins), 'fill-in')}"
    checked: list[tuple[Path, list[PageScan] | None]] = []
    if args.output:
        # what each page paints, for the preflight (a plain PDF has none)
        drawn: list[PageScan] | None = [] if manifest.profile.is_print else None
        write(args.output, render_pdf(issue, plan, drawn))
        say(f"wrote {args.output}: {summary}")
        checked.append((Path(args.output), drawn))
    if args.latex:
        from layout.latex import compile_latex, latex_compiler, render_latex

        tex = render_latex(issue, plan, jobname=Path(args.latex).stem)
        write(args.latex, tex)
        command = latex_compiler()
        if args.no_compile or command is None:
            quoted = shlex.quote(args.latex if args.latex.startswith("/") else
                                 f"./{args.latex}")
            say(f"wrote {args.latex}; compile it with: latexmk -pdf -no-shell-escape "
                f"{quoted}  (or pdflatex -no-shell-escape {quoted})")
        else:
            assert compiled_pdf is not None
            write(str(compiled_pdf), compile_latex(tex, jobname=Path(args.latex).stem))
            say(f"wrote {args.latex} and compiled it to {compiled_pdf}: {summary}")
            checked.append((compiled_pdf, None))
    status = _preflight(checked, manifest.profile, say)
    if library is not None and not args.no_record and (args.output or args.latex):
        library.record(manifest, {block.number: page.number for page in plan.pages
                                  for block in page.blocks if not block.solution_shown})
        say(f"recorded the printing in {library.catalogue.name}")
    return status


def _may_use_catalogue(db: str | None, manifest: Path) -> bool:
    """Whether a catalogue is named (--db, $NONOPRESS_LIBRARY, .nonopress-library) or found
    (nonopress-library.sqlite here), or the manifest may have a library section: a cheap
    test that errs towards yes (IssueLibrary.open decides), made without importing the
    catalogue package, which loads sqlalchemy (a quarter of a second)."""
    if db is not None or os.environ.get("NONOPRESS_LIBRARY", "").strip():
        return True
    if Path(".nonopress-library").is_file() or Path("nonopress-library.sqlite").is_file():
        return True
    try:
        return b"from_library" in manifest.read_bytes()
    except OSError:
        return True


def _preflight(paths: list[tuple[Path, list[PageScan] | None]], profile: Profile,
               say: Callable[[str], None]) -> int:
    """Check what was written against its profile: 0 when it passes (or there is no
    profile), 1 when the printer would refuse it (the file is kept, to be looked at).
    A PDF the layout drew comes with its record of every page (LaTeX's has none)."""
    from layout.preflight import Budget, preflight

    if not profile.is_print:
        return 0
    status = 0
    for path, drawn in paths:
        # our own file, as big as the book: a budget for 828 busy pages, not for hostile input
        report = preflight(path, profile.name, large_print=profile.large_print,
                           budget=Budget.scaled(OWN_PDF_SECONDS), drawn=drawn)
        if report.passed:
            warnings = f" ({len(report.warned)} warning(s))" if report.warned else ""
            say(f"preflight {profile.describe()}: {path} passes{warnings}")
            for result in report.warned:
                for finding in result.findings[:3]:
                    print(shown(f"nonopress issue: preflight warning: {result.rule}: "
                                f"{finding.describe()}"), file=sys.stderr)
        else:
            status = 1
            print(shown(f"nonopress issue: preflight {profile.describe()}: {path} fails "
                        f"{len(report.failed)} rule(s):"), file=sys.stderr)
            print(shown_lines(report.lines(3)[1:]), file=sys.stderr)
    return status
