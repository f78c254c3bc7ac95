"""``nonopress repair PUZZLE``: an ambiguous puzzle made unique with the fewest changes."""

from __future__ import annotations

import argparse

from grader.errors import FormatError
from nonopress.app.loading import read_black_and_white
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
from nonopress.commands.common import add_input_arguments

HELP = "make an ambiguous puzzle unique, keeping its solution as close as possible"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_input_arguments(parser, many=False)
    add_target_arguments(parser)
    add_output_arguments(parser)
    add_job_arguments(parser, default_seconds=60.0)


def run(args: argparse.Namespace) -> int:
    from grader.authoring import repair

    puzzles = read_black_and_white(args.files, args.input_format)
    if len(puzzles) != 1:
        raise FormatError(f"holds {len(puzzles)} puzzles; repair one at a time", args.files)
    result = repair(puzzles[0], mode="givens" if args.givens else "flips",
                    target=target_of(args), seconds=args.seconds, seed=args.seed,
                    progress=progress_of(args))
    if args.preview:
        write_preview(result, args.preview)
    if not result.unique:
        report([result], args, "nothing (the puzzle is not proved unique)")
        return 1
    report([result], args, write_puzzles([result.puzzle], args.output))
    return 0
