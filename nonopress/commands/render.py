"""``nonopress render PUZZLE OUT``: one puzzle drawn with its clues, as PNG, SVG or PDF."""

from __future__ import annotations

import argparse

from nonopress.commands.common import positive_float

HELP = "draw one puzzle with its clues (and optionally its solution) as PNG, SVG or PDF"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("puzzle", metavar="PUZZLE",
                        help="puzzle file (any format nonopress reads; '-' for standard input)")
    parser.add_argument("output", metavar="OUT",
                        help="the drawing: .png, .svg or .pdf (the suffix says which)")
    parser.add_argument("--index", type=int, default=1, metavar="N",
                        help="which puzzle of a file holding several (default 1)")
    parser.add_argument("--solution", action="store_true",
                        help="draw the solution in the grid (the file's own, else the solver's)")
    parser.add_argument("--grade", action="store_true",
                        help="put the level and stars in the caption (grades the puzzle)")
    parser.add_argument("--cell", type=float, default=14.0, metavar="PT",
                        help="cell size in points (default 14; a PNG has 2 pixels a point)")
    parser.add_argument("--seconds", type=positive_float, default=10.0, metavar="S",
                        help="budget for solving or grading (default 10)")


def run(args: argparse.Namespace) -> int:
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
        extra.append(graded.level)
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
        page = puzzle_page(puzzle, solution, caption_of(puzzle, extra), cell=args.cell)
        drawn = render(page, drawing)
    except PuzzleError as exc:  # too large to draw: said before any memory is taken
        raise FormatError(str(exc), args.puzzle) from None
    try:
        atomic_write(args.output, drawn)
    except OSError as exc:
        raise FormatError(f"cannot write: {exc.strerror or exc}", args.output) from None
    print(f"wrote {args.output} ({puzzle.size}{', with its solution' if args.solution else ''})")
    return 0
