"""``nonopress check FILE...``: is each puzzle's solution unique? One line per puzzle."""

from __future__ import annotations

import argparse
import math
import sys
import time
from typing import Any

from grader.results import Budget, SolveResult
from grader.text import TITLE_WIDTH, error_line, shown
from grader.wording import cell_list
from nonopress.commands.colour import (
    LoadedColourPuzzle,
    add_colour_argument,
    check_line,
    check_record,
    iter_any_puzzles,
)
from nonopress.commands.colour import solve as solve_colour
from nonopress.commands.common import (
    LoadedPuzzle,
    add_input_arguments,
    print_json_line,
    puzzle_summary,
)

HELP = (
    "check that each puzzle has exactly one solution (unique / multiple / none / undecided); "
    "exit status 0 when all are unique, 1 when any is not, 2 when a file cannot be read"
)

#: exit status: every puzzle unique / some puzzle multiple, none or undecided / a file
#: could not be read (the worst of them wins)
EXIT_OK = 0
EXIT_NOT_UNIQUE = 1
EXIT_BAD_INPUT = 2


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, got {text}")
    return value


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text}")
    return value


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


def no_solution_reason(loaded: LoadedPuzzle, result: SolveResult) -> str:
    """For a puzzle with no solution: the line (or cell) that cannot be satisfied."""
    if result.verdict != "none":
        return ""
    from grader.diagnose import why_no_solution

    return why_no_solution(loaded.puzzle)[1]


def result_record(loaded: LoadedPuzzle, result: SolveResult, why: str = "") -> dict[str, Any]:
    """The ``--json`` record of one checked puzzle (``why``: what breaks, for ``none``)."""
    record = puzzle_summary(loaded)
    record["verdict"] = result.verdict
    record["time_s"] = round(result.time_s, 6)
    record["nodes"] = result.nodes
    if result.verdict in ("unique", "multiple"):
        record["solutions"] = result.solution_rows()[:2]
        record["differing_cells"] = [list(cell) for cell in result.differing_cells]
    if why:
        record["reason"] = why
    elif result.reason:
        record["reason"] = result.reason
    return record


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
        args.files, "check", lambda files: iter_any_puzzles(files, args.input_format,
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


def _check_one(
    loaded: LoadedPuzzle | LoadedColourPuzzle, budget: Budget, args: argparse.Namespace
) -> int:
    """Check and report one puzzle; EXIT_NOT_UNIQUE unless it has exactly one solution."""
    from grader.diagnose import empty_borders
    from grader.solver import solve

    if isinstance(loaded, LoadedColourPuzzle):
        colour = solve_colour(loaded, 2, budget)
        if args.json:
            print_json_line(check_record(loaded, colour))
        else:
            print(check_line(loaded, colour), flush=True)
        return EXIT_OK if colour.verdict == "unique" else EXIT_NOT_UNIQUE
    cpu = time.process_time()
    result = solve(loaded.puzzle, limit=2, budget=budget)
    cpu = time.process_time() - cpu
    why = no_solution_reason(loaded, result)
    border = empty_borders(loaded.puzzle)
    if args.json:
        record = result_record(loaded, result, why)
        # beside the wall-clock time the budget counts: what benchmarks on a busy machine need
        record["cpu_s"] = round(cpu, 6)
        record["warnings"] = [border] if border else []
        print_json_line(record)
    else:
        print(result_line(loaded, result, why), flush=True)
        if border:
            print(error_line("nonopress check: warning: ", f"{loaded.label}: {border}"),
                  file=sys.stderr)
    return EXIT_OK if result.verdict == "unique" else EXIT_NOT_UNIQUE
