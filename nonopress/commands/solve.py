"""``nonopress solve FILE``: print the solution(s); ``--out`` writes them to a file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from grader import formats
from grader.atomic import atomic_write
from grader.errors import FormatError
from grader.kinds import AnyPuzzle, kind_of, write_puzzles
from grader.results import SolveResult
from grader.text import TITLE_WIDTH, shown, shown_lines
from nonopress.app.loading import LoadedPuzzle, expand_paths, iter_puzzles
from nonopress.commands.check import add_budget_arguments, budget_from
from nonopress.commands.common import add_colour_argument, add_input_arguments, positive_int
from nonopress.exit_status import DONE, for_verdict

HELP = "solve puzzles and print the solution; two solutions and their differences if not unique"

#: how many solutions --all lists unless --limit says otherwise
DEFAULT_ALL_LIMIT = 100
#: the most --limit may ask for (the solver also caps what it keeps by memory)
MAX_LIMIT = 100_000


def limit_number(text: str) -> int:
    value = positive_int(text)
    if value > MAX_LIMIT:
        raise argparse.ArgumentTypeError(f"at most {MAX_LIMIT:,}, got {text}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_input_arguments(parser, many=False)
    add_budget_arguments(parser)
    how_many = parser.add_mutually_exclusive_group()
    how_many.add_argument("--all", action="store_true",
                          help="list every solution (up to --limit)")
    how_many.add_argument(
        "--first", action="store_true",
        help="stop at the first solution found, without checking that it is the only one",
    )
    parser.add_argument(
        "--limit", type=limit_number, default=None, metavar="N",
        help=f"most solutions to look for (default 2, or {DEFAULT_ALL_LIMIT} with --all)",
    )
    parser.add_argument(
        "--out", metavar="PATH",
        help="write the solved puzzle(s) there, format from the suffix (.non, .yaml, .pbm, "
        "...); .png, .svg or .pdf draw the solved grid with its clues (--to png writes one "
        "pixel a cell instead)",
    )
    parser.add_argument("--to", dest="output_format", metavar="FORMAT",
                        choices=sorted(formats.FORMATS), help="format of --out")
    add_colour_argument(parser)


def marked_pair(first: tuple[str, ...], second: tuple[str, ...]) -> list[str]:
    """Two solutions side by side and a third grid with '!' where they differ."""
    column = max(len(first[0]), len("solution 1"))
    lines = [f"{'solution 1':<{column}}  {'solution 2':<{column}}  differ"]
    for a, b in zip(first, second, strict=True):
        marks = "".join("!" if x != y else "." for x, y in zip(a, b, strict=True))
        lines.append(f"{a:<{column}}  {b:<{column}}  {marks}")
    return lines


def describe(loaded: LoadedPuzzle, result: SolveResult, list_all: bool) -> list[str]:
    """What ``solve`` prints of one puzzle of either kind."""
    kind = kind_of(loaded.puzzle)
    title = f" ({shown(loaded.puzzle.title, TITLE_WIDTH)})" if loaded.puzzle.title else ""
    header = f"{shown(loaded.label)}{title}: {result.verdict}, {result.time_s:.3f} s"
    grids = [tuple(rows) for rows in kind.solution_rows(result)]
    if result.verdict == "multiple" and list_all:
        more = "" if result.complete else " (stopped at the limit; there may be more)"
        header += f", {len(grids)} solutions{more}"
    elif result.verdict == "undecided":
        header += f" ({result.reason})"
    if result.verdict == "solved":
        header += " (first solution; not checked for others)"
    lines = [header]
    if kind.legend():
        lines.append(f"colours: {kind.legend()}")
    if result.verdict in ("unique", "solved") or (result.verdict == "undecided" and grids):
        lines.extend(grids[0])
    elif result.verdict == "multiple" and not list_all:
        lines.append(f"{len(result.differing_cells)} cells differ between these two:")
        lines.extend(marked_pair(grids[0], grids[1]))
    elif result.verdict == "multiple":
        for number, grid in enumerate(grids, 1):
            lines.append(f"solution {number}:")
            lines.extend(grid)
    elif result.verdict == "none":
        lines.extend(broken_lines(loaded))
    return lines


def broken_lines(loaded: LoadedPuzzle) -> list[str]:
    """What to fix in a puzzle with no solution: the line that breaks, and the grid line
    logic had reached then, with that line marked."""
    return kind_of(loaded.puzzle).no_solution().lines()


def _draw_solution(path: str, kind: str, solved: list[AnyPuzzle]) -> None:
    """The solved grid with its clues, as a reader sees it (the first puzzle of several)."""
    from layout.render import caption_of, puzzle_page, render

    puzzle = solved[0]
    page = puzzle_page(puzzle, puzzle.solution_array(), caption_of(puzzle))
    try:
        atomic_write(Path(path), render(page, kind))
    except OSError as exc:
        raise FormatError(f"cannot write: {exc.strerror or exc}", path) from None


def write_solutions(path: str, format_name: str | None, solved: list[AnyPuzzle]) -> None:
    if not solved:
        raise FormatError("no solution to write", path)
    drawn = Path(path).suffix.lower().lstrip(".")
    if format_name is None and drawn in ("png", "svg", "pdf"):
        _draw_solution(path, drawn, solved)
        return
    if format_name is None:
        spec = formats.format_for_path(path)
        if spec is None:
            raise FormatError("cannot tell the output format from the suffix; use --to", path)
        format_name = spec.name
    try:
        data = write_puzzles(solved, format_name)
    except FormatError as exc:
        raise exc.located(path) from None
    atomic_write(Path(path), data)


def run(args: argparse.Namespace) -> int:
    from grader.solver import announce_compiling

    limit = args.limit or (DEFAULT_ALL_LIMIT if args.all else 2)
    budget = budget_from(args)
    solved: list[AnyPuzzle] = []
    announce_compiling(sys.stderr)  # a first compile is said, before any puzzle's clock
    status = DONE
    for loaded in iter_puzzles(expand_paths([args.files]), args.input_format, args.colours):
        kind = kind_of(loaded.puzzle)
        result = kind.solve(limit, budget, args.first)
        print(shown_lines(describe(loaded, result, args.all)), flush=True)
        status = max(status, for_verdict(result.verdict))
        if result.verdict in ("unique", "multiple", "solved"):
            solved.append(kind.with_solution(result.solutions[0]))
    if args.out:
        write_solutions(args.out, args.output_format, solved)
    return status
