"""``nonopress fill GRID``: fill a crossword grid from a word list."""

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

HELP = "fill a crossword grid (# blocks, . empty, letters kept) from a scored word list"

EXIT_OK = 0
EXIT_NO_FILL = 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("grid", metavar="GRID", help="grid file: .txt, .ipuz or .puz")
    add_fill_arguments(parser)
    add_output_arguments(parser)
    parser.add_argument("--title", default="", help="title written into .ipuz / .puz output")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    parser.add_argument(
        "--report", action="store_true",
        help="after a fill, list its weakest entries by score, each with other ways to fill "
        "its corner that keep the rest of the grid (then refill with --avoid WORD)",
    )
    parser.epilog = "No fill (proved, or not found within --timeout) is exit status 1."


def run(args: argparse.Namespace) -> int:
    from grader.atomic import atomic_write
    from grader.errors import NonopressError
    from nonopress.commands.common import print_json_line
    from words.fill import fill
    from words.formats import read_grid_file, write_grid

    check_output_folder(args.output)
    source = read_grid_file(args.grid)
    words = word_list_from(args)
    result = fill(source.grid, words, seed=args.seed, budget=budget_from(args),
                  locks=locks_from(args), quality=args.quality)
    report = []
    if args.report and result.status == "filled":
        from words.report import fill_report

        report = fill_report(result, words)
    if args.json:
        from nonopress.app.records import fill_record

        print_json_line(fill_record(args.grid, source.grid, result, words.name, args.seed,
                                    report if args.report else None))
    else:
        print(shown(f"{args.grid}: {result.summary()}"), file=sys.stderr)
        if result.status == "filled" and not args.output:
            sys.stdout.write(result.grid.to_text())
        if report:
            print("weakest entries (refill without one: --avoid WORD):", file=sys.stderr)
            for entry in report:
                for line in entry.lines():
                    print(line, file=sys.stderr)
    if result.status != "filled":
        return EXIT_NO_FILL
    if args.output:
        try:
            atomic_write(args.output, write_grid(result.grid, output_format(args),
                                                 title=args.title or source.title,
                                                 author=source.author))
        except OSError as exc:
            raise NonopressError(f"cannot write {args.output}: {exc.strerror or exc}") from None
        if not args.json:
            print(shown(f"wrote {args.output}"), file=sys.stderr)
    return EXIT_OK
