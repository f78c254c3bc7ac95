"""``nonopress make IMAGE --size WxH``: a picture to a unique puzzle at a difficulty."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from grader.text import shown
from nonopress.commands.authoring_options import (
    add_job_arguments,
    add_output_arguments,
    add_target_arguments,
    progress_of,
    report,
    target_of,
    write_preview,
    write_puzzles,
)

if TYPE_CHECKING:
    from grader.authoring import AnyAuthored, ColourAuthored, MakeOptions
    from grader.model import Puzzle

HELP = "make a unique puzzle from a picture (any format Pillow reads)"

EXIT_NOT_UNIQUE = 1
#: the default of --max-change (grader.authoring.steer.MAX_CHANGE; not imported here: the
#: command's options are read before anything heavy is loaded)
MAX_CHANGE = 4.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", metavar="IMAGE", help="the picture (PNG, JPEG, GIF, ...)")
    parser.add_argument("--size", required=True, metavar="WxH",
                        help="puzzle size in cells, e.g. 30x25 (the picture keeps its aspect)")
    parser.add_argument("--fit", choices=("pad", "crop"), default="pad",
                        help="pad the picture with white to the size, or crop it (default pad)")
    shade = parser.add_mutually_exclusive_group()
    shade.add_argument("--threshold", type=float, metavar="0-255",
                       help="grey level below which a cell is filled (default: Otsu's)")
    shade.add_argument("--edges", action="store_true",
                       help="fill the outlines of the shapes (for line drawings and logos)")
    parser.add_argument("--invert", action="store_true",
                        help="light cells are filled (the padding stays empty)")
    parser.add_argument("--trim", action=argparse.BooleanOptionalAction, default=True,
                        help="cut empty margins so no edge row or column is empty: the picture "
                        "is fitted again without them and the puzzle may come out smaller "
                        "than --size (default: on; --no-trim keeps the size)")
    parser.add_argument("--keep-edges", metavar="SIDES", default="",
                        help="sides never trimmed, by commas: top,bottom,left,right or all")
    parser.add_argument("--max-change", type=float, default=MAX_CHANGE, metavar="PERCENT",
                        help="most cells steering to --level/--stars may change, as a "
                        f"percentage of all cells (default {MAX_CHANGE:g})")
    parser.add_argument("--colours", "--colors", type=int, metavar="N",
                        help="a colour puzzle of at most N block colours (median cut of the "
                        "picture's own colours; near-white is paper), same size, fit and trim; "
                        "warns when two colours would print alike")
    parser.add_argument("--title", default="", help="the puzzle's title")
    parser.add_argument("--kind", default=None, metavar="KIND",
                        help="the kind of puzzle: bw (a nonogram, the default; --colours for "
                        "colour) or a kind with a maker of its own (mosaic: the picture is "
                        "the solution, as few clues shown as --level allows)")
    add_target_arguments(parser)
    add_output_arguments(parser)
    add_job_arguments(parser, default_seconds=60.0)


def _make_colour(args: argparse.Namespace, width: int, height: int,
                 trim: tuple[str, ...]) -> ColourAuthored:
    from pathlib import Path

    from grader.authoring.colour_make import MAX_COLOURS, make_colour
    from grader.errors import PuzzleError
    from grader.model import Metadata

    if not 1 <= args.colours <= MAX_COLOURS:
        raise PuzzleError(f"--colours {args.colours}: must be 1 to {MAX_COLOURS}")
    if args.givens:
        raise PuzzleError("--colours makes the puzzle unique by flips; --givens is for black "
                          "and white")
    return make_colour(args.image, width, height, args.colours, fit=args.fit, trim=trim,
                       seconds=args.seconds, seed=args.seed, max_change=args.max_change,
                       meta=Metadata(title=args.title or Path(args.image).stem),
                       progress=progress_of(args), target=target_of(args))


def run(args: argparse.Namespace) -> int:
    from grader.authoring import make
    from grader.authoring.picture import parse_size, trimmed_sides
    from grader.errors import PuzzleError

    width, height = parse_size(args.size)
    if args.kind is not None:
        from nonopress.app.making import by_its_maker

        if by_its_maker(args.kind):
            return _make_kind(args, width, height)
    if not 0 <= args.max_change <= 100:
        raise PuzzleError(f"--max-change {args.max_change:g} is outside 0-100 (percent)")
    trim = trimmed_sides(args.keep_edges) if args.trim else ()
    result: AnyAuthored
    trivial = ""
    if args.colours is not None:
        result = _make_colour(args, width, height, trim)
    else:
        result = make(args.image, _options(args, width, height, trim),
                      progress=progress_of(args))
        trivial = trivial_picture(result.puzzle)
    if args.preview:
        write_preview(result, args.preview, picture=args.image)
    if not result.unique:
        report([result], args, "nothing (the puzzle is not proved unique)")
        return EXIT_NOT_UNIQUE
    report([result], args, write_puzzles([result.puzzle], args.output))
    if not args.title:  # a title reaches the solutions, the feed and the site: say whence
        print(shown(f"nonopress make: note: titled {result.puzzle.title!r} after the picture's "
                    "file name; give --title to name it as readers should see it"),
              file=sys.stderr)
    if trivial:  # written as asked, but a blank page is unlikely to be what was meant
        print(shown(f"nonopress make: warning: {args.image}: {trivial}"), file=sys.stderr)
    return 0


def _make_kind(args: argparse.Namespace, width: int, height: int) -> int:
    """A puzzle of a kind the registry makes (``KindEntry.make``), through the app layer."""
    import json
    from pathlib import Path

    from grader.atomic import atomic_write
    from grader.authoring.picture import trimmed_sides
    from grader.errors import PuzzleError
    from grader.kinds import entry_of, write_puzzles
    from nonopress.app.making import make_kind

    if args.colours is not None or args.givens or args.preview:
        raise PuzzleError(f"--kind {args.kind}: --colours, --givens and --preview are for "
                          "nonograms")
    made = make_kind(args.kind, args.image, width, height, fit=args.fit,
                     threshold=args.threshold, invert=args.invert, edges=args.edges,
                     trim=trimmed_sides(args.keep_edges) if args.trim else (),
                     level=args.level, stars=args.stars, seed=args.seed,
                     title=args.title or Path(args.image).stem, seconds=args.seconds)
    record = made.record
    if made.unique:
        suffix = Path(args.output or "").suffix.lower().lstrip(".")
        format = suffix if suffix in entry_of(made.puzzle).formats else "yaml"
        data = write_puzzles([made.puzzle], format)
        if args.output:
            atomic_write(Path(args.output), data)
            record["wrote"] = args.output
        else:
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
    if args.json:
        print(json.dumps(record), file=sys.stderr if not args.output else sys.stdout)
    elif not args.quiet:
        print(shown(f"nonopress make: {record['size']} {args.kind}, {record['clues']} of "
                    f"{record['clues_total']} clues shown, level {record['level']} (asked "
                    f"{record['level_asked']}), {len(record['changed_cells'])} cells changed, "
                    f"{record['time_s']} s"), file=sys.stderr)
    return 0 if made.unique else EXIT_NOT_UNIQUE


def _options(args: argparse.Namespace, width: int, height: int,
             trim: tuple[str, ...]) -> MakeOptions:
    """What ``make`` asks of a black-and-white puzzle."""
    from pathlib import Path

    from grader.authoring import MakeOptions
    from grader.model import Metadata

    title = args.title or Path(args.image).stem
    return MakeOptions(
        width=width, height=height, fit=args.fit, threshold=args.threshold,
        invert=args.invert, edges=args.edges, trim=trim, max_change=args.max_change,
        mode="givens" if args.givens else "flips",
        target=target_of(args), seconds=args.seconds, seed=args.seed,
        meta=Metadata(title=title),
    )


def trivial_picture(puzzle: Puzzle) -> str:
    """Why the puzzle made from a picture is no puzzle at all ('' when it is one)."""
    if not any(puzzle.rows):
        return ("every cell is empty (a blank picture, or too light for the threshold): "
                "try --threshold, --invert or --edges")
    if all(clue == (puzzle.width,) for clue in puzzle.rows):
        return ("every cell is filled (too dark for the threshold): try --threshold or "
                "--invert")
    return ""
