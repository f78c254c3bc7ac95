"""``nonopress check FILE...``: is each puzzle's solution unique? One line per puzzle."""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from grader.kinds import kind_of
from grader.results import Budget, SolveResult
from grader.text import TITLE_WIDTH, error_line, shown
from grader.wording import cell_list
from nonopress.commands.common import (
    LoadedPuzzle,
    add_colour_argument,
    add_input_arguments,
    iter_puzzles,
    positive_float,
    positive_int,
    print_json_line,
    puzzle_summary,
)
from nonopress.exit_status import BAD_INPUT, DONE, NOT_PUBLISHABLE

if TYPE_CHECKING:
    from grader.kinds import NoSolution

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


def result_record(loaded: LoadedPuzzle, result: SolveResult, why: str = "") -> dict[str, Any]:
    """The ``--json`` record of one checked puzzle (``why``: what breaks, for ``none``)."""
    record = puzzle_summary(loaded)
    record["verdict"] = result.verdict
    record["time_s"] = round(result.time_s, 6)
    record["nodes"] = result.nodes
    if result.verdict in ("unique", "multiple"):
        record["solutions"] = kind_of(loaded.puzzle).solution_rows(result)[:2]
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


def check_json_record(loaded: LoadedPuzzle, budget: Budget) -> dict[str, Any]:
    """What ``check --json`` prints for one puzzle, black-and-white or colour (the studio's
    ``POST /api/check`` answers the same record)."""
    return check_puzzle(loaded, budget).record(loaded)


@dataclass(frozen=True)
class Checked:
    """One puzzle's check: the proof, the warnings (an empty border), the CPU time it took
    and, for ``none``, what breaks (the line or cell, as the kind's diagnosis found it)."""

    result: SolveResult
    warnings: list[str]
    cpu_s: float
    broken: NoSolution | None = None

    @property
    def why(self) -> str:
        """Why there is no solution, '' for any other verdict."""
        return self.broken.why if self.broken is not None else ""

    def record(self, loaded: LoadedPuzzle) -> dict[str, Any]:
        record = result_record(loaded, self.result, self.why)
        # beside the wall-clock time the budget counts: what benchmarks on a busy machine need
        record["cpu_s"] = round(self.cpu_s, 6)
        record["warnings"] = list(self.warnings)
        return record


def check_puzzle(loaded: LoadedPuzzle, budget: Budget) -> Checked:
    """Count the solutions of a puzzle of either kind, up to two."""
    kind = kind_of(loaded.puzzle)
    result = kind.solve(2, budget)
    broken = kind.no_solution() if result.verdict == "none" else None
    # the puzzle's own CPU (the solving thread's), with no compiling or loading in it
    return Checked(result, kind.warnings(), result.cpu_s, broken)


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
