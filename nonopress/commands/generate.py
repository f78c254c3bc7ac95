"""``nonopress generate --size 20x20 --level hard --count 10``: random puzzles at a level."""

from __future__ import annotations

import argparse
import sys

from nonopress.commands.authoring_options import (
    add_job_arguments,
    add_target_arguments,
    progress_of,
    report,
    target_of,
    write_puzzles,
)

HELP = "generate random unique puzzles at a level (for filler pages)"


#: as grader.authoring.generate.SYMMETRIES, written out so --help imports no solver
SYMMETRIES = ("none", "mirror", "vertical", "rotate", "both")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", required=True, metavar="WxH", help="puzzle size, e.g. 20x20")
    parser.add_argument("--count", type=int, default=1, help="puzzles to make (default 1)")
    parser.add_argument("--density", type=float, default=None,
                        help="share of filled cells in the random pictures (default: start at "
                        "0.6 and adapt to the level)")
    parser.add_argument("--symmetry", choices=SYMMETRIES, default="none",
                        help="mirror (left-right), vertical (top-bottom), rotate (half turn) "
                        "or both mirrors")
    parser.add_argument("--title", default="", metavar="TEXT",
                        help="title the puzzles: {n} in it is the puzzle's number, else "
                        "several are numbered after it (default: no title; an issue numbers "
                        "its puzzles)")
    parser.add_argument("--number-from", type=int, default=1, metavar="N",
                        help="the first puzzle's number, to go on from an earlier run")
    parser.add_argument("--author", default="", metavar="NAME", help="the puzzles' author")
    add_target_arguments(parser)
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write the puzzles here (.yaml or .json); default: standard output")
    add_job_arguments(parser, default_seconds=300.0)


def run(args: argparse.Namespace) -> int:
    from grader.authoring import generate
    from grader.authoring.picture import parse_size
    from grader.errors import PuzzleError

    width, height = parse_size(args.size)
    if not 1 <= args.count <= 1000:
        raise PuzzleError(f"--count {args.count} is outside 1-1000")
    results = list(generate(
        width, height, target=target_of(args), count=args.count, seed=args.seed,
        density=args.density, symmetry=args.symmetry, seconds=args.seconds,
        progress=progress_of(args), title=args.title, first=args.number_from,
        author_name=args.author,
    ))
    if not results:
        print(f"nonopress generate: no puzzle reached {target_of(args).describe()} within "
              f"{args.seconds:g} s; raise --seconds or change --density",
              file=sys.stderr)
        _say_why_hard_is_rare(args)
        return 1
    written = write_puzzles([r.puzzle for r in results], args.output)
    report(results, args, written)
    if len(results) < args.count:
        print(f"nonopress generate: only {len(results)} of {args.count} within the budget",
              file=sys.stderr)
        _say_why_hard_is_rare(args)
        return 1
    return 0


def _say_why_hard_is_rare(args: argparse.Namespace) -> None:
    if target_of(args).level == "hard":
        from grader.authoring.make import HARD_IS_RARE

        print(f"note: {HARD_IS_RARE}", file=sys.stderr)
