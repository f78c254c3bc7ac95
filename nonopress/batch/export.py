"""Rows of a results database as CSV and JSON, in the report's order.

The order puts what needs a person's attention first: failed puzzles, puzzles with
several solutions or none, undecided ones; then the graded puzzles, hardest first. Only
graded puzzles with one solution have a score and stars.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from dataclasses import replace

from nonopress.batch.rows import ResultRow

#: Columns of the CSV export (the JSON export has these plus the solution rows).
CSV_FIELDS = (
    "key", "file", "index", "title", "width", "height", "status", "verdict", "level",
    "score", "stars", "minutes", "minutes_low", "minutes_high", "rungs", "steps", "time_s",
    "error", "finished_at", "grader",
)  # fmt: skip

_ATTENTION = {"failed": 0, "multiple": 1, "none": 2, "undecided": 3}


def attention_rank(row: ResultRow) -> int:
    """0 for the rows to look at first; graded puzzles with one solution come last."""
    if row.status == "failed":
        return _ATTENTION["failed"]
    if row.verdict in _ATTENTION:
        return _ATTENTION[row.verdict]
    return _ATTENTION["undecided"] if row.status == "undecided" else len(_ATTENTION)


def has_score(row: ResultRow) -> bool:
    """Whether a row's puzzle has a difficulty: graded, with one solution.

    Several solutions, none, or a grade cut short is a defect, never a difficulty
    (databases written before this rule may still hold a score for those).
    """
    return row.status == "graded" and row.verdict == "unique" and row.score is not None


def without_defect_scores(rows: Iterable[ResultRow]) -> list[ResultRow]:
    """``rows`` with the score, stars and minutes of every row without a difficulty
    removed."""
    return [
        row if has_score(row) or (row.score is None and row.stars is None
                                  and row.minutes is None)
        else replace(row, score=None, stars=None, minutes=None, minutes_low=None,
                     minutes_high=None)
        for row in rows
    ]


def _export_dict(row: ResultRow) -> dict[str, object]:
    data = row.as_dict()
    if not row.index:  # a file that could not be read: no puzzle, so no position
        data["index"] = None
    return data


def report_order(rows: Iterable[ResultRow]) -> list[ResultRow]:
    """Problems first, then by score, highest first; ties by file and position."""
    return sorted(
        rows,
        key=lambda r: (
            attention_rank(r),
            -(r.score if r.score is not None else float("-inf")),
            r.file,
            r.index,
        ),
    )


def to_json(rows: Sequence[ResultRow]) -> str:
    """A JSON array with one object per puzzle (keys as in the database, plus ``solution``)."""
    data = [_export_dict(row) for row in rows]
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


#: A text cell starting with one of these is a formula to a spreadsheet (=HYPERLINK(...)).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> object:
    """A CSV cell that a spreadsheet shows as text: formula-like text gets a leading '."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def to_csv(rows: Sequence[ResultRow]) -> str:
    """CSV with a header row; ``rungs`` is a JSON object in one cell; an empty cell where a
    value does not exist (no score for a defective puzzle, no index for an unreadable file)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for row in rows:
        data = _export_dict(row)
        data["rungs"] = json.dumps(row.rungs, sort_keys=True)
        writer.writerow([_cell(data[name]) for name in CSV_FIELDS])
    return buffer.getvalue()
