"""``nonopress convert IN OUT``: rewrite puzzles in another file format."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from grader import formats
from grader.atomic import atomic_write
from grader.errors import FormatError
from grader.kinds import AnyPuzzle, KindEntry, entry_of, own_format_for_path, write_puzzles
from nonopress.app.loading import STDIN, read_input
from nonopress.commands.common import add_colour_argument, positive_int

HELP = "convert puzzle files between formats (the format comes from OUT's suffix or --to)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    writable = sorted(name for name, spec in formats.FORMATS.items() if spec.can_write)
    parser.add_argument("input", metavar="IN", help="puzzle file to read ('-' for stdin)")
    parser.add_argument("output", metavar="OUT", help="file to write ('-' for stdout)")
    parser.add_argument(
        "--to", metavar="FORMAT", choices=writable,
        help=f"output format (default: from OUT's suffix); one of {', '.join(writable)}",
    )
    parser.add_argument(
        "--from", dest="input_format", metavar="FORMAT", choices=sorted(formats.FORMATS),
        help="read IN as FORMAT instead of detecting it",
    )
    parser.add_argument(
        "--index", type=positive_int, metavar="N",
        help="convert only the N-th puzzle of IN (1-based)",
    )
    add_colour_argument(parser)


def own_kind(args: argparse.Namespace) -> KindEntry | None:
    """The kind whose own suffix OUT has (``.mosaic``), when --to does not say the format."""
    if args.to or args.output == STDIN:
        return None
    owned = own_format_for_path(args.output)
    return owned[0] if owned is not None else None


def output_format(args: argparse.Namespace) -> formats.FormatSpec:
    if args.to:
        return formats.get_format(args.to)
    if args.output == STDIN:
        raise FormatError("writing to standard output: say which format with --to")
    owned = own_format_for_path(args.output)
    if owned is not None:  # a kind's own suffix: the kind's writer writes that format
        return formats.get_format(owned[1])
    spec = formats.format_for_path(args.output)
    if spec is None or not spec.can_write:
        raise FormatError(
            "cannot tell the output format from the file name; say which with --to",
            args.output,
        )
    return spec


def _refuse_unprintable_pictures(puzzles: Sequence[AnyPuzzle], source: str, colours: int
                                 ) -> None:
    """convert keeps a picture's pixels as cells: right for pixel art, wrong for a drawing
    or a photo, which ``make --colours`` brings to a puzzle's size (issue 36)."""
    from layout.build import MAX_PRINT_SIDE

    for puzzle in puzzles:
        if puzzle.width > MAX_PRINT_SIDE or puzzle.height > MAX_PRINT_SIDE:
            raise FormatError(
                f"a {puzzle.width}x{puzzle.height} picture is no puzzle (at most "
                f"{MAX_PRINT_SIDE}x{MAX_PRINT_SIDE}): `nonopress make {Path(source).name} "
                f"--colours {colours} --size 30x30` makes one",
                source,
            )


def run(args: argparse.Namespace) -> int:
    spec = output_format(args)
    puzzles = read_input(args.input, args.input_format, args.colours)
    source = "<stdin>" if args.input == STDIN else args.input
    if args.index is not None:
        if args.index > len(puzzles):
            raise FormatError(
                f"--index {args.index}, but the file holds {len(puzzles)} puzzle(s)", source
            )
        puzzles = [puzzles[args.index - 1]]
    if args.colours is not None:
        _refuse_unprintable_pictures(puzzles, source, args.colours)
    kind = own_kind(args)
    if kind is not None and any(entry_of(p) is not kind for p in puzzles):
        suffix = Path(args.output).suffix
        raise FormatError(f"a {suffix} file holds {kind.name} puzzles, and {source} holds "
                          f"others: name another suffix, or say the format with --to",
                          args.output)
    if len(puzzles) > 1 and not spec.holds_many:
        many = ", ".join(sorted(n for n, s in formats.FORMATS.items()
                                if s.holds_many and s.can_write))
        raise FormatError(
            f"holds {len(puzzles)} puzzles but the {spec.name} format holds one: pick one "
            f"with --index N, or write a format that holds many ({many})",
            source,
        )
    try:
        data = write_puzzles(puzzles, spec.name)
    except FormatError as exc:
        raise exc.located(args.output) from None
    if args.output == STDIN:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return 0
    try:
        atomic_write(args.output, data)
    except OSError as exc:
        raise FormatError(f"cannot write: {exc.strerror or exc}", args.output) from None
    return 0
