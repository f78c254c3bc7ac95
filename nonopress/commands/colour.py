"""What ``nonopress check / solve / info / convert`` do with colour puzzles.

The commands read files with :func:`iter_any_puzzles`; a black-and-white puzzle goes
down the usual path, a colour one to the functions here, which print the same kind of
lines and JSON records (with the palette, and solutions as rows of colour chars).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from grader.colour.io import read_any
from grader.colour.model import ColourPuzzle, format_colour_clue
from grader.colour.results import ColourSolveResult
from grader.errors import BundleError, FormatError
from grader.inputs import read_capped
from grader.model import Puzzle
from grader.results import Budget
from grader.text import TITLE_WIDTH, shown, shown_lines
from grader.wording import cell_list
from nonopress.commands.common import STDIN, LoadedPuzzle

if TYPE_CHECKING:
    from grader.colour.grading import ColourGrade


@dataclass(frozen=True)
class LoadedColourPuzzle:
    """One colour puzzle and where it came from (as :class:`LoadedPuzzle`)."""

    file: str
    index: int
    count: int
    puzzle: ColourPuzzle

    @property
    def label(self) -> str:
        return f"{self.file}#{self.index}" if self.count > 1 else self.file


def add_colour_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--colours", "--colors", dest="colours", type=int, default=None, metavar="N",
        help="read pictures (PNG, GIF, BMP) as colour puzzles of at most N colours",
    )


def read_input_any(path: str, format: str | None = None, colours: int | None = None
                   ) -> list[Puzzle | ColourPuzzle]:
    """The puzzles in ``path`` ('-' reads stdin), colour or black and white."""
    if path == STDIN:
        try:
            data = read_capped(sys.stdin.buffer, "<stdin>")
        except OSError as exc:
            raise FormatError(f"cannot read: {exc}", "<stdin>") from None
        return read_any(data, format=format, name="<stdin>", colours=colours)
    return read_any(path, format=format, colours=colours)


def iter_any_puzzles(paths: Sequence[str], format: str | None = None,
                     colours: int | None = None
                     ) -> Iterator[LoadedPuzzle | LoadedColourPuzzle]:
    """Each puzzle, black-and-white or colour, of each file in order (a file with some
    unreadable puzzles yields the others first, then raises its :class:`BundleError`)."""
    for path in paths:
        partial: BundleError | None = None
        numbered: list[tuple[int, Puzzle | ColourPuzzle]]
        try:
            puzzles = read_input_any(path, format, colours)
            numbered, count = list(enumerate(puzzles, 1)), len(puzzles)
        except BundleError as exc:
            partial, count = exc, exc.count
            numbered = [(index, puzzle) for index, puzzle in exc.readable]
        for index, puzzle in numbered:
            if isinstance(puzzle, ColourPuzzle):
                yield LoadedColourPuzzle(path, index, count, puzzle)
            else:
                yield LoadedPuzzle(path, index, count, puzzle)
        if partial is not None:
            raise partial


def palette_record(puzzle: ColourPuzzle) -> list[dict[str, str]]:
    return [{"name": c.name, "rgb": c.hex, "char": c.char, "symbol": c.symbol}
            for c in puzzle.palette.colours]


def summary(loaded: LoadedColourPuzzle) -> dict[str, Any]:
    puzzle = loaded.puzzle
    return {"file": loaded.file, "index": loaded.index, "label": loaded.label,
            "title": puzzle.title, "width": puzzle.width, "height": puzzle.height,
            "colours": puzzle.palette.size, "palette": palette_record(puzzle)}


def solve(loaded: LoadedColourPuzzle, limit: int, budget: Budget, first: bool = False
          ) -> ColourSolveResult:
    """The compiled solver's answer; a small puzzle that line logic solves is answered in
    Python first while the compiled solver is not loaded (saves most of a second)."""
    if "grader.colour.solver" not in sys.modules:
        from grader.colour.quick import prove_colour_by_line_logic

        quick = prove_colour_by_line_logic(loaded.puzzle, budget)
        if quick is not None:
            return quick
    from grader.colour.solver import solve_colour

    return solve_colour(loaded.puzzle, limit=limit, budget=budget, first=first)


# -- check ---------------------------------------------------------------------------------
def check_record(loaded: LoadedColourPuzzle, result: ColourSolveResult) -> dict[str, Any]:
    record = summary(loaded)
    record.update(verdict=result.verdict, time_s=round(result.time_s, 6),
                  cpu_s=round(result.cpu_s, 6), nodes=result.nodes)
    if result.verdict in ("unique", "multiple"):
        record["solutions"] = result.solution_rows(loaded.puzzle.palette)[:2]
        record["differing_cells"] = [list(cell) for cell in result.differing_cells]
    if result.reason:
        record["reason"] = result.reason
    return record


def check_line(loaded: LoadedColourPuzzle, result: ColourSolveResult) -> str:
    title = shown(loaded.puzzle.title, TITLE_WIDTH) or "-"
    line = f"{shown(loaded.label)}\t{title}\t{result.verdict}\t{result.time_s:.3f} s"
    if result.verdict == "multiple":
        cells = result.differing_cells
        line += f"\t{len(cells)} cells differ: {cell_list(cells)}"
    elif result.verdict == "undecided":
        line += f"\t{result.reason}"
    return line


# -- solve ---------------------------------------------------------------------------------
def legend(puzzle: ColourPuzzle) -> str:
    palette = puzzle.palette
    return shown("  ".join(f"{palette[i].char} {palette[i].name}"
                           for i in range(palette.size + 1)))


def describe(loaded: LoadedColourPuzzle, result: ColourSolveResult, list_all: bool
             ) -> list[str]:
    from nonopress.commands.solve import marked_pair

    puzzle = loaded.puzzle
    title = f" ({shown(puzzle.title, TITLE_WIDTH)})" if puzzle.title else ""
    header = f"{shown(loaded.label)}{title}: {result.verdict}, {result.time_s:.3f} s"
    grids = [tuple(rows) for rows in result.solution_rows(puzzle.palette)]
    if result.verdict == "multiple" and list_all:
        more = "" if result.complete else " (stopped at the limit; there may be more)"
        header += f", {len(grids)} solutions{more}"
    elif result.verdict == "undecided":
        header += f" ({result.reason})"
    lines = [header, f"colours: {legend(puzzle)}"]
    if result.verdict in ("unique", "solved") or (result.verdict == "undecided" and grids):
        lines.extend(grids[0])
    elif result.verdict == "multiple" and not list_all:
        lines.append(f"{len(result.differing_cells)} cells differ between these two:")
        lines.extend(marked_pair(grids[0], grids[1]))
    elif result.verdict == "multiple":
        for number, grid in enumerate(grids, 1):
            lines.append(f"solution {number}:")
            lines.extend(grid)
    return lines


# -- info ----------------------------------------------------------------------------------
def info_record(loaded: LoadedColourPuzzle) -> dict[str, Any]:
    puzzle = loaded.puzzle
    record = summary(loaded)
    clues = (*puzzle.rows, *puzzle.columns)
    filled = sum(n for clue in puzzle.rows for n, _ in clue)
    record.update({
        "author": puzzle.meta.author, "copyright": puzzle.meta.copyright,
        "license": puzzle.meta.license, "source": puzzle.meta.source,
        "rows": [format_colour_clue(c, puzzle.palette) for c in puzzle.rows],
        "columns": [format_colour_clue(c, puzzle.palette) for c in puzzle.columns],
        "has_solution": puzzle.solution is not None,
        "blocks": sum(map(len, puzzle.rows)),
        "column_blocks": sum(map(len, puzzle.columns)),
        "filled": filled,
        "density": round(filled / (puzzle.width * puzzle.height), 4),
        "largest_clue": max((n for clue in clues for n, _ in clue), default=0),
        "empty_lines": sum(1 for c in clues if not c),
        "key": puzzle.key(),
    })
    return record


def table_row(loaded: LoadedColourPuzzle) -> tuple[str, ...]:
    """The info table's columns; the size says how many colours."""
    from nonopress.commands.info import _short

    record = info_record(loaded)
    puzzle = loaded.puzzle
    return (
        shown(loaded.label),
        _short(puzzle.title or "-", 32),
        f"{puzzle.size} {puzzle.palette.size}col",
        str(record["blocks"]),
        str(record["filled"]),
        f"{record['density']:.0%}",
        str(record["largest_clue"]),
        _short(puzzle.meta.author or "-", 24),
        _short(puzzle.meta.license or "-", 16),
    )


# -- grade ---------------------------------------------------------------------------------
def grade_record(loaded: LoadedColourPuzzle, max_rung: str | None, budget: Budget
                 ) -> tuple[dict[str, Any], ColourGrade]:
    """What ``grade --json`` prints for one colour puzzle, and the grade itself."""
    from grader.colour.grading import grade_colour

    result = grade_colour(loaded.puzzle, max_rung=max_rung, budget=budget)
    record = summary(loaded)
    record.update(result.to_json())
    return record, result


def grade_one(loaded: LoadedColourPuzzle, args: argparse.Namespace, budget: Budget
              ) -> tuple[dict[str, Any] | None, str]:
    """Grade one colour puzzle for ``nonopress grade``: print its JSON record or its
    explanation, or return its row for the table; and its verdict. (--html pages show
    black and white only.)"""
    from grader.colour.grading import explain_colour
    from nonopress.commands.common import print_json_line

    puzzle = loaded.puzzle
    record, result = grade_record(loaded, args.max_rung, budget)
    if args.json:
        print_json_line(record)
        return None, result.verdict
    if args.explain:
        name = shown(puzzle.title or loaded.label, TITLE_WIDTH)
        colours = shown(", ".join(puzzle.palette.names()))
        about = f"{name}: {puzzle.size}, {puzzle.palette.size} colours ({colours}), "
        if result.score is None or result.stars is None:  # a defect, not a difficulty
            heading = about + f"{result.level}, no score: {result.problem}"
        else:
            heading = about + (f"{result.level}, score {result.score:.3f}, {result.stars} "
                               f"star{'s' * (result.stars != 1)}, verdict {result.verdict}")
        print(shown_lines(explain_colour(puzzle, result, heading)), flush=True)
        print(flush=True)
        return None, result.verdict
    row = result.to_json()
    row["name"] = shown(puzzle.title or loaded.label, TITLE_WIDTH)
    return row, result.verdict
