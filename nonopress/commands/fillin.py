"""``nonopress fillin GRID``: make a fill-in puzzle from a filled grid, check that it has
one solution and grade it. A grid with empty cells is filled first (same options as
``nonopress fill``)."""

from __future__ import annotations

import argparse
import sys

from grader.text import shown
from nonopress.commands.words_options import (
    add_fill_arguments,
    add_output_arguments,
    budget_from,
    check_output_folder,
    locks_from,
    output_format,
    word_list_from,
)

HELP = "make a fill-in puzzle from a (filled) grid: word list by length, starter, grade"

EXIT_OK = 0
EXIT_NOT_UNIQUE = 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("grid", metavar="GRID",
                        help="grid file (.txt, .ipuz, .puz); filled first if it has empty cells")
    parser.add_argument(
        "--starter", metavar="SLOT|WORD",
        help="the word given to start (12A, or the word itself; 'none' for no starter); "
        "default: chosen to make the puzzle unique and easiest to start",
    )
    add_fill_arguments(parser)
    add_output_arguments(parser)
    parser.add_argument("--title", default="", help="the puzzle's title")
    parser.add_argument("-v", "--steps", action="store_true",
                        help="print the graded solving steps, one a line")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")


def run(args: argparse.Namespace) -> int:
    from grader.atomic import atomic_write
    from grader.errors import NonopressError
    from nonopress.commands.common import print_json_line
    from words.fill import fill
    from words.fillin import count_fillin_solutions, make_fillin
    from words.fillin_grade import fillin_record, grade_fillin
    from words.formats import read_grid_file, write_grid

    check_output_folder(args.output)
    source = read_grid_file(args.grid)
    grid = source.grid
    budget = budget_from(args)
    if not grid.is_complete:
        filled = fill(grid, word_list_from(args), seed=args.seed, budget=budget,
                      locks=locks_from(args), quality=args.quality)
        if filled.status != "filled":
            raise NonopressError(f"{args.grid}: cannot make a fill-in: {filled.reason}")
        grid = filled.grid
        print(shown(f"{args.grid}: {filled.summary()}"), file=sys.stderr)
    title = args.title or source.title
    puzzle = make_fillin(grid, args.starter, title=title, budget=budget)
    count = count_fillin_solutions(puzzle, budget=budget)
    grade = grade_fillin(puzzle, budget=budget)
    starter = puzzle.starter_slot
    if args.json:
        print_json_line(fillin_record(args.grid, grid, puzzle, count, grade, args.steps))
    else:
        print(grid.to_text(), end="")
        given = f"{starter.label} = {puzzle.starter_word}" if starter else "none"
        print(f"starter: {given}")
        for length, group in puzzle.words_by_length().items():
            print(f"{length} letters: {' '.join(group)}")
        line = f"{count.verdict}\t{grade.level}\tscore {grade.score:.2f}\t{grade.stars} stars"
        if count.verdict == "multiple":
            line += f"\t{len(count.differing_cells())} cells differ between two solutions"
        print(line)
        if args.steps:
            for text in grade.lines():
                print(text)
    if args.output:
        try:
            atomic_write(args.output, write_grid(grid, output_format(args), title=title,
                                                 author=source.author, fillin=puzzle))
        except OSError as exc:
            raise NonopressError(f"cannot write {args.output}: {exc.strerror or exc}") from None
        if not args.json:
            print(shown(f"wrote {args.output}"), file=sys.stderr)
    return EXIT_OK if count.verdict == "unique" else EXIT_NOT_UNIQUE
