"""``nonopress render PUZZLE OUT``: one puzzle drawn with its clues, as PNG, SVG, PDF or
EPS; ``nonopress render FILES... --to FOLDER``: every puzzle and its solution, a file each
per format, and a feed (JSON) describing them, for a syndication partner."""

from __future__ import annotations

import argparse
import sys

from nonopress.commands.common import add_language_argument, positive_float

HELP = ("draw a puzzle with its clues (and optionally its solution) as PNG, SVG, PDF or EPS; "
        "or many, with a feed, into a folder (--to)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PUZZLE [OUT]",
                        help="a puzzle file and the drawing (.png, .svg, .pdf or .eps: the "
                        "suffix says which); with --to, puzzle files and folders")
    add_language_argument(parser)
    parser.add_argument("--to", metavar="FOLDER",
                        help="draw every puzzle and its solution into FOLDER, a file each "
                        "per format, and write a feed describing them")
    parser.add_argument("--formats", default="svg,pdf,eps", metavar="LIST",
                        help="with --to: the formats, by commas (svg, pdf, eps, png; "
                        "default svg,pdf,eps)")
    parser.add_argument("--feed", default="feed.json", metavar="NAME",
                        help="with --to: the feed's file name in FOLDER (default feed.json; "
                        "'' for none)")
    parser.add_argument("--date", default="", metavar="YYYY-MM-DD",
                        help="with --to: the date the feed gives the puzzles (default today)")
    parser.add_argument("--index", type=int, default=1, metavar="N",
                        help="which puzzle of a file holding several (default 1)")
    parser.add_argument("--solution", action="store_true",
                        help="draw the solution in the grid (the file's own, else the solver's)")
    parser.add_argument("--title", action="store_true",
                        help="caption the puzzle's art with its title too (a title gives the "
                        "picture away: by default only a solution's art carries it)")
    parser.add_argument("--grade", action="store_true",
                        help="put the level and stars in the caption (grades the puzzle)")
    parser.add_argument("--cell", type=float, default=14.0, metavar="PT",
                        help="cell size in points (default 14; a PNG has 2 pixels a point)")
    parser.add_argument("--seconds", type=positive_float, default=10.0, metavar="S",
                        help="budget for solving or grading (default 10)")


def run(args: argparse.Namespace) -> int:
    from grader.errors import NonopressError

    if args.to is not None:
        return _many(args)
    if len(args.paths) != 2:
        raise NonopressError("render PUZZLE OUT draws one puzzle (or give --to FOLDER to "
                             "draw several)")
    args.puzzle, args.output = args.paths
    return _one(args)


def _many(args: argparse.Namespace) -> int:
    from pathlib import Path

    from nonopress.app.loading import expand_paths, iter_puzzles
    from nonopress.app.syndication import SetOptions, render_set

    formats = tuple(f.strip().lower().lstrip(".") for f in args.formats.split(",") if f.strip())
    puzzles = list(iter_puzzles(expand_paths(args.paths)))
    result = render_set(puzzles, Path(args.to), SetOptions(
        formats=formats, date=args.date, cell=args.cell, seconds=args.seconds,
        feed=args.feed, title=args.title))
    from grader.text import shown

    for line in result.warnings:
        print(shown(f"nonopress render: warning: {line}"), file=sys.stderr)
    print(f"wrote {len(result.written)} files for {len(result.items)} puzzle(s) to {args.to}"
          + (f" (feed: {Path(args.to) / args.feed})" if args.feed else ""))
    return 0


def _one(args: argparse.Namespace) -> int:
    from pathlib import Path

    from grader.atomic import atomic_write
    from grader.errors import FormatError, PuzzleError
    from grader.kinds import kind_of
    from grader.results import Budget
    from layout.render import FORMATS, caption_of, check_size, puzzle_page, render
    from nonopress.app.loading import read_input

    drawing = Path(args.output).suffix.lower().lstrip(".")
    if drawing not in FORMATS:
        raise FormatError(f"cannot tell the drawing's format from the suffix (use "
                          f"{', '.join('.' + k for k in FORMATS)})", args.output)
    if not 2.0 <= args.cell <= 72.0:
        raise PuzzleError(f"--cell {args.cell:g} is outside 2-72 points")
    puzzles = read_input(args.puzzle)
    if not 1 <= args.index <= len(puzzles):
        raise FormatError(f"--index {args.index}: the file holds {len(puzzles)} puzzle(s)",
                          args.puzzle)
    puzzle = puzzles[args.index - 1]
    try:
        check_size(puzzle, args.cell, drawing)
    except PuzzleError as exc:
        raise FormatError(str(exc), args.puzzle) from None
    kind = kind_of(puzzle)  # either kind: a colour puzzle is drawn in its colours
    budget = Budget(seconds=args.seconds)
    extra: list[str] = []
    if args.grade:
        graded = kind.grade(None, budget)
        from grader.i18n import level_name

        extra.append(level_name(graded.level))
        if graded.stars is not None:
            extra.append("★" * graded.stars + "☆" * (5 - graded.stars))
    solution = None
    if args.solution:
        solution = puzzle.solution_array()
        if solution is None:
            solved = kind.solve(2, budget)
            if solved.verdict != "unique" or not solved.solutions:
                raise FormatError(f"no unique solution to draw ({solved.verdict})", args.puzzle)
            solution = solved.solutions[0]
    try:
        caption = caption_of(puzzle, extra, title=args.title or solution is not None)
        page = puzzle_page(puzzle, solution, caption, cell=args.cell)
        drawn = render(page, drawing)
    except PuzzleError as exc:  # too large to draw: said before any memory is taken
        raise FormatError(str(exc), args.puzzle) from None
    try:
        atomic_write(args.output, drawn)
    except OSError as exc:
        raise FormatError(f"cannot write: {exc.strerror or exc}", args.output) from None
    print(f"wrote {args.output} ({puzzle.size}{', with its solution' if args.solution else ''})")
    return 0
