"""``nonopress issue``: build a magazine issue from a manifest, as PDF and/or LaTeX."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

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
    cache = parser.add_mutually_exclusive_group()
    cache.add_argument(
        "--cache-dir",
        metavar="DIR",
        help=f"keep computed grades in DIR/{CACHE_NAME} (default: beside the output)",
    )
    cache.add_argument("--no-cache", action="store_true", help="grade every puzzle afresh")
    parser.add_argument(
        "--grade-seconds",
        type=float,
        default=30.0,
        metavar="S",
        help="time budget for grading each puzzle (default 30)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="print warnings only")


def run(args: argparse.Namespace) -> int:
    from grader.atomic import atomic_write
    from grader.errors import NonopressError
    from grader.results import Budget
    from grader.wording import plural
    from layout.build import build_issue
    from layout.gradecache import GradeCache
    from layout.latex import compile_latex, latex_compiler, render_latex
    from layout.manifest import load_manifest
    from layout.pdf import render_pdf
    from layout.plan import plan_issue

    if not args.output and not args.latex:
        raise NonopressError("say where to write the issue: -o FILE.pdf and/or --latex FILE.tex")
    if args.grade_seconds <= 0:
        raise NonopressError("--grade-seconds must be positive")
    compiled_pdf = Path(args.latex).with_suffix(".pdf") if args.latex else None
    if (
        compiled_pdf is not None
        and args.output
        and not args.no_compile
        and compiled_pdf.resolve() == Path(args.output).resolve()
    ):
        raise NonopressError(
            f"--latex {args.latex} compiles to {compiled_pdf}, the same file as -o: "
            "choose another name for one of them"
        )
    for target in (args.output, args.latex):
        if target and not Path(target).resolve().parent.is_dir():
            raise NonopressError(f"{target}: the folder {Path(target).parent} does not exist")
    manifest = load_manifest(args.manifest)
    manifest = replace(
        manifest,
        grey=manifest.grey or args.grey,
        booklet=manifest.booklet or args.booklet or args.impose,
        impose=manifest.impose or args.impose,
    )
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
            print(message, file=sys.stderr)

    def compile_solver() -> None:
        from grader.solver import ensure_compiled

        ensure_compiled(sys.stderr)  # before the first puzzle is graded

    issue = build_issue(
        manifest,
        cache=cache,
        budget=Budget(seconds=args.grade_seconds),
        progress=say,
        before_grading=compile_solver,
    )
    try:
        cache.save()
    except OSError as exc:  # a cache that cannot be written costs time, not the issue
        print(f"nonopress issue: warning: grade cache not saved: {exc}", file=sys.stderr)
    plan = plan_issue(issue)
    for warning in plan.warnings:
        print(f"nonopress issue: warning: {warning}", file=sys.stderr)
    summary = f"{plural(len(plan.pages), 'page')}, {plural(len(issue.entries), 'puzzle')}"
    if args.output:
        write(args.output, render_pdf(issue, plan))
        say(f"wrote {args.output}: {summary}")
    if args.latex:
        tex = render_latex(issue, plan, jobname=Path(args.latex).stem)
        write(args.latex, tex)
        command = latex_compiler()
        if args.no_compile or command is None:
            say(f"wrote {args.latex}; compile it with: latexmk -pdf -no-shell-escape "
                f"{args.latex}  (or pdflatex -no-shell-escape {args.latex})")
        else:
            assert compiled_pdf is not None
            write(str(compiled_pdf), compile_latex(tex, jobname=Path(args.latex).stem))
            say(f"wrote {args.latex} and compiled it to {compiled_pdf}: {summary}")
    return 0
