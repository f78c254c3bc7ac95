"""Options and output shared by ``make``, ``repair`` and ``generate``."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from grader.atomic import atomic_write
from grader.errors import FormatError
from grader.text import shown, shown_lines
from nonopress.commands.common import positive_float

if TYPE_CHECKING:
    from grader.authoring import AnyAuthored, Target
    from grader.authoring.clock import Progress
    from grader.kinds import AnyPuzzle

LEVEL_CHOICES = ("easy", "medium", "hard", "fiendish")


def add_target_arguments(parser: argparse.ArgumentParser, *, required: bool = False) -> None:
    group = parser.add_mutually_exclusive_group(required=required)
    group.add_argument("--level", choices=LEVEL_CHOICES, help="difficulty level to aim for")
    group.add_argument("--stars", type=int, choices=range(1, 6), metavar="N",
                       help="difficulty in stars (1-5) to aim for")


def add_job_arguments(parser: argparse.ArgumentParser, default_seconds: float) -> None:
    parser.add_argument("--seconds", type=positive_float, default=default_seconds, metavar="S",
                        help=f"time budget for the whole job (default {default_seconds:g})")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random choices")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no progress lines on standard error")
    parser.add_argument("--json", action="store_true",
                        help="the report as one JSON line instead of text")


def add_output_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--givens", action="store_true",
                        help="print given cells in the grid instead of changing the picture")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write the puzzle (with its solution) here; format from the suffix "
                        "(yaml or json); default: YAML on standard output")
    parser.add_argument("--preview", metavar="PNG",
                        help="write picture, result and changed cells side by side as PNG")


def target_of(args: argparse.Namespace) -> Target:
    from grader.authoring import Target

    return Target(level=args.level, stars=args.stars)


def progress_of(args: argparse.Namespace) -> Progress:
    def say(message: str) -> None:
        print(shown(message), file=sys.stderr, flush=True)

    def quiet(message: str) -> None:
        pass

    return quiet if args.quiet else say


def write_puzzles(puzzles: Sequence[AnyPuzzle], path: str | None) -> str:
    """Write to ``path`` (format from its suffix) or stdout as YAML; where it went. A
    colour puzzle needs a colour format (yaml, json, xml)."""
    from grader import formats

    if path is None:
        sys.stdout.write(formats.write_any(list(puzzles), "yaml").decode("utf-8"))
        return "standard output"
    spec = formats.format_for_path(path)
    if spec is None and os.path.realpath(path) == os.devnull:
        spec = formats.FORMATS["yaml"]  # -o /dev/null: a dry run
    if spec is None or not spec.can_write:
        raise FormatError("cannot tell the output format from the file name (use .yaml or "
                          ".json)", path)
    try:
        data = formats.write_any(list(puzzles), spec.name)
    except FormatError as exc:
        raise FormatError(exc.message, exc.source or path, exc.line) from None
    try:
        atomic_write(path, data)
    except OSError as exc:
        raise FormatError(f"cannot write: {exc.strerror or exc}", path) from None
    return path


def report(results: Sequence[AnyAuthored], args: argparse.Namespace, written: str) -> None:
    """The report on stdout when the puzzle went to a file, else on stderr."""
    from nonopress.commands.common import json_line

    stream = sys.stderr if written == "standard output" else sys.stdout
    for result in results:
        if args.json:
            print(json_line({**result.to_json(), "output": written}), file=stream)
        else:
            print(shown_lines(result.report_lines()), file=stream)
    if not args.json:
        print(shown(f"wrote {written}"), file=stream)


def write_preview(result: AnyAuthored, path: str, picture: str | None = None) -> None:
    """The preview PNG; ``picture``: the original file, shown first."""
    from grader.authoring import preview_png
    from grader.authoring.picture import load_rgb

    source = load_rgb(picture) if picture is not None else None
    try:
        atomic_write(path, preview_png(result, source=source))
    except OSError as exc:
        raise FormatError(f"cannot write: {exc.strerror or exc}", path) from None
