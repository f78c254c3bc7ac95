"""``nonopress check FILE...``: is each puzzle's solution unique? One line per puzzle."""

from __future__ import annotations

import argparse
import sys
import time

from grader.results import Budget, SolveResult
from grader.text import TITLE_WIDTH, error_line, shown
from grader.wording import cell_list
from nonopress.app.loading import LoadedPuzzle, iter_puzzles
from nonopress.app.records import check_puzzle
from nonopress.commands.common import (
    add_colour_argument,
    add_input_arguments,
    positive_float,
    positive_int,
    print_json_line,
)
from nonopress.exit_status import BAD_INPUT, DONE, NOT_PUBLISHABLE

HELP = (
    "check that each puzzle has exactly one solution (unique / multiple / none / undecided); "
    "a pre-press gate: exit status 1 when any is not unique"
)

#: exit status (nonopress.exit_status): every puzzle unique / some puzzle multiple, none or
#: undecided / a file could not be read (the worst of them wins)
EXIT_OK = DONE
EXIT_NOT_UNIQUE = NOT_PUBLISHABLE
EXIT_BAD_INPUT = BAD_INPUT


def add_budget_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--timeout", type=positive_float, default=60.0, metavar="S",
        help="seconds per puzzle before the verdict is 'undecided' (default 60)",
    )
    parser.add_argument(
        "--nodes", type=positive_int, default=None, metavar="N",
        help="search nodes per puzzle before the verdict is 'undecided' (default: no limit)",
    )


def budget_from(args: argparse.Namespace) -> Budget:
    return Budget(seconds=args.timeout, nodes=args.nodes)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_input_arguments(parser)
    add_budget_arguments(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    add_colour_argument(parser)


def result_line(loaded: LoadedPuzzle, result: SolveResult, why: str = "") -> str:
    title = shown(loaded.puzzle.title, TITLE_WIDTH) or "-"
    line = f"{shown(loaded.label)}\t{title}\t{result.verdict}\t{result.time_s:.3f} s"
    if result.verdict == "multiple":
        cells = result.differing_cells
        line += f"\t{len(cells)} cells differ: {cell_list(cells)}"
    elif result.verdict == "undecided":
        line += f"\t{result.reason}"
    elif result.verdict == "none" and why:
        line += f"\t{why}"
    return line


def run(args: argparse.Namespace) -> int:
    from grader.solver import announce_compiling
    from nonopress.commands.common import iter_puzzles_reporting

    status = EXIT_OK
    announce_compiling(sys.stderr)  # a first compile is said, before any puzzle's clock
    puzzles = iter_puzzles_reporting(
        args.files, "check", lambda files: iter_puzzles(files, args.input_format,
                                                            args.colours)
    )
    started = time.perf_counter()
    for loaded in puzzles:
        if loaded is None:  # reported; the other files are still checked
            status = EXIT_BAD_INPUT
        else:
            # --timeout covers reading a puzzle too: a huge file's parse is not free time
            budget = budget_from(args).less(time.perf_counter() - started)
            status = max(status, _check_one(loaded, budget, args))
        started = time.perf_counter()
    return status


def _check_one(loaded: LoadedPuzzle, budget: Budget, args: argparse.Namespace) -> int:
    """Check and report one puzzle; EXIT_NOT_UNIQUE unless it has exactly one solution."""
    checked = check_puzzle(loaded, budget)
    if args.json:
        print_json_line(checked.record(loaded))
    else:
        print(result_line(loaded, checked.result, checked.why), flush=True)
        for warning in checked.warnings:
            print(error_line("nonopress check: warning: ", f"{loaded.label}: {warning}"),
                  file=sys.stderr)
    return EXIT_OK if checked.result.verdict == "unique" else EXIT_NOT_UNIQUE
