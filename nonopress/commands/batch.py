"""``nonopress batch``: grade and check every puzzle under some folders, resumably."""

from __future__ import annotations

import argparse
from pathlib import Path

from nonopress.commands.common import positive_float

HELP = "grade and check whole archives in parallel into a resumable results database"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from nonopress.batch.run import DEFAULT_TIMEOUT_S

    parser.add_argument(
        "paths", nargs="+", metavar="DIR_OR_FILE", help="folders to search and files to read"
    )
    parser.add_argument(
        "--out",
        required=True,
        metavar="DIR",
        help="folder for results.sqlite (rerunning the same command resumes)",
    )
    add_grading_arguments(parser, DEFAULT_TIMEOUT_S)


def add_grading_arguments(parser: argparse.ArgumentParser, timeout_s: float) -> None:
    """The options of every command that grades through the batch machinery (``batch``,
    ``library add``): processes, the budget a puzzle, a Dask cluster, retrying."""
    parser.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=0,
        metavar="N",
        help="worker processes (default: all cores)",
    )
    parser.add_argument(
        "--timeout",
        type=positive_float,
        default=timeout_s,
        metavar="S",
        help=f"budget per puzzle in seconds (default {timeout_s:g}); "
        "a puzzle that runs out is recorded as undecided",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on a Dask cluster: a scheduler address (tcp://host:8786) or 'local' "
        "(needs the extra nonopress[dask]); it pays only for slow puzzles or several "
        "machines: cheap puzzles grade faster on the default pool of processes",
    )
    parser.add_argument(
        "--retry-failed",
        action="store_true",
        help="grade again the puzzles recorded as failed or undecided",
    )


def check_jobs(jobs: int) -> None:
    """``--jobs`` is 0 (all cores) or a count of processes."""
    from grader.errors import NonopressError

    if jobs < 0:
        raise NonopressError(f"--jobs must be 0 (all cores) or more, got {jobs}")


def run(args: argparse.Namespace) -> int:
    from nonopress.batch.run import BatchOptions, run_batch

    check_jobs(args.jobs)
    options = BatchOptions(
        paths=tuple(args.paths),
        out=Path(args.out),
        jobs=args.jobs,
        timeout_s=args.timeout,
        scheduler=args.scheduler,
        retry_failed=args.retry_failed,
    )
    run_batch(options)
    return 0
