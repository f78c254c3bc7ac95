"""``nonopress info FILE...``: size, clue statistics and metadata of each puzzle."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from grader.errors import NonopressError
from grader.kinds import AnyPuzzle, entry_of, kind_of
from grader.text import error_line, shown
from nonopress.app.loading import LoadedPuzzle, expand_paths, iter_puzzles, puzzle_summary
from nonopress.commands.common import add_colour_argument, add_input_arguments, print_json_line

HELP = "show each puzzle's size, clue statistics and metadata"

EXIT_BAD_INPUT = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_input_arguments(parser)
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON object per puzzle per line (file, index, title, width, height, rows, "
        "columns, metadata, statistics)",
    )
    add_colour_argument(parser)


@dataclass(frozen=True)
class ClueStats:
    """What the clues alone say about a puzzle."""

    blocks: int  #: numbers in the row clues (blocks of the picture)
    column_blocks: int
    filled: int  #: filled cells
    density: float  #: filled / all cells
    largest_clue: int
    empty_lines: int  #: rows and columns with no block

    @classmethod
    def of(cls, puzzle: AnyPuzzle) -> ClueStats:
        """The figures of either kind's clues (the block lengths; colours left out). A kind
        without rows and columns of clues (a mosaic) counts its clues as its blocks and
        its known solution's filled cells."""
        if not entry_of(puzzle).lines:
            picture = puzzle.solution_array()
            filled = 0 if picture is None else int(picture.sum())
            digits = [int(ch) for row in kind_of(puzzle).clue_texts()[0] for ch in str(row)
                      if ch.isdigit()]
            return cls(blocks=len(digits), column_blocks=0, filled=filled,
                       density=filled / (puzzle.width * puzzle.height),
                       largest_clue=max(digits, default=0), empty_lines=0)
        rows, columns = kind_of(puzzle).block_lengths()
        clues = (*rows, *columns)
        filled = sum(map(sum, rows))
        return cls(
            blocks=sum(map(len, rows)),
            column_blocks=sum(map(len, columns)),
            filled=filled,
            density=filled / (puzzle.width * puzzle.height),
            largest_clue=max((max(c) for c in clues if c), default=0),
            empty_lines=sum(1 for c in clues if not c),
        )


def info_record(loaded: LoadedPuzzle) -> dict[str, Any]:
    """The ``--json`` object for one puzzle."""
    puzzle = loaded.puzzle
    stats = ClueStats.of(puzzle)
    rows, columns = kind_of(puzzle).clue_texts()
    record = puzzle_summary(loaded)
    record.update(
        {
            "author": puzzle.meta.author,
            "copyright": puzzle.meta.copyright,
            "license": puzzle.meta.license,
            "source": puzzle.meta.source,
            "rows": rows,
            "columns": columns,
            "has_solution": puzzle.solution is not None,
            "blocks": stats.blocks,
            "column_blocks": stats.column_blocks,
            "filled": stats.filled,
            "density": round(stats.density, 4),
            "largest_clue": stats.largest_clue,
            "empty_lines": stats.empty_lines,
            "key": puzzle.key(),
        }
    )
    return record


COLUMNS = ("puzzle", "title", "size", "blocks", "filled", "density", "largest", "author",
           "licence")


def table_row(loaded: LoadedPuzzle) -> tuple[str, ...]:
    puzzle = loaded.puzzle
    stats = ClueStats.of(puzzle)
    return (
        shown(loaded.label),
        _short(puzzle.title or "-", 32),
        kind_of(puzzle).size_label(),
        str(stats.blocks),
        str(stats.filled),
        f"{stats.density:.0%}",
        str(stats.largest_clue),
        _short(puzzle.meta.author or "-", 24),
        _short(puzzle.meta.license or "-", 16),
    )


def _short(text: str, width: int) -> str:
    return shown(" ".join(text.split()), width)


def format_table(rows: Sequence[tuple[str, ...]]) -> str:
    """Columns padded to their widest cell; numbers right-aligned."""
    numeric = {3, 4, 5, 6}
    table = [COLUMNS, *rows]
    widths = [max(len(r[i]) for r in table) for i in range(len(COLUMNS))]
    lines = []
    for row in table:
        cells = [
            cell.rjust(widths[i]) if i in numeric else cell.ljust(widths[i])
            for i, cell in enumerate(row)
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Report every readable file; an unreadable one gets its error line and exit status 2."""
    failed = False
    rows: list[tuple[str, ...]] = []
    for given in args.files:
        try:  # a folder: each puzzle file under it, as grade and batch read folders
            files = expand_paths([given])
        except NonopressError as exc:
            print(error_line("nonopress info: ", str(exc)), file=sys.stderr)
            failed = True
            continue
        for path in files:
            failed = _report(path, args, rows) or failed
    if not args.json and rows:
        print(format_table(rows))
    return EXIT_BAD_INPUT if failed else 0


def _report(path: str, args: argparse.Namespace, rows: list[tuple[str, ...]]) -> bool:
    """One file's puzzles as JSON lines or table rows; whether it failed."""
    try:
        loaded_puzzles = list(iter_puzzles([path], args.input_format, args.colours))
    except NonopressError as exc:
        print(error_line("nonopress info: ", str(exc)), file=sys.stderr)
        return True
    for loaded in loaded_puzzles:
        if args.json:
            print_json_line(info_record(loaded))
        else:
            rows.append(table_row(loaded))
    return False
