"""``nonopress grade FILE...``: grade puzzles the way a person solves them."""

from __future__ import annotations

import argparse
from typing import Any

from grader.commands.common import add_input_arguments

HELP = "grade puzzles with human techniques: level, score, stars, step-by-step explanation"

RUNG_NAMES = (
    "simple-boxes",
    "extreme-owners",
    "owner-branching",
    "line-analysis",
    "cell-branching",
    "recursion",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_input_arguments(parser)
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    output.add_argument(
        "--explain", action="store_true", help="print every step as a sentence, with the grid"
    )
    parser.add_argument(
        "--html",
        metavar="OUT",
        help="with --explain: write a page replaying each solve with its cells highlighted",
    )
    parser.add_argument(
        "--max-rung",
        metavar="NAME",
        choices=RUNG_NAMES,
        help=f"grade with the ladder cut off above NAME ({', '.join(RUNG_NAMES)})",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=60.0,
        metavar="S",
        help="time budget per puzzle (default 60); past it the level is 'undecided'",
    )


def _stars(count: int) -> str:
    return "*" * count + "." * (5 - count)


def _table(rows: list[dict[str, Any]]) -> str:
    headers = ("puzzle", "size", "level", "score", "minutes", "stars", "rungs", "time")
    table = [headers] + [
        (
            row["name"],
            row["size"],
            row["level"],
            f"{row['score']:.3f}",
            f"{row['effort_minutes']:.0f}",
            _stars(row["stars"]),
            " ".join(f"{rung}:{count}" for rung, count in row["rungs"].items()) or "-",
            f"{row['time_s']:.2f}s",
        )
        for row in rows
    ]
    widths = [max(len(line[i]) for line in table) for i in range(len(headers))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip()
        for line in table
    )


def run(args: argparse.Namespace) -> int:
    from grader.commands.common import print_json_line, puzzle_summary
    from grader.errors import NonopressError
    from grader.explain import explain_text
    from grader.grading import grade
    from grader.results import Budget
    from grader.text import TITLE_WIDTH, shown

    if args.html and not args.explain:
        raise NonopressError("--html OUT goes with --explain")
    if args.seconds <= 0:
        raise NonopressError("--seconds must be positive")
    budget = Budget(seconds=args.seconds)
    rows: list[dict[str, Any]] = []
    pages = []
    from grader.colour import commands as colour

    for loaded in colour.iter_any_puzzles(args.files, args.input_format):
        if isinstance(loaded, colour.LoadedColourPuzzle):
            row = colour.grade_one(loaded, args, budget)
            if row is not None:
                rows.append(row)
            continue
        puzzle = loaded.puzzle
        result = grade(puzzle, max_rung=args.max_rung, budget=budget)
        if args.json:
            record = puzzle_summary(loaded)
            record.update(result.to_json())
            record["title"] = puzzle.title
            print_json_line(record)
        elif args.explain:
            name = shown(puzzle.title or loaded.label, TITLE_WIDTH)
            heading = (
                f"{name}: {puzzle.size}, {result.level}, score {result.score:.3f}, "
                f"about {result.effort_minutes:.0f} min, "
                f"{result.stars} star{'s' * (result.stars != 1)}, verdict {result.verdict}"
            )
            print(explain_text(puzzle, result.steps, heading), flush=True)
            print(flush=True)
            if args.html:
                from grader.explain_html import GradedPuzzle

                pages.append(GradedPuzzle(loaded.label, puzzle, result))
        else:
            row = result.to_json()
            row["name"] = shown(puzzle.title or loaded.label, TITLE_WIDTH)
            rows.append(row)
    if rows:
        print(_table(rows))
    if args.html:
        from grader.atomic import atomic_write
        from grader.explain_html import explain_html

        atomic_write(args.html, explain_html(pages))
    return 0
