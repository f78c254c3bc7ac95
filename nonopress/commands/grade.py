"""``nonopress grade FILE...``: grade puzzles the way a person solves them."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from nonopress.commands.common import add_input_arguments, add_language_argument, positive_float

if TYPE_CHECKING:
    from grader.grading import Grade

HELP = "grade puzzles with human techniques: level, score, stars, step-by-step explanation"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from grader.ladder import rung_names

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
    add_language_argument(parser)
    parser.add_argument(
        "--max-rung",
        metavar="NAME",
        choices=rung_names(),
        help=f"grade with the ladder cut off above NAME ({', '.join(rung_names())})",
    )
    parser.add_argument(
        "--seconds",
        type=positive_float,
        default=60.0,
        metavar="S",
        help="time budget per puzzle (default 60); past it the level is 'undecided'",
    )


NO_SCORE = "-"


def _stars(count: int | None) -> str:
    return NO_SCORE if count is None else "*" * count + "." * (5 - count)


def _score(value: float | None) -> str:
    return NO_SCORE if value is None else f"{value:.3f}"


def _minutes(row: dict[str, Any]) -> str:
    """``12 (8-17)``: minutes and the range holding half of the measured times."""
    from grader.minutes import span_text

    if row.get("minutes") is None:
        return NO_SCORE
    return span_text(row["minutes"], row["minutes_low"], row["minutes_high"])


def _table(rows: list[dict[str, Any]]) -> str:
    headers = ("puzzle", "size", "level", "score", "minutes", "stars", "rungs", "time")
    table = [headers] + [
        (
            row["name"],
            row["size"],
            row["level"],
            _score(row["score"]),
            _minutes(row),
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


def _problems(rows: list[dict[str, Any]]) -> str:
    """What keeps the puzzles without a score from one, a line each."""
    unscored = [row for row in rows if row["score"] is None]
    defects = [row for row in unscored if row["level"] != "stuck"]
    stuck = [row for row in unscored if row["level"] == "stuck"]
    out: list[str] = []
    for group, head in (
        (defects, "without a score (a defect is not a difficulty)"),
        # --max-rung stopped them: they need a harder rung, which is no defect
        (stuck, "not solved by the rungs --max-rung allows (not defects: they need a "
                "harder rung)"),
    ):
        if group:
            count = len(group)
            out.append(f"{count} puzzle{'s' * (count != 1)} {head}:")
            out.extend(f"  {row['name']}: {row.get('problem') or row['level']}"
                       for row in group)
    return "\n".join(out)


def heading(name: str, result: Grade) -> str:
    """The first line of a puzzle's explanation (grader.explain.grade_heading)."""
    from grader.explain import grade_heading

    return grade_heading(name, result)


def closing(result: Grade) -> str:
    """Where a solve that did not finish stopped (grader.explain.grade_closing)."""
    from grader.explain import grade_closing

    return grade_closing(result)


def run(args: argparse.Namespace) -> int:
    import sys

    from grader.errors import NonopressError
    from grader.kinds import entry_of, kind_of
    from grader.results import Budget
    from grader.solver import announce_compiling
    from grader.text import TITLE_WIDTH, shown, shown_lines
    from nonopress.app.loading import iter_puzzles
    from nonopress.app.records import grade_record
    from nonopress.commands.common import iter_puzzles_reporting, print_json_line
    from nonopress.exit_status import BAD_INPUT, DONE, for_verdict

    if args.html and not args.explain:
        raise NonopressError("--html OUT goes with --explain")
    budget = Budget(seconds=args.seconds)
    rows: list[dict[str, Any]] = []
    pages = []
    announce_compiling(sys.stderr)  # a first compile is said, before any puzzle's clock
    status = DONE
    puzzles = iter_puzzles_reporting(
        args.files, "grade", lambda files: iter_puzzles(files, args.input_format)
    )
    for loaded in puzzles:
        if loaded is None:  # a file that could not be read (already reported)
            status = BAD_INPUT
            continue
        puzzle = loaded.puzzle
        kind = kind_of(puzzle)
        record, result = grade_record(loaded, args.max_rung, budget)
        status = max(status, for_verdict(result.verdict))
        if args.json:
            print_json_line(record)
        elif args.explain:
            name = shown(puzzle.title or loaded.label, TITLE_WIDTH)
            print(shown_lines(kind.explain(result, name)), flush=True)
            print(flush=True)
            if args.html:
                if not entry_of(puzzle).lines:  # the replay draws rows and columns of clues
                    raise NonopressError(f"{loaded.label}: --html replays line puzzles only; "
                                         "--explain alone explains this one")
                pages.append(kind.replay(loaded.label, result))
        else:
            row = result.to_json()
            row["name"] = shown(puzzle.title or loaded.label, TITLE_WIDTH)
            rows.append(row)
    if rows:
        print(_table(rows))
        problems = _problems(rows)
        if problems:
            print()
            print(problems)
    if args.html:
        from grader.atomic import atomic_write
        from grader.explain_html import explain_html

        atomic_write(args.html, explain_html(pages))
    return status
